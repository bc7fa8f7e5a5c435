/* buffers.c: filling the write buffers of a worker (buffers.h). */
#include <string.h>

#include "iolab/cluster.h"
#include "iolab/prng.h"
#include "buffers.h"

const char *iolab_buffer_pattern_name(unsigned p)
{
	return p == IOLAB_BUF_ZERO ? "zero" : p == IOLAB_BUF_COMPRESSIBLE ? "compressible" : "random";
}

void buf_fill_init(struct buf_fill *f, unsigned pattern, unsigned pct, uint64_t seed, unsigned worker)
{
	f->pattern = pattern;
	f->pct = pct;
	/* distinct for each rank and worker (the mix is a bijection): a stamp's second word */
	uint64_t who = ((uint64_t)iolab_cluster_rank() << 20 | worker) + 1;
	f->seed = iolab_prng_mix(seed ^ iolab_prng_mix(who));
	f->count = 0;
}

void buf_fill_slot(const struct buf_fill *f, void *buf, size_t n, unsigned slot)
{
	memset(buf, 0, n);
	if (f->pattern == IOLAB_BUF_ZERO)
		return;
	struct iolab_prng r;
	iolab_prng_seed(&r, f->seed + slot);
	/* the random bytes of each 4 KiB: all of it, or the part compressible:PCT leaves */
	size_t keep = f->pattern == IOLAB_BUF_COMPRESSIBLE ? (4096 * (100 - f->pct) + 99) / 100 : 4096;
	for (size_t at = 0; at < n; at += 4096)
		for (size_t j = 0; j + 8 <= keep && at + j + 8 <= n; j += 8) {
			uint64_t v = iolab_prng_next(&r);
			memcpy((char *)buf + at + j, &v, 8);
		}
}
