/* test_sim_stop.c: a simulation of a long --time stops on SIGINT or SIGTERM and keeps what it
 * simulated: the table, the JSON report marked interrupted and partial with the simulated I/Os
 * and per-second series, exit 130.
 *
 * The run asks for 2 x 10^8 simulated seconds (its series checked against a --mem-limit that
 * allows them, none of it allocated up front); timeout signals it after half a second. An outer
 * timeout kills a run that does not stop within 20 s (exit 137: the test fails) instead of
 * letting it hang the suite. */
#include <limits.h>
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <cmocka.h>
#include <jansson.h>

#include "helpers.h"

static void stop_with(const char *sig)
{
	char json[PATH_MAX], table[PATH_MAX];
	snprintf(json, sizeof(json), "%s/%s.json", th_dir, sig);
	snprintf(table, sizeof(table), "%s/%s.txt", th_dir, sig);
	int rc = th_sh("timeout -s KILL 20 timeout --preserve-status -s %s 0.5 \"$B\" sim --model "
		       "atlas10k --pattern rand-read --time 200000000 --mem-limit 64g --quiet --no-db "
		       "--json '%s' >'%s' 2>/dev/null", sig, json, table);
	if (rc != 130)
		print_error("SIG%s: exit %d, want 130\n", sig, rc);
	assert_int_equal(rc, 130);
	char *text = th_read_file(table, NULL);
	assert_non_null(strstr(text, "(partial)"));
	free(text);
	json_t *j = th_load_json(json);
	assert_non_null(j);
	assert_true(json_is_true(json_object_get(j, "interrupted")));
	json_t *p = json_array_get(json_object_get(j, "points"), 0);
	assert_true(json_is_true(json_object_get(p, "partial")));
	json_t *rd = json_object_get(p, "read");
	assert_true(json_integer_value(json_object_get(rd, "ios")) > 100);
	assert_true(json_array_size(json_object_get(json_object_get(p, "per_second"), "iops")) >= 1);
	json_decref(j);
}

static void test_sigint_stops_long_sim(void **state)
{
	(void)state;
	stop_with("INT");
}

static void test_sigterm_stops_long_sim(void **state)
{
	(void)state;
	stop_with("TERM");
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_sigint_stops_long_sim),
		cmocka_unit_test(test_sigterm_stops_long_sim),
	};
	return cmocka_run_group_tests(tests, th_dir_setup, th_dir_teardown);
}
