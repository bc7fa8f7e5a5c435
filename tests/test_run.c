/* test_run.c: the runner (src/run/runner.c, worker.c, options.c) through libiolab: what it
 * refuses before running (engine ops tables it cannot drive, more repetitions than it keeps),
 * how the closed loop keeps the queue full with the null engine, and the warnings a point gets
 * (too short a measurement, with its real length; percentiles the table does not show). The null
 * engine keeps these runs short and free of devices. */
#include <errno.h>
#include <math.h>
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <cmocka.h>

#include "iolab/run.h"

static void null_config(struct iolab_config *c)
{
	iolab_config_init(c);
	struct iolab_err err;
	assert_int_equal(iolab_config_set(c, "engine", "null", &err), 0);
	c->quiet = true;
}

/* Runs c, expecting success; the results are the caller's to free. */
static void run_ok(const struct iolab_config *c, struct iolab_results *res, iolab_progress_fn fn)
{
	struct iolab_err err = {{0}};
	int rc = iolab_run(c, res, fn, NULL, &err);
	if (rc)
		print_error("iolab_run: %d %s\n", rc, err.msg);
	assert_int_equal(rc, 0);
}

/* The point's warning containing s, or NULL. */
__attribute__((unused)) static const char *warning(const struct iolab_point *p, const char *s)
{
	for (unsigned i = 0; i < p->nwarn; i++)
		if (strstr(p->warn[i], s))
			return p->warn[i];
	return NULL;
}

/* ---- what the runner refuses ---- */

/* An engine table of another ops version (or with a hole) is never driven, whoever set it. */
static void test_engine_checked(void **state)
{
	(void)state;
	struct iolab_engine_ops bad = iolab_engine_null;
	bad.version = IOLAB_ENGINE_OPS_VERSION + 1;
	struct iolab_config c;
	null_config(&c);
	c.engine = &bad;
	struct iolab_results res = {0};
	struct iolab_err err = {{0}};
	assert_int_equal(iolab_run(&c, &res, NULL, NULL, &err), -EINVAL);
	assert_non_null(strstr(err.msg, "version"));
	assert_int_equal(res.n, 0);
	bad.version = IOLAB_ENGINE_OPS_VERSION;
	bad.reap = NULL;
	assert_int_equal(iolab_run(&c, &res, NULL, NULL, &err), -EINVAL);
	assert_int_equal(res.n, 0);
	iolab_results_free(&res);
}

/* --repeat and the runner share one limit: the most repetitions a point keeps figures for. */
static void test_repeat_limit(void **state)
{
	(void)state;
	struct iolab_config c;
	null_config(&c);
	struct iolab_err err;
	char v[32];
	snprintf(v, sizeof(v), "%u", IOLAB_REPEAT_MAX);
	assert_int_equal(iolab_config_set(&c, "repeat", v, &err), 0);
	assert_int_equal(c.repeat, IOLAB_REPEAT_MAX);
	snprintf(v, sizeof(v), "%u", IOLAB_REPEAT_MAX + 1);
	assert_int_equal(iolab_config_set(&c, "repeat", v, &err), -EINVAL);
	/* Set directly past the limit, the runner refuses instead of overrunning its figures. */
	c.repeat = IOLAB_REPEAT_MAX + 1;
	c.time_ns = 1000000;
	struct iolab_results res = {0};
	assert_int_equal(iolab_run(&c, &res, NULL, NULL, &err), -EINVAL);
	assert_non_null(strstr(err.msg, "repeat"));
	assert_int_equal(res.n, 0);
	iolab_results_free(&res);
}

/* ---- the closed loop ---- */

/* The null engine is reaped one completion at a time, like io_uring and libaio: each finished
 * I/O is replaced at once, so the other qd - 1 stay in flight and the depth reached (Little's law)
 * is close to the one asked for. Reaped in whole batches it was about 4 to 5 at QD 32
 * (docs/benchmarks.md), a different loop from the one the real engines run. */
static void test_null_reaped_one_at_a_time(void **state)
{
	(void)state;
	struct iolab_config c;
	null_config(&c);
	struct iolab_err err;
	assert_int_equal(iolab_config_set(&c, "qd", "32", &err), 0);
	assert_int_equal(iolab_config_set(&c, "time", "300ms", &err), 0);
	struct iolab_results res = {0};
	run_ok(&c, &res, NULL);
	assert_int_equal(res.n, 1);
	const struct iolab_point *p = &res.point[0];
	assert_true(p->dir[0].ios > 1000);
	if (p->qd_reached < 30)
		print_error("null engine, QD 32: depth reached %.2f\n", p->qd_reached);
	assert_true(p->qd_reached >= 30 && p->qd_reached <= 32.01);
	iolab_results_free(&res);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_engine_checked),
		cmocka_unit_test(test_repeat_limit),
		cmocka_unit_test(test_null_reaped_one_at_a_time),
	};
	return cmocka_run_group_tests(tests, NULL, NULL);
}
