/* test_sim_raid.c: the volumes (comp_volume.c) with known answers. RAID 0's address mapping: a
 * request inside one stripe unit goes to one drive, one covering n units to each of n drives
 * once (each drive's blocks are contiguous); random reads at a depth that keeps every drive busy
 * scale with the drive count (close to n times one drive). RAID 1: reads scale with the copies,
 * writes do not (every copy writes every block). RAID 10 reads like RAID 0 of all its drives and
 * writes like RAID 0 of half; RAID 4's parity drive takes every write's parity; RAID 6's small
 * writes cost 6 drive I/Os and whole rows read nothing. And the command line's checks. */
#include <limits.h>
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <string.h>

#include <cmocka.h>
#include <jansson.h>

#include "helpers.h"
#include "iolab/disk_model.h"
#include "iolab/engine.h"
#include "iolab/sim_system.h"

/* Runs requests (lbn, blocks, write) one at a time through a volume of the level with n drives
 * (unit 128 blocks), drives f0 and f1 failed (0-based, -1: none), and adds up each drive's reads
 * and writes. */
static void run_failed(enum iolab_raid_level level, unsigned n, int f0, int f1,
		       const uint64_t (*req)[3], unsigned k, uint64_t *reads, uint64_t *writes)
{
	struct iolab_disk_model m;
	struct iolab_err err;
	assert_int_equal(iolab_model_open("atlas10k", &m, &err), 0);
	struct iolab_sim s;
	struct iolab_comp vol, d[10], *members[10];
	assert_int_equal(iolab_sim_init(&s, 64), 0);
	for (unsigned i = 0; i < n; i++) {
		assert_int_equal(iolab_comp_drive_init(&d[i], &s, &m), 0);
		members[i] = &d[i];
	}
	assert_int_equal(iolab_comp_volume_init(&vol, &s, members, n, m.blocks, m.block_bytes, level,
						128, (const int[2]){f0, f1}, 0), 0);
	static struct iolab_sreq r[64];
	for (unsigned i = 0; i < k; i++) {
		r[i] = (struct iolab_sreq){.d = {.lbn = req[i][0], .blocks = (uint32_t)req[i][1],
						 .write = req[i][2]}};
		assert_int_equal(vol.ops->submit(&vol, &r[i]), 0);
		while (iolab_sim_step(&s))
			;
		assert_int_equal(s.ndone, i + 1);
	}
	struct iolab_comp *const *got;
	assert_int_equal(iolab_comp_volume_members(&vol, &got), n);
	for (unsigned i = 0; i < n; i++) {
		assert_ptr_equal(got[i], &d[i]);
		reads[i] = iolab_comp_drive_stats(&d[i])->reads;
		writes[i] = iolab_comp_drive_stats(&d[i])->writes;
	}
	iolab_comp_free(&vol);
	for (unsigned i = 0; i < n; i++)
		iolab_comp_free(&d[i]);
	iolab_sim_free(&s);
	iolab_model_free(&m);
}

static void run_level(enum iolab_raid_level level, unsigned n, int failed, const uint64_t (*req)[3],
		      unsigned k, uint64_t *reads, uint64_t *writes)
{
	run_failed(level, n, failed, -1, req, k, reads, writes);
}

static uint64_t sum(const uint64_t *v, unsigned n)
{
	uint64_t t = 0;
	for (unsigned i = 0; i < n; i++)
		t += v[i];
	return t;
}

/* RAID 5 (left-symmetric, unit 128 blocks). A small write inside one unit reads the old data
 * and the old parity and writes both: exactly 4 drive I/Os with 4 or more drives (with 4,
 * reconstruct-write would read as many blocks: the tie goes to read-modify-write); with 3
 * drives reconstruct-write reads one unit instead of two: 3 I/Os. A write of a whole row
 * writes its n - 1 data units and the parity and reads nothing. A read touches only the
 * drive that holds the data. */
