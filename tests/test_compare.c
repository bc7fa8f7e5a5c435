/* test_compare.c: comparing stored runs (docs/compare.md). Through the binary ($IOLAB_BIN) on a
 * store of `iolab sim` runs: each run as % of the reference (100 for the reference itself, the
 * ratio of the runs' --json figures for the others), the gain in points of %, a prediction's
 * error against a "measured" run, points of differing qd lists listed as unmatched, runs named
 * by label, an unknown run and --measured alone refused (exit 2), the CSV's header and rows,
 * a price saved with the run (sim --price) and --price replacing it, $/GB from the run's
 * capacity_bytes, and an existing output refused without --force. Then
 * iolab_compare itself on hand-built documents (docs/json-schema.md) with exact figures: the
 * latency mean weighted by I/Os (as the store's points.lat_mean_us, docs/results-db.md), the
 * geometric mean of ratios as the overall figure (Fleming and Wallace, "How not to lie with
 * statistics: the correct way to summarize benchmark results", CACM 29(3), 1986: the arithmetic
 * mean of normalized figures depends on the reference, the geometric does not), matching across
 * a swept host scheduler and across models, a three-run gain, prices, and refusals. */
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
#include <sqlite3.h>

#include "helpers.h"
#include "iolab/compare.h"

static char db[512], json_atl[512], json_chee[512];
static const json_t *jpath(const json_t *v, const char *a, size_t i, const char *b);

/* got within eps of want (relative to want where it exceeds 1) */
#define assert_near(got, want, eps) near_(__LINE__, got, want, eps)
static void near_(int line, double got, double want, double eps)
{
	if (!(fabs(got - want) <= eps * fmax(1, fabs(want)))) {
		fprintf(stderr, "line %d: got %.12g, want %.12g\n", line, got, want);
		fail();
	}
}

static void in_dir(char *buf, size_t n, const char *name)
{
	snprintf(buf, n, "%s/%s", th_dir, name);
}

static void sim(const char *model, const char *qd, const char *label, const char *json)
{
	struct th_out o = th_iolab("sim", "--model", model, "--pattern", "rand-read", "--bs", "4k", "--qd", qd,
				   "--time", "1", "--db", db, "--label", label, "--json", json ? json : "-",
				   "--quiet", NULL);
	if (o.status)
		fprintf(stderr, "%s%s", o.out, o.err);
	assert_int_equal(o.status, 0);
	th_out_free(&o);
}

/* Runs 1 atl (atlas10k qd 1,4), 2 chee (cheetah9LP qd 1,4), 3 q16 (atlas10k qd 1,16). */
static int setup(void **state)
{
	th_dir_setup(state);
	in_dir(db, sizeof(db), "runs.db");
	in_dir(json_atl, sizeof(json_atl), "atl.json");
	in_dir(json_chee, sizeof(json_chee), "chee.json");
	char q16[512];
	in_dir(q16, sizeof(q16), "q16.json");
	sim("atlas10k", "1,4", "atl", json_atl);
	sim("cheetah9LP", "1,4", "chee", json_chee);
	sim("atlas10k", "1,16", "q16", q16);
	/* run 4: a run saved with its price (sim --price) */
	struct th_out o = th_iolab("sim", "--model", "atlas10k", "--pattern", "rand-read", "--bs", "4k", "--qd", "1,4",
				   "--time", "1", "--db", db, "--label", "priced", "--price", "120", "--quiet", NULL);
	assert_int_equal(o.status, 0);
	th_out_free(&o);
	return 0;
}

