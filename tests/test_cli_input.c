/* test_cli_input.c: the CLI's handling of bad input. Every bad option value, unknown option,
 * missing value, missing or unusable target and broken job file ends with exit status 2 and
 * exactly one line on stderr that names the option (or the file:line and field) involved; the
 * help texts exit 0. Runs the real binary ($IOLAB_BIN) through th_iolab; job files live in
 * tests/data. */
#include <errno.h>
#include <fcntl.h>
#include <grp.h>
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

#include "helpers.h"
#include "iolab/run.h"

#define FILE_SIZE (4u << 20)

/* The scratch directory of the whole group, with a 4 MiB file of zeros iolab did not create. */
static char dir[256];
static char file[PATH_MAX];

static int group_setup(void **state)
{
	(void)state;
	snprintf(dir, sizeof(dir), "%s", th_tmpdir());
	snprintf(file, sizeof(file), "%s/plain.img", dir);
	th_make_file(file, FILE_SIZE);
	return 0;
}

static int group_teardown(void **state)
{
	(void)state;
	if (*dir)
		th_rmtree(dir);
	return 0;
}

/* Path of NAME in tests/data. */
static void data_file(char *buf, size_t n, const char *name)
{
	char rel[256];
	snprintf(rel, sizeof(rel), "%s", name);
	th_data_path(buf, n, rel);
}

static unsigned count_lines(const char *s)
{
	unsigned n = 0;
	for (; *s; s++)
		n += *s == '\n';
	return n;
}

/* Checks that o is a refusal of bad input: exit status 2, nothing on stdout, exactly one line on
 * stderr (starting "iolab: ") that contains every needle. Frees o. */
static void expect_bad_(int line, struct th_out *o, const char *const *needles)
{
	bool ok = o->status == 2 && !*o->out && count_lines(o->err) == 1 &&
		  o->err[strlen(o->err) - 1] == '\n' && !strncmp(o->err, "iolab: ", 7);
	const char *missing = NULL;
	for (const char *const *n = needles; *n && !missing; n++)
		if (!strstr(o->err, *n))
			missing = *n;
	if (!ok || missing) {
		print_error("case at line %d: status %d (want 2), %u stderr line(s) (want 1)%s%s%s\n"
			    "--- stderr:\n%s--- stdout:\n%s---\n",
			    line, o->status, count_lines(o->err), missing ? ", missing '" : "",
			    missing ? missing : "", missing ? "'" : "", o->err, o->out);
		th_out_free(o);
		fail_msg("bad input not reported as expected (see above)");
	}
	th_out_free(o);
}
#define EXPECT_BAD(o, ...) \
	expect_bad_(__LINE__, &(o), (const char *const[]){__VA_ARGS__, NULL})

/* Runs `iolab run --engine null --time 0.1 EXTRA...`: the options under test come last. */
#define RUN_NULL(...) th_iolab("run", "--engine", "null", "--time", "0.1", __VA_ARGS__, NULL)

/* ---- option values ---- */

static void test_unknown_pattern(void **state)
{
	(void)state;
	struct th_out o = RUN_NULL("--pattern", "nope");
	EXPECT_BAD(o, "--pattern", "'nope'");
	o = RUN_NULL("--pattern", "rand-read,nope");
	EXPECT_BAD(o, "--pattern", "'nope'");
}

static void test_unknown_engine(void **state)
{
	(void)state;
	struct th_out o = th_iolab("run", "--engine", "warp-drive", "--time", "0.1", NULL);
	EXPECT_BAD(o, "--engine", "warp-drive");
}

static void test_bad_sizes(void **state)
{
	(void)state;
	struct th_out o = RUN_NULL("--bs", "4x");
	EXPECT_BAD(o, "--bs", "4x");
	o = RUN_NULL("--size", "-1");
	EXPECT_BAD(o, "--size", "-1");
	o = RUN_NULL("--bs", "0");
	EXPECT_BAD(o, "--bs", "0");
	o = RUN_NULL("--bs", "4k,,8k");
	EXPECT_BAD(o, "--bs");
	o = RUN_NULL("--length", "0");
	EXPECT_BAD(o, "--length");
	o = th_iolab("run", "--engine", "null", "--bytes", "ten", NULL);
	EXPECT_BAD(o, "--bytes", "ten");
}

