/* test_sim_explain.c: --explain and the JSON name a bottleneck only when a part is saturated
 * (90 % busy or more); below that they say that none is and what load was offered.
 *
 * Two atlas10k drives striped on one Wide Ultra SCSI channel, 64 KiB sequential reads: at QD 1
 * the channel is the busiest part at about 61 % and nothing is saturated (the queue depth
 * limits); at QD 8 the channel is busy all the time: the bottleneck. With four clients thinking
 * 100 ms the load, not the path, limits, and --explain says so in the clients' terms. */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <string.h>

#include <cmocka.h>
#include <jansson.h>

#include "helpers.h"

static const char *field(json_t *p, const char *key)
{
	json_t *v = json_object_get(p, key);
	assert_non_null(v);
	return json_is_null(v) ? NULL : json_string_value(v);
}

static void test_bottleneck_only_when_saturated(void **state)
{
	(void)state;
	char json[300];
	snprintf(json, sizeof(json), "%s/explain.json", th_dir);
	struct th_out o = th_iolab("sim", "--array", "raid0:2", "--drive", "atlas10k", "--channel",
				   "wide-ultra-scsi", "--pattern", "seq-read", "--bs", "64k", "--qd",
				   "1,8", "--time", "5", "--explain", "--json", json, "--no-db",
				   "--quiet", NULL);
	assert_int_equal(o.status, 0);
	assert_non_null(strstr(o.out, "  1 no bottleneck: no part is 90 % busy or more (the busiest, "
				     "channel, "));
	assert_non_null(strstr(o.out, "the offered load limits: queue depth 1\n"));
	assert_null(strstr(o.out, "  1 bottleneck"));
	assert_non_null(strstr(o.out, "  2 bottleneck: channel ("));
	th_out_free(&o);
	json_t *j = th_load_json(json);
	assert_non_null(j);
	json_t *p1 = json_array_get(json_object_get(j, "points"), 0);
	json_t *p2 = json_array_get(json_object_get(j, "points"), 1);
	assert_null(field(p1, "bottleneck"));
	assert_string_equal(field(p1, "busiest"), "channel");
	assert_string_equal(field(p1, "limited_by"), "load");
	assert_string_equal(field(p2, "bottleneck"), "channel");
	assert_string_equal(field(p2, "busiest"), "channel");
	assert_string_equal(field(p2, "limited_by"), "part");
	json_decref(j);
}

static void test_clients_load_named(void **state)
{
	(void)state;
	struct th_out o = th_iolab("sim", "--array", "raid5:4", "--drive", "atlas10k", "--cache", "8m",
				   "--clients", "4", "--think", "100ms", "--time", "5", "--explain",
				   "--no-db", "--quiet", NULL);
	assert_int_equal(o.status, 0);
	assert_non_null(strstr(o.out, "no bottleneck"));
	assert_non_null(strstr(o.out, "the offered load limits: 4 clients per worker, each thinking "
				     "100 ms\n"));
	th_out_free(&o);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_bottleneck_only_when_saturated),
		cmocka_unit_test(test_clients_load_named),
	};
	return cmocka_run_group_tests(tests, th_dir_setup, th_dir_teardown);
}
