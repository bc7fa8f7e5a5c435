/* test_disksim_mech.c: DiskSim 4.0 mechanics the importer and the simulator take (import_disksim.c,
 * seek_curve.c, layout.c, disk.c), on small made-up drives in tests/data/disksim-specs/:
 *
 *  - every "Seek type" of dm_mech_g1 (DiskSim 4.0 Reference Manual, B.4.3 p77): the seek times at
 *    chosen distances equal the manual's formulas (B.5.1 Lee's equation, B.5.2 the HPL equation,
 *    the linear and constant types, First ten seek times), computed here by hand;
 *  - a .seek file with a third column (a standard deviation, as DIXtrac writes it): read, kept,
 *    written back;
 *  - "Access time type" constant (a fixed access time instead of seek and rotation) and
 *    averageRotation (rotational latency = half a revolution), in the service time of one request;
 *  - a negative "Add. write settling delay" (DiskSim bounds it not: writes settle faster), never
 *    making a positioning time negative;
 *  - "Read completion overhead" (manual 3.4.5 p17) added to a request's service time; the
 *    overheads iolab has no model for refused when not 0, with the field and the line;
 *  - an HPL list that breaks the manual's rules (B.5.2: six values, V1 a whole number >= 0) is
 *    refused with the field and the line.
 *
 * All the drives: 2 surfaces, 1000 cylinders, 6000 rpm (10 ms a revolution), cylinders 0..499
 * with 100 sectors a track (0.1 ms a sector), no skews, cylinder mapping: LBN 200·c + s is sector
 * s of cylinder c, surface 0, starting at angle s/100; head switch 0.5 ms, write settle 0.3 ms
 * (settle-negative: -0.2 ms); no cache, no overheads, no transfer time.
 */
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
#include "iolab/disk_sim.h"
#include "iolab/disksim_import.h"

#define MS 1e6 /* ns */



/* The seek time in ms iolab gives for d cylinders equals want (ms) to the nanosecond. */
static void seek_is(const struct iolab_disk_model *m, uint32_t d, bool write, double want)
{
	double got = (double)iolab_model_seek_ns(m, d, write) / MS;
	if (fabs(got - want) > 2e-6) {
		print_error("seek of %u cylinders%s: %.6f ms, the formula gives %.6f ms\n", d,
			    write ? " (write)" : "", got, want);
		fail();
	}
}

/* Service time in ms of one request arriving at t = 0 on a fresh drive (arm on cylinder 0,
 * surface 0, angle 0). */
static double serve_one(const struct iolab_disk_model *m, uint64_t lbn, uint32_t blocks, bool write)
{
	struct iolab_disk *d = iolab_disk_new(m);
	assert_non_null(d);
	struct iolab_disk_req r = {.lbn = lbn, .blocks = blocks, .write = write};
	assert_int_equal(iolab_disk_submit(d, &r), 0);
	assert_ptr_equal(iolab_disk_next(d), &r);
	iolab_disk_free(d);
	return (double)r.t_done / MS;
}

static void service_is(const struct iolab_disk_model *m, uint64_t lbn, uint32_t blocks, bool write,
		       double want)
{
	double got = serve_one(m, lbn, blocks, write);
	if (fabs(got - want) > 1e-5) {
		print_error("%s of %u blocks at LBN %llu: %.6f ms, expected %.6f ms\n",
			    write ? "write" : "read", blocks, (unsigned long long)lbn, got, want);
		fail();
	}
}

/* Imports `name` with `from` replaced by `to` in it (a copy in a scratch directory); the import
 * must fail with a message holding every NULL-terminated part. */
static void bad_import(const char *name, const char *from, const char *to, ...)
{
	char src[1024], dst[1024];
	th_spec_path(src, sizeof(src), name);
	char *text = th_read_file(src, NULL);
	char *at = strstr(text, from);
	assert_non_null(at);
	snprintf(dst, sizeof(dst), "%s/%s", th_dir, name);
	FILE *f = fopen(dst, "w");
	assert_non_null(f);
	fprintf(f, "%.*s%s%s", (int)(at - text), text, to, at + strlen(from));
	assert_int_equal(fclose(f), 0);
	free(text);
	struct iolab_disk_model m;
	struct iolab_err err = {{0}};
	int rc = iolab_import_disksim(dst, &m, &err);
	if (rc == 0) {
		print_error("%s with '%s' should be refused\n", name, to);
		iolab_model_free(&m);
		fail();
	}
	assert_int_equal(rc, -EINVAL);
	va_list ap;
	va_start(ap, to);
	for (const char *p = va_arg(ap, const char *); p; p = va_arg(ap, const char *))
		if (!strstr(err.msg, p)) {
			print_error("message '%s' should contain '%s'\n", err.msg, p);
			fail();
		}
	va_end(ap);
}

