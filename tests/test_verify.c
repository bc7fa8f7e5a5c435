/* test_verify.c: data verification (--verify, --verify-only, --verify-journal) and what writes
 * carry (--buffer-pattern), through the CLI on real files and a loop device.
 *
 * - A corruption put into a written file with dd between the write run and --verify-only is
 *   found at its offset, with the expected and found header fields (with and without a journal).
 * - Eight workers at queue depth 16 writing and reading overlapping blocks of mixed sizes give no
 *   false alarm, buffered on a file and direct on a loop device, while blocks are checked.
 * - A verify write run killed with SIGKILL while writes fly: --verify-only with its journal finds
 *   nothing wrong, and still finds a corruption put in afterwards.
 * - Four workers write all-distinct 4 KiB blocks; zero, random and compressible:50 buffers
 *   compress (gzip) as they say.
 */
#include <errno.h>
#include <fcntl.h>
#include <jansson.h>
#include <limits.h>
#include <setjmp.h>
#include <signal.h>
#include <stdarg.h>
#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <poll.h>
#include <sys/inotify.h>
#include <sys/syscall.h>
#include <sys/stat.h>
#include <sys/wait.h>
#include <unistd.h>
#include <xxhash.h>

#include <cmocka.h>

#include "helpers.h"

/* Overlapping writes and reads of mixed sizes at 4 KiB alignment: a 16k write covers four 4k
 * blocks that other workers write and read at the same time. */
static const char mix_job[] =
	"[pattern overlap-mix]\n"
	"4k   50  50  100  4k\n"
	"16k  30  50  100  4k\n"
	"64k  20  50  100  4k\n"
	"[run mix]\n"
	"pattern = overlap-mix\n";

static void path_in(char *buf, size_t n, const char *name)
{
	snprintf(buf, n, "%s/%s", th_dir, name);
}

/* The JSON at path, its first point's "verify" object checked for the counts: mismatches
 * exactly want_mismatch, blocks checked at least min_checked. Returns the document. */
static json_t *verify_of(const char *path, json_int_t want_mismatch, json_int_t min_checked)
{
	json_t *doc = th_load_json(path);
	assert_non_null(doc);
	json_t *v = json_object_get(json_array_get(json_object_get(doc, "points"), 0), "verify");
	assert_true(json_is_object(v));
	json_int_t checked = json_integer_value(json_object_get(v, "blocks_checked")) +
			     json_integer_value(json_object_get(v, "blocks_checked_partial"));
	if (json_integer_value(json_object_get(v, "mismatches")) != want_mismatch || checked < min_checked) {
		char *dump = json_dumps(v, JSON_INDENT(1));
		printf("verify: %s\n", dump);
		free(dump);
	}
	assert_int_equal(json_integer_value(json_object_get(v, "mismatches")), want_mismatch);
	assert_true(checked >= min_checked);
	return doc;
}

static json_t *first_mismatch(json_t *doc)
{
	json_t *v = json_object_get(json_array_get(json_object_get(doc, "points"), 0), "verify");
	return json_array_get(json_object_get(v, "first_mismatches"), 0);
}

/* Writes 8 MiB at the start of path with seq-write under --verify (and a journal if given). */
static void write_verified(const char *path, const char *journal)
{
	struct th_out o = journal
		? th_iolab("run", "--size", "8m", "--pattern", "seq-write", "--bs", "64k", "--bytes", "8m",
			   "--verify", "crc32c", "--verify-journal", journal, "--quiet", "--no-db", path, NULL)
		: th_iolab("run", "--size", "8m", "--pattern", "seq-write", "--bs", "64k", "--bytes", "8m",
			   "--verify", "xxh64", "--quiet", "--no-db", path, NULL);
	if (o.status)
		printf("%s%s", o.out, o.err);
	assert_int_equal(o.status, 0);
	th_out_free(&o);
}

/* dd's garbage over one whole block (no header left) is found at its offset, against the
 * journal: the expected generation and run are named. */
