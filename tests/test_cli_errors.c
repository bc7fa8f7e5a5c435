/* test_cli_errors.c: I/O errors during a run, real ones (not injected). A sparse file on a 4 MiB
 * tmpfs runs out of space under random writes, so writes fail with ENOSPC: by default the run
 * stops, exits 1 naming the failed write, and still writes its JSON (point partial, the error
 * counted by kind with the first one's offset); with --on-error continue it goes on to the end,
 * counts the errors and exits 1 all the same. Skips (exit 77) where tmpfs cannot be mounted. */
#include <errno.h>
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mount.h>
#include <sys/stat.h>
#include <unistd.h>

#include <cmocka.h>
#include <jansson.h>

#include "helpers.h"

static char dir[256], mnt[300], file[320], json[320];

static int setup(void **state)
{
	(void)state;
	snprintf(dir, sizeof(dir), "%s", th_tmpdir());
	snprintf(mnt, sizeof(mnt), "%s/fs", dir);
	snprintf(file, sizeof(file), "%s/sparse.img", mnt);
	snprintf(json, sizeof(json), "%s/out.json", dir);
	if (mkdir(mnt, 0755) || mount("tmpfs", mnt, "tmpfs", 0, "size=4m")) {
		printf("SKIP: cannot mount a small tmpfs (needs root)\n");
		th_rmtree(dir);
		exit(77);
	}
	FILE *f = fopen(file, "w");
	assert_non_null(f);
	assert_int_equal(ftruncate(fileno(f), 64 << 20), 0); /* sparse: writes need new blocks */
	fclose(f);
	return 0;
}

static int teardown(void **state)
{
	(void)state;
	for (int i = 0; i < 50 && umount(mnt) != 0; i++)
		usleep(100 * 1000); /* io_uring may hold the file a moment after exit */
	th_rmtree(dir);
	return 0;
}

static json_t *point0(void)
{
	json_error_t je;
	json_t *root = json_load_file(json, 0, &je);
	assert_non_null(root);
	json_t *p = json_array_get(json_object_get(root, "points"), 0);
	assert_non_null(p);
	json_incref(p);
	json_decref(root);
	return p;
}

static bool warns(json_t *p, const char *needle)
{
	json_t *w;
	size_t i;
	json_array_foreach(json_object_get(p, "warnings"), i, w)
		if (strstr(json_string_value(w), needle))
			return true;
	return false;
}

static void test_error_stops_the_run(void **state)
{
	(void)state;
	struct th_out o = th_iolab("run", file, "--force", "--buffered", "--pattern", "rand-write",
				   "--qd", "1,4", "--time", "2", "--quiet", "--json", json, NULL);
	assert_int_equal(o.status, 1);
	assert_non_null(strstr(o.err, "stopped by an I/O error, a write of 4096 bytes at offset"));
	assert_non_null(strstr(o.err, "(ENOSPC)"));
	json_t *p = point0();
	assert_true(json_is_true(json_object_get(p, "partial")));
	json_int_t errs = json_integer_value(json_object_get(json_object_get(p, "write"), "errors"));
	assert_true(errs >= 1);
	json_t *e = json_object_get(p, "errors");
	assert_int_equal(json_integer_value(json_object_get(e, "count")), errs);
	assert_int_equal(json_integer_value(json_object_get(json_object_get(e, "by_kind"), "enospc_write")),
			 errs);
	json_t *first = json_object_get(e, "first");
	assert_string_equal(json_string_value(json_object_get(first, "op")), "write");
	assert_string_equal(json_string_value(json_object_get(first, "kind")), "enospc_write");
	assert_int_equal(json_integer_value(json_object_get(first, "errno")), ENOSPC);
	assert_true(json_is_integer(json_object_get(first, "offset")));
	assert_true(json_is_null(json_object_get(p, "faults_injected"))); /* nothing injected */
	assert_true(warns(p, "ENOSPC"));
	json_decref(p);
	/* The run stopped at the first point: the second (qd 4) never ran. */
	json_error_t je;
	json_t *root = json_load_file(json, 0, &je);
	assert_int_equal(json_array_size(json_object_get(root, "points")), 1);
	json_decref(root);
	th_out_free(&o);
}

static void test_on_error_continue(void **state)
{
	(void)state;
	struct th_out o = th_iolab("run", file, "--force", "--buffered", "--pattern", "rand-write",
				   "--time", "0.5", "--quiet", "--on-error", "continue", "--json", json,
				   NULL);
	assert_int_equal(o.status, 1); /* it went on, and the run still failed */
	assert_non_null(strstr(o.err, "I/O errors in 1 of 1 point (--on-error continue"));
	json_t *p = point0();
	assert_false(json_is_true(json_object_get(p, "partial")));
	json_int_t errs = json_integer_value(json_object_get(json_object_get(p, "write"), "errors"));
	assert_true(errs > 100);
	assert_int_equal(json_integer_value(json_object_get(json_object_get(p, "errors"), "count")), errs);
	assert_true(warns(p, "I/O errors"));
	json_decref(p);
	th_out_free(&o);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_error_stops_the_run),
		cmocka_unit_test(test_on_error_continue),
	};
	return cmocka_run_group_tests(tests, setup, teardown);
}
