/* test_histogram.c: bucket geometry, percentiles, moments, merging and overflow of the latency histogram. */
#include <math.h>
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include <cmocka.h>

#include "iolab/histogram.h"
#include "iolab/prng.h"

#define LAST (IOLAB_HIST_BUCKETS - 1)

static double mid(unsigned i)
{
	return (double)iolab_hist_bucket_low(i) + (double)(iolab_hist_bucket_width(i) - 1) / 2.0;
}

static struct iolab_hist *new_hist(void)
{
	struct iolab_hist *h = malloc(sizeof(*h));
	assert_non_null(h);
	iolab_hist_reset(h);
	return h;
}

static void assert_rel(double got, double want, double tol, const char *what)
{
	double rel = want != 0 ? fabs(got - want) / fabs(want) : fabs(got);
	if (rel > tol) {
		print_error("%s: got %.6g, want %.6g (relative error %.4f%% > %.4f%%)\n", what, got, want,
			    rel * 100, tol * 100);
		fail();
	}
}

/* Log-uniform value in [lo, hi]. */
static uint64_t log_uniform(struct iolab_prng *r, double lo, double hi)
{
	double u = iolab_prng_unit(r);
	return (uint64_t)llround(exp(log(lo) + u * (log(hi) - log(lo))));
}

/* The buckets tile [0, 2^43) without gaps or overlap, and index() agrees with low()/width(). */
static void test_geometry(void **state)
{
	(void)state;
	assert_int_equal(iolab_hist_bucket_low(0), 0);
	for (unsigned i = 0; i < IOLAB_HIST_BUCKETS; i++) {
		uint64_t lo = iolab_hist_bucket_low(i), w = iolab_hist_bucket_width(i);
		assert_true(w >= 1);
		assert_int_equal(iolab_hist_index(lo), i);
		assert_int_equal(iolab_hist_index(lo + w - 1), i);
		if (i + 1 < IOLAB_HIST_BUCKETS)
			assert_true(iolab_hist_bucket_low(i + 1) == lo + w);
		if (i < 128)
			assert_true(lo == i && w == 1); /* one bucket per ns below 128 */
		else
			assert_true(w * 64 <= lo); /* at most 1/64 of the lower edge wide */
	}
	assert_true(iolab_hist_bucket_low(LAST) + iolab_hist_bucket_width(LAST) == 1ull << 43);
}

static void check_value(uint64_t v)
{
	unsigned i = iolab_hist_index(v);
	assert_true(i < IOLAB_HIST_BUCKETS);
	uint64_t lo = iolab_hist_bucket_low(i), w = iolab_hist_bucket_width(i);
	if (v < lo || v >= lo + w) {
		print_error("value %llu not in its bucket %u [%llu, %llu)\n", (unsigned long long)v, i,
			    (unsigned long long)lo, (unsigned long long)(lo + w));
		fail();
	}
	/* The header promises 0.8%; the requirement is 1%. */
	assert_rel(mid(i), (double)v, 0.008, "bucket midpoint");
}

static void test_bucket_contains_value(void **state)
{
	(void)state;
	const double lo = 10, hi = 3.6e12; /* 10 ns .. one hour */
	const unsigned n = 200000;
	for (unsigned k = 0; k <= n; k++) /* an even log spread, both ends included */
		check_value((uint64_t)llround(exp(log(lo) + (log(hi) - log(lo)) * k / n)));
	struct iolab_prng r;
	iolab_prng_seed(&r, 1);
	for (unsigned k = 0; k < n; k++)
		check_value(log_uniform(&r, lo, hi));
	/* Bucket edges around each power of two. */
	for (unsigned b = 4; b < 43; b++) {
		uint64_t p = 1ull << b;
		check_value(p - 1);
		check_value(p);
		check_value(p + 1);
	}
	check_value(3600000000000ull);
	check_value((1ull << 43) - 1);
}

static void test_percentiles_uniform(void **state)
{
	(void)state;
	struct iolab_hist *h = new_hist();
	const uint64_t n = 1000000;
	for (uint64_t v = 1; v <= n; v++)
		iolab_hist_add(h, v);
	assert_true(h->count == n);
	assert_true(h->min == 1);
	assert_true(h->max == n);
	assert_true(h->sum == n * (n + 1) / 2);
	assert_true(iolab_hist_mean(h) == 500000.5);

	assert_rel(iolab_hist_percentile(h, 50), 500000, 0.01, "p50");
	assert_rel(iolab_hist_percentile(h, 99), 990000, 0.01, "p99");
	assert_rel(iolab_hist_percentile(h, 90), 900000, 0.01, "p90");
	assert_rel(iolab_hist_percentile(h, 25), 250000, 0.01, "p25");
	assert_rel(iolab_hist_percentile(h, 99.9), 999000, 0.01, "p99.9");
	assert_rel(iolab_hist_percentile(h, 1), 10000, 0.01, "p1");
	assert_rel(iolab_hist_percentile(h, 0.01), 100, 0.01, "p0.01");
	/* The ends are exact: clamped to min and max. */
	assert_true(iolab_hist_percentile(h, 100) == (double)n);
	assert_true(iolab_hist_percentile(h, 0) == 1);
	/* Percentiles never decrease with p. */
	double prev = 0;
	for (double p = 0; p <= 100; p += 0.5) {
		double v = iolab_hist_percentile(h, p);
		assert_true(v >= prev);
		prev = v;
	}
	/* Uniform over 1..1e6: stddev = sqrt((n^2 - 1) / 12) (sample, n-1). */
	assert_rel(iolab_hist_stddev(h), sqrt(((double)n * (double)n - 1) / 12.0), 0.02, "stddev");
	free(h);
}

