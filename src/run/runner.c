/* runner.c: runs a configuration. Checks it (each point: point_checks.c), opens the targets
 * once (environment.c), walks the sweep points (sweep.c) in the documented order, runs each
 * point's repetitions or steady-state rounds (point_run.c, methodology.c), and ends each point
 * with its warnings (warnings.c). A replay (the requests of a trace instead of a pattern,
 * replay.h) is checked whole before anything runs: its spec stands for the trace's sizes and read
 * share, and each point's targets are checked against every record. */
#include <errno.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "iolab/clock.h"
#include "iolab/cluster.h"
#include "point.h"
#include "scaleout.h"
#include "sim_point.h"
#include "verify_run.h"
#include "worker_loads.h"

void iolab_results_free(struct iolab_results *res)
{
	for (unsigned i = 0; i < res->n; i++) {
		free(res->point[i].sec_ios);
		free(res->point[i].sec_bytes);
		free(res->point[i].ranks);
		free(res->point[i].comp);
		free(res->point[i].wres);
	}
	free(res->point);
	memset(res, 0, sizeof(*res));
}

/* A replay's options, and the first look at its trace: the spec that stands for it. */
static int replay_prepare(const struct iolab_config *c, struct replay_run *rr, struct iolab_err *err)
{
	const char *bad = c->npattern ? "pattern" : c->nbs ? "bs" : c->nread ? "read"
			  : c->nclients ? "clients" : c->nrate ? "rate" : c->think_set ? "think"
			  : c->dist.kind != IOLAB_DIST_UNIFORM ? "dist" : NULL;
	if (bad)
		return iolab_errf(err, EINVAL, "replay: --%s does not apply: the trace gives the requests "
				  "(--mode closed or timed sets the load)", bad);
	for (unsigned i = 0; i < c->nworkers; i++)
		if (c->workers[i] > 1)
			return iolab_errf(err, EINVAL, "replay: --workers %u: a trace is replayed by one "
					  "worker, in its order (--qd sets the requests in flight)",
					  c->workers[i]);
	struct iolab_replay_scan *sc = &rr->scan;
	rr->replay = *c->replay;
	rr->fitted = rr->noted = false;
	int rc = iolab_replay_scan(&rr->replay, NULL, sc, err);
	if (!rc)
		rc = iolab_replay_hash(c->replay->path, rr->hash, err);
	if (rc)
		return rc;
	const char *base = strrchr(c->replay->path, '/');
	struct iolab_spec *sp = &rr->spec;
	memset(sp, 0, sizeof(*sp));
	snprintf(sp->name, sizeof(sp->name), "%s", base ? base + 1 : c->replay->path);
	sp->nlines = 1;
	/* The read share, kept off 0 and 100 where the trace has both, so that the targets are
	 * opened for writing and the buffers filled when one request writes. */
	unsigned rd = (unsigned)lround(100.0 * (double)sc->reads / (double)sc->kept);
	if (sc->writes && rd > 99)
		rd = 99;
	if (sc->reads && rd < 1)
		rd = 1;
	sp->line[0] = (struct iolab_spec_line){.size = sc->max_len, .share = 100, .read_pct = rd};
	return 0;
}

/* Checks every point of c and opens its targets (env, with the precondition done); returns 0 or
 * -errno (err says why), env then closed. */
