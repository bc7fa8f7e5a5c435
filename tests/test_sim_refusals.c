/* test_sim_refusals.c: what the simulator cannot run is refused before anything runs (exit 2,
 * one line naming the option), never a crash or a silent default.
 *
 * Covered: the sim engine chosen for 'iolab run' (command line, job file) and 'iolab replay'
 * without a model; transfer sizes, alignments and an offset that are not whole sectors of the
 * simulated drive (command line and a job file's access-spec line); --stripe without a volume;
 * --channels without --channel, and more channels than drives. */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>

#include <cmocka.h>

#include "helpers.h"

/* The sim engine has no model in 'iolab run' or 'iolab replay' (no --model there): refused, not
 * a null model dereferenced. */
static void test_sim_engine_without_model(void **state)
{
	(void)state;
	char target[300], job[300], trace[300];
	snprintf(target, sizeof(target), "%s/t.img", th_dir);
	snprintf(job, sizeof(job), "%s/sim.job", th_dir);
	snprintf(trace, sizeof(trace), "%s/t.trace", th_dir);
	th_make_file(target, 1 << 20);
	struct th_out o = th_iolab("run", "--engine", "sim", "--time", "0.1", "--no-db", target, NULL);
	TH_EXPECT_EXIT(o, 2, "--engine", "'sim'", "iolab sim --model");
	th_write_text(job, "[run a]\nengine = sim\ntime = 0.1\n");
	o = th_iolab("run", "--job", job, "--no-db", target, NULL);
	TH_EXPECT_EXIT(o, 2, "sim.job:2", "engine", "iolab sim --model");
	th_write_text(trace, "0.0 R 0 4096\n");
	o = th_iolab("replay", trace, "--engine", "sim", "--target", target, "--no-db", NULL);
	TH_EXPECT_EXIT(o, 2, "--engine", "'sim'");
}

/* A simulated drive transfers whole 512-byte sectors. */
static void test_partial_sectors(void **state)
{
	(void)state;
	struct th_out o = th_iolab("sim", "--model", "atlas10k", "--bs", "513", "--time", "1",
				   "--no-db", NULL);
	TH_EXPECT_EXIT(o, 2, "513", "512-byte sector", "atlas10k");
	o = th_iolab("sim", "--array", "raid0:2", "--drive", "atlas10k", "--bs", "4k,1000",
		     "--time", "1", "--no-db", NULL);
	TH_EXPECT_EXIT(o, 2, "1000", "512-byte sector");
	o = th_iolab("sim", "--model", "atlas10k", "--offset", "1000", "--time", "1", "--no-db", NULL);
	TH_EXPECT_EXIT(o, 2, "--offset 1000", "512-byte sector");
	char job[300];
	snprintf(job, sizeof(job), "%s/odd.job", th_dir);
	th_write_text(job, "[pattern odd]\n4k 50 100 100\n4k 50 100 100 1000\n[run a]\npattern = odd\n"
		   "time = 1\n");
	o = th_iolab("sim", "--model", "atlas10k", "--job", job, "--no-db", NULL);
	TH_EXPECT_EXIT(o, 2, "alignment 1000", "'odd'", "512-byte sector");
	/* whole sectors run */
	o = th_iolab("sim", "--model", "atlas10k", "--bs", "1536", "--time", "0.2", "--no-db",
		     "--quiet", NULL);
	assert_int_equal(o.status, 0);
	th_out_free(&o);
}

static void test_shorthands_without_their_part(void **state)
{
	(void)state;
	struct th_out o = th_iolab("sim", "--model", "atlas10k", "--stripe", "128k", "--time", "1",
				   "--no-db", NULL);
	TH_EXPECT_EXIT(o, 2, "--stripe", "--array");
	o = th_iolab("sim", "--model", "atlas10k", "--channels", "2", "--time", "1", "--no-db", NULL);
	TH_EXPECT_EXIT(o, 2, "--channels 2", "--channel");
	o = th_iolab("sim", "--array", "raid5:4", "--drive", "atlas10k", "--cache", "8m",
		     "--channels", "2", "--time", "1", "--no-db", NULL);
	TH_EXPECT_EXIT(o, 2, "--channels 2", "--channel");
	o = th_iolab("sim", "--array", "raid0:2", "--drive", "atlas10k", "--channel", "40M",
		     "--channels", "4", "--time", "1", "--no-db", NULL);
	TH_EXPECT_EXIT(o, 2, "--channels 4", "2 drives");
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_sim_engine_without_model),
		cmocka_unit_test(test_partial_sectors),
		cmocka_unit_test(test_shorthands_without_their_part),
	};
	return cmocka_run_group_tests(tests, th_dir_setup, th_dir_teardown);
}