static void test_percentiles_small(void **state)
{
	(void)state;
	struct iolab_hist *h = new_hist();
	/* Values below 128 have exact buckets: percentiles are exact order statistics. */
	for (uint64_t v = 1; v <= 100; v++)
		iolab_hist_add(h, v);
	assert_true(iolab_hist_percentile(h, 50) == 50);
	assert_true(iolab_hist_percentile(h, 99) == 99);
	assert_true(iolab_hist_percentile(h, 99.5) == 100);
	assert_true(iolab_hist_percentile(h, 1) == 1);
	assert_true(iolab_hist_percentile(h, 10.5) == 11);
	/* Sample standard deviation of 1..100 is sqrt(100 * 101 / 12). */
	assert_rel(iolab_hist_stddev(h), sqrt(100.0 * 101.0 / 12.0), 1e-9, "stddev 1..100");

	/* One sample: every percentile is that sample; stddev 0. */
	struct iolab_hist *one = new_hist();
	iolab_hist_add(one, 123456789);
	assert_true(iolab_hist_percentile(one, 0) == 123456789);
	assert_true(iolab_hist_percentile(one, 50) == 123456789);
	assert_true(iolab_hist_percentile(one, 100) == 123456789);
	assert_true(iolab_hist_mean(one) == 123456789);
	assert_true(iolab_hist_stddev(one) == 0);
	assert_true(one->min == 123456789 && one->max == 123456789);
	free(one);
	free(h);
}

/* Min, max and mean are exact and the stddev is close for a skewed, wide data set. */
static void test_moments(void **state)
{
	(void)state;
	struct iolab_hist *h = new_hist();
	struct iolab_prng r;
	iolab_prng_seed(&r, 7);
	const unsigned n = 100000;
	uint64_t *v = malloc(n * sizeof(*v));
	assert_non_null(v);
	uint64_t sum = 0, mn = UINT64_MAX, mx = 0;
	for (unsigned i = 0; i < n; i++) {
		v[i] = log_uniform(&r, 1000, 1e7);
		sum += v[i];
		mn = v[i] < mn ? v[i] : mn;
		mx = v[i] > mx ? v[i] : mx;
		iolab_hist_add(h, v[i]);
	}
	double mean = (double)sum / n, acc = 0;
	for (unsigned i = 0; i < n; i++)
		acc += ((double)v[i] - mean) * ((double)v[i] - mean);
	double sd = sqrt(acc / (n - 1));
	assert_true(h->count == n);
	assert_true(h->sum == sum);
	assert_true(h->min == mn);
	assert_true(h->max == mx);
	assert_true(iolab_hist_mean(h) == mean);
	assert_rel(iolab_hist_stddev(h), sd, 0.02, "stddev log-uniform");

	/* Two clusters far apart: 1 us and 1 s, half each. */
	struct iolab_hist *b = new_hist();
	for (unsigned i = 0; i < 1000; i++) {
		iolab_hist_add(b, 1000);
		iolab_hist_add(b, 1000000000);
	}
	double m2 = (1000.0 + 1e9) / 2;
	double sd2 = sqrt(2000.0 * ((1e9 - m2) * (1e9 - m2)) / 1999.0);
	assert_true(iolab_hist_mean(b) == m2);
	assert_rel(iolab_hist_stddev(b), sd2, 0.02, "stddev two clusters");
	assert_rel(iolab_hist_percentile(b, 50), 1000, 0.01, "p50 two clusters");
	assert_rel(iolab_hist_percentile(b, 50.1), 1e9, 0.01, "p50.1 two clusters");
	free(b);
	free(v);
	free(h);
}

static void assert_hist_equal(const struct iolab_hist *a, const struct iolab_hist *b)
{
	assert_true(a->count == b->count);
	assert_true(a->sum == b->sum);
	assert_true(a->min == b->min);
	assert_true(a->max == b->max);
	for (unsigned i = 0; i < IOLAB_HIST_BUCKETS; i++)
		if (a->bucket[i] != b->bucket[i]) {
			print_error("bucket %u: %llu != %llu\n", i, (unsigned long long)a->bucket[i],
				    (unsigned long long)b->bucket[i]);
			fail();
		}
}