/* Runs `iolab compare` with up to 8 arguments then --db db --json -; returns the parsed result. */
static json_t *cmp(const char *a1, const char *a2, const char *a3, const char *a4, const char *a5,
		   const char *a6, const char *a7, const char *a8)
{
	const char *v[] = {a1, a2, a3, a4, a5, a6, a7, a8};
	const char *argv[12];
	int n = 0;
	for (int i = 0; i < 8 && v[i]; i++)
		argv[n++] = v[i];
	argv[n++] = "--db";
	argv[n++] = db;
	argv[n++] = "--json";
	argv[n++] = "-";
	while (n < 12)
		argv[n++] = NULL;
	struct th_out o = th_iolab("compare", argv[0], argv[1], argv[2], argv[3], argv[4], argv[5], argv[6],
				   argv[7], argv[8], argv[9], argv[10], argv[11], NULL);
	if (o.status)
		fprintf(stderr, "%s%s", o.out, o.err);
	assert_int_equal(o.status, 0);
	json_error_t je;
	json_t *res = json_loads(o.out, 0, &je);
	if (!res)
		fprintf(stderr, "compare's JSON: line %d: %s\n%s", je.line, je.text, o.out);
	assert_non_null(res);
	th_out_free(&o);
	return res;
}

static double jnum(const json_t *v)
{
	assert_true(json_is_number(v));
	return json_number_value(v);
}

/* points[i].values[r].<metric> and .pct.<metric> */
static double value(const json_t *res, size_t i, size_t r, const char *metric)
{
	return jnum(json_object_get(json_array_get(json_object_get(json_array_get(json_object_get(res, "points"), i),
								   "values"), r), metric));
}

static double pct(const json_t *res, size_t i, size_t r, const char *metric)
{
	return jnum(json_object_get(json_object_get(json_array_get(json_object_get(json_array_get(
		json_object_get(res, "points"), i), "values"), r), "pct"), metric));
}

/* The iops of point i of a run's --json document. */
static double doc_iops(const char *path, size_t i)
{
	json_t *d = th_load_json(path);
	assert_non_null(d);
	double v = jnum(json_object_get(json_array_get(json_object_get(d, "points"), i), "iops"));
	json_decref(d);
	return v;
}

static void test_pct_of_reference(void **state)
{
	(void)state;
	json_t *res = cmp("atl", "chee", NULL, NULL, NULL, NULL, NULL, NULL);
	assert_string_equal(json_string_value(json_object_get(res, "mode")), "ref");
	assert_int_equal(json_integer_value(json_object_get(res, "reference")), 0);
	const json_t *runs = json_object_get(res, "runs");
	assert_int_equal(json_array_size(runs), 2);
	assert_int_equal(json_integer_value(json_object_get(json_array_get(runs, 0), "id")), 1);
	assert_string_equal(json_string_value(json_object_get(json_array_get(runs, 1), "label")), "chee");
	assert_string_equal(json_string_value(json_object_get(json_array_get(runs, 1), "target")), "cheetah9LP");
	assert_string_equal(json_string_value(json_object_get(json_array_get(runs, 1), "kind")), "sim");
	assert_int_equal(json_array_size(json_object_get(res, "points")), 2);
	assert_int_equal(json_array_size(json_object_get(res, "unmatched")), 0);
	for (size_t i = 0; i < 2; i++) {
		double a = doc_iops(json_atl, i), c = doc_iops(json_chee, i);
		assert_near(value(res, i, 0, "iops"), a, 1e-9);
		assert_near(value(res, i, 1, "iops"), c, 1e-9);
		assert_near(pct(res, i, 0, "iops"), 100, 1e-9);
		assert_near(pct(res, i, 0, "lat_mean_us"), 100, 1e-9);
		assert_near(pct(res, i, 1, "iops"), c / a * 100, 1e-9);
	}
	const char *name = json_string_value(json_object_get(json_array_get(json_object_get(res, "points"), 1), "name"));
	assert_string_equal(name, "rand-read bs 4k qd 4");
	json_decref(res);

	/* --ref's run is shown first and is the reference */
	res = cmp("--ref", "chee", "atl", NULL, NULL, NULL, NULL, NULL);
	runs = json_object_get(res, "runs");
	assert_string_equal(json_string_value(json_object_get(json_array_get(runs, 0), "label")), "chee");
	assert_near(pct(res, 0, 0, "iops"), 100, 1e-9);
	assert_near(pct(res, 0, 1, "iops"), doc_iops(json_atl, 0) / doc_iops(json_chee, 0) * 100, 1e-9);
	json_decref(res);

	/* the table: a column per run, "value (pct%)" */
	struct th_out o = th_iolab("compare", "1", "chee", "--db", db, NULL);
	assert_int_equal(o.status, 0);
	assert_non_null(strstr(o.out, "run 1 (atl)"));
	assert_non_null(strstr(o.out, "run 2 (chee)"));
	assert_non_null(strstr(o.out, "(100.0%)"));
	assert_non_null(strstr(o.out, "rand-read bs 4k qd 1"));
	assert_non_null(strstr(o.out, "geometric mean"));
	th_out_free(&o);
}