static int prepare_points(const struct iolab_config *c, struct iolab_subsys *desc,
			  struct replay_run *rr, struct run_env *env, iolab_progress_fn progress,
			  void *ctx, struct iolab_err *err)
{
	int rc;
	if (iolab_cluster_active() && (c->steady || c->record || c->record_points))
		return iolab_errf(err, EINVAL, "--%s: not across MPI ranks (run it on one)",
				  c->steady ? "steady-state" : "record");
	if (iolab_cluster_active() && c->split && c->size)
		return iolab_errf(err, EINVAL, "--split: the ranks share one target, which --size would "
				  "have each of them create: create it first (one process), then split it");
	if (c->repeat < 1 || c->repeat > IOLAB_REPEAT_MAX)
		return iolab_errf(err, EINVAL, "repeat: %u is not 1..%u", c->repeat, IOLAB_REPEAT_MAX);
	if ((rc = run_check_load(c, err)) || (rc = run_check_shorthands(c, err)))
		return rc;
	if ((rc = verify_check_options(c, err)))
		return rc;
	if (c->steady && (c->bytes || c->repeat > 1))
		return iolab_errf(err, EINVAL, "--steady-state: each round runs one --time: it cannot be "
				  "used with --%s", c->bytes ? "bytes" : "repeat");
	if (rr && (rc = replay_prepare(c, rr, err)))
		return rc;
	unsigned npoints = iolab_config_points(c);
	bool writes = false;
	iolab_clock_init();
	struct point_params pp;
	for (unsigned k = 0; k < npoints; k++) {
		point_decode(c, rr, k, &pp);
		rc = iolab_spec_validate(&pp.spec, err);
		if (!rc)
			rc = worker_loads_check(c, &pp, err);
		struct point_params wide; /* [worker] sections: as their largest would make it */
		worker_loads_widest(c, &pp, &wide);
		if (!rc)
			rc = run_check_request(c, k, &wide, err);
		if (!rc && desc)
			rc = point_shape(c, &pp, desc, err);
		if (!rc)
			rc = run_check_memory(c, k, &wide, desc, 0, err);
		if (rc)
			return rc;
		writes |= iolab_spec_writes(&pp.spec) || worker_loads_write(c, &pp);
	}
	if (c->faults.n && (c->engine->flags & IOLAB_ENGINE_VIRTUAL))
		return iolab_errf(err, EINVAL, "--fault: engine '%s' keeps its own clock: faults wrap "
				  "io_uring, libaio, psync and null", c->engine->name);
	/* the simulator preconditions its devices (engine_sim.c); other engines without targets
	 * have nothing to precondition */
	if (c->precondition && (c->engine->flags & (IOLAB_ENGINE_NO_IO | IOLAB_ENGINE_VIRTUAL)) &&
	    c->engine != &iolab_engine_sim)
		return iolab_errf(err, EINVAL, "--precondition: engine '%s' has no target to write",
				  c->engine->name);
	writes |= c->precondition; /* the same permission as a write pattern */
	bool preconditions = false; /* a simulated device --precondition changes */
	rc = env_open(c, writes, env, progress, ctx, err);
	if (rc)
		return rc;
	env->desc = desc;
	for (unsigned k = 0; k < npoints && !rc; k++) {
		point_decode(c, rr, k, &pp);
		rc = desc ? point_shape(c, &pp, desc, err) : 0;
		if (!rc && env->no_io)
			rc = env_virtual_region(c, &pp, env, err);
		if (!rc && rr && (k == 0 || env->no_io)) { /* every record against the targets */
			env_replay_dest(c, env, &rr->dest);
			replay_fit(rr, progress, ctx);
			rc = iolab_replay_scan(&rr->replay, &rr->dest, &rr->scan, err);
		}
		if (!rc)
			rc = run_check_point(c, env, k, &pp, err);
		if (!rc && c->precondition && env->no_io) {
			struct iolab_sim_engine_config cfg;
			preconditions |= iolab_sim_preconditions(sim_point_engine(c, &pp, env, &cfg));
		}
		if (!rc && !rr) {
			struct iolab_gen g;
			rc = iolab_gen_init(&g, &pp.spec, &c->dist, env->region, env->n, 0, 1, 0, err);
		}
	}
	if (!rc && c->precondition && env->no_io && !preconditions && progress) {
		struct iolab_progress note = {
			.kind = IOLAB_PROGRESS_NOTE,
			.what = "--precondition has no effect on a simulated drive: only a simulated SSD "
				"keeps a state to precondition"};
		progress(&note, ctx);
	}
	return rc;
}

/* Takes the last point off res, with what its finished repetitions allocated. */
static void drop_point(struct iolab_results *res)
{
	struct iolab_point *p = &res->point[--res->n];
	free(p->sec_ios);
	free(p->sec_bytes);
	free(p->ranks);
	free(p->comp);
	free(p->wres);
}

/* Room for a run of npoints more points in res, and for the places (ks) and ends (why) of a
 * spread sweep's; returns 0 or -ENOMEM. */
static int make_room(struct iolab_results *res, unsigned npoints, unsigned **ks,
		     unsigned char **why, struct iolab_err *err)
{
	if (res->cap < res->n + npoints) {
		struct iolab_point *np = realloc(res->point, (res->n + npoints) * sizeof(*np));
		if (!np)
			return iolab_errf(err, ENOMEM, "out of memory");
		res->point = np;
		res->cap = res->n + npoints;
	}
	*ks = calloc(npoints, sizeof(**ks));
	*why = calloc(npoints, 1);
	return *ks && *why ? 0 : iolab_errf(err, ENOMEM, "out of memory");
}

/* Runs the points of c into res, unless rc (how getting ready went) is an error. Across MPI
 * ranks every step that can fail on one rank is followed by the ranks' agreement before the next
 * collective (scaleout.h), so that they fail, stop and go on together and none is left waiting
 * for another. */
