/* test_table_text.c: what the readable table says (docs/iolab.1, OUTPUT): latencies scaled to
 * us, ms or s with their unit (a simulated seek of milliseconds is not "9204.9"); the cpu u/s
 * column "-" in virtual time, where the CPU iolab used measures nothing; warnings of one kind on
 * several points grouped into one line with the points and each number's range, while the JSON
 * keeps each point's own warning. */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <cmocka.h>
#include <jansson.h>

#include "helpers.h"

/* The row of point n (1-based) of a table, copied into buf. */
static const char *row(const char *out, unsigned n, char *buf, size_t size)
{
	char want[16];
	snprintf(want, sizeof(want), "\n%3u ", n);
	const char *r = strstr(out, want);
	assert_non_null(r);
	r++;
	size_t len = strcspn(r, "\n");
	snprintf(buf, size, "%.*s", (int)len, r);
	return buf;
}

static void test_sim_table(void **state)
{
	(void)state;
	char json[512];
	snprintf(json, sizeof(json), "%s/sim.json", th_dir);
	struct th_out o = th_iolab("sim", "--model", "sas15k", "--pattern", "rand-read,seq-read", "--bs", "4k",
				   "--qd", "1,16", "--time", "1", "--no-db", "--json", json, NULL);
	if (o.status)
		fprintf(stderr, "%s%s", o.out, o.err);
	assert_int_equal(o.status, 0);
	assert_non_null(strstr(o.out, "mean lat   p99 lat   max lat"));
	char r[512];
	for (unsigned n = 1; n <= 4; n++) {
		row(o.out, n, r, sizeof(r));
		size_t len = strlen(r);
		assert_true(len > 2 && !strcmp(r + len - 2, " -")); /* cpu u/s, not 0/0 */
	}
	/* rand-read at qd 16 waits tens of milliseconds: "ms", never 5 digits of microseconds */
	row(o.out, 2, r, sizeof(r));
	assert_non_null(strstr(r, " ms "));
	for (const char *c = r; *c; c++)
		assert_false(strspn(c, "0123456789") >= 5 && c[strspn(c, "0123456789")] == '.');
	row(o.out, 3, r, sizeof(r)); /* seq-read at qd 1: tens of microseconds */
	assert_non_null(strstr(r, " us "));
	/* the two rand-read points' "only N I/Os" in one line; the JSON keeps one per point */
	unsigned lines = 0;
	for (const char *c = strstr(o.out, "  ! "); c; c = strstr(c + 1, "  ! "))
		lines++;
	assert_int_equal(lines, 1);
	const char *g = strstr(o.out, "  ! 2 points (1-2): only ");
	assert_non_null(g);
	assert_non_null(strstr(g, " I/Os: p99 and above rest on fewer than 100 samples"));
	assert_non_null(strstr(o.out, "(- in virtual time)"));
	th_out_free(&o);
	json_t *doc = th_load_json(json);
	assert_non_null(doc);
	for (size_t i = 0; i < 2; i++) {
		const json_t *w = json_object_get(json_array_get(json_object_get(doc, "points"), i), "warnings");
		assert_int_equal(json_array_size(w), 1);
		assert_non_null(strstr(json_string_value(json_array_get(w, 0)), "only "));
	}
	json_decref(doc);
}

static void test_measured_cpu_kept(void **state)
{
	(void)state;
	struct th_out o = th_iolab("run", "--engine", "null", "--pattern", "rand-read", "--bs", "4k", "--time",
				   "0.2", "--no-db", NULL);
	assert_int_equal(o.status, 0);
	char r[512];
	row(o.out, 1, r, sizeof(r));
	assert_non_null(strchr(r, '/')); /* user/system CPU % */
	assert_null(strstr(o.out, "(- in virtual time)"));
	th_out_free(&o);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_sim_table),
		cmocka_unit_test(test_measured_cpu_kept),
	};
	return cmocka_run_group_tests(tests, th_dir_setup, th_dir_teardown);
}