static void test_corruption_found_with_journal(void **state)
{
	(void)state;
	char f[PATH_MAX], j[PATH_MAX], js[PATH_MAX];
	path_in(f, sizeof(f), "c1.img");
	path_in(j, sizeof(j), "c1.journal");
	path_in(js, sizeof(js), "c1.json");
	write_verified(f, j);
	assert_int_equal(th_sh("dd if=/dev/urandom of=%s bs=4096 seek=257 count=1 conv=notrunc "
			       "status=none", f), 0);
	struct th_out o = th_iolab("run", "--verify-only", "--verify-journal", j, "--on-error", "continue",
				   "--json", js, "--quiet", "--no-db", f, NULL);
	if (o.status != 1 || !strstr(o.err, "byte 1052672: no-header: expected magic"))
		printf("%s%s", o.out, o.err);
	assert_int_equal(o.status, 1);
	assert_non_null(strstr(o.err, "byte 1052672: no-header: expected magic"));
	assert_non_null(strstr(o.err, "gen 17; found no verify header"));
	th_out_free(&o);
	json_t *doc = verify_of(js, 1, 2047);
	json_t *m = first_mismatch(doc);
	assert_int_equal(json_integer_value(json_object_get(m, "offset")), 1052672);
	assert_string_equal(json_string_value(json_object_get(m, "why")), "no-header");
	json_t *e = json_object_get(m, "expected");
	assert_int_equal(json_integer_value(json_object_get(e, "gen")), 17); /* the 17th 64k write */
	assert_true(json_is_string(json_object_get(e, "run_id")));
	json_decref(doc);
}

/* Four bytes changed inside a block's data: without a journal the block's own checksum shows
 * it, the stored and computed checksums named. */
static void test_corruption_found_without_journal(void **state)
{
	(void)state;
	char f[PATH_MAX], js[PATH_MAX];
	path_in(f, sizeof(f), "c2.img");
	path_in(js, sizeof(js), "c2.json");
	write_verified(f, NULL);
	assert_int_equal(th_sh("printf XXXX | dd of=%s bs=1 seek=%d conv=notrunc status=none", f,
			       3 * 1048576 + 8192 + 100), 0);
	struct th_out o = th_iolab("run", "--verify-only", "--json", js, "--quiet", "--no-db", f, NULL);
	if (o.status != 1)
		printf("%s%s", o.out, o.err);
	assert_int_equal(o.status, 1);
	assert_non_null(strstr(o.err, "byte 3153920: checksum: expected magic"));
	assert_non_null(strstr(o.err, "xxh64 stored 0x"));
	assert_non_null(strstr(o.err, "1 block did not hold what was written"));
	th_out_free(&o);
	json_t *doc = verify_of(js, 1, 0);
	json_t *m = first_mismatch(doc);
	assert_int_equal(json_integer_value(json_object_get(m, "offset")), 3153920);
	assert_string_equal(json_string_value(json_object_get(m, "why")), "checksum");
	json_t *e = json_object_get(m, "expected"), *fd = json_object_get(m, "found");
	assert_true(json_is_null(json_object_get(e, "gen"))); /* no journal: any generation */
	assert_int_equal(json_integer_value(json_object_get(fd, "offset")), 3153920);
	assert_int_equal(json_integer_value(json_object_get(fd, "io_offset")), 3145728);
	assert_string_not_equal(json_string_value(json_object_get(e, "checksum")),
				json_string_value(json_object_get(fd, "checksum")));
	json_decref(doc);
}

/* The overlapping mix at 8 workers x queue depth 16 on target (extra options after it). */
static void no_false_alarm(const char *target, const char *json, const char *opt1, const char *opt2,
			   const char *opt3)
{
	char job[PATH_MAX];
	path_in(job, sizeof(job), "mix.job");
	FILE *jf = fopen(job, "w");
	assert_non_null(jf);
	fputs(mix_job, jf);
	fclose(jf);
	struct th_out o = th_iolab("run", "--job", job, "--workers", "8", "--qd", "16", "--time", "2",
				   "--verify", "crc32c", "--json", json, "--quiet", "--no-db", target,
				   opt1, opt2, opt3, NULL);
	if (o.status)
		printf("%s%s", o.out, o.err);
	assert_int_equal(o.status, 0);
	th_out_free(&o);
	json_decref(verify_of(json, 0, 1000));
}

