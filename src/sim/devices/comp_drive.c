/* comp_drive.c: a simulated drive (disk.c) as a component. It accepts commands up to its tag
 * limit (the model's queue_depth waiting, QUEUE FULL beyond), and whenever it is free and has
 * work it picks its next command in a late event of that instant, so that everything arriving
 * at the same time is considered; the command's completion is an event at its end.
 *
 * On a channel (comp_link.c) the command's data phase must win the channel: a write's data
 * crosses it when the command starts, a read's when its data is ready, and the command ends
 * when the transfer does, if that is later than the drive alone would end; the drive is held
 * until then. On an exclusive channel (parallel ATA) the drive first waits for the channel and
 * holds it until the command ends. Without a channel nothing changes.
 *
 * A trim (TRIM, discard) does not reach the mechanism: a drive that accepts it (SCSI UNMAP on a
 * thin or shingled drive) only records it, so it completes after the model's command overhead
 * for a write and its completion overhead, beside the queue, moving no data. */
#include <errno.h>
#include <stdlib.h>

#include "iolab/sim_kinds.h"
#include "iolab/sim_system.h"
#include "iolab/subsys.h"

enum { EV_PICK, EV_END, EV_SENT, EV_TRIM };

struct drive {
	struct iolab_disk *disk;
	uint32_t block_bytes;
	uint64_t trim_ns;          /* a trim's time: command and completion overheads */
	uint64_t bus_ns_per_block; /* the drive's own interface time per block */
	struct iolab_comp *link;   /* its channel, or NULL */
	struct iolab_disk_model *own_model; /* the copy it was built with (drive_build), or NULL */
	struct iolab_comp_report rep; /* ios, bytes, busy and resident time so far */
	bool busy;   /* a command's end is scheduled */
	bool picking; /* a pick is scheduled */
	bool waiting; /* for its exclusive channel, which will wake it */
};

