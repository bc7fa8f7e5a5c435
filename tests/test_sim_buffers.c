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
#include <sys/resource.h>

#include <cmocka.h>

#include "helpers.h"

#if defined(__SANITIZE_ADDRESS__)
#define MAX_RSS_KIB (256 * 1024)
#elif defined(__has_feature)
#if __has_feature(address_sanitizer)
#define MAX_RSS_KIB (256 * 1024)
#endif
#endif
#ifndef MAX_RSS_KIB
#define MAX_RSS_KIB (128 * 1024)
#endif

static void test_deep_queue_of_large_requests(void **state)
{
	(void)state;
	struct th_out o = th_iolab("sim", "--model", "nvme-ssd", "--pattern", "rand-read", "--bs", "1m",
				   "--qd", "1024", "--time", "1", "--no-db", "--quiet", NULL);
	assert_int_equal(o.status, 0);
	th_out_free(&o);
	struct rusage ru;
	assert_int_equal(getrusage(RUSAGE_CHILDREN, &ru), 0);
	if (ru.ru_maxrss > MAX_RSS_KIB)
		print_error("peak resident size %ld KiB\n", ru.ru_maxrss);
	assert_true(ru.ru_maxrss <= MAX_RSS_KIB);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_deep_queue_of_large_requests),
	};
	return cmocka_run_group_tests(tests, th_dir_setup, th_dir_teardown);
}
