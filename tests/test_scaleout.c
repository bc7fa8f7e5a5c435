/* test_scaleout.c: one run across MPI ranks (docs/scale-out.md), under a real mpirun with 2 and
 * 4 ranks on this machine (--oversubscribe; --allow-run-as-root as root), each job bounded by a
 * timeout so that ranks left waiting for each other fail the test instead of hanging it.
 * Asserted: each point's latency histogram is the exact merge of the ranks' (merged here again
 * from the per-rank histograms of the JSON), its I/Os and IOPS the sums of theirs, every rank
 * named by host; a simulated sweep spread over 4 ranks prints and writes exactly what one
 * process does; a rank whose target cannot be created stops the job before anything is written,
 * and the message names its host and rank; a rank killed during a run leaves rank 0 the points
 * finished before. The ranks stay in step where one of them alone fails or stops: rank 0
 * refusing its --json, I/O errors on one rank (with --repeat, and before a job file's second
 * run), SIGINT to one rank, a spread sweep stopped by one rank's point, a sweep with no point
 * for one rank: each job ends, every rank together, with rank 0's one line. Skips, saying why, without Open MPI. */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <cmocka.h>
#include <jansson.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "helpers.h"

static char mpirun[1024];

/* A shell function: rank1 PID prints the process of rank 1 among PID's descendants (this
 * test's own job, never another's on the machine), or nothing. */
static const char *rank1_of =
	"rank1() { for q in $(pgrep -P $1); do tr '\\0' '\\n' < /proc/$q/environ 2>/dev/null | "
	"grep -qx OMPI_COMM_WORLD_RANK=1 && echo $q; rank1 $q; done; };";

/* The mpirun prefix, or false (the test skips) if MPI is not there. */
static bool have_mpi(void)
{
#ifndef IOLAB_HAVE_MPI
	fprintf(stderr, "SKIP: iolab was built without MPI (libopenmpi-dev)\n");
	return false;
#else
	if (th_sh("command -v mpirun >/dev/null 2>&1")) {
		fprintf(stderr, "SKIP: no mpirun (openmpi-bin)\n");
		return false;
	}
	/* Open MPI keeps its plugins' memory to the end and unloads them first: LeakSanitizer
	 * cannot tell those from iolab's, so it is off for the ranks (AddressSanitizer stays) */
	snprintf(mpirun, sizeof(mpirun), "ASAN_OPTIONS=detect_leaks=0 timeout -k 5 60 mpirun -x "
		 "ASAN_OPTIONS --oversubscribe%s", geteuid() == 0 ? " --allow-run-as-root" : "");
	return true;
#endif
}

/* Adds the buckets of a lat_hist array ([[low, high, count], ...]) into sum, keyed by low. */
static void add_buckets(json_t *sum, json_t *hist)
{
	size_t i;
	json_t *b;
	json_array_foreach(hist, i, b) {
		char key[32];
		snprintf(key, sizeof(key), "%lld", (long long)json_integer_value(json_array_get(b, 0)));
		json_int_t n = json_integer_value(json_object_get(sum, key));
		json_object_set_new(sum, key, json_integer(n + json_integer_value(json_array_get(b, 2))));
	}
}

