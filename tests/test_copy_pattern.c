/* test_copy_pattern.c: the copy pattern (a read of the region's first half, then a write of the
 * same block of the other): --bytes N copies N bytes, N read and N written (docs/iolab.1,
 * --bytes), and the table says what was copied, in how long, at what rate, beside the MB/s
 * column that counts reads and writes together. */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdio.h>
#include <string.h>

#include <cmocka.h>
#include <jansson.h>

#include "helpers.h"

static void test_copy_bytes(void **state)
{
	(void)state;
	char json[512];
	snprintf(json, sizeof(json), "%s/copy.json", th_dir);
	struct th_out o = th_iolab("sim", "--model", "atlas10k", "--pattern", "copy", "--bytes", "4m", "--no-db",
				   "--json", json, NULL);
	if (o.status)
		fprintf(stderr, "%s%s", o.out, o.err);
	assert_int_equal(o.status, 0);
	json_t *doc = th_load_json(json);
	assert_non_null(doc);
	const json_t *p = json_array_get(json_object_get(doc, "points"), 0);
	assert_int_equal(json_integer_value(json_object_get(json_object_get(p, "read"), "bytes")), 4 << 20);
	assert_int_equal(json_integer_value(json_object_get(json_object_get(p, "write"), "bytes")), 4 << 20);
	double s = json_number_value(json_object_get(p, "seconds"));
	assert_true(s > 0);
	char want[128];
	snprintf(want, sizeof(want), "  1 copy: 4m copied (read, then written) in %.2f s: %.2f MB/s copied", s,
		 4194304 / s / 1e6);
	assert_non_null(strstr(o.out, want));
	json_decref(doc);
	th_out_free(&o);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_copy_bytes),
	};
	return cmocka_run_group_tests(tests, th_dir_setup, th_dir_teardown);
}
