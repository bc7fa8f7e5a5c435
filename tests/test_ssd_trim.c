/* test_ssd_trim.c: TRIM travels the whole simulated path and lowers write amplification where
 * the trimmed data is not copied by GC before it is rewritten.
 *
 * Through the binary, on a small SSD model written by the test (4 dies, 64 MiB of flash, 10 %
 * spare; every run a fraction of a second), after --precondition (the SSD written whole, then at
 * random):
 * - the same sequential 4 KiB writes of the whole drive with trimwrite --trim-bs 16m (each 16 MiB
 *   trimmed before it is rewritten, fio's trimwrite with a trim size) have a lower WA than with
 *   seq-write: GC finds the old data already invalid; trimwrite without --trim-bs (a trim of
 *   each write's own page right before it) leaves WA as it is, and counts one trim per write;
 * - a fio iolog that trims the upper half of the drive and then writes at random into it, replayed
 *   on the SSD, counts its trim (points[].trims, components[].flash.trimmed_pages) and has a lower
 *   WA than the same log without the trim;
 * - a trim longer than 1 GiB (what one request may move) is replayed in pieces;
 * - randtrimwrite on a RAID 5 of four SSDs: every member unmaps pages, and the pages unmapped are
 *   the trims' data blocks (no parity): trims x 64 KiB / 4 KiB pages;
 * - a real engine refuses trimwrite (as the pattern of the run or of a job file's worker) with
 *   one line, before the target is made; --trim-bs that is not a multiple of --bs, or
 *   with another pattern, is refused with one line. */
#include <math.h>
#include <setjmp.h>
#include <stdarg.h>
#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <cmocka.h>
#include <jansson.h>

#include "helpers.h"

#define LOGICAL_PAGES 58982u

/* Runs `$B CMD --json FILE --no-db --quiet` (exit 0 expected) and returns its first point. */
static json_t *point_of(const char *cmd, json_t **doc)
{
	char json[300];
	snprintf(json, sizeof(json), "%s/run.json", th_dir);
	remove(json);
	int rc = th_sh("$B %s --json '%s' --no-db --quiet >/dev/null", cmd, json);
	if (rc)
		print_error("exit %d: %s\n", rc, cmd);
	assert_int_equal(rc, 0);
	*doc = th_load_json(json);
	assert_non_null(*doc);
	json_t *p = json_array_get(json_object_get(*doc, "points"), 0);
	assert_non_null(p);
	return p;
}

static double wa_of(const json_t *p)
{
	const json_t *v = json_object_get(p, "write_amplification");
	assert_true(json_is_number(v));
	return json_number_value(v);
}

static json_int_t trims_of(const json_t *p)
{
	const json_t *v = json_object_get(p, "trims");
	return json_is_integer(v) ? json_integer_value(v) : 0;
}

/* The pages the point's SSDs unmapped, and how many SSDs unmapped some. */
static json_int_t trimmed_pages(const json_t *p, unsigned *ssds_trimming)
{
	json_int_t sum = 0;
	size_t i;
	const json_t *c;
	*ssds_trimming = 0;
	json_array_foreach(json_object_get(p, "components"), i, c) {
		const json_t *f = json_object_get(c, "flash");
		if (strcmp(json_string_value(json_object_get(c, "kind")), "ssd") || !f)
			continue;
		json_int_t n = json_integer_value(json_object_get(f, "trimmed_pages"));
		sum += n;
		*ssds_trimming += n > 0;
	}
	return sum;
}

static void test_trimwrite_lowers_wa(void **state)
{
	(void)state;
	const char *m = th_tiny_ssd_model();
	char cmd[1024];
	json_t *d1, *d2, *d3;
	const char *common = "--bs 4k --qd 8 --precondition --bytes 100m";
	snprintf(cmd, sizeof(cmd), "sim --model '%s' --pattern seq-write %s", m, common);
	double plain = wa_of(point_of(cmd, &d1));
	snprintf(cmd, sizeof(cmd), "sim --model '%s' --pattern trimwrite %s", m, common);
	json_t *each = point_of(cmd, &d2);
	snprintf(cmd, sizeof(cmd), "sim --model '%s' --pattern trimwrite --trim-bs 16m %s", m, common);
	json_t *ahead = point_of(cmd, &d3);
	/* a trim of each page right before its write: GC sees the same valid pages */
	assert_int_equal(trims_of(each), json_integer_value(json_object_get(each, "ios")));
	assert_true(fabs(wa_of(each) - plain) < 1e-9);
	/* 100 MiB of writes in 16 MiB blocks: 7 trims, each ahead of its block's writes */
	assert_int_equal(trims_of(ahead), 7);
	bool noted = false; /* the table says IOPS leaves the trims out */
	size_t i;
	const json_t *w;
	json_array_foreach(json_object_get(ahead, "warnings"), i, w)
		noted |= strstr(json_string_value(w), "7 trims besides the I/Os counted") != NULL;
	assert_true(noted);
	assert_int_equal(json_integer_value(json_object_get(ahead, "ios")), 25600);
	assert_true(plain > 2);
	assert_true(wa_of(ahead) < 0.9 * plain);
	json_decref(d1);
	json_decref(d2);
	json_decref(d3);
}

/* A fio v2 iolog: (with the trim) the upper half of the drive trimmed, then n random 4 KiB
 * writes into it. */
