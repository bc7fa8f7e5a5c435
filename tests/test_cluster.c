/* test_cluster.c: the MPI job's collectives (cluster.h). Without MPI: the size arithmetic of a
 * gatherv (offsets and the total past INT_MAX, a sum past SIZE_MAX refused) and the bounds of a
 * piece. Under a real `mpirun -n 2` of this very program (oversubscribed; as root with
 * --allow-run-as-root), each rank checks: a gatherv sent in many small pieces arrives whole and
 * in rank order (an empty share too); an agreement carries the failed rank's error to both; and
 * iolab_run, one of whose ranks cannot create its target, returns that error on both ranks
 * (named by host and rank) instead of ending the process, which then leaves the job cleanly. The
 * job is bounded by a timeout: a rank left waiting fails the test rather than hangs it. Skips,
 * saying why, without Open MPI. */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <cmocka.h>
#include <errno.h>
#include <limits.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "helpers.h"
#include "iolab/cluster.h"
#include "iolab/run.h"

static char self[PATH_MAX];

static void test_layout_past_int_max(void **state)
{
	(void)state;
	const uint64_t len[] = {3ull << 30, 3ull << 30, 0, 5};
	size_t off[4], total = 0;
	assert_int_equal(iolab_cluster_layout(len, 4, off, &total), 0);
	assert_true(off[1] == 3ull << 30 && off[2] == 6ull << 30 && off[3] == 6ull << 30);
	assert_true(total == (6ull << 30) + 5);
	assert_true(total > INT_MAX); /* what an int count or displacement cannot hold */
	const uint64_t huge[] = {SIZE_MAX - 4, 4, 1};
	assert_int_equal(iolab_cluster_layout(huge, 3, NULL, &total), -EOVERFLOW);
	assert_int_equal(iolab_cluster_layout(huge, 2, NULL, &total), 0);
	assert_true(total == SIZE_MAX);
}

static void test_piece_bounds(void **state)
{
	(void)state;
	size_t before = iolab_cluster_set_piece_max(SIZE_MAX);
	assert_true(before == IOLAB_CLUSTER_PIECE_MAX);
	assert_true(iolab_cluster_set_piece_max(0) == INT_MAX); /* kept within an int */
	assert_true(iolab_cluster_set_piece_max(1000) == IOLAB_CLUSTER_PIECE_MAX); /* 0: default */
	assert_true(iolab_cluster_set_piece_max(0) == 1000);
}

/* ---- one rank of the job ---- */

static int failures;

#define CHECK(cond, ...)                                                               \
	do {                                                                           \
		if (!(cond)) {                                                         \
			fprintf(stderr, "rank %u: line %d: ", iolab_cluster_rank(), __LINE__); \
			fprintf(stderr, __VA_ARGS__);                                  \
			fputc('\n', stderr);                                           \
			failures++;                                                    \
		}                                                                      \
	} while (0)

static unsigned char byte_of(unsigned rank, size_t i)
{
	return (unsigned char)(rank * 101 + i * 7);
}

/* Rank r sends n[r] bytes; rank 0 checks what arrives. */
static void gather_pieces(const size_t n[2])
{
	unsigned me = iolab_cluster_rank();
	unsigned char *mine = malloc(n[me] ? n[me] : 1);
	for (size_t i = 0; i < n[me]; i++)
		mine[i] = byte_of(me, i);
	void *all = NULL;
	size_t len[2] = {0, 0};
	int rc = iolab_cluster_gatherv(mine, n[me], &all, len);
	CHECK(rc == 0, "gatherv: %d", rc);
	if (me == 0 && !rc) {
		CHECK(len[0] == n[0] && len[1] == n[1], "lengths %zu %zu", len[0], len[1]);
		const unsigned char *at = all;
		for (unsigned r = 0; r < 2; r++)
			for (size_t i = 0; i < n[r]; i++, at++)
				if (*at != byte_of(r, i)) {
					CHECK(false, "rank %u byte %zu", r, i);
					r = 2;
					break;
				}
	}
	free(all);
	free(mine);
}

static void agree_on_failure(void)
{
	struct iolab_err err = {{0}};
	int rc = iolab_cluster_agree(iolab_cluster_rank() == 1 ? -EIO : 0, "boom", &err);
	CHECK(rc == -EIO, "agree: %d", rc);
	CHECK(strstr(err.msg, "(rank 1): boom") != NULL, "agree said '%s'", err.msg);
}