static void test_raid5(void **state)
{
	(void)state;
	uint64_t rd[8], wr[8];
	static uint64_t small[32][3];
	for (unsigned i = 0; i < 32; i++) { /* 8 blocks somewhere in unit 3i+1, not across units */
		small[i][0] = (3 * i + 1) * 128 + (i * 37) % 120;
		small[i][1] = 8;
		small[i][2] = 1;
	}
	for (unsigned n = 3; n <= 6; n++) {
		run_level(IOLAB_RAID5, n, -1, (const uint64_t(*)[3])small, 32, rd, wr);
		uint64_t ios = sum(rd, n) + sum(wr, n);
		print_message("RAID 5 of %u drives: 32 small writes cost %llu reads + %llu writes\n", n,
			      (unsigned long long)sum(rd, n), (unsigned long long)sum(wr, n));
		assert_int_equal(sum(wr, n), 64);
		assert_int_equal(ios, n == 3 ? 96 : 128);
	}
	/* Row 2 of a 5-drive volume: blocks 2 x 4 x 128 .. +4 x 128, written whole. */
	const uint64_t full[][3] = {{2 * 4 * 128, 4 * 128, 1}};
	run_level(IOLAB_RAID5, 5, -1, full, 1, rd, wr);
	assert_int_equal(sum(rd, 5), 0);
	for (unsigned i = 0; i < 5; i++)
		assert_int_equal(wr[i], 1); /* four data units and the parity, one per drive */
	/* Row 0 of 5 drives: parity on drive 4, data unit 0 on drive 0; unit 5 is row 1 (parity
	 * on drive 3) data unit 1: drive (3 + 1 + 1) mod 5 = 0. */
	const uint64_t reads[][3] = {{10, 8, 0}, {5 * 128 + 3, 8, 0}};
	run_level(IOLAB_RAID5, 5, -1, reads, 2, rd, wr);
	assert_int_equal(rd[0], 2);
	assert_int_equal(sum(rd, 5), 2);
	assert_int_equal(sum(wr, 5), 0);
	/* Drive 0 failed: each of those reads is rebuilt from the four surviving drives, one read
	 * on each (the row's other data units and its parity). */
	run_level(IOLAB_RAID5, 5, 0, reads, 2, rd, wr);
	assert_int_equal(rd[0], 0);
	for (unsigned i = 1; i < 5; i++)
		assert_int_equal(rd[i], 2);
	assert_int_equal(sum(wr, 5), 0);
	/* RAID 1 with its first copy failed: reads go to the other. */
	run_level(IOLAB_RAID1, 2, 0, reads, 2, rd, wr);
	assert_int_equal(rd[0], 0);
	assert_int_equal(rd[1], 2);
}

static void test_mapping(void **state)
{
	(void)state;
	uint64_t reads[4], writes[4];
	/* Units of 128 blocks: unit 5 is on drive 1 (5 mod 4). */
	const uint64_t one[][3] = {{5 * 128 + 10, 8, 0}};
	run_level(IOLAB_RAID0, 4, -1, one, 1, reads, writes);
	assert_int_equal(reads[0] + reads[2] + reads[3], 0);
	assert_int_equal(reads[1], 1);
	/* Eight units from unit 0: two per drive, contiguous on each, so one command per drive. */
	const uint64_t eight[][3] = {{0, 8 * 128, 0}};
	run_level(IOLAB_RAID0, 4, -1, eight, 1, reads, writes);
	for (unsigned i = 0; i < 4; i++)
		assert_int_equal(reads[i], 1);
	/* Crossing one unit boundary: units 2 and 3, drives 2 and 3. */
	const uint64_t cross[][3] = {{3 * 128 - 4, 8, 0}};
	run_level(IOLAB_RAID0, 4, -1, cross, 1, reads, writes);
	assert_int_equal(reads[0] + reads[1], 0);
	assert_int_equal(reads[2], 1);
	assert_int_equal(reads[3], 1);
}

static double iops_of(json_t *points, size_t i)
{
	return json_number_value(json_object_get(json_array_get(points, i), "iops"));
}

/* Random 4 KiB reads at QD 64: every drive of a 4-drive volume has about 16 requests waiting,
 * never idle, so the volume does close to 4 times one drive (each drive still seeks over its
 * whole surface: the volume addresses all of them). The shortfall is the random imbalance
 * between the drives' queues; 3.3x leaves room for it and fails if pieces were serialised. */
static void test_scaling(void **state)
{
	(void)state;
	char json[PATH_MAX];
	snprintf(json, sizeof(json), "%s/raid0.json", th_dir);
	struct th_out o = th_iolab("sim", "--array", "raid0:1,4", "--drive", "atlas10k", "--pattern",
				   "rand-read", "--bs", "4k", "--qd", "64", "--time", "30", "--quiet",
				   "--json", json, NULL);
	assert_int_equal(o.status, 0);
	th_out_free(&o);
	json_t *root = th_load_json(json);
	assert_non_null(root);
	json_t *pts = json_object_get(root, "points");
	assert_int_equal(json_array_size(pts), 2);
	double one = iops_of(pts, 0), four = iops_of(pts, 1);
	print_message("RAID 0 of atlas10k, 4k random reads QD 64: 1 drive %.1f, 4 drives %.1f IOPS "
		      "(%.2fx)\n", one, four, four / one);
	assert_true(four > 3.3 * one && four < 4.05 * one);
	json_t *vol = json_object_get(json_array_get(pts, 1), "volume");
	assert_int_equal(json_integer_value(json_object_get(vol, "drives")), 4);
	assert_int_equal(json_integer_value(json_object_get(vol, "stripe")), 65536);
	/* The explanation: host, volume and four drives; the drives carry the host's requests
	 * (every 4 KiB read is one drive command), each busy most of the time at this depth, and
	 * the bottleneck is a drive. */
	json_t *comps = json_object_get(json_array_get(pts, 1), "components");
	assert_int_equal(json_array_size(comps), 6);
	long long host_ios = json_integer_value(json_object_get(json_array_get(comps, 0), "ios")), drive_ios = 0;
	for (size_t i = 2; i < 6; i++) {
		json_t *d = json_array_get(comps, i);
		assert_string_equal(json_string_value(json_object_get(d, "kind")), "drive");
		double u = json_number_value(json_object_get(d, "utilization"));
		assert_true(u > 0.8 && u <= 1.0);
		drive_ios += json_integer_value(json_object_get(d, "ios"));
	}
	assert_true(drive_ios >= host_ios && drive_ios <= host_ios + 64); /* + those still in flight */
	const char *b = json_string_value(json_object_get(json_array_get(pts, 1), "bottleneck"));
	assert_non_null(b);
	assert_int_equal(strncmp(b, "drive", 5), 0);
	json_decref(root);
}

