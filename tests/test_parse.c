/* test_parse.c: the strict value parsers of parse.h (sizes, percentages, counts, durations, booleans, lists). */
#include <errno.h>
#include <math.h>
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <string.h>

#include <cmocka.h>

#include "iolab/parse.h"

#define SENTINEL 0xdeadbeefcafef00dull

/* Asserts that msg names the field and contains the offending text. */
static void check_msg(const struct iolab_err *err, const char *field, const char *bad)
{
	if (!strstr(err->msg, field) || !strstr(err->msg, bad)) {
		print_error("message '%s' should name field '%s' and value '%s'\n", err->msg, field, bad);
		fail();
	}
}

static void size_ok(const char *s, uint64_t want)
{
	struct iolab_err err = {{0}};
	uint64_t v = SENTINEL;
	int rc = iolab_parse_size("bs", s, &v, &err);
	if (rc != 0) {
		print_error("'%s' should parse: %s\n", s, err.msg);
		fail();
	}
	if (v != want) {
		print_error("'%s' parsed as %llu, want %llu\n", s, (unsigned long long)v,
			    (unsigned long long)want);
		fail();
	}
}

static void size_bad(const char *s)
{
	struct iolab_err err = {{0}};
	uint64_t v = SENTINEL;
	int rc = iolab_parse_size("bs", s, &v, &err);
	if (rc != -EINVAL) {
		print_error("'%s' should be rejected with -EINVAL, got %d (value %llu)\n", s, rc,
			    (unsigned long long)v);
		fail();
	}
	assert_true(v == SENTINEL); /* untouched on failure */
	check_msg(&err, "bs", s);
}

static void test_size_accepts(void **state)
{
	(void)state;
	size_ok("0", 0);
	size_ok("1", 1);
	size_ok("4096", 4096);
	size_ok("4k", 4096);
	size_ok("4K", 4096);
	size_ok("4KiB", 4096);
	size_ok("4kib", 4096);
	size_ok("4kB", 4000); /* SI: kB, MB, GB, TB are powers of 1000 */
	size_ok("64kb", 64000);
	size_ok("500GB", 500000000000ull);
	size_ok("2TB", 2000000000000ull);
	size_ok("1MB", 1000000);
	size_ok("1TiB", 1ull << 40);
	size_ok("36.7G", 39406324941ull); /* 36.7 x 2^30 = 39406324940.8, to the nearest byte */
	size_ok("1.5k", 1536);
	size_ok("0.5KiB", 512);
	size_ok("2.5MB", 2500000);
	size_ok("1.0", 1);
	size_ok("512b", 512);
	size_ok("512B", 512);
	size_ok("1m", 1ull << 20);
	size_ok("1M", 1ull << 20);
	size_ok("1MiB", 1ull << 20);
	size_ok("2G", 2ull << 30);
	size_ok("2g", 2ull << 30);
	size_ok("1t", 1ull << 40);
	size_ok("3T", 3ull << 40);
	size_ok("1p", 1ull << 50);
	size_ok("007k", 7 * 1024);
	size_ok("18446744073709551615", UINT64_MAX);
	size_ok("16777215t", 16777215ull << 40); /* largest t value that fits */
}

static void test_size_rejects(void **state)
{
	(void)state;
	size_bad("");
	size_bad("-1");
	size_bad("+1");
	size_bad("4x");
	size_bad("1.5"); /* a fraction of a byte */
	size_bad("1.k");
	size_bad(".5k");
	size_bad("1..5k");
	size_bad("4Ki");
	size_bad("0.1234567890123456789k"); /* more decimals than are exact */
	size_bad("k");
	size_bad("KiB");
	size_bad(" 4k");
	size_bad("4k ");
	size_bad("4 k");
	size_bad("4kk");
	size_bad("4bb");
	size_bad("4kbb");
	size_bad("0x10");
	size_bad("99999999999999999999");
	size_bad("18446744073709551616"); /* UINT64_MAX + 1 */
	size_bad("17179869184t");
	size_bad("16777216t"); /* exactly 2^64 */
	size_bad("16384p");    /* exactly 2^64 */
}

