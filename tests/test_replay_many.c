/* test_replay_many.c: recording a sweep and replaying its traces (src/cli/record_dir.c,
 * src/run/point_names.c, src/cli/replay_traces.c, src/run/replay_fit.c, src/output/short_names.c,
 * points[].trace in src/output/json.c), and the figures of a replay on a simulated drive.
 *
 * What is expected:
 * - `sim ... --record DIR/` on a sweep writes one trace per point, named from the point, in a
 *   directory it makes; a second run refuses to replace them without --force; --record FILE on
 *   a sweep stays a one-line refusal;
 * - `replay DIR` replays each trace file of DIR (sorted) at each --qd: its points carry
 *   points[].trace (the file's name, the path as given, XXH64 of its bytes, its records), and
 *   the table tells two long names apart ("…" in their middle);
 * - a trace recorded on a larger drive replays on a smaller one as --scale would map it, with a
 *   note; a trace whose header records no size keeps the error; --scale keeps a sequential
 *   trace sequential;
 * - a timed replay whose requests arrive faster than the drive serves them reports qd@ (JSON
 *   qd_reached) within its --qd cap: requests waiting to be issued are not in flight;
 * - a replay of 1 MiB requests at --qd 1024 on a model holds no buffer per slot. */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <cmocka.h>
#include <jansson.h>
#include <xxhash.h>

#include "helpers.h"
#include "iolab/short_names.h"

/* Writes an iot-text trace of n requests, one every gap_ns, on a target of size bytes (0: the
 * header records none), each len bytes (every 97th of big bytes), offsets spread over span. */
static void text_trace(const char *path, uint64_t size, unsigned n, uint64_t gap_ns, unsigned len,
		       unsigned big, uint64_t span)
{
	FILE *f = fopen(path, "w");
	assert_non_null(f);
	fprintf(f, "# iolab trace 1\n# source: test_replay_many\n# start_unix_ns: 0\n"
		   "# completions: no\n# target: 0 %llu disk\n# issue_ns done_ns op target offset len\n",
		(unsigned long long)size);
	uint64_t blocks = (span - (big > len ? big : len)) / 4096;
	for (unsigned i = 0; i < n; i++)
		fprintf(f, "%llu - %s 0 %llu %u\n", (unsigned long long)(i * gap_ns),
			i % 3 ? "read" : "write", (unsigned long long)((i * 2654435761ull) % blocks * 4096),
			i % 97 == 5 ? big : len);
	assert_int_equal(fclose(f), 0);
}

static json_t *json_of(const struct th_out *o)
{
	json_error_t e;
	json_t *j = json_loads(o->out, 0, &e);
	if (!j)
		print_error("JSON: %s (line %d)\n%s\n", e.text, e.line, o->out);
	assert_non_null(j);
	return j;
}

/* A sweep recorded into a directory that does not exist yet: a trace per point. */
static void test_record_sweep(void **state)
{
	(void)state;
	char dir[512], path[600];
	snprintf(dir, sizeof(dir), "%s/rec/traces/", th_dir);
	struct th_out o = th_iolab("sim", "--model", "sas15k", "--pattern", "file-server,web-server",
				   "--qd", "1,4", "--time", "1", "--record", dir, "--no-db", "--quiet", NULL);
	if (o.status)
		print_error("%s", o.err);
	assert_int_equal(o.status, 0);
	th_out_free(&o);
	assert_int_equal(th_count_entries(dir, ""), 4);
	const char *names[] = {"file-server-qd1.iot", "file-server-qd4.iot", "web-server-qd1.iot",
			       "web-server-qd4.iot"};
	for (unsigned i = 0; i < 4; i++) {
		snprintf(path, sizeof(path), "%s%s", dir, names[i]);
		assert_true(th_exists(path));
	}
	/* each its point's requests: the trace of file-server at QD 4 names its source */
	snprintf(path, sizeof(path), "%sfile-server-qd4.iot", dir);
	o = th_iolab("trace", "info", path, NULL);
	assert_int_equal(o.status, 0);
	assert_non_null(strstr(o.out, "sas15k, 600127266816 bytes"));
	th_out_free(&o);
	/* the outputs check covers each file */
	o = th_iolab("sim", "--model", "sas15k", "--pattern", "file-server", "--qd", "1,4", "--time",
		     "1", "--record", dir, "--no-db", "--quiet", NULL);
	TH_EXPECT_EXIT(o, 2, "file-server-qd1.iot", "--force");
	o = th_iolab("sim", "--model", "sas15k", "--pattern", "file-server", "--qd", "1,4", "--time",
		     "1", "--record", dir, "--force", "--no-db", "--quiet", NULL);
	assert_int_equal(o.status, 0);
	th_out_free(&o);
	/* a file on a sweep: refused, naming the directory form */
	snprintf(path, sizeof(path), "%s/rec/one.iot", th_dir);
	o = th_iolab("sim", "--model", "sas15k", "--qd", "1,4", "--time", "1", "--record", path,
		     "--no-db", "--quiet", NULL);
	TH_EXPECT_EXIT(o, 2, "--record FILE writes the trace of one point", "DIR/");
	assert_false(th_exists(path));
}

