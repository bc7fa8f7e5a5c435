/* test_parse_number.c: iolab_parse_decimal, the number reader of iolab's data files: decimal
 * with an optional sign, fraction and exponent (C17 7.22.1.3's decimal form, without white space),
 * and nothing strtod also takes: hexadecimal, INF, NAN, leading space. */
#include <errno.h>
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <string.h>

#include <cmocka.h>

#include "iolab/parse_number.h"

static void test_good(void **state)
{
	(void)state;
	static const struct {
		const char *s;
		double v;
	} good[] = {
		{"0", 0}, {"12", 12}, {"0.5", 0.5}, {".5", 0.5}, {"5.", 5}, {"-3", -3}, {"+3", 3},
		{"1e3", 1000}, {"2.5E-2", 0.025}, {"1e+2", 100}, {"007", 7}, {"0e-500", 0},
		{"1.7976931348623157e308", 1.7976931348623157e308},
	};
	for (size_t i = 0; i < sizeof(good) / sizeof(good[0]); i++) {
		double v = -1;
		if (iolab_parse_decimal(good[i].s, &v) != 0 || v != good[i].v) {
			print_error("'%s' should read as %g (got %g)\n", good[i].s, good[i].v, v);
			fail();
		}
	}
}

static void test_bad(void **state)
{
	(void)state;
	static const char *const bad[] = {
		"", " 1", "1 ", "+", "-", ".", "e3", "1e", "1e+", "1.2.3", "1,5", "0x10", "0x1p3", "0X1P3",
		"inf", "-inf", "INF", "infinity", "nan", "NAN", "nan(1)", "1.5x", "--1", "+-1", "1_000",
		"\xef\xbc\x91", "\xd9\xa1",
	};
	for (size_t i = 0; i < sizeof(bad) / sizeof(bad[0]); i++) {
		double v = 42;
		if (iolab_parse_decimal(bad[i], &v) != -EINVAL) {
			print_error("'%s' should not be a number\n", bad[i]);
			fail();
		}
		assert_true(v == 42);
	}
	/* numbers, but beyond what a double keeps */
	static const char *const range[] = {"1e999", "-1e999", "1e-400", "2e308"};
	for (size_t i = 0; i < sizeof(range) / sizeof(range[0]); i++) {
		double v = 42;
		assert_int_equal(iolab_parse_decimal(range[i], &v), -ERANGE);
		assert_true(v == 42);
	}
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_good),
		cmocka_unit_test(test_bad),
	};
	return cmocka_run_group_tests(tests, NULL, NULL);
}