static void test_gain(void **state)
{
	(void)state;
	json_t *res = cmp("atl", "chee", "--gain", NULL, NULL, NULL, NULL, NULL);
	assert_string_equal(json_string_value(json_object_get(res, "mode")), "gain");
	for (size_t i = 0; i < 2; i++) {
		double a = doc_iops(json_atl, i), c = doc_iops(json_chee, i);
		double g = jnum(json_object_get(json_object_get(json_array_get(json_object_get(res, "points"), i), "gain"),
						"iops"));
		assert_near(g, (c / a - 1) * 100, 1e-9);
		assert_true((g > 0) == (c > a));
	}
	json_decref(res);
	/* the other way round the gain changes sign (of the other run's %) */
	res = cmp("chee", "atl", "--gain", NULL, NULL, NULL, NULL, NULL);
	double a = doc_iops(json_atl, 0), c = doc_iops(json_chee, 0);
	double g = jnum(json_object_get(json_object_get(json_array_get(json_object_get(res, "points"), 0), "gain"), "iops"));
	assert_near(g, (a / c - 1) * 100, 1e-9);
	json_decref(res);

	struct th_out o = th_iolab("compare", "atl", "chee", "q16", "--gain", "--db", db, NULL);
	TH_EXPECT_EXIT(o, 2, "--gain needs exactly two runs");
}

static void test_error_mode(void **state)
{
	(void)state;
	json_t *res = cmp("--measured", "atl", "--predicted", "chee", NULL, NULL, NULL, NULL);
	assert_string_equal(json_string_value(json_object_get(res, "mode")), "error");
	double sum = 0, sq = 0, max = 0;
	for (size_t i = 0; i < 2; i++) {
		double m = doc_iops(json_atl, i), p = doc_iops(json_chee, i), e = 100 * (p - m) / m;
		double got = jnum(json_object_get(json_object_get(json_array_get(json_object_get(res, "points"), i),
								  "error_pct"), "iops"));
		assert_near(got, e, 1e-9);
		sum += fabs(e);
		sq += e * e;
		max = fmax(max, fabs(e));
	}
	const json_t *o = json_object_get(json_object_get(res, "overall"), "iops");
	assert_near(jnum(json_object_get(o, "mean_abs_pct")), sum / 2, 1e-9);
	assert_near(jnum(json_object_get(o, "max_abs_pct")), max, 1e-9);
	assert_near(jnum(json_object_get(o, "rms_pct")), sqrt(sq / 2), 1e-9);
	json_decref(res);

	struct th_out out = th_iolab("compare", "--measured", "atl", "--db", db, NULL);
	TH_EXPECT_EXIT(out, 2, "--measured needs --predicted");
}

