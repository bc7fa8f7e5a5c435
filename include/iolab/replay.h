/* replay.h: replaying a trace (trace.h) through the runner: `iolab replay`. A replay is a run
 * whose requests come from a trace instead of the pattern generator, on real targets or a
 * simulated path, with the runner's statistics and outputs.
 *
 * Modes: closed keeps --qd requests in flight, issuing the trace's requests in trace order as
 * fast as the target allows (its figure is IOPS); timed issues each request at its recorded
 * issue time (relative to the first kept record) divided by the speed, an open loop with --qd as
 * its cap on requests in flight, its latency counted from the intended issue time as --rate's.
 *
 * Targets: trace target i goes to run target i; with one run target (or a simulated path) every
 * trace target goes to it. Offsets are relative to the region (--offset) and must stay inside it
 * unless the transforms fit them (--scale, --wrap). Trims and flushes are counted and skipped:
 * the engines issue reads and writes. The trace is streamed twice before the run (a check of
 * every record, and for --scale without a size in the header its extent) and once per run of a
 * point: memory stays bounded whatever its size. */
#ifndef IOLAB_REPLAY_H
#define IOLAB_REPLAY_H

#include <stdbool.h>
#include <stdint.h>

#include "iolab/error.h"
#include "iolab/trace.h"
#include "iolab/workload.h"

enum iolab_replay_mode { IOLAB_REPLAY_CLOSED, IOLAB_REPLAY_TIMED };

/* What `iolab replay` was asked for. */
struct iolab_replay {
	const char *path;                       /* the trace ("-" is not accepted: it is read twice) */
	const struct iolab_trace_format *fmt;   /* NULL: iolab's own, told apart by its first bytes */
	enum iolab_replay_mode mode;
	struct iolab_trace_xform xform;         /* fit_size, from_size and bound are set per target */
	bool scale;                             /* --scale: fit offsets to each target's size */
	bool trims;                             /* issue the trace's trims (a simulated path: its
						   devices take them); else they are skipped */
};

/* What a check of the whole trace found (iolab_replay_scan). */
struct iolab_replay_scan {
	uint64_t records;          /* read from the trace */
	uint64_t kept;             /* reads and writes that will be issued */
	uint64_t skipped;          /* trims (unless issued) and flushes, and empty transfers */
	uint64_t trims;            /* trims that will be issued (r->trims), not in kept */
	uint64_t reads, writes;
	uint64_t min_len, max_len; /* of the kept requests */
	uint64_t first_ns, last_ns; /* issue times of the first and last kept request (trace time) */
	unsigned ntargets;         /* the trace's */
	uint64_t from_size[IOLAB_TRACE_TARGETS_MAX]; /* --scale: each trace target's size */
	uint64_t header_size[IOLAB_TRACE_TARGETS_MAX]; /* each trace target's size in the header
							  (0: it records none) */
	uint64_t extent[IOLAB_TRACE_TARGETS_MAX]; /* the end of the furthest kept request of each
						     trace target, after the transforms */
	char note[256];            /* what the reader said of what it read past (fio's skipped v3
				      `wait` lines: iolab_trace_note), "" if nothing */
};

/* Where the replay's requests go: the run's targets, their region and logical block size
 * (0: no alignment needed). */
struct iolab_replay_dest {
	unsigned n;
	uint64_t start[IOLAB_GEN_TARGETS], len[IOLAB_GEN_TARGETS];
	unsigned lbs[IOLAB_GEN_TARGETS];
};

/* Reads the whole trace once (twice for --scale without a size in the header), applying the
 * transforms and the target mapping, and checks every request fits its target's region (or
 * lbs for direct I/O). Returns 0, or -errno with err naming the file, the record and the field. */
int iolab_replay_scan(const struct iolab_replay *r, const struct iolab_replay_dest *d,
		      struct iolab_replay_scan *s, struct iolab_err *err);

/* The identity of a trace file: "xxh64:" and the 16 hex digits of XXH64 (seed 0) of its bytes as
 * stored, into hash (IOLAB_REPLAY_HASH_LEN bytes). Returns 0 or -errno with err naming the file. */
#define IOLAB_REPLAY_HASH_LEN 24
int iolab_replay_hash(const char *path, char *hash, struct iolab_err *err);

/* A stream of requests from the trace for one run of a point (its worker): opened, read in
 * order, requests given back pushed back. */
struct iolab_replay_src;

struct iolab_replay_req {
	uint64_t t_ns;  /* intended issue time after the start (after --speed; 0 for closed mode) */
	uint64_t off;
	uint32_t len;
	uint8_t op;     /* enum iolab_op */
	uint16_t target;
};

/* Opens r for a run with at most depth requests given back at once. */
int iolab_replay_src_open(const struct iolab_replay *r, const struct iolab_replay_dest *d,
			  const struct iolab_replay_scan *s, unsigned depth,
			  struct iolab_replay_src **src, struct iolab_err *err);
/* 1 and *q, 0 at the end of the trace, -errno with err set. */
int iolab_replay_src_next(struct iolab_replay_src *src, struct iolab_replay_req *q, struct iolab_err *err);
/* The intended time of the next request (what _next would return), UINT64_MAX at the end or
 * on an error (which _next then returns). */
uint64_t iolab_replay_src_peek(struct iolab_replay_src *src);
/* Gives back a request taken but not issued; several go back in the reverse order. */
void iolab_replay_src_unget(struct iolab_replay_src *src, const struct iolab_replay_req *q);
void iolab_replay_src_close(struct iolab_replay_src *src);

#endif
