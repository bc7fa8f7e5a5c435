/* test_cli_output.c: what `iolab run` reports. The --json document (parsed with jansson): its
 * top level, one point per sweep point in the documented order (pattern outermost, qd
 * innermost), each point's figures and their internal consistency; --csv; --repeat; the
 * honest-results warnings (queue depth not reached with psync, where buffered reads were served;
 * sample-count warnings in the table only for p99, which it shows); job files with several runs; SIGINT (exit 130, partial JSON still written); --bytes;
 * seed determinism. The null engine keeps most runs fast; a real scratch file on a real file
 * system serves the runs that need a device. */
#include <errno.h>
#include <fcntl.h>
#include <limits.h>
#include <math.h>
#include <setjmp.h>
#include <signal.h>
#include <stdarg.h>
#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/wait.h>
#include <time.h>
#include <unistd.h>

#include <cmocka.h>
#include <jansson.h>

#include "helpers.h"

static char dir[256];
static char scratch[PATH_MAX]; /* 64 MiB, created by iolab (--size 64m) */

static int group_setup(void **state)
{
	(void)state;
	snprintf(dir, sizeof(dir), "%s", th_tmpdir());
	snprintf(scratch, sizeof(scratch), "%s/scratch.img", dir);
	return 0;
}

static int group_teardown(void **state)
{
	(void)state;
	if (*dir)
		th_rmtree(dir);
	return 0;
}

/* dir/name into buf. */
static const char *in_dir(char *buf, size_t n, const char *name)
{
	snprintf(buf, n, "%s/%s", dir, name);
	return buf;
}

/* Path of NAME in tests/data. */
static void data_file(char *buf, size_t n, const char *name)
{
	char rel[256];
	snprintf(rel, sizeof(rel), "%s", name);
	th_data_path(buf, n, rel);
}

/* Expects exit status 0 (shows the output otherwise). Frees o. */
static void expect_ok_(int line, struct th_out *o)
{
	if (o->status != 0)
		print_error("case at line %d: status %d (want 0)\n--- stderr:\n%s--- stdout:\n%s---\n", line,
			    o->status, o->err, o->out);
	int st = o->status;
	th_out_free(o);
	assert_int_equal(st, 0);
}
#define EXPECT_OK(o) expect_ok_(__LINE__, &(o))

/* Documents loaded by the current test, released by its teardown (also after a failed
 * assertion, so that the sanitizer build reports no leaks). */
static json_t *held[16];
static unsigned nheld;

static json_t *hold(json_t *j)
{
	assert_true(nheld < sizeof(held) / sizeof(held[0]));
	held[nheld++] = j;
	return j;
}

static int release_docs(void **state)
{
	(void)state;
	while (nheld)
		json_decref(held[--nheld]);
	return 0;
}

static json_t *load_json(const char *path)
{
	json_t *j = th_load_json(path);
	assert_non_null(j);
	hold(j);
	assert_true(json_is_object(j));
	return j;
}

static json_t *get(json_t *o, const char *key)
{
	json_t *v = json_object_get(o, key);
	if (!v)
		print_error("key '%s' missing\n", key);
	assert_non_null(v);
	return v;
}

static double num(json_t *o, const char *key)
{
	json_t *v = get(o, key);
	if (!json_is_number(v))
		print_error("'%s' is not a number\n", key);
	assert_true(json_is_number(v));
	return json_number_value(v);
}

static long long integer(json_t *o, const char *key)
{
	json_t *v = get(o, key);
	if (!json_is_integer(v))
		print_error("'%s' is not an integer\n", key);
	assert_true(json_is_integer(v));
	return (long long)json_integer_value(v);
}

static const char *str(json_t *o, const char *key)
{
	json_t *v = get(o, key);
	if (!json_is_string(v))
		print_error("'%s' is not a string\n", key);
	assert_true(json_is_string(v));
	return json_string_value(v);
}