/* Random 4 KiB reads and writes at QD 64 on one drive and on a two-way mirror. Reads go to the
 * copy with the shorter queue: close to twice one drive. Every write goes to both copies: the
 * mirror writes no faster than one drive (and a little slower, waiting for the slower copy). */
static void test_mirror(void **state)
{
	(void)state;
	double r[2], w[2];
	for (int wr = 0; wr < 2; wr++) {
		char json[PATH_MAX];
		snprintf(json, sizeof(json), "%s/raid1-%d.json", th_dir, wr);
		struct th_out o = th_iolab("sim", "--array", "raid1:1,2", "--drive", "atlas10k", "--pattern",
					   wr ? "rand-write" : "rand-read", "--bs", "4k", "--qd", "64",
					   "--time", "30", "--quiet", "--json", json, NULL);
		assert_int_equal(o.status, 0);
		th_out_free(&o);
		json_t *root = th_load_json(json);
		assert_non_null(root);
		json_t *pts = json_object_get(root, "points");
		double *v = wr ? w : r;
		v[0] = iops_of(pts, 0);
		v[1] = iops_of(pts, 1);
		assert_string_equal(json_string_value(json_object_get(json_object_get(
			json_array_get(pts, 1), "volume"), "level")), "raid1");
		json_decref(root);
	}
	print_message("RAID 1 of atlas10k, QD 64: reads %.1f -> %.1f IOPS, writes %.1f -> %.1f IOPS "
		      "(1 -> 2 copies)\n", r[0], r[1], w[0], w[1]);
	assert_true(r[1] > 1.6 * r[0]);
	assert_true(w[1] < 1.05 * w[0]);
}

/* RAID 6 (left-symmetric as Linux md lays it out; unit 128 blocks). A small write inside one
 * unit updates the data, P and Q: read-modify-write reads the three old units and writes the
 * three new ones, 6 drive I/Os, the small-write cost of P+Q redundancy (Chen et al., "RAID:
 * High-Performance, Reliable Secondary Storage", ACM Computing Surveys 26(2), 1994, section
 * 3.2.6). Reconstruct-write reads the row's other data units instead when that is fewer blocks:
 * with 4 drives 1 read (4 I/Os), with 5 drives 2 reads (5 I/Os); from 6 drives on it would read
 * 3 or more and read-modify-write is kept (the tie at 6 included). */
static void test_raid6_writes(void **state)
{
	(void)state;
	uint64_t rd[10], wr[10];
	static uint64_t small[32][3];
	for (unsigned i = 0; i < 32; i++) { /* 8 blocks inside unit 3i+1 */
		small[i][0] = (3 * i + 1) * 128 + (i * 37) % 120;
		small[i][1] = 8;
		small[i][2] = 1;
	}
	for (unsigned n = 4; n <= 8; n++) {
		run_level(IOLAB_RAID6, n, -1, (const uint64_t(*)[3])small, 32, rd, wr);
		print_message("RAID 6 of %u drives: 32 small writes cost %llu reads + %llu writes\n", n,
			      (unsigned long long)sum(rd, n), (unsigned long long)sum(wr, n));
		assert_int_equal(sum(wr, n), 3 * 32);
		assert_int_equal(sum(rd, n), n == 4 ? 32 : n == 5 ? 64 : 96);
	}
	/* Row 2 of 6 drives written whole (four data units): one write on every drive, no read. */
	const uint64_t full[][3] = {{2 * 4 * 128, 4 * 128, 1}};
	run_level(IOLAB_RAID6, 6, -1, full, 1, rd, wr);
	assert_int_equal(sum(rd, 6), 0);
	for (unsigned i = 0; i < 6; i++)
		assert_int_equal(wr[i], 1);
	/* Two whole rows and a half: the half row is the only one that reads. */
	const uint64_t two[][3] = {{0, 10 * 128, 1}};
	run_level(IOLAB_RAID6, 6, -1, two, 1, rd, wr);
	assert_int_equal(sum(wr, 6), 6 + 6 + 4);
	assert_int_equal(sum(rd, 6), 2); /* reconstruct-write: the row's two other data units */
}

/* RAID 6 placement, 6 drives: row 0 has P on drive 5, Q on drive 0 and data unit 0 on drive 1;
 * row 1 has P on drive 4, Q on 5, data unit 0 on drive 0 (md's raid5.c, left-symmetric: P =
 * n - 1 - row mod n, Q = P + 1, data from P + 2). A small write of row 1 unit 0 touches drives
 * 0, 4 and 5 only. */
/* Degraded RAID 6 (6 drives). Row 0 has Q on drive 0 and data unit 0 on drive 1; row 1 has P
 * on drive 4, Q on 5 and data unit 0 on drive 0. With drive 1 lost, a read of row 0's unit 0 is
 * rebuilt from the row's other data and P (drives 2..5), Q not needed. With drives 0 and 1 lost
 * (two failures, which P and Q survive), reads of either are rebuilt from the four survivors, so
 * each of drives 2..5 reads once per read; drives 0 and 1 get nothing. */
