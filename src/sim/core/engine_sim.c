/* engine_sim.c: the simulator as an engine. It builds the point's simulated I/O path from its
 * subsystem description (subsys.h; subsys_build.c): the host (its queue and time per command)
 * above the buses, controllers, volumes, channels and drives the description names, or above a
 * lone drive. Requests of the generator enter the host at the system's virtual time; reap()
 * runs the system's events until requests finish, and the engine's clock is the system's. Byte
 * offsets become blocks of the drives' block size; with the load aimed at volumes by name
 * (--target), a request of target t goes to t's range of the volumes joined end to end. With
 * --precondition, every device that keeps a state of its own (an SSD's FTL) is put in its
 * steady state once the path is built, before the first request. */
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "iolab/engine.h"
#include "iolab/sim_kinds.h"
#include "iolab/sim_system.h"
#include "iolab/subsys_shape.h"
#include "iolab/workload.h"
#include "sim/description/subsys_build.h"

struct sim_state {
	uint32_t block_bytes;
	uint64_t target_lbn[IOLAB_SUBSYS_MAX]; /* the first block of each target volume (subsys.h:
						  the load aimed at volumes by name), or 0 */
	unsigned ntarget;
	struct iolab_sim sys;
	struct iolab_path path;
	struct iolab_sreq *req; /* one per slot */
};

static void free_state(struct sim_state *s)
{
	iolab_path_free(&s->path);
	iolab_sim_free(&s->sys);
	free(s->req);
	free(s);
}

/* The subsystem cfg describes into *d: its own, or a lone drive's shaped into *lone (malloc'd;
 * the caller frees it). Returns 0, or -EINVAL/-ENOMEM with err set. */
static int path_of(const struct iolab_sim_engine_config *cfg, const struct iolab_subsys **d,
		   struct iolab_subsys **lone, struct iolab_err *err)
{
	*lone = NULL;
	*d = cfg->subsys;
	if (*d)
		return 0;
	if (!(*lone = malloc(sizeof(**lone))))
		return iolab_errf(err, ENOMEM, "sim engine: out of memory");
	struct iolab_sim_shape sh = {.model = cfg->model, .host = cfg->host, .failed = {-1, -1},
				     .drive_cache = -1};
	if (iolab_subsys_shape(&sh, *lone, err)) {
		free(*lone);
		*lone = NULL;
		return -EINVAL;
	}
	*d = *lone;
	return 0;
}

bool iolab_sim_preconditions(const struct iolab_sim_engine_config *cfg)
{
	struct iolab_subsys *lone = NULL;
	const struct iolab_subsys *d = NULL;
	struct iolab_err err;
	if (cfg && (cfg->model || cfg->subsys))
		path_of(cfg, &d, &lone, &err);
	bool any = false;
	for (unsigned i = 0; d && i < d->ndrive && !any; i++) { /* the kind that builds it */
		const struct iolab_comp_ops *ops = iolab_device_kind(d, &d->drive[i])->ops;
		any = ops && ops->precondition;
	}
	free(lone);
	return any;
}

/* --precondition: every device of the path that keeps a state of its own gets its steady one. */
static int precondition(struct sim_state *s, struct iolab_err *err)
{
	for (unsigned i = 0; i < s->path.ndrive; i++) {
		struct iolab_comp *dev = s->path.drive[i];
		int rc = dev->ops->precondition ? dev->ops->precondition(dev) : 0;
		if (rc)
			return iolab_errf(err, -rc, "sim engine: --precondition: %s", strerror(-rc));
	}
	return 0;
}

static int sim_init(struct iolab_engine *e, const struct iolab_engine_params *p, struct iolab_err *err)
{
	const struct iolab_sim_engine_config *cfg = p->config;
	const struct iolab_disk_model *m = cfg ? cfg->model : NULL;
	if (!m && !(cfg && cfg->subsys))
		return iolab_errf(err, EINVAL, "sim engine: no drive model given (use 'iolab sim --model')");
	struct iolab_subsys *lone;
	const struct iolab_subsys *d;
	int rc = path_of(cfg, &d, &lone, err);
	if (rc)
		return rc;
	struct sim_state *s = calloc(1, sizeof(*s));
	if (!s || !(s->req = calloc(p->qd, sizeof(*s->req))) || iolab_sim_init(&s->sys, p->qd)) {
		free(lone);
		if (s)
			free_state(s);
		return iolab_errf(err, ENOMEM, "sim engine: out of memory");
	}
	rc = iolab_path_build(&s->path, &s->sys, d, p->qd, err);
	if (!rc) { /* the host addresses the volumes' blocks */
		uint64_t blocks;
		iolab_subsys_device_geometry(d, d->vol[0].drive[0], &blocks, &s->block_bytes);
	}
	if (!rc && cfg->precondition)
		rc = precondition(s, err);
	for (unsigned t = 0; !rc && t < d->ntarget; t++)
		s->target_lbn[t] = iolab_subsys_target_lbn(d, t);
	s->ntarget = rc ? 0 : d->ntarget;
	free(lone);
	if (rc) {
		free_state(s);
		return rc;
	}
	e->priv = s;
	return 0;
}

static int sim_submit(struct iolab_engine *e, struct iolab_io *const *ios, unsigned n)
{
	struct sim_state *s = e->priv;
	uint32_t bb = s->block_bytes;
	for (unsigned i = 0; i < n; i++) {
		struct iolab_io *io = ios[i];
		struct iolab_sreq *r = &s->req[io->slot];
		uint64_t base = io->target < s->ntarget ? s->target_lbn[io->target] : 0;
		*r = (struct iolab_sreq){.d = {.lbn = base + io->off / bb,
					       .blocks = (io->len + bb - 1) / bb,
					       .write = io->op == IOLAB_OP_WRITE,
					       .trim = io->op == IOLAB_OP_TRIM, .user = io}};
		int rc = s->path.host.ops->submit(&s->path.host, r);
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
	struct iolab_comp_report host;
	iolab_comp_host_report(&s->path.host, &host);
	iolab_breakdown_put(b, "host", host.resident_ns); /* its waiting and time per command */
	for (unsigned i = 0; i < s->path.ndrive; i++) { /* the devices together: per command */
		const struct iolab_comp *dev = s->path.drive[i];
		if (dev->ops->breakdown)
			dev->ops->breakdown(dev, b);
	}
}

static unsigned sim_components(struct iolab_engine *e, struct iolab_comp_report *out, unsigned max)
{
	const struct sim_state *s = e->priv;
	return iolab_path_reports(&s->path, out, max);
}

static unsigned sim_device_depth(const void *config)
{
	const struct iolab_sim_engine_config *cfg = config;
	return cfg && cfg->model ? cfg->model->queue_depth : 0;
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
