/* test_faults.c: faults on purpose (--fault) and what a run does with failing I/O, through the
 * CLI on a real file (and a loop device for real errors). Each fault kind under io_uring, libaio
 * and psync, at queue depths 1 and 32 with 1 and 4 workers, ends with every fault counted in
 * the JSON as an error of its kind (a delay as none), the right exit status, and no file left
 * behind; a vanished device under --on-error continue stops its point after a second instead of
 * spinning; --on-error stop keeps and saves what was measured; SIGTERM still removes the scratch
 * file the run made; the same --seed strikes the same I/Os; bad rules are refused in one line. */
#include <errno.h>
#include <limits.h>
#include <setjmp.h>
#include <stdarg.h>
#include <stdbool.h>
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

static char img[PATH_MAX], json[PATH_MAX];

static int setup(void **state)
{
	th_dir_setup(state);
	snprintf(img, sizeof(img), "%s/scratch.img", th_dir);
	snprintf(json, sizeof(json), "%s/out.json", th_dir);
	th_make_file(img, 8 << 20);
	return 0;
}

static json_int_t int_at(json_t *o, const char *a, const char *b)
{
	json_t *v = json_object_get(o, a);
	return json_integer_value(b ? json_object_get(v, b) : v);
}

/* Checks one point of a run under a failing fault: each injected fault is one error of the
 * expected kinds (a key suffix "_read"/"_write" added), the counts agree, the first is one of
 * them. */
static void check_point_errors(json_t *p, const char *kind)
{
	json_t *e = json_object_get(p, "errors"), *by = json_object_get(e, "by_kind");
	json_int_t count = int_at(e, "count", NULL), faults = int_at(p, "faults_injected", "count");
	char rd[32], wr[32];
	snprintf(rd, sizeof(rd), "%s_read", kind);
	snprintf(wr, sizeof(wr), "%s_write", kind);
	json_int_t mine = int_at(by, rd, NULL) + int_at(by, wr, NULL);
	if (count < 1 || count != faults || count != mine)
		print_error("%s: errors %lld, faults injected %lld, of the kind %lld\n", kind,
			    (long long)count, (long long)faults, (long long)mine);
	assert_true(count >= 1);
	assert_int_equal(count, faults);
	assert_int_equal(count, mine);
	assert_int_equal(count, int_at(p, "read", "errors") + int_at(p, "write", "errors"));
	const char *first = json_string_value(json_object_get(json_object_get(e, "first"), "kind"));
	assert_true(first && (!strcmp(first, rd) || !strcmp(first, wr)));
}

/* eio, short and enospc fail I/Os, delay only slows them: each under every engine, qd 1 and
 * 32, 1 and 4 workers (four points), --on-error continue, 1 MiB per point. */
static void test_each_fault_each_engine(void **state)
{
	(void)state;
	static const char *const engines[] = {"io_uring", "libaio", "psync"};
	static const struct {
		const char *rule, *kind; /* kind: the errors it makes; NULL: none (a delay) */
	} faults[] = {{"eio@20", "eio"}, {"short/7", "short"}, {"enospc%5", "enospc"},
		      {"delay=1ms/40", NULL}};
	for (unsigned e = 0; e < 3; e++)
		for (unsigned f = 0; f < 4; f++) {
			struct th_out o = th_iolab("run", img, "--engine", engines[e], "--fault",
						   faults[f].rule, "--pattern", "rand-rw", "--qd", "1,32",
						   "--workers", "1,4", "--bytes", "1m", "--on-error",
						   "continue", "--quiet", "--no-db", "--force", "--json",
						   json, NULL);
			int want = faults[f].kind ? 1 : 0;
			if (o.status != want)
				print_error("%s --fault %s: exit %d (want %d)\n%s", engines[e],
					    faults[f].rule, o.status, want, o.err);
			assert_int_equal(o.status, want);
			th_out_free(&o);
			json_t *root = th_load_json(json);
			assert_non_null(root);
			json_t *points = json_object_get(root, "points");
			assert_int_equal(json_array_size(points), 4);
			for (size_t i = 0; i < 4; i++) {
				json_t *p = json_array_get(points, i);
				assert_false(json_is_true(json_object_get(p, "partial")));
				assert_true(int_at(p, "ios", NULL) >= 256); /* the whole MiB, none lost */
				if (faults[f].kind) {
					check_point_errors(p, faults[f].kind);
				} else {
					assert_int_equal(int_at(p, "errors", "count"), 0);
					assert_true(int_at(p, "faults_injected", "count") >= 6);
				}
				if (f == 0) /* eio@20: the 20th I/O of the point, and only that one */
					assert_int_equal(int_at(p, "errors", "count"), 1);
			}
			json_decref(root);
			assert_int_equal(th_count_entries(th_dir, ""), 2);
		}
}

