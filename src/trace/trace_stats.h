/* trace_stats.h: the figures of `iolab trace info` (docs/trace-format.md), gathered in one pass
 * over a trace in bounded memory: counts, a power-of-two size histogram, sequentiality,
 * inter-arrival times, offset range, footprint (a HyperLogLog estimate of distinct 4 KiB blocks),
 * queue depth from completions, and a coarse offset-against-time map. */
#ifndef IOLAB_TRACE_STATS_H
#define IOLAB_TRACE_STATS_H

#include <stdbool.h>
#include <stdint.h>

#include "iolab/histogram.h"
#include "iolab/trace.h"

#define TS_MAP_COLS 60
#define TS_MAP_ROWS 16
#define TS_HLL_BITS 14
#define TS_QD_MAX (1u << 20) /* outstanding requests followed at most */
#define TS_FOOT_BLOCK 4096u
#define TS_FOOT_SPAN_MAX (1u << 20) /* blocks of one request counted at most (4 GiB) */

struct trace_stats {
	uint64_t n, ops[4], bytes[4];
	uint64_t first_issue, last_issue, last_done; /* last_done: the latest completion */
	uint64_t size_hist[64];     /* requests with len in [2^i, 2^(i+1)) */
	uint64_t sequential;        /* requests starting where the previous of their target ended */
	uint64_t off_min, off_end;  /* lowest offset, highest offset + len (len > 0) */
	struct iolab_hist gap;      /* inter-arrival times, ns */
	uint64_t prev_issue;
	uint64_t prev_end[IOLAB_TRACE_TARGETS_MAX];
	bool seen[IOLAB_TRACE_TARGETS_MAX];
	uint8_t hll[1u << TS_HLL_BITS];
	/* queue depth: a min-heap of the outstanding completions */
	uint64_t *heap;
	unsigned nheap, qd_max;
	bool qd_known, qd_overflow;
	uint64_t qd_now, qd_since;   /* the clock of the depth integral, the time it is at */
	long double qd_area;         /* sum of depth * ns */
	/* the map: counts per cell, cells that double in width and height as the trace grows */
	uint64_t map[TS_MAP_ROWS][TS_MAP_COLS];
	uint64_t col_ns, row_bytes;
};

/* Starts s (completions: whether queue depth can be followed). Returns 0 or -ENOMEM. */
int trace_stats_init(struct trace_stats *s, bool completions);
void trace_stats_add(struct trace_stats *s, const struct iolab_trace_rec *rec);
/* Ends the queue-depth integral; call once after the last record. */
void trace_stats_finish(struct trace_stats *s);
void trace_stats_free(struct trace_stats *s);

double trace_stats_footprint(const struct trace_stats *s); /* bytes, estimated */
double trace_stats_qd_mean(const struct trace_stats *s);
/* The map's row r (0 = the lowest offsets) as TS_MAP_COLS characters and a NUL. */
void trace_stats_map_row(const struct trace_stats *s, unsigned r, char *out);

#endif