static void test_raid6_degraded(void **state)
{
	(void)state;
	uint64_t rd[6], wr[6];
	const uint64_t one[][3] = {{10, 8, 0}};
	run_failed(IOLAB_RAID6, 6, 1, -1, one, 1, rd, wr);
	assert_int_equal(rd[0] + rd[1], 0);
	for (unsigned i = 2; i < 6; i++)
		assert_int_equal(rd[i], 1);
	const uint64_t reads[][3] = {{10, 8, 0}, {4 * 128 + 3, 8, 0}};
	run_failed(IOLAB_RAID6, 6, 0, 1, reads, 2, rd, wr);
	assert_int_equal(rd[0] + rd[1], 0);
	for (unsigned i = 2; i < 6; i++)
		assert_int_equal(rd[i], 2);
	/* A small write of row 1's unit 0 (on lost drive 0): its old data is rebuilt from the four
	 * survivors, then P and Q are written; the data write is not done. */
	const uint64_t w[][3] = {{4 * 128 + 3, 8, 1}};
	run_failed(IOLAB_RAID6, 6, 0, 1, w, 1, rd, wr);
	assert_int_equal(wr[0] + wr[1], 0);
	assert_int_equal(wr[4], 1);
	assert_int_equal(wr[5], 1);
	/* And through the command line: random reads of a RAID 6 with drives 1 and 2 lost. */
	char json[PATH_MAX];
	snprintf(json, sizeof(json), "%s/raid6-degraded.json", th_dir);
	struct th_out o = th_iolab("sim", "--array", "raid6:6", "--drive", "atlas10k", "--failed", "1+2",
				   "--pattern", "rand-read", "--bs", "4k", "--qd", "16", "--time", "10",
				   "--quiet", "--json", json, NULL);
	assert_int_equal(o.status, 0);
	th_out_free(&o);
	json_t *root = th_load_json(json);
	assert_non_null(root);
	json_t *pt = json_array_get(json_object_get(root, "points"), 0);
	json_t *comps = json_object_get(pt, "components");
	print_message("RAID 6 of 6 atlas10k, drives 1 and 2 failed, 4k random reads QD 16: %.1f IOPS\n",
		      json_number_value(json_object_get(pt, "iops")));
	assert_true(json_number_value(json_object_get(pt, "iops")) > 50);
	assert_int_equal(json_integer_value(json_object_get(json_array_get(comps, 2), "ios")), 0);
	assert_int_equal(json_integer_value(json_object_get(json_array_get(comps, 3), "ios")), 0);
	json_decref(root);
}

static void test_raid6_layout(void **state)
{
	(void)state;
	uint64_t rd[6], wr[6];
	const uint64_t reads[][3] = {{10, 8, 0}, {4 * 128 + 3, 8, 0}};
	run_level(IOLAB_RAID6, 6, -1, reads, 2, rd, wr);
	assert_int_equal(rd[1], 1);
	assert_int_equal(rd[0], 1);
	assert_int_equal(sum(rd, 6), 2);
	const uint64_t write[][3] = {{4 * 128 + 3, 8, 1}};
	run_level(IOLAB_RAID6, 6, -1, write, 1, rd, wr);
	for (unsigned i = 0; i < 6; i++) {
		bool touched = i == 0 || i == 4 || i == 5;
		assert_int_equal(rd[i], touched);
		assert_int_equal(wr[i], touched);
	}
}

/* RAID 4: the parity of every row is on the last drive, so every small write reads and writes
 * it (read-modify-write on 5 drives: old data and parity, 2 reads and 2 writes), and reads never
 * go there. The data unit j of a row is on drive j. */
static void test_raid4(void **state)
{
	(void)state;
	uint64_t rd[5], wr[5];
	static uint64_t small[32][3], reads[32][3];
	for (unsigned i = 0; i < 32; i++) {
		small[i][0] = reads[i][0] = (5 * i + 2) * 128 + (i * 37) % 120;
		small[i][1] = reads[i][1] = 8;
		small[i][2] = 1;
		reads[i][2] = 0;
	}
	run_level(IOLAB_RAID4, 5, -1, (const uint64_t(*)[3])small, 32, rd, wr);
	assert_int_equal(rd[4], 32);
	assert_int_equal(wr[4], 32);
	assert_int_equal(sum(rd, 4), 32);
	assert_int_equal(sum(wr, 4), 32);
	run_level(IOLAB_RAID4, 5, -1, (const uint64_t(*)[3])reads, 32, rd, wr);
	assert_int_equal(rd[4], 0);
	assert_int_equal(sum(rd, 5), 32);
	/* Unit 5i + 2 is data unit (5i + 2) mod 4 = (i + 2) mod 4 of its row: 8 reads on each of
	 * drives 0..3. */
	for (unsigned i = 0; i < 4; i++)
		assert_int_equal(rd[i], 8);
}

/* RAID 10 of 4 drives (pairs 0-1 and 2-3, unit 128 blocks): unit 5 is on pair 5 mod 2 = 1. A
 * write goes to both drives of the pair, a read to one of them. With drives 0 and 3 failed (one
 * per pair) every read is served by the other copy and writes reach only the live ones. */
