/* test_sim_buffers.c: a simulated device moves no data, so a simulation takes no buffer memory
 * per slot of its queue depth.
 *
 * Covered: `sim --bs 1m --qd 1024 --time 1` on a simulated SSD (every simulated device takes
 * the same path: the worker's) runs with one shared buffer: its peak resident size (the
 * kernel's accounting of the children: each case is one child) stays under 128 MiB (256 MiB with
 * AddressSanitizer), where a buffer per slot, each faulted in before the clock starts, took
 * 1 GiB. A timed replay of a trace with 1 MiB requests at --qd 4096 took 4 GiB so. */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>

#include <cmocka.h>

#include "helpers.h"

static void test_deep_queue_of_large_requests(void **state)
{
	(void)state;
	struct th_out o = th_iolab("sim", "--model", "nvme-ssd", "--pattern", "rand-read", "--bs", "1m",
				   "--qd", "1024", "--time", "1", "--no-db", "--quiet", NULL);
	assert_int_equal(o.status, 0);
	th_out_free(&o);
	th_expect_children_rss(128 * 1024, 256 * 1024);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_deep_queue_of_large_requests),
	};
	return cmocka_run_group_tests(tests, th_dir_setup, th_dir_teardown);
}