static void test_no_false_alarm_file_buffered(void **state)
{
	(void)state;
	char f[PATH_MAX], js[PATH_MAX];
	path_in(f, sizeof(f), "mix.img");
	path_in(js, sizeof(js), "mix-file.json");
	no_false_alarm(f, js, "--size", "4m", "--buffered");
}

static void test_no_false_alarm_loop_direct(void **state)
{
	(void)state;
	char back[PATH_MAX], js[PATH_MAX], dev[64];
	path_in(back, sizeof(back), "loop.img");
	path_in(js, sizeof(js), "mix-loop.json");
	th_make_file(back, 4u << 20);
	if (!th_loop_attach(back, true, dev, sizeof(dev)))
		skip();
	no_false_alarm(dev, js, "--force", NULL, NULL);
	th_loop_detach(dev);
}

/* The size of path. */
static long long size_of(const char *path)
{
	struct stat st;
	return stat(path, &st) == 0 ? (long long)st.st_size : -1;
}

/* Starts argv (the iolab binary's arguments) with stdout and stderr to /dev/null. */
static pid_t start_iolab(const char *const *args)
{
	const char *bin = getenv("IOLAB_BIN");
	const char *argv[32] = {bin ? bin : "build/iolab"};
	unsigned n = 1;
	for (; args[n - 1]; n++)
		argv[n] = args[n - 1];
	argv[n] = NULL;
	fflush(NULL);
	pid_t pid = fork();
	assert_true(pid >= 0);
	if (pid == 0) {
		int null = open("/dev/null", O_RDWR);
		dup2(null, 0);
		dup2(null, 1);
		dup2(null, 2);
		execv(argv[0], (char *const *)argv);
		_exit(127);
	}
	return pid;
}

/* Waits until the file name in dir is at least min bytes: on inotify's events for dir, and on
 * the process pid (a pidfd), whose end before then fails the test. */
static void wait_for_size(const char *dir, const char *name, long long min, pid_t pid)
{
	char path[PATH_MAX];
	snprintf(path, sizeof(path), "%s/%s", dir, name);
	int in = inotify_init1(IN_CLOEXEC | IN_NONBLOCK);
	int pfd = (int)syscall(SYS_pidfd_open, pid, 0);
	assert_true(in >= 0 && pfd >= 0);
	assert_true(inotify_add_watch(in, dir, IN_CREATE | IN_MODIFY | IN_CLOSE_WRITE) >= 0);
	char buf[4096];
	while (size_of(path) < min) {
		struct pollfd fds[2] = {{.fd = in, .events = POLLIN}, {.fd = pfd, .events = POLLIN}};
		assert_true(poll(fds, 2, -1) > 0);
		if (fds[1].revents) {
			printf("the run ended before %s reached %lld bytes\n", path, min);
			fail();
		}
		while (read(in, buf, sizeof(buf)) > 0)
			;
	}
	close(in);
	close(pfd);
}

/* kill -9 in the middle of a journaled verify write run: the journal, replayed, tells what each
 * block holds (a write in flight at the kill: either generation), so --verify-only finds no
 * mismatch; a corruption put in afterwards is still found, and only where it was put. */
