/* test_trace_producers.c: trace inputs read as their producers define them, and a --scale that
 * never lies (src/trace/trace_xform.c, fmt_blkparse.c, fmt_fio_iolog.c, src/cli/cmd_trace.c;
 * docs/trace-format.md):
 * - `trace convert app.csv --format msr --scale 1G` works for an input without a recorded target
 *   size (the first pass over it finds the extent);
 * - --scale never scales up (a trace that fits keeps its offsets, with a note) and keeps a
 *   sequential run sequential;
 * - a blkparse output of completions only is refused, naming what it holds; a device with
 *   completions only, beside others, is said in a note; a line format's file without a
 *   request is refused too;
 * - fio iologs timed as fio 3.33 replays them: v2 `wait N` = N ms since the start (the largest
 *   so far), v3 timestamps as delays from the previous line, a v3 `wait` skipped with a note.
 * The MSR lines are generated here in the published field order (Timestamp,Hostname,DiskNumber,
 * Type,Offset,Size,ResponseTime: SNIA IOTTA's MSR Cambridge release). */
#include <inttypes.h>
#include <limits.h>
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

static void path_in(char *buf, size_t n, const char *name)
{
	snprintf(buf, n, "%s/%s", th_dir, name);
}

/* n 64 KiB requests 10 ms apart in runs of 8 back to back, each run starting at a pseudo-random
 * 4 KiB block below span bytes: an MSR Cambridge CSV (no target size; 100 ns responses) when
 * size is 0, else iolab's text form with a target of size bytes. */
static void write_runs(const char *path, unsigned n, uint64_t span, uint64_t size)
{
	FILE *f = fopen(path, "w");
	assert_non_null(f);
	if (size)
		fprintf(f, "# iolab trace 1\n# target: 0 %" PRIu64 " hm_1\n", size);
	uint64_t off = 0, x = 12345;
	for (unsigned i = 0; i < n; i++) {
		if (i % 8 == 0) {
			x = x * 6364136223846793005ull + 1442695040888963407ull;
			off = (x >> 20) % ((span - (1 << 20)) / 4096) * 4096;
		} else {
			off += 65536;
		}
		if (size)
			fprintf(f, "%u - %s 0 %" PRIu64 " 65536\n", i * 10000000, i % 3 ? "read" : "write",
				off);
		else
			fprintf(f, "%" PRIu64 ",hm,1,%s,%" PRIu64 ",65536,100\n",
				UINT64_C(128166372003061629) + i * UINT64_C(100000),
				i % 3 ? "Read" : "Write", off);
	}
	assert_int_equal(fclose(f), 0);
}

/* `trace info --json` of path (format fmt, or NULL for iolab's own) into a parsed object. */
static json_t *info(const char *path, const char *fmt)
{
	char json[PATH_MAX];
	path_in(json, sizeof(json), "info.json");
	struct th_out o = fmt ? th_iolab("trace", "info", path, "--format", fmt, "--json", json,
					 "--force", NULL)
			      : th_iolab("trace", "info", path, "--json", json, "--force", NULL);
	if (o.status)
		fail_msg("trace info %s: %s", path, o.err);
	th_out_free(&o);
	json_t *j = th_load_json(json);
	assert_non_null(j);
	return j;
}

static double num(json_t *j, const char *key)
{
	json_t *v = json_object_get(j, key);
	if (!json_is_number(v))
		fail_msg("no number '%s'", key);
	return json_number_value(v);
}

/* The exact command line of the round's brief, from the directory holding app.csv: an MSR trace
 * has no target size, so --scale finds the extent by a first pass (it stopped after one record
 * and failed with an empty message). */
static void test_scale_without_target_size(void **state)
{
	(void)state;
	char csv[PATH_MAX], iot[PATH_MAX], err[PATH_MAX];
	path_in(csv, sizeof(csv), "app.csv");
	path_in(iot, sizeof(iot), "app.iot");
	path_in(err, sizeof(err), "convert.err");
	write_runs(csv, 400, UINT64_C(100) << 30, 0);
	assert_int_equal(th_sh("cd '%s' && $B trace convert app.csv --format msr --scale 1G --to iot "
			       "-o app.iot 2>'%s'", th_dir, err), 0);
	char *msg = th_read_file(err, NULL);
	assert_non_null(strstr(msg, "wrote app.iot (iot): 400 requests of 400 read"));
	free(msg);
	json_t *j = info(iot, NULL);
	assert_int_equal((int)num(j, "requests"), 400);
	assert_true(num(j, "offset_end") <= 1 << 30);
	assert_true(num(j, "offset_end") > 0.9 * (1 << 30)); /* spread over the whole GiB */
	json_decref(j);
}