static bool boolean(json_t *o, const char *key)
{
	json_t *v = get(o, key);
	if (!json_is_boolean(v))
		print_error("'%s' is not a boolean\n", key);
	assert_true(json_is_boolean(v));
	return json_is_true(v);
}

/* a <= b, allowing for the last printed digit. */
static void assert_le(double a, double b, const char *what)
{
	if (!(a <= b + 1e-9 * fabs(b) + 1e-12))
		print_error("%s: %.12g > %.12g\n", what, a, b);
	assert_true(a <= b + 1e-9 * fabs(b) + 1e-12);
}

/* A lat_us object: all figures present, non-negative and ordered. empty: no I/O behind it. */
static void check_lat(json_t *lat, bool empty)
{
	assert_true(json_is_object(lat));
	static const char *const keys[] = {"min", "mean", "max", "stddev", "p50",
					   "p90", "p99", "p99.9", "p99.99"};
	for (unsigned i = 0; i < sizeof(keys) / sizeof(keys[0]); i++)
		assert_true(num(lat, keys[i]) >= 0);
	double min = num(lat, "min"), max = num(lat, "max");
	if (!empty)
		assert_true(max > 0);
	assert_le(min, num(lat, "p50"), "min <= p50");
	assert_le(num(lat, "p50"), num(lat, "p90"), "p50 <= p90");
	assert_le(num(lat, "p90"), num(lat, "p99"), "p90 <= p99");
	assert_le(num(lat, "p99"), num(lat, "p99.9"), "p99 <= p99.9");
	assert_le(num(lat, "p99.9"), num(lat, "p99.99"), "p99.9 <= p99.99");
	assert_le(num(lat, "p99.99"), max, "p99.99 <= max");
	assert_le(min, num(lat, "mean"), "min <= mean");
	assert_le(num(lat, "mean"), max, "mean <= max");
}

static void check_dir(json_t *d)
{
	assert_true(json_is_object(d));
	long long ios = integer(d, "ios");
	assert_true(ios >= 0);
	assert_true(integer(d, "bytes") >= ios);
	assert_true(num(d, "iops") >= 0);
	assert_true(num(d, "mb_per_s") >= 0);
	assert_int_equal(integer(d, "errors"), 0);
	check_lat(get(d, "lat_us"), ios == 0);
}

/* Everything a finished point must carry, and its consistency. engine: expected engine. */
static void check_point(json_t *p, const char *engine)
{
	assert_true(json_is_object(p));
	assert_true(*str(p, "pattern"));
	assert_true(integer(p, "qd") >= 1);
	json_t *bs = get(p, "bs");
	assert_true(json_is_null(bs) || (json_is_integer(bs) && json_integer_value(bs) > 0));
	long long rd = integer(p, "read_pct");
	assert_true(rd >= 0 && rd <= 100);
	assert_true(integer(p, "worker_count") >= 1);
	assert_string_equal(str(p, "engine"), engine);
	(void)boolean(p, "direct");
	/* Fields are never omitted (docs/json-schema.md): what does not apply is null. */
	assert_true(json_is_null(get(p, "model")));
	assert_true(json_is_null(get(p, "breakdown_us")));
	double iops = num(p, "iops"), mbps = num(p, "mb_per_s"), secs = num(p, "seconds");
	long long ios = integer(p, "ios");
	assert_true(iops > 0);
	assert_true(mbps > 0);
	assert_true(ios > 0);
	assert_true(secs > 0);
	/* iops is ios per measured second (within rounding); MB/s follows bytes. */
	double want = (double)ios / secs;
	if (fabs(iops - want) > 0.01 * want + 1)
		print_error("iops %.3f but ios/seconds %.3f\n", iops, want);
	assert_true(fabs(iops - want) <= 0.01 * want + 1);
	double mb = (double)integer(p, "bytes") / secs / 1e6;
	assert_true(fabs(mbps - mb) <= 0.01 * mb + 0.01);
	check_lat(get(p, "lat_us"), false);
	json_t *r = get(p, "read"), *w = get(p, "write");
	check_dir(r);
	check_dir(w);
	assert_int_equal(integer(r, "ios") + integer(w, "ios"), ios);
	if (rd == 100)
		assert_int_equal(integer(w, "ios"), 0);
	if (rd == 0)
		assert_int_equal(integer(r, "ios"), 0);
	json_t *cpu = get(p, "cpu");
	assert_true(json_is_object(cpu));
	assert_true(num(cpu, "user_pct") >= 0);
	assert_true(num(cpu, "sys_pct") >= 0);
	assert_true(num(p, "qd_reached") >= 0);
	json_t *warn = get(p, "warnings");
	assert_true(json_is_array(warn));
	for (size_t i = 0; i < json_array_size(warn); i++)
		assert_true(json_is_string(json_array_get(warn, i)));
	json_t *rep = get(p, "repeat");
	assert_true(json_is_object(rep));
	assert_true(integer(rep, "runs") >= 1);
	(void)boolean(p, "partial");
	json_t *dev = get(p, "device");
	if (!strcmp(engine, "null"))
		assert_true(json_is_null(dev)); /* no device under the null engine */
	else if (!json_is_null(dev)) {
		assert_true(num(dev, "util_pct") >= 0);
		assert_true(integer(dev, "ios") >= 0);
		assert_true(num(dev, "queue") >= 0);
	}
	json_t *ps = get(p, "per_second");
	assert_true(json_is_array(get(ps, "iops")));
	assert_true(json_is_array(get(ps, "mb_per_s")));
}