/* The model written and read back gives the same seek times. */
static void round_trip(const struct iolab_disk_model *m)
{
	char *buf = NULL;
	size_t len = 0;
	FILE *f = open_memstream(&buf, &len);
	assert_non_null(f);
	assert_int_equal(iolab_model_write(m, f), 0);
	assert_int_equal(fclose(f), 0);
	struct iolab_disk_model b;
	struct iolab_err err = {{0}};
	if (iolab_model_parse("written.model", buf, &b, &err)) {
		print_error("%s\n%s", err.msg, buf);
		fail();
	}
	assert_int_equal(b.seek_type, m->seek_type);
	assert_int_equal(b.access, m->access);
	assert_int_equal(b.write_settle_ns, m->write_settle_ns);
	for (uint32_t d = 0; d < 1000; d += 37)
		assert_int_equal(iolab_model_seek_ns(&b, d, false), iolab_model_seek_ns(m, d, false));
	iolab_model_free(&b);
	free(buf);
}

/* ---- seek types ------------------------------------------------------------------------- */

/* HPL (manual B.5.2): [V1..V6] = [200, 1.0, 0.2, 3.0, 0.005, 0.8]: 1 cylinder V6; below V1
 * V2 + V3·sqrt(d); from V1 on V4 + V5·d. */
static void test_hpl(void **state)
{
	(void)state;
	struct iolab_disk_model m;
	th_import_spec("seek-hpl.diskspecs", &m);
	assert_int_equal(m.seek_type, IOLAB_SEEK_HPL);
	seek_is(&m, 0, false, 0);
	seek_is(&m, 1, false, 0.8);
	seek_is(&m, 2, false, 1.0 + 0.2 * sqrt(2));
	seek_is(&m, 100, false, 1.0 + 0.2 * 10);
	seek_is(&m, 199, false, 1.0 + 0.2 * sqrt(199));
	seek_is(&m, 200, false, 3.0 + 0.005 * 200); /* the boundary takes the linear branch */
	seek_is(&m, 999, false, 3.0 + 0.005 * 999);
	seek_is(&m, 100, true, 3.0 + 0.3);          /* writes settle (B.4.3) */
	/* The explicit formula is kept (iolab's own fit does not replace it). */
	assert_true(fabs(m.seek_hpl[4] - 0.005) < 1e-12);
	round_trip(&m);
	/* One read at cylinder 100, sector 29: seek 3.0 ms, the head lands at angle 0.30, so the
	 * sector (at 0.29) comes round after 0.99 revolution; then one sector. */
	service_is(&m, 200 * 100 + 29, 1, false, 3.0 + 9.9 + 0.1);
	iolab_model_free(&m);

	/* V6 = -1: a single-cylinder seek takes the second equation (B.5.2). */
	struct iolab_err err = {{0}};
	static const char text[] =
		"name = v6\nsurfaces = 1\ncylinders = 1000\nblocks = 1000\nrpm = 6000\n"
		"seek_type = hpl\nseek_hpl = 200 1.0 0.2 3.0 0.005 -1\n"
		"[zone]\ncylinders = 0 999\nsectors_per_track = 1\n";
	assert_int_equal(iolab_model_parse("v6.model", text, &m, &err), 0);
	seek_is(&m, 1, false, 1.0 + 0.2 * 1);
	seek_is(&m, 4, false, 1.0 + 0.2 * 2);
	iolab_model_free(&m);
}

/* hplplus10 (B.4.3): First ten seek times for 1..10 cylinders, the HPL equation beyond (its V6
 * unused). */
static void test_hplplus10(void **state)
{
	(void)state;
	struct iolab_disk_model m;
	th_import_spec("seek-hplplus10.diskspecs", &m);
	assert_int_equal(m.seek_type, IOLAB_SEEK_HPLPLUS10);
	seek_is(&m, 1, false, 0.5);
	seek_is(&m, 5, false, 0.9);
	seek_is(&m, 10, false, 1.4);
	seek_is(&m, 11, false, 1.0 + 0.2 * sqrt(11));
	seek_is(&m, 500, false, 3.0 + 0.005 * 500);
	round_trip(&m);
	iolab_model_free(&m);
}

