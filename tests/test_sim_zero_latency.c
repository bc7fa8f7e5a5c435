/* test_sim_zero_latency.c: zero-latency ("immediate") media access in the simulated drive
 * (disk.c), against times worked out by hand from the DiskSim 4.0 manual's rule:
 *
 *  - §3.4.5 p24, Immediate buffer read / Immediate buffer write: sectors move between media and
 *    buffer "in the order that they pass under the read/write head rather than in strictly
 *    ascending logical block order", so the drive does not rotate round to the first wanted
 *    sector;
 *  - §B.3.3 pp70-72 (the zero-latency access diagram, dm_access_block, dm_latency): per track,
 *    when the head lands inside the wanted sectors it starts at the next sector under it:
 *    initial rotational latency (to that sector boundary), transfer to the end of the wanted
 *    sectors, additional rotational latency over the unwanted ones, transfer of the first
 *    wanted ones. The track's part ends one revolution after the initial latency. A request
 *    on several tracks is taken track by track (dm_latency "will access to the end of the
 *    track but not wrap around").
 *
 * The drive is tests/data/zero-latency.model: 10 ms a revolution, 100 sectors a track (0.1 ms a
 * sector), no skews (sector 0 of every track at angle 0), block b on track b / 100 at sector
 * b mod 100 (cylinder b / 200, surface (b / 100) mod 2); head switch 0.5 ms, 1-cylinder seek
 * 1 ms, write settle 0.5 ms (added after a seek or head switch, not on the same track:
 * §B.3.3 dm_seek_time); no cache, no overheads, no interface time, so a request ends when its
 * last sector has passed. The head is at angle (t / 10 ms) mod 1; a new drive starts on
 * cylinder 0, surface 0.
 */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>

#include <cmocka.h>

#include "helpers.h"
#include "iolab/disk_model.h"
#include "iolab/disk_sim.h"

#define MS 1000000ull /* ns */

static void open_model(struct iolab_disk_model *m, bool zero_latency)
{
	char path[1024];
	struct iolab_err err;
	th_data_path(path, sizeof(path), "zero-latency.model");
	if (iolab_model_load(path, m, &err)) {
		print_error("%s: %s\n", path, err.msg);
		fail();
	}
	m->zero_latency_read = zero_latency;
	m->zero_latency_write = zero_latency;
	m->rw_switch_ns = 0; /* DiskSim's drive: no step between reading and writing one track */
}

/* Service time (ns) of one request arriving at `at` on a new drive. */
static uint64_t serve(bool zero_latency, uint64_t lbn, uint32_t blocks, bool write, uint64_t at)
{
	struct iolab_disk_model m;
	open_model(&m, zero_latency);
	struct iolab_disk *d = iolab_disk_new(&m);
	assert_non_null(d);
	struct iolab_disk_req r = {.lbn = lbn, .blocks = blocks, .write = write, .t_arrive = at};
	assert_int_equal(iolab_disk_submit(d, &r), 0);
	assert_ptr_equal(iolab_disk_next(d), &r);
	iolab_disk_free(d);
	iolab_model_free(&m);
	return r.t_done - r.t_arrive;
}

/* The model file sets both flags; the importer takes them from the two DiskSim parameters. */
static void test_model_fields(void **state)
{
	(void)state;
	struct iolab_disk_model m;
	char path[1024];
	struct iolab_err err;
	th_data_path(path, sizeof(path), "zero-latency.model");
	assert_int_equal(iolab_model_load(path, &m, &err), 0);
	assert_true(m.zero_latency_read);
	assert_true(m.zero_latency_write);
	assert_false(m.read_free_blocks);
	assert_int_equal(m.rev_ns, 10 * MS);
	iolab_model_free(&m);
}