/* The top level of a run's JSON document. */
static json_t *check_doc(json_t *j, size_t npoints)
{
	assert_true(*str(j, "iolab"));
	assert_string_equal(str(j, "command"), "run");
	json_t *cfg = get(j, "config");
	assert_true(json_is_object(cfg));
	json_t *job = get(cfg, "job");
	assert_true(json_is_null(job) || json_is_string(job));
	json_t *runs = get(cfg, "runs");
	assert_true(json_is_array(runs));
	assert_true(json_array_size(runs) >= 1);
	for (size_t i = 0; i < json_array_size(runs); i++) {
		json_t *r = json_array_get(runs, i);
		assert_true(json_is_array(get(r, "targets")));
		assert_true(json_is_array(get(r, "patterns")));
		assert_true(json_is_array(get(r, "qd")));
		assert_true(*str(r, "engine"));
		(void)boolean(r, "direct");
		assert_true(integer(r, "repeat") >= 1);
	}
	(void)boolean(j, "interrupted");
	json_t *points = get(j, "points");
	assert_true(json_is_array(points));
	if (json_array_size(points) != npoints)
		print_error("%zu points, want %zu\n", json_array_size(points), npoints);
	assert_int_equal(json_array_size(points), npoints);
	return points;
}

/* True if some warning of the point contains all of a and b. */
static bool warned(json_t *p, const char *a, const char *b)
{
	json_t *w = get(p, "warnings");
	for (size_t i = 0; i < json_array_size(w); i++) {
		const char *s = json_string_value(json_array_get(w, i));
		if (s && strstr(s, a) && (!b || strstr(s, b)))
			return true;
	}
	char *dump = json_dumps(w, 0);
	print_error("no warning with '%s'%s%s%s in %s\n", a, b ? " and '" : "", b ? b : "", b ? "'" : "",
		    dump ? dump : "?");
	free(dump);
	return false;
}

/* ---- the JSON document ---- */

