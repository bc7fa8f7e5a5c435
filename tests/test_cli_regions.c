/* test_cli_regions.c: the region a run uses and the sizes its messages state. --offset at or
 * past a target's end (an empty region), --offset + --length past it or past 2^64 bytes, and
 * --stroke past it are refused naming the option, on a file, a loop device, the null engine and
 * a simulated drive; --size is refused on a block device (it makes scratch files) and below an
 * existing file's size; `run --default` refuses a target or workload option it would otherwise
 * apply to its own sweep; the --mem-limit message states sizes in units that show them. Every
 * refusal: exit 2, one line on stderr, nothing run (no output file written). */
#include <limits.h>
#include <setjmp.h>
#include <stdarg.h>
#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <string.h>
#include <sys/stat.h>

#include <cmocka.h>

#include "helpers.h"

#define FILE_BYTES (1u << 20)

static void path_in(char *buf, size_t n, const char *name)
{
	snprintf(buf, n, "%s/%s", th_dir, name);
}

/* A 1 MiB file iolab did not create (reads need no --force). */
static void plain_file(char *buf, size_t n)
{
	path_in(buf, n, "plain.img");
	if (!th_exists(buf))
		th_make_file(buf, FILE_BYTES);
}

/* The refusals of --offset/--length/--stroke against target (of 1 MiB), with a --json that must
 * not be written. */
static void expect_region_refusals(const char *target)
{
	char json[PATH_MAX];
	path_in(json, sizeof(json), "region.json");
	struct th_out o = th_iolab("run", target, "--offset", "1m", "--time", "0.1", "--json", json, NULL);
	TH_EXPECT_EXIT(o, 2, target, "--offset 1048576", "at its end", "empty");
	o = th_iolab("run", target, "--offset", "2m", "--time", "0.1", "--json", json, NULL);
	TH_EXPECT_EXIT(o, 2, target, "--offset 2097152", "beyond its end", "1048576 bytes");
	o = th_iolab("run", target, "--length", "2m", "--time", "0.1", "--json", json, NULL);
	TH_EXPECT_EXIT(o, 2, target, "--offset 0 + --length 2097152", "beyond its end");
	o = th_iolab("run", target, "--offset", "512k", "--length", "768k", "--time", "0.1", "--json",
		     json, NULL);
	TH_EXPECT_EXIT(o, 2, target, "--length 786432", "beyond its end");
	o = th_iolab("run", target, "--offset", "768k", "--stroke", "50", "--time", "0.1", "--json",
		     json, NULL);
	TH_EXPECT_EXIT(o, 2, target, "--stroke 50%", "beyond its end");
	/* a 4 KiB length is a fine length: it is the end, offset + length, that is past 2^64 */
	o = th_iolab("run", target, "--offset", "18446744073709547520", "--length", "4096", "--time",
		     "0.1", "--json", json, NULL);
	TH_EXPECT_EXIT(o, 2, "--offset 18446744073709547520 + --length 4096", "beyond 2^64");
	assert_false(th_exists(json));
}

static void test_file_region(void **state)
{
	(void)state;
	char file[PATH_MAX];
	plain_file(file, sizeof(file));
	expect_region_refusals(file);
	/* the last 4 KiB is a region */
	struct th_out o = th_iolab("run", file, "--offset", "1020k", "--bs", "4k", "--time", "0.1",
				   "--quiet", "--no-db", NULL);
	assert_int_equal(o.status, 0);
	th_out_free(&o);
}

static void test_block_device_region_and_size(void **state)
{
	(void)state;
	char img[PATH_MAX], dev[64];
	path_in(img, sizeof(img), "loop.img");
	th_make_file(img, FILE_BYTES);
	if (!th_loop_attach(img, false, dev, sizeof(dev))) {
		skip();
		return;
	}
	expect_region_refusals(dev);
	struct th_out o = th_iolab("run", dev, "--size", "512k", "--time", "0.1", NULL);
	TH_EXPECT_EXIT(o, 2, dev, "block device", "--size 512k");
	th_loop_detach(dev);
}