/* vanish@100: none but the 99 I/Os before it succeed (those done in the measured time are
 * counted), every one after fails with ENODEV, under every engine and shape; --on-error
 * continue runs each point to its --time. */
static void test_vanish_each_engine(void **state)
{
	(void)state;
	static const char *const engines[] = {"io_uring", "libaio", "psync"};
	for (unsigned e = 0; e < 3; e++) {
		struct th_out o = th_iolab("run", img, "--engine", engines[e], "--fault", "vanish@100",
					   "--pattern", "rand-rw", "--qd", "1,32", "--workers", "1,4",
					   "--time", "200ms", "--on-error", "continue", "--quiet",
					   "--no-db", "--force", "--json", json, NULL);
		assert_int_equal(o.status, 1);
		th_out_free(&o);
		json_t *root = th_load_json(json);
		json_t *points = json_object_get(root, "points");
		assert_int_equal(json_array_size(points), 4);
		for (size_t i = 0; i < 4; i++) {
			json_t *p = json_array_get(points, i);
			assert_true(int_at(p, "ios", NULL) <= 99);
			check_point_errors(p, "enodev");
			assert_int_equal(int_at(json_object_get(p, "faults_injected"), "by_kind", "vanish"),
					 int_at(p, "errors", "count"));
		}
		json_decref(root);
	}
}

/* A device gone for good under --on-error continue and --bytes (which no failing I/O brings
 * nearer): the point stops once every I/O has failed for a second, and says so. */
static void test_vanished_device_gives_up(void **state)
{
	(void)state;
	struct th_out o = th_iolab("run", img, "--fault", "vanish=eio@10", "--qd", "8", "--workers",
				   "2", "--bytes", "4m", "--on-error", "continue", "--quiet", "--no-db",
				   "--force", "--json", json, NULL);
	assert_int_equal(o.status, 1);
	assert_non_null(strstr(o.out, "every I/O failed for 1 s"));
	th_out_free(&o);
	json_t *root = th_load_json(json);
	json_t *p = json_array_get(json_object_get(root, "points"), 0);
	assert_true(json_is_true(json_object_get(json_object_get(p, "errors"), "gave_up")));
	assert_true(json_is_true(json_object_get(p, "partial")));
	assert_int_equal(int_at(p, "ios", NULL), 9);
	check_point_errors(p, "eio");
	json_decref(root);
}

/* --on-error stop (the default): the first error stops the run; the point measured so far is
 * printed, written and saved in the results store; the scratch file stays (no SIGTERM). */
static void test_stop_keeps_what_was_measured(void **state)
{
	(void)state;
	char made[PATH_MAX];
	snprintf(made, sizeof(made), "%s/made.img", th_dir);
	struct th_out o = th_iolab("run", made, "--size", "8m", "--fault", "eio:write@50", "--pattern",
				   "rand-rw", "--qd", "1,32", "--time", "2", "--quiet", "--label",
				   "stopped-by-fault", "--force", "--json", json, NULL);
	assert_int_equal(o.status, 1);
	assert_int_equal(th_count_lines(o.err), 1);
	assert_non_null(strstr(o.err, "point 1 stopped by an I/O error, a write of 4096 bytes at "
				      "offset"));
	assert_non_null(strstr(o.err, "(EIO)"));
	assert_non_null(strstr(o.out, "1 I/O error: 1 EIO (write); the first: a write"));
	th_out_free(&o);
	json_t *root = th_load_json(json);
	json_t *points = json_object_get(root, "points");
	assert_int_equal(json_array_size(points), 1); /* qd 32 never ran */
	json_t *p = json_array_get(points, 0);
	assert_true(json_is_true(json_object_get(p, "partial")));
	assert_true(int_at(p, "ios", NULL) >= 49);
	check_point_errors(p, "eio");
	json_decref(root);
	assert_true(th_exists(made));
	o = th_iolab("db", "export", "stopped-by-fault", "--json", "-", NULL);
	assert_int_equal(o.status, 0);
	assert_non_null(strstr(o.out, "\"eio_write\": 1"));
	assert_non_null(strstr(o.out, "\"faults_injected\""));
	th_out_free(&o);
	unlink(made);
}