static void test_json_sweep_order(void **state)
{
	(void)state;
	char f[PATH_MAX];
	in_dir(f, sizeof(f), "sweep.json");
	struct th_out o = th_iolab("run", "--engine", "null", "--pattern", "rand-read,seq-read", "--qd",
				   "1,4", "--time", "0.2", "--json", f, NULL);
	EXPECT_OK(o);
	json_t *j = load_json(f);
	json_t *points = check_doc(j, 4);
	assert_false(boolean(j, "interrupted"));
	json_t *cfg = get(j, "config");
	assert_true(json_is_null(get(cfg, "job")));
	assert_int_equal(json_array_size(get(cfg, "runs")), 1);
	json_t *run = json_array_get(get(cfg, "runs"), 0);
	assert_false(json_object_get(run, "name")); /* no name on the command line */
	assert_string_equal(str(run, "engine"), "null");
	assert_int_equal(json_array_size(get(run, "patterns")), 2);
	assert_int_equal(json_array_size(get(run, "qd")), 2);
	assert_true(fabs(num(run, "time_s") - 0.2) < 1e-9);
	assert_true(json_is_null(get(run, "bytes")));
	static const struct {
		const char *pattern;
		long long qd;
	} want[4] = {{"rand-read", 1}, {"rand-read", 4}, {"seq-read", 1}, {"seq-read", 4}};
	for (size_t i = 0; i < 4; i++) {
		json_t *p = json_array_get(points, i);
		check_point(p, "null");
		assert_string_equal(str(p, "pattern"), want[i].pattern);
		assert_int_equal(integer(p, "qd"), want[i].qd);
		assert_int_equal(integer(p, "bs"), 4096);
		assert_int_equal(integer(p, "read_pct"), 100);
		assert_int_equal(integer(p, "worker_count"), 1);
		assert_false(boolean(p, "direct")); /* the null engine does no I/O at all */
		assert_false(boolean(p, "partial"));
		assert_int_equal(integer(get(p, "repeat"), "runs"), 1);
		assert_int_equal(integer(p, "bytes"), integer(p, "ios") * 4096);
		assert_true(fabs(num(p, "seconds") - 0.2) < 0.02);
		assert_false(json_object_get(p, "run")); /* no run names on the command line */
	}
}

/* --json - writes the document alone on stdout. */
static void test_json_stdout(void **state)
{
	(void)state;
	struct th_out o = th_iolab("run", "--engine", "null", "--time", "0.1", "--json", "-", NULL);
	json_error_t e;
	json_t *j = o.status == 0 ? json_loads(o.out, 0, &e) : NULL;
	if (!j)
		print_error("status %d, stdout not JSON:\n%s\nstderr:\n%s", o.status, o.out, o.err);
	th_out_free(&o);
	assert_non_null(j);
	hold(j);
	check_point(json_array_get(check_doc(j, 1), 0), "null");
}

/* A real scratch file, io_uring, O_DIRECT: the queue depth is really reached. */
static void test_json_io_uring_direct(void **state)
{
	(void)state;
	char f[PATH_MAX];
	in_dir(f, sizeof(f), "uring.json");
	struct th_out o = th_iolab("run", "--engine", "io_uring", "--direct", "--size", "64m", "--qd", "4",
				   "--time", "0.3", "--json", f, scratch, NULL);
	if (o.status != 0 && strstr(o.err, "io_uring")) {
		printf("SKIP: io_uring is not usable here: %s", o.err);
		th_out_free(&o);
		skip();
	}
	EXPECT_OK(o);
	json_t *j = load_json(f);
	json_t *p = json_array_get(check_doc(j, 1), 0);
	check_point(p, "io_uring");
	assert_true(boolean(p, "direct"));
	assert_int_equal(integer(p, "qd"), 4);
	assert_string_equal(str(p, "pattern"), "rand-read");
	if (json_is_null(get(p, "device")))
		printf("note: no sysfs device counters for %s\n", scratch);
	double qd = num(p, "qd_reached");
	if (!(qd > 3 && qd <= 4.05))
		print_error("qd_reached %.3f with --qd 4\n", qd);
	assert_true(qd > 3 && qd <= 4.05);
	json_t *targets = get(json_array_get(get(get(j, "config"), "runs"), 0), "targets");
	assert_string_equal(json_string_value(json_array_get(targets, 0)), scratch);
}

