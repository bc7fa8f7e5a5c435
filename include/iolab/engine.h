/* engine.h: the executor interface. An engine answers the requests the generator makes:
 * a real one (psync, io_uring, libaio) on file descriptors in wall-clock time, the null engine
 * without doing any I/O, and later the simulator in virtual time.
 *
 * An engine instance belongs to one worker thread and keeps at most `qd` I/Os in flight.
 * The worker fills struct iolab_io slots, hands batches to submit(), and collects finished ones
 * with reap(). To add an engine: write one file with a const struct iolab_engine_ops and list it
 * in engines.c (see src/exec/engine_null.c, the smallest complete engine).
 */
#ifndef IOLAB_ENGINE_H
#define IOLAB_ENGINE_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "iolab/error.h"

/* The layout of struct iolab_engine_ops; checked by iolab_engine_check. 2: device_depth added;
 * 3: advance added. */
#define IOLAB_ENGINE_OPS_VERSION 3

/* One I/O in flight. The worker owns the slot; the engine reads off/len/op/target/buf and writes
 * res when the I/O completes. */
struct iolab_io {
	uint64_t off;
	uint64_t t_submit; /* ns, stamped by the worker just before submit() */
	void *buf;
	uint32_t len;
	int32_t res;  /* set by the engine: bytes transferred, or -errno */
	uint8_t op;   /* enum iolab_op */
	uint16_t target;
	uint32_t slot; /* the worker's index of this slot */
};

struct iolab_engine_params {
	const int *fds;     /* one open descriptor per target (may be -1 for the null engine) */
	unsigned nfds;
	unsigned qd;        /* most I/Os in flight at once */
	void *const *bufs;  /* qd buffers of buf_size bytes each, aligned to 4096 */
	size_t buf_size;
	const void *config; /* the engine's own settings, may be NULL (the simulator's: struct
			       iolab_sim_engine_config, subsys.h) */
};

struct iolab_engine {
	const struct iolab_engine_ops *ops;
	void *priv; /* the engine's own state */
	/* Kept by the engine, for the I/Os whose submission it can watch (sub_seen of them): how
	 * many had already completed when the call that submitted them to the kernel returned
	 * (sub_done). An engine that runs I/Os inside that call (psync; libaio and often io_uring
	 * on buffered files) keeps no queue of its own, whatever qd says. Both stay 0 where the
	 * engine cannot tell (io_uring cannot when submission and the wait are one call). */
	uint64_t sub_seen, sub_done;
};

enum iolab_engine_flags {
	IOLAB_ENGINE_NO_IO = 1 << 0, /* does no I/O: targets are not needed */
	IOLAB_ENGINE_SYNC = 1 << 1,  /* one I/O at a time per worker, whatever qd says */
	IOLAB_ENGINE_VIRTUAL = 1 << 2, /* keeps its own (simulated) clock: see now() */
};

#define IOLAB_PHASES_MAX 12
#define IOLAB_PHASE_NAME 16

/* Where the time of the I/Os went, for engines that know (the simulator): named phases, each a
 * total in ns over the commands counted in ios, in the order they were first put (the engine
 * and each kind of device name their own: the simulator's "host", a drive's "seek", ...); and
 * cache hits of reads. Plain data (MPI ranks exchange it). */
struct iolab_breakdown {
	unsigned nphase;
	char phase[IOLAB_PHASES_MAX][IOLAB_PHASE_NAME];
	double ns[IOLAB_PHASES_MAX];
	uint64_t ios, read_hits, read_partial_hits, reads;
};
/* Adds ns to b's phase called name, which is added after the others if b has none of that name
 * (beyond IOLAB_PHASES_MAX phases, it is dropped). */
void iolab_breakdown_put(struct iolab_breakdown *b, const char *name, double ns);

struct iolab_comp_report;

struct iolab_engine_ops {
	const char *name;
	unsigned version; /* IOLAB_ENGINE_OPS_VERSION */
	const char *about;
	unsigned flags; /* enum iolab_engine_flags */
	/* Sets up e->priv for p. Returns 0 or -errno with a message in err. */
	int (*init)(struct iolab_engine *e, const struct iolab_engine_params *p, struct iolab_err *err);
	/* Starts the I/Os ios[0..n). Returns how many were started (a prefix of ios: the worker
	 * takes the rest back), or -errno if none could be and the engine cannot go on. */
	int (*submit)(struct iolab_engine *e, struct iolab_io *const *ios, unsigned n);
	/* Waits until at least min I/Os have finished and returns up to max of them in done[]
	 * (their res set). Returns the count, or -errno. A real engine given min 0 does not wait:
	 * it returns what has finished (a worker polls so while its load waits for a due time). */
	int (*reap)(struct iolab_engine *e, unsigned min, struct iolab_io **done, unsigned max);
	/* Frees e->priv. May be NULL. */
	void (*cleanup)(struct iolab_engine *e);
	/* The engine's clock in ns, for IOLAB_ENGINE_VIRTUAL engines; NULL means the wall clock.
	 * Submissions happen at this time and reap() advances it to the completions it returns. */
	uint64_t (*now)(struct iolab_engine *e);
	/* Adds where the time went since init to *b. May be NULL. */
	void (*breakdown)(struct iolab_engine *e, struct iolab_breakdown *b);
	/* Writes what each part of the simulated path did since init into out[0..max); returns
	 * how many parts there are (max 0 asks only that, to size out). May be NULL. */
	unsigned (*components)(struct iolab_engine *e, struct iolab_comp_report *out, unsigned max);
	/* The most commands the device behind the engine accepts at once with this config (the
	 * engine_params config; for the simulator, the model's queue_depth): I/Os beyond it wait
	 * in the host's queue. 0 means no limit the engine knows of. May be NULL (the same). */
	unsigned (*device_depth)(const void *config);
	/* For IOLAB_ENGINE_VIRTUAL engines: lets the clock move on to t (> now) while the load has
	 * nothing to submit before t (a client thinking, the next arrival of an open loop). Runs
	 * the engine's work due before t, but stops at the first I/O that finishes (or at once if
	 * one is waiting to be reaped) and returns that time, before t: reap() then returns it.
	 * With nothing finished, the clock is set to t and t is returned. May be NULL: such an
	 * engine runs only closed loops without think time (--qd). */
	uint64_t (*advance)(struct iolab_engine *e, uint64_t t);
};

