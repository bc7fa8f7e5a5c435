/* test_sim_system.c: the order in which the simulated system (sim_system.h) hands out events,
 * with a recording component: instants in time order; within an instant ordinary events in the
 * order they were posted (also those posted for a later time that has now come, before those
 * posted at the instant itself), then late events, also late ones posted while the instant is
 * handled; a finished request goes to the part that sent it as an ordinary event of its
 * instant, and a request of the load joins the finished list. */
#include <errno.h>
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <string.h>

#include <cmocka.h>

#include "iolab/sim_system.h"

static unsigned seen[32], nseen;

/* Events carry their label in what; label 99 posts more at the same instant. */
static void rec_event(struct iolab_comp *c, unsigned what, void *arg)
{
	(void)arg;
	seen[nseen++] = what;
	if (what == 99) {
		iolab_sim_at_late(c, c->sim->now, 7, NULL);
		iolab_sim_at(c, c->sim->now, 6, NULL);
	}
}

static void rec_complete(struct iolab_comp *c, struct iolab_sreq *r)
{
	seen[nseen++] = 50 + (unsigned)r->d.lbn;
	r->from = NULL;
	iolab_sim_done(c->sim, r);
}

static const struct iolab_comp_ops rec_ops = {
	.kind = "recorder",
	.version = IOLAB_COMP_OPS_VERSION,
	.event = rec_event,
	.complete = rec_complete,
};

static void test_order(void **state)
{
	(void)state;
	struct iolab_sim s;
	assert_int_equal(iolab_sim_init(&s, 4), 0);
	struct iolab_comp c = {.ops = &rec_ops, .sim = &s};
	nseen = 0;
	iolab_sim_at(&c, 100, 2, NULL);      /* for a later instant, posted first */
	iolab_sim_at_late(&c, 100, 5, NULL); /* late at 100 */
	iolab_sim_at(&c, 50, 1, NULL);       /* an earlier instant */
	iolab_sim_at(&c, 100, 3, NULL);
	iolab_sim_at(&c, 100, 99, NULL);     /* posts 7 (late) and 6 (ordinary) at 100 */
	struct iolab_sreq r = {.d = {.lbn = 4}, .from = &c};
	while (iolab_sim_step(&s))
		if (s.now == 100 && nseen == 4) { /* at 100, after 2 and 3 and 99: r finishes */
			iolab_sim_done(&s, &r);
		}
	unsigned want[] = {1, 2, 3, 99, 6, 54, 5, 7};
	assert_int_equal(nseen, sizeof(want) / sizeof(want[0]));
	assert_memory_equal(seen, want, sizeof(want));
	assert_int_equal(s.ndone, 1); /* r went on up to the load */
	assert_ptr_equal(s.done[0], &r);
	assert_int_equal(s.now, 100);
	iolab_sim_free(&s);
}

/* The registry: every kind it lists passes the check, each kind once; tables with a wrong
 * version, no name or no submit are refused with their kind named. */
static void test_registry(void **state)
{
	(void)state;
	struct iolab_err err;
	unsigned n = 0;
	for (const struct iolab_comp_ops *o; (o = iolab_comp_kind_at(n)); n++) {
		if (iolab_comp_check(o, &err))
			fail_msg("%s", err.msg);
		for (unsigned k = 0; k < n; k++)
			assert_ptr_not_equal(iolab_comp_kind_at(k), o);
	}
	assert_true(n >= 6);
	struct iolab_comp_ops bad = iolab_comp_drive;
	bad.version = IOLAB_COMP_OPS_VERSION + 1;
	assert_int_equal(iolab_comp_check(&bad, &err), -EINVAL);
	assert_non_null(strstr(err.msg, "'drive'"));
	bad = iolab_comp_drive;
	bad.submit = NULL;
	assert_int_equal(iolab_comp_check(&bad, &err), -EINVAL);
	assert_non_null(strstr(err.msg, "submit"));
	bad.kind = "";
	assert_int_equal(iolab_comp_check(&bad, &err), -EINVAL);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_order),
		cmocka_unit_test(test_registry),
	};
	return cmocka_run_group_tests(tests, NULL, NULL);
}