static void test_bad_percentages(void **state)
{
	(void)state;
	struct th_out o = RUN_NULL("--read", "101");
	EXPECT_BAD(o, "--read", "101");
	o = RUN_NULL("--read", "50,-3");
	EXPECT_BAD(o, "--read", "-3");
	o = RUN_NULL("--stroke", "0");
	EXPECT_BAD(o, "--stroke");
	o = RUN_NULL("--stroke", "150");
	EXPECT_BAD(o, "--stroke", "150");
}

static void test_bad_qd(void **state)
{
	(void)state;
	struct th_out o = RUN_NULL("--qd", "0");
	EXPECT_BAD(o, "--qd", "0");
	o = RUN_NULL("--qd", "x");
	EXPECT_BAD(o, "--qd", "'x'");
	o = RUN_NULL("--qd", "1,4,100000");
	EXPECT_BAD(o, "--qd", "100000");
	o = RUN_NULL("--workers", "0");
	EXPECT_BAD(o, "--workers");
}

static void test_bad_other_values(void **state)
{
	(void)state;
	struct th_out o = RUN_NULL("--time", "0");
	EXPECT_BAD(o, "--time");
	o = th_iolab("run", "--engine", "null", "--time", "soon", NULL);
	EXPECT_BAD(o, "--time", "soon");
	o = RUN_NULL("--on-error", "panic");
	EXPECT_BAD(o, "--on-error", "panic");
	o = RUN_NULL("--repeat", "0");
	EXPECT_BAD(o, "--repeat");
	o = RUN_NULL("--seed", "-5");
	EXPECT_BAD(o, "--seed", "-5");
}

/* ---- the command line itself ---- */

static void test_unknown_option(void **state)
{
	(void)state;
	struct th_out o = RUN_NULL("--frobnicate");
	EXPECT_BAD(o, "--frobnicate", "unknown option");
	o = RUN_NULL("--qd", "4", "--frobnicate=3");
	EXPECT_BAD(o, "--frobnicate", "unknown option");
}

/* An unknown short option is unknown, not "missing a value". */
static void test_unknown_short_option(void **state)
{
	(void)state;
	struct th_out o = RUN_NULL("-x");
	EXPECT_BAD(o, "-x", "unknown option");
}

static void test_missing_option_value(void **state)
{
	(void)state;
	struct th_out o = th_iolab("run", "--engine", "null", "--qd", NULL);
	EXPECT_BAD(o, "--qd", "value");
	o = th_iolab("run", "--engine", "null", "--time", "0.1", "--json", NULL);
	EXPECT_BAD(o, "--json", "value");
	o = th_iolab("run", "--engine", "null", "--time", "0.1", "--job", NULL);
	EXPECT_BAD(o, "--job", "value");
	o = th_iolab("run", "--engine", NULL);
	EXPECT_BAD(o, "--engine", "value");
}

/* A flag given a value (--force=yes) is reported as such, not as a missing value. */
static void test_flag_with_value(void **state)
{
	(void)state;
	struct th_out o = RUN_NULL("--force=yes");
	bool wrong = strstr(o.err, "needs a value") != NULL;
	if (wrong)
		print_error("stderr: %s", o.err);
	EXPECT_BAD(o, "--force");
	assert_false(wrong);
}

static void test_job_and_default_together(void **state)
{
	(void)state;
	char job[PATH_MAX];
	data_file(job, sizeof(job), "two_runs.job");
	struct th_out o = th_iolab("run", "--job", job, "--default", NULL);
	EXPECT_BAD(o, "--job", "--default");
}

/* ---- targets ---- */

static void test_missing_target(void **state)
{
	(void)state;
	struct th_out o = th_iolab("run", NULL);
	EXPECT_BAD(o, "target");
	o = th_iolab("run", "--time", "0.1", "--qd", "2", NULL);
	EXPECT_BAD(o, "target");
}

