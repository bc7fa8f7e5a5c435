/* test_disksim_layout.c: DiskSim 4.0 layouts the importer reads (import_disksim.c,
 * layout_sparing.c, layout_g4.c): every "Sparing scheme used" (manual B.4.2 p75), LBN-to-PBN
 * mapping scheme 2, "Skew units = revolutions" (p76), the g4 table layout (B.4.5 p80), and the
 * spec syntax of §3 p6 (`source FILE` anywhere, hexadecimal integers, `[ a, b ] = value`).
 * The drives are the tiny hand-written ones in tests/data/disksim-specs (2 surfaces, 10 sectors
 * a track, cylinders 0..4 in one zone): their capacity and the place (cylinder, surface,
 * sector) of chosen LBNs are worked out by hand in the comments from the manual's rules. */
#include <errno.h>
#include <math.h>
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>

#include <cmocka.h>

#include "helpers.h"
#include "iolab/disk_model.h"
#include "iolab/disksim_import.h"
#include "sim/devices/layout.h"



struct place {
	uint64_t lbn;
	uint32_t cyl, head, sector;
};

static void expect_places(const struct iolab_disk_model *m, const struct place *pl, size_t n)
{
	for (size_t i = 0; i < n; i++) {
		struct iolab_phys p;
		assert_int_equal(iolab_layout_map(m, pl[i].lbn, &p), 0);
		if (p.cyl != pl[i].cyl || p.head != pl[i].head || p.sector != pl[i].sector) {
			print_error("%s: LBN %llu at (%u, %u, %u), not (%u, %u, %u)\n", m->name,
				    (unsigned long long)pl[i].lbn, p.cyl, p.head, p.sector, pl[i].cyl,
				    pl[i].head, pl[i].sector);
			fail();
		}
	}
}

/* Every block: iolab_layout_next within a run lands where a full lookup does, runs are not
 * empty, and no block lies off the disk. */
static void walk_all(const struct iolab_disk_model *m)
{
	struct iolab_phys p, q;
	assert_int_equal(iolab_layout_map(m, 0, &p), 0);
	for (uint64_t lbn = 0; lbn < m->blocks; lbn++) {
		assert_true(p.run_end > p.lbn);
		assert_true(p.cyl < m->cylinders && p.head < m->surfaces);
		if (lbn + 1 == m->blocks)
			break;
		assert_int_equal(iolab_layout_map(m, lbn + 1, &q), 0);
		struct iolab_phys s = p;
		assert_int_equal(iolab_layout_next(m, &s), 0);
		assert_true(s.cyl == q.cyl && s.head == q.head && s.sector == q.sector &&
			    fabs(s.angle - q.angle) < 1e-9);
		p = q;
	}
	struct iolab_phys past;
	assert_int_equal(iolab_layout_map(m, m->blocks, &past), -ERANGE);
}

/* The model written in iolab's format reads back with the same layout. */
static void round_trip(const struct iolab_disk_model *m)
{
	char *text = NULL;
	size_t len = 0;
	FILE *f = open_memstream(&text, &len);
	assert_int_equal(iolab_model_write(m, f), 0);
	assert_int_equal(fclose(f), 0);
	struct iolab_disk_model back;
	struct iolab_err err = {{0}};
	if (iolab_model_parse("back.model", text, &back, &err)) {
		print_error("%s\n", err.msg);
		fail();
	}
	assert_int_equal(back.blocks, m->blocks);
	assert_int_equal(back.nzones, m->nzones);
	for (uint64_t lbn = 0; lbn < m->blocks; lbn++) {
		struct iolab_phys a, b;
		assert_int_equal(iolab_layout_map(m, lbn, &a), 0);
		assert_int_equal(iolab_layout_map(&back, lbn, &b), 0);
		assert_true(a.cyl == b.cyl && a.head == b.head && a.sector == b.sector &&
			    fabs(a.angle - b.angle) < 1e-9);
	}
	iolab_model_free(&back);
	free(text);
}

