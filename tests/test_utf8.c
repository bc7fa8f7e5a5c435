/* test_utf8.c: UTF-8 decoding, the text-field check and the \xNN escaping (utf8.c) at the edges
 * of the Unicode Standard's table 3-7 (well-formed byte sequences): the first and last code point
 * of each length, overlong forms, surrogates, the end of Unicode, truncated sequences; control
 * characters (C0, DEL, C1) escaped, clean text kept. */
#include <errno.h>
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include <cmocka.h>

#include "iolab/utf8.h"

static void test_decode(void **state)
{
	(void)state;
	static const struct {
		const char *s;
		size_t len;
		uint32_t cp;
	} good[] = {
		{"A", 1, 0x41}, {"\x7f", 1, 0x7f}, {"\xc2\x80", 2, 0x80}, {"\xdf\xbf", 2, 0x7ff},
		{"\xe0\xa0\x80", 3, 0x800}, {"\xed\x9f\xbf", 3, 0xd7ff}, {"\xee\x80\x80", 3, 0xe000},
		{"\xef\xbf\xbf", 3, 0xffff}, {"\xf0\x90\x80\x80", 4, 0x10000},
		{"\xf4\x8f\xbf\xbf", 4, 0x10ffff},
	};
	for (size_t i = 0; i < sizeof(good) / sizeof(good[0]); i++) {
		uint32_t cp = 0;
		assert_int_equal(iolab_utf8_char(good[i].s, &cp), good[i].len);
		assert_int_equal(cp, good[i].cp);
	}
	static const char *const bad[] = {
		"", "\x80", "\xbf", "\xc0\x80", "\xc1\xbf", "\xe0\x80\x80", "\xe0\x9f\xbf",
		"\xed\xa0\x80", "\xed\xbf\xbf", "\xf0\x80\x80\x80", "\xf0\x8f\xbf\xbf", "\xf4\x90\x80\x80",
		"\xf5\x80\x80\x80", "\xff", "\xc3", "\xe2\x82", "\xf0\x9f\x92", "\xc3" "A",
	};
	for (size_t i = 0; i < sizeof(bad) / sizeof(bad[0]); i++) {
		uint32_t cp = 7;
		assert_int_equal(iolab_utf8_char(bad[i], &cp), 0);
		assert_int_equal(cp, 7);
	}
}

static void test_text_check(void **state)
{
	(void)state;
	char why[96];
	assert_int_equal(iolab_text_check("", 3, why, sizeof(why)), 0);
	assert_int_equal(iolab_text_check("abc", 3, why, sizeof(why)), 0);
	assert_int_equal(iolab_text_check("\xc3\xa4\xc3\xa4", 4, why, sizeof(why)), 0);
	assert_int_equal(iolab_text_check("abcd", 3, why, sizeof(why)), -EINVAL);
	assert_string_equal(why, "is longer than 3 bytes (4)");
	assert_int_equal(iolab_text_check("ab\xff", 9, why, sizeof(why)), -EINVAL);
	assert_string_equal(why, "is not valid UTF-8 (byte 3)");
	assert_int_equal(iolab_text_check("a\nb", 9, why, sizeof(why)), -EINVAL);
	assert_string_equal(why, "holds a control character (byte 2)");
	assert_int_equal(iolab_text_check("a\xc2\x9f", 9, why, sizeof(why)), -EINVAL); /* U+009F */
	assert_int_equal(iolab_text_check("a\xc2\xa0", 9, why, sizeof(why)), 0);       /* U+00A0 */
	assert_true(iolab_is_control(0) && iolab_is_control(0x1f) && iolab_is_control(0x7f));
	assert_false(iolab_is_control(' ') || iolab_is_control(0xa0) || iolab_is_control('~'));
}

static void test_escape(void **state)
{
	(void)state;
	static const struct {
		const char *in, *out;
	} cases[] = {
		{"", ""},
		{"plain/path.img", "plain/path.img"},
		{"caf\xc3\xa9 \xe2\x82\xac", "caf\xc3\xa9 \xe2\x82\xac"}, /* UTF-8 stays as it is */
		{"back\\slash", "back\\slash"},                   /* a backslash is not escaped */
		{"bad\xff\xfe.img", "bad\\xff\\xfe.img"},
		{"esc\x1b[31m", "esc\\x1b[31m"},
		{"two\nlines\ttab\x7f", "two\\x0alines\\x09tab\\x7f"},
		{"c1 \xc2\x9b", "c1 \\xc2\\x9b"},                 /* U+009B CSI, as its two bytes */
		{"cut \xe2\x82", "cut \\xe2\\x82"},               /* a truncated sequence */
		{"over \xc0\xaf", "over \\xc0\\xaf"},             /* an overlong '/' */
	};
	for (size_t i = 0; i < sizeof(cases) / sizeof(cases[0]); i++) {
		char buf[64];
		size_t n = iolab_utf8_escape(cases[i].in, buf, sizeof(buf));
		assert_string_equal(buf, cases[i].out);
		assert_int_equal(n, strlen(cases[i].out));
		assert_int_equal(iolab_utf8_clean(cases[i].in), !strcmp(cases[i].in, cases[i].out));
		char *dup = iolab_utf8_escape_dup(cases[i].in);
		assert_non_null(dup);
		assert_string_equal(dup, cases[i].out);
		assert_true(iolab_utf8_clean(dup)); /* escaping twice changes nothing */
		free(dup);
	}
	/* a small buffer: cut between characters, never inside an escape; the length still counts */
	char small[7];
	assert_int_equal(iolab_utf8_escape("ab\xff" "cd", small, sizeof(small)), 8);
	assert_string_equal(small, "ab\\xff");
	assert_int_equal(iolab_utf8_escape("ab\xff" "cd", small, 5), 8);
	assert_string_equal(small, "ab");
	assert_int_equal(iolab_utf8_escape("\xe2\x82\xacx", small, 3), 4);
	assert_string_equal(small, ""); /* the euro sign does not fit whole */
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_decode),
		cmocka_unit_test(test_text_check),
		cmocka_unit_test(test_escape),
	};
	return cmocka_run_group_tests(tests, NULL, NULL);
}