/* Blocks 20..59 (40 sectors of track 0, sectors 20..59), arriving at 3.05 ms with the head
 * already on track 0 (no seek): the head is at angle 0.305, in the middle of sector 30, inside
 * the wanted sectors.
 *   zero latency: initial latency to the start of sector 31: 0.05 ms; sectors 31..59: 2.9 ms;
 *     additional latency over 60..99 and 0..19: 6.0 ms; sectors 20..30: 1.1 ms. Total
 *     0.05 + 10 = 10.05 ms (one revolution after the initial latency).
 *   in order: wait from angle 0.305 to sector 20 (angle 0.2): 0.895 rev = 8.95 ms; 40 sectors
 *     4.0 ms. Total 12.95 ms.
 * A write on the same track has no settle (§B.3.3 dm_seek_time), so it takes the same. */
static void test_one_track_mid_range(void **state)
{
	(void)state;
	for (int w = 0; w <= 1; w++) {
		assert_int_equal(serve(true, 20, 40, w, 3050000), 10050000);
		assert_int_equal(serve(false, 20, 40, w, 3050000), 12950000);
	}
}

/* A whole track, blocks 100..199 (track 1: cylinder 0, surface 1), arriving at 2 ms: the head
 * switch (0.5 ms) lands at 2.5 ms, angle 0.25: exactly the start of sector 25.
 *   zero latency: no initial latency; sectors 25..99 then 0..24: 100 sectors, exactly 100/100
 *     of a revolution, 10 ms. Total 0.5 + 10 = 10.5 ms.
 *   in order: wait from angle 0.25 to sector 0: 7.5 ms; 100 sectors 10 ms: 0.5 + 7.5 + 10 =
 *     18 ms.
 * A write adds the settle (0.5 ms) to the head switch: lands at 3.0 ms, angle 0.3, sector 30:
 *   zero latency 1.0 + 10 = 11 ms; in order 1.0 + 7.0 (angle 0.3 to 0) + 10 = 18 ms. */
static void test_whole_track(void **state)
{
	(void)state;
	assert_int_equal(serve(true, 100, 100, false, 2 * MS), 10500000);
	assert_int_equal(serve(false, 100, 100, false, 2 * MS), 18 * MS);
	assert_int_equal(serve(true, 100, 100, true, 2 * MS), 11 * MS);
	assert_int_equal(serve(false, 100, 100, true, 2 * MS), 18 * MS);
}

/* Landing outside the wanted sectors gives the in-order time with zero latency too (DiskSim's
 * dm_latency: the initial latency is then the rotation to the first wanted sector). Blocks
 * 20..59 arriving at 1.05 ms: angle 0.105, sector 10.5, before sector 20: wait 0.95 ms, 40
 * sectors 4.0 ms: 4.95 ms. Arriving at 6.05 ms (angle 0.605, past the last wanted sector 59):
 * wait 0.595 rev = 5.95 ms, then 4.0 ms: 9.95 ms. */
static void test_landing_outside(void **state)
{
	(void)state;
	for (int zl = 0; zl <= 1; zl++) {
		assert_int_equal(serve(zl, 20, 40, false, 1050000), 4950000);
		assert_int_equal(serve(zl, 20, 40, false, 6050000), 9950000);
	}
}

/* Blocks 150..249 arriving at 0: track 1 (cylinder 0, surface 1) sectors 50..99, then track 2
 * (cylinder 1, surface 0) sectors 0..49, taken track by track.
 * Read:
 *   track 1: head switch 0.5 ms, lands at angle 0.05 (sector 5), before sector 50: in order
 *     either way: wait 4.5 ms, 50 sectors 5 ms: ends at 10.0 ms (angle 0).
 *   track 2: seek 1 cylinder 1 ms (the head switch overlaps it), lands at 11.0 ms, angle 0.1,
 *     sector 10, inside sectors 0..49:
 *     zero latency: 10..49 (4 ms), over 50..99 (5 ms), 0..9 (1 ms): ends at 21.0 ms;
 *     in order: wait 9 ms for sector 0, 50 sectors 5 ms: ends at 25.0 ms.
 * Write: every repositioning adds the 0.5 ms settle:
 *   track 1: lands at 1.0 ms, sector 10, before 50: wait 4 ms, 5 ms: ends at 10.0 ms.
 *   track 2: 1 + 0.5 ms: lands at 11.5 ms, angle 0.15, sector 15, inside 0..49:
 *     zero latency: ends one revolution later, 21.5 ms; in order: wait 8.5 ms for sector 0,
 *     then 5 ms: 25.0 ms. */