struct scheme_case {
	const char *spec;
	uint64_t capacity; /* the zone's blocks */
	struct place pl[4];
};

/* Zone: 5 cylinders x 2 surfaces x 10 sectors = 100 sectors; a cylinder has 20. "base" below is
 * 100 (no Empty space at zone front). Physical sector p of the zone: cylinder p / 20, surface
 * (p mod 20) / 10, sector p mod 10 (mapping scheme 0). */
static const struct scheme_case cases[] = {
	/* 0, no spares: p = lbn */
	{"sparing0.diskspecs", 100, {{0, 0, 0, 0}, {57, 2, 1, 7}, {99, 4, 1, 9}, {10, 0, 1, 0}}},
	/* 1, 2 spare tracks at the zone's end, slipped track 3, track 5 remapped to track 9:
	 * 100 - 2 * 10 = 80 blocks. LBN 25: track 2; 35: track 3 is slipped -> 4; 45: track 4 ->
	 * 5 (past the slip) -> remapped to 9 (cylinder 4, surface 1); 79: track 7 -> 8. */
	{"sparing1.diskspecs", 80, {{25, 1, 0, 5}, {35, 2, 0, 5}, {45, 4, 1, 5}, {79, 4, 0, 9}}},
	/* 2, 2 spares at the end of each cylinder (18 blocks a cylinder), slip at sector 23
	 * (cylinder 1, offset 3): 100 - 2 * 5 = 90. LBN 21: cylinder 1 offset 3 -> slipped -> 4;
	 * 35: offset 17 -> 18 (into the cylinder's spares); 36: cylinder 2 offset 0. */
	{"sparing2.diskspecs", 90, {{18, 1, 0, 0}, {21, 1, 0, 4}, {35, 1, 1, 8}, {36, 2, 0, 0}}},
	/* 3, 1 spare at the end of each track (9 blocks a track), slip at 12 (track 1, offset 2):
	 * 100 - 1 * 5 * 2 = 90. LBN 11: track 1 offset 2 -> 3; 17: offset 8 -> 9; 18: track 2. */
	{"sparing3.diskspecs", 90, {{9, 0, 1, 0}, {11, 0, 1, 3}, {17, 0, 1, 9}, {89, 4, 1, 8}}},
	/* 4, as 2 but slips to the end: 100 - 10 - 1 = 89. The slip is data slot 18 + 3 = 21:
	 * LBN 21 -> slot 22 (cylinder 1 offset 4); 35 -> 36 (cylinder 2 offset 0); 88 -> 89. */
	{"sparing4.diskspecs", 89, {{21, 1, 0, 4}, {35, 2, 0, 0}, {88, 4, 1, 7}, {17, 0, 1, 7}}},
	/* 5, 2 spares at the front of each cylinder: blocks from offset 2; slip at 25 (cylinder 1,
	 * offset 5 = data offset 3): 90 blocks. LBN 0 -> offset 2; 21 -> data 3 -> 4 -> offset 6;
	 * 35 -> data 17 -> 18 -> sector 40, the next cylinder's front spare. */
	{"sparing5.diskspecs", 90, {{0, 0, 0, 2}, {21, 1, 0, 6}, {35, 2, 0, 0}, {89, 4, 1, 9}}},
	/* 6, front spares, slips to the end: 89 blocks. LBN 21 -> slot 22 -> cylinder 1 data 4 ->
	 * offset 6; 35 -> slot 36 -> cylinder 2 data 0 -> offset 2; 88 -> 89 -> cylinder 4 data 17. */
	{"sparing6.diskspecs", 89, {{21, 1, 0, 6}, {35, 2, 0, 2}, {88, 4, 1, 9}, {0, 0, 0, 2}}},
	/* 7, spares at the disk's end, slip at 23: 99 blocks; LBN 23 -> 24; 98 -> 99. */
	{"sparing7.diskspecs", 99, {{22, 1, 0, 2}, {23, 1, 0, 4}, {98, 4, 1, 9}, {0, 0, 0, 0}}},
	/* 8, 3 spares at the end of each range of 2 cylinders (40 sectors, 37 blocks):
	 * 100 - 3 * (5 / 2) = 94. LBN 36 -> 36; 37 -> range 1 -> 40; 93 -> range 2 offset 19. */
	{"sparing8.diskspecs", 94, {{36, 1, 1, 6}, {37, 2, 0, 0}, {93, 4, 1, 9}, {74, 4, 0, 0}}},
	/* 9, 5 spares at the zone's end, slip at 23: 95 blocks; LBN 23 -> 24; 94 -> 95. */
	{"sparing9.diskspecs", 95, {{23, 1, 0, 4}, {94, 4, 1, 5}, {22, 1, 0, 2}, {0, 0, 0, 0}}},
	/* 10, as 9, slips to the end: 100 - 5 - 1 = 94; LBN 93 -> 94. */
	{"sparing10.diskspecs", 94, {{23, 1, 0, 4}, {93, 4, 1, 4}, {22, 1, 0, 2}, {0, 0, 0, 0}}},
};

