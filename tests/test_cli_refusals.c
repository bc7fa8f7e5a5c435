/* test_cli_refusals.c: runs that cannot work are refused before anything is done (exit 2, one
 * line naming the option), and a point that completes no I/O is a failure (exit 1).
 *
 * Covered: a scratch file larger than its file system's free space; I/O buffers beyond
 * --mem-limit; options that cancel each other (--time/--bytes, --direct/--buffered), an option
 * given twice, on the command line and in one job-file section; options `iolab sim` does not
 * use; the copy pattern at a depth above 1; sizes with fractions and SI suffixes; a FIFO given
 * as a job file or trace (refused at once, not waited on); a job file with a UTF-8 byte-order
 * mark; a refused run removes the scratch file it created; a point that completed fewer I/Os
 * than it kept in flight fails (exit 1). */
#include <errno.h>
#include <fcntl.h>
#include <limits.h>
#include <setjmp.h>
#include <stdarg.h>
#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <sys/statvfs.h>
#include <unistd.h>

#include <cmocka.h>
#include <jansson.h>

#include "helpers.h"

static void path_in(char *buf, size_t n, const char *name)
{
	snprintf(buf, n, "%s/%s", th_dir, name);
}

/* ---- what the machine cannot do ---- */

static void test_size_beyond_free_space(void **state)
{
	(void)state;
	struct statvfs sv;
	assert_int_equal(statvfs(th_dir, &sv), 0);
	char size[32], img[PATH_MAX];
	snprintf(size, sizeof(size), "%llu", (unsigned long long)sv.f_bavail * sv.f_frsize * 2 + (1u << 30));
	path_in(img, sizeof(img), "huge.img");
	struct th_out o = th_iolab("run", img, "--size", size, "--time", "0.1", NULL);
	TH_EXPECT_EXIT(o, 2, img, "--size", "free");
	assert_false(th_exists(img));
	o = th_iolab("run", img, "--size", "10t", "--time", "0.1", NULL);
	TH_EXPECT_EXIT(o, 2, img, "--size", "free");
	assert_false(th_exists(img));
}

static void test_buffer_memory_limit(void **state)
{
	(void)state;
	struct th_out o = th_iolab("run", "--engine", "null", "--bs", "1g", "--qd", "64", "--time", "0.1", NULL);
	TH_EXPECT_EXIT(o, 2, "I/O buffers", "--mem-limit");
	o = th_iolab("run", "--engine", "null", "--bs", "1m", "--qd", "4", "--workers", "2", "--time", "0.1",
		     "--mem-limit", "7m", NULL);
	TH_EXPECT_EXIT(o, 2, "needs 8m", "than the 7m", "--mem-limit");
	o = th_iolab("run", "--engine", "null", "--bs", "1m", "--qd", "4", "--workers", "2", "--time", "0.1",
		     "--mem-limit", "8m", "--quiet", NULL);
	assert_int_equal(o.status, 0);
	th_out_free(&o);
	o = th_iolab("sim", "--model", "atlas10k", "--bs", "1g", "--qd", "64", "--time", "1", NULL);
	TH_EXPECT_EXIT(o, 2, "I/O buffers");
}

/* A point whose I/Os all outlast its measured time has no result: exit 1, with a reason; so has
 * one that completed fewer I/Os than it kept in flight (about 20 random reads in 0.2 s on a
 * drive doing ~110 IOPS, against 64 outstanding): its figures describe the start-up burst. */
static void test_point_without_io_fails(void **state)
{
	(void)state;
	struct th_out o = th_iolab("sim", "--model", "atlas10k", "--time", "1ms", "--quiet", NULL);
	TH_EXPECT_EXIT(o, 1, "completed no I/O", "--time");
	o = th_iolab("sim", "--model", "atlas10k", "--qd", "64", "--time", "200ms", "--quiet", NULL);
	TH_EXPECT_EXIT(o, 1, "fewer than", "queue depth 64", "steady-state");
	o = th_iolab("sim", "--model", "atlas10k", "--qd", "64", "--time", "5", "--quiet", NULL);
	assert_int_equal(o.status, 0);
	th_out_free(&o);
}

