/* test_disksim_cache.c: DiskSim 4.0 disk cache and buffer parameters (manual 3.4.5 pp14-24) that
 * the importer (import_disksim.c, disksim_cache_fields.c) and the drive (disk.c, readahead.c)
 * take, on the tiny drive of tests/data/disksim-specs/cache-ctl.inc: 2 surfaces, cylinders 0..2
 * with 10 sectors a track (a track holds LBNs 10k..10k+9, a cylinder 20c..20c+19), 6000 rpm,
 * segments of 32 blocks, Maximum read-ahead 40.
 *
 *  - each "Buffer continuous read" mode (p19): after a read of LBNs 3..4, the read-ahead reaches
 *    the end of the track (1), of the cylinder (2), fills the segment (3), the end of the track
 *    of the block after the read (4), or nothing (0); a later one-block read shows it: a hit
 *    inside the extent, a miss just past it. "Maximum read-ahead" caps every mode (p20);
 *    "Minimum read-ahead" holds the next command until that much has been read (p19);
 *  - "Fast write level" (p20): 1 as the model's write_back = sequential (only a write that
 *    appends to the previous write completes from the cache) against 2 (every write does);
 *    the importer's mapping of 1 (docs/model-format.md, "Cache and buffer fields");
 *  - "Combine seq writes", "Read-ahead on idle hit", "Write hit stop prefetch" = 0 and "Read
 *    directly to buffer" = 0 (pp19-20), each against the drive without it;
 *  - refusals: values outside the manual's ranges, and the parameters iolab does not model at a
 *    value other than the one matching its drive, each with the field and the line.
 */
#include <errno.h>
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <string.h>

#include <cmocka.h>

#include "helpers.h"
#include "iolab/disk_model.h"
#include "iolab/disk_sim.h"
#include "iolab/disksim_import.h"

#define MS 1000000ull /* ns */

static void refused(const char *name, const char *want)
{
	char rel[256], path[1024];
	struct iolab_err err = {{0}};
	struct iolab_disk_model m;
	snprintf(rel, sizeof(rel), "disksim-specs/%s", name);
	th_data_path(path, sizeof(path), rel);
	assert_int_equal(iolab_import_disksim(path, &m, &err), -EINVAL);
	if (!strstr(err.msg, want)) {
		print_error("message '%s' should contain '%s'\n", err.msg, want);
		fail();
	}
}

/* Serves one request at `at` (ns); returns its service time. */
static uint64_t serve(struct iolab_disk *d, uint64_t lbn, uint32_t n, bool write, uint64_t at)
{
	struct iolab_disk_req r = {.lbn = lbn, .blocks = n, .write = write, .t_arrive = at};
	assert_int_equal(iolab_disk_submit(d, &r), 0);
	assert_ptr_equal(iolab_disk_next(d), &r);
	return r.t_done - r.t_arrive;
}

/* Reads LBNs 3..4 at 0, then one block at `probe` a second later: whether it was a hit. */
static bool cached_after(const struct iolab_disk_model *m, uint64_t probe)
{
	struct iolab_disk *d = iolab_disk_new(m);
	assert_non_null(d);
	serve(d, 3, 2, false, 0);
	uint64_t hits = iolab_disk_stats(d)->read_hits;
	serve(d, probe, 1, false, 1000 * MS);
	bool hit = iolab_disk_stats(d)->read_hits > hits;
	iolab_disk_free(d);
	return hit;
}

/* Blocks [3, end) are cached after the read, block end is not. */
static void extent(const struct iolab_disk_model *m, uint64_t end)
{
	if (end > 5)
		assert_true(cached_after(m, end - 1));
	assert_false(cached_after(m, end));
}

static void test_mode0_none(void **state)
{
	(void)state;
	struct iolab_disk_model m;
	th_import_spec("ra0.diskspecs", &m);
	assert_int_equal(m.readahead, IOLAB_PF_NONE);
	extent(&m, 5); /* 0 disables prefetching */
	iolab_model_free(&m);
}

static void test_mode1_track(void **state)
{
	(void)state;
	struct iolab_disk_model m;
	th_import_spec("ra1.diskspecs", &m);
	assert_int_equal(m.readahead, IOLAB_PF_TRACK);
	extent(&m, 10); /* to the end of the track of the last sector read */
	m.readahead_blocks = 3; /* Maximum read-ahead caps it */
	extent(&m, 8);
	iolab_model_free(&m);
}