/* SIGTERM while faults are injected: the report is complete, the scratch file the run made is
 * removed, and nothing else is left. */
static void test_sigterm_with_faults(void **state)
{
	(void)state;
	char made[PATH_MAX];
	snprintf(made, sizeof(made), "%s/term.img", th_dir);
	unsigned before = th_count_entries(th_dir, "");
	int rc = th_sh("timeout --preserve-status -s TERM 0.5 \"$B\" run '%s' --size 8m --fault "
		       "delay=5ms%%10,short/100 --on-error continue --qd 4 --time 10 --quiet --no-db "
		       "--force --json '%s' >/dev/null 2>&1", made, json);
	assert_int_equal(rc, 130);
	json_t *root = th_load_json(json);
	assert_true(json_is_true(json_object_get(root, "interrupted")));
	json_decref(root);
	assert_false(th_exists(made));
	assert_int_equal(th_count_entries(th_dir, ""), before);
}

/* The same seed strikes the same I/Os: two runs give the same count and first offset. */
static void test_same_seed_same_faults(void **state)
{
	(void)state;
	json_int_t count[2], off[2];
	for (int i = 0; i < 2; i++) {
		struct th_out o = th_iolab("run", img, "--engine", "psync", "--fault", "eio%3", "--seed",
					   "7", "--bytes", "512k", "--on-error", "continue", "--quiet",
					   "--no-db", "--json", json, "--force", NULL);
		assert_int_equal(o.status, 1);
		th_out_free(&o);
		json_t *root = th_load_json(json);
		json_t *e = json_object_get(json_array_get(json_object_get(root, "points"), 0), "errors");
		count[i] = int_at(e, "count", NULL);
		off[i] = int_at(json_object_get(e, "first"), "offset", NULL);
		json_decref(root);
	}
	assert_true(count[0] > 0);
	assert_int_equal(count[0], count[1]);
	assert_int_equal(off[0], off[1]);
}

static void test_bad_rules_refused(void **state)
{
	(void)state;
	static const struct {
		const char *rule, *why;
	} bad[] = {
		{"bogus@1", "is not a fault"}, {"eio", "does not say when"},
		{"enospc:read@1", "only writes run out of space"}, {"delay%5", "needs the time"},
		{"eio@0", "needs an I/O number from 1"}, {"short%0", "percentage above 0"},
		{"vanish=foo@3", "enodev"}, {"eio:sideways@3", "not read or write"},
		{"eio=1@3", "takes no =VALUE"},
	};
	for (unsigned i = 0; i < sizeof(bad) / sizeof(bad[0]); i++) {
		struct th_out o = th_iolab("run", img, "--fault", bad[i].rule, "--time", "50ms", "--no-db",
					   NULL);
		TH_EXPECT_EXIT(o, 2, "--fault", bad[i].rule, bad[i].why);
	}
	struct th_out o = th_iolab("sim", "--model", "barracuda", "--fault", "eio@5", "--time", "1",
				   "--no-db", NULL);
	TH_EXPECT_EXIT(o, 2, "--fault");
	/* a job file takes the same rules under the key fault */
	char job[PATH_MAX];
	snprintf(job, sizeof(job), "%s/faults.job", th_dir);
	FILE *f = fopen(job, "w");
	assert_non_null(f);
	fprintf(f, "[run faulty]\ntarget = %s\nfault = eio@5\nfault = delay=1ms/10\nbytes = 256k\n"
		"on-error = continue\n", img);
	fclose(f);
	o = th_iolab("run", "--job", job, "--quiet", "--no-db", "--force", "--json", json, NULL);
	assert_int_equal(o.status, 1);
	th_out_free(&o);
	json_t *root = th_load_json(json);
	json_t *rules = json_object_get(json_array_get(json_object_get(json_object_get(root, "config"),
								       "runs"), 0), "faults");
	assert_int_equal(json_array_size(rules), 2);
	assert_string_equal(json_string_value(json_array_get(rules, 1)), "delay=1ms/10");
	json_decref(root);
	unlink(job);
}