/* replay DIR: each trace its own series, each point with its trace's identity. */
static void test_replay_directory(void **state)
{
	(void)state;
	char dir[512], a[600], b[600];
	snprintf(dir, sizeof(dir), "%s/many", th_dir);
	assert_int_equal(th_sh("mkdir -p %s && echo not a trace > %s/README", dir, dir), 0);
	snprintf(a, sizeof(a), "%s/application-trace-long-one.iot", dir);
	snprintf(b, sizeof(b), "%s/application-trace-long-two.iot", dir);
	text_trace(b, 1ull << 30, 300, 100000, 4096, 4096, 1ull << 30);
	text_trace(a, 1ull << 30, 200, 100000, 4096, 4096, 1ull << 30);
	struct th_out o = th_iolab("replay", dir, "--model", "atlas10k", "--qd", "1,4", "--no-db",
				   "--quiet", "--json", "-", NULL);
	if (o.status)
		print_error("%s", o.err);
	assert_int_equal(o.status, 0);
	json_t *j = json_of(&o);
	json_t *points = json_object_get(j, "points");
	assert_int_equal(json_array_size(points), 4);
	const char *want[] = {a, a, b, b};
	for (unsigned i = 0; i < 4; i++) {
		json_t *p = json_array_get(points, i), *t = json_object_get(p, "trace");
		assert_true(json_is_object(t));
		assert_int_equal(json_integer_value(json_object_get(p, "qd")), i % 2 ? 4 : 1);
		assert_string_equal(json_string_value(json_object_get(t, "path")), want[i]);
		assert_string_equal(json_string_value(json_object_get(t, "name")), strrchr(want[i], '/') + 1);
		assert_int_equal(json_integer_value(json_object_get(t, "records")), i < 2 ? 200 : 300);
		size_t len;
		char *bytes = th_read_file(want[i], &len), hash[32];
		snprintf(hash, sizeof(hash), "xxh64:%016llx", (unsigned long long)XXH64(bytes, len, 0));
		free(bytes);
		assert_string_equal(json_string_value(json_object_get(t, "hash")), hash);
	}
	json_decref(j);
	th_out_free(&o);
	/* the table: the two names apart, cut in their middle */
	o = th_iolab("replay", a, b, "--model", "atlas10k", "--no-db", "--quiet", NULL);
	assert_int_equal(o.status, 0);
	assert_non_null(strstr(o.out, "applicat\u2026one.iot"));
	assert_non_null(strstr(o.out, "applicat\u2026two.iot"));
	th_out_free(&o);
	/* a pattern run's points have none */
	o = th_iolab("sim", "--model", "atlas10k", "--time", "0.1", "--no-db", "--quiet", "--json", "-",
		     NULL);
	assert_int_equal(o.status, 0);
	j = json_of(&o);
	assert_true(json_is_null(json_object_get(json_array_get(json_object_get(j, "points"), 0), "trace")));
	json_decref(j);
	th_out_free(&o);
	snprintf(dir, sizeof(dir), "%s/empty", th_dir);
	assert_int_equal(th_sh("mkdir -p %s", dir), 0);
	o = th_iolab("replay", dir, "--model", "atlas10k", "--no-db", NULL);
	TH_EXPECT_EXIT(o, 2, "empty", "without trace files");
}