static void write_log(const char *path, bool trim, unsigned n)
{
	FILE *f = fopen(path, "w");
	assert_non_null(f);
	unsigned lo = LOGICAL_PAGES / 2, span = LOGICAL_PAGES - lo;
	fprintf(f, "fio version 2 iolog\n/dev/ssd add\n/dev/ssd open\n");
	if (trim)
		fprintf(f, "/dev/ssd trim %llu %llu\n", 4096ull * lo, 4096ull * span);
	uint64_t x = 88172645463325252ull;
	for (unsigned i = 0; i < n; i++) {
		x ^= x << 13, x ^= x >> 7, x ^= x << 17;
		fprintf(f, "/dev/ssd write %llu 4096\n", 4096ull * (lo + x % span));
	}
	fprintf(f, "/dev/ssd close\n");
	fclose(f);
}

static void test_replay_trims(void **state)
{
	(void)state;
	const char *m = th_tiny_ssd_model();
	char with[300], without[300], cmd[1024];
	snprintf(with, sizeof(with), "%s/with.log", th_dir);
	snprintf(without, sizeof(without), "%s/without.log", th_dir);
	write_log(with, true, 20000);
	write_log(without, false, 20000);
	json_t *d1, *d2;
	snprintf(cmd, sizeof(cmd), "replay '%s' --format fio-iolog --model '%s' --precondition --qd 8",
		 with, m);
	json_t *t = point_of(cmd, &d1);
	snprintf(cmd, sizeof(cmd), "replay '%s' --format fio-iolog --model '%s' --precondition --qd 8",
		 without, m);
	json_t *p = point_of(cmd, &d2);
	assert_int_equal(trims_of(t), 1);
	assert_int_equal(trims_of(p), 0);
	assert_int_equal(json_integer_value(json_object_get(t, "ios")), 20000);
	json_t *rp = json_object_get(t, "replay");
	assert_int_equal(json_integer_value(json_object_get(rp, "skipped")), 0);
	unsigned n;
	assert_int_equal(trimmed_pages(t, &n), LOGICAL_PAGES - LOGICAL_PAGES / 2);
	assert_int_equal(n, 1);
	/* half the drive free while it is rewritten: far less for GC to copy */
	assert_true(wa_of(p) > 3);
	assert_true(wa_of(t) < 0.5 * wa_of(p));
	json_decref(d1);
	json_decref(d2);
}

/* A trim longer than a request may move (1 GiB) is replayed in pieces, on a disk too: the drive
 * takes them after its command overhead without moving data. */
static void test_long_trim_pieces(void **state)
{
	(void)state;
	char log[300], cmd[1024];
	snprintf(log, sizeof(log), "%s/long.log", th_dir);
	th_write_text(log, "fio version 2 iolog\n/dev/sdx add\n/dev/sdx open\n"
		      "/dev/sdx trim 0 2684354560\n/dev/sdx write 0 4096\n/dev/sdx close\n");
	json_t *d;
	snprintf(cmd, sizeof(cmd), "replay '%s' --format fio-iolog --model sata7200", log);
	json_t *p = point_of(cmd, &d);
	assert_int_equal(trims_of(p), 3); /* 1 GiB, 1 GiB, 0.5 GiB */
	assert_int_equal(json_integer_value(json_object_get(p, "ios")), 1);
	assert_int_equal(json_integer_value(json_object_get(p, "bytes")), 4096);
	json_decref(d);
}

static void test_raid5_members_trim(void **state)
{
	(void)state;
	const char *m = th_tiny_ssd_model();
	char cmd[1024];
	json_t *d;
	snprintf(cmd, sizeof(cmd), "sim --array raid5:4 --drive '%s' --stripe 64k --pattern "
		 "randtrimwrite --bs 64k --qd 8 --precondition --bytes 20m", m);
	json_t *p = point_of(cmd, &d);
	json_int_t trims = trims_of(p);
	assert_int_equal(trims, 320);
	unsigned n;
	/* each trim is one data unit of one member: 16 pages, and the parity is not trimmed */
	assert_int_equal(trimmed_pages(p, &n), trims * 16);
	assert_int_equal(n, 4);
	json_decref(d);
}

static void test_refusals(void **state)
{
	(void)state;
	const char *m = th_tiny_ssd_model();
	char file[300];
	snprintf(file, sizeof(file), "%s/scratch.dat", th_dir);
	struct th_out o = th_iolab("run", "--engine", "psync", "--pattern", "trimwrite", "--size", "1m",
				   "--time", "1", "--no-db", file, NULL);
	TH_EXPECT_EXIT(o, 2, "pattern trimwrite", "only on a simulated device", "psync");
	assert_false(th_exists(file)); /* refused before anything is made */
	char job[300];
	snprintf(job, sizeof(job), "%s/trim.job", th_dir);
	th_write_text(job, "[run r]\ntime = 1s\n[worker a]\npattern = randtrimwrite\nqd = 1\n");
	o = th_iolab("run", "--job", job, "--engine", "psync", "--size", "1m", "--no-db", file, NULL);
	TH_EXPECT_EXIT(o, 2, "worker 'a'", "pattern randtrimwrite", "only on a simulated device");
	assert_false(th_exists(file));
	o = th_iolab("sim", "--model", m, "--pattern", "trimwrite", "--bs", "12k", "--trim-bs", "16k",
		     "--time", "1", "--no-db", NULL);
	TH_EXPECT_EXIT(o, 2, "trimwrite", "16384 is not a multiple of the 12288-byte transfer");
	o = th_iolab("sim", "--model", m, "--pattern", "rand-write", "--trim-bs", "16k", "--time", "1",
		     "--no-db", NULL);
	TH_EXPECT_EXIT(o, 2, "--trim-bs", "rand-write");
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_trimwrite_lowers_wa),
		cmocka_unit_test(test_replay_trims),
		cmocka_unit_test(test_long_trim_pieces),
		cmocka_unit_test(test_raid5_members_trim),
		cmocka_unit_test(test_refusals),
	};
	return cmocka_run_group_tests(tests, th_dir_setup, th_dir_teardown);
}
