/* test_sim_volumes.c: several volumes on one set of drives (logical drives carved from one
 * array), the load aimed at volumes by name (--target), and the shipped examples found by name.
 *  - examples/two-volumes.conf runs as the documentation writes it, found by name from a
 *    directory without such a file; a file of that name in the directory wins;
 *  - the two RAID 5 logical drives contend: v2 completes fewer requests beside v1 than alone
 *    with as many of its own in flight, and a load aimed at v2 alone never touches v1;
 *  - two volumes carved from one drive without command queuing both make progress (each
 *    drive shared by volumes has one queue for them all: a volume whose pieces all wait is
 *    still served);
 *  - a volume without offset= goes after the volumes before it on its drives; overlapping
 *    extents, sizes that do not fit and offsets off the block size are refused in one line
 *    naming the volumes and the drive; --target names only volumes of a subsystem file.
 * Before this, a drive could be in one volume only ("'d1' is in volume 'v1' already"). */
#include <errno.h>
#include <limits.h>
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <string.h>
#include <unistd.h>

#include <cmocka.h>
#include <jansson.h>

#include "helpers.h"
#include "iolab/subsys.h"

/* Five drives on no controller, for the rules. */
#define FIVE "drive d1 model=sas15k\ndrive d2 model=sas15k\ndrive d3 model=sas15k\n" \
	     "drive d4 model=sas15k\ndrive d5 model=sas15k\n"

/* The ios a part of the first point did, from the JSON of `iolab sim ... --json FILE`. */
static double part_ios(const char *json, const char *name)
{
	json_t *root = th_load_json(json);
	assert_non_null(root);
	json_t *c = json_object_get(json_array_get(json_object_get(root, "points"), 0), "components");
	double ios = -1;
	for (size_t i = 0; i < json_array_size(c); i++) {
		json_t *x = json_array_get(c, i);
		if (!strcmp(json_string_value(json_object_get(x, "name")), name))
			ios = json_number_value(json_object_get(x, "ios"));
	}
	json_decref(root);
	assert_true(ios >= 0);
	return ios;
}

/* The shipped example as docs/subsystems.md runs it, from a directory without such a file. */
static void test_example_by_name(void **state)
{
	(void)state;
	char json[PATH_MAX];
	snprintf(json, sizeof(json), "%s/v2.json", th_dir);
	assert_int_equal(chdir(th_dir), 0);
	assert_int_equal(th_sh("$B sim --config two-volumes.conf --target v2 --pattern database "
			       "--qd 16 --time 5 --no-db --quiet --json %s >/dev/null", json), 0);
	assert_true(part_ios(json, "v2") > 1000);
	assert_true(part_ios(json, "v1") == 0); /* the load went to v2 only */
	struct th_out o = th_iolab("sim", "examples", NULL);
	assert_int_equal(o.status, 0);
	assert_non_null(strstr(o.out, "two-volumes.conf"));
	assert_non_null(strstr(o.out, "two-volumes.job"));
	th_out_free(&o);
	/* a file of that name in the current directory is read instead */
	th_write_text("two-volumes.conf", "volume v level=raid5\n");
	o = th_iolab("sim", "--config", "two-volumes.conf", "--time", "1", "--no-db", NULL);
	TH_EXPECT_EXIT(o, 2, "two-volumes.conf:1: field 'drives': missing");
	unlink("two-volumes.conf");
	o = th_iolab("sim", "--config", "no-such-example.conf", "--time", "1", "--no-db", NULL);
	TH_EXPECT_EXIT(o, 2, "no-such-example.conf");
}

/* The shipped job finds its runs by name too; its two runs show the contention. */
static void test_example_job(void **state)
{
	(void)state;
	assert_int_equal(chdir(th_dir), 0);
	struct th_out o = th_iolab("sim", "--config", "two-volumes.conf", "--job", "two-volumes.job",
				   "--time", "2", "--ramp", "0", "--no-db", "--quiet", NULL);
	assert_int_equal(o.status, 0);
	assert_non_null(strstr(o.out, "database"));
	th_out_free(&o);
}

/* v2 alone at QD 16, then v1 and v2 at QD 32 (the requests taken by the targets in turn): v2
 * completes fewer requests beside v1, as its pieces wait behind v1's on the five drives. */
