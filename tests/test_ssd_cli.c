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
 * not a refusal, and the JSON says precondition true. On a small SSD model (th_tiny_ssd_model(): 4 dies
 * on 2 channels, 64 MiB of flash, 10 % spare, so that every run takes a fraction of a second):
 * --precondition puts it in its steady state (random writes fall off the write cliff: WA well
 * above 1, GC most of the dies' time, IOPS far below the fresh drive's, where WA is 1); the state
 * carries across repetitions (the blocks' erase counts keep growing) unless --fresh-state;
 * --steady-state with --precondition; --set drive.overprovisioning sweeps the model's spare
 * (more spare, less WA); an array of SSDs behind --bus pcie3-x8 with --explain names the SSDs'
 * busiest channels and dies and a saturated die as the bottleneck; a timed MQSim replay; the
 * CSV's columns. The JSON's figures are checked against each other: WA >= 1, gc_share in [0, 1],
 * the point's WA the SSD's programs over its host pages. */
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
	.trimmed_pages = 11,
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
	assert_int_equal(a.trimmed_pages, 22);
	assert_true(a.flash_ns == 16e9 && a.gc_ns == 10e9);
	assert_int_equal(a.erase_min, 4); /* the state is the later report's */
	assert_int_equal(a.erase_max, 12);
	assert_true(a.erase_mean == 7.25);
	assert_int_equal(a.free_min, 1);
	iolab_flash_report_sub(&a, &ssd_flash); /* since a mark: counts less the mark's */
	assert_int_equal(a.host_pages_written, 1000);
	assert_int_equal(a.flash_programs, 4180);
	assert_int_equal(a.trimmed_pages, 11);
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
		{"erase_mean", 5.5}, {"free_min", 3}, {"trimmed_pages", 11}, {"write_amplification", 4.18},
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
	/* an engine without targets or a simulated path still has nothing to precondition */
	o = th_iolab("run", "--engine", "null", "--precondition", "--time", "0.1", "--no-db", NULL);
	TH_EXPECT_EXIT(o, 2, "--precondition: engine 'null' has no target to write");
}

/* Runs iolab with argv (NULL-terminated) plus --json FILE --no-db --quiet; expects exit 0 and
 * returns the document (the caller frees it). */
static json_t *run_json(const char *const *argv)
{
	char json[300], cmd[4096] = "";
	snprintf(json, sizeof(json), "%s/run.json", th_dir);
	remove(json);
	size_t at = 0;
	for (unsigned i = 0; argv[i]; i++)
		at += (size_t)snprintf(cmd + at, sizeof(cmd) - at, " '%s'", argv[i]);
	int rc = th_sh("$B%s --json '%s' --no-db --quiet >/dev/null", cmd, json);
	if (rc)
		print_error("exit %d:%s\n", rc, cmd);
	assert_int_equal(rc, 0);
	json_t *j = th_load_json(json);
	assert_non_null(j);
	return j;
}

static json_t *point_of(json_t *doc, size_t i)
{
	json_t *p = json_array_get(json_object_get(doc, "points"), i);
	assert_non_null(p);
	return p;
}

static double num(json_t *o, const char *key)
{
	json_t *v = json_object_get(o, key);
	if (!json_is_number(v)) {
		print_error("'%s' is not a number\n", key);
		fail();
	}
	return json_number_value(v);
}

/* The point's SSD component (the first of kind ssd) and its figures checked against each
 * other; returns its flash object. */
static json_t *ssd_checked(json_t *p)
{
	json_t *comps = json_object_get(p, "components"), *c, *ssd = NULL;
	size_t i;
	json_array_foreach(comps, i, c)
		if (!ssd && !strcmp(json_string_value(json_object_get(c, "kind")), "ssd"))
			ssd = c;
	assert_non_null(ssd);
	json_t *fl = json_object_get(ssd, "flash");
	assert_non_null(fl);
	double wa = num(p, "write_amplification"), gc = num(p, "gc_share");
	assert_true(wa >= 1 && gc >= 0 && gc <= 1);
	/* the JSON's reals have 10 significant digits */
	assert_true(fabs(wa - num(fl, "flash_programs") / num(fl, "host_pages_written")) < 1e-9 * wa);
	assert_true(fabs(gc - num(fl, "gc_ns") / num(fl, "flash_ns")) < 1e-9);
	assert_true(num(fl, "erase_min") <= num(fl, "erase_mean") &&
		    num(fl, "erase_mean") <= num(fl, "erase_max"));
	return fl;
}