/* A trace that fits in the --scale size keeps every offset, and says so (it was scaled up:
 * 512 times here). */
static void test_scale_never_up(void **state)
{
	(void)state;
	char in[PATH_MAX], out[PATH_MAX];
	path_in(in, sizeof(in), "small.txt");
	path_in(out, sizeof(out), "small-scaled.txt");
	write_runs(in, 200, UINT64_C(2) << 30, UINT64_C(2) << 30);
	struct th_out o = th_iolab("trace", "convert", in, "--scale", "1T", "--to", "iot-text", "-o",
				   out, NULL);
	assert_int_equal(o.status, 0);
	assert_non_null(strstr(o.err, "--scale 1T: the trace's 2147483648 bytes"));
	assert_non_null(strstr(o.err, "offsets kept as they are (--scale never scales up)"));
	th_out_free(&o);
	char *ta = th_read_file(in, NULL), *tb = th_read_file(out, NULL);
	/* the records (after the header's '#' lines) are the same bytes */
	const char *ra = strstr(ta, "\n0 "), *rb = strstr(tb, "\n0 ");
	assert_non_null(ra);
	assert_non_null(rb);
	assert_string_equal(ra, rb);
	free(ta);
	free(tb);
}

/* Scaled down 100 times, a trace keeps its sequential share: back-to-back requests stay back to
 * back (each scaled on its own they overlapped, and the share fell to 0). Only a run whose start
 * maps within its length of the end is cut there (here the topmost: 7 of 800 requests;
 * docs/trace-format.md). */
static void test_scale_keeps_sequential_runs(void **state)
{
	(void)state;
	char in[PATH_MAX], iot[PATH_MAX];
	path_in(in, sizeof(in), "seq.txt");
	path_in(iot, sizeof(iot), "seq.iot");
	write_runs(in, 800, UINT64_C(100) << 30, UINT64_C(100) << 30);
	json_t *before = info(in, NULL);
	struct th_out o = th_iolab("trace", "convert", in, "--scale", "1G", "--to", "iot", "-o", iot,
				   NULL);
	assert_int_equal(o.status, 0);
	th_out_free(&o);
	json_t *after = info(iot, NULL);
	double was = num(before, "sequential_pct"), now = num(after, "sequential_pct");
	printf("sequential: %.2f%% before --scale 1G, %.2f%% after\n", was, now);
	assert_true(was > 80); /* 7 in 8 */
	assert_true(now >= was - 1.0);
	assert_true(num(after, "offset_end") <= 1 << 30);
	json_decref(before);
	json_decref(after);
}

/* blkparse -a complete: 342 C events and nothing else yields no request: refused, naming them. */
static void test_blkparse_completions_only(void **state)
{
	(void)state;
	char txt[PATH_MAX], iot[PATH_MAX];
	path_in(txt, sizeof(txt), "c-only.txt");
	path_in(iot, sizeof(iot), "c-only.iot");
	FILE *f = fopen(txt, "w");
	assert_non_null(f);
	for (unsigned i = 1; i <= 342; i++)
		fprintf(f, "  8,0    0 %6u     0.%09u     0  C   R %u + 8 [0]\n", i, i * 1000, i * 8);
	assert_int_equal(fclose(f), 0);
	struct th_out o = th_iolab("trace", "import", txt, "--format", "blkparse", "-o", iot, NULL);
	TH_EXPECT_EXIT(o, 2, txt, "342 C events, no Q or D events", "-a issue");
	assert_false(th_exists(iot));
	/* a device of C events only beside one with requests: imported, with a note */
	th_write_text(txt, "8,0 0 1 0.1 1 Q R 8 + 8 [a]\n8,0 0 2 0.2 0 C R 8 + 8 [0]\n"
			   "8,16 1 1 0.3 0 C W 64 + 8 [0]\n8,16 1 2 0.4 0 C W 72 + 8 [0]\n");
	o = th_iolab("trace", "import", txt, "--format", "blkparse", "-o", iot, NULL);
	assert_int_equal(o.status, 0);
	if (!strstr(o.err, "device 8,16: 2 C events, no Q events: its requests are not in the trace"))
		fail_msg("no note of device 8,16: '%s'", o.err);
	th_out_free(&o);
	/* a file of no events at all is said so too */
	th_write_text(txt, "CPU0 (8,0):\n Reads Queued: 0, 0KiB\n");
	o = th_iolab("trace", "info", txt, "--format", "blkparse", NULL);
	TH_EXPECT_EXIT(o, 2, txt, "no blkparse event in 2 lines");
}