static void test_raid10(void **state)
{
	(void)state;
	uint64_t rd[4], wr[4];
	const uint64_t w[][3] = {{5 * 128 + 10, 8, 1}};
	run_level(IOLAB_RAID10, 4, -1, w, 1, rd, wr);
	assert_int_equal(wr[0] + wr[1], 0);
	assert_int_equal(wr[2], 1);
	assert_int_equal(wr[3], 1);
	const uint64_t r[][3] = {{5 * 128 + 10, 8, 0}, {0, 8, 0}, {2 * 128, 4 * 128, 0}};
	run_level(IOLAB_RAID10, 4, -1, r, 3, rd, wr);
	assert_int_equal(rd[0] + rd[1], 2); /* unit 0, and units 2..5 of pair 0 in one piece */
	assert_int_equal(rd[2] + rd[3], 2);
	run_failed(IOLAB_RAID10, 4, 0, 3, r, 3, rd, wr);
	assert_int_equal(rd[0] + rd[3], 0);
	assert_int_equal(rd[1], 2);
	assert_int_equal(rd[2], 2);
	run_failed(IOLAB_RAID10, 4, 0, 3, w, 1, rd, wr);
	assert_int_equal(wr[2], 1);
	assert_int_equal(wr[3], 0);
}

/* Random 4 KiB reads and writes at QD 64 on Atlas 10K drives. A RAID 10 of 4 reads from all
 * four drives, each read going to the less busy copy: within 10 % of a RAID 0 of 4. Every write
 * goes to both drives of a pair, so it writes like a RAID 0 of 2 (waiting for the slower copy
 * makes it a little slower: within 10 %). Each drive seeks over its whole surface in all three. */
static void test_raid10_scaling(void **state)
{
	(void)state;
	double v[2][2]; /* [read, write][raid0, raid10] */
	for (int wr = 0; wr < 2; wr++) {
		for (int ten = 0; ten < 2; ten++) {
			char json[PATH_MAX];
			snprintf(json, sizeof(json), "%s/raid10-%d-%d.json", th_dir, wr, ten);
			struct th_out o = th_iolab("sim", "--array", ten ? "raid10:4" : wr ? "raid0:2" : "raid0:4",
						   "--drive", "atlas10k", "--pattern",
						   wr ? "rand-write" : "rand-read", "--bs", "4k", "--qd", "64",
						   "--time", "30", "--quiet", "--json", json, NULL);
			assert_int_equal(o.status, 0);
			th_out_free(&o);
			json_t *root = th_load_json(json);
			assert_non_null(root);
			v[wr][ten] = iops_of(json_object_get(root, "points"), 0);
			json_decref(root);
		}
	}
	print_message("atlas10k QD 64: reads RAID 0 of 4 %.1f, RAID 10 of 4 %.1f IOPS; writes RAID 0 "
		      "of 2 %.1f, RAID 10 of 4 %.1f IOPS\n", v[0][0], v[0][1], v[1][0], v[1][1]);
	assert_true(v[0][1] > 0.9 * v[0][0] && v[0][1] < 1.1 * v[0][0]);
	assert_true(v[1][1] > 0.9 * v[1][0] && v[1][1] < 1.1 * v[1][0]);
}

/* A volume addresses whole stripe units of each drive: the Atlas 10K's 17966953 blocks (its
 * zones' total, which DiskSim 4.0 uses instead of the specification's Block count) hold 8772
 * units of 1 MiB and 1897 blocks more, left out. RAID 0 of 2 therefore ends at 2 x 8772 MiB:
 * a region reaching past it is refused, one ending there is run. */
static void test_whole_units(void **state)
{
	(void)state;
	struct th_out o = th_iolab("sim", "--array", "raid0:2", "--stripe", "1m", "--drive", "atlas10k",
				   "--offset", "18396213248", "--length", "8k", "--pattern", "rand-read",
				   "--bs", "4k", "--time", "1", "--quiet", NULL);
	TH_EXPECT_EXIT(o, 2, "region", "18396217344");
	o = th_iolab("sim", "--array", "raid0:2", "--stripe", "1m", "--drive", "atlas10k", "--offset",
		     "18396213248", "--length", "4k", "--pattern", "rand-read", "--bs", "4k", "--time",
		     "1", "--quiet", NULL);
	assert_int_equal(o.status, 0);
	th_out_free(&o);
}

/* A RAID 5 of 4 Atlas 10K drives, each member cut to 16384 blocks (8 MiB, 128 units of 64
 * KiB), drive 1 (0-based) failed and rebuilt at rate bytes/s. */
struct rebuild_rig {
	struct iolab_disk_model m;
	struct iolab_sim s;
	struct iolab_comp vol, d[4];
};

static void rig_open(struct rebuild_rig *g, enum iolab_raid_level level, unsigned n, uint64_t rate)
{
	struct iolab_err err;
	assert_int_equal(iolab_model_open("atlas10k", &g->m, &err), 0);
	assert_int_equal(iolab_sim_init(&g->s, 64), 0);
	struct iolab_comp *members[4];
	for (unsigned i = 0; i < n; i++) {
		assert_int_equal(iolab_comp_drive_init(&g->d[i], &g->s, &g->m), 0);
		members[i] = &g->d[i];
	}
	assert_int_equal(iolab_comp_volume_init(&g->vol, &g->s, members, n, 16384, g->m.block_bytes,
						level, 128, (const int[2]){1, -1}, rate), 0);
}