/* curve: Lee's equation (B.5.1) with min 1, avg 5, max 10 ms, numCyl 1000:
 * a = (-10 + 75 - 50) / (3·sqrt(1000)), b = (7 - 75 + 80) / 3000, c = 1. */
static void test_curve(void **state)
{
	(void)state;
	struct iolab_disk_model m;
	th_import_spec("seek-curve.diskspecs", &m);
	assert_int_equal(m.seek_type, IOLAB_SEEK_CURVE);
	double a = 15 / (3 * sqrt(1000)), b = 12.0 / 3000;
	seek_is(&m, 0, false, 0);
	seek_is(&m, 1, false, 1.0);
	seek_is(&m, 101, false, a * 10 + b * 100 + 1);
	seek_is(&m, 999, false, a * sqrt(998) + b * 998 + 1);
	round_trip(&m);
	iolab_model_free(&m);
}

/* linear (B.4.3): through (1, single), (C/3, average), (C, full stroke). */
static void test_linear(void **state)
{
	(void)state;
	struct iolab_disk_model m;
	th_import_spec("seek-linear.diskspecs", &m);
	assert_int_equal(m.seek_type, IOLAB_SEEK_LINEAR);
	seek_is(&m, 1, false, 1.0);
	seek_is(&m, 101, false, 1.0 + 3.0 * 100 / 1000 * 4.0);
	seek_is(&m, 334, false, 5.0 + (3.0 * 334 - 1000) / 2000 * 5.0);
	seek_is(&m, 999, false, 5.0 + (3.0 * 999 - 1000) / 2000 * 5.0);
	round_trip(&m);
	iolab_model_free(&m);
}

/* constant (B.4.3): a fixed per-request seek time (2.5 ms), charged even on the same track. */
static void test_constant_seek(void **state)
{
	(void)state;
	struct iolab_disk_model m;
	th_import_spec("seek-constant.diskspecs", &m);
	assert_int_equal(m.seek_type, IOLAB_SEEK_CONSTANT);
	seek_is(&m, 0, false, 2.5);
	seek_is(&m, 1, false, 2.5);
	seek_is(&m, 999, false, 2.5);
	seek_is(&m, 999, true, 2.8);
	round_trip(&m);
	/* LBN 30 (cylinder 0, surface 0, sector 30): 2.5 ms, angle 0.25, sector at 0.30 after 0.5 ms. */
	service_is(&m, 30, 1, false, 2.5 + 0.5 + 0.1);
	iolab_model_free(&m);
}

/* extracted with DIXtrac's third column (manual p81; DiskSim reads "%d, %lf, %lf"): the
 * standard deviations are kept and written back; the times are interpolated as without them. */
static void test_extracted_stddev(void **state)
{
	(void)state;
	struct iolab_disk_model m;
	th_import_spec("seek-extracted-stddev.diskspecs", &m);
	assert_int_equal(m.nseek, 4);
	assert_true(m.seek_has_sd);
	assert_int_equal(m.seek[2].sd_ns, 200000);
	seek_is(&m, 10, false, 2.0);
	seek_is(&m, 55, false, 3.0);
	round_trip(&m);
	char *buf = NULL;
	size_t len = 0;
	FILE *f = open_memstream(&buf, &len);
	assert_non_null(f);
	assert_int_equal(iolab_model_write(&m, f), 0);
	assert_int_equal(fclose(f), 0);
	assert_non_null(strstr(buf, "\n100 4.00000 0.20000\n"));
	free(buf);
	iolab_model_free(&m);
}

/* ---- access-time types ------------------------------------------------------------------ */

/* constant (B.4.3: "a fixed per-request access time (i.e., actual mechanical activity is not
 * modeled)"): 4 ms instead of seek and rotation, then the sectors' media time. */
static void test_access_constant(void **state)
{
	(void)state;
	struct iolab_disk_model m;
	th_import_spec("access-constant.diskspecs", &m);
	assert_int_equal(m.access, IOLAB_ACCESS_CONSTANT);
	assert_int_equal(m.access_const_ns, 4000000);
	service_is(&m, 200 * 300 + 57, 1, false, 4.0 + 0.1);
	/* a request across a track switch pays it once: it is per request */
	service_is(&m, 200 * 300 + 99, 2, false, 4.0 + 0.2);
	round_trip(&m);
	iolab_model_free(&m);
}

/* averageRotation (B.4.3): seeks modelled, rotational latency half a revolution (5 ms). The HPL
 * seek of 100 cylinders is 3.0 ms. A request that continues on the next surface pays the head
 * switch (0.5 ms) and another half revolution (DiskSim computes each track's part alike). */