static void test_sparing_schemes(void **state)
{
	(void)state;
	for (size_t i = 0; i < sizeof(cases) / sizeof(cases[0]); i++) {
		struct iolab_disk_model m;
		th_import_spec(cases[i].spec, &m);
		if (m.zone[0].nblocks != cases[i].capacity) {
			print_error("%s: %llu blocks, not %llu\n", cases[i].spec,
				    (unsigned long long)m.zone[0].nblocks,
				    (unsigned long long)cases[i].capacity);
			fail();
		}
		expect_places(&m, cases[i].pl, 4);
		walk_all(&m);
		round_trip(&m);
		iolab_model_free(&m);
	}
}

/* Skew units = revolutions (B.4.2 p76): sparing0's Offset of first block 0.5 and Skew for track
 * switch 0.2 revolutions are 5 and 2 sectors of a 10-sector track. LBN 0 starts half a turn on;
 * LBN 10 (surface 1, sector 0) one track skew later: (5 + 2) / 10. */
static void test_skew_revolutions(void **state)
{
	(void)state;
	struct iolab_disk_model m;
	th_import_spec("sparing0.diskspecs", &m);
	assert_int_equal(m.zone[0].first_offset, 5);
	assert_int_equal(m.zone[0].track_skew, 2);
	struct iolab_phys p;
	assert_int_equal(iolab_layout_map(&m, 0, &p), 0);
	assert_true(fabs(p.angle - 0.5) < 1e-9);
	assert_int_equal(iolab_layout_map(&m, 10, &p), 0);
	assert_true(fabs(p.angle - 0.7) < 1e-9);
	iolab_model_free(&m);
}

/* Mapping schemes 1 and 2 (B.4.2 p75) over zones of cylinders 0..2 (10 sectors a track: 60
 * blocks) and 3..5 (8 sectors: 48 blocks). Scheme 1 restarts the serpentine at each zone ("first
 * cylinder is normal"), scheme 2 follows the cylinder number: LBN 60 (cylinder 3, the second
 * zone's first) is on surface 0 with 1 and surface 1 with 2; LBN 76 (cylinder 4) the reverse;
 * cylinder 1 (LBN 20) is reversed with both. */
static void test_mapping2(void **state)
{
	(void)state;
	struct iolab_disk_model m1, m2;
	th_import_spec("mapping1.diskspecs", &m1);
	th_import_spec("mapping2.diskspecs", &m2);
	assert_int_equal(m1.blocks, 108);
	assert_true(m2.cylinder_serpentine && m2.serpentine_absolute && !m1.serpentine_absolute);
	const struct place p1[] = {{20, 1, 1, 0}, {60, 3, 0, 0}, {76, 4, 1, 0}, {0, 0, 0, 0}};
	const struct place p2[] = {{20, 1, 1, 0}, {60, 3, 1, 0}, {76, 4, 0, 0}, {0, 0, 0, 0}};
	expect_places(&m1, p1, 4);
	expect_places(&m2, p2, 4);
	walk_all(&m2);
	round_trip(&m2);
	iolab_model_free(&m1);
	iolab_model_free(&m2);
}