static void test_volumes_contend(void **state)
{
	(void)state;
	char alone[PATH_MAX], both[PATH_MAX], again[PATH_MAX];
	snprintf(alone, sizeof(alone), "%s/alone.json", th_dir);
	snprintf(both, sizeof(both), "%s/both.json", th_dir);
	snprintf(again, sizeof(again), "%s/again.json", th_dir);
	assert_int_equal(chdir(th_dir), 0);
	assert_int_equal(th_sh("$B sim --config two-volumes.conf --target v2 --pattern database "
			       "--qd 16 --time 5 --ramp 0 --no-db --quiet --json %s >/dev/null", alone), 0);
	assert_int_equal(th_sh("$B sim --config two-volumes.conf --target v1,v2 --pattern database "
			       "--qd 32 --time 5 --ramp 0 --no-db --quiet --json %s >/dev/null", both), 0);
	double v2_alone = part_ios(alone, "v2"), v2_both = part_ios(both, "v2");
	double v1_both = part_ios(both, "v1");
	print_message("v2 alone %.0f requests, beside v1 %.0f (v1 %.0f) in 5 s\n", v2_alone, v2_both,
		      v1_both);
	assert_true(v1_both > 0);
	assert_true(v2_both < 0.85 * v2_alone);
	/* --target v1 --target v2 is the same load as --target v1,v2 */
	assert_int_equal(th_sh("$B sim --config two-volumes.conf --target v1 --target v2 --pattern "
			       "database --qd 32 --time 5 --ramp 0 --no-db --quiet --json %s >/dev/null", again), 0);
	assert_true(part_ios(again, "v2") == v2_both);
}

/* Two one-drive volumes carved from one drive without command queuing (a tag limit of one):
 * both make progress at a depth far beyond the drive's. */
static void test_share_one_queue(void **state)
{
	(void)state;
	char conf[PATH_MAX], json[PATH_MAX];
	snprintf(conf, sizeof(conf), "%s/onedrive.conf", th_dir);
	snprintf(json, sizeof(json), "%s/onedrive.json", th_dir);
	th_write_text(conf, "drive d model=barracuda\n"
			    "volume a level=none drives=d size=50%\n"
			    "volume b level=none drives=d\n");
	assert_int_equal(th_sh("$B sim --config %s --target a,b --pattern database --qd 8 --time 2 "
			       "--ramp 0 --no-db --quiet --json %s >/dev/null", conf, json), 0);
	double a = part_ios(json, "a"), b = part_ios(json, "b"), d = part_ios(json, "d");
	assert_true(a > 10 && b > 10);
	assert_true(a + b == d); /* the drive did every volume's commands */
	/* without --target the host stripes over the two, as over any two volumes */
	assert_int_equal(th_sh("$B sim --config %s --pattern database --qd 8 --time 1 --no-db "
			       "--quiet >/dev/null", conf), 0);
}

static void expect_parse_error(const char *text, const char *want)
{
	struct iolab_subsys s;
	struct iolab_err err;
	assert_int_equal(iolab_subsys_parse("sub.conf", text, &s, &err), -EINVAL);
	if (!strstr(err.msg, want))
		fail_msg("got '%s', want '%s'", err.msg, want);
}

/* Placement, and the errors of size= and offset=. */
static void test_extent_rules(void **state)
{
	(void)state;
	struct iolab_subsys s;
	struct iolab_err err;
	/* v2 without offset goes after v1 (300 GB over 4 data drives: 75 GB each, whole units) */
	assert_int_equal(iolab_subsys_parse("sub.conf", FIVE
		"volume v1 level=raid5 drives=d1,d2,d3,d4,d5 size=300G\n"
		"volume v2 level=raid5 drives=d1,d2,d3,d4,d5\n"
		"volume v3 level=raid0 drives=d5 size=1G offset=0\n", &s, &err), -EINVAL);
	assert_non_null(strstr(err.msg, "sub.conf:8: field 'offset': volume 'v3' overlaps volume "
			       "'v1' on drive 'd5'"));
	assert_int_equal(iolab_subsys_parse("sub.conf", FIVE
		"volume v1 level=raid5 drives=d1,d2,d3,d4,d5 size=300G\n"
		"volume v2 level=raid5 drives=d1,d2,d3,d4,d5\n", &s, &err), 0);
	uint64_t per = 300ull << 30 >> 2; /* bytes of v1 on each drive */
	assert_int_equal(s.vol[0].offset_bytes, 0);
	assert_int_equal(iolab_subsys_member_blocks(&s, &s.vol[0]) * 512, per);
	assert_int_equal(s.vol[1].offset_bytes, per);
	assert_int_equal(iolab_subsys_volume_bytes(&s, &s.vol[0]), 300ull << 30);
	assert_int_equal(iolab_subsys_member_blocks(&s, &s.vol[1]),
			 s.model[0].blocks - per / 512);
	iolab_subsys_free(&s);
	/* explicit offsets that overlap: both volumes and the drive named, on the later line */
	expect_parse_error(FIVE "volume v1 level=raid5 drives=d1,d2,d3 size=50%\n"
			   "volume v2 level=raid1 drives=d4,d3 offset=100G\n",
			   "sub.conf:7: field 'offset': volume 'v2' overlaps volume 'v1' on drive 'd3'");
	/* sizes that do not fit */
	expect_parse_error(FIVE "volume v1 level=raid5 drives=d1,d2,d3 size=60%\n"
			   "volume v2 level=raid5 drives=d1,d2,d3 size=50%\n",
			   "sub.conf:7: field 'size': volume 'v2' needs");
	expect_parse_error(FIVE "volume v1 level=raid0 drives=d1,d2 size=2T\n",
			   "sub.conf:6: field 'size': volume 'v1' needs");
	expect_parse_error(FIVE "volume v1 level=raid0 drives=d1,d2\n"
			   "volume v2 level=raid0 drives=d2,d3\n",
			   "sub.conf:7: field 'drives': 'd2' is taken to its end by volume 'v1': give "
			   "'v1' a size= to share its drives");
	expect_parse_error(FIVE "volume v1 level=raid0 drives=d1,d2 offset=4097\n",
			   "field 'offset': 4097 bytes is not a whole number of the drives' 512-byte");
	expect_parse_error(FIVE "volume v1 level=raid0 drives=d1,d2 size=0%\n",
			   "field 'size': 0 is out of range (1..100)");
	expect_parse_error(FIVE "volume v1 level=raid0 drives=d1,d2 size=120%\n",
			   "field 'size': 120 is out of range (1..100)");
	expect_parse_error(FIVE "volume v1 level=raid0 drives=d1,d1 size=10%\n",
			   "'d1' is listed twice");
	/* a failed drive has failed for every volume on it */
	expect_parse_error(FIVE "volume v1 level=raid5 drives=d1,d2,d3 size=10% failed=2\n"
			   "volume v2 level=raid1 drives=d4,d2\n",
			   "sub.conf:7: field 'failed': drive 'd2' has failed in volume 'v1' and not in "
			   "'v2': a drive fails for every volume on it");
	assert_int_equal(iolab_subsys_parse("sub.conf", FIVE
		"volume v1 level=raid5 drives=d1,d2,d3 size=10% failed=2\n"
		"volume v2 level=raid1 drives=d4,d2 failed=2\n", &s, &err), 0);
	iolab_subsys_free(&s);
}