static void test_size_null_err(void **state)
{
	(void)state;
	uint64_t v = 7;
	assert_int_equal(iolab_parse_size("bs", "nope", &v, NULL), -EINVAL);
	assert_true(v == 7);
	assert_int_equal(iolab_parse_size("bs", "8k", &v, NULL), 0);
	assert_true(v == 8192);
}

static void test_pct(void **state)
{
	(void)state;
	struct iolab_err err = {{0}};
	unsigned v = 12345;
	assert_int_equal(iolab_parse_pct("read", "0", &v, &err), 0);
	assert_int_equal(v, 0);
	assert_int_equal(iolab_parse_pct("read", "100", &v, &err), 0);
	assert_int_equal(v, 100);
	assert_int_equal(iolab_parse_pct("read", "80%", &v, &err), 0);
	assert_int_equal(v, 80);
	assert_int_equal(iolab_parse_pct("read", "100%", &v, &err), 0);
	assert_int_equal(v, 100);
	assert_int_equal(iolab_parse_pct("read", "7", &v, &err), 0);
	assert_int_equal(v, 7);

	const char *bad[] = {"101", "x", "-5", "", "%", "50%%", "50 %", " 50", "1000", "50.5",
			     "99999999999999999999999"};
	for (size_t i = 0; i < sizeof(bad) / sizeof(bad[0]); i++) {
		v = 12345;
		memset(&err, 0, sizeof(err));
		int rc = iolab_parse_pct("read", bad[i], &v, &err);
		if (rc != -EINVAL) {
			print_error("pct '%s' should be rejected, got %d\n", bad[i], rc);
			fail();
		}
		assert_int_equal(v, 12345);
		check_msg(&err, "read", bad[i]);
	}
}

static void dur_ok(const char *s, uint64_t want)
{
	struct iolab_err err = {{0}};
	uint64_t v = SENTINEL;
	int rc = iolab_parse_duration("time", s, &v, &err);
	if (rc != 0 || v != want) {
		print_error("duration '%s': rc %d value %llu, want %llu (%s)\n", s, rc,
			    (unsigned long long)v, (unsigned long long)want, err.msg);
		fail();
	}
}

static void dur_bad(const char *s)
{
	struct iolab_err err = {{0}};
	uint64_t v = SENTINEL;
	int rc = iolab_parse_duration("time", s, &v, &err);
	if (rc != -EINVAL) {
		print_error("duration '%s' should be rejected, got %d (value %llu)\n", s, rc,
			    (unsigned long long)v);
		fail();
	}
	assert_true(v == SENTINEL);
	check_msg(&err, "time", s);
}

static void test_duration(void **state)
{
	(void)state;
	dur_ok("30", 30000000000ull);
	dur_ok("0", 0);
	dur_ok("30s", 30000000000ull);
	dur_ok("1.5s", 1500000000ull);
	dur_ok("1.5", 1500000000ull);
	dur_ok("500ms", 500000000ull);
	dur_ok("250us", 250000ull);
	dur_ok("2m", 120000000000ull);
	dur_ok("2min", 120000000000ull);
	dur_ok("1h", 3600000000000ull);
	dur_ok("0.5h", 1800000000000ull);
	dur_ok(".25s", 250000000ull);

	dur_bad("abc");
	dur_bad("5d");
	dur_bad("-1");
	dur_bad("");
	dur_bad("s");
	dur_bad("ms");
	dur_bad(" 5");
	dur_bad("5 s");
	dur_bad("5ss");
	dur_bad("5sec");
	dur_bad("1e30");    /* far too long */
	dur_bad("1e999");   /* out of double range */
	dur_bad("inf");
	dur_bad("nan");
}

