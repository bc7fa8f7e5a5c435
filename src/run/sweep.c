/* sweep.c: the points of a configuration: how many its sweep lists make, point k's parameters
 * (decoded in the documented order, the load innermost, from one table of the sweeps that also
 * counts the points: every list option and every swept setting of a simulated path is a row), its load model, its simulated
 * subsystem, and what a point's row says it is before it runs. */
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "iolab/subsys_shape.h"
#include "point.h"
#include "sim_point.h"
#include "worker_loads.h"

static unsigned n_or_1(unsigned n)
{
	return n ? n : 1;
}

/* The innermost sweep: the load, one of --clients, --rate (with --qd their cap) or --qd. */
static unsigned n_load(const struct iolab_config *c)
{
	return c->nclients ? c->nclients : c->nrate ? c->nrate : n_or_1(c->nqd);
}

/* Where point k's index in each sweep goes. */
struct sweep_index {
	unsigned pattern, host, set[IOLAB_SIM_SWEEPS_MAX], wp, cache, array, stripe, workers, read,
		 bs, load;
};

/* One sweep: its number of values, and where a point's index in it goes. */
struct axis {
	unsigned n;
	unsigned *index;
};

#define AXES_MAX (10 + IOLAB_SIM_SWEEPS_MAX)

/* The sweeps of c in the documented order (run.h), outermost first: the one table both the
 * count of points and their decoding read. Returns how many there are. */
static unsigned axes(const struct iolab_config *c, struct sweep_index *x, struct axis *ax)
{
	unsigned n = 0;
	ax[n++] = (struct axis){n_or_1(c->npattern), &x->pattern};
	ax[n++] = (struct axis){n_or_1(c->sim.nhost), &x->host};
	for (unsigned i = 0; i < c->sim.nsweep; i++) /* the path's settings, in the order given */
		ax[n++] = (struct axis){c->sim.sweep[i].n, &x->set[i]};
	ax[n++] = (struct axis){n_or_1(c->sim.nwp), &x->wp};
	ax[n++] = (struct axis){n_or_1(c->sim.ncache), &x->cache};
	ax[n++] = (struct axis){n_or_1(c->sim.narray), &x->array};
	ax[n++] = (struct axis){n_or_1(c->sim.nstripe), &x->stripe};
	ax[n++] = (struct axis){n_or_1(c->nworkers), &x->workers};
	ax[n++] = (struct axis){n_or_1(c->nread), &x->read};
	ax[n++] = (struct axis){n_or_1(c->nbs), &x->bs};
	ax[n++] = (struct axis){n_load(c), &x->load};
	return n;
}

unsigned iolab_config_points(const struct iolab_config *c)
{
	struct sweep_index x;
	struct axis ax[AXES_MAX];
	unsigned n = axes(c, &x, ax), points = 1;
	for (unsigned i = 0; i < n; i++)
		points *= ax[i].n;
	return points;
}

static void decode_point(const struct iolab_config *c, unsigned k, struct point_params *pp)
{
	struct sweep_index x;
	struct axis ax[AXES_MAX];
	for (unsigned i = axes(c, &x, ax); i-- > 0;) { /* the innermost first */
		*ax[i].index = k % ax[i].n;
		k /= ax[i].n;
	}
	pp->array_drives = c->sim.array_level && c->sim.narray ? c->sim.array_drives[x.array] : 0;
	pp->stripe = pp->array_drives ? (c->sim.nstripe ? c->sim.stripe[x.stripe] : 65536) : 0;
	pp->cache = c->sim.ncache ? c->sim.cache[x.cache] : 0;
	pp->write_policy = c->sim.nwp ? c->sim.write_policy[x.wp] : -1;
	for (unsigned i = 0; i < IOLAB_SIM_SWEEPS_MAX; i++)
		pp->sweep[i] = (unsigned char)(i < c->sim.nsweep ? x.set[i] : 0);
	pp->host_sched = c->sim.nhost ? c->sim.host_sched[x.host] : 0;
	pp->spec = c->npattern ? c->pattern[x.pattern] : *iolab_pattern_find("rand-read");
	pp->clients = c->nclients ? c->clients[x.load] : 0;
	pp->rate = c->nrate && !c->nclients ? c->rate[x.load] : 0;
	pp->qd = pp->clients ? pp->clients : pp->rate ? (c->nqd ? c->qd[0] : IOLAB_RATE_QD)
		 : c->nqd ? c->qd[x.load] : 1;
	pp->workers = c->nwspec ? c->nwspec : c->nworkers ? c->workers[x.workers] : 1;
	pp->bs = c->nbs ? c->bs[x.bs] : 0;
	pp->read_pct = c->nread ? (int)c->read[x.read] : -1;
	if (pp->bs)
		iolab_spec_set_bs(&pp->spec, pp->bs);
	if (pp->read_pct >= 0)
		iolab_spec_set_read(&pp->spec, (unsigned)pp->read_pct);
	pp->spec.trim_size = pp->spec.trimwrite ? c->trim_bs : 0;
}