/* Checks that ops is a table this build can drive: a name, version IOLAB_ENGINE_OPS_VERSION,
 * init, submit and reap set, and now set for IOLAB_ENGINE_VIRTUAL engines. Returns 0, or -EINVAL
 * with err naming the engine and what is wrong. The runner checks every engine it is given, and
 * the option that selects one checks the registered engine it finds. */
int iolab_engine_check(const struct iolab_engine_ops *ops, struct iolab_err *err);

/* A volume's rebuild of its failed drives onto replacements, for the report of a point. */
struct iolab_rebuild_report {
	uint64_t rate_bytes_s;           /* the pace asked for; 0: no rebuild */
	uint64_t done_bytes, total_bytes; /* the rebuild point, and the size of each replacement */
	double ns;                       /* virtual time it took, or -1: not finished */
	int drive[2];                    /* the drives rebuilt (0-based), or -1 */
};

/* What a flash device (an SSD, docs/ssd.md) did: its FTL's and its flash dies' counts. Write
 * amplification is flash_programs / host_pages_written (programs by GC and by the mapping table
 * included). Erase counts are of all its blocks, as they are now. */
struct iolab_flash_report {
	uint64_t host_pages_written, host_pages_read; /* flash pages the host's commands touched */
	uint64_t flash_reads, flash_programs, erases;  /* everything the dies did */
	uint64_t gc_pages;    /* pages GC moved (each one read and one program) */
	uint64_t map_reads;   /* reads of the mapping table (cached mapping table misses) */
	double flash_ns;      /* die time, all dies together */
	double gc_ns;         /* of it, GC's (its reads, programs and erases) */
	uint32_t erase_min, erase_max;
	double erase_mean;
	uint32_t free_min;    /* the fewest free blocks a plane had */
	uint64_t trimmed_pages; /* mapped pages TRIM unmapped (GC no longer moves them) */
};

/* What one part of a simulated I/O path did over a whole run (ramp included): for the
 * explanation of a point (which part is the bottleneck). A point holds one for every part of
 * its path: host, buses, controllers, volumes, channels and drives. */
struct iolab_comp_report {
	char name[32];       /* "host", "volume", "drive3", or the name a subsystem file gives */
	char kind[16];       /* "host", "bus", "controller", "volume", "channel", "drive" (held
				in the report, so that it is plain data, as MPI ranks exchange it) */
	uint64_t ios, bytes; /* requests (a bus or channel: transfers) it finished, and their bytes */
	uint64_t hits;       /* a controller: requests served from its cache alone */
	double rated_mb_s;   /* a bus or channel: its advertised rate (0: it has none) */
	double busy_ns;      /* time it was working (a drive: serving a command) */
	double resident_ns;  /* the time requests spent in it, added up (mean queue = this / span) */
	double span_ns;      /* the run's length in virtual time */
	struct iolab_rebuild_report rebuild; /* a volume: its rebuild (of the last repetition) */
	bool flash_given;    /* a flash device: flash holds its counts */
	struct iolab_flash_report flash;
};
/* Adds b's counts to a (same part). */
void iolab_comp_report_add(struct iolab_comp_report *a, const struct iolab_comp_report *b);

/* Adds the phases (by name) and counts of b to a. */
void iolab_breakdown_add(struct iolab_breakdown *a, const struct iolab_breakdown *b);

/* Registered engines, in listing order. */
unsigned iolab_engine_count(void);
const struct iolab_engine_ops *iolab_engine_at(unsigned i);
/* Returns the engine called name, or NULL. */
const struct iolab_engine_ops *iolab_engine_find(const char *name);

/* The system's budget of Linux AIO events: io_setup(nr) fails with EAGAIN when the events of
 * every context (/proc/sys/fs/aio-nr) plus nr would pass /proc/sys/fs/aio-max-nr (fs/aio.c,
 * ioctx_alloc; proc(5)). Each libaio worker takes one context of its queue depth. False where
 * /proc does not say. */
bool iolab_libaio_budget(uint64_t *max_nr, uint64_t *in_use);

extern const struct iolab_engine_ops iolab_engine_null;
extern const struct iolab_engine_ops iolab_engine_psync;
extern const struct iolab_engine_ops iolab_engine_io_uring;
extern const struct iolab_engine_ops iolab_engine_libaio;
extern const struct iolab_engine_ops iolab_engine_sim;

#endif
