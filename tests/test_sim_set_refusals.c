/* test_sim_set_refusals.c: bad --set values and bad items of the list shorthands are refused
 * before the first point runs (exit 2, nothing on stdout), each with one line naming the option:
 * an unknown part or key, a value outside the key's range (in any point of the sweep), a key that
 * names other parts, a drive's layout field, --set where nothing is simulated, a malformed
 * --set, and the same in a job file. */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>

#include <cmocka.h>

#include "helpers.h"

/* iolab sim on a RAID 0 of barracudas behind a cache, with one more option and its value. */
static struct th_out sim_with(const char *opt, const char *value)
{
	return th_iolab("sim", "--array", "raid0:4", "--drive", "barracuda", "--cache", "16m",
			"--pattern", "seq-read", "--bs", "64k", "--time", "1", "--no-db", opt, value,
			NULL);
}

static void test_unknown_part_or_key(void **state)
{
	(void)state;
	struct th_out o = sim_with("--set", "ctl9.cache=1m");
	TH_EXPECT_EXIT(o, 2, "--set ctl9.cache", "no part or kind 'ctl9'");
	o = sim_with("--set", "controller.colour=red");
	TH_EXPECT_EXIT(o, 2, "--set controller.colour", "no key 'colour'");
	o = sim_with("--set", "drive.spin=fast");
	TH_EXPECT_EXIT(o, 2, "--set drive.spin", "no key 'spin'");
	o = th_iolab("sim", "--model", "atlas10k", "--set", "controller.cache=1m", "--no-db", NULL);
	TH_EXPECT_EXIT(o, 2, "--set controller.cache", "has no controller");
}

/* The second value is bad: the first point does not run either. */
static void test_value_out_of_range(void **state)
{
	(void)state;
	struct th_out o = sim_with("--set", "drive.rpm=7200,99");
	TH_EXPECT_EXIT(o, 2, "--set drive.rpm", "'99' is out of range");
	o = sim_with("--set", "controller.read-ahead=none,bogus");
	TH_EXPECT_EXIT(o, 2, "--set controller.read-ahead", "'bogus' is not a read-ahead mode");
	o = sim_with("--set", "volume.stripe=1000");
	TH_EXPECT_EXIT(o, 2, "--set volume.stripe", "multiple of 512");
}

static void test_keys_that_cannot_vary(void **state)
{
	(void)state;
	struct th_out o = sim_with("--set", "channel.controller=controller");
	TH_EXPECT_EXIT(o, 2, "--set channel.controller", "cannot be set per point");
	o = sim_with("--set", "volume.level=raid5");
	TH_EXPECT_EXIT(o, 2, "--set volume.level", "cannot be set per point");
	o = sim_with("--set", "drive.cylinders=5");
	TH_EXPECT_EXIT(o, 2, "--set drive.cylinders", "cannot change");
}

static void test_malformed_set(void **state)
{
	(void)state;
	struct th_out o = sim_with("--set", "read-ahead=none");
	TH_EXPECT_EXIT(o, 2, "--set", "'read-ahead=none' is not PART.KEY=VALUE");
	o = sim_with("--set", "controller.read-ahead=");
	TH_EXPECT_EXIT(o, 2, "--set", "no value");
}

static void test_set_without_simulated_path(void **state)
{
	(void)state;
	char file[300];
	snprintf(file, sizeof(file), "%s/target", th_dir);
	struct th_out o = th_iolab("run", "--set", "drive.rpm=7200", "--size", "1m", file, "--no-db",
				   NULL);
	TH_EXPECT_EXIT(o, 2, "--set applies only to a simulated drive");
	char trace[300];
	th_data_path(trace, sizeof(trace), "mqsim/tpcc-excerpt.trace");
	o = th_iolab("replay", trace, "--format", "mqsim", "--target", file, "--set",
		     "controller.cache=1m", "--no-db", NULL);
	TH_EXPECT_EXIT(o, 2, "--set applies only to a simulated drive");
}

static void test_bad_shorthand_list_items(void **state)
{
	(void)state;
	struct th_out o = sim_with("--read-ahead", "none,sideways");
	TH_EXPECT_EXIT(o, 2, "--read-ahead", "'sideways'");
	o = sim_with("--controllers", "1,x");
	TH_EXPECT_EXIT(o, 2, "--controllers", "'x' is not a whole number");
	o = sim_with("--channel", "ultra160,warp9");
	TH_EXPECT_EXIT(o, 2, "--channel", "warp9");
	o = th_iolab("sim", "--array", "raid0:4", "--drive", "barracuda,nosuch", "--no-db", NULL);
	TH_EXPECT_EXIT(o, 2, "--drive", "unknown model 'nosuch'");
	o = sim_with("--controllers", "1,3"); /* 4 drives do not divide among 3: found before point 1 */
	TH_EXPECT_EXIT(o, 2, "--controllers 3", "do not divide");
}

static void test_job_file_set(void **state)
{
	(void)state;
	char job[300];
	snprintf(job, sizeof(job), "%s/bad.job", th_dir);
	th_write_text(job, "[run a]\narray = raid0:2\ndrive = barracuda\nset = controller\n");
	struct th_out o = th_iolab("sim", "--job", job, "--no-db", NULL);
	TH_EXPECT_EXIT(o, 2, "bad.job:4", "is not PART.KEY=VALUE");
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_unknown_part_or_key),
		cmocka_unit_test(test_value_out_of_range),
		cmocka_unit_test(test_keys_that_cannot_vary),
		cmocka_unit_test(test_malformed_set),
		cmocka_unit_test(test_set_without_simulated_path),
		cmocka_unit_test(test_bad_shorthand_list_items),
		cmocka_unit_test(test_job_file_set),
	};
	return cmocka_run_group_tests(tests, th_dir_setup, th_dir_teardown);
}
