/* run.h: a measurement run. A configuration (from the command line or a job file, through the
 * same option table) expands into points, the cross product of its sweep lists; each point runs
 * its workers against the targets for the ramp plus the measured time (or bytes), and yields a
 * result with latency histograms, rates, CPU, device counters and honest warnings.
 *
 * Sweep order, outermost first: pattern, host scheduler, the swept settings of the simulated
 * path in the order given (--set, shorthand lists; sim_options.h), write policy, cache, array
 * drive count, stripe unit (these for simulated drives), workers, read %, block size, and the
 * load: queue depth, clients or rate (one of them); repetitions
 * of a point run back to back and are reported as one point with their spread.
 */
#ifndef IOLAB_RUN_H
#define IOLAB_RUN_H

#include <stdbool.h>
#include <stdint.h>

#include "iolab/engine.h"
#include "iolab/error.h"
#include "iolab/fault.h"
#include "iolab/histogram.h"
#include "iolab/method.h"
#include "iolab/parse.h"
#include "iolab/sim_options.h"
#include "iolab/stop.h"
#include "iolab/verify.h"
#include "iolab/workload.h"

struct iolab_recorder;

#define IOLAB_TARGETS_MAX IOLAB_GEN_TARGETS
#define IOLAB_PATTERNS_MAX 16
#define IOLAB_REPEAT_MAX 1000 /* most runs of one point (--repeat) */
#define IOLAB_RATE_QD 1024    /* most requests in flight per worker of an open loop without --qd */

/* Patterns a job file defines, visible to the runs after the definition. */
struct iolab_pattern_set {
	unsigned n;
	struct iolab_spec spec[IOLAB_PATTERNS_MAX];
};

struct iolab_replay;

/* Where the workers of a point address (--worker-region): all of them the whole region (their
 * sequential streams start spread over it), or each its own slice of it. */
enum iolab_worker_region { IOLAB_WREGION_SHARED = 0, IOLAB_WREGION_SPLIT };
const char *iolab_worker_region_name(unsigned r); /* "shared", "split" */

#define IOLAB_WORKER_SPECS_MAX 16
/* A job file's [worker NAME] section: what one worker of the run before it runs (its access
 * spec, its load), as IOMeter gives each worker its own access specification. */
struct iolab_worker_spec {
	char name[IOLAB_NAME_MAX];
	bool has_pattern;        /* spec is its own pattern; else it runs the point's */
	struct iolab_spec spec;
	uint64_t bs;             /* replacing the pattern's sizes (0: not given) */
	int read_pct;            /* replacing the pattern's read % (-1: not given) */
	unsigned qd, clients;    /* its requests in flight, or its closed-loop clients (0: the run's) */
	uint64_t think_ns;       /* its clients' think time (the mean if think_exp) */
	bool think_exp;
};

/* What writes carry (--buffer-pattern; src/run/buffers.h). */
enum iolab_buffer_pattern { IOLAB_BUF_RANDOM = 0, IOLAB_BUF_ZERO, IOLAB_BUF_COMPRESSIBLE };
/* "random", "zero", "compressible". */
const char *iolab_buffer_pattern_name(unsigned p);

struct iolab_config {
	char name[IOLAB_NAME_MAX];   /* run name (job-file section), "" on the command line */
	unsigned ntargets;
	char target[IOLAB_TARGETS_MAX][4096];
	uint64_t size;               /* scratch file size to create (0: targets must exist) */
	uint64_t offset, length;     /* region; length 0 = to the end */
	bool split;                  /* --split: under MPI, each rank takes its own slice of the
					region (docs/scale-out.md); alone, the whole region */
	unsigned stroke_pct;         /* 0 = not set; else use the first PCT % of each target */

