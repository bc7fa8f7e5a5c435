/* histogram.h: a mergeable log-linear latency histogram.
 *
 * Values are nanoseconds. Values below 128 ns have a bucket each; above, every power of two is
 * split into 64 equal buckets, so a bucket is at most 1/64 of its lower edge wide and the
 * midpoint that stands for it is within 0.8% of any value in it. The top bucket ends at 2^43 ns
 * (2.4 hours); larger values are counted there. Exact count, sum, min and max are kept beside
 * the buckets. Two histograms merge by adding buckets, so per-worker histograms combine into a
 * point's, and points into repeated runs, without loss.
 */
#ifndef IOLAB_HISTOGRAM_H
#define IOLAB_HISTOGRAM_H

#include <stdint.h>

#define IOLAB_HIST_SUB_BITS 6
#define IOLAB_HIST_MAX_BITS 43
#define IOLAB_HIST_BUCKETS (((IOLAB_HIST_MAX_BITS - IOLAB_HIST_SUB_BITS) << IOLAB_HIST_SUB_BITS) + 64)

struct iolab_hist {
	uint64_t count;
	uint64_t sum; /* ns */
	uint64_t min, max;
	uint64_t bucket[IOLAB_HIST_BUCKETS];
};

void iolab_hist_reset(struct iolab_hist *h);

static inline unsigned iolab_hist_index(uint64_t v)
{
	if (v < (2u << IOLAB_HIST_SUB_BITS))
		return (unsigned)v;
	if (v >= (1ull << IOLAB_HIST_MAX_BITS))
		return IOLAB_HIST_BUCKETS - 1;
	unsigned msb = 63u - (unsigned)__builtin_clzll(v);
	unsigned shift = msb - IOLAB_HIST_SUB_BITS;
	return (shift << IOLAB_HIST_SUB_BITS) + (unsigned)(v >> shift);
}

static inline void iolab_hist_add(struct iolab_hist *h, uint64_t v)
{
	h->bucket[iolab_hist_index(v)]++;
	h->count++;
	h->sum += v;
	if (v < h->min)
		h->min = v;
	if (v > h->max)
		h->max = v;
}

/* Lower edge and width of bucket i, in ns. */
uint64_t iolab_hist_bucket_low(unsigned i);
uint64_t iolab_hist_bucket_width(unsigned i);

/* dst += src. */
void iolab_hist_merge(struct iolab_hist *dst, const struct iolab_hist *src);
/* Value at percentile p (0..100): the midpoint of the bucket holding it, clamped to [min, max].
 * Returns 0 for an empty histogram. */
double iolab_hist_percentile(const struct iolab_hist *h, double p);
double iolab_hist_mean(const struct iolab_hist *h);
/* Standard deviation from the bucket midpoints (within the bucket error). */
double iolab_hist_stddev(const struct iolab_hist *h);

#endif