static void rig_close(struct rebuild_rig *g, unsigned n)
{
	iolab_comp_free(&g->vol);
	for (unsigned i = 0; i < n; i++)
		iolab_comp_free(&g->d[i]);
	iolab_sim_free(&g->s);
	iolab_model_free(&g->m);
}

static struct iolab_rebuild_report rig_rebuild(const struct rebuild_rig *g)
{
	struct iolab_comp_report r;
	iolab_comp_volume_report(&g->vol, &r);
	return r.rebuild;
}

/* Without a load, a rebuild paced at R over members of C bytes ends about C / R after it starts
 * (its last unit starts at (C - unit) / R, 3.969 s here, and takes a few ms): 8 MiB at 2 MiB/s,
 * 4 s within 1 %.
 * Every unit is read once from each of the three survivors and written once to the
 * replacement; a RAID 1's is read from the other copy. */
static void test_rebuild_time(void **state)
{
	(void)state;
	for (int mirror = 0; mirror < 2; mirror++) {
		unsigned n = mirror ? 2 : 4;
		struct rebuild_rig g;
		rig_open(&g, mirror ? IOLAB_RAID1 : IOLAB_RAID5, n, 2 << 20);
		while (iolab_sim_step(&g.s))
			;
		struct iolab_rebuild_report b = rig_rebuild(&g);
		print_message("%s rebuild of 8 MiB at 2 MiB/s without a load: %.3f s\n",
			      mirror ? "RAID 1" : "RAID 5", b.ns / 1e9);
		assert_int_equal(b.total_bytes, 8 << 20);
		assert_int_equal(b.done_bytes, 8 << 20);
		assert_true(b.ns > 3.96e9 && b.ns < 4.04e9);
		assert_int_equal(b.drive[0], 1);
		assert_int_equal(b.drive[1], -1);
		for (unsigned i = 0; i < n; i++) {
			const struct iolab_disk_stats *st = iolab_comp_drive_stats(&g.d[i]);
			assert_int_equal(st->reads, i == 1 ? 0 : 128);
			assert_int_equal(st->writes, i == 1 ? 128 : 0);
		}
		rig_close(&g, n);
	}
}

/* Half way through the rebuild, a read of the replaced drive below the rebuild point is served
 * by the replacement; one above it is still rebuilt from the survivors. Row 60 and row 100 of
 * the RAID 5 of 4 both have parity on drive 3 and data unit 1 on drive 1: volume units 181 and
 * 301. Once the rebuild has finished, the volume is whole: a read of row 100 goes to drive 1. */
static void test_rebuild_point(void **state)
{
	(void)state;
	struct rebuild_rig g;
	rig_open(&g, IOLAB_RAID5, 4, 2 << 20);
	while (rig_rebuild(&g).done_bytes < (4 << 20) && iolab_sim_step(&g.s))
		;
	assert_true(rig_rebuild(&g).ns < 0);
	static struct iolab_sreq r[3];
	const uint64_t lbn[3] = {181 * 128 + 5, 301 * 128 + 5, 301 * 128 + 5};
	uint64_t want[3] = {1, 1, 2}; /* drive 1's reads after each */
	for (unsigned k = 0; k < 3; k++) {
		if (k == 2)
			while (iolab_sim_step(&g.s))
				; /* to the end of the rebuild */
		r[k] = (struct iolab_sreq){.d = {.lbn = lbn[k], .blocks = 8}};
		assert_int_equal(g.vol.ops->submit(&g.vol, &r[k]), 0);
		while (g.s.ndone < k + 1 && iolab_sim_step(&g.s))
			;
		assert_int_equal(g.s.ndone, k + 1);
		assert_int_equal(iolab_comp_drive_stats(&g.d[1])->reads, want[k]);
	}
	assert_true(rig_rebuild(&g).ns > 0);
	rig_close(&g, 4);
}

/* Through the command line. The example of a rebuild beside a load: RAID 5 of 5 Atlas 10K,
 * drive 2 replaced, 10 MiB/s asked, file-server at QD 16 for an hour; it finishes within the
 * hour (the drives' 5.2 MB/s interface and the load keep it below the rate asked). Then a light
 * load (QD 1, 4 KiB random reads) that leaves the drives free most of the time: after 60 s the
 * rebuild point is where the rate puts it, 60 s x 1 MiB/s, within 1 %. */