	unsigned npattern;
	struct iolab_spec pattern[IOLAB_PATTERNS_MAX];
	unsigned nqd, nbs, nread, nworkers;
	unsigned qd[IOLAB_LIST_MAX];
	uint64_t bs[IOLAB_LIST_MAX];       /* nbs == 0: the pattern's own sizes */
	uint64_t trim_bs;                  /* --trim-bs: trimwrite's trim size (0: each write's) */
	unsigned read[IOLAB_LIST_MAX];     /* nread == 0: the pattern's own read % */
	unsigned workers[IOLAB_LIST_MAX];
	/* Load models other than --qd (see the points' sweep order): closed-loop clients per worker
	 * that think between requests, or an open loop at a target rate (all workers together),
	 * --qd then being the most in flight per worker (IOLAB_RATE_QD by default). */
	unsigned nclients, nrate;
	unsigned clients[IOLAB_LIST_MAX];
	double rate[IOLAB_LIST_MAX];       /* requests per second */
	uint64_t think_ns;                 /* a client's wait after a completion (the mean if exp) */
	bool think_set, think_exp;         /* --think given; exponential rather than fixed */
	bool poisson;                      /* --rate poisson:R: Poisson arrivals, else evenly spaced */
	struct iolab_sim_options sim;      /* the simulator's own options (sim_options.h): the
					      simulated path and its sweeps */

	const struct iolab_engine_ops *engine;
	const void *engine_config;   /* for the simulator: its struct iolab_disk_model */
	const char *model_name;      /* the simulated drive, for reports (NULL: none) */
	uint64_t virtual_size;       /* bytes addressed by an engine without targets (null, sim) */
	bool direct;
	int invalidate;              /* drop the targets' cached pages before each run of a point:
					1 yes, 0 no, -1 (the default) only for buffered I/O */
	uint64_t ramp_ns, time_ns, bytes; /* bytes: per point, all workers; 0 = time-based */
	uint64_t seed;
	struct iolab_dist dist;
	unsigned repeat;             /* 1 .. IOLAB_REPEAT_MAX */
	unsigned steady;             /* --steady-state: enum iolab_ss_metric, 0 (none) to run once */
	bool precondition;           /* --precondition: write the targets whole twice first */
	uint64_t mem_limit;          /* most buffer bytes a point may allocate (0: half the RAM) */
	bool on_error_continue, force, destroy_data;
	struct iolab_fault_plan faults; /* --fault: faults injected on purpose (fault.h) */
	unsigned verify;             /* --verify: enum iolab_verify_algo (verify.h), 0: none */
	bool verify_only;            /* --verify-only: read the targets back once and check them */
	char verify_journal[4096];   /* --verify-journal FILE, "" for none */
	unsigned buffer_pattern;     /* --buffer-pattern: enum iolab_buffer_pattern */
	unsigned buffer_compress_pct; /* compressible:PCT */
	const struct iolab_pattern_set *patterns; /* job-file patterns for "pattern =" (may be NULL) */
	struct iolab_recorder *record; /* --record: every I/O of the run's one point (trace_record.h),
					  or NULL */
	const struct iolab_record_points *record_points; /* --record DIR/: a trace per point, or NULL */
	const struct iolab_replay *replay; /* iolab replay: the trace replayed instead of a pattern
					      (replay.h), or NULL */
	unsigned worker_region;      /* --worker-region: enum iolab_worker_region */
	bool fresh_state;            /* --fresh-state: a simulated system starts afresh for each
					round, repeat and ramp instead of continuing */
	unsigned nwspec;             /* job file: the run's [worker] sections (0: every worker runs
					the run's pattern and load) */
	struct iolab_worker_spec wspec[IOLAB_WORKER_SPECS_MAX];
};

/* Defaults: rand-read, qd 1, 1 worker, io_uring, direct, 10 s, seed 1, repeat 1, cached pages
 * dropped before each run of a buffered point. */
void iolab_config_init(struct iolab_config *c);
/* True if a run of c drops its targets' cached pages before each run of a point (--invalidate,
 * the default for --buffered); false for engines without targets (null, sim). */
