/* worker_loads.h: what each worker of a point runs (worker_loads.c), and the simulated system
 * the runner keeps between the runs of a point (sim_carry.c). Internal to src/run. */
#ifndef IOLAB_RUN_WORKER_LOADS_H
#define IOLAB_RUN_WORKER_LOADS_H

#include "point.h"
#include "run_internal.h"

/* The loads of a point's workers and the regions they address. */
struct worker_loads {
	unsigned n;
	struct worker_load *load;
	struct iolab_region *regions; /* n x the targets' (split), or NULL: the point's */
	struct iolab_spec *spec;      /* n of them: [worker] sections' specs, or NULL */
};

/* The loads of point pp's workers: each the point's spec, slots and pace, or with [worker]
 * sections (c->nwspec) each its own; with --worker-region split each its slice of env's
 * regions. Returns 0 or -ENOMEM (err says so). */
int worker_loads_make(struct worker_loads *wl, const struct iolab_config *c,
		      const struct run_env *env, const struct point_params *pp, unsigned slots,
		      struct pace_params pace, struct iolab_err *err);
void worker_loads_free(struct worker_loads *wl);
/* A run with [worker] sections: not with --workers, --rate or a replay, and every worker's spec
 * valid for point pp. Returns 0 or -EINVAL (err names the option or the worker). */
int worker_loads_check(const struct iolab_config *c, const struct point_params *pp,
		       struct iolab_err *err);
/* Point pp as its largest worker would make it, for the checks of what a point takes (memory,
 * AIO events): the largest qd and the spec with the largest transfer of its [worker] sections
 * (pp itself without them). */
void worker_loads_widest(const struct iolab_config *c, const struct point_params *pp,
			 struct point_params *wide);
/* True if a [worker] section's spec writes. */
bool worker_loads_write(const struct iolab_config *c, const struct point_params *pp);
/* Runs check on point pp once for each [worker] section, with that worker's spec; the first
 * failure. */
int worker_loads_each_spec(const struct iolab_config *c, const struct point_params *pp,
			   int (*check)(const struct iolab_config *, const struct point_params *,
					void *, struct iolab_err *),
			   void *ctx, struct iolab_err *err);
/* Point p's columns with [worker] sections: its pattern the workers' joined by '+', its bs
 * theirs if they all have the one size (else 0: a mix), its read % the mean of theirs, its qd
 * the largest worker's (per_worker[] has each). */
void worker_loads_columns(const struct iolab_config *c, const struct point_params *pp,
			  struct iolab_point *p);
/* The request slots of all of them together. */
unsigned worker_loads_slots(const struct worker_loads *wl);
/* The slots a worker's lane of --record needs: its slot numbers are below the largest worker's
 * qd, or, with one thread for all (one_thread), below all of theirs together. */
unsigned worker_loads_lane_slots(const struct worker_loads *wl, bool one_thread);

/* Adds the n workers' counts of a run (w, running wl) to p's per-worker figures (worker_results.c);
 * returns 0 or -ENOMEM (p then keeps none). */
int worker_results_add(struct iolab_point *p, const struct worker *w, const struct worker_loads *wl);
/* Adds round q's per-worker figures to p's (--steady-state); 0 or -ENOMEM (p then keeps none). */
int worker_results_merge(struct iolab_point *p, const struct iolab_point *q);

/* The simulated system of a point, kept between its runs (its steady-state rounds, its repeats:
 * the state carries over) unless --fresh-state. The first run of a kept system has the ramp:
 * it warms the state, and the runs after it continue it. */
struct sim_carry {
	bool open;
	struct iolab_engine eng;
};

/* The engine for the next run of point pp (slots: its workers' together) in *e, and the ramp
 * that run has in *ramp_ns: a kept system set up now or continued, or NULL for the engines that
 * do not keep state (every worker sets up its own). Returns 0 or -errno (err says why). */
int sim_carry_get(struct sim_carry *sc, const struct iolab_config *c, const struct run_env *env,
		  const struct point_params *pp, unsigned slots, struct iolab_engine **e,
		  uint64_t *ramp_ns, struct iolab_err *err);
/* After a run: with --fresh-state the system goes, to be set up afresh for the next run. */
void sim_carry_after_run(struct sim_carry *sc, const struct iolab_config *c);
/* Ends the point's system (the next point starts afresh). */
void sim_carry_end(struct sim_carry *sc);

#endif