/* The names: short ones kept, long ones cut in the middle, different ones kept apart. */
static void test_short_names(void **state)
{
	(void)state;
	const char *names[] = {"rand-read", "a-very-long-trace-name-0001.iot",
			       "a-very-long-trace-name-0002.iot", "a-very-long-trace-name-0001.iot",
			       "abcdefghij-middle-1-klmnopqrstu", "abcdefghij-middle-2-klmnopqrstu"};
	char out[6][65];
	iolab_short_names(names, 6, 16, &out[0][0], sizeof(out[0]));
	assert_string_equal(out[0], "rand-read");
	for (unsigned i = 1; i < 6; i++)
		assert_int_equal(iolab_name_width(out[i]), 16);
	assert_string_equal(out[1], "a-very-l\u2026001.iot");
	assert_string_equal(out[1], out[3]);
	assert_string_not_equal(out[1], out[2]);
	assert_string_not_equal(out[4], out[5]);
}

/* A trace recorded on a larger drive than the model: scaled down, with a note; without a
 * recorded size: the bounds error, as before. */
static void test_replay_smaller_target(void **state)
{
	(void)state;
	char big[512], unsized[512];
	snprintf(big, sizeof(big), "%s/on-600g.iot", th_dir);
	snprintf(unsized, sizeof(unsized), "%s/unsized.iot", th_dir);
	text_trace(big, 600000000000ull, 100, 1000000, 4096, 4096, 600000000000ull);
	text_trace(unsized, 0, 100, 1000000, 4096, 4096, 600000000000ull);
	struct th_out o = th_iolab("replay", big, "--model", "atlas10k", "--no-db", "--json", "-", NULL);
	if (o.status)
		print_error("%s", o.err);
	assert_int_equal(o.status, 0);
	assert_int_equal(th_count_lines(o.err), 1);
	assert_non_null(strstr(o.err, "scaled down"));
	assert_non_null(strstr(o.err, "--clip"));
	assert_non_null(strstr(o.err, "--wrap"));
	json_t *j = json_of(&o);
	json_t *p = json_array_get(json_object_get(j, "points"), 0);
	assert_int_equal(json_integer_value(json_object_get(json_object_get(p, "trace"), "records")), 100);
	/* the results keep it (the note goes with --quiet) */
	json_t *warnings = json_object_get(p, "warnings");
	bool said = false;
	for (size_t i = 0; i < json_array_size(warnings); i++)
		said |= strstr(json_string_value(json_array_get(warnings, i)), "scaled down") != NULL;
	assert_true(said);
	json_decref(j);
	th_out_free(&o);
	o = th_iolab("replay", unsized, "--model", "atlas10k", "--no-db", NULL);
	TH_EXPECT_EXIT(o, 2, "unsized.iot", "offset", "--scale");
}

/* A sequential trace recorded far out on a large drive, replayed with --scale on a small one:
 * its requests stay back to back (recorded again, `trace info` says 100 % sequential), where
 * each request scaled on its own landed apart from the previous one. */
static void test_replay_scale_keeps_sequential(void **state)
{
	(void)state;
	char seq[512], rep[512];
	snprintf(seq, sizeof(seq), "%s/seq-far.iot", th_dir);
	snprintf(rep, sizeof(rep), "%s/seq-far-replayed.iot", th_dir);
	struct th_out o = th_iolab("sim", "--model", "sas15k", "--pattern", "seq-read", "--bs", "64k",
				   "--qd", "1", "--time", "1", "--offset", "100G", "--record", seq,
				   "--no-db", "--quiet", NULL);
	assert_int_equal(o.status, 0);
	th_out_free(&o);
	o = th_iolab("replay", seq, "--model", "atlas10k", "--scale", "--qd", "1", "--record", rep,
		     "--no-db", "--quiet", NULL);
	assert_int_equal(o.status, 0);
	th_out_free(&o);
	o = th_iolab("trace", "info", rep, NULL);
	assert_int_equal(o.status, 0);
	assert_non_null(strstr(o.out, "sequential    100.0%"));
	assert_non_null(strstr(o.out, "--scale")); /* the source line is the command as typed */
	th_out_free(&o);
}