static void test_uint(void **state)
{
	(void)state;
	struct iolab_err err = {{0}};
	uint64_t v = SENTINEL;
	assert_int_equal(iolab_parse_uint("qd", "1", 1, 1024, &v, &err), 0);
	assert_true(v == 1);
	assert_int_equal(iolab_parse_uint("qd", "1024", 1, 1024, &v, &err), 0);
	assert_true(v == 1024);
	assert_int_equal(iolab_parse_uint("qd", "32", 1, 1024, &v, &err), 0);
	assert_true(v == 32);

	/* Range errors name the field, the value and the range. */
	v = SENTINEL;
	assert_int_equal(iolab_parse_uint("qd", "2000", 1, 1024, &v, &err), -EINVAL);
	assert_true(v == SENTINEL);
	check_msg(&err, "qd", "2000");
	assert_non_null(strstr(err.msg, "1..1024"));

	memset(&err, 0, sizeof(err));
	assert_int_equal(iolab_parse_uint("qd", "1025", 1, 1024, &v, &err), -EINVAL);
	check_msg(&err, "qd", "1025");

	memset(&err, 0, sizeof(err));
	assert_int_equal(iolab_parse_uint("workers", "0", 1, 64, &v, &err), -EINVAL);
	check_msg(&err, "workers", "0");
	assert_non_null(strstr(err.msg, "1..64"));
	assert_true(v == SENTINEL);

	const char *bad[] = {"", "-1", "abc", "4k", "1.0", " 1", "1 ", "18446744073709551616"};
	for (size_t i = 0; i < sizeof(bad) / sizeof(bad[0]); i++) {
		memset(&err, 0, sizeof(err));
		int rc = iolab_parse_uint("qd", bad[i], 0, UINT64_MAX, &v, &err);
		if (rc != -EINVAL) {
			print_error("uint '%s' should be rejected, got %d\n", bad[i], rc);
			fail();
		}
		check_msg(&err, "qd", bad[i]);
	}
	assert_true(v == SENTINEL);
	assert_int_equal(iolab_parse_uint("n", "18446744073709551615", 0, UINT64_MAX, &v, &err), 0);
	assert_true(v == UINT64_MAX);
}

static void test_double(void **state)
{
	(void)state;
	struct iolab_err err = {{0}};
	double v = -1;
	assert_int_equal(iolab_parse_double("theta", "1.25", 0, 10, &v, &err), 0);
	assert_true(v == 1.25);
	assert_int_equal(iolab_parse_double("theta", "11", 0, 10, &v, &err), -EINVAL);
	check_msg(&err, "theta", "11");
	const char *bad[] = {"", "x", "1.5x", " 1", "nan", "inf", "1e999", "0x1p3", "0x10"};
	for (size_t i = 0; i < sizeof(bad) / sizeof(bad[0]); i++) {
		memset(&err, 0, sizeof(err));
		assert_int_equal(iolab_parse_double("theta", bad[i], -1e300, 1e300, &v, &err), -EINVAL);
		check_msg(&err, "theta", bad[i]);
	}
	assert_true(v == 1.25);
}

static void test_bool(void **state)
{
	(void)state;
	struct iolab_err err = {{0}};
	const char *yes[] = {"1", "true", "TRUE", "True", "yes", "YES", "on", "On"};
	const char *no[] = {"0", "false", "FALSE", "no", "No", "off", "OFF"};
	for (size_t i = 0; i < sizeof(yes) / sizeof(yes[0]); i++) {
		bool b = false;
		assert_int_equal(iolab_parse_bool("direct", yes[i], &b, &err), 0);
		assert_true(b);
	}
	for (size_t i = 0; i < sizeof(no) / sizeof(no[0]); i++) {
		bool b = true;
		assert_int_equal(iolab_parse_bool("direct", no[i], &b, &err), 0);
		assert_false(b);
	}
	const char *bad[] = {"", "2", "maybe", "y", "n", "truee", " yes", "yes "};
	for (size_t i = 0; i < sizeof(bad) / sizeof(bad[0]); i++) {
		bool b = true;
		memset(&err, 0, sizeof(err));
		int rc = iolab_parse_bool("direct", bad[i], &b, &err);
		if (rc != -EINVAL) {
			print_error("bool '%s' should be rejected, got %d\n", bad[i], rc);
			fail();
		}
		assert_true(b);
		check_msg(&err, "direct", bad[i]);
	}
}

