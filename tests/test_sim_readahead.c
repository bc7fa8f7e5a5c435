/* test_sim_readahead.c: a controller's adaptive read-ahead on a sequential stream with many
 * reads in flight: a RAID 5 of three sas15k drives behind a 64 MiB cache, 64 KiB sequential
 * reads at QD 1 and QD 16 (virtual time: the figures are exact and repeat).
 *
 * A deeper queue is not slower than QD 1; the controller's hit ratio does not fall below QD 1's
 * (reads finding their blocks in the cache or on their way from a read-ahead); and the volume
 * below reads each block once: no more bytes than the host asked for plus one read-ahead window
 * (reads in flight that each missed used to read the same blocks again, each with its own
 * read-ahead: twice the bytes). */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <string.h>

#include <cmocka.h>
#include <jansson.h>

#include "helpers.h"

/* The component called name of point p. */
static json_t *component(json_t *p, const char *name)
{
	json_t *c;
	size_t i;
	json_array_foreach(json_object_get(p, "components"), i, c)
		if (!strcmp(json_string_value(json_object_get(c, "name")), name))
			return c;
	fail_msg("no component '%s'", name);
	return NULL;
}

static double number(json_t *o, const char *key)
{
	json_t *v = json_object_get(o, key);
	assert_non_null(v);
	return json_number_value(v);
}

static void test_deep_queue_keeps_read_ahead(void **state)
{
	(void)state;
	char json[300];
	snprintf(json, sizeof(json), "%s/ra.json", th_dir);
	struct th_out o = th_iolab("sim", "--array", "raid5:3", "--drive", "sas15k", "--cache", "64m",
				   "--read-ahead", "adaptive", "--pattern", "seq-read", "--bs", "64k",
				   "--qd", "1,16", "--time", "10", "--no-db", "--quiet", "--json", json,
				   NULL);
	assert_int_equal(o.status, 0);
	th_out_free(&o);
	json_t *j = th_load_json(json);
	assert_non_null(j);
	json_t *pts = json_object_get(j, "points");
	assert_int_equal(json_array_size(pts), 2);
	double mb[2], hit[2];
	for (size_t i = 0; i < 2; i++) {
		json_t *p = json_array_get(pts, i);
		json_t *ctl = component(p, "controller"), *vol = component(p, "volume");
		mb[i] = number(p, "mb_per_s");
		hit[i] = number(ctl, "cache_hits") / number(ctl, "ios");
		double host = number(ctl, "bytes"), below = number(vol, "bytes");
		print_message("QD %s: %.1f MB/s, controller hits %.1f %%, volume read %.3f x the host's "
			      "bytes\n", i ? "16" : "1", mb[i], 100 * hit[i], below / host);
		assert_true(below <= host + 64 * 1024);
	}
	assert_true(mb[1] >= mb[0]);
	assert_true(hit[1] >= hit[0]);
	assert_true(hit[0] >= 0.45);
	json_decref(j);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_deep_queue_keeps_read_ahead),
	};
	return cmocka_run_group_tests(tests, th_dir_setup, th_dir_teardown);
}