/* The g4 table in g4.layout (B.4.5 p80; the lookup is DiskSim 4.0's ltop): root entries cover
 * LBNs 0..59 (20 a cylinder from cylinder 0, 0.3 revolutions apart) and 60..107 (16 a cylinder
 * from cylinder 3, 0.5 apart); 2 LBNs slipped at 25; LBNs 70, 71 remapped to cylinder 5,
 * surface 0, sectors 6, 7. Block count 106 is the capacity. */
static void test_g4(void **state)
{
	(void)state;
	struct iolab_disk_model m;
	th_import_spec("g4.diskspecs", &m);
	assert_non_null(m.g4);
	assert_int_equal(m.blocks, 106);
	assert_int_equal(m.nzones, 2);
	assert_int_equal(m.zone[0].spt, 10);
	assert_int_equal(m.zone[1].spt, 8);
	assert_int_equal(m.zone[1].first_cyl, 3);
	assert_int_equal(m.zone[1].last_cyl, 5);
	assert_int_equal(m.zone[1].first_lbn, 58); /* 60 less the 2 slipped */
	const struct place pl[] = {
		{0, 0, 0, 0},   /* track pattern 0 on surface 0 */
		{15, 0, 1, 5},  /* second entry of node 0: surface 1, sector 5 */
		{24, 1, 0, 4},  /* instance 1 of the root's first entry: cylinder 1 */
		{25, 1, 0, 7},  /* slipped: l = 27 */
		{60, 3, 1, 2},  /* l = 62: second root entry, node 1 starts on surface 1 */
		{70, 5, 0, 6},  /* remapped */
		{77, 4, 1, 3},  /* l = 79: instance 1, offset 3 */
		{105, 5, 0, 7}, /* l = 107: instance 2, offset 15: node 1's second entry, sector 7 */
	};
	expect_places(&m, pl, sizeof(pl) / sizeof(pl[0]));
	/* angles: off + q·alen along the path + offset / spt (DiskSim's g4_skew) */
	static const struct {
		uint64_t lbn;
		double angle;
	} ang[] = {{15, 0.1 + 0.5}, {25, 0.0}, {60, 0.25}, {77, 0.5 + 0.375}, {105, 0.125}};
	for (size_t i = 0; i < sizeof(ang) / sizeof(ang[0]); i++) {
		struct iolab_phys p;
		assert_int_equal(iolab_layout_map(&m, ang[i].lbn, &p), 0);
		if (fabs(p.angle - ang[i].angle) > 1e-9) {
			print_error("LBN %llu at angle %g, not %g\n", (unsigned long long)ang[i].lbn,
				    p.angle, ang[i].angle);
			fail();
		}
	}
	walk_all(&m);
	round_trip(&m);
	iolab_model_free(&m);
}

/* §3 p6: controller.inc is sourced inside the disksim_disk block and sets the read-hit
 * overheads with `[ a, b ] = 0.1` and the segments in hexadecimal (0x4, 0x40). */
static void test_syntax(void **state)
{
	(void)state;
	struct iolab_disk_model m;
	th_import_spec("sparing2.diskspecs", &m);
	assert_int_equal(m.segments, 4);
	assert_int_equal(m.segment_blocks, 64);
	assert_int_equal(m.ovh_read_hit[0], 100000);
	assert_int_equal(m.ovh_read_hit[1], 100000);
	assert_int_equal(m.ovh_write_miss[1], 200000);
	iolab_model_free(&m);
}

/* A whole simulation's file imports as the drive it names: instantiations (with a `disk0 ..
 * disk3` range) and a nested topology are skipped (manual §3.5-3.6). */
