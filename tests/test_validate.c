/* test_validate.c: the DiskSim validate-trace reader (validate.c) and `iolab sim validate`'s
 * refusals: a trace with no requests, or whose measured service times are all 0, has no
 * measured mean to give the demerit as a share of (docs/validation.md: "as a percentage of the
 * measured mean"), so it is refused with exit 2 naming the file; numbers follow the one rule of
 * iolab's data files (iolab_parse_decimal). */
#include <errno.h>
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <cmocka.h>

#include "helpers.h"
#include "iolab/validate.h"

static char dir[256];

static int setup(void **state)
{
	(void)state;
	snprintf(dir, sizeof(dir), "%s", th_tmpdir());
	return 0;
}

static int teardown(void **state)
{
	(void)state;
	th_rmtree(dir);
	return 0;
}

static void assert_msg(const char *msg, const char *part)
{
	if (!strstr(msg, part)) {
		print_error("message '%s' should contain '%s'\n", msg, part);
		fail();
	}
}

/* text must be refused with a message holding each NULL-terminated part. */
static void bad_trace(const char *text, ...)
{
	struct iolab_vtrace t;
	struct iolab_err err = {{0}};
	int rc = iolab_vtrace_parse("bad.trace", text, &t, &err);
	if (rc == 0) {
		print_error("should be refused:\n%s\n", text);
		iolab_vtrace_free(&t);
		fail();
	}
	assert_int_equal(rc, -EINVAL);
	assert_true(!strncmp(err.msg, "bad.trace", 9));
	assert_null(strchr(err.msg, '\n'));
	va_list ap;
	va_start(ap, text);
	for (const char *p = va_arg(ap, const char *); p; p = va_arg(ap, const char *))
		assert_msg(err.msg, p);
	va_end(ap);
}

static void test_no_measured_time(void **state)
{
	(void)state;
	bad_trace("", "no requests", NULL);
	bad_trace("# only a comment\n\n", "no requests", NULL);
	bad_trace("R Miss 100 8 0 100\nW Miss 200 8 0.0 50\n", "field 'service_us'",
		  "every measured service time is 0", NULL);
	/* one non-zero time is a mean above 0 */
	struct iolab_vtrace t;
	struct iolab_err err = {{0}};
	assert_int_equal(iolab_vtrace_parse("ok.trace", "R Miss 100 8 0 100\nW Miss 200 8 0.5 50\n", &t,
					    &err), 0);
	assert_int_equal(t.n, 2);
	iolab_vtrace_free(&t);
}

static void test_numbers(void **state)
{
	(void)state;
	static const char *const bad[] = {"0x10", "0x1p3", "inf", "nan", "1e999", "1e-400", "-5", "5x", "."};
	for (size_t i = 0; i < sizeof(bad) / sizeof(bad[0]); i++) {
		char text[128];
		snprintf(text, sizeof(text), "R Miss 100 8 500 %s\n", bad[i]);
		bad_trace(text, "bad.trace:1: field 'think_us'", bad[i], NULL);
		snprintf(text, sizeof(text), "R Miss 100 8 %s 100\n", bad[i]);
		bad_trace(text, "bad.trace:1: field 'service_us'", NULL);
	}
	bad_trace("R Miss 1.5 8 500 100\n", "field 'lbn'", NULL);
	/* exponents read as in model files and DiskSim specifications */
	struct iolab_vtrace t;
	struct iolab_err err = {{0}};
	int rc = iolab_vtrace_parse("ok.trace", "R Miss 1e3 8 2.5e3 1E2\n", &t, &err);
	if (rc) {
		print_error("%s\n", err.msg);
		fail();
	}
	assert_int_equal(t.req[0].lbn, 1000);
	assert_true(t.req[0].service_us == 2500);
	assert_true(t.req[0].think_us == 100);
	iolab_vtrace_free(&t);
}

static void write_file(const char *path, const char *text)
{
	FILE *f = fopen(path, "w");
	assert_non_null(f);
	fputs(text, f);
	assert_int_equal(fclose(f), 0);
}

/* Through the binary: exit 2 and the file named, no demerit printed. */
static void test_cli(void **state)
{
	(void)state;
	static const char *const texts[] = {"R Miss 100 8 0 100\nR Miss 108 8 0 100\n", "",
					    "# nothing measured\n"};
	for (size_t i = 0; i < 3; i++) {
		char path[512];
		snprintf(path, sizeof(path), "%s/t%zu.trace", dir, i);
		write_file(path, texts[i]);
		struct th_out o = th_iolab("sim", "validate", "--model", "atlas10k", path, NULL);
		if (o.status != 2)
			print_error("exit %d\nstdout: %s\nstderr: %s\n", o.status, o.out, o.err);
		assert_int_equal(o.status, 2);
		assert_msg(o.err, path);
		assert_null(strstr(o.out, "demerit"));
		th_out_free(&o);
	}
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_no_measured_time),
		cmocka_unit_test(test_numbers),
		cmocka_unit_test(test_cli),
	};
	return cmocka_run_group_tests(tests, setup, teardown);
}