/* ---- CSV ---- */

/* Splits a CSV line into fields (quotes honoured); returns the count. Modifies line. */
static unsigned csv_split(char *line, char **field, unsigned max)
{
	unsigned n = 0;
	char *p = line;
	for (;;) {
		char *start = p, *out = p;
		if (*p == '"') {
			for (p++;; p++) {
				if (*p == '"' && p[1] == '"')
					*out++ = '"', p++;
				else if (*p == '"' || !*p)
					break;
				else
					*out++ = *p;
			}
			if (*p == '"')
				p++;
		} else {
			while (*p && *p != ',')
				*out++ = *p++;
		}
		char end = *p;
		*out = 0;
		if (n < max)
			field[n] = start;
		n++;
		if (end != ',')
			break;
		p++;
	}
	return n;
}

static int column(char **hdr, unsigned n, const char *name)
{
	for (unsigned i = 0; i < n; i++)
		if (!strcmp(hdr[i], name))
			return (int)i;
	print_error("no column '%s' in the CSV header\n", name);
	fail();
	return -1;
}

static void test_csv(void **state)
{
	(void)state;
	char f[PATH_MAX];
	in_dir(f, sizeof(f), "sweep.csv");
	struct th_out o = th_iolab("run", "--engine", "null", "--pattern", "rand-read,seq-read", "--qd",
				   "1,4", "--time", "0.1", "--csv", f, NULL);
	EXPECT_OK(o);
	FILE *fp = fopen(f, "r");
	assert_non_null(fp);
	static char lines[8][8192];
	unsigned nl = 0;
	while (nl < 8 && fgets(lines[nl], sizeof(lines[nl]), fp)) {
		lines[nl][strcspn(lines[nl], "\r\n")] = 0;
		nl++;
	}
	fclose(fp);
	assert_int_equal(nl, 5); /* header + 4 points */
	char *hdr[128], *row[128];
	unsigned nh = csv_split(lines[0], hdr, 128);
	assert_true(nh > 10 && nh <= 128);
	int c_pat = column(hdr, nh, "pattern"), c_qd = column(hdr, nh, "qd");
	int c_iops = column(hdr, nh, "iops"), c_ios = column(hdr, nh, "ios");
	static const char *const pat[4] = {"rand-read", "rand-read", "seq-read", "seq-read"};
	static const char *const qd[4] = {"1", "4", "1", "4"};
	for (unsigned i = 0; i < 4; i++) {
		unsigned nr = csv_split(lines[i + 1], row, 128);
		if (nr != nh)
			print_error("row %u has %u fields, the header %u\n", i + 1, nr, nh);
		assert_int_equal(nr, nh);
		assert_string_equal(row[c_pat], pat[i]);
		assert_string_equal(row[c_qd], qd[i]);
		assert_true(strtod(row[c_iops], NULL) > 0);
		assert_true(strtoull(row[c_ios], NULL, 10) > 0);
	}
}

/* ---- repetitions ---- */

static void test_repeat(void **state)
{
	(void)state;
	char f[PATH_MAX];
	in_dir(f, sizeof(f), "repeat.json");
	struct th_out o = th_iolab("run", "--engine", "null", "--repeat", "3", "--time", "0.1", "--json",
				   f, NULL);
	EXPECT_OK(o);
	json_t *j = load_json(f);
	json_t *p = json_array_get(check_doc(j, 1), 0);
	check_point(p, "null");
	json_t *rep = get(p, "repeat");
	assert_int_equal(integer(rep, "runs"), 3);
	static const char *const figs[] = {"iops", "mb_per_s"};
	for (unsigned i = 0; i < 2; i++) {
		json_t *s = get(rep, figs[i]);
		assert_true(num(s, "min") > 0);
		assert_le(num(s, "min"), num(s, "mean"), "repeat min <= mean");
		assert_le(num(s, "mean"), num(s, "max"), "repeat mean <= max");
		assert_true(num(s, "stddev") >= 0);
	}
	assert_true(fabs(num(p, "seconds") - 0.3) < 0.03); /* the three runs' time, summed */
}