bool iolab_config_invalidates(const struct iolab_config *c);
/* Sets one option by its long name ("qd", "bs", "pattern", ...) from its text value, exactly as
 * `--name value` on the command line or `name = value` in a job file. Flags take "true"/"false"
 * (value NULL means true). Returns 0, -ENOENT for an unknown name, or -EINVAL, with err naming
 * the option and the value. */
int iolab_config_set(struct iolab_config *c, const char *name, const char *value, struct iolab_err *err);

/* The options iolab_config_set knows, for --help and getopt. */
struct iolab_option {
	const char *name;
	const char *arg;   /* argument placeholder, NULL for a flag */
	const char *help;
};
unsigned iolab_option_count(void);
const struct iolab_option *iolab_option_at(unsigned i);
/* The option that cannot be given in the same place as name (--time and --bytes), or NULL. */
const char *iolab_option_excludes(const char *name);
/* False for options that only a measurement of real targets uses (--engine, --size, ...):
 * `iolab sim` refuses them. */
bool iolab_option_simulated(const char *name);
/* False for options that only a simulated drive uses (--host-scheduler): `iolab run` refuses
 * them. */
bool iolab_option_real(const char *name);
/* True for options that may be given more than once in one place (--target adds targets, --fault
 * rules); any other option given twice is an error. */
bool iolab_option_repeatable(const char *name);

#define IOLAB_WARN_MAX 12
#define IOLAB_WARN_LEN 200

struct iolab_dir_result {
	uint64_t ios, bytes, errors;
	struct iolab_hist lat;
};

/* What a failed I/O met, for the counts of a point: a short transfer (fewer bytes than asked,
 * never taken as a whole I/O), or an errno. */
enum iolab_error_kind {
	IOLAB_ERR_SHORT, IOLAB_ERR_EIO, IOLAB_ERR_ENOSPC, IOLAB_ERR_ENODEV, IOLAB_ERR_OTHER,
	IOLAB_ERR_KINDS
};

/* One failed I/O (or engine call: op IOLAB_ERR_NO_OP). */
#define IOLAB_ERR_NO_OP 0xff
struct iolab_io_error {
	uint8_t op;        /* enum iolab_op, or IOLAB_ERR_NO_OP: the engine failed, not an I/O */
	uint8_t kind;      /* enum iolab_error_kind (of an I/O) */
	uint64_t off;
	uint32_t len, done; /* bytes asked; moved, for a short transfer */
	int err;           /* errno; 0 for a short transfer */
	uint64_t t_ns;     /* when it was seen (the earliest of several workers' is the first) */
};

/* The failures of a point (plain data: it travels between MPI ranks with the point). */
struct iolab_errors {
	uint64_t by_kind[2][IOLAB_ERR_KINDS]; /* [enum iolab_op][enum iolab_error_kind] */
	uint64_t engine;   /* engine calls that failed without an I/O (submit, reap) or a replayed
			      trace that could not be read */
	bool has_first;
	struct iolab_io_error first;
	bool gave_up;      /* --on-error continue: every I/O failed for IOLAB_GIVE_UP_NS, so the
			      point stopped (a device that vanished) */
};
#define IOLAB_GIVE_UP_NS 1000000000ull

/* Counts one failure: io (NULL: the engine's) completed with res (-errno, or fewer bytes than
 * io->len) at t_ns. */
void iolab_errors_note(struct iolab_errors *e, const struct iolab_io *io, int res, uint64_t t_ns);
/* Adds b's counts to a; the first failure is the earlier one. */
void iolab_errors_add(struct iolab_errors *a, const struct iolab_errors *b);
uint64_t iolab_errors_count(const struct iolab_errors *e);
/* "eio_read", "short_write", ...: the report's key of a kind one way. */
const char *iolab_error_key(unsigned op, unsigned kind);
/* "3 EIO (read), 2 short writes, 1 engine failure" into buf. */
void iolab_errors_describe(const struct iolab_errors *e, char *buf, size_t n);
/* "a write of 4096 bytes at offset 8192: No space left on device (ENOSPC)" into buf. */
void iolab_error_describe(const struct iolab_io_error *f, char *buf, size_t n);