static void test_refused_run_removes_its_scratch_file(void **state)
{
	(void)state;
	char img[PATH_MAX];
	path_in(img, sizeof(img), "made.img");
	/* The file is created, then the 1000-byte transfer cannot be done with O_DIRECT. */
	struct th_out o = th_iolab("run", img, "--size", "1m", "--bs", "1000", "--time", "0.1", NULL);
	TH_EXPECT_EXIT(o, 2, "logical block size");
	assert_false(th_exists(img));
	/* A second target that cannot be opened: the first one, just made, goes too. */
	char missing[PATH_MAX];
	path_in(missing, sizeof(missing), "no/such/dir.img");
	o = th_iolab("run", "--target", img, "--target", missing, "--size", "1m", "--time", "0.1", NULL);
	TH_EXPECT_EXIT(o, 2, missing);
	assert_false(th_exists(img));
}

/* ---- options that contradict each other ---- */

static void test_conflicting_options(void **state)
{
	(void)state;
	struct th_out o = th_iolab("run", "--engine", "null", "--time", "1", "--bytes", "1m", NULL);
	TH_EXPECT_EXIT(o, 2, "--time", "--bytes", "together");
	o = th_iolab("run", "--engine", "null", "--direct", "--buffered", NULL);
	TH_EXPECT_EXIT(o, 2, "--direct", "--buffered");
	o = th_iolab("run", "--engine", "null", "--qd", "1", "--qd", "4", NULL);
	TH_EXPECT_EXIT(o, 2, "--qd", "twice");
	o = th_iolab("run", "--engine", "null", "--json", "a.json", "--json", "b.json", NULL);
	TH_EXPECT_EXIT(o, 2, "--json", "twice");
	char job[PATH_MAX];
	path_in(job, sizeof(job), "conflict.job");
	th_write_text(job, "[run a]\nengine = null\ntime = 1\nbytes = 1m\n");
	o = th_iolab("run", "--job", job, NULL);
	TH_EXPECT_EXIT(o, 2, ":4:", "'bytes'", "'time'");
	th_write_text(job, "[run a]\nengine = null\nqd = 1\n# again\nqd = 4\n");
	o = th_iolab("run", "--job", job, NULL);
	TH_EXPECT_EXIT(o, 2, ":5:", "'qd'", "line 3");
	/* [global] then [run] is an override, not a conflict; so is a job value and the command line. */
	th_write_text(job, "[global]\nengine = null\ntime = 50ms\n[run a]\nbytes = 1m\n");
	o = th_iolab("run", "--job", job, "--quiet", NULL);
	assert_int_equal(o.status, 0);
	th_out_free(&o);
	o = th_iolab("run", "--job", job, "--qd", "2", "--quiet", NULL);
	assert_int_equal(o.status, 0);
	th_out_free(&o);
}

static void test_copy_at_depth_refused(void **state)
{
	(void)state;
	struct th_out o = th_iolab("run", "--engine", "null", "--pattern", "copy", "--qd", "4", NULL);
	TH_EXPECT_EXIT(o, 2, "copy", "--qd 4");
	o = th_iolab("run", "--engine", "null", "--pattern", "copy", "--workers", "2", NULL);
	TH_EXPECT_EXIT(o, 2, "copy", "--workers 2");
}

static void test_sim_refuses_target_options(void **state)
{
	(void)state;
	static const char *const opts[][2] = {
		{"--engine", "psync"}, {"--target", "foo"}, {"--size", "1g"}, {"--buffered", NULL},
		{"--direct", NULL}, {"--destroy-data", NULL},
	};
	for (unsigned i = 0; i < sizeof(opts) / sizeof(opts[0]); i++) {
		struct th_out o = opts[i][1]
			? th_iolab("sim", "--model", "atlas10k", opts[i][0], opts[i][1], NULL)
			: th_iolab("sim", "--model", "atlas10k", opts[i][0], NULL);
		TH_EXPECT_EXIT(o, 2, opts[i][0], "simulated drive");
	}
	char job[PATH_MAX];
	path_in(job, sizeof(job), "sim.job");
	th_write_text(job, "[run a]\ntime = 1\nengine = psync\n");
	struct th_out o = th_iolab("sim", "--model", "atlas10k", "--job", job, NULL);
	TH_EXPECT_EXIT(o, 2, ":3:", "'engine'", "simulated drive");
	o = th_iolab("sim", "--model", "atlas10k", "--default", NULL);
	TH_EXPECT_EXIT(o, 2, "--default", "unknown option");
	/* sim --help lists only what sim uses. */
	o = th_iolab("sim", "--help", NULL);
	assert_int_equal(o.status, 0);
	assert_null(strstr(o.out, "--engine"));
	assert_null(strstr(o.out, "--buffered"));
	assert_non_null(strstr(o.out, "--model"));
	assert_non_null(strstr(o.out, "--qd"));
	th_out_free(&o);
}

