/* sweep.c: the points of a configuration: how many its sweep lists make, point k's parameters
 * (decoded in the documented order, the load innermost), its load model, its simulated
 * subsystem, and what a point's row says it is before it runs. */
#include <math.h>
#include <stdio.h>
#include <string.h>

#include "iolab/subsys_shape.h"
#include "point.h"

static unsigned n_or_1(unsigned n)
{
	return n ? n : 1;
}

/* The innermost sweep: the load, one of --clients, --rate (with --qd their cap) or --qd. */
static unsigned n_load(const struct iolab_config *c)
{
	return c->nclients ? c->nclients : c->nrate ? c->nrate : n_or_1(c->nqd);
}

unsigned iolab_config_points(const struct iolab_config *c)
{
	return n_or_1(c->npattern) * n_or_1(c->nhost) * n_or_1(c->narray) * n_or_1(c->nstripe) *
	       n_or_1(c->ncache) * n_or_1(c->nwp) *
	       n_or_1(c->nworkers) * n_or_1(c->nread) * n_or_1(c->nbs) *
	       n_load(c);
}

static void decode_point(const struct iolab_config *c, unsigned k, struct point_params *pp)
{
	unsigned iq = k % n_load(c);
	k /= n_load(c);
	unsigned ib = k % n_or_1(c->nbs);
	k /= n_or_1(c->nbs);
	unsigned ir = k % n_or_1(c->nread);
	k /= n_or_1(c->nread);
	unsigned iw = k % n_or_1(c->nworkers);
	k /= n_or_1(c->nworkers);
	unsigned is = k % n_or_1(c->nstripe);
	k /= n_or_1(c->nstripe);
	unsigned ia = k % n_or_1(c->narray);
	k /= n_or_1(c->narray);
	pp->array_drives = c->array_level && c->narray ? c->array_drives[ia] : 0;
	pp->stripe = pp->array_drives ? (c->nstripe ? c->stripe[is] : 65536) : 0;
	unsigned ic = k % n_or_1(c->ncache);
	k /= n_or_1(c->ncache);
	unsigned ip = k % n_or_1(c->nwp);
	k /= n_or_1(c->nwp);
	pp->cache = c->ncache ? c->cache[ic] : 0;
	pp->write_policy = c->nwp ? c->write_policy[ip] : -1;
	unsigned ih = k % n_or_1(c->nhost);
	k /= n_or_1(c->nhost);
	pp->host_sched = c->nhost ? c->host_sched[ih] : 0;
	pp->spec = c->npattern ? c->pattern[k] : *iolab_pattern_find("rand-read");
	pp->clients = c->nclients ? c->clients[iq] : 0;
	pp->rate = c->nrate && !c->nclients ? c->rate[iq] : 0;
	pp->qd = pp->clients ? pp->clients : pp->rate ? (c->nqd ? c->qd[0] : IOLAB_RATE_QD)
		 : c->nqd ? c->qd[iq] : 1;
	pp->workers = c->nworkers ? c->workers[iw] : 1;
	pp->bs = c->nbs ? c->bs[ib] : 0;
	pp->read_pct = c->nread ? (int)c->read[ir] : -1;
	if (pp->bs)
		iolab_spec_set_bs(&pp->spec, pp->bs);
	if (pp->read_pct >= 0)
		iolab_spec_set_read(&pp->spec, (unsigned)pp->read_pct);
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
 * with the point's sweep values (subsys_shape.c), and the volumes --target names. */
int point_shape(const struct iolab_config *c, const struct point_params *pp,
		struct iolab_subsys *desc, struct iolab_err *err)
{
	struct iolab_sim_shape sh = {
		.file = c->subsys, .model = c->engine_config,
		.level = pp->array_drives ? c->array_level : 0, .drives = pp->array_drives,
		.stripe = c->subsys ? (c->nstripe ? pp->stripe : 0) : pp->stripe,
		.failed = {(int)c->failed[0] - 1, (int)c->failed[1] - 1},
		.rebuild_bytes_s = c->rebuild_rate,
		.host = {pp->host_sched, c->host_overhead_ns}, .set_host_sched = c->nhost > 0,
		.has_channel = c->has_channel, .has_bus = c->has_bus,
		.has_ctl = c->has_ctl, .channel = c->channel, .bus = c->bus,
		.channels = c->channels, .controllers = c->controllers, .ctl = c->ctl,
		.set_cache = c->ncache > 0, .set_write_policy = c->nwp > 0,
		.drive_cache = c->drive_cache,
	};
	sh.ctl.cache_bytes = pp->cache;
	sh.ctl.write_policy = pp->write_policy >= 0 ? (unsigned)pp->write_policy : IOLAB_WP_THROUGH;
	int rc = iolab_subsys_shape(&sh, desc, err);
	const char *names[IOLAB_TARGETS_MAX];
	for (unsigned t = 0; t < c->ntargets; t++)
		names[t] = c->target[t];
	if (!rc && c->ntargets) /* --target: the volumes the load is aimed at (subsys_targets.c) */
		rc = iolab_subsys_set_targets(desc, names, c->ntargets, err);
	return rc;
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
	p->host_sched = !(c->engine->flags & IOLAB_ENGINE_VIRTUAL) ? -1
			: desc ? (int)desc->host.sched : (int)pp->host_sched;
	p->array_drives = pp->array_drives;
	p->array_level = pp->array_drives ? c->array_level : 0;
	p->stripe = pp->stripe;
	p->cache = pp->cache;
	p->write_policy = pp->write_policy;
	p->subsystem = c->subsys != NULL;
	p->direct = c->direct && !env->no_io;
	/* A volume spreads the queue over its drives: no single device limit to report. */
	bool lone = !desc || (desc->nvol == 1 && !desc->vol[0].level);
	p->capacity_bytes = env_capacity(c, env);
	p->device_depth = c->engine->device_depth && lone
			  ? c->engine->device_depth(c->engine_config) : 0;
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
		p->bs = sc->min_len == sc->max_len ? sc->max_len : 0;
		p->read_pct = (int)lround(100.0 * (double)sc->reads / (double)sc->kept);
	}
}