static void merged_run(unsigned n)
{
	char out[600];
	snprintf(out, sizeof(out), "%s/ranks%u.json", th_dir, n);
	assert_int_equal(th_sh("cd %s && %s -n %u $B run f%u.%%r --size 8M --pattern rand-read,seq-read "
			       "--qd 2 --ramp 0.2 --time 0.5 --no-db --quiet --json %s >/dev/null", th_dir, mpirun,
			       n, n, out), 0);
	json_t *j = th_load_json(out);
	assert_non_null(j);
	json_t *points = json_object_get(j, "points");
	assert_int_equal(json_array_size(points), 2);
	size_t i;
	json_t *p;
	json_array_foreach(points, i, p) {
		json_t *ranks = json_object_get(p, "ranks");
		assert_int_equal(json_array_size(ranks), n);
		json_t *mine = json_object(), *theirs = json_object();
		add_buckets(mine, json_object_get(json_object_get(p, "lat_hist"), "read"));
		add_buckets(mine, json_object_get(json_object_get(p, "lat_hist"), "write"));
		json_int_t ios = 0;
		double iops = 0;
		size_t r;
		json_t *q;
		json_array_foreach(ranks, r, q) {
			assert_int_equal(json_integer_value(json_object_get(q, "rank")), r);
			assert_true(strlen(json_string_value(json_object_get(q, "host"))) > 0);
			assert_true(json_integer_value(json_object_get(q, "ios")) > 0);
			/* the measured window starts after every rank's ramp, and lasts --time */
			double sec = json_real_value(json_object_get(q, "seconds"));
			assert_true(sec > 0.4 && sec < 2);
			ios += json_integer_value(json_object_get(q, "ios"));
			iops += json_real_value(json_object_get(q, "iops"));
			add_buckets(theirs, json_object_get(q, "lat_hist"));
			/* one host: its clock is rank 0's, within the measurement's own bound */
			double off = json_real_value(json_object_get(q, "clock_offset_us"));
			double bound = json_real_value(json_object_get(q, "clock_error_us"));
			assert_true(fabs(off) <= bound + 1);
			char f[600];
			snprintf(f, sizeof(f), "%s/f%u.%zu", th_dir, n, r);
			assert_true(th_exists(f)); /* %r named each rank's own file */
		}
		assert_int_equal(json_integer_value(json_object_get(p, "ios")), ios);
		assert_true(fabs(json_real_value(json_object_get(p, "iops")) - iops) <= 1e-6 * iops);
		assert_true(json_object_size(mine) > 0);
		assert_true(json_equal(mine, theirs)); /* the exact merge, bucket by bucket */
		json_decref(mine);
		json_decref(theirs);
	}
	json_decref(j);
}

static void two_ranks(void **state)
{
	(void)state;
	if (!have_mpi())
		skip();
	merged_run(2);
}

static void four_ranks(void **state)
{
	(void)state;
	if (!have_mpi())
		skip();
	merged_run(4);
}

/* A simulated sweep over 4 ranks: the table and the JSON of one process, byte for byte. */
static void sweep_as_one(void **state)
{
	(void)state;
	if (!have_mpi())
		skip();
	const char *sweep = "sim --array raid5:4,8 --stripe 16k,64k,256k --drive atlas10k --pattern "
			    "database --qd 8 --time 0.5 --no-db";
	assert_int_equal(th_sh("cd %s && $B %s > one.txt && $B %s --json one.json >/dev/null",
			       th_dir, sweep, sweep), 0);
	assert_int_equal(th_sh("cd %s && %s -n 4 $B %s > four.txt && %s -n 4 $B %s --json four.json "
			       ">/dev/null", th_dir, mpirun, sweep, mpirun, sweep), 0);
	assert_int_equal(th_sh("cd %s && cmp one.txt four.txt && cmp one.json four.json", th_dir), 0);
	char path[600];
	snprintf(path, sizeof(path), "%s/one.txt", th_dir);
	char *t = th_read_file(path, NULL);
	assert_non_null(strstr(t, "raid5 8x256k")); /* the last of the 6 points is there */
	free(t);
}

/* Rank 1's target cannot be created: the job stops before any rank writes, naming the host. */
static void bad_target(void **state)
{
	(void)state;
	if (!have_mpi())
		skip();
	char host[256] = "";
	gethostname(host, sizeof(host) - 1);
	assert_int_equal(th_sh("mkdir -p %s/d0", th_dir), 0);
	int rc = th_sh("cd %s && %s -n 2 $B run d%%r/f --size 8M --pattern rand-write --qd 2 --time 0.5 "
		       "--no-db > bad.out 2> bad.err", th_dir, mpirun);
	assert_int_equal(rc, 2);
	char path[600], want[400];
	snprintf(path, sizeof(path), "%s/bad.err", th_dir);
	char *e = th_read_file(path, NULL);
	snprintf(want, sizeof(want), "iolab: host %s (rank 1): ", host);
	if (!strstr(e, want) || !strstr(e, "d1/f"))
		fail_msg("expected '%s' about d1/f in:\n%s", want, e);
	free(e);
	snprintf(path, sizeof(path), "%s/d0/f", th_dir);
	assert_false(th_exists(path)); /* rank 0 wrote nothing either */
}