static void test_whole_simulation_file(void **state)
{
	(void)state;
	struct iolab_disk_model a, b;
	th_import_spec("whole-sim.parv", &a);
	th_import_spec("sparing0.diskspecs", &b);
	assert_int_equal(a.blocks, b.blocks);
	assert_int_equal(a.nzones, b.nzones);
	assert_int_equal(a.cylinders, b.cylinders);
	iolab_model_free(&a);
	iolab_model_free(&b);
}

/* §3 p6 (libparam): `TYPE NAME { ... }` defines NAME, and a parameter whose value is NAME uses
 * that block: named.parv gives the scheduler, the mechanics and the dm_disk by name. It is
 * sparing0's drive with MECH0's write settle (0.25 ms instead of mech.inc's 0.5 ms). */
static void test_named_blocks(void **state)
{
	(void)state;
	struct iolab_disk_model a, b;
	th_import_spec("named.parv", &a);
	th_import_spec("sparing0.diskspecs", &b);
	assert_int_equal(a.blocks, b.blocks);
	assert_int_equal(a.nzones, b.nzones);
	assert_int_equal(a.rev_ns, b.rev_ns);
	assert_int_equal(a.sched, b.sched);
	assert_int_equal(b.write_settle_ns, 500000);
	assert_int_equal(a.write_settle_ns, 250000);
	iolab_model_free(&a);
	iolab_model_free(&b);
}

/* Copies the files of tests/data/disksim-specs a drive needs into a new directory, `file` with
 * `from` replaced by `to`; imports `spec` from there, which must fail with each needle. */
static void bad_variant(const char *spec, const char *file, const char *from, const char *to, ...)
{
	static const char *const files[] = {
		"controller.inc", "mech.inc", "tiny.seek", "g4.model", "g4.layout", "g4.diskspecs",
		"sparing0.model", "sparing0.diskspecs", "sparing2.model", "sparing2.diskspecs",
		"mapping2.diskspecs", "zones-m.inc",
	};
	static unsigned seq;
	char dir[512], path[1024];
	snprintf(dir, sizeof(dir), "%s/v%u", th_dir, seq++);
	assert_int_equal(mkdir(dir, 0755), 0);
	for (size_t i = 0; i < sizeof(files) / sizeof(files[0]); i++) {
		th_spec_path(path, sizeof(path), files[i]);
		FILE *f = fopen(path, "r");
		assert_non_null(f);
		char text[8192];
		size_t n = fread(text, 1, sizeof(text) - 1, f);
		fclose(f);
		text[n] = 0;
		snprintf(path, sizeof(path), "%s/%s", dir, files[i]);
		f = fopen(path, "w");
		assert_non_null(f);
		char *at = !strcmp(files[i], file) ? strstr(text, from) : NULL;
		if (!strcmp(files[i], file) && !at) {
			print_error("%s has no '%s'\n", file, from);
			fail();
		}
		if (at) {
			fwrite(text, 1, (size_t)(at - text), f);
			fputs(to, f);
			fputs(at + strlen(from), f);
		} else {
			fputs(text, f);
		}
		fclose(f);
	}
	snprintf(path, sizeof(path), "%s/%s", dir, spec);
	struct iolab_disk_model m;
	struct iolab_err err = {{0}};
	if (iolab_import_disksim(path, &m, &err) == 0) {
		print_error("%s: '%s' -> '%s' should be refused\n", file, from, to);
		iolab_model_free(&m);
		fail();
	}
	assert_null(strchr(err.msg, '\n'));
	va_list ap;
	va_start(ap, to);
	for (const char *needle = va_arg(ap, const char *); needle; needle = va_arg(ap, const char *))
		if (!strstr(err.msg, needle)) {
			print_error("message '%s' should contain '%s'\n", err.msg, needle);
			fail();
		}
	va_end(ap);
}

