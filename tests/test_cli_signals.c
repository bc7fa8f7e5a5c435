/* test_cli_signals.c: stopping a run with a signal keeps what was measured.
 *
 * `timeout -s INT` signals iolab and then its whole process group, so iolab gets the signal twice
 * in quick succession: the first stops the run, the second must not kill the save. Twenty runs
 * stopped that way, or by two SIGINTs 0 to 40 ms apart, must each leave a complete JSON report
 * marked interrupted and exit 130.
 * SIGTERM does the same and also removes the scratch file the run created. */
#include <limits.h>
#include <setjmp.h>
#include <stdarg.h>
#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <sys/wait.h>
#include <unistd.h>

#include <cmocka.h>
#include <jansson.h>

#include "helpers.h"

/* The report at path is complete and says the run was interrupted; returns its point count. */
static size_t check_interrupted_report(const char *path)
{
	json_t *j = th_load_json(path);
	assert_non_null(j);
	assert_true(json_is_true(json_object_get(j, "interrupted")));
	json_t *points = json_object_get(j, "points");
	size_t n = json_array_size(points);
	assert_true(n >= 1);
	assert_true(json_is_true(json_object_get(json_array_get(points, n - 1), "partial")));
	json_decref(j);
	return n;
}

static void test_sigint_twice_keeps_report(void **state)
{
	(void)state;
	char img[PATH_MAX], json[PATH_MAX];
	snprintf(img, sizeof(img), "%s/scratch.img", th_dir);
	assert_int_equal(th_sh("\"$B\" run '%s' --size 8m --time 50ms --quiet >/dev/null", img), 0);
	for (int i = 0; i < 20; i++) {
		snprintf(json, sizeof(json), "%s/int-%d.json", th_dir, i);
		/* As timeout does it (--preserve-status: its status is iolab's own) ... */
		const char *as_timeout = "timeout --preserve-status -s INT 0.7 \"$B\" run '%s' --time 10 "
					 "--quiet --json '%s' >/dev/null 2>&1";
		/* ... and with 0 to 40 ms between the two signals, which puts the second one anywhere
		 * from "still measuring" to "saving". */
		const char *spaced = "\"$B\" run '%s' --time 10 --quiet --json '%s' >/dev/null 2>&1 & "
				     "p=$!; sleep 0.7; kill -INT $p; sleep 0.0%d; kill -INT $p 2>/dev/null; "
				     "wait $p";
		int rc = i % 2 ? th_sh(spaced, img, json, i % 5) : th_sh(as_timeout, img, json);
		if (rc != 130)
			print_error("run %d: exit %d, want 130\n", i, rc);
		assert_int_equal(rc, 130);
		check_interrupted_report(json);
	}
	assert_true(th_exists(img)); /* SIGINT keeps the scratch file for the next run */
}

static void test_sigterm_removes_scratch(void **state)
{
	(void)state;
	char img[PATH_MAX], json[PATH_MAX];
	snprintf(img, sizeof(img), "%s/term.img", th_dir);
	snprintf(json, sizeof(json), "%s/term.json", th_dir);
	int rc = th_sh("timeout --preserve-status -s TERM 0.7 \"$B\" run '%s' --size 8m --time 10 --quiet "
		    "--json '%s' >/dev/null 2>&1", img, json);
	assert_int_equal(rc, 130);
	check_interrupted_report(json);
	assert_false(th_exists(img));
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_sigint_twice_keeps_report),
		cmocka_unit_test(test_sigterm_removes_scratch),
	};
	return cmocka_run_group_tests(tests, th_dir_setup, th_dir_teardown);
}