static void test_unmatched_points_listed(void **state)
{
	(void)state;
	json_t *res = cmp("atl", "q16", NULL, NULL, NULL, NULL, NULL, NULL);
	const json_t *points = json_object_get(res, "points"), *un = json_object_get(res, "unmatched");
	assert_int_equal(json_array_size(points), 1);
	assert_int_equal(json_integer_value(json_object_get(json_object_get(json_array_get(points, 0), "key"), "qd")), 1);
	assert_int_equal(json_array_size(un), 2);
	const json_t *u0 = json_array_get(un, 0), *u1 = json_array_get(un, 1);
	assert_int_equal(json_integer_value(json_object_get(u0, "run")), 0);
	assert_int_equal(json_integer_value(json_object_get(json_object_get(u0, "key"), "qd")), 4);
	assert_string_equal(json_string_value(json_object_get(u0, "name")), "rand-read bs 4k qd 4");
	assert_int_equal(json_integer_value(json_object_get(u1, "run")), 1);
	assert_int_equal(json_integer_value(json_object_get(json_object_get(u1, "key"), "qd")), 16);
	json_decref(res);

	struct th_out o = th_iolab("compare", "atl", "q16", "--db", db, NULL);
	assert_int_equal(o.status, 0);
	assert_non_null(strstr(o.out, "not compared: run 1 (atl): rand-read bs 4k qd 4"));
	assert_non_null(strstr(o.out, "not compared: run 3 (q16): rand-read bs 4k qd 16"));
	th_out_free(&o);
}

static void test_unknown_run(void **state)
{
	(void)state;
	struct th_out o = th_iolab("compare", "atl", "nosuch", "--db", db, NULL);
	TH_EXPECT_EXIT(o, 2, "nosuch");
	o = th_iolab("compare", "atl", "99", "--db", db, NULL);
	TH_EXPECT_EXIT(o, 2, "'99'");
	o = th_iolab("compare", "atl", "--db", db, NULL);
	TH_EXPECT_EXIT(o, 2, "at least two runs");
	o = th_iolab("compare", "atl", "chee", "--metric", "bogus", "--db", db, NULL);
	TH_EXPECT_EXIT(o, 2, "--metric");
}

static void test_csv(void **state)
{
	(void)state;
	char csv[512];
	in_dir(csv, sizeof(csv), "cmp.csv");
	struct th_out o = th_iolab("compare", "atl", "chee", "--db", db, "--csv", csv, NULL);
	assert_int_equal(o.status, 0);
	th_out_free(&o);
	char *text = th_read_file(csv, NULL);
	assert_true(!strncmp(text, "point,matched,run_id,run,pattern,bs,read_pct,qd,", 48));
	assert_non_null(strstr(text, ",iops,mb_per_s,lat_mean_us,pct_iops,pct_mb_per_s,pct_lat_mean_us,"));
	assert_int_equal(th_count_lines(text), 1 + 2 * 2); /* header, 2 points x 2 runs */
	free(text);
	/* unmatched points are rows too, matched = 0 */
	o = th_iolab("compare", "atl", "q16", "--db", db, "--csv", "-", NULL);
	assert_int_equal(o.status, 0);
	assert_int_equal(th_count_lines(o.out), 1 + 2 + 2);
	assert_non_null(strstr(o.out, "rand-read bs 4k qd 16,0,3,q16,"));
	th_out_free(&o);
}

/* Sets the capacity_bytes of the run labelled label in its stored document. */
static void set_capacity(const char *label, double bytes)
{
	sqlite3 *s;
	assert_int_equal(sqlite3_open(db, &s), SQLITE_OK);
	char sql[256];
	snprintf(sql, sizeof(sql), "UPDATE runs SET json = json_set(json, '$.capacity_bytes', %.0f) "
		 "WHERE label = '%s'", bytes, label);
	assert_int_equal(sqlite3_exec(s, sql, NULL, NULL, NULL), SQLITE_OK);
	sqlite3_close(s);
}

