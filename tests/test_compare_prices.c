/* test_compare_prices.c: the prices of a comparison (src/report/compare_prices.c,
 * docs/compare.md "Prices") on hand-built documents (docs/json-schema.md) with exact figures:
 * $/GB on the bytes the run's region used (--length, --stroke, --offset of its RUN), not the
 * drive's capacity; $/IOPS and $/(MB/s) per compared point; --price-at taking the runs' prices at
 * the named point (pattern, qd, bs), never at the best point of another pattern; a name matching
 * no point, or several, refused with one line. Then `iolab compare --price-at` through the binary. */
#include <errno.h>
#include <math.h>
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <cmocka.h>
#include <jansson.h>

#include "helpers.h"
#include "iolab/compare.h"
#include "iolab/compare_prices.h"

static void near(double got, double want)
{
	if (!(fabs(got - want) <= 1e-9 * fmax(1, fabs(want)))) {
		fprintf(stderr, "got %.12g, want %.12g\n", got, want);
		fail();
	}
}

static json_t *point(const char *pattern, long bs, int qd, double iops, double mb)
{
	return json_pack("{ss sI si si si ss sf sf s{si s{sf}} s{si s{sf}} sI}", "pattern", pattern,
			 "bs", (json_int_t)bs, "read_pct", 100, "qd", qd, "workers", 1, "engine", "sim",
			 "iops", iops, "mb_per_s", mb, "read", "ios", 1000, "lat_us", "mean", 100.0,
			 "write", "ios", 0, "lat_us", "mean", 0.0, "capacity_bytes",
			 (json_int_t)73400320000);
}

/* A sim run of a 73.4 GB drive, region as given, price 400; points: rand-read 4k qd 1 and 16,
 * seq-read 8k qd 1 (the fastest by far). */
static json_t *doc(long offset, long length, int stroke)
{
	json_t *pts = json_pack("[ooo]", point("rand-read", 4096, 1, 200, 0.8), point("rand-read", 4096, 16, 400, 1.6),
				point("seq-read", 8192, 1, 10000, 80));
	return json_pack("{ss ss so sb sf sI s{s[{s[] sI sI si}]}}", "iolab", "0.1.0", "command", "sim",
			 "points", pts, "interrupted", 0, "price_usd", 400.0, "capacity_bytes",
			 (json_int_t)73400320000, "config", "runs", "targets", "offset", (json_int_t)offset,
			 "length", (json_int_t)length, "stroke_pct", stroke);
}

static json_t *compare2(json_t *a, json_t *b)
{
	struct iolab_compare_run runs[2] = {{1, "a", a}, {2, "b", b}};
	json_t *res = NULL;
	struct iolab_err err;
	int rc = iolab_compare(runs, 2, 0, IOLAB_COMPARE_REF, &res, &err);
	if (rc)
		fprintf(stderr, "%s\n", err.msg);
	assert_int_equal(rc, 0);
	return res;
}

static const json_t *run(const json_t *res, size_t r, const char *field)
{
	return json_object_get(json_array_get(json_object_get(res, "runs"), r), field);
}

static void test_usd_per_gb_on_region(void **state)
{
	(void)state;
	json_t *whole = doc(0, 0, 0), *shortstroke = doc(0, 36700160000, 0), *stroke = doc(0, 0, 25),
	       *offset = doc(3400320000, 0, 0);
	json_t *res = compare2(whole, shortstroke);
	near(json_number_value(run(res, 0, "used_bytes")), 73400320000.0);
	near(json_number_value(run(res, 0, "usd_per_gb")), 400 / 73.40032);
	near(json_number_value(run(res, 1, "used_bytes")), 36700160000.0); /* --length 36.7G */
	near(json_number_value(run(res, 1, "usd_per_gb")), 400 / 36.70016);
	near(json_number_value(run(res, 1, "capacity_bytes")), 73400320000.0); /* still the drive's */
	json_decref(res);
	res = compare2(stroke, offset);
	near(json_number_value(run(res, 0, "used_bytes")), 734003200.0 * 25); /* --stroke 25 */
	near(json_number_value(run(res, 1, "used_bytes")), 70000000000.0);    /* --offset to the end */
	json_decref(res);
	json_decref(whole);
	json_decref(shortstroke);
	json_decref(stroke);
	json_decref(offset);
}

