/* engine_sim.c: the simulator as an engine. It builds a simulated I/O path (sim_system.h): the
 * host (comp_host.c: its queue and time per command) above a drive (comp_drive.c), or above a
 * RAID 0, 1 or 5 volume of several drives (comp_volume.c, --array). Requests of
 * the generator enter the host at the system's virtual time; reap() runs the system's events
 * until requests finish, and the engine's clock is the system's. Byte offsets become blocks of
 * the model's block size. */
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>

#include "iolab/engine.h"
#include "iolab/sim_system.h"
#include "iolab/workload.h"

struct sim_state {
	const struct iolab_disk_model *m;
	struct iolab_sim sys;
	struct iolab_comp host, below; /* below the host: a drive, or a volume over drives */
	struct iolab_sreq *req;        /* one per slot */
};

static void free_state(struct sim_state *s)
{
	iolab_comp_free(&s->host);
	iolab_comp_free(&s->below);
	iolab_sim_free(&s->sys);
	free(s->req);
	free(s);
}

static int sim_init(struct iolab_engine *e, const struct iolab_engine_params *p, struct iolab_err *err)
{
	const struct iolab_disk_model *m = p->config;
	if (!m)
		return iolab_errf(err, EINVAL, "sim engine: no drive model given (use 'iolab sim --model')");
	struct sim_state *s = calloc(1, sizeof(*s));
	if (!s)
		return iolab_errf(err, ENOMEM, "sim engine: out of memory");
	s->m = m;
	s->req = calloc(p->qd, sizeof(*s->req));
	const struct iolab_volume_params *v = &p->volume;
	int rc = !s->req ? -ENOMEM : iolab_sim_init(&s->sys, p->qd);
	if (!rc)
		rc = v->level ? iolab_comp_volume_init(&s->below, &s->sys, m, v->level, v->drives,
						       v->stripe_bytes / m->block_bytes, v->failed)
			      : iolab_comp_drive_init(&s->below, &s->sys, m);
	if (!rc)
		rc = iolab_comp_host_init(&s->host, &s->sys, &s->below, &p->host, p->qd, m->block_bytes);
	if (rc) {
		free_state(s);
		return rc == -EINVAL ? iolab_errf(err, EINVAL, "sim engine: a volume of %u drives cannot "
						  "be built so (level, stripe unit, failed drive)", v->drives)
				     : iolab_errf(err, ENOMEM, "sim engine: out of memory");
	}
	e->priv = s;
	return 0;
}

static int sim_submit(struct iolab_engine *e, struct iolab_io *const *ios, unsigned n)
{
	struct sim_state *s = e->priv;
	uint32_t bb = s->m->block_bytes;
	for (unsigned i = 0; i < n; i++) {
		struct iolab_io *io = ios[i];
		struct iolab_sreq *r = &s->req[io->slot];
		*r = (struct iolab_sreq){.d = {.lbn = io->off / bb, .blocks = (io->len + bb - 1) / bb,
					       .write = io->op == IOLAB_OP_WRITE, .user = io}};
		int rc = s->host.ops->submit(&s->host, r);
		if (rc)
			return i ? (int)i : rc;
	}
	e->sub_seen += n; /* none completes before virtual time moves on in reap() */
	return (int)n;
}

/* Runs the system until min of the load's requests have finished (or nothing is left to do),
 * and returns up to max of them. */
static int sim_reap(struct iolab_engine *e, unsigned min, struct iolab_io **done, unsigned max)
{
	struct sim_state *s = e->priv;
	struct iolab_sim *sys = &s->sys;
	while (sys->ndone < (min ? min : 1) && !sys->error && iolab_sim_step(sys))
		;
	if (sys->error)
		return sys->error;
	unsigned got = sys->ndone < max ? sys->ndone : max;
	for (unsigned i = 0; i < got; i++) {
		struct iolab_io *io = sys->done[i]->d.user;
		io->res = (int32_t)io->len;
		done[i] = io;
	}
	for (unsigned i = got; i < sys->ndone; i++)
		sys->done[i - got] = sys->done[i];
	sys->ndone -= got;
	return (int)got;
}

static uint64_t sim_now(struct iolab_engine *e)
{
	return ((struct sim_state *)e->priv)->sys.now;
}

/* Virtual time moves on to t unless a request finishes first (iolab_sim_advance). */
static uint64_t sim_advance(struct iolab_engine *e, uint64_t t)
{
	return iolab_sim_advance(&((struct sim_state *)e->priv)->sys, t);
}

static void sim_breakdown(struct iolab_engine *e, struct iolab_breakdown *b)
{
	const struct sim_state *s = e->priv;
	const struct iolab_comp *drives = &s->below;
	unsigned n = s->below.ops == &iolab_comp_volume ? iolab_comp_volume_drives(&s->below, &drives) : 1;
	struct iolab_comp_report host;
	iolab_comp_host_report(&s->host, &host);
	b->host_ns += host.resident_ns; /* the host's waiting and time per command */
	for (unsigned i = 0; i < n; i++) { /* a volume's drives together: per drive command */
		const struct iolab_disk_stats *st = iolab_comp_drive_stats(&drives[i]);
		b->overhead_ns += st->overhead_ns;
		b->queue_ns += st->queue_ns;
		b->seek_ns += st->seek_ns;
		b->rotate_ns += st->rotate_ns;
		b->media_ns += st->media_ns;
		b->bus_ns += st->bus_ns;
		b->ios += st->reads + st->writes;
		b->reads += st->reads;
		b->read_hits += st->read_hits;
		b->read_partial_hits += st->read_partial_hits;
	}
}

static unsigned sim_components(struct iolab_engine *e, struct iolab_comp_report *out, unsigned max)
{
	const struct sim_state *s = e->priv;
	const struct iolab_comp *drives = &s->below;
	bool volume = s->below.ops == &iolab_comp_volume;
	unsigned n = volume ? iolab_comp_volume_drives(&s->below, &drives) : 1, k = 0;
	if (k < max) {
		iolab_comp_host_report(&s->host, &out[k]);
		snprintf(out[k++].name, sizeof(out->name), "host");
	}
	if (volume && k < max) {
		iolab_comp_volume_report(&s->below, &out[k]);
		snprintf(out[k++].name, sizeof(out->name), "volume");
	}
	for (unsigned i = 0; i < n && k < max; i++) {
		iolab_comp_drive_report(&drives[i], &out[k]);
		if (volume)
			snprintf(out[k++].name, sizeof(out->name), "drive%u", i + 1);
		else
			snprintf(out[k++].name, sizeof(out->name), "drive");
	}
	for (unsigned i = 0; i < k; i++)
		out[i].span_ns = (double)s->sys.now;
	return k;
}

static unsigned sim_device_depth(const void *config)
{
	const struct iolab_disk_model *m = config;
	return m ? m->queue_depth : 0;
}

static void sim_cleanup(struct iolab_engine *e)
{
	if (e->priv)
		free_state(e->priv);
	e->priv = NULL;
}

const struct iolab_engine_ops iolab_engine_sim = {
	.name = "sim",
	.version = IOLAB_ENGINE_OPS_VERSION,
	.about = "simulated drive in virtual time (iolab sim --model NAME)",
	.flags = IOLAB_ENGINE_VIRTUAL,
	.init = sim_init,
	.submit = sim_submit,
	.reap = sim_reap,
	.cleanup = sim_cleanup,
	.now = sim_now,
	.breakdown = sim_breakdown,
	.components = sim_components,
	.device_depth = sim_device_depth,
	.advance = sim_advance,
};