static void test_mode2_cylinder(void **state)
{
	(void)state;
	struct iolab_disk_model m;
	th_import_spec("ra2.diskspecs", &m);
	assert_int_equal(m.readahead, IOLAB_PF_CYLINDER);
	extent(&m, 20); /* to the end of its cylinder (two tracks) */
	m.readahead_blocks = 12;
	extent(&m, 17);
	iolab_model_free(&m);
}

static void test_mode3_segment(void **state)
{
	(void)state;
	struct iolab_disk_model m;
	th_import_spec("ra3.diskspecs", &m);
	assert_int_equal(m.readahead, IOLAB_PF_SEGMENT);
	extent(&m, 5 + 32); /* the 32-block segment full past the read */
	m.readahead_blocks = 20;
	extent(&m, 25);
	iolab_model_free(&m);
}

static void test_mode4_next_track(void **state)
{
	(void)state;
	struct iolab_disk_model m;
	th_import_spec("ra4.diskspecs", &m);
	/* imported uncapped, as DiskSim 4.0 runs it (docs/model-format.md) */
	assert_int_equal(m.readahead, IOLAB_PF_LEGACY);
	assert_true(m.readahead_track);
	extent(&m, 10); /* the track of block 5, the one after the read */
	m.readahead = IOLAB_PF_NEXT_TRACK; /* the manual's reading: the cap applies */
	extent(&m, 10);
	m.readahead_blocks = 2;
	extent(&m, 7);
	iolab_model_free(&m);
}

/* Read-ahead on idle hit (p19): a read served wholly from the cache while the media is idle
 * starts the read-ahead. Mode 4: reading 3..4 reads ahead to 10 (the end of block 5's track);
 * then 8..9 is a hit, and with the field set the idle media reads on to 20 (the end of block
 * 10's track), so block 15 is a hit; without it, a miss. */
static void test_readahead_on_idle_hit(void **state)
{
	(void)state;
	struct iolab_disk_model m;
	th_import_spec("ra-idle.diskspecs", &m);
	assert_true(m.readahead_on_idle_hit);
	for (int on = 0; on <= 1; on++) {
		m.readahead_on_idle_hit = on;
		struct iolab_disk *d = iolab_disk_new(&m);
		serve(d, 3, 2, false, 0);
		serve(d, 8, 2, false, 1000 * MS);
		const struct iolab_disk_stats *st = iolab_disk_stats(d);
		assert_int_equal(st->read_hits, 1);
		serve(d, 15, 1, false, 2000 * MS);
		assert_int_equal(st->read_hits, on ? 2 : 1);
		iolab_disk_free(d);
	}
	iolab_model_free(&m);
}

/* Minimum read-ahead (p19): sectors "that must be prefetched after a read request before
 * servicing another (read or write) request". */
static void test_min_readahead(void **state)
{
	(void)state;
	struct iolab_disk_model m;
	th_import_spec("ra2.diskspecs", &m);
	uint64_t t[2];
	for (int k = 0; k < 2; k++) {
		m.readahead_min_blocks = k ? 15 : 0;
		struct iolab_disk *d = iolab_disk_new(&m);
		uint64_t first = serve(d, 3, 2, false, 0);
		t[k] = serve(d, 100, 1, false, first); /* a miss at once after it */
		iolab_disk_free(d);
	}
	/* 15 blocks past LBN 4 take 15 sectors (1 ms each) and a head switch before the
	 * arm may leave: the second read waits for them. */
	assert_true(t[1] > t[0] + 5 * MS);
	iolab_model_free(&m);
}

/* ... also after a read served from the running read-ahead: with Buffer continuous read = 3 a
 * read of 3..4 reads ahead to 37; 30 ms later 18..19 come from the running read-ahead, so 15
 * more (to 34) are read before a far read is served, and 34 is then cached. Without a minimum
 * the far read stops the read-ahead before 34. */
static void test_min_readahead_after_hit(void **state)
{
	(void)state;
	struct iolab_disk_model m;
	th_import_spec("ra3.diskspecs", &m);
	for (uint32_t min = 0; min <= 15; min += 15) {
		m.readahead_min_blocks = min;
		struct iolab_disk *d = iolab_disk_new(&m);
		uint64_t t = serve(d, 3, 2, false, 0);
		uint64_t hits = iolab_disk_stats(d)->read_hits;
		t += 30 * MS;
		t += serve(d, 18, 2, false, t);
		assert_int_equal(iolab_disk_stats(d)->read_hits, hits + 1);
		t += serve(d, 100, 1, false, t);
		serve(d, 34, 1, false, t);
		assert_int_equal(iolab_disk_stats(d)->read_hits, hits + (min ? 2 : 1));
		iolab_disk_free(d);
	}
	iolab_model_free(&m);
}

