/* test_raid_levels.c: the one table of RAID levels (src/sim/parts/raid_levels.c) as every check
 * applies it. Through the CLI: each level's fewest drives (--array) and the failures it survives
 * (--failed) give one line naming the option and exit 2 before anything runs, and a combination
 * the table allows runs. A subsystem file's volume line gets the same rule in the same words.
 * Before the table, `--array raid1:1 --failed 1` passed the --array and --failed checks and
 * failed only when the path was built ("sim: volume cannot be built so"). */
#include <errno.h>
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdio.h>
#include <string.h>

#include <cmocka.h>

#include "helpers.h"
#include "iolab/subsys.h"
#include "sim/parts/raid_levels.h"

/* `iolab sim --array ARRAY --drive atlas10k [--failed F]` for a short database run. */
static struct th_out sim_array(const char *array, const char *failed)
{
	if (failed)
		return th_iolab("sim", "--array", array, "--drive", "atlas10k", "--failed", failed,
				"--pattern", "database", "--qd", "4", "--time", "0.05", "--no-db", NULL);
	return th_iolab("sim", "--array", array, "--drive", "atlas10k", "--pattern", "database",
			"--qd", "4", "--time", "0.05", "--no-db", NULL);
}

static void runs(const char *array, const char *failed)
{
	struct th_out o = sim_array(array, failed);
	if (o.status)
		fprintf(stderr, "--array %s --failed %s: exit %d: %s", array, failed ? failed : "-",
			o.status, o.err);
	assert_int_equal(o.status, 0);
	th_out_free(&o);
}

/* Each level's fewest drives: one fewer is refused naming --array, that many runs. */
static void test_minimum_members(void **state)
{
	(void)state;
	static const struct {
		const char *few, *enough, *why;
	} cases[] = {
		{"raid0:0", "raid0:1", NULL},
		{"raid1:0", "raid1:1", NULL},
		{"raid4:2", "raid4:3", "raid4 needs at least 3 drives, not 2"},
		{"raid5:2", "raid5:3", "raid5 needs at least 3 drives, not 2"},
		{"raid6:3", "raid6:4", "raid6 needs at least 4 drives, not 3"},
		{"raid10:2", "raid10:4", "raid10 needs at least 4 drives, not 2"},
		{"raid10:5", "raid10:6", "raid10 is mirrored pairs: 5 drives is not an even count"},
	};
	for (size_t i = 0; i < sizeof(cases) / sizeof(cases[0]); i++) {
		struct th_out o = sim_array(cases[i].few, NULL);
		if (cases[i].why)
			TH_EXPECT_EXIT(o, 2, "--array", cases[i].few, cases[i].why);
		else
			TH_EXPECT_EXIT(o, 2, "--array", "out of range");
		runs(cases[i].enough, NULL);
	}
}

/* The failures each level survives, and one more: refused before the run, naming --failed. */
static void test_survivable_failures(void **state)
{
	(void)state;
	static const struct {
		const char *array, *ok, *bad, *why;
	} cases[] = {
		{"raid1:1", NULL, "1", "raid1 of 1 drive keeps no copy with one failed: it loses the "
		 "volume"},
		{"raid1:2", "2", "1+2", "raid1 of 2 drives keeps no copy with two failed"},
		{"raid1:3", "3", "1+3", "raid1 survives one failed drive, not two"},
		{"raid0:2", NULL, "1", "raid0 has no redundancy: a failed drive loses the volume"},
		{"raid4:3", "3", "1+3", "raid4 survives one failed drive, not two"},
		{"raid5:3", "1", "1+2", "raid5 survives one failed drive, not two"},
		{"raid5:3", NULL, "4", "drive 4 is out of range: the volume has 3 drives"},
		{"raid6:4", "1+4", "5", "drive 5 is out of range"},
		{"raid10:4", "1+3", "1+2", "drives 1 and 2 are the two copies of a mirrored pair of the "
		 "raid10; it loses the volume"},
	};
	for (size_t i = 0; i < sizeof(cases) / sizeof(cases[0]); i++) {
		struct th_out o = sim_array(cases[i].array, cases[i].bad);
		char opt[32];
		snprintf(opt, sizeof(opt), "--failed %s", cases[i].bad);
		TH_EXPECT_EXIT(o, 2, opt, cases[i].why);
		if (cases[i].ok)
			runs(cases[i].array, cases[i].ok);
	}
}

/* With --controllers K the drives form K volumes: the failures are checked per volume. */
static void test_failures_per_controller(void **state)
{
	(void)state;
	struct th_out o = th_iolab("sim", "--array", "raid1:2", "--drive", "atlas10k", "--controllers",
				   "2", "--failed", "1", "--time", "0.05", "--no-db", NULL);
	TH_EXPECT_EXIT(o, 2, "--failed 1", "over --controllers", "raid1 of 1 drive keeps no copy");
	o = th_iolab("sim", "--array", "raid5:6", "--drive", "atlas10k", "--controllers", "2",
		     "--failed", "1+2", "--time", "0.05", "--no-db", NULL);
	TH_EXPECT_EXIT(o, 2, "--failed 1+2", "raid5 survives one failed drive, not two");
	o = th_iolab("sim", "--array", "raid5:6", "--drive", "atlas10k", "--controllers", "2",
		     "--failed", "1+4", "--pattern", "database", "--time", "0.05", "--no-db", "--quiet",
		     NULL);
	assert_int_equal(o.status, 0); /* one failed drive in each volume */
	th_out_free(&o);
}

/* A subsystem file's volume gets the same words from the same table. */
static void test_file_same_rule(void **state)
{
	(void)state;
	const char *text = "drive d1 model=atlas10k\ndrive d2 model=atlas10k\n"
			   "volume v level=raid1 drives=d1,d2 failed=1+2\n";
	struct iolab_subsys s;
	struct iolab_err err;
	assert_int_equal(iolab_subsys_parse("mirror.conf", text, &s, &err), -EINVAL);
	assert_string_equal(err.msg, "mirror.conf:3: field 'failed': raid1 of 2 drives keeps no "
			    "copy with two failed: it loses the volume");
	char why[200];
	assert_int_equal(iolab_raid_check_failed(IOLAB_RAID1, 2, (const int[2]){0, 1}, why,
						 sizeof(why)), -EINVAL);
	assert_non_null(strstr(err.msg, why));
}

/* The table itself: data members and parity per level. */
static void test_table(void **state)
{
	(void)state;
	assert_int_equal(iolab_raid_data_members(IOLAB_RAID5, 5), 4);
	assert_int_equal(iolab_raid_data_members(IOLAB_RAID6, 6), 4);
	assert_int_equal(iolab_raid_data_members(IOLAB_RAID10, 6), 3);
	assert_int_equal(iolab_raid_data_members(IOLAB_RAID1, 3), 1);
	assert_int_equal(iolab_raid_data_members(IOLAB_RAID0, 3), 3);
	for (unsigned l = IOLAB_RAID_NONE; l <= IOLAB_RAID6; l++) {
		const struct iolab_raid_info *r = iolab_raid_info(l);
		assert_non_null(r);
		assert_int_equal(r->level, l);
		assert_ptr_equal(iolab_raid_find(r->name, strlen(r->name)), r);
	}
	assert_null(iolab_raid_info(IOLAB_RAID6 + 1));
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_minimum_members),
		cmocka_unit_test(test_survivable_failures),
		cmocka_unit_test(test_failures_per_controller),
		cmocka_unit_test(test_file_same_rule),
		cmocka_unit_test(test_table),
	};
	return cmocka_run_group_tests(tests, NULL, NULL);
}