/* --split: two ranks write disjoint halves of one existing file; each rank's region is half
 * the file (a 1 MiB file, split, cannot hold a 1 MiB transfer; whole, it can). */
static void split_file(void **state)
{
	(void)state;
	if (!have_mpi())
		skip();
	char f[600];
	snprintf(f, sizeof(f), "%s/shared.img", th_dir);
	th_make_file(f, 16 << 20);
	assert_int_equal(th_sh("cd %s && %s -n 2 $B run shared.img --split --force --pattern seq-write "
			       "--bs 1m --qd 2 --time 0.5 --no-db --json split.json > /dev/null",
			       th_dir, mpirun), 0);
	snprintf(f, sizeof(f), "%s/split.json", th_dir);
	json_t *j = th_load_json(f);
	assert_non_null(j);
	json_t *p = json_array_get(json_object_get(j, "points"), 0);
	assert_int_equal(json_array_size(json_object_get(p, "ranks")), 2);
	json_decref(j);

	snprintf(f, sizeof(f), "%s/small.img", th_dir);
	th_make_file(f, 1 << 20);
	const char *read1m = "run small.img --force --pattern seq-read --bs 1m --time 0.2 --no-db";
	assert_int_equal(th_sh("cd %s && %s -n 2 $B %s > /dev/null", th_dir, mpirun, read1m), 0);
	assert_int_equal(th_sh("cd %s && %s -n 2 $B %s --split > /dev/null 2> small.err", th_dir,
			       mpirun, read1m), 2);
	snprintf(f, sizeof(f), "%s/small.err", th_dir);
	char *e = th_read_file(f, NULL);
	if (!strstr(e, "(524288 bytes) cannot hold a 1048576-byte transfer"))
		fail_msg("expected rank's half region (524288 bytes) refused in:\n%s", e);
	free(e);
}

/* Rank 1 is killed during the third point: rank 0 keeps, prints and saves the points finished
 * before, the one in progress marked partial, and says why. */
static void rank_dies(void **state)
{
	(void)state;
	if (!have_mpi())
		skip();
	int rc = th_sh("cd %s && (%s -n 2 $B run g.%%r --size 8M --pattern rand-read --bs 4k,8k,16k,32k "
		       "--qd 2 --time 1 --no-db --json dies.json > dies.out 2> dies.err & m=$!; "
		       "sleep 2.6; %s kill -9 $(rank1 $m); wait $m)", th_dir, mpirun, rank1_of);
	assert_true(rc != 0);
	char path[600];
	snprintf(path, sizeof(path), "%s/dies.err", th_dir);
	char *e = th_read_file(path, NULL);
	if (!strstr(e, "lost a rank"))
		fail_msg("no word of the lost rank in:\n%s", e);
	free(e);
	snprintf(path, sizeof(path), "%s/dies.json", th_dir);
	json_t *j = th_load_json(path);
	assert_non_null(j);
	json_t *points = json_object_get(j, "points");
	size_t n = json_array_size(points);
	assert_true(n >= 2 && n < 4);
	assert_int_equal(json_array_size(json_object_get(json_array_get(points, 0), "ranks")), 2);
	json_decref(j);
}

/* Rank 0 alone refuses (its --json exists; the other ranks write no outputs): every rank stops
 * before the run, rank 0 saying why, and none is left waiting in the run's first collective. */