static void test_price(void **state)
{
	(void)state;
	/* the cheetah9LP model holds 17783240 blocks of 512 bytes (iolab model show cheetah9LP) */
	const double cap = 17783240.0 * 512;
	set_capacity("chee", cap);
	json_t *res = cmp("atl", "chee", "--price", "chee=300", "--price", "1=250.5", NULL, NULL);
	const json_t *a = json_array_get(json_object_get(res, "runs"), 0), *c = json_array_get(json_object_get(res, "runs"), 1);
	assert_near(jnum(json_object_get(c, "price_usd")), 300, 1e-9);
	assert_near(jnum(json_object_get(c, "capacity_bytes")), cap, 1e-12);
	assert_near(jnum(json_object_get(c, "usd_per_gb")), 300 / (cap / 1e9), 1e-9);
	/* $/IOPS per compared point (compare_prices.c), none per run without --price-at */
	assert_near(jnum(json_object_get(json_array_get(jpath(res, "points", 1, "values"), 1),
				    "usd_per_iops")), 300 / doc_iops(json_chee, 1), 1e-9);
	assert_true(json_is_null(json_object_get(c, "usd_per_iops")));
	assert_near(jnum(json_object_get(a, "price_usd")), 250.5, 1e-9);
	json_t *d = th_load_json(json_atl); /* the capacity the run wrote */
	assert_near(jnum(json_object_get(a, "usd_per_gb")), 250.5 / (jnum(json_object_get(d, "capacity_bytes")) / 1e9),
		    1e-9);
	json_decref(d);
	json_decref(res);

	/* a price saved with the run is read; --price replaces it */
	res = cmp("priced", "chee", NULL, NULL, NULL, NULL, NULL, NULL);
	assert_near(jnum(jpath(res, "runs", 0, "price_usd")), 120, 1e-12);
	assert_true(json_is_null(jpath(res, "runs", 1, "price_usd")));
	json_decref(res);
	res = cmp("priced", "chee", "--price", "priced=60", NULL, NULL, NULL, NULL);
	assert_near(jnum(jpath(res, "runs", 0, "price_usd")), 60, 1e-12);
	json_decref(res);

	struct th_out o = th_iolab("compare", "atl", "chee", "--price", "chee=300", "--db", db, NULL);
	assert_int_equal(o.status, 0);
	assert_non_null(strstr(o.out, "$/GB"));
	assert_non_null(strstr(o.out, "32.95")); /* 300 / 9.105 */
	th_out_free(&o);
	o = th_iolab("compare", "atl", "chee", "--price", "q16=300", "--db", db, NULL);
	TH_EXPECT_EXIT(o, 2, "not one of the runs compared");
	o = th_iolab("compare", "atl", "chee", "--price", "chee", "--db", db, NULL);
	TH_EXPECT_EXIT(o, 2, "RUN=USD");
}

static void test_output_needs_force(void **state)
{
	(void)state;
	char out[512];
	in_dir(out, sizeof(out), "exists.json");
	FILE *f = fopen(out, "w");
	assert_non_null(f);
	fputs("keep\n", f);
	fclose(f);
	struct th_out o = th_iolab("compare", "atl", "chee", "--db", db, "--json", out, NULL);
	TH_EXPECT_EXIT(o, 2, "--json", out);
	char *text = th_read_file(out, NULL);
	assert_string_equal(text, "keep\n");
	free(text);
	o = th_iolab("compare", "atl", "chee", "--db", db, "--json", out, "--force", NULL);
	assert_int_equal(o.status, 0);
	th_out_free(&o);
	json_t *res = th_load_json(out);
	assert_non_null(res);
	assert_string_equal(json_string_value(json_object_get(res, "mode")), "ref");
	json_decref(res);
	/* the store itself is never an output */
	o = th_iolab("compare", "atl", "chee", "--db", db, "--csv", db, "--force", NULL);
	assert_int_equal(o.status, 2);
	th_out_free(&o);
}

/* ---- iolab_compare on hand-built documents ---- */

/* A point: rand-read 4k at qd, with iops, MB/s and reads/writes (ios, mean latency). */
static json_t *point(int qd, double iops, double mb, int rios, double rlat, int wios, double wlat)
{
	return json_pack("{ss sI si si si sn sn sn sn sn ss sn sf sf s{si s{sf}} s{si s{sf}}}", "pattern", "rand-read",
			 "bs", (json_int_t)4096, "read_pct", 100, "qd", qd, "workers", 1, "clients", "think_s",
			 "target_iops", "replay", "host_scheduler", "engine", "sim", "model", "iops", iops,
			 "mb_per_s", mb, "read", "ios", rios, "lat_us", "mean", rlat, "write", "ios", wios,
			 "lat_us", "mean", wlat);
}