static void test_nonexistent_target(void **state)
{
	(void)state;
	char path[PATH_MAX];
	snprintf(path, sizeof(path), "%s/does-not-exist.img", dir);
	/* a missing file is made as a 1 GiB scratch file, saying so */
	struct th_out o = th_iolab("run", "--time", "0.1", "--pattern", "seq-read", "--bs", "1m", path,
				   "--no-db", NULL);
	assert_int_equal(o.status, 0);
	assert_non_null(strstr(o.err, "creating a scratch file of 1 GiB"));
	th_out_free(&o);
	struct stat st;
	assert_int_equal(stat(path, &st), 0);
	assert_int_equal(st.st_size, 1 << 30);
	unlink(path);
	/* but a missing device is a typo: refused, and nothing made in /dev */
	o = th_iolab("run", "--time", "0.1", "/dev/iolab-no-such-disk", NULL);
	EXPECT_BAD(o, "/dev/iolab-no-such-disk", "--size");
	assert_int_equal(access("/dev/iolab-no-such-disk", F_OK), -1);
	snprintf(path, sizeof(path), "%s/no-such-dir/x.img", dir);
	o = th_iolab("run", "--time", "0.1", "--size", "1m", path, NULL);
	EXPECT_BAD(o, path);
}

/* Runs $IOLAB_BIN with argv as the unprivileged user nobody (when we are root), so that file
 * permissions apply. Returns false when privileges cannot be dropped. */
static bool run_unprivileged(const char *const *args, struct th_out *res)
{
	const char *bin = getenv("IOLAB_BIN");
	if (!bin)
		bin = "build/iolab";
	const char *argv[32] = {bin};
	unsigned n = 1;
	for (; args[n - 1] && n < 31; n++)
		argv[n] = args[n - 1];
	argv[n] = NULL;
	FILE *out = tmpfile(), *err = tmpfile();
	assert_non_null(out);
	assert_non_null(err);
	fflush(NULL);
	pid_t pid = fork();
	assert_true(pid >= 0);
	if (pid == 0) {
		dup2(fileno(out), 1);
		dup2(fileno(err), 2);
		if (geteuid() == 0 &&
		    (setgroups(0, NULL) || setgid(65534) || setuid(65534) || setuid(0) == 0))
			_exit(125); /* could not drop root for good */
		execv(bin, (char *const *)argv);
		_exit(127);
	}
	int st = 0;
	waitpid(pid, &st, 0);
	struct th_out o = {.status = WIFEXITED(st) ? WEXITSTATUS(st) : 128 + WTERMSIG(st)};
	for (int i = 0; i < 2; i++) {
		FILE *f = i ? err : out;
		fseek(f, 0, SEEK_END);
		long len = ftell(f);
		char *buf = calloc(1, (size_t)(len > 0 ? len : 0) + 1);
		assert_non_null(buf);
		rewind(f);
		size_t got = fread(buf, 1, (size_t)(len > 0 ? len : 0), f);
		buf[got] = 0;
		*(i ? &o.err : &o.out) = buf;
		fclose(f);
	}
	if (o.status == 125) {
		th_out_free(&o);
		return false;
	}
	*res = o;
	return true;
}

static void test_permission_denied(void **state)
{
	(void)state;
	/* Root ignores file modes, so (when we are root) the runs below drop to user nobody; the
	 * group's directory must then be reachable for that user. */
	char locked[PATH_MAX], sub[PATH_MAX], created[PATH_MAX + 16];
	snprintf(locked, sizeof(locked), "%s/locked.img", dir);
	snprintf(sub, sizeof(sub), "%s/readonly-dir", dir);
	snprintf(created, sizeof(created), "%s/new.img", sub);
	th_make_file(locked, 1 << 20);
	assert_int_equal(chmod(locked, 0), 0);
	assert_int_equal(mkdir(sub, 0755), 0);
	assert_int_equal(chmod(sub, 0555), 0); /* no one but root may create in it */
	assert_int_equal(chmod(dir, 0755), 0);

	struct th_out o;
	/* --no-db: nobody cannot write the results store in this program's XDG_DATA_HOME */
	const char *read_args[] = {"run", "--time", "0.1", "--no-db", locked, NULL};
	if (!run_unprivileged(read_args, &o)) {
		chmod(dir, 0700);
		printf("SKIP: cannot drop root privileges to produce EACCES\n");
		skip();
	}
	EXPECT_BAD(o, locked, "Permission denied");

	const char *create_args[] = {"run", "--time", "0.1", "--size", "1m", "--no-db", created, NULL};
	assert_true(run_unprivileged(create_args, &o));
	EXPECT_BAD(o, created, "Permission denied");
	assert_int_equal(access(created, F_OK), -1);
	chmod(dir, 0700);
}

