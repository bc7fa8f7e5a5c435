/* test_trace_capture.c: capturing a live block device's requests through tracefs
 * (trace_capture.h) and --record on `iolab run` and `iolab sim` (trace_record.h).
 *
 * The tracepoint lines parsed here are in the layout of the kernel's own print format for
 * block_rq_issue and block_rq_complete (include/trace/events/block.h; on a running kernel
 * /sys/kernel/tracing/events/block/block_rq_issue/format), the rwbs letters those of the kernel's
 * blk_fill_rwbs. The capture test runs a known workload on a loop device while capturing: it
 * needs root, tracefs and loop devices, and says so and skips without them; so does the capture
 * of an idle device, which writes no trace and fails. */
#include <errno.h>
#include <inttypes.h>
#include <jansson.h>
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <sys/wait.h>
#include <unistd.h>

#include <cmocka.h>

#include "helpers.h"
#include "iolab/trace.h"
#include "iolab/trace_capture.h"

static void parses_tracepoint_lines(void **state)
{
	(void)state;
	struct iolab_capture_event ev;
	/* block_rq_issue: "%d,%d %s %u (%s) %llu + %u %s,%u,%u [%s]" (6.x, with ioprio) */
	assert_int_equal(iolab_capture_parse_line(
		"           iolab-4242    [001] ..... 13601.123456: block_rq_issue: 7,0 RS 4096 () "
		"123456 + 8 none,0,0 [iolab]", &ev), 1);
	assert_false(ev.complete);
	assert_int_equal(ev.major, 7);
	assert_int_equal(ev.minor, 0);
	assert_int_equal(ev.ts_ns, 13601123456000ull);
	assert_int_equal(ev.sector, 123456);
	assert_int_equal(ev.nr_sector, 8);
	assert_int_equal(ev.op, IOLAB_TRACE_READ);
	/* block_rq_complete: "%d,%d %s (%s) %llu + %u %s,%u,%u [%d]" */
	assert_int_equal(iolab_capture_parse_line(
		"          <idle>-0       [000] d.h1. 13601.123999: block_rq_complete: 259,1 WS () "
		"99 + 16 none,0,0 [0]", &ev), 1);
	assert_true(ev.complete);
	assert_int_equal(ev.major, 259);
	assert_int_equal(ev.minor, 1);
	assert_int_equal(ev.sector, 99);
	assert_int_equal(ev.op, IOLAB_TRACE_WRITE);
	/* older kernels: no ioprio fields; "FWS" is a write with a preflush, "FF" a flush */
	assert_int_equal(iolab_capture_parse_line(
		"kworker/0:1H-12 [000] .... 5.000001: block_rq_issue: 8,0 FWS 0 () 2048 + 8 [kworker]",
		&ev), 1);
	assert_int_equal(ev.op, IOLAB_TRACE_WRITE);
	assert_int_equal(iolab_capture_parse_line(
		"kworker/0:1H-12 [000] .... 5.000002: block_rq_issue: 8,0 FF 0 () 0 + 0 [kworker]", &ev), 1);
	assert_int_equal(ev.op, IOLAB_TRACE_FLUSH);
	assert_int_equal(iolab_capture_parse_line(
		"fstrim-7 [001] .... 6.5: block_rq_issue: 8,0 DS 1048576 () 4096 + 2048 [fstrim]", &ev), 1);
	assert_int_equal(ev.op, IOLAB_TRACE_TRIM);
	assert_int_equal(ev.ts_ns, 6500000000ull);
	/* other events are not ours; a damaged block_rq line is an error */
	assert_int_equal(iolab_capture_parse_line(
		"iolab-1 [001] ..... 1.000000: block_bio_queue: 7,0 R 8 + 8 [iolab]", &ev), 0);
	assert_int_equal(iolab_capture_parse_line(
		"iolab-1 [001] ..... 1.000000: block_rq_issue: 7,0 R 4096 () x + 8 [iolab]", &ev), -EINVAL);
	assert_int_equal(iolab_capture_parse_line(
		"iolab-1 [001] ..... 1x000000: block_rq_issue: 7,0 R 4096 () 8 + 8 [iolab]", &ev), -EINVAL);
	assert_int_equal(iolab_capture_kdev(7, 3), (7u << 20) | 3);
}

