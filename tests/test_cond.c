/* test_cond.c: condition variables timed on CLOCK_MONOTONIC (cond.h). The attributes it makes
 * name that clock; a timed wait with nobody to signal ends with ETIMEDOUT (a deadline taken on
 * CLOCK_REALTIME, about 1.7e9 s, would hold a condition on CLOCK_MONOTONIC, the seconds since
 * boot, for decades); a signalled wait returns 0.
 * That a step of the wall clock leaves the runner's waits alone cannot be shown without stepping
 * the machine's clock: the runner's only timed wait (wait_workers) goes through these. */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <cmocka.h>
#include <errno.h>
#include <pthread.h>
#include <stdbool.h>
#include <time.h>

#include "iolab/cond.h"

static void test_attr_names_monotonic(void **state)
{
	(void)state;
	pthread_condattr_t a;
	assert_int_equal(iolab_condattr_monotonic(&a), 0);
	clockid_t id = CLOCK_REALTIME;
	assert_int_equal(pthread_condattr_getclock(&a, &id), 0);
	assert_int_equal(id, CLOCK_MONOTONIC);
	pthread_condattr_destroy(&a);
}

static void test_timed_wait_ends(void **state)
{
	(void)state;
	pthread_mutex_t m = PTHREAD_MUTEX_INITIALIZER;
	pthread_cond_t c;
	assert_int_equal(iolab_cond_init(&c), 0);
	pthread_mutex_lock(&m);
	int rc = 0;
	/* a spurious wake-up returns 0: a few tries, each of 2 ms */
	for (int i = 0; i < 100 && rc != ETIMEDOUT; i++)
		rc = iolab_cond_wait_ns(&c, &m, 2 * 1000 * 1000);
	pthread_mutex_unlock(&m);
	assert_int_equal(rc, ETIMEDOUT);
	pthread_cond_destroy(&c);
}

struct flag {
	pthread_mutex_t m;
	pthread_cond_t c;
	bool set;
};

static void *set_flag(void *arg)
{
	struct flag *f = arg;
	pthread_mutex_lock(&f->m);
	f->set = true;
	pthread_cond_signal(&f->c);
	pthread_mutex_unlock(&f->m);
	return NULL;
}

static void test_signalled_wait_returns(void **state)
{
	(void)state;
	struct flag f = {.m = PTHREAD_MUTEX_INITIALIZER};
	assert_int_equal(iolab_cond_init(&f.c), 0);
	pthread_t t;
	pthread_mutex_lock(&f.m);
	assert_int_equal(pthread_create(&t, NULL, set_flag, &f), 0);
	int rc = 0;
	while (!f.set) /* an hour: the thread signals long before */
		rc = iolab_cond_wait_ns(&f.c, &f.m, 3600ull * 1000 * 1000 * 1000);
	pthread_mutex_unlock(&f.m);
	pthread_join(t, NULL);
	assert_int_equal(rc, 0);
	pthread_cond_destroy(&f.c);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_attr_names_monotonic),
		cmocka_unit_test(test_timed_wait_ends),
		cmocka_unit_test(test_signalled_wait_returns),
	};
	return cmocka_run_group_tests(tests, NULL, NULL);
}