/* A line format's file of no request (an MSR header line alone) is refused, not 0 requests. */
static void test_msr_without_requests(void **state)
{
	(void)state;
	char csv[PATH_MAX], iot[PATH_MAX];
	path_in(csv, sizeof(csv), "header.csv");
	path_in(iot, sizeof(iot), "header.iot");
	th_write_text(csv, "Timestamp,Hostname,DiskNumber,Type,Offset,Size,ResponseTime\n");
	struct th_out o = th_iolab("trace", "import", csv, "--format", "msr", "-o", iot, NULL);
	TH_EXPECT_EXIT(o, 2, csv, "no msr request in 1 line: nothing to import");
	assert_false(th_exists(iot));
}

/* The issue times (ns) of `trace convert LOG --format fio-iolog --to iot-text -o -`, n of them;
 * stderr into err (malloc'd) when err is not NULL. */
static unsigned fio_times(const char *log, uint64_t *t, unsigned max, char **err)
{
	struct th_out o = th_iolab("trace", "convert", log, "--format", "fio-iolog", "--to",
				   "iot-text", "-o", "-", NULL);
	if (o.status)
		fail_msg("convert %s: %s", log, o.err);
	unsigned n = 0;
	for (char *line = strtok(o.out, "\n"); line; line = strtok(NULL, "\n"))
		if (line[0] != '#' && n < max)
			t[n++] = strtoull(line, NULL, 10);
	if (err)
		*err = strdup(o.err);
	th_out_free(&o);
	return n;
}

/* fio v2: `wait N` holds the next I/O until N ms after the start (fio's read_iolog_get sleeps
 * for N - mtime_since_genesis()): a smaller wait after a larger one holds nothing. */
static void test_fio_v2_wait_is_ms_since_start(void **state)
{
	(void)state;
	char log[PATH_MAX];
	path_in(log, sizeof(log), "v2.log");
	th_write_text(log, "fio version 2 iolog\n/f add\n/f open\n/f read 0 4096\n/f wait 200 0\n"
			   "/f read 4096 4096\n/f read 8192 4096\n/f wait 100 0\n/f read 12288 4096\n"
			   "/f wait 500 0\n/f write 16384 4096\n/f close\n");
	uint64_t t[8];
	assert_int_equal(fio_times(log, t, 8, NULL), 5);
	const uint64_t want[] = {0, 200000000, 200000000, 200000000, 500000000};
	for (unsigned i = 0; i < 5; i++)
		if (t[i] != want[i])
			fail_msg("request %u at %" PRIu64 " ns, fio issues it at %" PRIu64, i, t[i], want[i]);
}

/* fio v3: each line waits its timestamp minus the previous line's, none while that was 0; a
 * `wait` line is skipped (fio: "ignoring wait command with version 3") but its timestamp still
 * counts as the previous one; a timestamp that goes back waits nothing. */
static void test_fio_v3_times_as_fio_replays(void **state)
{
	(void)state;
	char log[PATH_MAX];
	path_in(log, sizeof(log), "v3.log");
	th_write_text(log, "fio version 3 iolog\n0 /f add\n0 /f open\n100000 /f read 0 4096\n"
			   "300000 /f read 4096 4096\n350000 /f wait 1000 0\n600000 /f read 8192 4096\n"
			   "500000 /f write 0 4096\n700000 /f write 4096 4096\n700000 /f close\n");
	uint64_t t[8];
	char *err;
	assert_int_equal(fio_times(log, t, 8, &err), 5);
	const uint64_t want[] = {0, 200000000, 450000000, 450000000, 650000000};
	for (unsigned i = 0; i < 5; i++)
		if (t[i] != want[i])
			fail_msg("request %u at %" PRIu64 " ns, fio issues it at %" PRIu64, i, t[i], want[i]);
	if (!strstr(err, "v3.log:6: 'wait' lines in a version 3 log are skipped"))
		fail_msg("no note of the skipped wait: '%s'", err);
	free(err);
	/* a log with no I/O is refused, as fio refuses it */
	th_write_text(log, "fio version 3 iolog\n0 /f add\n0 /f open\n5 /f close\n");
	struct th_out o = th_iolab("trace", "info", log, "--format", "fio-iolog", NULL);
	TH_EXPECT_EXIT(o, 2, log, "no I/O in the log (3 file actions");
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_scale_without_target_size),
		cmocka_unit_test(test_scale_never_up),
		cmocka_unit_test(test_scale_keeps_sequential_runs),
		cmocka_unit_test(test_blkparse_completions_only),
		cmocka_unit_test(test_msr_without_requests),
		cmocka_unit_test(test_fio_v2_wait_is_ms_since_start),
		cmocka_unit_test(test_fio_v3_times_as_fio_replays),
	};
	return cmocka_run_group_tests(tests, th_dir_setup, th_dir_teardown);
}