static void test_split_list(void **state)
{
	(void)state;
	struct iolab_err err = {{0}};
	char buf[256];
	char *items[IOLAB_LIST_MAX];

	int n = iolab_split_list("bs", " 4k,  64k ,1m\t", buf, sizeof(buf), items, IOLAB_LIST_MAX, &err);
	assert_int_equal(n, 3);
	assert_string_equal(items[0], "4k");
	assert_string_equal(items[1], "64k");
	assert_string_equal(items[2], "1m");
	for (int i = 0; i < n; i++) /* items point into buf */
		assert_true(items[i] >= buf && items[i] < buf + sizeof(buf));

	n = iolab_split_list("bs", "one", buf, sizeof(buf), items, IOLAB_LIST_MAX, &err);
	assert_int_equal(n, 1);
	assert_string_equal(items[0], "one");

	n = iolab_split_list("bs", "a b, c", buf, sizeof(buf), items, IOLAB_LIST_MAX, &err);
	assert_int_equal(n, 2);
	assert_string_equal(items[0], "a b"); /* inner spaces kept */
	assert_string_equal(items[1], "c");

	/* Empty items. */
	const char *empty[] = {"a,,b", "a,", ",a", "", " ", "a, ,b", ","};
	for (size_t i = 0; i < sizeof(empty) / sizeof(empty[0]); i++) {
		memset(&err, 0, sizeof(err));
		n = iolab_split_list("bs", empty[i], buf, sizeof(buf), items, IOLAB_LIST_MAX, &err);
		if (n != -EINVAL) {
			print_error("list '%s' should be rejected, got %d\n", empty[i], n);
			fail();
		}
		check_msg(&err, "bs", empty[i]);
		assert_non_null(strstr(err.msg, "empty"));
	}

	/* Exactly max items is fine, one more is not. */
	n = iolab_split_list("qd", "1,2,3", buf, sizeof(buf), items, 3, &err);
	assert_int_equal(n, 3);
	assert_string_equal(items[2], "3");
	memset(&err, 0, sizeof(err));
	n = iolab_split_list("qd", "1,2,3,4", buf, sizeof(buf), items, 3, &err);
	assert_int_equal(n, -EINVAL);
	assert_non_null(strstr(err.msg, "qd"));
	assert_non_null(strstr(err.msg, "3"));

	/* IOLAB_LIST_MAX items. */
	char many[256] = "";
	for (int i = 0; i < IOLAB_LIST_MAX; i++)
		snprintf(many + strlen(many), sizeof(many) - strlen(many), "%s%d", i ? "," : "", i);
	n = iolab_split_list("qd", many, buf, sizeof(buf), items, IOLAB_LIST_MAX, &err);
	assert_int_equal(n, IOLAB_LIST_MAX);
	assert_string_equal(items[IOLAB_LIST_MAX - 1], "31");
	strcat(many, ",32");
	n = iolab_split_list("qd", many, buf, sizeof(buf), items, IOLAB_LIST_MAX, &err);
	assert_int_equal(n, -EINVAL);

	/* A buffer too small for the string is an error, not an overflow. */
	char small[4];
	memset(&err, 0, sizeof(err));
	n = iolab_split_list("bs", "4k,8k", small, sizeof(small), items, IOLAB_LIST_MAX, &err);
	assert_int_equal(n, -EINVAL);
	check_msg(&err, "bs", "4k,8k");
	n = iolab_split_list("bs", "4k", small, sizeof(small), items, IOLAB_LIST_MAX, &err);
	assert_int_equal(n, 1);
	assert_string_equal(items[0], "4k");
}