/* Fast write level 1 (p20): write-back "as long as each request arriving at the disk is a write
 * request that appends to the current segment of dirty data"; 2: also when mixed with others. */
static void test_fast_write_levels(void **state)
{
	(void)state;
	struct iolab_disk_model m;
	th_import_spec("fast1.diskspecs", &m);
	/* imported like level 2 (docs/model-format.md, "Cache and buffer fields") */
	assert_true(m.write_back);
	assert_false(m.write_back_sequential);
	assert_true(m.combine_writes);
	uint64_t level[3][2];
	for (int lv = 1; lv <= 2; lv++) {
		m.write_back_sequential = lv == 1;
		struct iolab_disk *d = iolab_disk_new(&m);
		level[lv][0] = serve(d, 40, 4, true, 0);             /* appends to nothing */
		level[lv][1] = serve(d, 44, 4, true, level[lv][0]);  /* appends to it */
		iolab_disk_free(d);
	}
	/* From the cache: 0.2 ms overhead + 4 blocks x 0.1 ms. */
	assert_int_equal(level[2][0], 600000);
	assert_int_equal(level[2][1], 600000);
	assert_int_equal(level[1][1], 600000);
	assert_true(level[1][0] > 600000 + MS); /* through to the media: seek and rotation */
	iolab_model_free(&m);
}

/* Combine seq writes (p20): a write that appends to the one being flushed joins its segment and
 * completes from the cache, while the segment (32 blocks) has room from its first block to the
 * write's start (DiskSim 4.0, disksim_diskcache.c); the next one waits for the flush. 4-block
 * writes each issued when the last completes: the media (1 ms a sector) is slower than the
 * interface (0.1 ms a block), so the flush is still running at each. */
static void test_combine_seq_writes(void **state)
{
	(void)state;
	struct iolab_disk_model m;
	th_import_spec("fast1.diskspecs", &m);
	for (int combine = 0; combine <= 1; combine++) {
		m.combine_writes = combine;
		struct iolab_disk *d = iolab_disk_new(&m);
		uint64_t t = 0, svc[9];
		for (unsigned i = 0; i < 9; i++) {
			svc[i] = serve(d, 4 * i, 4, true, t);
			t += svc[i];
		}
		const struct iolab_disk_stats *st = iolab_disk_stats(d);
		assert_int_equal(svc[0], 600000); /* 0.2 ms overhead + 4 x 0.1 ms */
		if (combine) {
			for (unsigned i = 1; i < 8; i++) /* LBNs 4..31 join */
				assert_int_equal(svc[i], 600000);
			assert_true(svc[8] > 600000 + 20 * MS); /* LBN 32: waits for the 32-block flush */
			assert_int_equal(st->write_waits, 1);
		} else {
			assert_true(svc[1] > 600000 + MS); /* waits for the first flush */
			assert_int_equal(st->write_waits, 8);
		}
		iolab_disk_free(d);
	}
	iolab_model_free(&m);
}

/* Write hit stop prefetch = 0 (p20): a write into the cache leaves the read-ahead running. A read
 * of 3..4 starts the read-ahead to the end of its segment (LBN 35); a write far away (LBN 100)
 * arrives as the read completes. Block 30, asked a second later, is a hit only if the read-ahead
 * went on past the write. */
static void test_write_keeps_readahead(void **state)
{
	(void)state;
	struct iolab_disk_model m;
	th_import_spec("keep-ra.diskspecs", &m);
	assert_true(m.write_keeps_readahead);
	for (int keep = 0; keep <= 1; keep++) {
		m.write_keeps_readahead = keep;
		struct iolab_disk *d = iolab_disk_new(&m);
		uint64_t t = serve(d, 3, 2, false, 0);
		t += serve(d, 100, 2, true, t);
		uint64_t hits = iolab_disk_stats(d)->read_hits;
		serve(d, 30, 1, false, t + 1000 * MS);
		assert_int_equal(iolab_disk_stats(d)->read_hits - hits, keep ? 1 : 0);
		iolab_disk_free(d);
	}
	iolab_model_free(&m);
}

/* How far the read-ahead has read when a 32-block read of 3..34 completes: the first block after
 * 34 that a read asked at that moment misses. Over an interface slower than the media (ms a
 * block against 1 ms a sector) the read-ahead may overwrite a slot of the segment only once the
 * host has been sent that block, so it goes at the interface's pace. */