static void test_target_smaller_than_region(void **state)
{
	(void)state;
	struct th_out o = th_iolab("run", "--time", "0.1", "--length", "8m", file, NULL);
	EXPECT_BAD(o, file, "length");
	o = th_iolab("run", "--time", "0.1", "--offset", "3m", "--length", "2m", file, NULL);
	EXPECT_BAD(o, file, "offset");
	o = th_iolab("run", "--time", "0.1", "--offset", "4m", file, NULL);
	EXPECT_BAD(o, file);
	/* --size larger than an existing file iolab did not create: never grown. */
	o = th_iolab("run", "--time", "0.1", "--size", "8m", file, NULL);
	EXPECT_BAD(o, file, "--size");
	struct stat st;
	assert_int_equal(stat(file, &st), 0);
	assert_int_equal(st.st_size, FILE_SIZE);
}

static void test_direct_alignment(void **state)
{
	(void)state;
	struct th_out o = th_iolab("run", "--time", "0.1", "--bs", "1000", "--direct", file, NULL);
	EXPECT_BAD(o, file, "1000", "--direct");
	o = th_iolab("run", "--time", "0.1", "--bs", "4k,1000", file, NULL); /* direct is the default */
	EXPECT_BAD(o, file, "1000", "--direct");
	o = th_iolab("run", "--time", "0.1", "--offset", "100", file, NULL);
	EXPECT_BAD(o, "--offset", "100", "--direct");
	/* The same sizes are fine through the page cache. */
	o = th_iolab("run", "--time", "0.1", "--bs", "1000", "--buffered", file, NULL);
	int st = o.status;
	if (st != 0)
		print_error("stderr: %s", o.err);
	th_out_free(&o);
	assert_int_equal(st, 0);
}

static void test_unusable_targets(void **state)
{
	(void)state;
	struct th_out o = th_iolab("run", "--time", "0.1", dir, NULL);
	EXPECT_BAD(o, dir, "neither");
	o = th_iolab("run", "--time", "0.1", "/dev/null", NULL);
	EXPECT_BAD(o, "/dev/null");
	o = th_iolab("run", "--time", "0.1", "--stroke", "50", "--length", "1m", file, NULL);
	EXPECT_BAD(o, "--stroke", "--length");
}

/* An output file that cannot be written is bad input like any other: exit 2 with one line
 * naming it (and, ideally, found before the measurement rather than after it). */
static void test_unwritable_output_path(void **state)
{
	(void)state;
	char path[PATH_MAX];
	snprintf(path, sizeof(path), "%s/no-such-dir/out.json", dir);
	struct th_out o = RUN_NULL("--json", path);
	EXPECT_BAD(o, path);
	snprintf(path, sizeof(path), "%s/no-such-dir/out.csv", dir);
	o = RUN_NULL("--csv", path);
	EXPECT_BAD(o, path);
}

/* ---- job files ---- */

static void test_job_bad_share(void **state)
{
	(void)state;
	char job[PATH_MAX];
	data_file(job, sizeof(job), "bad_share.job");
	struct th_out o = th_iolab("run", "--job", job, NULL);
	EXPECT_BAD(o, job, "half-mix", "100");
}

static void test_job_unknown_option(void **state)
{
	(void)state;
	char job[PATH_MAX], where[PATH_MAX + 8];
	data_file(job, sizeof(job), "bad_option.job");
	snprintf(where, sizeof(where), "%s:5:", job);
	struct th_out o = th_iolab("run", "--job", job, NULL);
	EXPECT_BAD(o, where, "frobnicate");
}