static void test_fmt_size(void **state)
{
	(void)state;
	char buf[32];
	assert_string_equal(iolab_fmt_size(4096, buf, sizeof(buf)), "4k");
	assert_string_equal(iolab_fmt_size(1536, buf, sizeof(buf)), "1536");
	assert_string_equal(iolab_fmt_size(1048576, buf, sizeof(buf)), "1m");
	assert_string_equal(iolab_fmt_size(0, buf, sizeof(buf)), "0");
	assert_string_equal(iolab_fmt_size(512, buf, sizeof(buf)), "512");
	assert_string_equal(iolab_fmt_size(1024, buf, sizeof(buf)), "1k");
	assert_string_equal(iolab_fmt_size(1025 * 1024, buf, sizeof(buf)), "1025k");
	assert_string_equal(iolab_fmt_size(3ull << 30, buf, sizeof(buf)), "3g");
	assert_string_equal(iolab_fmt_size(5ull << 40, buf, sizeof(buf)), "5t");
	assert_string_equal(iolab_fmt_size(1ull << 50, buf, sizeof(buf)), "1p");
	assert_string_equal(iolab_fmt_size(1ull << 60, buf, sizeof(buf)), "1024p");
	/* past four digits: the largest unit, with the fewest decimals (3 at most) that stay exact,
	 * else three significant digits marked '~' */
	assert_string_equal(iolab_fmt_size(10000, buf, sizeof(buf)), "9.766k");
	assert_string_equal(iolab_fmt_size(12345ull << 30, buf, sizeof(buf)), "~12.1t");
	assert_string_equal(iolab_fmt_size(1234567, buf, sizeof(buf)), "~1.18m");
	assert_string_equal(iolab_fmt_size((17ull << 30) + 4096, buf, sizeof(buf)), "~17.0g");
	assert_string_equal(iolab_fmt_size(UINT64_MAX, buf, sizeof(buf)), "~16383p");
	assert_ptr_equal(iolab_fmt_size(1, buf, sizeof(buf)), buf);

	/* What fmt_size writes, parse_size reads back: the same number, or within 0.5 % after a
	 * '~'. */
	uint64_t vals[] = {0, 1, 511, 512, 4096, 6144, 9999, 10000, 65536, 1234567, 1ull << 20,
			   3ull << 20, 12345ull << 30, 1000000000000ull, 9199079936ull, 1ull << 40,
			   1ull << 50, 7ull << 54, UINT64_MAX, UINT64_MAX - 1023};
	for (size_t i = 0; i < sizeof(vals) / sizeof(vals[0]); i++) {
		uint64_t back = 0;
		iolab_fmt_size(vals[i], buf, sizeof(buf));
		bool rounded = buf[0] == '~';
		assert_int_equal(iolab_parse_size("x", buf + rounded, &back, NULL), 0);
		if (rounded)
			assert_true(fabsl((long double)back - (long double)vals[i]) <= 0.005L * vals[i]);
		else
			assert_true(back == vals[i]);
	}

	/* Truncates rather than overflowing a small buffer. */
	char tiny[3] = {'x', 'x', 'x'};
	iolab_fmt_size(123456789, tiny, sizeof(tiny));
	assert_int_equal(tiny[2], 0);
	assert_string_equal(tiny, "~1"); /* of "~118m" */
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_size_accepts),
		cmocka_unit_test(test_size_rejects),
		cmocka_unit_test(test_size_null_err),
		cmocka_unit_test(test_pct),
		cmocka_unit_test(test_duration),
		cmocka_unit_test(test_uint),
		cmocka_unit_test(test_double),
		cmocka_unit_test(test_bool),
		cmocka_unit_test(test_split_list),
		cmocka_unit_test(test_fmt_size),
	};
	return cmocka_run_group_tests(tests, NULL, NULL);
}