/* The write cliff: a preconditioned SSD writes at random with GC (WA well above 1, most of the
 * dies' time GC's) at a fraction of the fresh drive's IOPS, whose WA is 1. No note: an SSD keeps
 * a state to precondition. Its parts are in components: 2 channels, 4 dies, named after it. */
static void test_ssd_precondition(void **state)
{
	(void)state;
	const char *fresh_argv[] = {"sim", "--model", th_tiny_ssd_model(), "--pattern", "rand-write",
				    "--bs", "4k", "--qd", "32", "--time", "0.5", NULL};
	json_t *fresh = run_json(fresh_argv);
	const char *pre_argv[] = {"sim", "--model", th_tiny_ssd_model(), "--pattern", "rand-write", "--bs",
				  "4k", "--qd", "32", "--time", "0.5", "--precondition", NULL};
	json_t *pre = run_json(pre_argv);
	json_t *f = point_of(fresh, 0), *p = point_of(pre, 0);
	ssd_checked(f);
	ssd_checked(p);
	assert_true(num(f, "write_amplification") < 1.05);
	assert_true(num(p, "write_amplification") > 2);
	assert_true(num(p, "gc_share") > 0.3);
	assert_true(num(p, "iops") < 0.5 * num(f, "iops"));
	json_t *run = json_array_get(json_object_get(json_object_get(pre, "config"), "runs"), 0);
	assert_true(json_is_true(json_object_get(run, "precondition")));
	static const char *const parts[][2] = {
		{"host", "host"}, {"drive", "ssd"}, {"drive.ch0", "flash-channel"},
		{"drive.ch1", "flash-channel"}, {"drive.die0", "flash-die"}, {"drive.die1", "flash-die"},
		{"drive.die2", "flash-die"}, {"drive.die3", "flash-die"},
	};
	json_t *comps = json_object_get(p, "components");
	assert_int_equal(json_array_size(comps), 8);
	for (unsigned i = 0; i < 8; i++) {
		json_t *c = json_array_get(comps, i);
		assert_string_equal(json_string_value(json_object_get(c, "name")), parts[i][0]);
		assert_string_equal(json_string_value(json_object_get(c, "kind")), parts[i][1]);
	}
	json_decref(fresh);
	json_decref(pre);
	struct th_out o = th_iolab("sim", "--model", th_tiny_ssd_model(), "--precondition", "--time", "0.1",
				   "--no-db", NULL);
	assert_int_equal(o.status, 0);
	assert_null(strstr(o.err, "no effect"));
	th_out_free(&o);
}

/* The preconditioned state carries across repetitions: after three, the blocks have been erased
 * more than after one; with --fresh-state each run is built and preconditioned afresh, and the
 * state at the end is one run's. */
static void test_ssd_state_carried(void **state)
{
	(void)state;
	double mean[3];
	static const char *const how[3][3] = {{"1", NULL}, {"3", NULL}, {"3", "--fresh-state"}};
	for (unsigned k = 0; k < 3; k++) {
		const char *argv[] = {"sim", "--model", th_tiny_ssd_model(), "--pattern", "rand-write", "--bs",
				      "4k", "--qd", "32", "--time", "0.2", "--precondition", "--repeat",
				      how[k][0], how[k][1], NULL};
		json_t *j = run_json(argv);
		mean[k] = num(ssd_checked(point_of(j, 0)), "erase_mean");
		json_decref(j);
	}
	assert_true(mean[0] > 0);
	assert_true(mean[1] > 1.5 * mean[0]);
	assert_true(mean[2] < 1.5 * mean[0]);

	/* --steady-state iops after --precondition: rounds of one carried state */
	const char *argv[] = {"sim", "--model", th_tiny_ssd_model(), "--pattern", "rand-write", "--bs", "4k",
			      "--qd", "32", "--time", "0.2", "--precondition", "--steady-state", "iops",
			      NULL};
	json_t *j = run_json(argv);
	json_t *p = point_of(j, 0);
	ssd_checked(p);
	json_t *ss = json_object_get(p, "steady_state");
	assert_true(json_integer_value(json_object_get(ss, "rounds")) >= 5);
	assert_true(num(p, "write_amplification") > 2);
	json_decref(j);
}