/* Mounts a tmpfs of size at dir/name; false (test skipped) where it cannot. */
static bool small_tmpfs(const char *name, const char *size, char *mnt, size_t n)
{
	snprintf(mnt, n, "%s/%s", th_dir, name);
	if (mkdir(mnt, 0755) || mount("tmpfs", mnt, "tmpfs", 0, size)) {
		printf("SKIP: cannot mount a small tmpfs (needs root)\n");
		return false;
	}
	return true;
}

/* A sparse file of size bytes: writing it needs new blocks. */
static void sparse_file(const char *path, off_t size)
{
	FILE *f = fopen(path, "w");
	assert_non_null(f);
	assert_int_equal(ftruncate(fileno(f), size), 0);
	fclose(f);
}

static void unmount(const char *mnt)
{
	for (int i = 0; i < 50 && umount(mnt) != 0; i++)
		usleep(100 * 1000); /* io_uring may hold the file a moment after exit */
	rmdir(mnt);
}

/* Real errors from a real device, not injected: a loop device over a sparse file on a full
 * tmpfs fails writes; they are counted and reported as injected ones are (the first stops the
 * run). */
static void test_real_errors_from_a_loop_device(void **state)
{
	(void)state;
	char mnt[PATH_MAX], back[PATH_MAX + 16], dev[64];
	if (!small_tmpfs("fs-loop", "size=2m", mnt, sizeof(mnt)))
		skip();
	snprintf(back, sizeof(back), "%s/back.img", mnt);
	sparse_file(back, 32 << 20);
	if (!th_loop_attach(back, false, dev, sizeof(dev))) {
		unmount(mnt);
		skip();
	}
	struct th_out o = th_iolab("run", dev, "--force", "--pattern", "rand-write", "--qd", "8",
				   "--time", "10", "--quiet", "--no-db", "--json", json, NULL);
	th_loop_detach(dev);
	unmount(mnt);
	assert_int_equal(o.status, 1);
	assert_non_null(strstr(o.err, "point 1 stopped by an I/O error, a write of 4096 bytes"));
	th_out_free(&o);
	json_t *root = th_load_json(json);
	json_t *p = json_array_get(json_object_get(root, "points"), 0);
	assert_true(json_is_true(json_object_get(p, "partial")));
	json_t *e = json_object_get(p, "errors");
	assert_true(int_at(e, "count", NULL) > 0);
	assert_int_equal(int_at(e, "count", NULL), int_at(p, "write", "errors"));
	assert_string_equal(json_string_value(json_object_get(json_object_get(e, "first"), "op")),
			    "write");
	assert_true(json_is_null(json_object_get(p, "faults_injected")));
	json_decref(root);
}

/* --precondition on a file system that fills partway through a write: the short write is
 * carried on, and the error names the real cause (ENOSPC), not "short write". */
static void test_precondition_short_write(void **state)
{
	(void)state;
	char mnt[PATH_MAX], big[PATH_MAX + 16];
	if (!small_tmpfs("fs-pre", "size=4100k", mnt, sizeof(mnt))) /* not a multiple of 128k */
		skip();
	snprintf(big, sizeof(big), "%s/sparse.img", mnt);
	sparse_file(big, 16 << 20);
	struct th_out o = th_iolab("run", big, "--precondition", "--force", "--buffered", "--time",
				   "50ms", "--quiet", "--no-db", NULL);
	unmount(mnt);
	TH_EXPECT_EXIT(o, 2, "--precondition", "No space left on device");
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_each_fault_each_engine),
		cmocka_unit_test(test_vanish_each_engine),
		cmocka_unit_test(test_vanished_device_gives_up),
		cmocka_unit_test(test_stop_keeps_what_was_measured),
		cmocka_unit_test(test_sigterm_with_faults),
		cmocka_unit_test(test_same_seed_same_faults),
		cmocka_unit_test(test_bad_rules_refused),
		cmocka_unit_test(test_real_errors_from_a_loop_device),
		cmocka_unit_test(test_precondition_short_write),
	};
	return cmocka_run_group_tests(tests, setup, th_dir_teardown);
}
