/* test_sim_large.c: a large simulated subsystem is reported whole: four controllers, each with a
 * channel and a RAID 0 volume of 50 drives (214 parts with the host and its stripe over the
 * volumes). Every part is in the JSON's components[] and in --explain's table, and the
 * busiest part (the bottleneck when saturated) is found among all of them: the fourth volume's
 * drives are the slower ibm18es (7,200 rpm against the atlas10k's 10,000), so under an even
 * random load the busiest part is one of them, the last parts listed (beyond the 160 parts the
 * report used to hold). */
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

enum { VOLUMES = 4, DRIVES = 50 };

static void write_subsystem(const char *path)
{
	FILE *f = fopen(path, "w");
	assert_non_null(f);
	for (unsigned v = 0; v < VOLUMES; v++) {
		fprintf(f, "controller c%u\nchannel ch%u controller=c%u type=320M\n", v, v, v);
		for (unsigned d = 0; d < DRIVES; d++)
			fprintf(f, "drive d%u_%u channel=ch%u model=%s\n", v, d, v,
				v == VOLUMES - 1 ? "ibm18es" : "atlas10k");
		fprintf(f, "volume v%u level=raid0 drives=", v);
		for (unsigned d = 0; d < DRIVES; d++)
			fprintf(f, "%sd%u_%u", d ? "," : "", v, d);
		fputc('\n', f);
	}
	assert_int_equal(fclose(f), 0);
}

static void test_every_part_reported(void **state)
{
	(void)state;
	char conf[300], json[300];
	snprintf(conf, sizeof(conf), "%s/large.conf", th_dir);
	snprintf(json, sizeof(json), "%s/large.json", th_dir);
	write_subsystem(conf);
	struct th_out o = th_iolab("sim", "--config", conf, "--qd", "64", "--time", "2", "--explain",
				   "--json", json, "--no-db", "--quiet", NULL);
	assert_int_equal(o.status, 0);
	/* --explain: one row per part; the last drive listed, and the busiest among the last (at
	 * QD 64 over 200 drives none is saturated: no bottleneck, the queue depth limits) */
	assert_non_null(strstr(o.out, " d3_49 "));
	assert_non_null(strstr(o.out, "(the busiest, d3_"));
	th_out_free(&o);
	json_t *j = th_load_json(json);
	assert_non_null(j);
	json_t *p = json_array_get(json_object_get(j, "points"), 0), *c;
	json_t *comps = json_object_get(p, "components");
	unsigned drives = 0;
	size_t i;
	json_array_foreach(comps, i, c)
		drives += !strcmp(json_string_value(json_object_get(c, "kind")), "drive");
	print_message("%zu parts, %u drives, busiest %s\n", json_array_size(comps), drives,
		      json_string_value(json_object_get(p, "busiest")));
	assert_int_equal(json_array_size(comps), 1 + 1 + VOLUMES * 3 + VOLUMES * DRIVES);
	assert_int_equal(drives, VOLUMES * DRIVES);
	assert_string_equal(json_string_value(json_object_get(json_array_get(comps, json_array_size(comps) - 1),
							      "name")), "d3_49");
	assert_memory_equal(json_string_value(json_object_get(p, "busiest")), "d3_", 3);
	json_decref(j);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_every_part_reported),
	};
	return cmocka_run_group_tests(tests, th_dir_setup, th_dir_teardown);
}
