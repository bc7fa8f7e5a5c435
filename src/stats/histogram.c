/* histogram.c: bucket geometry, merge and percentiles of the log-linear histogram. */
#include <math.h>
#include <string.h>

#include "iolab/histogram.h"

void iolab_hist_reset(struct iolab_hist *h)
{
	memset(h, 0, sizeof(*h));
	h->min = UINT64_MAX;
}

uint64_t iolab_hist_bucket_low(unsigned i)
{
	if (i < (2u << IOLAB_HIST_SUB_BITS))
		return i;
	unsigned shift = (i >> IOLAB_HIST_SUB_BITS) - 1;
	uint64_t sub = i & ((1u << IOLAB_HIST_SUB_BITS) - 1);
	return (sub + (1u << IOLAB_HIST_SUB_BITS)) << shift;
}

uint64_t iolab_hist_bucket_width(unsigned i)
{
	if (i < (2u << IOLAB_HIST_SUB_BITS))
		return 1;
	return 1ull << ((i >> IOLAB_HIST_SUB_BITS) - 1);
}

void iolab_hist_merge(struct iolab_hist *dst, const struct iolab_hist *src)
{
	if (!src->count)
		return;
	for (unsigned i = 0; i < IOLAB_HIST_BUCKETS; i++)
		dst->bucket[i] += src->bucket[i];
	dst->count += src->count;
	dst->sum += src->sum;
	if (src->min < dst->min)
		dst->min = src->min;
	if (src->max > dst->max)
		dst->max = src->max;
}

static double midpoint(unsigned i)
{
	return (double)iolab_hist_bucket_low(i) + (double)(iolab_hist_bucket_width(i) - 1) / 2.0;
}

double iolab_hist_percentile(const struct iolab_hist *h, double p)
{
	if (!h->count)
		return 0;
	/* The rank of the sample at percentile p: the smallest r with r >= p% of count. */
	double want = ceil(p / 100.0 * (double)h->count);
	if (want < 1)
		want = 1;
	uint64_t seen = 0;
	for (unsigned i = 0; i < IOLAB_HIST_BUCKETS; i++) {
		seen += h->bucket[i];
		if ((double)seen >= want) {
			double v = midpoint(i);
			if (v < (double)h->min)
				v = (double)h->min;
			if (v > (double)h->max)
				v = (double)h->max;
			return v;
		}
	}
	return (double)h->max;
}

double iolab_hist_mean(const struct iolab_hist *h)
{
	return h->count ? (double)h->sum / (double)h->count : 0;
}

double iolab_hist_stddev(const struct iolab_hist *h)
{
	if (h->count < 2)
		return 0;
	double mean = iolab_hist_mean(h), acc = 0;
	for (unsigned i = 0; i < IOLAB_HIST_BUCKETS; i++) {
		if (!h->bucket[i])
			continue;
		double d = midpoint(i) - mean;
		acc += d * d * (double)h->bucket[i];
	}
	return sqrt(acc / (double)(h->count - 1));
}