/* Point k of a replay: decode_point, with the trace's spec and load (a timed replay's cap on
 * requests in flight is --qd, IOLAB_RATE_QD without it). */
void point_decode(const struct iolab_config *c, const struct replay_run *rr, unsigned k,
		  struct point_params *pp)
{
	decode_point(c, k, pp);
	pp->timed = false;
	if (c->verify_only) { /* one sequential read of the region, checked (verify_run.h) */
		pp->spec = *iolab_pattern_find("seq-read");
		snprintf(pp->spec.name, sizeof(pp->spec.name), "verify-only");
		if (c->nbs)
			iolab_spec_set_bs(&pp->spec, c->bs[0]);
		pp->workers = 1;
		pp->read_pct = 100;
	}
	if (!rr)
		return;
	pp->spec = rr->spec;
	pp->timed = c->replay->mode == IOLAB_REPLAY_TIMED;
	if (pp->timed && !c->nqd)
		pp->qd = IOLAB_RATE_QD;
	pp->bs = 0;
	pp->read_pct = -1;
}

/* The load model of point pp, for its workers (each gets its share of an open loop's rate). */
struct pace_params point_pace(const struct iolab_config *c, const struct point_params *pp)
{
	if (pp->clients)
		return (struct pace_params){.kind = PACE_CLIENTS, .think_ns = c->think_ns,
					    .think_exp = c->think_exp};
	if (pp->rate > 0)
		return (struct pace_params){.kind = PACE_RATE, .rate = pp->rate / pp->workers,
					    .poisson = c->poisson};
	if (pp->timed)
		return (struct pace_params){.kind = PACE_TRACE};
	return (struct pace_params){.kind = PACE_QD};
}

/* The simulated subsystem of a point: the command line's shorthands, or the subsystem file
 * with the point's sweep values (subsys_shape.c); then its --set values (sim_point.c), and the
 * volumes --target names. desc holds the previous point's (or zeroes). */
int point_shape(const struct iolab_config *swept, const struct point_params *pp,
		struct iolab_subsys *desc, struct iolab_err *err)
{
	struct iolab_config *own;
	sim_point_release(swept, desc);
	int rc = sim_point_config(swept, pp, &own, err);
	if (rc)
		return rc;
	const struct iolab_config *c = own ? own : swept;
	struct iolab_sim_shape sh = {
		.file = c->sim.subsys, .model = c->engine_config,
		.level = pp->array_drives ? c->sim.array_level : 0, .drives = pp->array_drives,
		.stripe = c->sim.subsys ? (c->sim.nstripe ? pp->stripe : 0) : pp->stripe,
		.failed = {(int)c->sim.failed[0] - 1, (int)c->sim.failed[1] - 1},
		.rebuild_bytes_s = c->sim.rebuild_rate,
		.host = {pp->host_sched, c->sim.host_overhead_ns}, .set_host_sched = c->sim.nhost > 0,
		.has_channel = c->sim.has_channel, .has_bus = c->sim.has_bus,
		.has_ctl = c->sim.has_ctl, .channel = c->sim.channel, .bus = c->sim.bus,
		.channels = c->sim.channels, .controllers = c->sim.controllers, .ctl = c->sim.ctl,
		.set_cache = c->sim.ncache > 0, .set_write_policy = c->sim.nwp > 0,
		.ctl_given = c->sim.ctl_given,
		.drive_cache = c->sim.drive_cache,
	};
	sh.ctl.cache_bytes = pp->cache;
	sh.ctl.write_policy = pp->write_policy >= 0 ? (unsigned)pp->write_policy : IOLAB_WP_THROUGH;
	rc = iolab_subsys_shape(&sh, desc, err);
	const char *names[IOLAB_TARGETS_MAX];
	for (unsigned t = 0; t < c->ntargets; t++)
		names[t] = c->target[t];
	if (!rc && c->ntargets) /* --target: the volumes the load is aimed at (subsys_targets.c) */
		rc = iolab_subsys_set_targets(desc, names, c->ntargets, err);
	free(own);
	return rc ? rc : sim_point_set(swept, pp, desc, err);
}