/* --set drive.overprovisioning sweeps the SSD model's spare: more spare, less WA. */
static void test_ssd_set_overprovisioning(void **state)
{
	(void)state;
	const char *argv[] = {"sim", "--model", th_tiny_ssd_model(), "--set",
			      "drive.overprovisioning=7%,28%", "--pattern", "rand-write", "--bs", "4k",
			      "--qd", "32", "--time", "0.5", "--precondition", NULL};
	json_t *j = run_json(argv);
	json_t *a = point_of(j, 0), *b = point_of(j, 1);
	ssd_checked(a);
	ssd_checked(b);
	assert_string_equal(json_string_value(json_object_get(json_object_get(a, "settings"),
							       "drive.overprovisioning")), "7%");
	assert_true(num(a, "write_amplification") > 1.5 * num(b, "write_amplification"));
	json_decref(j);
}

/* Two SSDs striped behind a PCIe 3.0 x8 bus (written pcie3-x8), random reads at QD 64: the dies
 * saturate; --explain has a line per SSD with its busiest channel and die and names a die the
 * bottleneck; the JSON has each SSD's parts after it; the CSV's WA column is empty (no writes). */
static void test_ssd_array_explain(void **state)
{
	(void)state;
	char json[300], csv[300];
	snprintf(json, sizeof(json), "%s/array.json", th_dir);
	snprintf(csv, sizeof(csv), "%s/array.csv", th_dir);
	struct th_out o = th_iolab("sim", "--array", "raid0:2", "--drive", th_tiny_ssd_model(), "--bus",
				   "pcie3-x8", "--pattern", "rand-read", "--bs", "4k", "--qd", "64",
				   "--time", "0.2", "--explain", "--json", json, "--csv", csv, "--no-db",
				   "--force", NULL);
	assert_int_equal(o.status, 0);
	assert_non_null(strstr(o.out, "  1 drive1: write amplification - (no page written), GC 0.0 % "
				     "of the flash time; flash reads "));
	assert_non_null(strstr(o.out, "  1 drive2: busiest flash channel drive2.ch"));
	assert_non_null(strstr(o.out, "  1 bottleneck: drive"));
	assert_non_null(strstr(strstr(o.out, "  1 bottleneck: drive"), ".die"));
	assert_null(strstr(o.out, "flash-die")); /* no rows of the parts */
	assert_non_null(strstr(o.out, "simulated SSD tiny-ssd, virtual time"));
	th_out_free(&o);
	json_t *j = th_load_json(json);
	assert_non_null(j);
	json_t *p = point_of(j, 0);
	const char *b = json_string_value(json_object_get(p, "bottleneck"));
	assert_non_null(b);
	assert_non_null(strstr(b, ".die"));
	assert_true(json_is_null(json_object_get(p, "write_amplification")));
	unsigned ssds = 0, dies = 0;
	json_t *c;
	size_t i;
	json_array_foreach(json_object_get(p, "components"), i, c) {
		const char *kind = json_string_value(json_object_get(c, "kind"));
		ssds += !strcmp(kind, "ssd");
		dies += !strcmp(kind, "flash-die");
	}
	assert_int_equal(ssds, 2);
	assert_int_equal(dies, 8);
	json_decref(j);
	char *text = th_read_file(csv, NULL);
	assert_non_null(strstr(text, ",write_amplification,gc_share\n"));
	free(text);
}