static void test_rebuild_cli(void **state)
{
	(void)state;
	char json[PATH_MAX];
	snprintf(json, sizeof(json), "%s/rebuild.json", th_dir);
	struct th_out o = th_iolab("sim", "--array", "raid5:5", "--drive", "atlas10k", "--failed", "2",
				   "--rebuild-rate", "10M", "--pattern", "file-server", "--qd", "16",
				   "--time", "3600", "--json", json, NULL);
	assert_int_equal(o.status, 0);
	assert_non_null(strstr(o.out, "rebuild of drive 2: 100% in "));
	th_out_free(&o);
	json_t *root = th_load_json(json);
	assert_non_null(root);
	json_t *rb = json_object_get(json_array_get(json_object_get(root, "points"), 0), "rebuild");
	double secs = json_number_value(json_object_get(rb, "seconds"));
	print_message("raid5:5 atlas10k, drive 2 rebuilt at 10M beside file-server QD 16: %.1f s\n", secs);
	assert_true(json_is_true(json_object_get(rb, "finished")));
	assert_int_equal(json_integer_value(json_object_get(rb, "rate_bytes_s")), 10 << 20);
	assert_int_equal(json_integer_value(json_object_get(rb, "done_bytes")),
			 json_integer_value(json_object_get(rb, "total_bytes")));
	assert_int_equal(json_integer_value(json_array_get(json_object_get(rb, "drives"), 0)), 2);
	assert_true(secs > 9184760832.0 / (10 << 20) && secs < 3600);
	json_decref(root);

	o = th_iolab("sim", "--array", "raid5:5", "--drive", "atlas10k", "--failed", "2", "--rebuild-rate",
		     "1M", "--pattern", "rand-read", "--bs", "4k", "--qd", "1", "--time", "60", "--json",
		     json, "--force", NULL);
	assert_int_equal(o.status, 0);
	assert_non_null(strstr(o.out, "rebuild of drive 2: 0% done when the run ended"));
	th_out_free(&o);
	root = th_load_json(json);
	assert_non_null(root);
	json_t *pt = json_array_get(json_object_get(root, "points"), 0);
	rb = json_object_get(pt, "rebuild");
	double done = (double)json_integer_value(json_object_get(rb, "done_bytes"));
	double elapsed = json_number_value(json_object_get(pt, "seconds"));
	print_message("rebuild at 1 MiB/s beside QD 1 reads: %.0f bytes in %.1f s (%.4f MiB/s)\n", done,
		      elapsed, done / elapsed / (1 << 20));
	assert_true(json_is_false(json_object_get(rb, "finished")));
	assert_true(json_is_null(json_object_get(rb, "seconds")));
	assert_true(done / elapsed > 0.99 * (1 << 20) && done / elapsed <= 1.0 * (1 << 20));
	json_decref(root);
	/* No --rebuild-rate: no rebuild object. */
	o = th_iolab("sim", "--array", "raid5:5", "--drive", "atlas10k", "--failed", "2", "--time", "1",
		     "--json", json, "--force", "--quiet", NULL);
	assert_int_equal(o.status, 0);
	th_out_free(&o);
	root = th_load_json(json);
	assert_non_null(root);
	assert_true(json_is_null(json_object_get(json_array_get(json_object_get(root, "points"), 0),
						 "rebuild")));
	json_decref(root);
}

