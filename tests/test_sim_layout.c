/* test_sim_layout.c: the block-to-sector mapping's runs (layout.c): iolab_layout_map says how far
 * the blocks from an LBN follow each other sector after sector on one track (run_end), and
 * iolab_layout_next steps through such a run in O(1) and lands where a full lookup does. Checked
 * against full lookups of every block in stretches of every built-in model (at each zone's start,
 * around every slipped sector, at random places), and of the whole of a small made-up drive with
 * sparing ranges, slips and remapped sectors. */
#include <math.h>
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <cmocka.h>

#include "iolab/disk_model.h"
#include "iolab/prng.h"
#include "sim/devices/layout.h"

static bool same_place(const struct iolab_phys *a, const struct iolab_phys *b)
{
	return a->lbn == b->lbn && a->pbn == b->pbn && a->zone == b->zone && a->cyl == b->cyl &&
	       a->head == b->head && a->track == b->track && a->sector == b->sector &&
	       a->run_end == b->run_end && a->next_slip == b->next_slip &&
	       fabs(a->angle - b->angle) < 1e-9 && a->sector_ns == b->sector_ns;
}

/* Checks blocks [from, from + n) (clipped to the drive) one by one; returns the failures. */
static unsigned check_stretch(const struct iolab_disk_model *m, uint64_t from, uint64_t n)
{
	unsigned bad = 0;
	if (from >= m->blocks)
		return 0;
	if (n > m->blocks - from)
		n = m->blocks - from;
	struct iolab_phys p, q, s;
	assert_int_equal(iolab_layout_map(m, from, &p), 0);
	for (uint64_t lbn = from; lbn + 1 < from + n; lbn++) {
		assert_int_equal(iolab_layout_map(m, lbn + 1, &q), 0);
		bool follows = q.zone == p.zone && q.cyl == p.cyl && q.head == p.head &&
			       q.pbn == p.pbn + 1 && q.sector == p.sector + 1;
		bool ok = p.run_end > p.lbn;
		if (lbn + 1 < p.run_end) /* inside the run: the next sector, the same run */
			ok = ok && follows && q.run_end == p.run_end;
		else /* the run is as long as it can be */
			ok = ok && lbn + 1 == p.run_end && !follows;
		s = p;
		ok = ok && iolab_layout_next(m, &s) == 0 && same_place(&s, &q);
		if (!ok && bad++ < 5)
			print_error("%s: block %llu (pbn %llu, run to %llu) -> %llu (pbn %llu): %s\n",
				    m->name, (unsigned long long)lbn, (unsigned long long)p.pbn,
				    (unsigned long long)p.run_end, (unsigned long long)q.lbn,
				    (unsigned long long)q.pbn, follows ? "follows" : "does not follow");
		p = q;
	}
	return bad;
}

#define STRETCH 20000 /* blocks: more than a sparing range of the range-spared drives */

static void test_builtin_runs(void **state)
{
	(void)state;
	unsigned bad = 0;
	for (unsigned i = 0; i < iolab_model_builtin_count(); i++) {
		struct iolab_disk_model m;
		struct iolab_err err;
		assert_int_equal(iolab_model_open(iolab_model_builtin_name(i), &m, &err), 0);
		if (m.ssd) { /* no zones: an SSD maps pages (test_ssd_model.c) */
			iolab_model_free(&m);
			continue;
		}
		unsigned stretches = 0;
		for (unsigned zi = 0; zi < m.nzones; zi++) {
			const struct iolab_zone *z = &m.zone[zi];
			bad += check_stretch(&m, z->first_lbn, STRETCH);
			stretches++;
			/* Around each slip: its block is about the slip's sector less the sectors
			 * before it that hold none. */
			for (uint32_t k = 0; k < z->nslips; k++) {
				uint64_t lost = z->front_empty + k;
				if (z->sparing == IOLAB_SPARE_RANGE) {
					uint64_t rsz = (uint64_t)z->spt * m.surfaces * z->range;
					lost += z->slips[k] / rsz * z->spares;
				}
				uint64_t at = z->slips[k] > lost + 300 ? z->slips[k] - lost - 300 : 0;
				bad += check_stretch(&m, z->first_lbn + at, 600);
				stretches++;
			}
		}
		struct iolab_prng rng;
		iolab_prng_seed(&rng, 3 + i);
		for (unsigned k = 0; k < 20; k++, stretches++)
			bad += check_stretch(&m, iolab_prng_below(&rng, m.blocks), 2000);
		bad += check_stretch(&m, m.blocks - 1000, 1000);
		print_message("%s: %u stretches checked\n", m.name, stretches + 1);
		iolab_model_free(&m);
	}
	assert_int_equal(bad, 0);
}

