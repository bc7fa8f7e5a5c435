/* comp_drive.c: a simulated drive (disk.c) as a component. It accepts commands up to its tag
 * limit (the model's queue_depth waiting, QUEUE FULL beyond), and whenever it is free and has
 * work it picks its next command in a late event of that instant, so that everything arriving
 * at the same time is considered; the command's completion is an event at its end. */
#include <errno.h>
#include <stdlib.h>

#include "iolab/sim_system.h"

enum { EV_PICK, EV_END };

struct drive {
	struct iolab_disk *disk;
	uint32_t block_bytes;
	struct iolab_comp_report rep; /* ios, bytes, busy and resident time so far */
	bool busy;   /* a command's end is scheduled */
	bool picking; /* a pick is scheduled */
};

static void want_pick(struct iolab_comp *c, struct drive *d)
{
	if (!d->busy && !d->picking && iolab_disk_outstanding(d->disk)) {
		d->picking = true;
		iolab_sim_at_late(c, c->sim->now, EV_PICK, NULL);
	}
}

static bool drive_full(const struct iolab_comp *c)
{
	return iolab_disk_full(((const struct drive *)c->priv)->disk);
}

static int drive_submit(struct iolab_comp *c, struct iolab_sreq *r)
{
	struct drive *d = c->priv;
	r->d.t_arrive = c->sim->now > r->d.t_arrive ? c->sim->now : r->d.t_arrive;
	int rc = iolab_disk_submit(d->disk, &r->d);
	if (!rc)
		want_pick(c, d);
	return rc;
}

static void drive_event(struct iolab_comp *c, unsigned what, void *arg)
{
	struct drive *d = c->priv;
	if (what == EV_PICK) {
		d->picking = false;
		struct iolab_disk_req *r = iolab_disk_next(d->disk);
		if (r) {
			uint64_t start = r->t_arrive > c->sim->now ? r->t_arrive : c->sim->now;
			d->rep.busy_ns += (double)(r->t_done - start);
			d->busy = true;
			iolab_sim_at(c, r->t_done, EV_END, r);
		}
		return;
	}
	d->busy = false;
	struct iolab_disk_req *r = arg;
	d->rep.ios++;
	d->rep.bytes += (uint64_t)r->blocks * d->block_bytes;
	d->rep.resident_ns += (double)(r->t_done - r->t_arrive);
	iolab_sim_done(c->sim, (struct iolab_sreq *)r); /* d is the first member of the sreq */
	want_pick(c, d);
}

static void drive_cleanup(struct iolab_comp *c)
{
	struct drive *d = c->priv;
	if (d)
		iolab_disk_free(d->disk);
	free(d);
}

const struct iolab_comp_ops iolab_comp_drive = {
	.kind = "drive",
	.version = IOLAB_COMP_OPS_VERSION,
	.submit = drive_submit,
	.full = drive_full,
	.event = drive_event,
	.cleanup = drive_cleanup,
};

int iolab_comp_drive_init(struct iolab_comp *c, struct iolab_sim *s, const struct iolab_disk_model *m)
{
	struct drive *d = calloc(1, sizeof(*d));
	if (!d || !(d->disk = iolab_disk_new(m))) {
		free(d);
		return -ENOMEM;
	}
	d->block_bytes = m->block_bytes;
	*c = (struct iolab_comp){.ops = &iolab_comp_drive, .sim = s, .priv = d};
	return 0;
}

void iolab_comp_drive_report(const struct iolab_comp *c, struct iolab_comp_report *out)
{
	*out = ((const struct drive *)c->priv)->rep;
	out->kind = "drive";
}

const struct iolab_disk_stats *iolab_comp_drive_stats(const struct iolab_comp *c)
{
	return iolab_disk_stats(((const struct drive *)c->priv)->disk);
}