static void test_journal_resume_after_kill(void **state)
{
	(void)state;
	char f[PATH_MAX], j[PATH_MAX], job[PATH_MAX], js[PATH_MAX], js2[PATH_MAX];
	path_in(f, sizeof(f), "k.img");
	path_in(j, sizeof(j), "k.journal");
	path_in(job, sizeof(job), "k.job");
	path_in(js, sizeof(js), "k.json");
	path_in(js2, sizeof(js2), "k2.json");
	FILE *jf = fopen(job, "w");
	assert_non_null(jf);
	fputs(mix_job, jf);
	fclose(jf);
	const char *args[] = {"run", "--job", job, "--size", "8m", "--read", "20", "--workers", "4",
			      "--qd", "16", "--time", "120", "--verify", "crc32c", "--verify-journal",
			      j, "--quiet", "--no-db", f, NULL};
	pid_t pid = start_iolab(args);
	/* about 8000 writes (an intent and a completion each): the 8 MiB written several times */
	wait_for_size(th_dir, "k.journal", 512 * 1024, pid);
	assert_int_equal(kill(pid, SIGKILL), 0);
	int st;
	assert_int_equal(waitpid(pid, &st, 0), pid);
	assert_true(WIFSIGNALED(st));

	struct th_out o = th_iolab("run", "--verify-only", "--verify-journal", j, "--qd", "8",
				   "--json", js, "--quiet", "--no-db", f, NULL);
	if (o.status)
		printf("%s%s", o.out, o.err);
	assert_int_equal(o.status, 0);
	th_out_free(&o);
	json_decref(verify_of(js, 0, 1000));

	/* 64 KiB of garbage at 2 MiB: blocks the run wrote (and completed) are reported there */
	assert_int_equal(th_sh("dd if=/dev/urandom of=%s bs=4096 seek=512 count=16 conv=notrunc "
			       "status=none", f), 0);
	o = th_iolab("run", "--verify-only", "--verify-journal", j, "--on-error", "continue", "--json",
		     js2, "--quiet", "--no-db", f, NULL);
	assert_int_equal(o.status, 1);
	th_out_free(&o);
	json_t *doc = th_load_json(js2);
	assert_non_null(doc);
	json_t *v = json_object_get(json_array_get(json_object_get(doc, "points"), 0), "verify");
	json_int_t n = json_integer_value(json_object_get(v, "mismatches"));
	assert_true(n >= 1 && n <= 16);
	json_t *m;
	size_t i;
	json_array_foreach(json_object_get(v, "first_mismatches"), i, m) {
		json_int_t off = json_integer_value(json_object_get(m, "offset"));
		assert_true(off >= 2 * 1048576 && off < 2 * 1048576 + 65536);
	}
	json_decref(doc);
}

static int cmp_u64(const void *a, const void *b)
{
	uint64_t x = *(const uint64_t *)a, y = *(const uint64_t *)b;
	return x < y ? -1 : x > y;
}

/* Four workers write a 16 MiB file whole: every 4 KiB block differs from every other. */
static void test_workers_write_distinct_blocks(void **state)
{
	(void)state;
	char f[PATH_MAX];
	path_in(f, sizeof(f), "distinct.img");
	struct th_out o = th_iolab("run", "--size", "16m", "--pattern", "seq-write", "--bs", "64k",
				   "--workers", "4", "--bytes", "16m", "--quiet", "--no-db", f, NULL);
	if (o.status)
		printf("%s%s", o.out, o.err);
	assert_int_equal(o.status, 0);
	th_out_free(&o);
	size_t len;
	char *data = th_read_file(f, &len);
	assert_int_equal(len, 16u << 20);
	size_t n = len / 4096;
	uint64_t *h = malloc(n * sizeof(*h));
	assert_non_null(h);
	for (size_t i = 0; i < n; i++)
		h[i] = XXH64(data + i * 4096, 4096, 0);
	qsort(h, n, sizeof(*h), cmp_u64);
	size_t distinct = n ? 1 : 0;
	for (size_t i = 1; i < n; i++)
		distinct += h[i] != h[i - 1];
	if (distinct != n)
		printf("%zu distinct 4 KiB blocks of %zu\n", distinct, n);
	assert_int_equal(distinct, n);
	free(h);
	free(data);
}