static void test_access_average_rotation(void **state)
{
	(void)state;
	struct iolab_disk_model m;
	th_import_spec("access-average-rotation.diskspecs", &m);
	assert_int_equal(m.access, IOLAB_ACCESS_AVG_ROTATION);
	service_is(&m, 200 * 100 + 29, 1, false, 3.0 + 5.0 + 0.1);
	service_is(&m, 200 * 100 + 29, 4, false, 3.0 + 5.0 + 0.4);
	service_is(&m, 200 * 100 + 99, 2, false, 3.0 + 5.0 + 0.1 + 0.5 + 5.0 + 0.1);
	round_trip(&m);
	iolab_model_free(&m);
}

/* ---- write settle ----------------------------------------------------------------------- */

/* Add. write settling delay = -0.2 ms (B.4.3; DiskSim accepts a negative value): a write's
 * positioning is 0.2 ms shorter than a read's, and never below 0. */
static void test_settle_negative(void **state)
{
	(void)state;
	struct iolab_disk_model m;
	th_import_spec("settle-negative.diskspecs", &m);
	assert_int_equal(m.write_settle_ns, -200000);
	seek_is(&m, 100, true, 3.0 - 0.2);
	seek_is(&m, 100, false, 3.0);
	/* cylinder 100, sector 29: the write lands at 2.8 ms (angle 0.28), 0.1 ms before its sector;
	 * the read lands at 3.0 ms (angle 0.30), just after it, and waits 0.99 revolution */
	service_is(&m, 200 * 100 + 29, 1, true, 2.8 + 0.1 + 0.1);
	service_is(&m, 200 * 100 + 29, 1, false, 3.0 + 9.9 + 0.1);
	round_trip(&m);
	/* a settle longer than the seek: the positioning is 0, not negative */
	m.write_settle_ns = -5000000;
	seek_is(&m, 1, true, 0);
	service_is(&m, 200 * 1, 1, true, 0.1); /* cylinder 1 sector 0, right under the head at 0 */
	iolab_model_free(&m);
}

/* ---- overheads -------------------------------------------------------------------------- */

/* Read completion overhead 0.25 ms (manual 3.4.5 p17: applied just before the completion
 * message) ends each read later by that much. */
static void test_completion_overhead(void **state)
{
	(void)state;
	struct iolab_disk_model m;
	th_import_spec("completion-overhead.diskspecs", &m);
	assert_int_equal(m.ovh_complete[0], 250000);
	service_is(&m, 200 * 100 + 29, 1, false, 3.0 + 9.9 + 0.1 + 0.25);
	round_trip(&m);
	iolab_model_free(&m);
}

/* What iolab does not model is refused, naming the field and its line: the fields that act
 * only with a second command in the drive (preseeking, sneaky hits, write prebuffering: manual
 * 3.4.5 p17) once the drive queues commands. */
static void test_unmodelled_overheads(void **state)
{
	(void)state;
	bad_import("seek-hpl.diskspecs", "Max queue length = 1,",
		   "Max queue length = 4, Preseeking level = 2,",
		   "seek-hpl.diskspecs:66: field 'Preseeking level'", "command queuing", NULL);
	bad_import("seek-hpl.diskspecs", "Max queue length = 1,",
		   "Max queue length = 4, Allow sneaky full read hits = 1,",
		   "field 'Allow sneaky full read hits'", "command queuing", NULL);
}

/* ---- refusals --------------------------------------------------------------------------- */