/* Refusals name the file, the line and the DiskSim field. */
static void test_refusals(void **state)
{
	(void)state;
	char path[1024];
	struct iolab_disk_model m;
	struct iolab_err err = {{0}};
	th_spec_path(path, sizeof(path), "g2.diskspecs");
	assert_int_equal(iolab_import_disksim(path, &m, &err), -EINVAL);
	assert_non_null(strstr(err.msg, "g2.diskspecs:9: field 'Layout Model'"));
	assert_non_null(strstr(err.msg, "Layout Map File"));
	th_spec_path(path, sizeof(path), "loop.diskspecs");
	assert_int_equal(iolab_import_disksim(path, &m, &err), -EINVAL);
	assert_non_null(strstr(err.msg, "loop.diskspecs:2: field 'source'"));
	assert_non_null(strstr(err.msg, "nested more than 32"));

	bad_variant("sparing2.diskspecs", "sparing2.diskspecs", "source controller.inc",
		    "source nothere.inc", "sparing2.diskspecs:4: field 'source'", "nothere.inc", NULL);
	bad_variant("sparing2.diskspecs", "sparing2.model", "Layout Model = dm_layout_g1",
		    "Layout Model = source nothere.layout", "sparing2.model:6: field 'Layout Model'",
		    "nothere.layout", NULL);
	bad_variant("sparing0.diskspecs", "sparing0.model", "slips = [  ]", "slips = [ 3 ]",
		    "sparing0.model:21: field 'slips'", "sparing scheme 0", NULL);
	bad_variant("sparing0.diskspecs", "sparing0.model", "Skew units = revolutions",
		    "Skew units = degrees", "sparing0.model:10: field 'Skew units'", NULL);
	/* three slips in cylinder 1, which has 2 spare sectors */
	bad_variant("sparing2.diskspecs", "sparing2.model", "slips = [ 23 ]", "slips = [ 23, 24, 25 ]",
		    "sparing2.model: zone 1: field 'slips'", "more than its 2 spare sectors", NULL);
	bad_variant("sparing2.diskspecs", "controller.inc", "Number of buffer segments = 0x4",
		    "Number of buffer segments = 0x", "controller.inc:10: field 'Number of buffer "
		    "segments'", "not a number", NULL);
	bad_variant("sparing2.diskspecs", "controller.inc", "[ Read hit over. after read,",
		    "[ Read hit over. after read, =", "controller.inc:5:", "expected a parameter name",
		    NULL);
	/* the manual's 8-field entry: no head for the track */
	bad_variant("g4.diskspecs", "g4.layout", "[ 0, 0, 0.0,  10, 0, 0.0, 10, 1, TRACK, 0, 0,",
		    "[ 0, 0, 10, 1, 10, 0, TRACK, 0,", "g4.layout:8: field 'IDX'", "8 fields", NULL);
	bad_variant("g4.diskspecs", "g4.layout", "IDX, 1 ]", "IDX, 2 ]", "g4.model",
		    "field 'entry'", "child 2", NULL);
	bad_variant("g4.diskspecs", "g4.layout", "Remaps = [ 70, 2, 5, 0, 6, 8 ]",
		    "Remaps = [ 70, 2, 5, 0, 6 ]", "g4.layout:16: field 'Remaps'", "6-tuples", NULL);
	bad_variant("mapping2.diskspecs", "mapping2.diskspecs", "LBN-to-PBN mapping scheme = 2",
		    "LBN-to-PBN mapping scheme = 3", "mapping2.diskspecs:10: field 'LBN-to-PBN mapping "
		    "scheme'", NULL);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_sparing_schemes),
		cmocka_unit_test(test_skew_revolutions),
		cmocka_unit_test(test_mapping2),
		cmocka_unit_test(test_g4),
		cmocka_unit_test(test_syntax),
		cmocka_unit_test(test_whole_simulation_file),
		cmocka_unit_test(test_named_blocks),
		cmocka_unit_test(test_refusals),
	};
	return cmocka_run_group_tests(tests, th_dir_setup, th_dir_teardown);
}