static void refuses_a_regular_file(void **state)
{
	(void)state;
	char path[512];
	snprintf(path, sizeof(path), "%s/plain.img", th_dir);
	th_make_file(path, 1 << 20);
	struct iolab_trace_header h;
	struct iolab_capture *c = NULL;
	struct iolab_err err;
	assert_int_equal(iolab_capture_start(path, &h, &c, &err), -ENOTBLK);
	assert_non_null(strstr(err.msg, "not a block device"));
}

/* The measured I/O count of point 1 of a --json report. */
static uint64_t json_ios(const char *path)
{
	json_t *root = th_load_json(path);
	assert_non_null(root);
	json_t *p = json_array_get(json_object_get(root, "points"), 0);
	assert_non_null(p);
	uint64_t ios = (uint64_t)json_integer_value(json_object_get(p, "ios"));
	json_decref(root);
	return ios;
}

/* What a recorded trace holds. */
struct rec_summary {
	struct iolab_trace_header h;
	uint64_t n, in_window, out_of_bounds, out_of_order, no_done;
};

/* Reads trace path; in_window counts the records issued and completed within [0, window_ns]
 * (an I/O iolab's report counts, with --ramp 0). */
static void summarize(const char *path, uint64_t window_ns, struct rec_summary *s)
{
	struct iolab_trace_reader *r;
	struct iolab_err err;
	memset(s, 0, sizeof(*s));
	if (iolab_trace_open(path, NULL, 0, &r, &err))
		fail_msg("%s", err.msg);
	s->h = *iolab_trace_header(r);
	struct iolab_trace_rec rec;
	uint64_t last = 0;
	int got;
	while ((got = iolab_trace_next(r, &rec, &err)) == 1) {
		s->n++;
		if (rec.done_ns == IOLAB_TRACE_NO_TIME)
			s->no_done++;
		else if (rec.done_ns <= window_ns)
			s->in_window++;
		if (rec.target >= s->h.ntargets ||
		    rec.offset + rec.len > s->h.target[rec.target].size)
			s->out_of_bounds++;
		if (rec.issue_ns < last)
			s->out_of_order++;
		last = rec.issue_ns;
	}
	if (got < 0)
		fail_msg("%s", err.msg);
	iolab_trace_close(r);
}

static void record_on_run(void **state)
{
	(void)state;
	char img[512], rec[512], json[512];
	snprintf(img, sizeof(img), "%s/run.img", th_dir);
	snprintf(rec, sizeof(rec), "%s/run.iot", th_dir);
	snprintf(json, sizeof(json), "%s/run.json", th_dir);
	th_make_file(img, 64 << 20);
	assert_int_equal(th_sh("$B run '%s' --pattern rand-read --bs 4k --qd 4 --time 1 --quiet "
			       "--json '%s' --record '%s' >/dev/null", img, json, rec), 0);
	struct rec_summary s;
	summarize(rec, 1000000000ull, &s);
	uint64_t ios = json_ios(json);
	assert_true(ios > 0);
	/* every I/O that counts is in the trace, and at most the 4 in flight at the end besides */
	assert_int_equal(s.in_window, ios);
	assert_in_range(s.n, ios, ios + 4);
	assert_int_equal(s.no_done, 0);
	assert_int_equal(s.out_of_bounds, 0);
	/* in issue order, but for an I/O that outlived the recorder's window of later ones, which
	 * a busy machine can cause and the run then reports: at most 1 in 1000 */
	assert_true(s.out_of_order <= ios / 1000);
	assert_int_equal(s.h.ntargets, 1);
	assert_int_equal(s.h.target[0].size, 64 << 20);
	assert_non_null(strstr(s.h.target[0].name, "run.img"));
	assert_true(s.h.completions);
	assert_int_equal(strncmp(s.h.source, "iolab run ", 10), 0);
	/* replaced only with --force */
	struct th_out o = th_iolab("run", img, "--time", "1", "--quiet", "--record", rec, NULL);
	TH_EXPECT_EXIT(o, 2, "--record", "exists");
}