static void test_virtual_regions(void **state)
{
	(void)state;
	struct th_out o = th_iolab("run", "--engine", "null", "--offset", "1g", "--time", "0.1", NULL);
	TH_EXPECT_EXIT(o, 2, "null engine", "--offset 1073741824", "at its end");
	o = th_iolab("run", "--engine", "null", "--size", "1m", "--offset", "1m", "--time", "0.1", NULL);
	TH_EXPECT_EXIT(o, 2, "null engine", "--offset 1048576", "at its end");
	o = th_iolab("run", "--engine", "null", "--offset", "18446744073709547520", "--length", "4096",
		     "--time", "0.1", NULL);
	TH_EXPECT_EXIT(o, 2, "--length 4096", "beyond 2^64");
	/* atlas10k holds 9199079936 bytes (iolab model show atlas10k) */
	o = th_iolab("sim", "--model", "atlas10k", "--offset", "9199079936", "--time", "0.1", NULL);
	TH_EXPECT_EXIT(o, 2, "simulated", "--offset 9199079936", "at its end");
	o = th_iolab("sim", "--model", "atlas10k", "--offset", "8g", "--length", "1g", "--time", "0.1",
		     NULL);
	TH_EXPECT_EXIT(o, 2, "simulated", "--length 1073741824", "beyond its end");
}

/* --size only makes or grows a scratch file: below an existing file's size it would be ignored. */
static void test_size_below_existing_file(void **state)
{
	(void)state;
	char file[PATH_MAX];
	plain_file(file, sizeof(file));
	struct th_out o = th_iolab("run", file, "--size", "512k", "--time", "0.1", NULL);
	TH_EXPECT_EXIT(o, 2, file, "--size 512k", "1m", "--length");
	struct stat st;
	assert_int_equal(stat(file, &st), 0);
	assert_int_equal(st.st_size, FILE_BYTES);
}

static void test_default_takes_no_workload(void **state)
{
	(void)state;
	char file[PATH_MAX];
	plain_file(file, sizeof(file));
	struct th_out o = th_iolab("run", "--default", file, NULL);
	TH_EXPECT_EXIT(o, 2, "--default", file, "does not apply");
	o = th_iolab("run", "--default", "--time", "1", NULL);
	TH_EXPECT_EXIT(o, 2, "--default", "--time does not apply");
	o = th_iolab("run", "--default", "--target", file, NULL);
	TH_EXPECT_EXIT(o, 2, "--default", "--target does not apply");
	struct stat st;
	assert_int_equal(stat(file, &st), 0);
	assert_int_equal(st.st_size, FILE_BYTES); /* not grown to the default job's 256 MiB */
}

/* Sizes in messages: what they are, in a unit that shows them, not "0.0 MiB". */
static void test_mem_limit_sizes(void **state)
{
	(void)state;
	struct th_out o = th_iolab("run", "--engine", "null", "--bs", "4k", "--time", "0.1",
				   "--mem-limit", "1000", NULL);
	TH_EXPECT_EXIT(o, 2, "needs 4k of I/O buffers", "x 4k", "more than the 1000 that --mem-limit");
	o = th_iolab("run", "--engine", "null", "--bs", "4k", "--qd", "3", "--time", "0.1",
		     "--mem-limit", "10000", NULL);
	TH_EXPECT_EXIT(o, 2, "needs 12k of I/O buffers", "more than the 9.766k that --mem-limit");
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_file_region),
		cmocka_unit_test(test_block_device_region_and_size),
		cmocka_unit_test(test_virtual_regions),
		cmocka_unit_test(test_size_below_existing_file),
		cmocka_unit_test(test_default_takes_no_workload),
		cmocka_unit_test(test_mem_limit_sizes),
	};
	return cmocka_run_group_tests(tests, th_dir_setup, th_dir_teardown);
}