/* Two zones of 20 cylinders on 2 surfaces: the first with 3 spare sectors at the end of every
 * range of 4 cylinders (800 sectors), slips (two together: the 3 slips of the first range use
 * its spares, the 1 of the second range one of them) and two sectors remapped into the second
 * range's 2 spares left; the second zone with zone sparing and a sector "remapped" onto itself
 * (not remapped). */
static const char small_drive[] =
	"name = small\nblock_bytes = 512\nsurfaces = 2\ncylinders = 40\nblocks = 6900\n"
	"rpm = 7200\nseek_single_ms = 1\nseek_full_ms = 5\nbus_us_per_block = 1\n"
	"[zone]\ncylinders = 0 19\nsectors_per_track = 100\ntrack_skew_sectors = 10\n"
	"cylinder_skew_sectors = 20\nfront_empty_sectors = 7\nsparing = range 3 4\n"
	"slips = 150 151 420 950\ndefects = 260 1598 1302 1599\n"
	"[zone]\ncylinders = 20 39\nsectors_per_track = 80\ntrack_skew_sectors = 8\n"
	"cylinder_skew_sectors = 16\nsparing = zone 5\nslips = 33 1000\ndefects = 500 500\n";

static void test_small_drive_runs(void **state)
{
	(void)state;
	struct iolab_disk_model m;
	struct iolab_err err;
	if (iolab_model_parse("small", small_drive, &m, &err)) {
		print_error("%s\n", err.msg);
		fail();
	}
	assert_int_equal(check_stretch(&m, 0, m.blocks), 0);

	/* The block whose sector 260 is defective sits in spare sector 1598 alone; the one before
	 * it ends its run there. Its sector, less the 7 empty ones and the 2 slips before it. */
	struct iolab_phys p;
	uint64_t lbn = 260 - 7 - 2;
	assert_int_equal(iolab_layout_map(&m, lbn, &p), 0);
	assert_int_equal(p.pbn, 1598);
	assert_int_equal(p.run_end, lbn + 1);
	assert_int_equal(iolab_layout_map(&m, lbn - 1, &p), 0);
	assert_int_equal(p.pbn, 259);
	assert_int_equal(p.run_end, lbn);
	/* A run stops at a slip: the block in sector 149 is the last before 150 and 151. */
	assert_int_equal(iolab_layout_map(&m, 149 - 7, &p), 0);
	assert_int_equal(p.pbn, 149);
	assert_int_equal(p.run_end, 149 - 7 + 1);
	assert_int_equal(iolab_layout_map(&m, 149 - 7 + 1, &p), 0);
	assert_int_equal(p.pbn, 152);
	/* ... and at the end of a range, before its spares: the second range (sectors 800..1599)
	 * holds blocks 790..1586 (797 a range, less the 7 empty sectors), the last of them in
	 * sector 1597 after its one slip; the next block starts the third range, at 1600. */
	assert_int_equal(iolab_layout_map(&m, 1586, &p), 0);
	assert_int_equal(p.pbn, 1597);
	assert_int_equal(p.run_end, 1587);
	assert_int_equal(iolab_layout_map(&m, 1587, &p), 0);
	assert_int_equal(p.pbn, 1600);
	/* In the second zone, the self-"remapped" sector 500 is an ordinary one. */
	const struct iolab_zone *z = &m.zone[1];
	assert_int_equal(iolab_layout_map(&m, z->first_lbn + 490, &p), 0);
	assert_int_equal(p.pbn, 491);
	assert_true(p.run_end > z->first_lbn + 500);
	iolab_model_free(&m);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_builtin_runs),
		cmocka_unit_test(test_small_drive_runs),
	};
	return cmocka_run_group_tests(tests, NULL, NULL);
}
