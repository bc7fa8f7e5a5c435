/* test_cli_numbers.c: numbers and options that were taken as given. A price of 0 or below is
 * refused by `run --price` and `compare --price`; `probe` reads --seed, --time and --jitter with
 * the project's parsers (--seed -1, a hexadecimal --time refused) and refuses a regular file (a
 * file has no drive geometry: bad input, exit 2, not "does not rotate", exit 3); a job file
 * section refuses a repeated option whatever its place in the option table. */
#include <limits.h>
#include <setjmp.h>
#include <stdarg.h>
#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <string.h>

#include <cmocka.h>

#include "helpers.h"
#include "iolab/run.h"

static void path_in(char *buf, size_t n, const char *name)
{
	snprintf(buf, n, "%s/%s", th_dir, name);
}

static void test_price_above_zero(void **state)
{
	(void)state;
	struct th_out o;
	static const char *const labels[] = {"p1", "p2", "p3"};
	for (unsigned i = 0; i < 3; i++) {
		o = th_iolab("run", "--engine", "null", "--time", "0.1", "--quiet", "--label", labels[i],
			     NULL);
		assert_int_equal(o.status, 0);
		th_out_free(&o);
	}
	o = th_iolab("compare", "p1", "p2", "p3", "--price", "p2=0", NULL);
	TH_EXPECT_EXIT(o, 2, "--price", "'0'", "more than 0");
	o = th_iolab("compare", "p1", "p2", "p3", "--price", "p2=-3", NULL);
	TH_EXPECT_EXIT(o, 2, "--price", "'-3'", "more than 0");
	o = th_iolab("run", "--engine", "null", "--time", "0.1", "--price", "0", NULL);
	TH_EXPECT_EXIT(o, 2, "--price", "'0'", "more than 0");
	o = th_iolab("compare", "p1", "p2", "p3", "--price", "p2=250", NULL);
	assert_int_equal(o.status, 0);
	th_out_free(&o);
}

static void test_probe_options(void **state)
{
	(void)state;
	char out[PATH_MAX];
	path_in(out, sizeof(out), "x.model");
	struct th_out o = th_iolab("probe", "--model", "atlas10k", "-o", out, "--seed", "-1", NULL);
	TH_EXPECT_EXIT(o, 2, "--seed", "'-1'");
	o = th_iolab("probe", "--model", "atlas10k", "-o", out, "--seed", "18446744073709551616", NULL);
	TH_EXPECT_EXIT(o, 2, "--seed");
	o = th_iolab("probe", "--model", "atlas10k", "-o", out, "--time", "0x20", NULL);
	TH_EXPECT_EXIT(o, 2, "--time", "'0x20'");
	o = th_iolab("probe", "--model", "atlas10k", "-o", out, "--time", "0.5", NULL);
	TH_EXPECT_EXIT(o, 2, "--time", "1 s");
	o = th_iolab("probe", "--model", "atlas10k", "-o", out, "--jitter", "20,,1", NULL);
	TH_EXPECT_EXIT(o, 2, "--jitter");
	o = th_iolab("probe", "--model", "atlas10k", "-o", out, "--jitter", "1e1x", NULL);
	TH_EXPECT_EXIT(o, 2, "--jitter");
	assert_false(th_exists(out));
}

static void test_probe_refuses_a_file(void **state)
{
	(void)state;
	char file[PATH_MAX], out[PATH_MAX];
	path_in(file, sizeof(file), "plain.img");
	path_in(out, sizeof(out), "file.model");
	th_make_file(file, 64u << 20);
	struct th_out o = th_iolab("probe", file, "-o", out, "--time", "5", NULL);
	TH_EXPECT_EXIT(o, 2, file, "regular file", "block device");
	assert_false(th_exists(out));
}

/* A value option name takes (the first of a few that the option table's parser accepts). */
static const char *value_for(const char *name)
{
	static const char *const candidates[] = {"1", "null", "uniform", "iops", "stop", "none",
						 "raid5:4", "rand-read", "sas2", "pcie2x8", "write-back", "64k",
						 "crc32c", "random", "eio@1", "atlas10k", "controller.cache=1m",
						 "shared"};
	for (unsigned i = 0; i < sizeof(candidates) / sizeof(candidates[0]); i++) {
		struct iolab_config c;
		iolab_config_init(&c);
		if (!iolab_config_set(&c, name, candidates[i], NULL))
			return candidates[i];
	}
	fail_msg("no value for option '%s' among the candidates", name);
	return NULL;
}

/* Every option of the table given twice in one section is refused, the last ones included. */
static void test_job_repeats_every_option(void **state)
{
	(void)state;
	char job[PATH_MAX];
	path_in(job, sizeof(job), "twice.job");
	for (unsigned i = 0; i < iolab_option_count(); i++) {
		const struct iolab_option *opt = iolab_option_at(i);
		if (iolab_option_repeatable(opt->name))
			continue;
		const char *v = value_for(opt->name);
		FILE *f = fopen(job, "w");
		assert_non_null(f);
		fprintf(f, "[run twice]\n%s = %s\n%s = %s\n", opt->name, v, opt->name, v);
		assert_int_equal(fclose(f), 0);
		struct th_out o = iolab_option_real(opt->name)
				  ? th_iolab("run", "--job", job, NULL)
				  : th_iolab("sim", "--model", "atlas10k", "--job", job, NULL);
		char field[64];
		snprintf(field, sizeof(field), "field '%s'", opt->name);
		TH_EXPECT_EXIT(o, 2, "twice.job:3", field, "already given on line 2");
	}
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_price_above_zero),
		cmocka_unit_test(test_probe_options),
		cmocka_unit_test(test_probe_refuses_a_file),
		cmocka_unit_test(test_job_repeats_every_option),
	};
	return cmocka_run_group_tests(tests, th_dir_setup, th_dir_teardown);
}