/* gzip's output for a 16 MiB file written with --buffer-pattern pattern, in % of its size. */
static double compressed_pct(const char *pattern)
{
	char f[PATH_MAX], gz[PATH_MAX];
	path_in(f, sizeof(f), "compress.img");
	path_in(gz, sizeof(gz), "compress.gz");
	unlink(f);
	struct th_out o = th_iolab("run", "--size", "16m", "--pattern", "seq-write", "--bs", "128k",
				   "--workers", "2", "--bytes", "16m", "--buffer-pattern", pattern,
				   "--quiet", "--no-db", f, NULL);
	if (o.status)
		printf("%s%s", o.out, o.err);
	assert_int_equal(o.status, 0);
	th_out_free(&o);
	assert_int_equal(th_sh("gzip -c -1 %s > %s", f, gz), 0);
	double pct = 100.0 * (double)size_of(gz) / (double)(16u << 20);
	printf("--buffer-pattern %s: gzip leaves %.1f %%\n", pattern, pct);
	return pct;
}

static void test_buffer_pattern_compressibility(void **state)
{
	(void)state;
	assert_true(compressed_pct("zero") < 2);
	assert_true(compressed_pct("random") > 98);
	double half = compressed_pct("compressible:50");
	assert_true(half > 40 && half < 60);
	double most = compressed_pct("compressible:90");
	assert_true(most > 5 && most < 15);
}

/* What --verify cannot do is refused in one line naming the option. */
static void test_verify_refusals(void **state)
{
	(void)state;
	char f[PATH_MAX], j[PATH_MAX];
	path_in(f, sizeof(f), "refuse.img");
	path_in(j, sizeof(j), "refuse.journal");
	struct th_out o = th_iolab("run", "--size", "1m", "--pattern", "rand-write", "--bs", "512",
				   "--verify", "crc32c", "--quiet", "--no-db", f, NULL);
	TH_EXPECT_EXIT(o, 2, "--verify", "transfer size 512", "4 KiB verify block");
	o = th_iolab("run", "--engine", "null", "--verify", "xxh64", "--quiet", "--no-db", NULL);
	TH_EXPECT_EXIT(o, 2, "--verify", "engine 'null'");
	o = th_iolab("run", "--verify", "md5", "--quiet", "--no-db", f, NULL);
	TH_EXPECT_EXIT(o, 2, "verify", "'md5' is not crc32c or xxh64");
	o = th_iolab("run", "--buffer-pattern", "compressible:150", "--quiet", "--no-db", f, NULL);
	TH_EXPECT_EXIT(o, 2, "buffer-pattern", "150");
	o = th_iolab("run", "--verify-only", "--pattern", "rand-read", "--quiet", "--no-db", f, NULL);
	TH_EXPECT_EXIT(o, 2, "--verify-only", "--pattern does not apply");
	o = th_iolab("run", "--size", "1m", "--pattern", "rand-write", "--verify-journal", j,
		     "--quiet", "--no-db", f, NULL);
	TH_EXPECT_EXIT(o, 2, "--verify-journal", "give --verify ALGO");
	th_make_file(j, 100);
	o = th_iolab("run", "--size", "1m", "--pattern", "rand-write", "--verify", "crc32c",
		     "--verify-journal", j, "--quiet", "--no-db", f, NULL);
	TH_EXPECT_EXIT(o, 2, "--verify-journal", "exists; use --force");
	o = th_iolab("run", "--verify-only", "--verify-journal", j, "--quiet", "--no-db", f, NULL);
	TH_EXPECT_EXIT(o, 2, "--verify-journal", "is not an iolab verify journal");
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_corruption_found_with_journal),
		cmocka_unit_test(test_corruption_found_without_journal),
		cmocka_unit_test(test_no_false_alarm_file_buffered),
		cmocka_unit_test(test_no_false_alarm_loop_direct),
		cmocka_unit_test(test_journal_resume_after_kill),
		cmocka_unit_test(test_workers_write_distinct_blocks),
		cmocka_unit_test(test_buffer_pattern_compressibility),
		cmocka_unit_test(test_verify_refusals),
	};
	return cmocka_run_group_tests(tests, th_dir_setup, th_dir_teardown);
}
