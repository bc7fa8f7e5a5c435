/* test_ssd_cli.c: the simulated SSD on every user-facing path.
 *
 * On hand-made reports (an SSD's component report with its flash counts, its flash channels
 * and dies after it): the arithmetic of flash counts over repetitions (counts add, the state of
 * the blocks is the later report's), write amplification (programs per host page written) and
 * GC's share of the flash time; the JSON's components[].flash and points[].write_amplification
 * and gc_share, absent for a point without a flash device; the table's WA column (only when a
 * point has one) and --explain's lines for an SSD (WA, GC share, flash counts, erase spread,
 * busiest channel and die) with a die named the bottleneck; the CSV's columns; iolab_compare
 * showing WA side by side.
 *
 * Through the binary: --bus pcie3-x8 is pcie3x8; --precondition on a path of disks is a note,
 * not a refusal, and the JSON says precondition true. */
#include <math.h>
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <cmocka.h>
#include <jansson.h>

#include "helpers.h"
#include "iolab/compare.h"
#include "iolab/flash_report.h"
#include "iolab/output.h"
#include "iolab/run.h"

#define SPAN 1e9 /* ns: every hand-made part's run */

static struct iolab_comp_report part(const char *name, const char *kind, double busy_share)
{
	struct iolab_comp_report c = {.busy_ns = busy_share * SPAN, .span_ns = SPAN, .ios = 100};
	snprintf(c.name, sizeof(c.name), "%s", name);
	snprintf(c.kind, sizeof(c.kind), "%s", kind);
	return c;
}

/* An SSD that wrote 1000 host pages with 4180 programs (WA 4.18), its GC 5 of its dies' 8 s. */
static const struct iolab_flash_report ssd_flash = {
	.host_pages_written = 1000, .host_pages_read = 200, .flash_reads = 3380,
	.flash_programs = 4180, .erases = 40, .gc_pages = 3180, .map_reads = 7, .flash_ns = 8e9,
	.gc_ns = 5e9, .erase_min = 2, .erase_max = 9, .erase_mean = 5.5, .free_min = 3,
};

/* Point 1: host, an SSD "drive1" (its interface 30 % busy), its channels at 40 and 50 %, its
 * dies at 80 and 95 % (saturated: the bottleneck). Point 2: a disk alone. */
static struct iolab_results *results(void)
{
	struct iolab_results *r = calloc(1, sizeof(*r));
	assert_non_null(r);
	r->n = r->cap = 2;
	r->point = calloc(2, sizeof(*r->point));
	assert_non_null(r->point);
	for (unsigned i = 0; i < 2; i++) {
		struct iolab_point *p = &r->point[i];
		snprintf(p->pattern, sizeof(p->pattern), "rand-write");
		p->engine = "sim";
		p->model = i ? "atlas10k" : "nvme-ssd";
		p->qd = 32;
		p->workers = 1;
		p->bs = 4096;
		p->reps = 1;
		p->seconds = 1;
		p->write_policy = -1;
		p->iops.mean = 1000;
	}
	struct iolab_comp_report *c = calloc(6, sizeof(*c));
	assert_non_null(c);
	c[0] = part("host", "host", 0);
	c[1] = part("drive1", "ssd", 0.3);
	c[1].flash_given = true;
	c[1].flash = ssd_flash;
	c[2] = part("drive1.ch0", "flash-channel", 0.4);
	c[3] = part("drive1.ch1", "flash-channel", 0.5);
	c[4] = part("drive1.die0", "flash-die", 0.8);
	c[5] = part("drive1.die1", "flash-die", 0.95);
	for (unsigned k = 4; k < 6; k++) { /* a die's own counts: a share of the SSD's */
		c[k].flash_given = true;
		c[k].flash.flash_programs = 2090;
		c[k].flash.flash_ns = 4e9;
		c[k].flash.gc_ns = 2.5e9;
	}
	r->point[0].comp = c;
	r->point[0].ncomp = 6;
	struct iolab_comp_report *d = calloc(2, sizeof(*d));
	assert_non_null(d);
	d[0] = part("host", "host", 0);
	d[1] = part("drive1", "drive", 0.5);
	r->point[1].comp = d;
	r->point[1].ncomp = 2;
	return r;
}

static void results_free(struct iolab_results *r)
{
	for (unsigned i = 0; i < r->n; i++)
		free(r->point[i].comp);
	free(r->point);
	free(r);
}