static void test_merge(void **state)
{
	(void)state;
	struct iolab_hist *a = new_hist(), *b = new_hist(), *all = new_hist(), *t = new_hist();
	struct iolab_prng r;
	iolab_prng_seed(&r, 99);
	for (unsigned i = 0; i < 50000; i++) {
		uint64_t v = log_uniform(&r, 50, 1e9);
		iolab_hist_add(a, v);
		iolab_hist_add(all, v);
	}
	for (unsigned i = 0; i < 30000; i++) {
		uint64_t v = log_uniform(&r, 1e6, 1e12);
		iolab_hist_add(b, v);
		iolab_hist_add(all, v);
	}
	iolab_hist_add(b, 0); /* b holds the minimum, a does not */
	iolab_hist_add(all, 0);
	iolab_hist_add(b, 5000000000000ull);
	iolab_hist_add(all, 5000000000000ull);

	memcpy(t, a, sizeof(*t));
	iolab_hist_merge(t, b);
	assert_hist_equal(t, all);
	assert_true(t->min == 0 && t->max == 5000000000000ull);

	/* The other way round gives the same. */
	memcpy(t, b, sizeof(*t));
	iolab_hist_merge(t, a);
	assert_hist_equal(t, all);

	/* Into an empty histogram: a copy. From an empty one: no change. */
	iolab_hist_reset(t);
	iolab_hist_merge(t, all);
	assert_hist_equal(t, all);
	struct iolab_hist *empty = new_hist();
	iolab_hist_merge(t, empty);
	assert_hist_equal(t, all);

	/* Percentiles of the merge are those of the union. */
	for (double p = 0; p <= 100; p += 5)
		assert_true(iolab_hist_percentile(t, p) == iolab_hist_percentile(all, p));
	free(empty);
	free(a);
	free(b);
	free(all);
	free(t);
}

static void test_empty(void **state)
{
	(void)state;
	struct iolab_hist *h = new_hist();
	assert_true(h->count == 0);
	assert_true(iolab_hist_percentile(h, 0) == 0);
	assert_true(iolab_hist_percentile(h, 50) == 0);
	assert_true(iolab_hist_percentile(h, 99.99) == 0);
	assert_true(iolab_hist_percentile(h, 100) == 0);
	assert_true(iolab_hist_mean(h) == 0);
	assert_true(iolab_hist_stddev(h) == 0);
	/* reset clears a used histogram */
	iolab_hist_add(h, 42);
	iolab_hist_add(h, 4200000);
	iolab_hist_reset(h);
	assert_true(h->count == 0 && h->sum == 0);
	assert_true(iolab_hist_percentile(h, 50) == 0);
	for (unsigned i = 0; i < IOLAB_HIST_BUCKETS; i++)
		assert_true(h->bucket[i] == 0);
	iolab_hist_add(h, 42);
	assert_true(h->min == 42 && h->max == 42);
	free(h);
}

static void test_overflow(void **state)
{
	(void)state;
	assert_int_equal(iolab_hist_index(1ull << 43), LAST);
	assert_int_equal(iolab_hist_index((1ull << 43) + 1), LAST);
	assert_int_equal(iolab_hist_index(1ull << 50), LAST);
	assert_int_equal(iolab_hist_index(1ull << 63), LAST);
	assert_int_equal(iolab_hist_index(UINT64_MAX), LAST);
	assert_int_equal(iolab_hist_index((1ull << 43) - 1), LAST);
	assert_true(iolab_hist_index((1ull << 43) - (1ull << 36) - 1) == LAST - 1);

	struct iolab_hist *h = new_hist();
	iolab_hist_add(h, 1ull << 43);
	iolab_hist_add(h, 1ull << 50);
	iolab_hist_add(h, 1ull << 62);
	iolab_hist_add(h, 1000);
	assert_true(h->bucket[LAST] == 3);
	assert_true(h->bucket[iolab_hist_index(1000)] == 1);
	uint64_t total = 0;
	for (unsigned i = 0; i < IOLAB_HIST_BUCKETS; i++)
		total += h->bucket[i];
	assert_true(total == 4 && h->count == 4);
	assert_true(h->max == 1ull << 62);
	assert_true(h->sum == (1ull << 43) + (1ull << 50) + (1ull << 62) + 1000);
	/* The top percentiles are the last bucket's midpoint (the header's rule), inside [min, max]. */
	double top = iolab_hist_percentile(h, 100);
	assert_true(top == mid(LAST));
	assert_true(top >= (double)iolab_hist_bucket_low(LAST) && top <= (double)h->max);
	assert_rel(iolab_hist_percentile(h, 25), 1000, 0.01, "p25 with huge values");

	/* The largest value lands in the last bucket and is reported exactly. */
	struct iolab_hist *m = new_hist();
	iolab_hist_add(m, UINT64_MAX);
	assert_true(m->bucket[LAST] == 1);
	assert_true(m->max == UINT64_MAX && m->min == UINT64_MAX);
	assert_true(iolab_hist_percentile(m, 50) == (double)UINT64_MAX);
	free(m);
	free(h);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_geometry),
		cmocka_unit_test(test_bucket_contains_value),
		cmocka_unit_test(test_percentiles_uniform),
		cmocka_unit_test(test_percentiles_small),
		cmocka_unit_test(test_moments),
		cmocka_unit_test(test_merge),
		cmocka_unit_test(test_empty),
		cmocka_unit_test(test_overflow),
	};
	return cmocka_run_group_tests(tests, NULL, NULL);
}