/* ---- warnings ---- */

static void test_psync_queue_depth_warning(void **state)
{
	(void)state;
	char f[PATH_MAX];
	in_dir(f, sizeof(f), "psync.json");
	struct th_out o = th_iolab("run", "--engine", "psync", "--qd", "8", "--size", "64m", "--time",
				   "0.3", "--json", f, scratch, NULL);
	EXPECT_OK(o);
	json_t *j = load_json(f);
	json_t *p = json_array_get(check_doc(j, 1), 0);
	check_point(p, "psync");
	assert_true(num(p, "qd_reached") < 1.5);
	assert_true(warned(p, "queue depth", NULL));
}

/* Buffered reads say what happened, from the device's counters: the scratch file's cached pages
 * are dropped before the point (--invalidate is the default for --buffered), so the reads reach
 * the device (the file system's device also counts other programs' I/O, which can only add). */
static void test_buffered_page_cache_warning(void **state)
{
	(void)state;
	char f[PATH_MAX];
	in_dir(f, sizeof(f), "buffered.json");
	struct th_out o = th_iolab("run", "--buffered", "--size", "64m", "--time", "0.3", "--json", f,
				   scratch, NULL);
	EXPECT_OK(o);
	json_t *j = load_json(f);
	json_t *p = json_array_get(check_doc(j, 1), 0);
	check_point(p, "io_uring");
	assert_false(boolean(p, "direct"));
	assert_true(boolean(json_array_get(get(get(j, "config"), "runs"), 0), "invalidate"));
	if (json_is_null(get(p, "device")))
		assert_true(warned(p, "buffered reads", "cannot be told"));
	else
		assert_true(warned(p, "buffered reads", "reached the device"));
}

/* The table shows p99, so it shows the warning about too few samples for p99; warnings about
 * p99.9 and p99.99, which only the JSON and CSV carry, stay out of it and are in the JSON. */
static void test_percentile_warnings_where_shown(void **state)
{
	(void)state;
	char f[PATH_MAX];
	in_dir(f, sizeof(f), "pct.json");
	/* 51,200 I/Os of 4 KiB: enough for p99 (10,000), not for p99.9 (100,000). */
	struct th_out o = th_iolab("run", "--engine", "null", "--bytes", "200m", "--json", f, NULL);
	bool in_table = strstr(o.out, "p99.9") != NULL;
	EXPECT_OK(o);
	assert_false(in_table);
	json_t *p = json_array_get(check_doc(load_json(f), 1), 0);
	assert_true(warned(p, "p99.9 and above", NULL));
	/* 5,120 I/Os: too few for p99, which the table shows. */
	o = th_iolab("run", "--engine", "null", "--bytes", "20m", NULL);
	in_table = strstr(o.out, "p99 and above") != NULL;
	EXPECT_OK(o);
	assert_true(in_table);
}

/* ---- job files ---- */

