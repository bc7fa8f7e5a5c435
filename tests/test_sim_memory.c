/* test_sim_memory.c: what a simulated point can take in memory is checked against --mem-limit
 * before anything is allocated, and a controller cache takes memory for the lines the load
 * touches, not for its nominal size.
 *
 * Covered: a cache of 64 GiB over a 9 GiB drive runs in a few MiB (the peak resident size of
 * the run, from the kernel's accounting of the children); a cache whose records of the lines
 * that can be in use exceed --mem-limit is refused, from the command line and from a subsystem
 * file, naming the option, the need and the limit; so is a --time whose per-second series
 * would exceed it. */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <sys/resource.h>

#include <cmocka.h>

#include "helpers.h"

/* Before any other child runs: the largest resident size of a child so far is this run's. */
static void test_cache_memory_follows_use(void **state)
{
	(void)state;
	struct th_out o = th_iolab("sim", "--model", "atlas10k", "--cache", "64g", "--read-ahead",
				   "always", "--time", "2", "--no-db", "--quiet", NULL);
	assert_int_equal(o.status, 0);
	th_out_free(&o);
	struct rusage ru;
	assert_int_equal(getrusage(RUSAGE_CHILDREN, &ru), 0);
	/* 64 GiB of 4 KiB lines would be 16 M line records (over 1 GiB); the drive itself has
	 * 2.2 M lines' worth; two seconds of random reads touch a few hundred. */
	if (ru.ru_maxrss > 100 * 1024)
		print_error("peak resident size %ld KiB\n", ru.ru_maxrss);
	assert_true(ru.ru_maxrss <= 100 * 1024);
}

static void test_cache_beyond_limit(void **state)
{
	(void)state;
	struct th_out o = th_iolab("sim", "--array", "raid5:3", "--drive", "sas15k", "--cache", "1t",
				   "--mem-limit", "64m", "--time", "1", "--no-db", NULL);
	TH_EXPECT_EXIT(o, 2, "--cache 1t", "--mem-limit", "64m", "point 1 needs");
	/* the same in a subsystem file's controller */
	char conf[300];
	snprintf(conf, sizeof(conf), "%s/big.conf", th_dir);
	FILE *f = fopen(conf, "w");
	assert_non_null(f);
	fputs("controller c0 cache=1t\nchannel ch0 controller=c0 type=sas2\n"
	      "channel ch1 controller=c0 type=sas2\n"
	      "drive d1 channel=ch0 model=sas15k\ndrive d2 channel=ch1 model=sas15k\n"
	      "volume v level=raid1 drives=d1,d2\n", f);
	assert_int_equal(fclose(f), 0);
	o = th_iolab("sim", "--config", conf, "--mem-limit", "64m", "--time", "1", "--no-db", NULL);
	TH_EXPECT_EXIT(o, 2, "'cache' in", "big.conf", "--mem-limit");
}

/* 10^9 s of per-second series is 16 GB for the worker and as much for the point. */
static void test_series_beyond_limit(void **state)
{
	(void)state;
	struct th_out o = th_iolab("sim", "--model", "atlas10k", "--time", "1000000000", "--mem-limit",
				   "1g", "--no-db", NULL);
	TH_EXPECT_EXIT(o, 2, "--time 1e+09", "per-second series", "--mem-limit");
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_cache_memory_follows_use),
		cmocka_unit_test(test_cache_beyond_limit),
		cmocka_unit_test(test_series_beyond_limit),
	};
	return cmocka_run_group_tests(tests, th_dir_setup, th_dir_teardown);
}