static json_t *doc_of(json_t *points)
{
	return json_pack("{ss ss so sb}", "iolab", "0.1.0", "command", "sim", "points", points, "interrupted", 0);
}

static json_t *run_cmp(json_t **docs, size_t n, size_t ref, enum iolab_compare_mode mode)
{
	struct iolab_compare_run runs[4];
	for (size_t i = 0; i < n; i++)
		runs[i] = (struct iolab_compare_run){(int64_t)i + 1, NULL, docs[i]};
	json_t *res = NULL;
	struct iolab_err err;
	int rc = iolab_compare(runs, n, ref, mode, &res, &err);
	if (rc)
		fprintf(stderr, "%s\n", err.msg);
	assert_int_equal(rc, 0);
	return res;
}

static const json_t *jpath(const json_t *v, const char *a, size_t i, const char *b)
{
	return json_object_get(json_array_get(json_object_get(v, a), i), b);
}

static void test_unit_pct_lat_geomean(void **state)
{
	(void)state;
	json_t *docs[2] = {
		doc_of(json_pack("[oo]", point(1, 100, 0.4, 3, 10, 1, 30), point(4, 200, 0.8, 1, 100, 0, 0))),
		doc_of(json_pack("[oo]", point(1, 50, 0.2, 1, 40, 1, 20), point(4, 400, 1.6, 2, 25, 0, 0))),
	};
	json_t *res = run_cmp(docs, 2, 0, IOLAB_COMPARE_REF);
	/* lat_mean_us: (3 * 10 + 1 * 30) / 4 = 15; (40 + 20) / 2 = 30 */
	assert_near(value(res, 0, 0, "lat_mean_us"), 15, 1e-12);
	assert_near(value(res, 0, 1, "lat_mean_us"), 30, 1e-12);
	assert_near(pct(res, 0, 1, "lat_mean_us"), 200, 1e-12);
	assert_near(pct(res, 0, 1, "iops"), 50, 1e-12);
	assert_near(pct(res, 1, 1, "iops"), 200, 1e-12);
	assert_near(pct(res, 1, 1, "lat_mean_us"), 25, 1e-12);
	/* geometric means: sqrt(50 * 200) = 100 for iops and MB/s, sqrt(200 * 25) for latency */
	const json_t *ov = json_object_get(res, "overall");
	assert_near(jnum(json_array_get(json_object_get(ov, "iops"), 0)), 100, 1e-9);
	assert_near(jnum(json_array_get(json_object_get(ov, "iops"), 1)), 100, 1e-9);
	assert_near(jnum(json_array_get(json_object_get(ov, "mb_per_s"), 1)), 100, 1e-9);
	assert_near(jnum(json_array_get(json_object_get(ov, "lat_mean_us"), 1)), sqrt(200.0 * 25), 1e-9);
	assert_string_equal(json_string_value(jpath(res, "points", 0, "name")), "rand-read bs 4k qd 1");
	assert_string_equal(json_string_value(json_array_get(json_object_get(res, "metrics"), 2)), "lat_mean_us");
	json_decref(res);
	json_decref(docs[0]);
	json_decref(docs[1]);
}