/* Random writes at QD 32 after preconditioning on 4 dies: the write-back cache's flushes are
 * reserved on the dies ahead of the clock, but a part's busy time is the part of it inside the
 * run, so no die (nor channel, nor the device) is more than 100 % busy, in the JSON or in
 * --explain, and the dies, the bottleneck, are all but saturated. */
static void test_ssd_busy_within_the_run(void **state)
{
	(void)state;
	char json[300];
	snprintf(json, sizeof(json), "%s/busy.json", th_dir);
	struct th_out o = th_iolab("sim", "--model", th_tiny_ssd_model(), "--pattern", "rand-write", "--qd",
				   "32", "--precondition", "--time", "0.2", "--explain", "--json", json,
				   "--no-db", "--force", NULL);
	assert_int_equal(o.status, 0);
	const char *line = strstr(o.out, "  1 bottleneck: drive.die");
	assert_non_null(line);
	double pct = 0;
	assert_int_equal(sscanf(strchr(line, '(') + 1, "%lf", &pct), 1);
	assert_true(pct <= 100.0);
	th_out_free(&o);
	json_t *j = th_load_json(json);
	assert_non_null(j);
	json_t *c;
	size_t i;
	unsigned dies = 0;
	json_array_foreach(json_object_get(point_of(j, 0), "components"), i, c) {
		double u = num(c, "utilization");
		if (u > 1.0)
			print_error("%s is %.4f busy\n",
				    json_string_value(json_object_get(c, "name")), u);
		assert_true(u <= 1.0);
		if (!strcmp(json_string_value(json_object_get(c, "kind")), "flash-die")) {
			dies++;
			assert_true(u > 0.9);
		}
	}
	assert_int_equal(dies, 4);
	json_decref(j);
}

/* A geometry the FTL cannot hold (32 blocks a plane leave too few beside GC's reserve and open
 * blocks at nvme-ssd's 9 % spare) is refused by the model's check, naming the option and the
 * field, not later by the device's build without its reason. */
static void test_ssd_set_unbuildable(void **state)
{
	(void)state;
	struct th_out o = th_iolab("sim", "--model", "nvme-ssd", "--set", "drive.blocks_per_plane=32",
				   "--set", "drive.overprovisioning=7%", "--pattern", "rand-read",
				   "--time", "0.1", "--no-db", NULL);
	TH_EXPECT_EXIT(o, 2, "--set drive.blocks_per_plane", "field 'overprovisioning'",
		       "its FTL holds beside the GC reserve");
	o = th_iolab("sim", "--model", "nvme-ssd", "--set", "drive.blocks_per_plane=32",
		     "--set", "drive.overprovisioning=7%", "--pattern", "rand-read",
		     "--time", "0.1", "--no-db", NULL);
	assert_null(strstr(o.err, "cannot be built so"));
	th_out_free(&o);
}

/* A timed replay of an MQSim trace on the SSD model: its writes get a WA. */
static void test_ssd_replay_mqsim(void **state)
{
	(void)state;
	char trace[300];
	th_data_path(trace, sizeof(trace), "mqsim/tpcc-excerpt.trace");
	const char *argv[] = {"replay", trace, "--format", "mqsim", "--model", th_tiny_ssd_model(), "--mode",
			      "timed", "--wrap", "--precondition", NULL};
	json_t *j = run_json(argv);
	json_t *p = point_of(j, 0);
	ssd_checked(p);
	assert_string_equal(json_string_value(json_object_get(json_object_get(p, "replay"), "mode")),
			    "timed");
	json_decref(j);
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
		cmocka_unit_test(test_ssd_precondition),
		cmocka_unit_test(test_ssd_state_carried),
		cmocka_unit_test(test_ssd_set_overprovisioning),
		cmocka_unit_test(test_ssd_array_explain),
		cmocka_unit_test(test_ssd_replay_mqsim),
		cmocka_unit_test(test_ssd_busy_within_the_run),
		cmocka_unit_test(test_ssd_set_unbuildable),
	};
	return cmocka_run_group_tests(tests, th_dir_setup, th_dir_teardown);
}
