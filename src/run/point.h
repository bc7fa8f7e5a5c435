/* point.h: a point of a run as the runner's files see it: its parameters (decoded from the
 * sweep lists), a replay's state, what the run opened, and the checks a point passes before
 * anything is allocated or written (point_checks.c), and the functions the runner's files
 * share: sweep.c, environment.c, point_run.c, methodology.c, warnings.c. */
#ifndef IOLAB_RUN_POINT_H
#define IOLAB_RUN_POINT_H

#include <stdbool.h>
#include <stdint.h>

#include "iolab/engine.h"
#include "iolab/replay.h"
#include "iolab/run.h"
#include "iolab/subsys.h"
#include "iolab/target.h"
#include "iolab/workload.h"
#include "pacing.h"

/* The parameters of point k, decoded from the sweep lists (the load innermost). */
struct point_params {
	struct iolab_spec spec;
	unsigned qd, workers; /* qd: request slots per worker (clients; an open loop's cap) */
	unsigned clients;     /* --clients: closed-loop clients per worker (0: none) */
	double rate;          /* --rate: arrivals per second, all workers (0: none) */
	uint64_t bs;
	int read_pct;
	unsigned host_sched; /* enum iolab_host_sched */
	unsigned array_drives; /* 0: a single drive */
	uint64_t stripe;
	uint64_t cache;        /* the controller's cache (--cache), if swept */
	int write_policy;      /* enum iolab_write_policy (--write-policy), or -1 */
	bool timed;            /* a timed replay: an open loop at the trace's times */
	unsigned char sweep[IOLAB_SIM_SWEEPS_MAX]; /* the value of each swept setting of the path
						     (sim_options.h; sim_point.c) */
};

/* A replay's state for the run: what the trace holds, the spec standing for it (its largest
 * transfer, its read share: the buffers and the targets' opening follow them), where its
 * requests go in the current point. */
struct sim_carry;

struct replay_run {
	struct iolab_replay replay;     /* the configuration's, fitted to a smaller target (replay_fit.c) */
	bool fitted;                    /* it was, from fit_from bytes to fit_to */
	bool noted;                     /* the reader's note (scan.note) was said */
	uint64_t fit_from, fit_to;
	char hash[IOLAB_REPLAY_HASH_LEN]; /* the trace file's (iolab_replay_hash) */
	struct iolab_replay_scan scan;
	struct iolab_spec spec;
	struct iolab_replay_dest dest;
};

/* Everything opened for the run. */
struct run_env {
	struct iolab_target tgt[IOLAB_TARGETS_MAX];
	int fds[IOLAB_TARGETS_MAX];
	struct iolab_region region[IOLAB_TARGETS_MAX];
	unsigned n;
	bool no_io;
	uint64_t working_set;
	struct iolab_subsys *desc; /* the simulator's: the point's subsystem */
	struct verify_run *verify; /* --verify, --verify-only: the run's (verify_run.h), or NULL */
	struct iolab_recorder *record; /* the current point's (--record), or NULL */
	struct sim_carry *carry;   /* the simulator: the point's system, kept between its runs
				      (worker_loads.h), or NULL */
};

/* The request slots a worker of point pp has: its qd, but one for a synchronous engine in a
 * closed loop without think time (psync: its I/Os finish inside submit). Clients and an open
 * loop keep their slots there too: their requests wait for their time, not for each other. */
static inline unsigned slots_of(const struct iolab_config *c, const struct point_params *pp)
{
	bool paced = pp->clients || pp->rate > 0 || pp->timed;
	return c->engine->flags & IOLAB_ENGINE_SYNC && !paced ? 1 : pp->qd;
}

/* The length of the region that --offset with --length or --stroke (else to the end) leaves of
 * something of size bytes that what names (a target's path). Refuses a region that starts at
 * or past the end (it would be empty), ends beyond it, or would end past 2^64 bytes. */
int run_region_len(const struct iolab_config *c, const char *what, uint64_t size, uint64_t *len,
		   struct iolab_err *err);
/* The load options that go together: --think with --clients, --qd with --rate as one cap, and
 * neither on a virtual-time engine that cannot move its clock on. */
int run_check_load(const struct iolab_config *c, struct iolab_err *err);
/* The simulator's shorthands that only mean something with another (--stripe, --channels). */
int run_check_shorthands(const struct iolab_config *c, struct iolab_err *err);
/* Point k (pp) before anything is opened: its failed drives, a copy's single stream, libaio's
 * AIO budget. */
int run_check_request(const struct iolab_config *c, unsigned k, const struct point_params *pp,
		      struct iolab_err *err);
/* All the memory point k can take (buffers, long series, controller caches, verify_bytes of
 * verify state) against --mem-limit; the refusal names the largest part. */