static void test_unit_error(void **state)
{
	(void)state;
	json_t *docs[2] = {
		doc_of(json_pack("[oo]", point(1, 100, 1, 1, 10, 0, 0), point(4, 200, 2, 1, 10, 0, 0))),
		doc_of(json_pack("[oo]", point(1, 110, 1, 1, 10, 0, 0), point(4, 160, 2, 1, 10, 0, 0))),
	};
	json_t *res = run_cmp(docs, 2, 0, IOLAB_COMPARE_ERROR);
	assert_near(jnum(json_object_get(jpath(res, "points", 0, "error_pct"), "iops")), 10, 1e-9);
	assert_near(jnum(json_object_get(jpath(res, "points", 1, "error_pct"), "iops")), -20, 1e-9);
	const json_t *o = json_object_get(json_object_get(res, "overall"), "iops");
	assert_near(jnum(json_object_get(o, "mean_abs_pct")), 15, 1e-9);
	assert_near(jnum(json_object_get(o, "max_abs_pct")), 20, 1e-9);
	assert_near(jnum(json_object_get(o, "rms_pct")), sqrt((100 + 400) / 2.0), 1e-9);
	assert_near(jnum(json_object_get(o, "mean_pct")), -5, 1e-9);
	o = json_object_get(json_object_get(res, "overall"), "lat_mean_us");
	assert_near(jnum(json_object_get(o, "max_abs_pct")), 0, 1e-9);
	json_decref(res);
	/* the measured run second: the reference index says which */
	res = run_cmp(docs, 2, 1, IOLAB_COMPARE_ERROR);
	assert_near(jnum(json_object_get(jpath(res, "points", 1, "error_pct"), "iops")), 25, 1e-9);
	json_decref(res);
	json_decref(docs[0]);
	json_decref(docs[1]);
}

static void test_unit_sweep_and_models_match(void **state)
{
	(void)state;
	json_t *a0 = point(1, 100, 1, 1, 10, 0, 0), *a1 = point(1, 150, 1, 1, 10, 0, 0);
	json_object_set_new(a0, "host_scheduler", json_string("none"));
	json_object_set_new(a1, "host_scheduler", json_string("cscan"));
	json_object_set_new(a0, "model", json_string("barracuda"));
	json_object_set_new(a1, "model", json_string("barracuda"));
	json_t *b0 = point(1, 120, 1, 1, 10, 0, 0);
	json_object_set_new(b0, "engine", json_string("io_uring"));
	json_object_set_new(b0, "model", json_string("atlas10k"));
	json_t *docs[2] = {doc_of(json_pack("[oo]", a0, a1)), doc_of(json_pack("[o]", b0))};
	json_t *res = run_cmp(docs, 2, 1, IOLAB_COMPARE_REF);
	/* the measured point matches both schedulers the simulation swept */
	assert_int_equal(json_array_size(json_object_get(res, "points")), 2);
	assert_int_equal(json_array_size(json_object_get(res, "unmatched")), 0);
	assert_string_equal(json_string_value(jpath(res, "points", 0, "name")), "rand-read bs 4k qd 1 none");
	assert_string_equal(json_string_value(jpath(res, "points", 1, "name")), "rand-read bs 4k qd 1 cscan");
	assert_near(pct(res, 0, 0, "iops"), 100.0 / 120 * 100, 1e-9);
	assert_near(pct(res, 1, 0, "iops"), 150.0 / 120 * 100, 1e-9);
	assert_near(pct(res, 1, 1, "iops"), 100, 1e-9);
	json_decref(res);
	json_decref(docs[0]);
	json_decref(docs[1]);
}

static void test_unit_gain_of_reference(void **state)
{
	(void)state;
	json_t *docs[3] = {
		doc_of(json_pack("[o]", point(1, 200, 1, 1, 10, 0, 0))), /* R */
		doc_of(json_pack("[o]", point(1, 100, 1, 1, 10, 0, 0))), /* A */
		doc_of(json_pack("[o]", point(1, 150, 1, 1, 10, 0, 0))), /* B */
	};
	json_t *res = run_cmp(docs, 3, 0, IOLAB_COMPARE_GAIN);
	/* pct of R: A 50, B 75: B gains 25 points */
	assert_near(jnum(json_object_get(jpath(res, "points", 0, "gain"), "iops")), 25, 1e-9);
	assert_near(jnum(json_object_get(json_object_get(res, "overall_gain"), "iops")), 25, 1e-9);
	json_decref(res);
	res = run_cmp(docs + 1, 2, 0, IOLAB_COMPARE_GAIN);
	assert_near(jnum(json_object_get(jpath(res, "points", 0, "gain"), "iops")), 50, 1e-9);
	json_decref(res);
	for (int i = 0; i < 3; i++)
		json_decref(docs[i]);
}