/* The figure --steady-state tracks round by round (method.h). */
enum iolab_ss_metric { IOLAB_SS_NONE, IOLAB_SS_IOPS, IOLAB_SS_MB, IOLAB_SS_LAT };
const char *iolab_ss_metric_name(unsigned m); /* "iops", "mb", "lat" */

/* A point run in rounds until steady state: the rounds run, whether the rule held, and the
 * tracked value of each round of the window (the last rounds; lat in us). */
struct iolab_steady_result {
	unsigned metric; /* enum iolab_ss_metric; IOLAB_SS_NONE: not used */
	unsigned rounds, nwindow;
	bool reached;
	double window[IOLAB_SS_WINDOW];
};

/* Spread of a figure over repetitions; ci95: half-width of the 95 % confidence interval of the
 * mean (Student's t with reps - 1 degrees of freedom, method.h), 0 for one run. */
struct iolab_spread {
	double mean, stddev, min, max, ci95;
};

/* One worker's share of a point (all repetitions; with --steady-state the window's rounds). */
struct iolab_worker_result {
	char name[IOLAB_NAME_MAX];    /* its [worker] section's name, "" for none */
	char pattern[IOLAB_NAME_MAX];
	unsigned qd;                  /* its request slots (its clients) */
	double seconds;               /* its measured time */
	uint64_t ios, bytes;
	struct iolab_hist lat;        /* reads and writes */
};

/* One rank's share of a point run across MPI ranks (docs/scale-out.md). */
struct iolab_rank_result {
	unsigned rank;
	char host[64];
	double iops, mbps, seconds;
	uint64_t ios, bytes;
	double clock_offset_ns; /* its clock against rank 0's (cluster.h), */
	double clock_error_ns;  /* within this */
	struct iolab_hist lat;  /* reads and writes */
};

/* A swept setting of the simulated path and the value a point ran with ("controller.read-ahead",
 * "adaptive"). */
struct iolab_point_setting {
	char name[IOLAB_SIM_SETTING_NAME];
	char value[IOLAB_SIM_VALUE_MAX];
};