/* What out() wrote: the table (explain or not) or the CSV of r, as a string (malloc'd). */
static char *table(const struct iolab_results *r, int what)
{
	char *buf = NULL;
	size_t len = 0;
	FILE *f = open_memstream(&buf, &len);
	assert_non_null(f);
	struct iolab_err err;
	if (what == 2)
		assert_int_equal(iolab_output_csv(f, r, &err), 0);
	else
		iolab_output_table(f, r, what == 1);
	fclose(f);
	return buf;
}

static void test_flash_arithmetic(void **state)
{
	(void)state;
	struct iolab_flash_report a = ssd_flash, later = ssd_flash;
	later.erase_min = 4;
	later.erase_max = 12;
	later.erase_mean = 7.25;
	later.free_min = 1;
	iolab_flash_report_add(&a, &later);
	assert_int_equal(a.host_pages_written, 2000);
	assert_int_equal(a.flash_programs, 8360);
	assert_int_equal(a.erases, 80);
	assert_int_equal(a.gc_pages, 6360);
	assert_int_equal(a.map_reads, 14);
	assert_true(a.flash_ns == 16e9 && a.gc_ns == 10e9);
	assert_int_equal(a.erase_min, 4); /* the state is the later report's */
	assert_int_equal(a.erase_max, 12);
	assert_true(a.erase_mean == 7.25);
	assert_int_equal(a.free_min, 1);
	iolab_flash_report_sub(&a, &ssd_flash); /* since a mark: counts less the mark's */
	assert_int_equal(a.host_pages_written, 1000);
	assert_int_equal(a.flash_programs, 4180);
	assert_int_equal(a.erase_max, 12); /* the state stays */
	assert_true(fabs(iolab_flash_wa(&a) - 4.18) < 1e-12);
	assert_true(fabs(iolab_flash_gc_share(&a) - 0.625) < 1e-12);
	struct iolab_flash_report none = {0};
	assert_true(iolab_flash_wa(&none) < 0);
	assert_true(iolab_flash_gc_share(&none) < 0);

	/* a part's reports added: flash_given and counts carried */
	struct iolab_comp_report x = part("drive1", "ssd", 0.1), y = x;
	y.flash_given = true;
	y.flash = ssd_flash;
	iolab_comp_report_add(&x, &y);
	assert_true(x.flash_given);
	assert_int_equal(x.flash.flash_programs, 4180);
	iolab_comp_report_add(&x, &y);
	assert_int_equal(x.flash.flash_programs, 8360);

	/* a point's devices together: the dies' own counts are not counted again */
	struct iolab_results *r = results();
	struct iolab_flash_report sum;
	assert_int_equal(iolab_flash_total(r->point[0].comp, r->point[0].ncomp, &sum), 1);
	assert_int_equal(sum.flash_programs, 4180);
	assert_int_equal(iolab_flash_total(r->point[1].comp, r->point[1].ncomp, &sum), 0);
	results_free(r);
}

