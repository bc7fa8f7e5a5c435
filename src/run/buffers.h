/* buffers.h: what written buffers hold (--buffer-pattern). Each worker fills its slots' buffers
 * once, from its own seed (the run's seed, the MPI rank, the worker and the slot), and before
 * every write stamps the first 16 bytes of each 4 KiB of the buffer with a word no other block
 * of the run carries: the written blocks are all different, so a deduplicating device stores
 * each, as fio's scramble_buffers (on by default) makes them, at the cost of two stores per
 * 4 KiB. random (the default) fills with pseudo-random bytes, which do not compress;
 * compressible:PCT fills the last PCT % of each 4 KiB with zeros and the rest at random, so the
 * data compresses by about PCT % (fio's buffer_compress_percentage); zero writes zeros, unstamped
 * (fio's zero_buffers). With --verify the verify header takes the stamp's place. */
#ifndef IOLAB_BUFFERS_H
#define IOLAB_BUFFERS_H

#include <stddef.h>
#include <stdint.h>

#include "iolab/run.h"

struct buf_fill {
	unsigned pattern;   /* enum iolab_buffer_pattern */
	unsigned pct;       /* compressible:PCT */
	uint64_t seed;      /* this worker's */
	uint64_t count;     /* blocks stamped so far */
};

/* The worker's fill: pattern (enum iolab_buffer_pattern) and its percentage, seeded by seed
 * (the repetition's), the MPI rank and worker. */
void buf_fill_init(struct buf_fill *f, unsigned pattern, unsigned pct, uint64_t seed, unsigned worker);
/* Fills slot's buffer of n bytes (setup, before the clock starts). */
void buf_fill_slot(const struct buf_fill *f, void *buf, size_t n, unsigned slot);

/* Before a write of len bytes from buf: a fresh stamp in each 4 KiB (none for zero). */
static inline void buf_stamp(struct buf_fill *f, void *buf, uint32_t len)
{
	if (f->pattern == IOLAB_BUF_ZERO)
		return;
	for (uint32_t at = 0; at + 16 <= len; at += 4096) {
		uint64_t *w = (uint64_t *)((char *)buf + at);
		w[0] = f->count++; /* with the worker's own seed: a pair no other block has */
		w[1] = f->seed;
	}
}

#endif