static void test_usd_per_point_and_price_at(void **state)
{
	(void)state;
	json_t *a = doc(0, 0, 0), *b = doc(0, 0, 0);
	json_object_set_new(b, "price_usd", json_real(100));
	json_t *res = compare2(a, b);
	const json_t *points = json_object_get(res, "points");
	assert_int_equal(json_array_size(points), 3);
	for (size_t i = 0; i < 3; i++) {
		const json_t *v = json_array_get(json_object_get(json_array_get(points, i), "values"), 1);
		near(json_number_value(json_object_get(v, "usd_per_iops")),
		     100 / json_number_value(json_object_get(v, "iops")));
		near(json_number_value(json_object_get(v, "usd_per_mb_s")),
		     100 / json_number_value(json_object_get(v, "mb_per_s")));
	}
	/* no run-level $/IOPS from the sequential point's 10000 IOPS */
	assert_true(json_is_null(run(res, 0, "usd_per_iops")));
	assert_true(json_is_null(json_object_get(res, "price_at")));
	struct iolab_err err;
	assert_int_equal(iolab_compare_price_at(res, "rand-read,qd16", &err), 0);
	near(json_number_value(run(res, 0, "usd_per_iops")), 400 / 400.0);
	near(json_number_value(run(res, 1, "usd_per_iops")), 100 / 400.0);
	near(json_number_value(run(res, 1, "usd_per_mb_s")), 100 / 1.6);
	assert_string_equal(json_string_value(run(res, 1, "price_at")), "rand-read bs 4k qd 16");
	assert_int_equal(json_integer_value(json_object_get(json_object_get(res, "price_at"), "point")), 1);
	/* with the size given, and the size in another spelling */
	assert_int_equal(iolab_compare_price_at(res, "seq-read,bs8k,qd1", &err), 0);
	near(json_number_value(run(res, 0, "usd_per_iops")), 400 / 10000.0);
	assert_int_equal(iolab_compare_price_at(res, "rand-read,bs4096,qd1", &err), 0);
	near(json_number_value(run(res, 0, "usd_per_iops")), 2);
	/* refusals: one line naming the option and what is wrong */
	assert_int_equal(iolab_compare_price_at(res, "file-server,qd16", &err), -EINVAL);
	assert_non_null(strstr(err.msg, "--price-at 'file-server,qd16': no compared point"));
	assert_int_equal(iolab_compare_price_at(res, "rand-read,bs8k,qd1", &err), -EINVAL);
	assert_int_equal(iolab_compare_price_at(res, "rand-read", &err), -EINVAL);
	assert_non_null(strstr(err.msg, "queue depth"));
	assert_int_equal(iolab_compare_price_at(res, "rand-read,q16", &err), -EINVAL);
	assert_non_null(strstr(err.msg, "'q16'"));
	assert_null(strchr(err.msg, '\n'));
	json_decref(res);
	json_decref(a);
	json_decref(b);
}

static void test_cli_price_at(void **state)
{
	(void)state;
	char db[512];
	snprintf(db, sizeof(db), "%s/runs.db", th_dir);
	const char *labels[] = {"full", "short"};
	for (int i = 0; i < 2; i++) {
		struct th_out o = th_iolab("sim", "--model", "atlas10k", "--pattern", "rand-read,seq-read", "--bs", "4k",
					   "--qd", "1,16", "--time", "1", "--db", db, "--label", labels[i], "--price",
					   "300", "--offset", i ? "1G" : "0", "--quiet", NULL);
		if (o.status)
			fprintf(stderr, "%s%s", o.out, o.err);
		assert_int_equal(o.status, 0);
		th_out_free(&o);
	}
	struct th_out o = th_iolab("compare", "full", "short", "--price-at", "rand-read,qd16", "--db", db, NULL);
	assert_int_equal(o.status, 0);
	assert_non_null(strstr(o.out, "used GB"));
	assert_non_null(strstr(o.out, "$/IOPS and $/(MB/s) at rand-read bs 4k qd 16 (--price-at rand-read,qd16)"));
	th_out_free(&o);
	o = th_iolab("compare", "full", "short", "--price-at", "file-server,qd16", "--db", db, NULL);
	TH_EXPECT_EXIT(o, 2, "--price-at 'file-server,qd16': no compared point is pattern file-server at qd 16");
	/* iolab report: the comparison it embeds carries the prices at the point */
	char html[600];
	snprintf(html, sizeof(html), "%s/r.html", th_dir);
	o = th_iolab("report", "full", "short", "--price-at", "rand-read,qd16", "-o", html, "--db", db, NULL);
	assert_int_equal(o.status, 0);
	th_out_free(&o);
	char *page = th_read_file(html, NULL);
	assert_non_null(strstr(page, "\"price_at\":{\"spec\":\"rand-read,qd16\",\"point\":1"));
	free(page);
	o = th_iolab("report", "full", "short", "--price-at", "rand-read,qd3", "-o", html, "--force", "--db", db,
		     NULL);
	TH_EXPECT_EXIT(o, 2, "report: --price-at 'rand-read,qd3': no compared point");
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_usd_per_gb_on_region),
		cmocka_unit_test(test_usd_per_point_and_price_at),
		cmocka_unit_test(test_cli_price_at),
	};
	return cmocka_run_group_tests(tests, th_dir_setup, th_dir_teardown);
}