static void test_job_two_runs(void **state)
{
	(void)state;
	char f[PATH_MAX], job[PATH_MAX];
	in_dir(f, sizeof(f), "job.json");
	data_file(job, sizeof(job), "two_runs.job");
	struct th_out o = th_iolab("run", "--job", job, "--json", f, NULL);
	EXPECT_OK(o);
	json_t *j = load_json(f);
	json_t *points = check_doc(j, 4);
	json_t *cfg = get(j, "config");
	assert_string_equal(str(cfg, "job"), job);
	json_t *runs = get(cfg, "runs");
	assert_int_equal(json_array_size(runs), 2);
	assert_string_equal(str(json_array_get(runs, 0), "name"), "first");
	assert_string_equal(str(json_array_get(runs, 1), "name"), "second");
	static const struct {
		const char *run, *pattern;
		long long qd;
	} want[4] = {{"first", "mix", 1}, {"first", "mix", 2}, {"second", "mix", 4},
		     {"second", "rand-read", 4}};
	for (size_t i = 0; i < 4; i++) {
		json_t *p = json_array_get(points, i);
		check_point(p, "null");
		assert_string_equal(str(p, "run"), want[i].run);
		assert_string_equal(str(p, "pattern"), want[i].pattern);
		assert_int_equal(integer(p, "qd"), want[i].qd);
		if (!strcmp(want[i].pattern, "mix")) {
			assert_true(json_is_null(get(p, "bs"))); /* a size mix */
			assert_int_equal(integer(p, "read_pct"), 70);
			assert_true(integer(get(p, "read"), "ios") > 0);
			assert_true(integer(get(p, "write"), "ios") > 0);
		}
	}
}

/* Options given next to --job override every run's. */
static void test_job_override(void **state)
{
	(void)state;
	char f[PATH_MAX], job[PATH_MAX];
	in_dir(f, sizeof(f), "job-override.json");
	data_file(job, sizeof(job), "two_runs.job");
	struct th_out o = th_iolab("run", "--job", job, "--qd", "8", "--json", f, NULL);
	EXPECT_OK(o);
	json_t *j = load_json(f);
	json_t *points = check_doc(j, 3); /* first: mix; second: mix, rand-read */
	static const char *const run[3] = {"first", "second", "second"};
	for (size_t i = 0; i < 3; i++) {
		json_t *p = json_array_get(points, i);
		check_point(p, "null");
		assert_string_equal(str(p, "run"), run[i]);
		assert_int_equal(integer(p, "qd"), 8);
	}
}

/* ---- SIGINT ---- */

static void test_sigint(void **state)
{
	(void)state;
	char f[PATH_MAX], outp[PATH_MAX];
	in_dir(f, sizeof(f), "sigint.json");
	in_dir(outp, sizeof(outp), "sigint.out");
	const char *bin = getenv("IOLAB_BIN");
	if (!bin)
		bin = "build/iolab";
	fflush(NULL);
	pid_t pid = fork();
	assert_true(pid >= 0);
	if (pid == 0) {
		int fd = open(outp, O_WRONLY | O_CREAT | O_TRUNC, 0644);
		if (fd >= 0) {
			dup2(fd, 1);
			dup2(fd, 2);
		}
		execl(bin, bin, "run", "--engine", "null", "--time", "30", "--pattern", "rand-read", "--qd",
		      "1,4", "--json", f, (char *)NULL);
		_exit(127);
	}
	struct timespec one = {1, 0};
	nanosleep(&one, NULL);
	assert_int_equal(kill(pid, SIGINT), 0);
	int st = 0;
	pid_t got = 0;
	for (int i = 0; i < 100 && got == 0; i++) { /* up to 10 s */
		struct timespec t = {0, 100 * 1000 * 1000};
		nanosleep(&t, NULL);
		got = waitpid(pid, &st, WNOHANG);
	}
	if (got == 0) {
		kill(pid, SIGKILL);
		waitpid(pid, &st, 0);
		fail_msg("iolab did not stop within 10 s of SIGINT");
	}
	if (!WIFEXITED(st) || WEXITSTATUS(st) != 130)
		print_error("wait status %#x: %s %d (want exit 130)\n", st,
			    WIFEXITED(st) ? "exit" : "signal", WIFEXITED(st) ? WEXITSTATUS(st) : WTERMSIG(st));
	assert_true(WIFEXITED(st));
	assert_int_equal(WEXITSTATUS(st), 130);

	json_t *j = load_json(f);
	assert_true(boolean(j, "interrupted"));
	json_t *points = get(j, "points");
	assert_true(json_is_array(points));
	size_t n = json_array_size(points), partial = 0;
	assert_true(n >= 1);
	for (size_t i = 0; i < n; i++)
		partial += boolean(json_array_get(points, i), "partial");
	assert_int_equal(partial, 1);
	json_t *last = json_array_get(points, n - 1);
	assert_true(boolean(last, "partial"));
	check_point(last, "null");
	assert_true(num(last, "seconds") < 10); /* stopped early, measured what it ran */
}