/* Rank 1's target is in a directory that does not exist: iolab_run returns on both ranks. */
static void run_with_a_bad_target(const char *dir)
{
	struct iolab_config c;
	struct iolab_err err = {{0}};
	char target[PATH_MAX + 16];
	snprintf(target, sizeof(target), "%s/d%%r/f", dir);
	iolab_config_init(&c);
	CHECK(!iolab_config_set(&c, "target", target, &err), "%s", err.msg);
	CHECK(!iolab_config_set(&c, "size", "1m", &err), "%s", err.msg);
	CHECK(!iolab_config_set(&c, "pattern", "rand-write", &err), "%s", err.msg);
	CHECK(!iolab_config_set(&c, "time", "0.1", &err), "%s", err.msg);
	iolab_config_for_rank(&c);
	struct iolab_results res = {0};
	int rc = iolab_run(&c, &res, NULL, NULL, &err);
	CHECK(rc == -ENOENT, "iolab_run: %d %s", rc, err.msg);
	CHECK(strstr(err.msg, "(rank 1): ") && strstr(err.msg, "d1/f"), "iolab_run said '%s'", err.msg);
	snprintf(target, sizeof(target), "%s/d%u/f", dir, iolab_cluster_rank());
	CHECK(!th_exists(target), "a scratch file was left"); /* rank 0's, made before the refusal */
	iolab_results_free(&res);
}

static int rank_main(int argc, char **argv)
{
	struct iolab_err err;
	if (iolab_cluster_start(&argc, &argv, &err)) {
		fprintf(stderr, "start: %s\n", err.msg);
		return 1;
	}
	CHECK(iolab_cluster_active() && iolab_cluster_size() == 2, "not a job of 2 ranks");
	iolab_cluster_set_piece_max(1000);
	gather_pieces((const size_t[2]){10, 2500}); /* rank 1's in 3 pieces */
	gather_pieces((const size_t[2]){3, 0});
	iolab_cluster_set_piece_max(0);
	agree_on_failure();
	run_with_a_bad_target(argv[2]);
	printf("rank %u: %s\n", iolab_cluster_rank(), failures ? "FAILED" : "ok");
	iolab_cluster_end();
	return failures ? 1 : 0;
}

static void test_job_of_two(void **state)
{
	(void)state;
#ifndef IOLAB_HAVE_MPI
	printf("SKIP: iolab was built without MPI (libopenmpi-dev)\n");
	skip();
#else
	if (th_sh("command -v mpirun >/dev/null 2>&1")) {
		printf("SKIP: no mpirun (openmpi-bin)\n");
		skip();
	}
	assert_int_equal(th_sh("mkdir -p %s/d0", th_dir), 0);
	/* Open MPI keeps its plugins' memory to the end: LeakSanitizer is off for the ranks */
	int rc = th_sh("cd %s && ASAN_OPTIONS=detect_leaks=0 timeout -k 5 120 mpirun -x ASAN_OPTIONS "
		       "--oversubscribe%s -n 2 %s --rank %s > ranks.out 2> ranks.err", th_dir,
		       geteuid() == 0 ? " --allow-run-as-root" : "", self, th_dir);
	char path[PATH_MAX];
	snprintf(path, sizeof(path), "%s/ranks.out", th_dir);
	char *out = th_read_file(path, NULL);
	snprintf(path, sizeof(path), "%s/ranks.err", th_dir);
	char *err = th_read_file(path, NULL);
	if (rc || !strstr(out, "rank 0: ok") || !strstr(out, "rank 1: ok"))
		fail_msg("mpirun: status %d\n--- stdout:\n%s--- stderr:\n%s", rc, out, err);
	free(out);
	free(err);
#endif
}

int main(int argc, char **argv)
{
	if (argc == 3 && !strcmp(argv[1], "--rank"))
		return rank_main(argc, argv);
	if (!realpath("/proc/self/exe", self))
		snprintf(self, sizeof(self), "%s", argv[0]);
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_layout_past_int_max),
		cmocka_unit_test(test_piece_bounds),
		cmocka_unit_test(test_job_of_two),
	};
	return cmocka_run_group_tests(tests, th_dir_setup, th_dir_teardown);
}