static void refused_on_rank0(void **state)
{
	(void)state;
	if (!have_mpi())
		skip();
	char path[600];
	snprintf(path, sizeof(path), "%s/exists.json", th_dir);
	th_make_file(path, 0);
	int rc = th_sh("cd %s && %s -n 2 $B run r.%%r --size 8M --pattern rand-read --time 0.3 --no-db "
		       "--json exists.json > refused.out 2> refused.err", th_dir, mpirun);
	snprintf(path, sizeof(path), "%s/refused.err", th_dir);
	char *e = th_read_file(path, NULL);
	if (rc != 2 || !strstr(e, "iolab: --json exists.json: exists; use --force to replace it"))
		fail_msg("want status 2 (got %d) and the refusal in:\n%s", rc, e);
	free(e);
	snprintf(path, sizeof(path), "%s/r.1", th_dir);
	assert_false(th_exists(path)); /* rank 1 did not go on to create its target */
}

static char tmpfs_dir[600];

static int unmount_tmpfs(void **state)
{
	(void)state;
	if (*tmpfs_dir)
		th_sh("umount %s 2>/dev/null", tmpfs_dir);
	*tmpfs_dir = 0;
	return 0;
}

/* I/O errors on rank 1 only (its file lies on a full 1 MiB tmpfs): the ranks stop together after
 * the point, with --repeat 2 (rank 1 stops after its first run, so must rank 0) and before the
 * second run of a job file; rank 0 says so and exits 1. */
static void io_error_on_one_rank(void **state)
{
	(void)state;
	if (!have_mpi())
		skip();
	snprintf(tmpfs_dir, sizeof(tmpfs_dir), "%s/e1", th_dir);
	if (th_sh("mkdir -p %s/e0 %s && mount -t tmpfs -o size=1m iolab-test %s", th_dir, tmpfs_dir,
		  tmpfs_dir)) {
		*tmpfs_dir = 0;
		printf("SKIP: cannot mount a tmpfs (needs root)\n");
		skip();
	}
	assert_int_equal(th_sh("cd %s && truncate -s 8M e0/f e1/f && printf '[global]\\npattern = "
			       "rand-write\\ntime = 0.5\\nqd = 2\\nforce\\nbuffered\\ntarget = e%%%%r/f\\n"
			       "[run a]\\n[run b]\\n' > io.job", th_dir), 0);
	const char *runs[] = {"--job io.job", "e%r/f --force --buffered --pattern rand-write --qd 2 "
			      "--time 0.5 --repeat 2"};
	for (unsigned i = 0; i < 2; i++) {
		int rc = th_sh("cd %s && %s -n 2 $B run %s --no-db --json io.json > io.out 2> io.err",
			       th_dir, mpirun, runs[i]);
		char path[600];
		snprintf(path, sizeof(path), "%s/io.err", th_dir);
		char *e = th_read_file(path, NULL);
		if (rc != 1 || !strstr(e, "stopped by an I/O error"))
			fail_msg("%s: want status 1 (got %d) and the I/O error line in:\n%s", runs[i], rc, e);
		free(e);
		snprintf(path, sizeof(path), "%s/io.json", th_dir);
		json_t *j = th_load_json(path);
		assert_non_null(j);
		json_t *points = json_object_get(j, "points");
		assert_int_equal(json_array_size(points), 1); /* run b never started */
		json_t *p = json_array_get(points, 0);
		assert_int_equal(json_array_size(json_object_get(p, "ranks")), 2);
		assert_true(json_integer_value(json_object_get(json_object_get(p, "write"), "errors")) > 0);
		json_decref(j);
	}
}

/* SIGINT to rank 1 alone, once its handler is in place (SigCgt), during a sweep of three 1 s
 * points: rank 1 stops its point and waits for the others, the ranks stop together, and rank 0
 * reports the points as interrupted with both ranks' shares; the job is not lost. */