static void test_bad_input(void **state)
{
	(void)state;
	struct th_out o = th_iolab("sim", "--array", "raid7:4", "--drive", "atlas10k", NULL);
	TH_EXPECT_EXIT(o, 2, "--array", "raid7:4");
	o = th_iolab("sim", "--array", "raid10:5", "--drive", "atlas10k", NULL);
	TH_EXPECT_EXIT(o, 2, "--array", "5", "even");
	o = th_iolab("sim", "--array", "raid10:2", "--drive", "atlas10k", NULL);
	TH_EXPECT_EXIT(o, 2, "--array raid10:2", "raid10 needs at least 4 drives, not 2");
	o = th_iolab("sim", "--array", "raid6:3", "--drive", "atlas10k", NULL);
	TH_EXPECT_EXIT(o, 2, "--array raid6:3", "raid6 needs at least 4 drives, not 3");
	o = th_iolab("sim", "--array", "raid4:2", "--drive", "atlas10k", NULL);
	TH_EXPECT_EXIT(o, 2, "--array", "raid4 needs at least 3 drives, not 2");
	o = th_iolab("sim", "--array", "raid5:2", "--drive", "atlas10k", NULL);
	TH_EXPECT_EXIT(o, 2, "--array", "raid5 needs at least 3 drives, not 2");
	o = th_iolab("sim", "--array", "raid0:0", "--drive", "atlas10k", NULL);
	TH_EXPECT_EXIT(o, 2, "--array", "0");
	o = th_iolab("sim", "--array", "raid0:65", "--drive", "atlas10k", NULL);
	TH_EXPECT_EXIT(o, 2, "--array", "65");
	o = th_iolab("sim", "--array", "raid0:4", "--drive", "atlas10k", "--stripe", "1000", NULL);
	TH_EXPECT_EXIT(o, 2, "--stripe", "512");
	o = th_iolab("sim", "--array", "raid0:4", "--model", "atlas10k", NULL);
	TH_EXPECT_EXIT(o, 2, "--array", "--model");
	o = th_iolab("sim", "--drive", "atlas10k", NULL);
	TH_EXPECT_EXIT(o, 2, "--drive", "--array");
	o = th_iolab("sim", "--array", "raid5:5", "--drive", "atlas10k", "--failed", "6", NULL);
	TH_EXPECT_EXIT(o, 2, "--failed 6", "5 drives");
	o = th_iolab("sim", "--array", "raid5:5", "--drive", "atlas10k", "--failed", "1,2", NULL);
	TH_EXPECT_EXIT(o, 2, "--failed", "N or N+M");
	o = th_iolab("sim", "--array", "raid6:5", "--drive", "atlas10k", "--failed", "1+2+3", NULL);
	TH_EXPECT_EXIT(o, 2, "--failed", "N or N+M");
	o = th_iolab("sim", "--array", "raid6:5", "--drive", "atlas10k", "--failed", "3+3", NULL);
	TH_EXPECT_EXIT(o, 2, "--failed", "twice");
	o = th_iolab("sim", "--array", "raid6:5", "--drive", "atlas10k", "--failed", "2+6", NULL);
	TH_EXPECT_EXIT(o, 2, "--failed 2+6", "5 drives");
	o = th_iolab("sim", "--array", "raid5:5", "--drive", "atlas10k", "--failed", "1+3", NULL);
	TH_EXPECT_EXIT(o, 2, "--failed 1+3", "raid5 survives one failed drive, not two");
	o = th_iolab("sim", "--array", "raid4:5", "--drive", "atlas10k", "--failed", "1+3", NULL);
	TH_EXPECT_EXIT(o, 2, "--failed 1+3", "raid4 survives one failed drive, not two");
	o = th_iolab("sim", "--array", "raid1:3", "--drive", "atlas10k", "--failed", "1+3", NULL);
	TH_EXPECT_EXIT(o, 2, "--failed 1+3", "raid1 survives one failed drive, not two");
	o = th_iolab("sim", "--array", "raid10:6", "--drive", "atlas10k", "--failed", "4+3", NULL);
	TH_EXPECT_EXIT(o, 2, "--failed 4+3", "drives 3 and 4", "pair");
	o = th_iolab("sim", "--array", "raid0:4", "--drive", "atlas10k", "--failed", "1+3", NULL);
	TH_EXPECT_EXIT(o, 2, "--failed 1+3", "raid0 has no redundancy");
	o = th_iolab("sim", "--array", "raid0:4", "--drive", "atlas10k", "--failed", "1", NULL);
	TH_EXPECT_EXIT(o, 2, "--failed 1", "raid0 has no redundancy");
	o = th_iolab("sim", "--array", "raid5:4", "--drive", "atlas10k", "--rebuild-rate", "10M", NULL);
	TH_EXPECT_EXIT(o, 2, "--rebuild-rate", "--failed");
	o = th_iolab("sim", "--array", "raid5:4", "--drive", "atlas10k", "--failed", "1",
		     "--rebuild-rate", "0", NULL);
	TH_EXPECT_EXIT(o, 2, "rebuild-rate", "more than 0");
	o = th_iolab("run", "--engine", "null", "--rebuild-rate", "10M", NULL);
	TH_EXPECT_EXIT(o, 2, "--rebuild-rate", "simulated drive");
	o = th_iolab("run", "--engine", "null", "--array", "raid0:2", NULL);
	TH_EXPECT_EXIT(o, 2, "--array", "simulated drive");
}

/* A volume of drives without command queuing (Barracuda): the pieces waiting for each drive
 * are sent in the host's order, as each member disk of Linux md has its own queue. With cscan
 * random reads at QD 64 gain from the sorting as on one drive; with none they do not, and the
 * figures are those of arrival order. */
static void test_member_queue_order(void **state)
{
	(void)state;
	double iops[2];
	const char *sched[2] = {"none", "cscan"};
	for (int i = 0; i < 2; i++) {
		char json[PATH_MAX];
		snprintf(json, sizeof(json), "%s/order-%s.json", th_dir, sched[i]);
		struct th_out o = th_iolab("sim", "--array", "raid0:4", "--drive", "barracuda",
					   "--host-scheduler", sched[i], "--pattern", "rand-read", "--bs",
					   "4k", "--qd", "64", "--time", "60", "--quiet", "--json", json, NULL);
		assert_int_equal(o.status, 0);
		th_out_free(&o);
		json_t *root = th_load_json(json);
		assert_non_null(root);
		iops[i] = iops_of(json_object_get(root, "points"), 0);
		json_decref(root);
	}
	print_message("RAID 0 of 4 barracuda, 4k random reads QD 64: none %.1f, cscan %.1f IOPS\n",
		      iops[0], iops[1]);
	assert_true(iops[1] > 1.3 * iops[0]);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_mapping),
		cmocka_unit_test(test_scaling),
		cmocka_unit_test(test_mirror),
		cmocka_unit_test(test_raid5),
		cmocka_unit_test(test_raid6_writes),
		cmocka_unit_test(test_raid6_layout),
		cmocka_unit_test(test_raid6_degraded),
		cmocka_unit_test(test_raid4),
		cmocka_unit_test(test_raid10),
		cmocka_unit_test(test_raid10_scaling),
		cmocka_unit_test(test_whole_units),
		cmocka_unit_test(test_rebuild_time),
		cmocka_unit_test(test_rebuild_point),
		cmocka_unit_test(test_rebuild_cli),
		cmocka_unit_test(test_member_queue_order),
		cmocka_unit_test(test_bad_input),
	};
	return cmocka_run_group_tests(tests, th_dir_setup, th_dir_teardown);
}
