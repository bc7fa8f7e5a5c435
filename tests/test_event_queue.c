/* test_event_queue.c: the simulator's event queue: a million random events come out in time
 * order, ties in push order; interleaved pushes and pops keep the order; empty pops fail. */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdlib.h>

#include <cmocka.h>

#include "iolab/event_queue.h"
#include "iolab/prng.h"

static void test_million_in_order(void **state)
{
	(void)state;
	struct iolab_evq q;
	iolab_evq_init(&q);
	struct iolab_prng r;
	iolab_prng_seed(&r, 7);
	const size_t n = 1000000;
	for (size_t i = 0; i < n; i++) /* few distinct times, so ties are common */
		assert_int_equal(iolab_evq_push(&q, iolab_prng_below(&r, 5000), (void *)(uintptr_t)i), 0);
	assert_int_equal(iolab_evq_size(&q), n);
	struct iolab_event e, prev = {0};
	for (size_t i = 0; i < n; i++) {
		assert_true(iolab_evq_pop(&q, &e));
		if (i) {
			assert_true(e.time >= prev.time);
			if (e.time == prev.time) /* ties leave in push order */
				assert_true((uintptr_t)e.data > (uintptr_t)prev.data);
		}
		prev = e;
	}
	assert_false(iolab_evq_pop(&q, &e));
	iolab_evq_free(&q);
}

static void test_interleaved(void **state)
{
	(void)state;
	struct iolab_evq q;
	iolab_evq_init(&q);
	struct iolab_prng r;
	iolab_prng_seed(&r, 8);
	uint64_t now = 0;
	size_t popped = 0;
	/* A simulation's pattern: each event schedules up to two later ones. */
	assert_int_equal(iolab_evq_push(&q, 0, NULL), 0);
	struct iolab_event e;
	while (popped < 200000 && iolab_evq_pop(&q, &e)) {
		assert_true(e.time >= now);
		now = e.time;
		popped++;
		unsigned k = 1 + (unsigned)iolab_prng_below(&r, 2);
		for (unsigned j = 0; j < k && iolab_evq_size(&q) < 10000; j++)
			assert_int_equal(iolab_evq_push(&q, now + iolab_prng_below(&r, 1000), NULL), 0);
	}
	assert_int_equal(popped, 200000);
	iolab_evq_free(&q);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_million_in_order),
		cmocka_unit_test(test_interleaved),
	};
	return cmocka_run_group_tests(tests, NULL, NULL);
}
