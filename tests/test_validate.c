/* test_validate.c: the DiskSim validate-trace reader (validate.c) and `iolab sim validate`'s
 * refusals: a trace with no requests, or whose measured service times are all 0, has no
 * measured mean to give the demerit as a share of (docs/validation.md: "as a percentage of the
 * measured mean"), so it is refused with exit 2 naming the file; numbers follow the one rule of
 * iolab's data files (iolab_parse_decimal). */
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

/* Through the binary: exit 2 and the file named, no demerit printed. */
static void test_cli(void **state)
{
	(void)state;
	static const char *const texts[] = {"R Miss 100 8 0 100\nR Miss 108 8 0 100\n", "",
					    "# nothing measured\n"};
	for (size_t i = 0; i < 3; i++) {
		char path[512];
		snprintf(path, sizeof(path), "%s/t%zu.trace", dir, i);
		th_write_text(path, texts[i]);
		struct th_out o = th_iolab("sim", "validate", "--model", "atlas10k", path, NULL);
		if (o.status != 2)
			print_error("exit %d\nstdout: %s\nstderr: %s\n", o.status, o.out, o.err);
		assert_int_equal(o.status, 2);
		assert_msg(o.err, path);
		assert_null(strstr(o.out, "demerit"));
		th_out_free(&o);
	}
}

/* The demerit sorts both distributions: the result must be the sorted order whatever the input
 * order, for any values (zeros, ties, fractions, huge ones), as a plain insertion sort says. */
static void test_demerit_sorts(void **state)
{
	(void)state;
	enum { N = 5000 };
	static double a[N], b[N], ref[N];
	uint64_t x = 12345;
	for (size_t i = 0; i < N; i++) {
		x = x * 6364136223846793005ull + 1442695040888963407ull;
		a[i] = (double)(x >> 40) / 7.0; /* fractions, with ties between equal draws */
		if (i % 97 == 0)
			a[i] = 0;
		if (i % 101 == 0)
			a[i] = 1e300;
		b[i] = a[i];
	}
	memcpy(ref, a, sizeof(ref));
	for (size_t i = 1; i < N; i++) /* the oracle */
		for (size_t j = i; j > 0 && ref[j - 1] > ref[j]; j--) {
			double t = ref[j];
			ref[j] = ref[j - 1];
			ref[j - 1] = t;
		}
	/* Identical distributions are 0 apart, and both come back sorted. */
	assert_true(iolab_demerit(a, b, N) == 0);
	assert_memory_equal(a, ref, sizeof(ref));
	assert_memory_equal(b, ref, sizeof(ref));
	/* Shifting every value by d moves each quantile by d: the RMS distance is d. */
	double c[4] = {3, 1, 2, 4}, d[4] = {4.5, 2.5, 3.5, 5.5};
	assert_true(fabs(iolab_demerit(c, d, 4) - 1.5) < 1e-12);
	assert_true(c[0] == 1 && c[3] == 4 && d[0] == 2.5 && d[3] == 5.5);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_no_measured_time),
		cmocka_unit_test(test_numbers),
		cmocka_unit_test(test_cli),
		cmocka_unit_test(test_demerit_sorts),
	};
	return cmocka_run_group_tests(tests, setup, teardown);
}