/* A version 3 fio log with a `wait` line: fio 3.x skips it, and so does replay, saying so once
 * on stderr and in each point's warnings. */
static void test_replay_says_reader_notes(void **state)
{
	(void)state;
	char log[512];
	snprintf(log, sizeof(log), "%s/v3-wait.log", th_dir);
	FILE *f = fopen(log, "w");
	assert_non_null(f);
	fprintf(f, "fio version 3 iolog\n0 /dev/null add\n0 /dev/null open\n100 /dev/null read 0 4096\n"
		   "150 /dev/null wait 0 0\n300 /dev/null read 4096 4096\n400 /dev/null close\n");
	fclose(f);
	struct th_out o = th_iolab("replay", log, "--format", "fio-iolog", "--model", "atlas10k",
				   "--qd", "1,2", "--no-db", "--json", "-", NULL);
	assert_int_equal(o.status, 0);
	assert_non_null(strstr(o.err, "'wait' lines in a version 3 log are skipped"));
	assert_null(strstr(strstr(o.err, "'wait' lines") + 1, "'wait' lines")); /* once */
	json_t *j = json_of(&o);
	json_t *pts = json_object_get(j, "points");
	assert_int_equal(json_array_size(pts), 2);
	for (size_t i = 0; i < 2; i++) {
		json_t *w = json_object_get(json_array_get(pts, i), "warnings");
		bool said = false;
		for (size_t k = 0; k < json_array_size(w); k++)
			said |= strstr(json_string_value(json_array_get(w, k)), "'wait' lines") != NULL;
		assert_true(said);
	}
	json_decref(j);
	th_out_free(&o);
}

/* Requests every 10 us on a drive that serves one in milliseconds: the cap of 16 is full all
 * the time, the rest wait to be issued; qd@ counts the 16. */
static void test_timed_qd_within_cap(void **state)
{
	(void)state;
	char trace[512];
	snprintf(trace, sizeof(trace), "%s/fast.iot", th_dir);
	text_trace(trace, 1ull << 30, 2000, 10000, 4096, 4096, 1ull << 30);
	struct th_out o = th_iolab("replay", trace, "--model", "atlas10k", "--mode", "timed", "--qd",
				   "16", "--no-db", "--quiet", "--json", "-", NULL);
	assert_int_equal(o.status, 0);
	json_t *j = json_of(&o);
	json_t *p = json_array_get(json_object_get(j, "points"), 0);
	double qd = json_real_value(json_object_get(p, "qd_reached"));
	if (qd > 16.0 + 1e-9)
		print_error("qd_reached %.1f above the cap of 16\n", qd);
	assert_true(qd <= 16.0 + 1e-9);
	assert_true(qd > 8); /* the cap was reached */
	json_decref(j);
	th_out_free(&o);
}

/* 1 MiB requests at --qd 1024 on a model: no buffer per slot (the simulator moves no data). */
static void test_replay_holds_no_buffers(void **state)
{
	(void)state;
	char trace[512];
	snprintf(trace, sizeof(trace), "%s/mib.iot", th_dir);
	text_trace(trace, 8ull << 30, 5000, 20000, 4096, 1 << 20, 8ull << 30);
	struct th_out o = th_iolab("replay", trace, "--model", "atlas10k", "--qd", "1024", "--no-db",
				   "--quiet", NULL);
	assert_int_equal(o.status, 0);
	th_out_free(&o);
	th_expect_children_rss(128 * 1024, 256 * 1024);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_replay_holds_no_buffers), /* first: the peak is of every child */
		cmocka_unit_test(test_record_sweep),
		cmocka_unit_test(test_replay_directory),
		cmocka_unit_test(test_short_names),
		cmocka_unit_test(test_replay_smaller_target),
		cmocka_unit_test(test_replay_scale_keeps_sequential),
		cmocka_unit_test(test_replay_says_reader_notes),
		cmocka_unit_test(test_timed_qd_within_cap),
	};
	return cmocka_run_group_tests(tests, th_dir_setup, th_dir_teardown);
}