static void test_unit_prices(void **state)
{
	(void)state;
	json_t *docs[2] = {
		doc_of(json_pack("[oo]", point(1, 100, 0.5, 1, 10, 0, 0), point(4, 250, 1.25, 1, 10, 0, 0))),
		doc_of(json_pack("[oo]", point(1, 100, 0.5, 1, 10, 0, 0), point(4, 250, 1.25, 1, 10, 0, 0))),
	};
	json_object_set_new(docs[0], "price_usd", json_real(500));
	json_object_set_new(docs[0], "capacity_bytes", json_integer(250000000000));
	json_object_set_new(docs[1], "price_usd", json_null());
	json_t *res = run_cmp(docs, 2, 0, IOLAB_COMPARE_REF);
	const json_t *r0 = json_array_get(json_object_get(res, "runs"), 0), *r1 = json_array_get(json_object_get(res, "runs"), 1);
	assert_near(jnum(json_object_get(r0, "usd_per_gb")), 2, 1e-12);
	assert_near(jnum(json_object_get(json_array_get(jpath(res, "points", 1, "values"), 0),
				    "usd_per_iops")), 2, 1e-12); /* at the point of 250 IOPS */
	assert_true(json_is_null(json_object_get(r0, "usd_per_iops"))); /* without --price-at */
	assert_true(json_is_null(json_object_get(r1, "price_usd")));
	assert_true(json_is_null(json_object_get(r1, "capacity_bytes")));
	assert_true(json_is_null(json_object_get(r1, "usd_per_iops")));
	json_decref(res);
	json_decref(docs[0]);
	json_decref(docs[1]);
}

static void test_unit_refusals(void **state)
{
	(void)state;
	json_t *good = doc_of(json_pack("[o]", point(1, 100, 1, 1, 10, 0, 0))), *bad = json_pack("{ss}", "iolab", "x");
	struct iolab_compare_run runs[3] = {{1, NULL, good}, {2, "b", bad}, {3, NULL, good}};
	json_t *res = NULL;
	struct iolab_err err;
	assert_int_equal(iolab_compare(runs, 1, 0, IOLAB_COMPARE_REF, &res, &err), -EINVAL);
	assert_int_equal(iolab_compare(runs, 2, 0, IOLAB_COMPARE_REF, &res, &err), -EINVAL);
	assert_non_null(strstr(err.msg, "run 2"));
	runs[1].doc = good;
	assert_int_equal(iolab_compare(runs, 3, 0, IOLAB_COMPARE_ERROR, &res, &err), -EINVAL);
	assert_int_equal(iolab_compare(runs, 2, 2, IOLAB_COMPARE_REF, &res, &err), -EINVAL);
	assert_null(res);
	json_decref(good);
	json_decref(bad);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_pct_of_reference),
		cmocka_unit_test(test_gain),
		cmocka_unit_test(test_error_mode),
		cmocka_unit_test(test_unmatched_points_listed),
		cmocka_unit_test(test_unknown_run),
		cmocka_unit_test(test_csv),
		cmocka_unit_test(test_price),
		cmocka_unit_test(test_output_needs_force),
		cmocka_unit_test(test_unit_pct_lat_geomean),
		cmocka_unit_test(test_unit_error),
		cmocka_unit_test(test_unit_sweep_and_models_match),
		cmocka_unit_test(test_unit_gain_of_reference),
		cmocka_unit_test(test_unit_prices),
		cmocka_unit_test(test_unit_refusals),
	};
	return cmocka_run_group_tests(tests, setup, th_dir_teardown);
}