int run_check_memory(const struct iolab_config *c, unsigned k, const struct point_params *pp,
		     const struct iolab_subsys *desc, uint64_t verify_bytes, struct iolab_err *err);
/* Point k against what the run opened: workers of a simulator, verification, whole sectors of a
 * simulated drive, --direct's logical block size. */
int run_check_point(const struct iolab_config *c, const struct run_env *env, unsigned k,
		    const struct point_params *pp, struct iolab_err *err);

/* sweep.c: the points of a configuration. */
/* replay_fit.c: a trace recorded on a target larger than the run's dest is fitted to it as
 * --scale would (none of --clip, --scale, --wrap given), with one note through progress. */
void replay_fit(struct replay_run *rr, iolab_progress_fn progress, void *ctx);
/* ... and each point it was fitted for says so in its warnings (JSON only: the note said it). */
void replay_fit_warn(const struct replay_run *rr, struct iolab_point *p);

/* Point k's parameters (a replay's: with the trace's spec and load). */
void point_decode(const struct iolab_config *c, const struct replay_run *rr, unsigned k,
		  struct point_params *pp);
/* The load model of point pp, for its workers (each gets its share of an open loop's rate). */
struct pace_params point_pace(const struct iolab_config *c, const struct point_params *pp);
/* The simulated subsystem of a point into desc; 0 or -EINVAL (err may be NULL once checked). */
int point_shape(const struct iolab_config *c, const struct point_params *pp,
		struct iolab_subsys *desc, struct iolab_err *err);
/* Point p of parameters pp, before it runs: what it is (its row's columns). */
void point_begin(const struct iolab_config *c, const struct iolab_subsys *desc,
		 const struct replay_run *rr, const struct run_env *env,
		 const struct point_params *pp, struct iolab_point *p);

/* environment.c: what a run opens once. */
/* Opens c's targets (or the virtual region of an engine without targets) into env. */
int env_open(const struct iolab_config *c, bool writes, struct run_env *env,
	     iolab_progress_fn progress, void *ctx, struct iolab_err *err);
/* Closes the targets; a refused run (discard) also removes the scratch files it created. */
void env_close(struct run_env *env, bool discard);
/* The region an engine without targets addresses in point pp (NULL: before any point). */
int env_virtual_region(const struct iolab_config *c, const struct point_params *pp,
		       struct run_env *env, struct iolab_err *err);
/* What the point addresses in all (bytes). */
uint64_t env_capacity(const struct iolab_config *c, const struct run_env *env);
/* --verify, --verify-only: the run's verification over env's regions. */
int env_open_verify(const struct iolab_config *c, struct run_env *env, struct iolab_err *err);
/* Where a replay's requests go in the current point. */
void env_replay_dest(const struct iolab_config *c, const struct run_env *env,
		     struct iolab_replay_dest *d);
/* Drops the targets' cached pages before a run of point p; a failure is warned about (warn). */
void env_invalidate(const struct run_env *env, struct iolab_point *p, bool warn);

/* point_run.c: one run of one point. */
/* Runs the workers once and merges their counts into p; *iops and *mbps get this run's rates.
 * Returns 0, or -errno when workers could not be set up (err says why). */
int point_run_once(const struct iolab_config *c, const struct run_env *env,
		   const struct point_params *pp, const struct replay_run *rr, struct iolab_point *p,
		   double *iops, double *mbps, const struct iolab_progress *prog,
		   iolab_progress_fn progress, void *ctx, struct iolab_err *err);
/* Adds the reports of n parts to p's (part k is the same part); 0 or -ENOMEM. */
int point_add_comps(struct iolab_point *p, const struct iolab_comp_report *comp, unsigned n);

/* methodology.c: steady state, repetitions, preconditioning. */
/* Measures point p (k of npoints): --steady-state rounds, or --repeat runs (each agreed across
 * MPI ranks), then its figures over them: the rates' spread, CPU and device figures per run,
 * the queue depth reached. Returns 0 (p->reps 0: stopped before a steady state's first round),
 * or -errno (err says why; p holds nothing to keep). */
int point_measure(const struct iolab_config *c, const struct run_env *env,
		  const struct point_params *pp, const struct replay_run *rr, struct iolab_point *p,
		  unsigned k, unsigned npoints, iolab_progress_fn progress, void *ctx,
		  struct iolab_err *err);
/* --precondition: writes every target whole, twice. */
int run_precondition(const struct run_env *env, struct iolab_results *res,
		     iolab_progress_fn progress, void *ctx, struct iolab_err *err);

/* warnings.c: the honest-results warnings of a finished point. */
void point_add_warnings(const struct iolab_config *c, const struct run_env *env,
			const struct point_params *pp, struct iolab_point *p);

#endif