static void want_pick(struct iolab_comp *c, struct drive *d)
{
	if (!d->busy && !d->picking && !d->waiting && iolab_disk_outstanding(d->disk)) {
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
	if (r->d.trim) {
		r->d.t_done = r->d.t_arrive + d->trim_ns;
		iolab_sim_at(c, r->d.t_done, EV_TRIM, r);
		return 0;
	}
	int rc = iolab_disk_submit(d->disk, &r->d);
	if (!rc)
		want_pick(c, d);
	return rc;
}

/* Extends the command in service to end at t (its data is still on the channel). The drive
 * waits: that time is not its own work, so its utilization does not count it. */
static void hold_until(struct drive *d, struct iolab_disk_req *r, uint64_t t)
{
	if (t <= r->t_done)
		return;
	r->t_done = t;
	iolab_disk_hold(d->disk, t);
}

static void pick(struct iolab_comp *c, struct drive *d)
{
	uint64_t now = c->sim->now;
	d->picking = false;
	d->waiting = false;
	if (d->link) {
		if (iolab_comp_link_exclusive(d->link) && !iolab_comp_link_acquire(d->link, c, EV_PICK)) {
			d->waiting = true; /* the channel wakes it */
			return;
		}
		iolab_disk_hold(d->disk, now);
	}
	struct iolab_disk_req *r = iolab_disk_next(d->disk);
	if (!r) {
		if (d->link && iolab_comp_link_exclusive(d->link))
			iolab_comp_link_release(d->link, c);
		return;
	}
	uint64_t start = r->t_arrive > now ? r->t_arrive : now;
	d->rep.busy_ns += (double)(r->t_done - start);
	d->busy = true;
	if (d->link) {
		uint64_t bytes = (uint64_t)r->blocks * d->block_bytes;
		double own = (double)r->blocks * (double)d->bus_ns_per_block;
		if (iolab_comp_link_exclusive(d->link)) { /* held throughout: no one to contend with */
			double x = iolab_comp_link_time(d->link, bytes);
			hold_until(d, r, r->t_done + (uint64_t)(x > own ? x - own + 0.5 : 0));
			iolab_comp_link_transfer(d->link, 0, 0, bytes);
		} else if (r->write) { /* the data comes first */
			uint64_t sent = iolab_comp_link_transfer(d->link, (double)start,
								 (double)start + own, bytes);
			uint64_t alone = start + (uint64_t)(own + 0.5);
			hold_until(d, r, r->t_done + (sent > alone ? sent - alone : 0));
		}
	}
	iolab_sim_at(c, r->t_done, EV_END, r);
}

static void finish(struct iolab_comp *c, struct drive *d, struct iolab_disk_req *r)
{
	d->busy = false;
	if (d->link && iolab_comp_link_exclusive(d->link))
		iolab_comp_link_release(d->link, c);
	d->rep.ios++;
	d->rep.bytes += (uint64_t)r->blocks * d->block_bytes;
	d->rep.resident_ns += (double)(r->t_done - r->t_arrive);
	iolab_sim_done(c->sim, (struct iolab_sreq *)r); /* d is the first member of the sreq */
	want_pick(c, d);
}

static void drive_event(struct iolab_comp *c, unsigned what, void *arg)
{
	struct drive *d = c->priv;
	struct iolab_disk_req *r = arg;
	if (what == EV_PICK) {
		pick(c, d);
	} else if (what == EV_TRIM) {
		d->rep.ios++;
		d->rep.resident_ns += (double)(r->t_done - r->t_arrive);
		iolab_sim_done(c->sim, (struct iolab_sreq *)r);
	} else if (what == EV_END && d->link && !r->write && !iolab_comp_link_exclusive(d->link)) {
		/* The read's data is ready: it goes over the channel. */
		double own = (double)r->blocks * (double)d->bus_ns_per_block;
		uint64_t sent = iolab_comp_link_transfer(d->link, (double)r->t_done - own,
							 (double)r->t_done,
							 (uint64_t)r->blocks * d->block_bytes);
		if (sent > r->t_done) {
			hold_until(d, r, sent);
			iolab_sim_at(c, sent, EV_SENT, r);
		} else {
			finish(c, d, r);
		}
	} else {
		finish(c, d, r);
	}
}

/* Where the drive's commands spent their time (disk.c's phases): its overhead (command
 * processing), waiting in its queue, seek, rotational latency, media transfer, and the
 * interface transfer beyond the media's. */
static void drive_breakdown(const struct iolab_comp *c, struct iolab_breakdown *b)
{
	const struct iolab_disk_stats *st = iolab_disk_stats(((const struct drive *)c->priv)->disk);
	iolab_breakdown_put(b, "overhead", st->overhead_ns);
	iolab_breakdown_put(b, "queue", st->queue_ns);
	iolab_breakdown_put(b, "seek", st->seek_ns);
	iolab_breakdown_put(b, "rotation", st->rotate_ns);
	iolab_breakdown_put(b, "media", st->media_ns);
	iolab_breakdown_put(b, "interface", st->bus_ns);
	b->ios += st->reads + st->writes;
	b->reads += st->reads;
	b->read_hits += st->read_hits;
	b->read_partial_hits += st->read_partial_hits;
}

static void drive_cleanup(struct iolab_comp *c)
{
	struct drive *d = c->priv;
	if (d) {
		iolab_disk_free(d->disk);
		free(d->own_model);
	}
	free(d);
}

const struct iolab_comp_ops iolab_comp_drive = {
	.kind = "drive",
	.version = IOLAB_COMP_OPS_VERSION,
	.submit = drive_submit,
	.full = drive_full,
	.event = drive_event,
	.cleanup = drive_cleanup,
	.report = iolab_comp_drive_report,
	.breakdown = drive_breakdown,
};

int iolab_comp_drive_init(struct iolab_comp *c, struct iolab_sim *s, const struct iolab_disk_model *m)
{
	struct drive *d = calloc(1, sizeof(*d));
	if (!d || !(d->disk = iolab_disk_new(m))) {
		free(d);
		return -ENOMEM;
	}
	d->block_bytes = m->block_bytes;
	d->trim_ns = m->ovh_write_miss[0] + m->ovh_complete[1];
	d->bus_ns_per_block = m->bus_ns_per_block;
	*c = (struct iolab_comp){.ops = &iolab_comp_drive, .sim = s, .priv = d};
	return 0;
}

void iolab_comp_drive_report(const struct iolab_comp *c, struct iolab_comp_report *out)
{
	*out = ((const struct drive *)c->priv)->rep;
	snprintf(out->kind, sizeof(out->kind), "%s", "drive");
}

const struct iolab_disk_stats *iolab_comp_drive_stats(const struct iolab_comp *c)
{
	return iolab_disk_stats(((const struct drive *)c->priv)->disk);
}

void iolab_comp_drive_attach(struct iolab_comp *c, struct iolab_comp *link)
{
	((struct drive *)c->priv)->link = link;
}

/* The drive as a device kind of a subsystem file (sim_kinds.h): a mechanical drive of a model
 * (disk.c), its write cache as the line says. A drive whose model is an SSD model is the ssd
 * kind's (dev_ssd.c): these hand it over. */
static bool ssd_model(const struct iolab_subsys *s, const struct iolab_sub_drive *d)
{
	return d->model < s->nmodel && s->model[d->model].ssd;
}

static void drive_geometry(const struct iolab_subsys *s, const struct iolab_sub_drive *d,
			   uint64_t *blocks, uint32_t *block_bytes)
{
	if (ssd_model(s, d)) {
		iolab_kind_ssd.device->geometry(s, d, blocks, block_bytes);
		return;
	}
	*blocks = s->model[d->model].blocks;
	*block_bytes = s->model[d->model].block_bytes;
}

static int drive_check(const struct iolab_subsys *s, const struct iolab_sub_drive *d,
		       struct iolab_err *err)
{
	if (d->model >= s->nmodel)
		return iolab_errf(err, EINVAL, "field 'model': model index %u is out of range", d->model);
	if (d->write_cache < -1 || d->write_cache > 1)
		return iolab_errf(err, EINVAL, "field 'write-cache': %d is not -1 (as the model), 0 or 1",
				  d->write_cache);
	return ssd_model(s, d) ? iolab_kind_ssd.device->check(s, d, err) : 0;
}

/* Its own copy of its model: the write cache as the description says, and on a modelled
 * channel the channel's rate, since the interface time of a model is that of the bus it was
 * measured on. */
static int drive_build(struct iolab_comp *c, struct iolab_sim *sim, const struct iolab_subsys *s,
		       const struct iolab_sub_drive *d, const struct iolab_link_type *t,
		       struct iolab_comp *link)
{
	if (ssd_model(s, d))
		return iolab_kind_ssd.device->build(c, sim, s, d, t, link);
	struct iolab_disk_model *m = malloc(sizeof(*m));
	if (!m)
		return -ENOMEM;
	*m = s->model[d->model];
	if (d->write_cache >= 0)
		m->write_back = d->write_cache;
	if (t && t->rated_mb_s > 0)
		m->bus_ns_per_block = (uint64_t)((double)m->block_bytes * 1e3 /
						 (t->rated_mb_s * t->efficiency) + 0.5);
	int rc = iolab_comp_drive_init(c, sim, m);
	if (rc) {
		free(m);
		return rc;
	}
	((struct drive *)c->priv)->own_model = m;
	if (link)
		iolab_comp_drive_attach(c, link);
	return 0;
}

static const struct iolab_device_ops drive_device = {
	.geometry = drive_geometry,
	.check = drive_check,
	.build = drive_build,
};

static const struct iolab_param drive_params[] = {
	{.key = "model", .type = IOLAB_PT_MODEL, .off = offsetof(struct iolab_sub_drive, model),
	 .required = true, .def_doc = "",
	 .doc = "a built-in model (`iolab models`) or a model file: a name holding `/` or ending in "
		"`.model`, relative to the current directory (docs/model-format.md)"},
	{.key = "channel", .type = IOLAB_PT_REF, .ref = "channel", .fixed = true,
	 .off = offsetof(struct iolab_sub_drive, channel), .def_doc = "none modelled",
	 .doc = "the channel it is on"},
	{.key = "write-cache", .type = IOLAB_PT_SWITCH,
	 .off = offsetof(struct iolab_sub_drive, write_cache), .def_doc = "as the model says",
	 .doc = "`on` or `off`: the drive's own write-back cache"},
};

const struct iolab_kind iolab_kind_drive = {
	.name = "drive", .cls = IOLAB_KC_DEVICE, .ops = &iolab_comp_drive,
	.about = "a mechanical drive of a model: seek, rotation, media, its cache and interface",
	.params = drive_params, .nparams = sizeof(drive_params) / sizeof(drive_params[0]),
	.device = &drive_device,
};