/* Point p of point parameters pp, before it runs: what it is (its row's columns). */
void point_begin(const struct iolab_config *c, const struct iolab_subsys *desc,
		 const struct replay_run *rr, const struct run_env *env,
		 const struct point_params *pp, struct iolab_point *p)
{
	memset(p, 0, sizeof(*p));
	p->run = c->name;
	snprintf(p->pattern, sizeof(p->pattern), "%s", pp->spec.name);
	p->qd = pp->qd;
	p->workers = pp->workers;
	p->clients = pp->clients;
	p->think_ns = pp->clients ? c->think_ns : 0;
	p->think_exp = pp->clients && c->think_exp;
	p->target_iops = pp->rate;
	p->poisson = pp->rate > 0 && c->poisson;
	p->bs = pp->spec.nlines == 1 ? pp->spec.line[0].size : 0;
	p->read_pct = pp->read_pct >= 0 ? pp->read_pct : (int)lround(iolab_spec_read_share(&pp->spec));
	p->engine = c->engine->name;
	p->model = c->model_name;
	sim_point_settings(c, pp, p);
	p->host_sched = !(c->engine->flags & IOLAB_ENGINE_VIRTUAL) ? -1
			: desc ? (int)desc->host.sched : (int)pp->host_sched;
	p->array_drives = pp->array_drives;
	p->array_level = pp->array_drives ? c->sim.array_level : 0;
	p->stripe = pp->stripe;
	p->cache = pp->cache;
	p->write_policy = pp->write_policy;
	p->subsystem = c->sim.subsys != NULL;
	p->direct = c->direct && !env->no_io;
	/* A volume spreads the queue over its drives: no single device limit to report. */
	bool lone = !desc || (desc->nvol == 1 && !desc->vol[0].level);
	p->capacity_bytes = env_capacity(c, env);
	struct iolab_sim_engine_config drive = { /* the point's own, with its settings */
		.model = desc ? &desc->model[desc->drive[desc->vol[0].drive[0]].model]
			      : c->engine_config};
	p->device_depth = c->engine->device_depth && lone ? c->engine->device_depth(&drive) : 0;
	iolab_hist_reset(&p->dir[0].lat);
	iolab_hist_reset(&p->dir[1].lat);
	iolab_hist_reset(&p->issue_err);
	iolab_hist_reset(&p->lat_issued);
	if (rr) {
		const struct iolab_replay_scan *sc = &rr->scan;
		p->replay = true;
		p->replay_timed = pp->timed;
		p->replay_records = sc->records;
		p->replay_skipped = sc->skipped;
		p->trace_path = c->replay->path;
		snprintf(p->trace_hash, sizeof(p->trace_hash), "%s", rr->hash);
		p->bs = sc->min_len == sc->max_len ? sc->max_len : 0;
		p->read_pct = (int)lround(100.0 * (double)sc->reads / (double)sc->kept);
	}
	if (c->nwspec) /* each worker its own */
		worker_loads_columns(c, pp, p);
}
