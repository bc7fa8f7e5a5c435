/* test_clock.c: iolab's wall clock (clock.h) keeps CLOCK_MONOTONIC's pace, whichever source it
 * chose (the TSC scaled by a calibrated factor, or CLOCK_MONOTONIC itself), and never runs
 * backwards within a thread or between threads that hand each other a reading. */
#include <pthread.h>
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <time.h>

#include <cmocka.h>

#include "iolab/clock.h"

static void sleep_ms(long ms)
{
	struct timespec ts = {ms / 1000, (ms % 1000) * 1000000};
	nanosleep(&ts, NULL);
}

/* Over 300 ms the two clocks agree to 0.1%: a calibration from a 20 ms sample read within
 * ~100 ns is good to about 1e-5, and a wrong factor (a TSC of another rate, a unit slip) would
 * be off by far more. */
static void test_pace(void **state)
{
	(void)state;
	iolab_clock_init();
	print_message("clock source: %s\n", iolab_clock.tsc ? "TSC" : "CLOCK_MONOTONIC");
	uint64_t a0 = iolab_clock_ns(), m0 = iolab_clock_mono_ns();
	sleep_ms(300);
	uint64_t a1 = iolab_clock_ns(), m1 = iolab_clock_mono_ns();
	double ours = (double)(a1 - a0), mono = (double)(m1 - m0);
	print_message("300 ms: iolab %.0f ns, CLOCK_MONOTONIC %.0f ns\n", ours, mono);
	assert_true(ours > 0.999 * mono && ours < 1.001 * mono);
}

static void test_never_backwards(void **state)
{
	(void)state;
	iolab_clock_init();
	uint64_t last = iolab_clock_ns();
	for (int i = 0; i < 1000000; i++) {
		uint64_t t = iolab_clock_ns();
		assert_true(t >= last);
		last = t;
	}
}

static void *stamp(void *arg)
{
	uint64_t *t = arg;
	uint64_t before = *t;
	*t = iolab_clock_ns();
	return *t >= before ? arg : NULL;
}

/* A reading taken on one thread is never later than one taken after it on another (the worker
 * stamps submissions and the runner the point's start on different CPUs). */
static void test_across_threads(void **state)
{
	(void)state;
	iolab_clock_init();
	for (int i = 0; i < 200; i++) {
		uint64_t t = iolab_clock_ns();
		pthread_t th;
		assert_int_equal(pthread_create(&th, NULL, stamp, &t), 0);
		void *ok;
		assert_int_equal(pthread_join(th, &ok), 0);
		assert_non_null(ok);
		assert_true(iolab_clock_ns() >= t);
	}
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_pace),
		cmocka_unit_test(test_never_backwards),
		cmocka_unit_test(test_across_threads),
	};
	return cmocka_run_group_tests(tests, NULL, NULL);
}