static uint64_t readahead_reach(const struct iolab_disk_model *m)
{
	for (uint64_t probe = 35;; probe++) {
		struct iolab_disk *d = iolab_disk_new(m);
		uint64_t done = serve(d, 3, 32, false, 0);
		uint64_t hits = iolab_disk_stats(d)->read_hits;
		serve(d, probe, 1, false, done);
		bool hit = iolab_disk_stats(d)->read_hits > hits;
		iolab_disk_free(d);
		if (!hit || probe > 100)
			return probe;
	}
}

/* Read directly to buffer = 0 (p20): a separate sector buffer lets a sector's read start a
 * sector time before its slot is free. Over interfaces of 2 to 8 ms a block the read-ahead is
 * never behind, and for some a block ahead (when the slot frees while its sector passes). */
static void test_sector_buffer(void **state)
{
	(void)state;
	struct iolab_disk_model m;
	th_import_spec("keep-ra.diskspecs", &m);
	assert_true(m.sector_buffer);
	unsigned ahead = 0;
	for (uint64_t bus = 2000; bus <= 8000; bus += 250) {
		m.bus_ns_per_block = bus * 1000;
		m.sector_buffer = true;
		uint64_t with = readahead_reach(&m);
		m.sector_buffer = false;
		uint64_t without = readahead_reach(&m);
		assert_true(with >= without);
		ahead += with > without;
	}
	print_message("a sector buffer put the read-ahead ahead for %u of 25 interface speeds\n",
		      ahead);
	assert_true(ahead > 0);
	iolab_model_free(&m);
}

static void test_model_file_round_trip(void **state)
{
	(void)state;
	struct iolab_disk_model m, b;
	struct iolab_err err = {{0}};
	th_import_spec("ra2.diskspecs", &m);
	m.readahead_min_blocks = 7;
	m.write_back_sequential = true;
	m.prefetch_stop_in_sector = true;
	m.readahead_on_idle_hit = true;
	m.write_keeps_readahead = true;
	m.sector_buffer = true;
	char buf[16384];
	FILE *f = fmemopen(buf, sizeof(buf), "w");
	assert_int_equal(iolab_model_write(&m, f), 0);
	fclose(f);
	assert_non_null(strstr(buf, "readahead = cylinder\n"));
	assert_null(strstr(buf, "readahead_track"));
	assert_non_null(strstr(buf, "write_back = sequential\n"));
	assert_int_equal(iolab_model_parse("rt.model", buf, &b, &err), 0);
	assert_int_equal(b.readahead, IOLAB_PF_CYLINDER);
	assert_int_equal(b.readahead_min_blocks, 7);
	assert_true(b.write_back && b.write_back_sequential && b.prefetch_stop_in_sector);
	assert_true(b.readahead_on_idle_hit && b.write_keeps_readahead && b.sector_buffer);
	iolab_model_free(&b);
	/* readahead and readahead_track together contradict each other */
	static char both[sizeof(buf) + 32];
	const char *z = strstr(buf, "\n["); /* the line goes before the first section */
	assert_non_null(z);
	size_t head = (size_t)(z - buf) + 1;
	memcpy(both, buf, head);
	strcpy(both + head, "readahead_track = no\n");
	strcat(both, z + 1);
	assert_int_equal(iolab_model_parse("both.model", both, &b, &err), -EINVAL);
	assert_non_null(strstr(err.msg, "field 'readahead_track': not with 'readahead'"));
	iolab_model_free(&m);
}

static void test_refusals(void **state)
{
	(void)state;
	refused("refuse-ra5.diskspecs", "refuse-ra5.diskspecs:5: field 'Buffer continuous read': "
		"'5' is out of range (0..4)");
	refused("refuse-fast3.diskspecs", ":6: field 'Fast write level': '3' is out of range (0..2)");
	refused("refuse-caching2.diskspecs", ":6: field 'Enable caching in buffer': '2' is not "
		"supported");
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_mode0_none),
		cmocka_unit_test(test_mode1_track),
		cmocka_unit_test(test_mode2_cylinder),
		cmocka_unit_test(test_mode3_segment),
		cmocka_unit_test(test_mode4_next_track),
		cmocka_unit_test(test_min_readahead),
		cmocka_unit_test(test_min_readahead_after_hit),
		cmocka_unit_test(test_readahead_on_idle_hit),
		cmocka_unit_test(test_fast_write_levels),
		cmocka_unit_test(test_combine_seq_writes),
		cmocka_unit_test(test_write_keeps_readahead),
		cmocka_unit_test(test_sector_buffer),
		cmocka_unit_test(test_model_file_round_trip),
		cmocka_unit_test(test_refusals),
	};
	return cmocka_run_group_tests(tests, NULL, NULL);
}