static void test_two_tracks(void **state)
{
	(void)state;
	assert_int_equal(serve(true, 150, 100, false, 0), 21 * MS);
	assert_int_equal(serve(false, 150, 100, false, 0), 25 * MS);
	assert_int_equal(serve(true, 150, 100, true, 0), 21500000);
	assert_int_equal(serve(false, 150, 100, true, 0), 25 * MS);
}

/* Two tracks, landing inside the wanted sectors on the first: blocks 150..249 arriving at
 * 6 ms (read).
 *   zero latency: lands on track 1 at 6.5 ms, angle 0.65, sector 65 inside 50..99: 65..99
 *     (3.5 ms), over 0..49 (5 ms), 50..64 (1.5 ms): track 1 done at 16.5 ms, where the head is
 *     at angle 0.65 again. Seek 1 ms: lands on track 2 at 17.5 ms, angle 0.75, sector 75,
 *     past the wanted 0..49: wait 2.5 ms, 5 ms: ends at 25.0 ms: 19 ms after arrival.
 *   in order: track 1 waits from 0.65 to sector 50 (8.5 ms), reads 5 ms: 20.0 ms; seek 1 ms,
 *     angle 0.1: waits 9 ms, reads 5 ms: 35.0 ms: 29 ms after arrival. */
static void test_two_tracks_first_inside(void **state)
{
	(void)state;
	assert_int_equal(serve(true, 150, 100, false, 6 * MS), 19 * MS);
	assert_int_equal(serve(false, 150, 100, false, 6 * MS), 29 * MS);
}

/* A zero-latency write writes a sector only once its data is in the buffer (§3.4.5 p24: the
 * drive writes buffered dirty data as it passes under the head). Blocks 20..59 arriving at
 * 3.05 ms, write-through, the interface taking 10 us a block: block 20 + i is in at
 * 3.05 + (i + 1) x 0.01 ms, so sector s (= its block mod 100) at 2.86 + 0.01 s ms. Sector s
 * starts under the head at s x 0.1 ms in the first revolution (the head is in sector 30 at
 * arrival).
 *   zero latency: sector 31 passes at 3.1 ms, its data in at 3.17: missed. Sectors 32..59
 *     pass at 3.2 .. 5.9 ms with their data in (0.1 s >= 2.86 + 0.01 s from s = 32 on): written
 *     then. Sectors 20..31 are written in the next revolution, at 12.0 .. 13.1 ms; the last
 *     ends at 13.2 ms: 10.15 ms after arrival (10.05 ms with all data in at once, as in
 *     test_one_track_mid_range).
 *   in order: all data is in by 3.45 ms, long before sector 20 comes round at 12.0 ms: sectors
 *     20..59 from 12.0 to 16.0 ms, 12.95 ms as without the interface time. */
static void test_write_waits_for_data(void **state)
{
	(void)state;
	struct iolab_disk_model m;
	for (int zl = 0; zl <= 1; zl++) {
		open_model(&m, zl);
		m.bus_ns_per_block = 10000;
		struct iolab_disk *d = iolab_disk_new(&m);
		assert_non_null(d);
		struct iolab_disk_req r = {.lbn = 20, .blocks = 40, .write = true, .t_arrive = 3050000};
		assert_int_equal(iolab_disk_submit(d, &r), 0);
		assert_ptr_equal(iolab_disk_next(d), &r);
		assert_int_equal(r.t_done - r.t_arrive, zl ? 10150000 : 12950000);
		iolab_disk_free(d);
		iolab_model_free(&m);
	}
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_model_fields),
		cmocka_unit_test(test_one_track_mid_range),
		cmocka_unit_test(test_whole_track),
		cmocka_unit_test(test_landing_outside),
		cmocka_unit_test(test_two_tracks),
		cmocka_unit_test(test_two_tracks_first_inside),
		cmocka_unit_test(test_write_waits_for_data),
	};
	return cmocka_run_group_tests(tests, NULL, NULL);
}