struct iolab_point {
	/* parameters */
	const char *run;  /* config name */
	char pattern[IOLAB_NAME_MAX];
	unsigned qd, workers; /* qd: slots per worker (the clients; an open loop's cap) */
	unsigned clients;  /* closed-loop clients per worker (--clients), 0: none */
	uint64_t think_ns; /* their think time (the mean if think_exp) */
	bool think_exp;
	double target_iops; /* open loop (--rate): the arrival rate, 0: none */
	bool poisson;      /* its arrivals are a Poisson process, else evenly spaced */
	uint64_t bs;      /* 0: the pattern's mix */
	int read_pct;     /* % of I/Os that are reads (the pattern's own unless --read) */
	const char *engine;
	const char *model; /* simulated drive, or NULL */
	int host_sched;    /* simulated drives: the host queue's policy (enum iolab_host_sched);
			      -1 for real targets */
	unsigned array_level;  /* simulated volume: enum iolab_raid_level */
	unsigned array_drives; /* and its drives (0: a single drive) */
	uint64_t stripe;       /* and its stripe unit in bytes */
	uint64_t cache;        /* simulated controller cache swept by --cache (0: not swept) */
	int write_policy;      /* and its write policy swept by --write-policy, or -1 */
	bool subsystem;        /* model names a subsystem file (--config), not a drive */
	unsigned nsettings;    /* the path's swept settings (sim_options.h) and this point's values */
	struct iolab_point_setting settings[IOLAB_SIM_SWEEPS_MAX];
	bool direct;
	/* results (all repetitions merged; with --steady-state the window's rounds) */
	struct iolab_steady_result steady;
	unsigned reps;
	double seconds;   /* measured seconds, summed over repetitions */
	struct iolab_dir_result dir[2]; /* by enum iolab_op: reads and writes */
	uint64_t trims;   /* trims done (IOLAB_OP_TRIM: simulator only), all repetitions; not in
			     dir[], iops or mbps (no data moves) */
	struct iolab_spread iops, mbps;
	double qd_reached; /* mean I/Os in flight over all workers (Little's law) */
	uint64_t delay_n;  /* clients and open loops: I/Os counted, */
	double delay_sum_ns, delay_max_ns; /* and how late they were issued after their intended
					      time (a slot not free, the wake-up; all repetitions) */
	unsigned inflight_max; /* the most I/Os in flight at once, over the workers together (the
				  largest of the repetitions) */
	double cpu_user_pct, cpu_sys_pct; /* of one CPU, whole process */
	uint64_t capacity_bytes; /* the targets' sizes together, or the simulated path's capacity */
	unsigned device_depth; /* commands the device accepts at once, if the engine knows (the
				  simulated drive's queue_depth); 0: unknown */
	bool has_disk;
	double disk_util_pct, disk_queue;
	uint64_t disk_ios;
	uint64_t disk_reads, disk_writes, disk_read_bytes, disk_write_bytes; /* all repetitions */
	uint64_t sub_seen, sub_done; /* I/Os whose submission the engine watched, and of those the
					ones complete when the submitting call returned (whole run,
					ramp included; 0, 0: the engine cannot tell) */
	bool has_breakdown;
	unsigned ncomp;   /* simulated path: what each part did, all repetitions, whole run */
	struct iolab_comp_report *comp; /* (malloc'd, ncomp of them) */
	struct iolab_breakdown bd; /* where the time went (simulator), all repetitions, whole run
				      including the ramp */
	unsigned nsec;    /* per-second series of the last repetition */
	uint64_t *sec_ios, *sec_bytes;
	struct iolab_verify_result verify; /* --verify, --verify-only (all repetitions) */
	bool partial;     /* interrupted or stopped by an error */
	int first_error;  /* errno of the first failed I/O, 0 if none */
	struct iolab_errors errors; /* every failure, ramp included (all repetitions) */
	bool has_faults;  /* --fault: faults holds what was injected (all repetitions) */
	struct iolab_fault_counts faults;
	unsigned nwarn;
	char warn[IOLAB_WARN_MAX][IOLAB_WARN_LEN];
	uint32_t warn_detail; /* bit i set: warn[i] is about a figure the table does not show */
	/* iolab replay: its mode, the trace's records not issued (trims, flushes), and for a timed
	 * replay how late each request was issued (actual minus intended; all repetitions) and its
	 * latency from the actual issue (dir[].lat runs from the intended time, as for --rate) */
	bool replay, replay_timed;
	uint64_t replay_records, replay_skipped;
	const char *trace_path;  /* the trace as given (its configuration's), NULL if not a replay */
	char trace_hash[24];     /* "xxh64:" and XXH64 of its bytes (iolab_replay_hash) */
	struct iolab_hist issue_err, lat_issued;
	/* run across MPI ranks (on rank 0): each rank's share, in rank order; the figures above
	 * are then the job's (histograms merged, rates summed), 0 and NULL alone */
	unsigned nranks;
	struct iolab_rank_result *ranks;
	/* each worker's share, in worker order (malloc'd, nwres of them; 0 and NULL: none kept) */
	unsigned nwres;
	struct iolab_worker_result *wres;
};

struct iolab_results {
	unsigned n, cap;
	struct iolab_point *point;
	bool interrupted; /* SIGINT */
	uint64_t precondition_bytes; /* written by --precondition before the points (all runs) */
	bool io_failed;   /* a point stopped on an I/O error */
	bool verify_failed; /* a point stopped on a verify mismatch (--on-error stop) */
	unsigned short_point; /* 1-based index of a point that completed fewer I/Os than it kept in
				 flight (no steady state: the run stopped there), or 0; across
				 MPI ranks of a spread sweep, rank 0's: the other ranks hold no
				 points */
};