/* The HPL list has six values, V1 a whole number >= 0 (manual B.5.2). */
static void test_bad_hpl(void **state)
{
	(void)state;
	bad_import("seek-hpl.diskspecs", "[ 200, 1.0, 0.2, 3.0, 0.005, 0.8 ]",
		   "[ 200, 1.0, 0.2, 3.0, 0.005 ]",
		   "seek-hpl.diskspecs:10: field 'HPL seek equation values'", "5 values, needs 6", NULL);
	bad_import("seek-hpl.diskspecs", "[ 200, 1.0, 0.2, 3.0, 0.005, 0.8 ]",
		   "[ -200, 1.0, 0.2, 3.0, 0.005, 0.8 ]",
		   "seek-hpl.diskspecs:10: field 'HPL seek equation values'", "V1", NULL);
	bad_import("seek-hpl.diskspecs", "[ 200, 1.0, 0.2, 3.0, 0.005, 0.8 ]",
		   "[ 200, 1.0, 0.2, 3.0, 0.005, -0.5 ]", "field 'HPL seek equation values'", "V6", NULL);
	bad_import("seek-hpl.diskspecs", "HPL seek equation values = [ 200, 1.0, 0.2, 3.0, 0.005, 0.8 ],",
		   "", "field 'HPL seek equation values'", "missing", NULL);
	bad_import("seek-hplplus10.diskspecs", "[ 0.5, 0.6, 0.7, 0.8, 0.9, 1.0, 1.1, 1.2, 1.3, 1.4 ]",
		   "[ 0.5, 0.6 ]", "field 'First ten seek times'", "needs 10", NULL);
	bad_import("seek-constant.diskspecs", "Constant seek time = 2.5,", "",
		   "field 'Constant seek time'", "missing", NULL);
	bad_import("access-constant.diskspecs", "Constant access time = 4.0,", "",
		   "field 'Constant access time'", "missing", NULL);
	bad_import("seek-curve.diskspecs", "Average seek time = 5.0,", "",
		   "field 'Average seek time'", "missing", NULL);
	bad_import("seek-hpl.diskspecs", "Access time type = trackSwitchPlusRotation",
		   "Access time type = sometimes", "seek-hpl.diskspecs:8: field 'Access time type'", NULL);
	bad_import("seek-extracted-stddev.diskspecs", "Seek type = extracted", "Seek type = spline",
		   "seek-extracted-stddev.diskspecs:9: field 'Seek type'", NULL);
}

/* The same rules in iolab's model file. */
static void test_model_file_refusals(void **state)
{
	(void)state;
	static const char base[] = "name = x\nsurfaces = 1\ncylinders = 1000\nblocks = 1000\nrpm = 6000\n";
	static const struct {
		const char *lines, *want;
	} cases[] = {
		{"seek_type = hpl\nseek_hpl = 200 1 0.2 3 0.005\n", "x.model:7: field 'seek_hpl': needs 6 numbers"},
		{"seek_type = hpl\nseek_hpl = 2.5 1 0.2 3 0.005 1\n", "x.model:7: field 'seek_hpl': V1"},
		{"seek_type = hpl\n", "x.model:6: field 'seek_hpl': missing"},
		{"seek_type = hplplus10\nseek_hpl = 2 1 1 1 1 -1\n", "field 'seek_first_ten_ms': missing"},
		{"seek_type = constant\n", "field 'seek_constant_ms': missing"},
		{"seek_type = curve\nseek_single_ms = 1\nseek_full_ms = 9\n", "field 'seek_average_ms': required"},
		{"seek_type = extracted\nseek_single_ms = 1\nseek_full_ms = 9\n", "'extracted' needs a [seek] table"},
		{"seek_type = bezier\n", "x.model:6: field 'seek_type'"},
		{"access_time = constant\nseek_single_ms = 1\nseek_full_ms = 9\n",
		 "field 'access_constant_ms': missing"},
		{"access_time = half\n", "x.model:6: field 'access_time'"},
		{"write_settle_ms = -2e6\n", "x.model:6: field 'write_settle_ms'"},
	};
	for (size_t i = 0; i < sizeof(cases) / sizeof(cases[0]); i++) {
		char text[1024];
		snprintf(text, sizeof(text), "%s%s[zone]\ncylinders = 0 999\nsectors_per_track = 1\n", base,
			 cases[i].lines);
		struct iolab_disk_model m;
		struct iolab_err err = {{0}};
		if (!iolab_model_parse("x.model", text, &m, &err)) {
			print_error("should be refused:\n%s", text);
			iolab_model_free(&m);
			fail();
		}
		if (!strstr(err.msg, cases[i].want)) {
			print_error("message '%s' should contain '%s'\n", err.msg, cases[i].want);
			fail();
		}
	}
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_hpl),
		cmocka_unit_test(test_hplplus10),
		cmocka_unit_test(test_curve),
		cmocka_unit_test(test_linear),
		cmocka_unit_test(test_constant_seek),
		cmocka_unit_test(test_extracted_stddev),
		cmocka_unit_test(test_access_constant),
		cmocka_unit_test(test_access_average_rotation),
		cmocka_unit_test(test_settle_negative),
		cmocka_unit_test(test_completion_overhead),
		cmocka_unit_test(test_unmodelled_overheads),
		cmocka_unit_test(test_bad_hpl),
		cmocka_unit_test(test_model_file_refusals),
	};
	return cmocka_run_group_tests(tests, th_dir_setup, th_dir_teardown);
}
