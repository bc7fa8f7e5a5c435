/* test_cli_think.c: --think belongs to --clients (docs/iolab.1): given with --qd instead, before
 * or after it, or with neither, it is refused with one line (exit 2), never silently dropped;
 * --qd after a job file's clients and think time still replaces both. */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdio.h>
#include <string.h>

#include <cmocka.h>

#include "helpers.h"

static void test_think_without_clients_refused(void **state)
{
	(void)state;
	const char *orders[][4] = {{"--think", "5ms", "--qd", "4"}, {"--qd", "4", "--think", "5ms"}};
	for (int i = 0; i < 2; i++) {
		struct th_out o = th_iolab("sim", "--model", "atlas10k", "--pattern", "rand-read", "--bs", "4k",
					   orders[i][0], orders[i][1], orders[i][2], orders[i][3], "--time", "1",
					   "--no-db", NULL);
		TH_EXPECT_EXIT(o, 2, "--think: applies to --clients");
	}
	struct th_out o = th_iolab("run", "--engine", "null", "--pattern", "rand-read", "--bs", "4k", "--think",
				   "exp:1ms", "--qd", "2", "--time", "1", "--no-db", NULL);
	TH_EXPECT_EXIT(o, 2, "--think: applies to --clients");
}

static void test_qd_replaces_job_clients(void **state)
{
	(void)state;
	char job[512];
	snprintf(job, sizeof(job), "%s/clients.job", th_dir);
	th_write_text(job, "[global]\nmodel = atlas10k\npattern = rand-read\nbs = 4k\ntime = 1\n"
		      "clients = 4\nthink = 5ms\n[run one]\n");
	struct th_out o = th_iolab("sim", "--job", job, "--qd", "2", "--no-db", "--json", "-", NULL);
	if (o.status)
		fprintf(stderr, "%s%s", o.out, o.err);
	assert_int_equal(o.status, 0);
	assert_non_null(strstr(o.out, "\"clients\": null"));
	th_out_free(&o);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_think_without_clients_refused),
		cmocka_unit_test(test_qd_replaces_job_clients),
	};
	return cmocka_run_group_tests(tests, th_dir_setup, th_dir_teardown);
}
