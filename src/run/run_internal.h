/* run_internal.h: what the runner shares with its worker threads for one point. */
#ifndef IOLAB_RUN_INTERNAL_H
#define IOLAB_RUN_INTERNAL_H

#include <pthread.h>
#include <stdatomic.h>

#include "iolab/replay.h"
#include "iolab/run.h"
#include "pacing.h"

struct verify_run;
struct worker;

/* What one worker runs: its access spec, its request slots (its qd, or its clients) and its load
 * model, over its regions (one per target: the point's, or its slice of them with
 * --worker-region split). A job file's [worker] sections give each worker its own; otherwise
 * every worker runs the point's. */
struct worker_load {
	const struct iolab_spec *spec;
	unsigned qd;
	struct pace_params pace; /* seed and phase are set per worker */
	const struct iolab_region *regions;
	const char *name;        /* its [worker] section's name, or NULL */
};

struct point_ctl {
	const struct iolab_engine_ops *engine;
	const int *fds;
	unsigned nfds;
	const struct iolab_spec *spec;
	const struct iolab_dist *dist;
	const struct iolab_region *regions;
	unsigned nregions;
	unsigned qd, nworkers;
	struct pace_params pace; /* the load model; seed and phase are set per worker */
	uint64_t seed;
	uint64_t ramp_ns, time_ns, bytes_per_worker;
	bool on_error_continue;
	const void *engine_config; /* handed to the engine (the simulator's: sim_point_engine) */
	struct iolab_recorder *record; /* --record, or NULL */
	const struct iolab_replay *replay; /* iolab replay: requests from this trace, not spec */
	const struct iolab_replay_dest *dest;
	const struct iolab_replay_scan *scan;
	unsigned buffer_pattern, buffer_pct; /* what writes carry (buffers.h) */
	struct verify_run *verify;         /* --verify, --verify-only (verify_run.h), or NULL */
	const struct worker_load *load;    /* per worker (nworkers of them) */
	bool split_regions;                /* each worker has its own slice (--worker-region split) */
	bool one_thread;                   /* the simulator: the first worker's thread runs every
					      worker's requests against the one simulated system */
	struct worker *workers;            /* all nworkers of them (one_thread) */
	struct iolab_engine *kept;         /* an engine the runner keeps between the runs of a
					      point (the simulated state carries over), or NULL:
					      each thread sets up its own */
	pthread_mutex_t lock;
	pthread_cond_t cond;
	unsigned ready;    /* workers set up (or failed), under lock */
	bool go;           /* under lock: t0 is set, start */
	uint64_t t0;       /* start of the ramp */
	bool sync_start;   /* across MPI ranks: the measured time starts at mstart, set by the
			      runner once every rank's ramp is over (0 until then) */
	_Atomic uint64_t mstart;
	atomic_bool stop;  /* interrupt, or an I/O error with on-error stop */
	atomic_int first_error;
	_Atomic uint64_t last_ok; /* wall clock of a recent successful I/O (to within a ms), from
				     t0: with on-error continue, a point whose I/Os all fail for
				     IOLAB_GIVE_UP_NS stops */
};

struct worker {
	struct point_ctl *ctl;
	unsigned index;
	pthread_t thread;
	int rc;            /* setup failure, reported by the runner */
	struct iolab_err err;
	struct iolab_dir_result dir[2];
	uint64_t trims;                  /* trims (IOLAB_OP_TRIM) done in the measured time */
	struct iolab_errors errors;      /* its failed I/Os */
	uint64_t span_ns;                /* measured time, in the engine's clock */
	uint64_t delay_n;                /* paced loads: I/Os counted, their issue delays */
	double delay_sum_ns, delay_max_ns;
	struct iolab_hist issue_err;     /* a timed replay: actual minus intended issue time, */
	struct iolab_hist lat_issued;    /* and latency from the actual issue */
	unsigned inflight_max;           /* the most I/Os it had in flight */
	uint64_t ok_mark;                /* when its next success moves ctl->last_ok on */
	struct iolab_breakdown bd;       /* from the engine, if it keeps one */
	unsigned ncomp;                  /* and what its parts did (a simulated path; malloc'd */
	struct iolab_comp_report *comp;  /* in setup for every part of the engine's path) */
	uint64_t sub_seen, sub_done;     /* the engine's, see struct iolab_engine */
	struct iolab_verify_result verify; /* its verification's counts */
	unsigned nsec, sec_cap;          /* per-second series */
	uint64_t *sec_ios, *sec_bytes;
	atomic_uint_fast64_t progress;   /* completions so far, for the progress line */
	atomic_bool finished;
};

/* What a kept engine had counted when a run began (engine_since.c). */
struct engine_mark {
	struct iolab_breakdown bd;
	unsigned ncomp;
	struct iolab_comp_report *comp;
	uint64_t sub_seen, sub_done;
};
/* Takes e's counts now into m; 0 or -ENOMEM. */
int engine_mark(struct iolab_engine *e, struct engine_mark *m);
/* Puts what e did since m into w's breakdown, part reports and submission counts (w->comp has
 * room for w->ncomp reports). */
void engine_since(struct iolab_engine *e, const struct engine_mark *m, struct worker *w);
void engine_mark_free(struct engine_mark *m);

/* Thread body: sets up the engine and generator, waits for the start, runs, records. */
void *iolab_worker_main(void *arg);

#endif
