/* test_db_list.c: `iolab db list` (docs/results-db.md): columns as wide as their longest entry
 * (a long label does not push the rest of its row out of line), --json with every field, and
 * the command line stored as given: in its order (getopt_long permutes argv, moving a target
 * named first to the end) and shell-quoted where needed (--label 'X15 IOMeter', it'\''s). */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <cmocka.h>
#include <jansson.h>

#include "helpers.h"

static char db[512], target[512];

static int setup(void **state)
{
	th_dir_setup(state);
	snprintf(db, sizeof(db), "%s/runs.db", th_dir);
	snprintf(target, sizeof(target), "%s/t.dat", th_dir);
	struct th_out o = th_iolab("run", target, "--size", "1m", "--engine", "psync", "--pattern", "rand-read",
				   "--time", "0.1", "--label", "X15 IOMeter", "--db", db, NULL);
	assert_int_equal(o.status, 0);
	th_out_free(&o);
	o = th_iolab("sim", "--model", "atlas10k", "--pattern", "rand-read", "--time", "0.2", "--label",
		     "it's a rather long label, longer than sixteen", "--db", db, NULL);
	assert_int_equal(o.status, 0);
	th_out_free(&o);
	return 0;
}

/* The column of needle in line (bytes; the labels here are ASCII). */
static long column(const char *line, const char *needle)
{
	const char *c = strstr(line, needle);
	assert_non_null(c);
	return c - line;
}

static void test_list_aligned(void **state)
{
	(void)state;
	struct th_out o = th_iolab("db", "list", "--db", db, NULL);
	assert_int_equal(o.status, 0);
	char *l1 = strchr(o.out, '\n'), *l2;
	assert_non_null(l1);
	l2 = strchr(++l1, '\n');
	assert_non_null(l2);
	l2++;
	long kind = column(o.out, "kind"), points = column(o.out, "points");
	assert_int_equal(column(l1, "  run  ") + 2, kind);
	assert_int_equal(column(l2, "  sim  ") + 2, kind);
	/* the point counts end under "points" */
	assert_int_equal(column(l1, "1   iolab run"), points + 5);
	assert_int_equal(column(l2, "1   iolab sim"), points + 5);
	char want[2048];
	snprintf(want, sizeof(want), "iolab run %s --size 1m --engine psync --pattern rand-read --time 0.1 "
		 "--label 'X15 IOMeter' --db %s\n", target, db);
	assert_non_null(strstr(o.out, want));
	assert_non_null(strstr(o.out, "--label 'it'\\''s a rather long label, longer than sixteen' --db"));
	th_out_free(&o);
}

static void test_list_json(void **state)
{
	(void)state;
	struct th_out o = th_iolab("db", "list", "--json", "--db", db, NULL);
	assert_int_equal(o.status, 0);
	json_error_t je;
	json_t *a = json_loads(o.out, 0, &je);
	assert_non_null(a);
	assert_int_equal(json_array_size(a), 2);
	const json_t *r = json_array_get(a, 0);
	assert_int_equal(json_integer_value(json_object_get(r, "id")), 1);
	assert_string_equal(json_string_value(json_object_get(r, "label")), "X15 IOMeter");
	assert_string_equal(json_string_value(json_object_get(r, "kind")), "run");
	assert_string_equal(json_string_value(json_object_get(r, "target")), target);
	assert_int_equal(json_integer_value(json_object_get(r, "points")), 1);
	assert_true(json_is_false(json_object_get(r, "interrupted")));
	assert_non_null(strstr(json_string_value(json_object_get(r, "command")), "--label 'X15 IOMeter'"));
	assert_string_equal(json_string_value(json_object_get(json_array_get(a, 1), "kind")), "sim");
	json_decref(a);
	th_out_free(&o);
	o = th_iolab("db", "list", "--jsn", "--db", db, NULL);
	TH_EXPECT_EXIT(o, 2, "db list: unknown option '--jsn'");
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_list_aligned),
		cmocka_unit_test(test_list_json),
	};
	return cmocka_run_group_tests(tests, setup, th_dir_teardown);
}