static void test_flash_json(void **state)
{
	(void)state;
	struct iolab_results *r = results();
	char *buf = NULL;
	size_t len = 0;
	FILE *f = open_memstream(&buf, &len);
	assert_non_null(f);
	struct iolab_report rep = {.command = "sim"};
	struct iolab_err err;
	assert_int_equal(iolab_output_json(f, &rep, r, &err), 0);
	fclose(f);
	json_error_t jerr;
	json_t *root = json_loads(buf, 0, &jerr);
	free(buf);
	assert_non_null(root);
	json_t *p = json_array_get(json_object_get(root, "points"), 0);
	json_t *comps = json_object_get(p, "components");
	assert_int_equal(json_array_size(comps), 6);
	assert_null(json_object_get(json_array_get(comps, 0), "flash")); /* the host */
	assert_null(json_object_get(json_array_get(comps, 2), "flash")); /* a channel */
	json_t *ssd = json_array_get(comps, 1);
	assert_string_equal(json_string_value(json_object_get(ssd, "kind")), "ssd");
	json_t *fl = json_object_get(ssd, "flash");
	assert_non_null(fl);
	static const struct {
		const char *key;
		double want;
	} fields[] = {
		{"host_pages_written", 1000}, {"host_pages_read", 200}, {"flash_reads", 3380},
		{"flash_programs", 4180}, {"erases", 40}, {"gc_pages", 3180}, {"map_reads", 7},
		{"flash_ns", 8e9}, {"gc_ns", 5e9}, {"erase_min", 2}, {"erase_max", 9},
		{"erase_mean", 5.5}, {"free_min", 3}, {"write_amplification", 4.18},
		{"gc_share", 0.625},
	};
	assert_int_equal(json_object_size(fl), sizeof(fields) / sizeof(fields[0]));
	for (unsigned i = 0; i < sizeof(fields) / sizeof(fields[0]); i++) {
		json_t *v = json_object_get(fl, fields[i].key);
		if (!json_is_number(v) || fabs(json_number_value(v) - fields[i].want) > 1e-9) {
			print_error("flash.%s: want %g\n", fields[i].key, fields[i].want);
			fail();
		}
	}
	json_t *die = json_object_get(json_array_get(comps, 5), "flash");
	assert_non_null(die);
	assert_true(json_is_null(json_object_get(die, "write_amplification")));
	assert_true(fabs(json_number_value(json_object_get(die, "gc_share")) - 0.625) < 1e-12);
	/* the point: its SSDs together */
	assert_true(fabs(json_number_value(json_object_get(p, "write_amplification")) - 4.18) < 1e-12);
	assert_true(fabs(json_number_value(json_object_get(p, "gc_share")) - 0.625) < 1e-12);
	assert_string_equal(json_string_value(json_object_get(p, "bottleneck")), "drive1.die1");
	/* a point without a flash device has neither */
	json_t *q = json_array_get(json_object_get(root, "points"), 1);
	assert_null(json_object_get(q, "write_amplification"));
	assert_null(json_object_get(q, "gc_share"));
	assert_null(json_object_get(json_array_get(json_object_get(q, "components"), 1), "flash"));
	json_decref(root);
	results_free(r);
}

static void test_flash_table_explain_csv(void **state)
{
	(void)state;
	struct iolab_results *r = results();
	char *t = table(r, 0);
	assert_non_null(strstr(t, "cpu u/s     WA\n"));
	assert_non_null(strstr(t, "   4.18\n"));   /* the SSD's point */
	assert_non_null(strstr(t, "      -\n"));   /* the disk's */
	assert_non_null(strstr(t, "WA = write amplification of the simulated SSDs"));
	free(t);
	t = table(r, 1);
	assert_non_null(strstr(t, "  1 drive1: write amplification 4.18, GC 62.5 % of the flash time; "
				  "flash reads 3380, programs 4180, erases 40; erase counts 2..9 (mean "
				  "5.5)\n"));
	assert_non_null(strstr(t, "  1 drive1: busiest flash channel drive1.ch1 (50.0 % busy), die "
				  "drive1.die1 (95.0 % busy)\n"));
	assert_non_null(strstr(t, "  1 bottleneck: drive1.die1 (95.0 % busy)\n"));
	assert_null(strstr(t, "  1 drive1.ch0")); /* the parts are lines under their SSD, not rows */
	assert_null(strstr(t, "  2 drive1: write amplification"));
	free(t);
	t = table(r, 2);
	assert_non_null(strstr(t, ",lat_issued_p99_us,write_amplification,gc_share\n"));
	assert_non_null(strstr(t, ",4.1800,0.6250\n"));
	assert_non_null(strstr(t, ",,\n")); /* the disk's point: empty */
	free(t);
	/* no flash device anywhere: no column */
	r->point[0].ncomp = 1;
	t = table(r, 0);
	assert_null(strstr(t, " WA"));
	free(t);
	t = table(r, 2);
	assert_null(strstr(t, "write_amplification"));
	free(t);
	results_free(r);
}

/* A run document of one point with its figures (and a write amplification when wa >= 0). */
static json_t *doc(double iops, double wa)
{
	json_t *p = json_pack("{s:s,s:I,s:I,s:I,s:I,s:f,s:f,s:{s:f}}", "pattern", "rand-write", "bs",
			      (json_int_t)4096, "read_pct", (json_int_t)0, "qd", (json_int_t)32,
			      "workers", (json_int_t)1, "iops", iops, "mb_per_s", iops * 4096 / 1e6,
			      "lat_us", "mean", 100.0);
	if (wa >= 0)
		json_object_set_new(p, "write_amplification", json_real(wa));
	return json_pack("{s:s,s:[o]}", "command", "sim", "points", p);
}