static int run_points(const struct iolab_config *c, struct iolab_subsys *desc, struct replay_run *rr,
		      struct iolab_results *res, iolab_progress_fn progress, void *ctx, int rc,
		      struct iolab_err *err)
{
	struct run_env env = {0};
	unsigned npoints = iolab_config_points(c);
	/* spread over the ranks (a simulation): this rank's points, their places and ends */
	bool spreads = scale_spread(c);
	unsigned first = res->n, mine = 0, *ks = NULL;
	unsigned char *why = NULL;
	/* every rank's checks pass before any rank writes (docs/scale-out.md) */
	if (!rc)
		rc = prepare_points(c, desc, rr, &env, progress, ctx, err);
	if (!rc)
		rc = make_room(res, npoints, &ks, &why, err);
	if ((rc = iolab_cluster_agree(rc, err->msg, err))) {
		free(ks);
		free(why);
		env_close(&env, true);
		return rc;
	}
	if (c->precondition && !env.no_io) /* the simulator's devices: when their path is built */
		rc = iolab_cluster_agree(run_precondition(&env, res, progress, ctx, err), err->msg, err);
	if (!rc && (c->verify || c->verify_only))
		rc = iolab_cluster_agree(env_open_verify(c, &env, err), err->msg, err);
	struct sim_carry carry = {0}; /* the simulator: each point's system, kept between its runs */
	env.carry = &carry;
	struct point_params pp;
	for (unsigned k = 0; k < npoints && !rc; sim_carry_end(&carry), k++) {
		if (spreads ? iolab_stop_requested : iolab_cluster_any(iolab_stop_requested))
			break;
		if (spreads && !scale_mine(k))
			continue;
		point_decode(c, rr, k, &pp);
		if (desc) /* checked above */
			point_shape(c, &pp, desc, NULL);
		if (env.no_io)
			env_virtual_region(c, &pp, &env, NULL);
		if (rr)
			env_replay_dest(c, &env, &rr->dest);
		struct iolab_point *p = &res->point[res->n++];
		point_begin(c, desc, rr, &env, &pp, p);
		env.record = c->record;
		if (c->record_points && (rc = c->record_points->begin(c->record_points->ctx, c, k,
								      &env.record, err))) {
			drop_point(res);
			break;
		}
		rc = point_measure(c, &env, &pp, rr, p, k, npoints, progress, ctx, err);
		if (c->record_points)
			c->record_points->end(c->record_points->ctx, env.record, !rc && p->reps);
		env.record = NULL;
		if (rc) { /* workers could not be set up, or another rank failed (err says why) */
			drop_point(res);
			break;
		}
		if (!p->reps) /* steady state, stopped before its first round */
			continue;
		point_add_warnings(c, &env, &pp, p);
		replay_fit_warn(rr, p);
		/* Fewer completions than I/Os kept in flight: the queue never turned over once, so
		 * every figure describes the start-up burst, not a steady state. */
		uint64_t in_flight = pp.rate > 0 ? p->inflight_max : (uint64_t)pp.workers * slots_of(c, &pp);
		bool mismatched = p->verify.mismatches && !c->on_error_continue;
		bool short_run = !rr && !c->verify_only && !mismatched &&
				 p->dir[0].ios + p->dir[1].ios < in_flight * p->reps && !iolab_stop_requested;
		enum scale_stop end = p->first_error && !c->on_error_continue ? SCALE_IO_FAILED
				      : mismatched ? SCALE_MISMATCH : short_run ? SCALE_SHORT : SCALE_GO;
		if (spreads) {
			ks[mine] = k;
			why[mine++] = end;
		}
		if ((rc = scale_point(c, p, &end, err))) {
			drop_point(res);
			break;
		}
		if (end == SCALE_IO_FAILED) {
			res->io_failed = true;
			break;
		}
		if (end == SCALE_MISMATCH) {
			res->verify_failed = true;
			break;
		}
		if (end == SCALE_SHORT) {
			res->short_point = res->n;
			break;
		}
	}
	sim_carry_end(&carry);
	env.carry = NULL;
	rc = scale_collect(c, res, first, mine, ks, why, npoints, rc, err);
	free(ks);
	free(why);
	if (!rc) /* every rank, or none */
		scale_end(c, res);
	if (env.verify) {
		int vrc = verify_run_close(env.verify, err);
		free(env.verify);
		env.verify = NULL;
		rc = rc ? rc : vrc;
	}
	env_close(&env, iolab_stop_requested == SIGTERM); /* terminated: leave no scratch file */
	return rc;
}

bool iolab_run_stopped(const struct iolab_results *res)
{
	return res->io_failed || res->short_point || res->verify_failed || res->interrupted ||
	       (!iolab_cluster_active() && iolab_stop_requested);
}

int iolab_run(const struct iolab_config *c, struct iolab_results *res, iolab_progress_fn progress,
	      void *ctx, struct iolab_err *err)
{
	struct iolab_subsys *desc = NULL;
	struct replay_run *rr = NULL;
	int rc = iolab_engine_check(c->engine, err); /* an engine one host may lack */
	if (!rc && c->engine == &iolab_engine_sim && !c->engine_config && !c->sim.subsys)
		rc = iolab_errf(err, EINVAL, "engine 'sim': no drive model or subsystem to simulate "
				"(iolab sim --model NAME, --array with --drive, or --config)");
	if (!rc && ((c->engine == &iolab_engine_sim && !(desc = calloc(1, sizeof(*desc)))) ||
		    (c->replay && !(rr = malloc(sizeof(*rr))))))
		rc = iolab_errf(err, ENOMEM, "out of memory");
	rc = run_points(c, desc, rr, res, progress, ctx, rc, err);
	if (desc)
		sim_point_release(c, desc);
	free(desc);
	free(rr);
	return rc;
}
