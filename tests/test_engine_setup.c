/* test_engine_setup.c: engines that cannot be set up. A libaio run whose workers x queue depth
 * passes the system's AIO budget (/proc/sys/fs/aio-max-nr less aio-nr) is refused before anything
 * is opened, with one line naming both figures (exit 2). A worker whose engine fails to set up
 * after others did (io_uring rings beyond a low open-file limit) ends the run with one line and
 * nothing leaked or freed twice: the sanitizer build (ASan's leak check) runs this too. */
#include <limits.h>
#include <setjmp.h>
#include <stdbool.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <cmocka.h>

#include "helpers.h"

static unsigned long long proc_number(const char *path)
{
	FILE *f = fopen(path, "r");
	unsigned long long v = 0;
	if (!f || fscanf(f, "%llu", &v) != 1)
		v = 0;
	if (f)
		fclose(f);
	return v;
}

static void test_aio_budget_refused(void **state)
{
	(void)state;
	unsigned long long max = proc_number("/proc/sys/fs/aio-max-nr");
	unsigned long long used = proc_number("/proc/sys/fs/aio-nr");
	if (!max || max - used >= 64ull * 4096) {
		printf("SKIP: /proc/sys/fs/aio-max-nr (%llu) leaves room for 64 x 4096 AIO events\n", max);
		skip();
	}
	char img[PATH_MAX];
	snprintf(img, sizeof(img), "%s/aio.img", th_dir);
	struct th_out o = th_iolab("run", img, "--size", "64M", "--engine", "libaio", "--qd", "4096",
				   "--workers", "64", "--time", "2", "--no-db", NULL);
	TH_EXPECT_EXIT(o, 2, "--engine libaio", "262144 AIO events", "64 workers x queue depth 4096",
		       "aio-max-nr", "aio-nr");
	assert_false(th_exists(img)); /* refused before the scratch file was made */
}

/* Each open-file limit from 5 to 12 with 4 io_uring workers: the run either works or stops at
 * the worker that could not get its ring, saying so in one line (no sanitizer report after
 * it); at least one limit must hit that failure. */
static void test_worker_setup_failure_is_clean(void **state)
{
	(void)state;
	char img[PATH_MAX], errf[PATH_MAX];
	snprintf(img, sizeof(img), "%s/ring.img", th_dir);
	snprintf(errf, sizeof(errf), "%s/stderr.txt", th_dir);
	assert_int_equal(th_sh("\"$B\" run '%s' --size 8m --time 50ms --quiet --no-db >/dev/null", img), 0);
	unsigned failures = 0;
	for (int limit = 5; limit <= 12; limit++) {
		int rc = th_sh("(exec 3>&- 4>&- 5>&- 6>&- 7>&- 8>&- 9>&-; ulimit -n %d; \"$B\" run '%s' "
			       "--engine io_uring --workers 4 --time 50ms --quiet --no-db) >/dev/null 2>'%s'",
			       limit, img, errf);
		char *err = th_read_file(errf, NULL);
		bool clean_failure = rc == 2 && th_count_lines(err) == 1 &&
				     strstr(err, "io_uring: cannot set up a ring");
		if (!clean_failure && rc != 0)
			print_error("ulimit -n %d: exit %d\n%s", limit, rc, err);
		free(err);
		assert_true(clean_failure || rc == 0);
		failures += clean_failure;
	}
	assert_true(failures > 0);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_aio_budget_refused),
		cmocka_unit_test(test_worker_setup_failure_is_clean),
	};
	return cmocka_run_group_tests(tests, th_dir_setup, th_dir_teardown);
}