/* A trace replayed on one logical drive: every request goes to v2 (written through: the trace
 * only writes, and write-back would keep its few writes in the cache). */
static void test_replay_on_volume(void **state)
{
	(void)state;
	char trace[PATH_MAX], json[PATH_MAX];
	th_data_path(trace, sizeof(trace), "mqsim/tpcc-excerpt.trace");
	snprintf(json, sizeof(json), "%s/replay.json", th_dir);
	assert_int_equal(chdir(th_dir), 0);
	assert_int_equal(th_sh("$B replay %s --format mqsim --config two-volumes.conf --target v2 "
			       "--write-policy write-through --wrap --qd 4 --no-db --quiet --json %s >/dev/null",
			       trace, json), 0);
	assert_true(part_ios(json, "v2") > 0);
	assert_true(part_ios(json, "v1") == 0);
}

/* --record names each target volume in the trace's header (a trace of two targets), and the
 * trace replays on the same volumes. */
static void test_record_volumes(void **state)
{
	(void)state;
	assert_int_equal(chdir(th_dir), 0);
	assert_int_equal(th_sh("$B sim --config two-volumes.conf --target v1,v2 --pattern database "
			       "--qd 4 --time 0.2 --no-db --quiet --record rec.iot >/dev/null"), 0);
	struct th_out o = th_iolab("trace", "info", "rec.iot", NULL);
	assert_int_equal(o.status, 0);
	assert_non_null(strstr(o.out, "0 v1, 322122547200 bytes"));
	assert_non_null(strstr(o.out, "1 v2, "));
	th_out_free(&o);
	assert_int_equal(th_sh("$B replay rec.iot --config two-volumes.conf --target v1,v2 --no-db "
			       "--quiet >/dev/null"), 0);
}

/* --target names volumes of a subsystem file, each once. */
static void test_target_errors(void **state)
{
	(void)state;
	assert_int_equal(chdir(th_dir), 0);
	struct th_out o = th_iolab("sim", "--config", "two-volumes.conf", "--target", "v3", "--time",
				   "1", "--no-db", NULL);
	TH_EXPECT_EXIT(o, 2, "--target v3: the subsystem has no volume of that name (its volumes: "
		       "v1, v2)");
	o = th_iolab("sim", "--config", "two-volumes.conf", "--target", "v2,v2", "--time", "1",
		     "--no-db", NULL);
	TH_EXPECT_EXIT(o, 2, "--target v2: the volume is named twice");
	o = th_iolab("sim", "--model", "sas15k", "--target", "v1", "--time", "1", "--no-db", NULL);
	TH_EXPECT_EXIT(o, 2, "--target v1", "--config");
}

/* The tests work in th_dir (the examples are found by name from there): leave it first. */
static int leave_and_teardown(void **state)
{
	if (chdir("/"))
		return -1;
	return th_dir_teardown(state);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_example_by_name),
		cmocka_unit_test(test_example_job),
		cmocka_unit_test(test_volumes_contend),
		cmocka_unit_test(test_share_one_queue),
		cmocka_unit_test(test_extent_rules),
		cmocka_unit_test(test_replay_on_volume),
		cmocka_unit_test(test_record_volumes),
		cmocka_unit_test(test_target_errors),
	};
	return cmocka_run_group_tests(tests, th_dir_setup, leave_and_teardown);
}