static void test_compare_wa(void **state)
{
	(void)state;
	json_t *a = doc(20000, 4.18), *b = doc(60000, 1.99), *c = doc(150, -1);
	struct iolab_compare_run runs[] = {{1, NULL, a}, {2, NULL, b}, {3, NULL, c}};
	json_t *res;
	struct iolab_err err;
	assert_int_equal(iolab_compare(runs, 3, 0, IOLAB_COMPARE_REF, &res, &err), 0);
	json_t *values = json_object_get(json_array_get(json_object_get(res, "points"), 0), "values");
	assert_int_equal(json_array_size(values), 3);
	assert_true(json_real_value(json_object_get(json_array_get(values, 0), "write_amplification")) == 4.18);
	assert_true(json_real_value(json_object_get(json_array_get(values, 1), "write_amplification")) == 1.99);
	assert_null(json_object_get(json_array_get(values, 2), "write_amplification"));
	json_decref(res);
	json_decref(a);
	json_decref(b);
	json_decref(c);
}

/* --bus takes a PCIe name with a hyphen between generation and width; the JSON names the
 * table's link. */
static void test_bus_hyphen(void **state)
{
	(void)state;
	char json[300];
	snprintf(json, sizeof(json), "%s/bus.json", th_dir);
	struct th_out o = th_iolab("sim", "--array", "raid0:2", "--drive", "atlas10k", "--bus",
				   "pcie3-x8", "--time", "0.2", "--json", json, "--no-db", "--quiet", NULL);
	assert_int_equal(o.status, 0);
	th_out_free(&o);
	json_t *j = th_load_json(json);
	assert_non_null(j);
	json_t *run = json_array_get(json_object_get(json_object_get(j, "config"), "runs"), 0);
	json_t *bus = json_object_get(json_object_get(run, "path"), "bus");
	assert_string_equal(json_string_value(json_object_get(bus, "type")), "pcie3x8");
	json_decref(j);
	o = th_iolab("sim", "--array", "raid0:2", "--drive", "atlas10k", "--bus", "pcie3-x9",
		     "--time", "0.2", "--no-db", NULL);
	TH_EXPECT_EXIT(o, 2, "--bus: 'pcie3-x9' is neither an I/O bus (", "pcie3x4, pcie3x8, pcie3x16");
}

/* --precondition on a path of disks: they keep no state to precondition, which a note says; the
 * run goes on and the JSON says it was asked for. (It was refused before: "does not apply to a
 * simulated drive".) A replay on a model takes it too. */
static void test_precondition_disks_note(void **state)
{
	(void)state;
	char json[300];
	snprintf(json, sizeof(json), "%s/pre.json", th_dir);
	struct th_out o = th_iolab("sim", "--model", "atlas10k", "--precondition", "--time", "0.2",
				   "--json", json, "--no-db", NULL);
	assert_int_equal(o.status, 0);
	assert_string_equal(o.err, "iolab: --precondition has no effect on a simulated drive: only "
				   "a simulated SSD keeps a state to precondition\n");
	th_out_free(&o);
	json_t *j = th_load_json(json);
	assert_non_null(j);
	json_t *run = json_array_get(json_object_get(json_object_get(j, "config"), "runs"), 0);
	assert_true(json_is_true(json_object_get(run, "precondition")));
	assert_int_equal(json_integer_value(json_object_get(json_object_get(j, "config"),
							    "precondition_bytes")), 0);
	json_decref(j);
	char trace[300];
	snprintf(trace, sizeof(trace), "%s/t.trace", th_dir); /* DiskSim ascii: ms, dev, lbn, n, r */
	th_write_text(trace, "0.0 0 0 8 1\n1.0 0 64 8 0\n");
	o = th_iolab("replay", trace, "--format", "disksim", "--model", "atlas10k", "--precondition",
		     "--no-db", NULL);
	if (o.status)
		print_error("stdout: %s\nstderr: %s\n", o.out, o.err);
	assert_int_equal(o.status, 0);
	assert_non_null(strstr(o.err, "--precondition has no effect on a simulated drive"));
	th_out_free(&o);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_flash_arithmetic),
		cmocka_unit_test(test_flash_json),
		cmocka_unit_test(test_flash_table_explain_csv),
		cmocka_unit_test(test_compare_wa),
		cmocka_unit_test(test_bus_hyphen),
		cmocka_unit_test(test_precondition_disks_note),
	};
	return cmocka_run_group_tests(tests, th_dir_setup, th_dir_teardown);
}