static void record_on_sim(void **state)
{
	(void)state;
	char rec[512], json[512];
	snprintf(rec, sizeof(rec), "%s/sim.iot", th_dir);
	snprintf(json, sizeof(json), "%s/sim.json", th_dir);
	assert_int_equal(th_sh("$B sim --model atlas_III --pattern rand-rw --bs 8k --qd 8 --time 2 "
			       "--quiet --json '%s' --record '%s' >/dev/null", json, rec), 0);
	struct rec_summary s;
	summarize(rec, 2000000000ull, &s);
	uint64_t ios = json_ios(json);
	assert_true(ios > 0);
	assert_int_equal(s.in_window, ios);
	assert_in_range(s.n, ios, ios + 8);
	assert_int_equal(s.out_of_bounds, 0);
	assert_int_equal(s.out_of_order, 0);
	assert_string_equal(s.h.target[0].name, "atlas_III");
	assert_true(s.h.target[0].size > 0);
	assert_int_equal(strncmp(s.h.source, "iolab sim ", 10), 0);
}

static void record_refuses_several_points(void **state)
{
	(void)state;
	char rec[512];
	snprintf(rec, sizeof(rec), "%s/two.iot", th_dir);
	struct th_out o = th_iolab("sim", "--model", "atlas_III", "--qd", "1,4", "--time", "1",
				   "--quiet", "--record", rec, NULL);
	TH_EXPECT_EXIT(o, 2, "--record", "one point", "has 2");
	assert_false(th_exists(rec));
}

/* True if the kernel has tracefs and we are root (trace record mounts it when it is not). */
static bool have_tracefs(void)
{
	if (geteuid() != 0) {
		fprintf(stderr, "SKIP: capturing needs root\n");
		return false;
	}
	FILE *f = fopen("/proc/filesystems", "re");
	char line[256];
	bool found = false;
	while (f && fgets(line, sizeof(line), f))
		found |= strstr(line, "\ttracefs") != NULL;
	if (f)
		fclose(f);
	if (!found)
		fprintf(stderr, "SKIP: this kernel has no tracefs (CONFIG_TRACING)\n");
	return found;
}

/* Captures a loop device while `iolab run` reads it at random (QD 4, 2 s): the capture holds the
 * run's every request (its --record trace) give or take the events the kernel dropped. */
static void capture_matches_a_run(void **state)
{
	(void)state;
	char img[512], dev[64], cap[512], rec[512], json[512];
	snprintf(img, sizeof(img), "%s/loop.img", th_dir);
	snprintf(cap, sizeof(cap), "%s/cap.iot", th_dir);
	snprintf(rec, sizeof(rec), "%s/loop-run.iot", th_dir);
	snprintf(json, sizeof(json), "%s/loop-run.json", th_dir);
	if (!have_tracefs()) {
		skip();
		return;
	}
	th_make_file(img, 128 << 20);
	if (!th_loop_attach(img, true, dev, sizeof(dev))) {
		skip();
		return;
	}
	struct iolab_trace_header h;
	struct iolab_capture *c;
	struct iolab_err err;
	int rc = iolab_capture_start(dev, &h, &c, &err);
	if (rc) {
		th_loop_detach(dev);
		fail_msg("%s", err.msg);
	}
	pid_t pid = fork();
	assert_true(pid >= 0);
	if (pid == 0)
		_exit(th_sh("sleep 0.5; $B run %s --pattern rand-read --bs 4k --qd 4 --time 2 --quiet "
			    "--json '%s' --record '%s' >/dev/null", dev, json, rec));
	FILE *f = fopen(cap, "w");
	assert_non_null(f);
	struct iolab_trace_writer *w;
	assert_int_equal(iolab_trace_create(f, iolab_trace_format_find("iot"), &h, &w, &err), 0);
	rc = iolab_capture_run(c, w, 4000000000ull, NULL, &err);
	struct iolab_capture_stats st;
	iolab_capture_stats(c, &st);
	iolab_capture_end(c);
	assert_int_equal(iolab_trace_finish(w, &err), 0);
	fclose(f);
	int status;
	waitpid(pid, &status, 0);
	th_loop_detach(dev);
	assert_int_equal(rc, 0);
	assert_true(WIFEXITED(status) && WEXITSTATUS(status) == 0);
	/* the instance is gone */
	char inst[128];
	snprintf(inst, sizeof(inst), "/sys/kernel/tracing/instances/iolab-%ld", (long)getpid());
	assert_false(th_exists(inst));

	struct rec_summary run, got;
	summarize(rec, 2000000000ull, &run);
	summarize(cap, UINT64_MAX - 1, &got);
	uint64_t ios = json_ios(json);
	fprintf(stderr, "captured %" PRIu64 " requests (lost events %" PRIu64 ", incomplete %" PRIu64
		"); the run recorded %" PRIu64 " I/Os, counted %" PRIu64 "\n", got.n, st.lost,
		st.incomplete, run.n, ios);
	assert_int_equal(run.in_window, ios);
	uint64_t diff = got.n > run.n ? got.n - run.n : run.n - got.n;
	assert_true(diff <= st.lost);
	assert_int_equal(got.out_of_bounds, 0);
	assert_int_equal(got.h.target[0].size, 128 << 20);
	assert_int_equal(got.out_of_order, 0);
}