/* What the runner tells its caller while it works (iolab_run's progress callback): the library
 * prints nothing, the caller shows what it wants of it. */
enum iolab_progress_kind {
	IOLAB_PROGRESS_POINT,        /* a point runs: about twice a second */
	IOLAB_PROGRESS_CREATE,       /* before the points: scratch file `what` is being written,
					done of total bytes, at every 1 % and at the end */
	IOLAB_PROGRESS_PRECONDITION, /* --precondition writes the targets: done of total bytes, at
					every 64 MiB and at the end */
	IOLAB_PROGRESS_NOTE,         /* once: a line for the person in `what`, as a missing target
					made a scratch file of the default size */
};
struct iolab_progress {
	enum iolab_progress_kind kind;
	unsigned point, points; /* 1-based */
	unsigned rep, reps;
	double elapsed_s, iops; /* wall-clock; for a simulator, iops counts simulated I/Os per
				   wall-clock second */
	bool simulated;
	const char *what;       /* CREATE: the file's path; NOTE: the line */
	uint64_t done, total;   /* CREATE, PRECONDITION: bytes written, of all */
};
typedef void (*iolab_progress_fn)(const struct iolab_progress *p, void *ctx);

/* Under MPI (cluster.h): %r and %h in c's targets become this rank's number and host name;
 * nothing alone. */
void iolab_config_for_rank(struct iolab_config *c);

/* Number of points c expands into. */
unsigned iolab_config_points(const struct iolab_config *c);

/* --record DIR/: a recorder for each point of a configuration. begin gives point k's (the
 * configuration's k-th, 0-based) before it runs, or fails the run (-errno, err set); end is
 * given it back after the point ran (ran: it has results, else it failed or was left out) and
 * writes or drops its trace, keeping its own errors (the run goes on). */
struct iolab_record_points {
	int (*begin)(void *ctx, const struct iolab_config *c, unsigned k, struct iolab_recorder **r,
		     struct iolab_err *err);
	void (*end)(void *ctx, struct iolab_recorder *r, bool ran);
	void *ctx;
};

/* A file name for point k of c's trace (point_names.c): its pattern (a replay: its trace's name
 * without the extension; a job's [worker] sections: their patterns, no load) and load
 * ("file-server-qd1", "oltp-c8", "web-r500"; a job's run: its name first), then the value of
 * each other list option with more than one value ("-w4", "-bs64k", "-rd70"); letters, digits,
 * '.', '_' and '-' only, at most 96 characters. Settings of a simulated path that are swept are
 * not named: names that clash need telling apart by the caller. */
void iolab_config_point_name(const struct iolab_config *c, unsigned k, char *buf, size_t n);

/* Runs every point of c, appending to res. Returns 0 (also when interrupted or stopped by I/O
 * errors: see res flags), or -errno for bad configuration and unopenable targets (nothing run). */
int iolab_run(const struct iolab_config *c, struct iolab_results *res, iolab_progress_fn progress,
	      void *ctx, struct iolab_err *err);

void iolab_results_free(struct iolab_results *res);

/* True if the runs so far stopped early (an I/O error, a point without a steady state, an
 * interrupt): the configurations after them are not run. Across MPI ranks it is the same on every
 * rank (an interrupt on one counts once the ranks have agreed on it, in iolab_run), so that they
 * go on, or stop, together. */
bool iolab_run_stopped(const struct iolab_results *res);

/* Adds a warning to a point (dropped silently past IOLAB_WARN_MAX). */
void iolab_point_warn(struct iolab_point *p, const char *fmt, ...) __attribute__((format(printf, 2, 3)));
/* The same for a warning about a figure only the JSON and CSV carry (p99.9, p99.99): the table
 * leaves it out, so that the ones about what it shows stay visible. */
void iolab_point_warn_detail(struct iolab_point *p, const char *fmt, ...)
	__attribute__((format(printf, 2, 3)));

#endif