static void test_job_bad_value(void **state)
{
	(void)state;
	char job[PATH_MAX], where[PATH_MAX + 8];
	data_file(job, sizeof(job), "bad_value.job");
	snprintf(where, sizeof(where), "%s:6:", job);
	struct th_out o = th_iolab("run", "--job", job, NULL);
	EXPECT_BAD(o, where, "qd", "4x");
}

static void test_job_bad_pattern_field(void **state)
{
	(void)state;
	char job[PATH_MAX], where[PATH_MAX + 8];
	data_file(job, sizeof(job), "bad_spec_field.job");
	snprintf(where, sizeof(where), "%s:4:", job);
	struct th_out o = th_iolab("run", "--job", job, NULL);
	EXPECT_BAD(o, where, "field 'read'", "abc");
}

static void test_job_text_before_section(void **state)
{
	(void)state;
	char job[PATH_MAX], where[PATH_MAX + 8];
	data_file(job, sizeof(job), "text_before_section.job");
	snprintf(where, sizeof(where), "%s:2:", job);
	struct th_out o = th_iolab("run", "--job", job, NULL);
	EXPECT_BAD(o, where, "section");
}

static void test_job_unknown_section(void **state)
{
	(void)state;
	char job[PATH_MAX], where[PATH_MAX + 8];
	data_file(job, sizeof(job), "unknown_section.job");
	snprintf(where, sizeof(where), "%s:5:", job);
	struct th_out o = th_iolab("run", "--job", job, NULL);
	EXPECT_BAD(o, where, "benchmark");
}

static void test_job_missing_file(void **state)
{
	(void)state;
	char job[PATH_MAX];
	snprintf(job, sizeof(job), "%s/no-such.job", dir);
	struct th_out o = th_iolab("run", "--job", job, NULL);
	EXPECT_BAD(o, job, "No such file");
}

/* Options given with --job override the file's, and are checked the same way. */
static void test_job_with_bad_override(void **state)
{
	(void)state;
	char job[PATH_MAX];
	data_file(job, sizeof(job), "two_runs.job");
	struct th_out o = th_iolab("run", "--job", job, "--qd", "0", NULL);
	EXPECT_BAD(o, "--qd", "0");
}

/* ---- help and subcommands ---- */