/* The command line: SIGINT ends a capture without --time, and what was captured is written;
 * not root: one line, exit 2; an existing output needs --force. */
static void record_command(void **state)
{
	(void)state;
	char img[512], dev[64], cap[512];
	snprintf(img, sizeof(img), "%s/cli.img", th_dir);
	snprintf(cap, sizeof(cap), "%s/cli.iot", th_dir);
	if (!have_tracefs()) {
		skip();
		return;
	}
	th_make_file(img, 16 << 20);
	if (!th_loop_attach(img, true, dev, sizeof(dev))) {
		skip();
		return;
	}
	int rc = th_sh("$B trace record --device %s -o '%s' 2>'%s.err' & p=$!; sleep 1; "
		       "dd if=%s of=/dev/null bs=4k count=16 iflag=direct 2>/dev/null; sleep 0.5; "
		       "kill -INT $p; wait $p", dev, cap, cap, dev);
	assert_int_equal(rc, 0);
	struct rec_summary s;
	summarize(cap, UINT64_MAX - 1, &s);
	assert_true(s.n >= 16); /* dd's 16 reads, whatever else the device saw */
	assert_int_equal(s.out_of_bounds, 0);
	assert_int_equal(th_sh("grep -q 'lost events: 0' '%s.err'", cap), 0);
	struct th_out o = th_iolab("trace", "record", "--device", dev, "-o", cap, "--time", "1", NULL);
	TH_EXPECT_EXIT(o, 2, "-o", "exists");
	if (th_sh("command -v setpriv >/dev/null") == 0) /* not root: one line, exit 2 */
		rc = th_sh("setpriv --reuid=65534 --regid=65534 --clear-groups $B trace record "
			   "--device %s -o - --time 1 >/dev/null 2>'%s.nr'; test $? = 2 && "
			   "test $(wc -l <'%s.nr') = 1 && grep -q 'needs root' '%s.nr'", dev, cap, cap,
			   cap);
	else
		fprintf(stderr, "SKIP (part): no setpriv to run as another user\n");
	th_loop_detach(dev);
	assert_int_equal(rc, 0);
}

/* A capture that sees no request of its device (nothing reads or writes the loop device) writes
 * no trace and fails, saying what to check; --time 0 (which ran until killed) is refused. */
static void record_sees_nothing(void **state)
{
	(void)state;
	char img[512], dev[64], cap[512];
	snprintf(img, sizeof(img), "%s/idle.img", th_dir);
	snprintf(cap, sizeof(cap), "%s/idle.iot", th_dir);
	if (!have_tracefs()) {
		skip();
		return;
	}
	th_make_file(img, 16 << 20);
	if (!th_loop_attach(img, true, dev, sizeof(dev))) {
		skip();
		return;
	}
	th_sh("udevadm settle 2>/dev/null"); /* udev's probe of the new device, where udev runs */
	struct th_out o = th_iolab("trace", "record", "--device", dev, "-o", cap, "--time", "0.3", NULL);
	th_loop_detach(dev);
	TH_EXPECT_EXIT(o, 1, dev, "no block request seen", "events/block/block_rq_issue");
	assert_false(th_exists(cap));
	o = th_iolab("trace", "record", "--device", dev, "-o", cap, "--time", "0", NULL);
	TH_EXPECT_EXIT(o, 2, "--time '0'", "above 0");
	assert_false(th_exists(cap));
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(parses_tracepoint_lines),
		cmocka_unit_test(refuses_a_regular_file),
		cmocka_unit_test(record_on_run),
		cmocka_unit_test(record_on_sim),
		cmocka_unit_test(record_refuses_several_points),
		cmocka_unit_test(capture_matches_a_run),
		cmocka_unit_test(record_command),
		cmocka_unit_test(record_sees_nothing),
	};
	return cmocka_run_group_tests(tests, th_dir_setup, th_dir_teardown);
}
