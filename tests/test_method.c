/* test_method.c: the 95 % confidence interval (Student's t) and the SNIA PTS steady-state rule
 * with crafted series. */
#include <math.h>
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>

#include <cmocka.h>

#include "iolab/method.h"

static void assert_near(double got, double want, double tol)
{
	if (fabs(got - want) > tol) {
		print_error("got %.6f, want %.6f\n", got, want);
		fail();
	}
}

/* Quantiles from the NIST/SEMATECH e-Handbook, 1.3.6.7.2 (upper 0.025). */
static void test_t_quantiles(void **state)
{
	(void)state;
	assert_near(iolab_t95(1), 12.706, 1e-9);
	assert_near(iolab_t95(4), 2.776, 1e-9);
	assert_near(iolab_t95(10), 2.228, 1e-9);
	assert_near(iolab_t95(29), 2.045, 1e-9);
	assert_near(iolab_t95(30), 1.960, 1e-9);
	assert_near(iolab_t95(1000), 1.960, 1e-9);
}

/* 10, 12, 14, 16, 18: mean 14, s = sqrt(10); CI half-width t(4) s / sqrt(5) = 3.9259. */
static void test_ci_known(void **state)
{
	(void)state;
	assert_near(iolab_ci95(sqrt(10.0), 5), 2.776 * sqrt(10.0) / sqrt(5.0), 1e-12);
	assert_near(iolab_ci95(sqrt(10.0), 5), 3.9259, 1e-4);
	/* 1, 3: s = sqrt(2), t(1) = 12.706, half-width 12.706 */
	assert_near(iolab_ci95(sqrt(2.0), 2), 12.706, 1e-9);
	assert_near(iolab_ci95(5.0, 1), 0, 0);
}

static void test_steady_reached(void **state)
{
	(void)state;
	const double v[] = {40, 60, 80, 100, 101, 99, 100, 100, 100};
	assert_false(iolab_steady(v, 4));
	assert_false(iolab_steady(v, 6)); /* 60..101: wide */
	assert_true(iolab_steady(v, 9));
	assert_int_equal(iolab_steady_round(v, 9), 8); /* 100 101 99 100 100 */
	const double flat[] = {5, 5, 5, 5, 5};
	assert_int_equal(iolab_steady_round(flat, 5), 5);
}

/* Range 21 over an average of 100.2: more than 20 %, though the line is nearly flat. */
static void test_steady_range(void **state)
{
	(void)state;
	const double v[] = {90, 110, 90, 111, 100};
	assert_false(iolab_steady(v, 5));
	const double ok[] = {90, 110, 90, 110, 100}; /* range 20 of 100: at the limit */
	assert_true(iolab_steady(ok, 5));
}

/* Range 16 (within 20 %), but the line climbs 4 a round: 16 across the window, over 10 %. */
static void test_steady_slope(void **state)
{
	(void)state;
	const double v[] = {92, 96, 100, 104, 108};
	assert_false(iolab_steady(v, 5));
	const double ok[] = {95, 97.5, 100, 102.5, 105}; /* 10 across: at the limit */
	assert_true(iolab_steady(ok, 5));
}

/* Steady only from round 26: the search stops at 25 without it. */
static void test_steady_cap(void **state)
{
	(void)state;
	double v[30];
	for (unsigned i = 0; i < 30; i++)
		v[i] = i < 21 ? (i % 2 ? 50 : 150) : 100;
	assert_true(iolab_steady(v, 26));
	assert_false(iolab_steady(v, 25));
	assert_int_equal(iolab_steady_round(v, 30), 0);
	assert_int_equal(iolab_steady_round(v, 25), 0);
	assert_false(iolab_steady((const double[]){0, 0, 0, 0, 0}, 5)); /* no average */
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_t_quantiles),
		cmocka_unit_test(test_ci_known),
		cmocka_unit_test(test_steady_reached),
		cmocka_unit_test(test_steady_range),
		cmocka_unit_test(test_steady_slope),
		cmocka_unit_test(test_steady_cap),
	};
	return cmocka_run_group_tests(tests, NULL, NULL);
}
