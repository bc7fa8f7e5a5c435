/* test_cli_trace_inputs.c: bad trace inputs are refused (exit 2, one line naming the file,
 * option or field, no output written): a target filter naming a target the trace does not have
 * (trace convert/import --target, replay --trace-target), from a file and from standard input;
 * a named FIFO, a directory or a device given as a trace (refused at once, never waited on);
 * a length whose request would end past 2^64 bytes is said so, not called "not a byte count".
 * `iolab trace` and `iolab db` without a command print their usage on standard error, exit 2. */
#include <limits.h>
#include <setjmp.h>
#include <stdarg.h>
#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include <cmocka.h>

#include "helpers.h"

static void path_in(char *buf, size_t n, const char *name)
{
	snprintf(buf, n, "%s/%s", th_dir, name);
}

/* An Alibaba block trace of one device (id 7: the trace's only target, index 0). */
static void one_target_trace(char *csv, size_t n)
{
	path_in(csv, n, "one.csv");
	th_write_text(csv, "7,R,0,4096,1000000\n7,W,8192,4096,1000500\n7,R,4096,4096,1001000\n");
}

static void test_target_the_trace_lacks(void **state)
{
	(void)state;
	char csv[PATH_MAX], iot[PATH_MAX], out[PATH_MAX], disk[PATH_MAX];
	one_target_trace(csv, sizeof(csv));
	path_in(iot, sizeof(iot), "one.iot");
	path_in(out, sizeof(out), "out.txt");
	path_in(disk, sizeof(disk), "disk.img");
	th_make_file(disk, 1 << 20);
	struct th_out o = th_iolab("trace", "import", csv, "--format", "alibaba", "--target", "5", "-o",
				   iot, NULL);
	TH_EXPECT_EXIT(o, 2, csv, "--target 5", "1 target", "0 (7)");
	assert_false(th_exists(iot));
	o = th_iolab("trace", "import", csv, "--format", "alibaba", "-o", iot, NULL);
	assert_int_equal(o.status, 0);
	th_out_free(&o);
	o = th_iolab("trace", "convert", iot, "--to", "iot-text", "--target", "1", "-o", out, NULL);
	TH_EXPECT_EXIT(o, 2, iot, "--target 1", "1 target", "0 (7)");
	assert_false(th_exists(out));
	/* from standard input the header is known whole only at the end: still refused, no output */
	assert_int_equal(th_sh("$B trace convert - --to iot-text --target 3 -o '%s' <'%s' 2>/dev/null",
			       out, iot), 2);
	assert_false(th_exists(out));
	o = th_iolab("replay", iot, "--target", disk, "--trace-target", "5", "--time", "0.1", "--no-db",
		     NULL);
	TH_EXPECT_EXIT(o, 2, iot, "--trace-target 5", "1 target", "0 (7)");
	/* the target it has is fine */
	o = th_iolab("trace", "convert", iot, "--to", "iot-text", "--target", "0", "-o", out, NULL);
	assert_int_equal(o.status, 0);
	assert_non_null(strstr(o.err, "3 requests"));
	th_out_free(&o);
}

static void test_fifo_directory_device_traces(void **state)
{
	(void)state;
	char fifo[PATH_MAX], out[PATH_MAX], disk[PATH_MAX];
	path_in(fifo, sizeof(fifo), "trace.fifo");
	path_in(out, sizeof(out), "fifo.iot");
	path_in(disk, sizeof(disk), "fifo-disk.img");
	th_make_file(disk, 1 << 20);
	assert_int_equal(mkfifo(fifo, 0600), 0);
	/* Nothing ever writes to the FIFO: a reader that waited for a writer would hang the test
	 * (ctest's timeout would end it as a failure). */
	struct th_out o = th_iolab("trace", "info", fifo, NULL);
	TH_EXPECT_EXIT(o, 2, fifo, "FIFO", "not a regular file");
	o = th_iolab("trace", "import", fifo, "--format", "msr", "-o", out, NULL);
	TH_EXPECT_EXIT(o, 2, fifo, "FIFO");
	assert_false(th_exists(out));
	o = th_iolab("replay", fifo, "--target", disk, "--no-db", NULL);
	TH_EXPECT_EXIT(o, 2, fifo, "FIFO");
	o = th_iolab("trace", "info", th_dir, NULL);
	TH_EXPECT_EXIT(o, 2, th_dir, "directory");
	o = th_iolab("trace", "info", "/dev/null", NULL);
	TH_EXPECT_EXIT(o, 2, "/dev/null", "device");
	unlink(fifo);
}

/* A fine 4096-byte length whose request ends past 2^64 bytes: the end is named, not the number. */
static void test_length_past_2_64(void **state)
{
	(void)state;
	char csv[PATH_MAX], msr[PATH_MAX], spc[PATH_MAX];
	path_in(csv, sizeof(csv), "far.csv");
	th_write_text(csv, "7,R,18446744073709551000,4096,1000000\n");
	struct th_out o = th_iolab("trace", "info", csv, "--format", "alibaba", NULL);
	TH_EXPECT_EXIT(o, 2, "far.csv:1", "field 'length'", "'4096'", "beyond 2^64");
	path_in(msr, sizeof(msr), "far.msr");
	th_write_text(msr, "128166372003061629,hm,0,Read,18446744073709551000,4096,100\n");
	o = th_iolab("trace", "info", msr, "--format", "msr", NULL);
	TH_EXPECT_EXIT(o, 2, "far.msr:1", "field 'Size'", "beyond 2^64");
	path_in(spc, sizeof(spc), "far.spc");
	th_write_text(spc, "0,36028797018963967,4096,r,0.5\n");
	o = th_iolab("trace", "info", spc, "--format", "spc", NULL);
	TH_EXPECT_EXIT(o, 2, "far.spc:1", "field 'Size'", "beyond 2^64");
	/* a length that is not a number is still called so */
	th_write_text(csv, "7,R,0,4k,1000000\n");
	o = th_iolab("trace", "info", csv, "--format", "alibaba", NULL);
	TH_EXPECT_EXIT(o, 2, "far.csv:1", "field 'length'", "is not a byte count");
}

static void test_usage_without_command(void **state)
{
	(void)state;
	static const char *const cmds[] = {"trace", "db"};
	for (unsigned i = 0; i < 2; i++) {
		struct th_out o = th_iolab(cmds[i], NULL);
		assert_int_equal(o.status, 2);
		assert_string_equal(o.out, "");
		char usage[32];
		snprintf(usage, sizeof(usage), "usage: iolab %s ", cmds[i]);
		assert_true(!strncmp(o.err, usage, strlen(usage)));
		th_out_free(&o);
	}
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_target_the_trace_lacks),
		cmocka_unit_test(test_fifo_directory_device_traces),
		cmocka_unit_test(test_length_past_2_64),
		cmocka_unit_test(test_usage_without_command),
	};
	return cmocka_run_group_tests(tests, th_dir_setup, th_dir_teardown);
}