/* Asserts cond about o; on failure shows o and frees it first, so LSan has nothing to say. */
#define CHECK_OUT(o, cond)                                                                      \
	do {                                                                                    \
		if (!(cond)) {                                                                  \
			print_error("line %d: status %d\n--- stdout:\n%s--- stderr:\n%s---\n",      \
				    __LINE__, (o).status, (o).out, (o).err);                    \
			th_out_free(&(o));                                                      \
			fail_msg("%s", #cond);                                                  \
		}                                                                               \
	} while (0)

/* Help: exit 0, the usage line on stdout, nothing on stderr. */
#define CHECK_HELP(o, usage)                        \
	do {                                        \
		CHECK_OUT(o, (o).status == 0);      \
		CHECK_OUT(o, strstr((o).out, usage)); \
		CHECK_OUT(o, !*(o).err);            \
	} while (0)

static void test_help(void **state)
{
	(void)state;
	struct th_out o = th_iolab("--help", NULL);
	CHECK_HELP(o, "usage: iolab");
	CHECK_OUT(o, strstr(o.out, "run"));
	CHECK_OUT(o, strstr(o.out, "patterns"));
	CHECK_OUT(o, strstr(o.out, "engines"));
	th_out_free(&o);

	o = th_iolab("run", "--help", NULL);
	CHECK_HELP(o, "usage: iolab run");
	/* Every option of the table that run uses is documented, plus the CLI-only ones; those
	 * only a simulated drive uses are not (sim --help has them). */
	for (unsigned i = 0; i < iolab_option_count(); i++) {
		char opt[64];
		snprintf(opt, sizeof(opt), "--%s ", iolab_option_at(i)->name);
		if (iolab_option_real(iolab_option_at(i)->name))
			CHECK_OUT(o, strstr(o.out, opt));
		else
			CHECK_OUT(o, !strstr(o.out, opt));
	}
	CHECK_OUT(o, strstr(o.out, "--job"));
	CHECK_OUT(o, strstr(o.out, "--json"));
	CHECK_OUT(o, strstr(o.out, "--csv"));
	th_out_free(&o);

	o = th_iolab("run", "-h", NULL);
	CHECK_HELP(o, "usage: iolab run");
	th_out_free(&o);

	o = th_iolab("engines", "--help", NULL);
	CHECK_HELP(o, "usage: iolab engines");
	th_out_free(&o);

	o = th_iolab("patterns", "--help", NULL);
	CHECK_HELP(o, "usage: iolab patterns");
	th_out_free(&o);
}

/* The patterns help is printed with fputs, so it must not carry printf's "%%" escapes. */
static void test_patterns_help_text(void **state)
{
	(void)state;
	struct th_out o = th_iolab("patterns", "--help", NULL);
	CHECK_HELP(o, "usage: iolab patterns");
	CHECK_OUT(o, !strstr(o.out, "%%"));
	th_out_free(&o);
}

static void test_listings(void **state)
{
	(void)state;
	struct th_out o = th_iolab("patterns", NULL);
	CHECK_OUT(o, o.status == 0);
	CHECK_OUT(o, strstr(o.out, "rand-read"));
	CHECK_OUT(o, strstr(o.out, "rand-write"));
	th_out_free(&o);
	o = th_iolab("engines", NULL);
	CHECK_OUT(o, o.status == 0);
	CHECK_OUT(o, strstr(o.out, "io_uring"));
	CHECK_OUT(o, strstr(o.out, "null"));
	th_out_free(&o);
	o = th_iolab("patterns", "extra", NULL);
	EXPECT_BAD(o, "extra");
	o = th_iolab("engines", "--all", NULL);
	EXPECT_BAD(o, "--all");
}

static void test_unknown_subcommand(void **state)
{
	(void)state;
	struct th_out o = th_iolab("frobnicate", NULL);
	EXPECT_BAD(o, "frobnicate");
	o = th_iolab(NULL, NULL); /* no command at all: usage on stderr */
	CHECK_OUT(o, o.status == 2);
	CHECK_OUT(o, strstr(o.err, "usage: iolab"));
	th_out_free(&o);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_unknown_pattern),
		cmocka_unit_test(test_unknown_engine),
		cmocka_unit_test(test_bad_sizes),
		cmocka_unit_test(test_bad_percentages),
		cmocka_unit_test(test_bad_qd),
		cmocka_unit_test(test_bad_other_values),
		cmocka_unit_test(test_unknown_option),
		cmocka_unit_test(test_unknown_short_option),
		cmocka_unit_test(test_missing_option_value),
		cmocka_unit_test(test_flag_with_value),
		cmocka_unit_test(test_job_and_default_together),
		cmocka_unit_test(test_missing_target),
		cmocka_unit_test(test_nonexistent_target),
		cmocka_unit_test(test_permission_denied),
		cmocka_unit_test(test_target_smaller_than_region),
		cmocka_unit_test(test_direct_alignment),
		cmocka_unit_test(test_unusable_targets),
		cmocka_unit_test(test_unwritable_output_path),
		cmocka_unit_test(test_job_bad_share),
		cmocka_unit_test(test_job_unknown_option),
		cmocka_unit_test(test_job_bad_value),
		cmocka_unit_test(test_job_bad_pattern_field),
		cmocka_unit_test(test_job_text_before_section),
		cmocka_unit_test(test_job_unknown_section),
		cmocka_unit_test(test_job_missing_file),
		cmocka_unit_test(test_job_with_bad_override),
		cmocka_unit_test(test_help),
		cmocka_unit_test(test_patterns_help_text),
		cmocka_unit_test(test_listings),
		cmocka_unit_test(test_unknown_subcommand),
	};
	return cmocka_run_group_tests(tests, group_setup, group_teardown);
}