/* ---- --bytes and --seed ---- */

static long long bytes_run(const char *f, const char *qd)
{
	unlink(f); /* an existing report is replaced only with --force */
	struct th_out o = th_iolab("run", "--engine", "null", "--bytes", "10m", "--qd", qd, "--json", f,
				   NULL);
	EXPECT_OK(o);
	json_t *j = load_json(f);
	json_t *p = json_array_get(check_doc(j, 1), 0);
	check_point(p, "null");
	long long ios = integer(p, "ios");
	assert_int_equal(integer(p, "bytes"), ios * 4096);
	json_t *cfg = json_array_get(get(get(j, "config"), "runs"), 0);
	assert_int_equal(integer(cfg, "bytes"), 10 << 20);
	return ios;
}

static void test_bytes_limit(void **state)
{
	(void)state;
	char f[PATH_MAX];
	in_dir(f, sizeof(f), "bytes.json");
	/* exactly the bytes asked for (fio's io_size), with I/Os in flight too: none is issued once
	 * the budget is, and those in flight then finish and count */
	assert_int_equal(bytes_run(f, "1"), 2560);
	assert_int_equal(bytes_run(f, "8"), 2560);
	assert_int_equal(bytes_run(f, "64"), 2560);
}

/* reads and writes of one null-engine rand-rw run with a byte budget. */
static void seeded_run(const char *f, const char *seed, const char *workers, long long rw[2])
{
	unlink(f); /* an existing report is replaced only with --force */
	struct th_out o = th_iolab("run", "--engine", "null", "--pattern", "rand-rw", "--bytes", "10m",
				   "--seed", seed, "--workers", workers, "--json", f, NULL);
	EXPECT_OK(o);
	json_t *j = load_json(f);
	json_t *p = json_array_get(check_doc(j, 1), 0);
	rw[0] = integer(get(p, "read"), "ios");
	rw[1] = integer(get(p, "write"), "ios");
	assert_true(rw[0] > 0 && rw[1] > 0);
}

static void test_seed_determinism(void **state)
{
	(void)state;
	char f[PATH_MAX];
	in_dir(f, sizeof(f), "seed.json");
	long long a[2], b[2];
	seeded_run(f, "42", "1", a);
	seeded_run(f, "42", "1", b);
	assert_int_equal(a[0], b[0]);
	assert_int_equal(a[1], b[1]);
	seeded_run(f, "7", "2", a);
	seeded_run(f, "7", "2", b);
	assert_int_equal(a[0], b[0]);
	assert_int_equal(a[1], b[1]);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test_teardown(test_json_sweep_order, release_docs),
		cmocka_unit_test_teardown(test_json_stdout, release_docs),
		cmocka_unit_test_teardown(test_json_io_uring_direct, release_docs),
		cmocka_unit_test_teardown(test_csv, release_docs),
		cmocka_unit_test_teardown(test_repeat, release_docs),
		cmocka_unit_test_teardown(test_psync_queue_depth_warning, release_docs),
		cmocka_unit_test_teardown(test_buffered_page_cache_warning, release_docs),
		cmocka_unit_test_teardown(test_percentile_warnings_where_shown, release_docs),
		cmocka_unit_test_teardown(test_job_two_runs, release_docs),
		cmocka_unit_test_teardown(test_job_override, release_docs),
		cmocka_unit_test_teardown(test_sigint, release_docs),
		cmocka_unit_test_teardown(test_bytes_limit, release_docs),
		cmocka_unit_test_teardown(test_seed_determinism, release_docs),
	};
	return cmocka_run_group_tests(tests, group_setup, group_teardown);
}