static void interrupt_one_rank(void **state)
{
	(void)state;
	if (!have_mpi())
		skip();
	char path[600];
	for (unsigned r = 0; r < 2; r++) {
		snprintf(path, sizeof(path), "%s/i.%u", th_dir, r);
		th_make_file(path, 8 << 20);
	}
	int rc = th_sh("cd %s && %s (%s -n 2 $B run i.%%r --pattern rand-read --bs 4k,8k,16k --qd 2 "
		       "--time 1 --no-db --json int.json > int.out 2> int.err & m=$!; r=; "
		       "while [ -z \"$r\" ] && kill -0 $m 2>/dev/null; do r=$(rank1 $m); sleep 0.01; done; "
		       "until grep -q '^SigCgt:.*[2367abef]$' /proc/$r/status 2>/dev/null || "
		       "! kill -0 $r 2>/dev/null; do sleep 0.01; done; kill -INT $r; wait $m)",
		       th_dir, rank1_of, mpirun);
	snprintf(path, sizeof(path), "%s/int.err", th_dir);
	char *e = th_read_file(path, NULL);
	snprintf(path, sizeof(path), "%s/int.out", th_dir);
	char *o = th_read_file(path, NULL);
	if (rc != 130 || strstr(e, "lost a rank") || !strstr(o, "interrupted: the last point is partial"))
		fail_msg("want status 130 (got %d), interrupted, no lost rank:\n--- stdout:\n%s"
			 "--- stderr:\n%s", rc, o, e);
	free(e);
	free(o);
	snprintf(path, sizeof(path), "%s/int.json", th_dir);
	json_t *j = th_load_json(path);
	assert_non_null(j);
	json_t *points = json_object_get(j, "points");
	assert_true(json_array_size(points) < 3);
	size_t i;
	json_t *p;
	json_array_foreach(points, i, p)
		assert_int_equal(json_array_size(json_object_get(p, "ranks")), 2);
	json_decref(j);
}

/* A spread sweep whose first point (rank 0's) has no steady state, in a job file of two runs:
 * every rank stops there, as one process does (rank 1's own point went fine, and it does not go
 * on to the second run alone): the same JSON, exit 1. */
static void spread_stop_together(void **state)
{
	(void)state;
	if (!have_mpi())
		skip();
	int rc = th_sh("cd %s && printf '[global]\\npattern = rand-read\\ntime = 5ms\\n[run a]\\n"
		       "qd = 64, 1\\n[run b]\\nqd = 1\\n' > stop.job && $B sim --model atlas10k --job "
		       "stop.job --no-db --json stop1.json > /dev/null 2> stop1.err", th_dir);
	char path[600];
	snprintf(path, sizeof(path), "%s/stop1.err", th_dir);
	char *e = th_read_file(path, NULL);
	if (rc != 1)
		fail_msg("one process: want status 1 (got %d):\n%s", rc, e);
	free(e);
	rc = th_sh("cd %s && %s -n 2 $B sim --model atlas10k --job stop.job --no-db --json stop2.json "
		   "> /dev/null 2> stop2.err", th_dir, mpirun);
	snprintf(path, sizeof(path), "%s/stop2.err", th_dir);
	e = th_read_file(path, NULL);
	if (rc != 1 || !strstr(e, "iolab: point 1 completed no I/O"))
		fail_msg("want status 1 (got %d) and point 1's line in:\n%s", rc, e);
	free(e);
	assert_int_equal(th_sh("cd %s && cmp stop1.json stop2.json", th_dir), 0);
	/* a sweep of one point: rank 1 has none to simulate, and still gathers with rank 0 */
	const char *one = "sim --model atlas10k --pattern rand-read --qd 2 --time 50ms --no-db";
	assert_int_equal(th_sh("cd %s && $B %s > lone1.txt && %s -n 2 $B %s > lone2.txt && "
			       "cmp lone1.txt lone2.txt", th_dir, one, mpirun, one), 0);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(two_ranks),
		cmocka_unit_test(four_ranks),
		cmocka_unit_test(sweep_as_one),
		cmocka_unit_test(bad_target),
		cmocka_unit_test(split_file),
		cmocka_unit_test(rank_dies),
		cmocka_unit_test(refused_on_rank0),
		cmocka_unit_test_teardown(io_error_on_one_rank, unmount_tmpfs),
		cmocka_unit_test(interrupt_one_rank),
		cmocka_unit_test(spread_stop_together),
	};
	return cmocka_run_group_tests(tests, th_dir_setup, th_dir_teardown);
}