/* ---- how values are written ---- */

static void test_sizes_with_fractions_and_si_suffixes(void **state)
{
	(void)state;
	char json[PATH_MAX];
	path_in(json, sizeof(json), "len.json");
	struct th_out o = th_iolab("sim", "--model", "atlas10k", "--length", "3.5GB", "--time", "1",
				   "--quiet", "--json", json, NULL);
	assert_int_equal(o.status, 0);
	th_out_free(&o);
	json_t *j = th_load_json(json);
	assert_non_null(j);
	json_t *run = json_array_get(json_object_get(json_object_get(j, "config"), "runs"), 0);
	assert_int_equal(json_integer_value(json_object_get(run, "length")), 3500000000ll);
	json_decref(j);
	o = th_iolab("run", "--engine", "null", "--length", "36.7G", "--time", "0.1", NULL);
	TH_EXPECT_EXIT(o, 2, "39406324941"); /* parsed, then larger than the null engine's 1 GiB */
	o = th_iolab("run", "--engine", "null", "--bs", "1.5", "--time", "0.1", NULL);
	TH_EXPECT_EXIT(o, 2, "--bs", "whole number of bytes");
	o = th_iolab("run", "--engine", "null", "--bs", "4q", "--time", "0.1", NULL);
	TH_EXPECT_EXIT(o, 2, "--bs", "suffix");
}

/* ---- inputs that are not files ---- */

static void test_fifo_inputs_refused(void **state)
{
	(void)state;
	char fifo[PATH_MAX];
	path_in(fifo, sizeof(fifo), "input.fifo");
	assert_int_equal(mkfifo(fifo, 0600), 0);
	/* Nothing ever writes to the FIFO: a reader that waited would hang the test (ctest's
	 * timeout would end it as a failure). */
	struct th_out o = th_iolab("run", "--job", fifo, NULL);
	TH_EXPECT_EXIT(o, 2, fifo, "FIFO");
	o = th_iolab("sim", "validate", "--model", "atlas10k", fifo, NULL);
	TH_EXPECT_EXIT(o, 2, fifo, "FIFO");
	o = th_iolab("sim", "--model", fifo, NULL);
	TH_EXPECT_EXIT(o, 2, fifo, "FIFO");
	o = th_iolab("run", "--job", th_dir, NULL);
	TH_EXPECT_EXIT(o, 2, th_dir, "directory");
	unlink(fifo);
}

static void test_job_file_with_bom(void **state)
{
	(void)state;
	char job[PATH_MAX];
	path_in(job, sizeof(job), "bom.job");
	th_write_text(job, "\xef\xbb\xbf[run bom]\nengine = null\ntime = 50ms\n");
	struct th_out o = th_iolab("run", "--job", job, "--quiet", NULL);
	if (o.status)
		print_error("%s", o.err);
	assert_int_equal(o.status, 0);
	assert_non_null(strstr(o.out, "IOPS"));
	th_out_free(&o);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_size_beyond_free_space),
		cmocka_unit_test(test_buffer_memory_limit),
		cmocka_unit_test(test_point_without_io_fails),
		cmocka_unit_test(test_refused_run_removes_its_scratch_file),
		cmocka_unit_test(test_conflicting_options),
		cmocka_unit_test(test_copy_at_depth_refused),
		cmocka_unit_test(test_sim_refuses_target_options),
		cmocka_unit_test(test_sizes_with_fractions_and_si_suffixes),
		cmocka_unit_test(test_fifo_inputs_refused),
		cmocka_unit_test(test_job_file_with_bom),
	};
	return cmocka_run_group_tests(tests, th_dir_setup, th_dir_teardown);
}
