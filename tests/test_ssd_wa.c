/* test_ssd_wa.c: write amplification of the simulated SSD end to end, through `iolab sim`: the
 * FTL's greedy GC after --precondition, under uniform random writes, against the analytic model
 * of Desnoyers ("Analytic modeling of SSD write performance", SYSTOR 2012; the same expression in
 * Xiang & Kurkoski, "An improved analytic expression for write amplification in NAND flash",
 * arXiv:1110.4245):
 *
 *     WA = α / (α + W0(-α e^{-α})),   α = T_eff / U,
 *
 * W0 the principal branch of Lambert's W (Halley's iteration), U the logical pages, T_eff the
 * physical pages GC can fill: every plane keeps its GC reserve (gc_threshold x blocks_per_plane,
 * at least 1) and one more block free and has two open blocks (the host's and GC's), so T_eff =
 * planes x (blocks_per_plane - reserve - 2) x pages_per_block, as in tests/test_ssd_ftl.c. Greedy
 * sits 1-3 % below it with 512 pages a block; the check allows 5 %.
 *
 * The model (written by the test): 32 planes of 512 blocks of 512 pages of 16 KiB (8 M pages), so
 * that a run of 65,536 page writes, four blocks a plane, takes a second for the five spares of one
 * --set sweep (7 %, 12.5 %, 20 %, 28 %, 50 %). A run so short measures the state preconditioning
 * builds, not one GC reaches later: GC's open block must be as full as GC leaves it (a frontier
 * drawn anywhere in its block made the first GC bursts short and WA 5-10 % low). The same writes
 * as 4 KiB requests give the same WA: each rewrites its whole 16 KiB mapping unit (a page). */
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

#define PLANES 32u          /* 2 channels x 2 chips x 2 dies x 4 planes */
#define BLOCKS 512u
#define PAGES 512u
#define RESERVE 1u          /* floor(0.002 x 512) */

static const double spares[] = {0.07, 0.125, 0.20, 0.28, 0.50};
#define NSPARE (sizeof spares / sizeof spares[0])

static const char *model_path(void)
{
	static char path[300];
	snprintf(path, sizeof(path), "%s/wa.model", th_dir);
	th_write_text(path, "device = ssd\n"
		      "name = wa-ssd\n"
		      "about = an SSD for the WA checks: 32 planes of 512 blocks of 512 pages of 16 KiB\n"
		      "interface = nvme\nqueues = 1\nqueue_entries = 256\ninterface_mb_s = 3500\n"
		      "command_us = 1\ncache_mib = 1\ncache_write_back = yes\ncache_page_us = 1\n"
		      "channels = 2\nchips_per_channel = 2\ndies_per_chip = 2\nplanes_per_die = 4\n"
		      "blocks_per_plane = 512\npages_per_block = 512\npage_bytes = 16384\ncell = slc\n"
		      "read_us = 50\nprogram_us = 300\nerase_ms = 2\nchannel_mb_s = 400\n"
		      "channel_command_ns = 100\nmultiplane = yes\noverprovisioning = 10%\n"
		      "gc_policy = greedy\ngc_threshold = 0.002\n");
	return path;
}

/* The model's WA at spare s = (T - U) / T (the model file's overprovisioning: U = floor(T (1 - s))). */
static double wa_model(double spare)
{
	double physical = (double)PLANES * BLOCKS * PAGES;
	double logical = floor(physical * (1 - spare));
	double t_eff = (double)PLANES * (BLOCKS - RESERVE - 2) * PAGES;
	double alpha = t_eff / logical;
	return alpha / (alpha + th_lambert_w0(-alpha * exp(-alpha)));
}

/* Runs the sweep with requests of bs, bytes in all per point; fills wa[] from the JSON's
 * points[].write_amplification. */
static void run_sweep(const char *bs, const char *bytes, double *wa)
{
	char json[300];
	snprintf(json, sizeof(json), "%s/wa-%s.json", th_dir, bs);
	int rc = th_sh("$B sim --model '%s' --set drive.overprovisioning=7%%,12.5%%,20%%,28%%,50%% "
		       "--pattern rand-write --bs %s --qd 32 --precondition --bytes %s --json '%s' "
		       "--no-db --quiet --force >/dev/null", model_path(), bs, bytes, json);
	assert_int_equal(rc, 0);
	json_t *doc = th_load_json(json);
	assert_non_null(doc);
	json_t *points = json_object_get(doc, "points");
	assert_int_equal(json_array_size(points), NSPARE);
	for (size_t i = 0; i < NSPARE; i++) {
		json_t *p = json_array_get(points, i);
		json_t *v = json_object_get(p, "write_amplification");
		assert_true(json_is_number(v));
		wa[i] = json_number_value(v);
		assert_int_equal(json_integer_value(json_object_get(p, "ios")), 65536);
	}
	json_decref(doc);
}

/* The page-sized sweep, run once for both tests. */
static const double *page_sweep(void)
{
	static double wa[NSPARE];
	static bool done;
	if (!done)
		run_sweep("16k", "1g", wa);
	done = true;
	return wa;
}

static void check_model(const char *what, const double *wa)
{
	bool ok = true;
	for (size_t i = 0; i < NSPARE; i++) {
		double want = wa_model(spares[i]);
		print_message("%s, spare %.1f %%: WA %.3f, model %.3f (%+.1f %%)\n", what,
			      100 * spares[i], wa[i], want, 100 * (wa[i] / want - 1));
		ok = ok && fabs(wa[i] / want - 1) <= 0.05;
	}
	assert_true(ok);
}

/* Page-sized (16 KiB) uniform random writes after --precondition: WA within 5 % of the model at
 * every spare of the sweep. */
static void test_wa_page_writes(void **state)
{
	(void)state;
	check_model("16 KiB writes", page_sweep());
}

/* 4 KiB writes on the 16 KiB pages: as many pages rewritten, the same WA as page-sized writes
 * (within 1 %), and so within 5 % of the model too. */
static void test_wa_subpage_writes(void **state)
{
	(void)state;
	const double *page = page_sweep();
	double sub[NSPARE];
	run_sweep("4k", "256m", sub);
	check_model("4 KiB writes", sub);
	for (size_t i = 0; i < NSPARE; i++)
		assert_true(fabs(sub[i] / page[i] - 1) <= 0.01);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_wa_page_writes),
		cmocka_unit_test(test_wa_subpage_writes),
	};
	return cmocka_run_group_tests(tests, th_dir_setup, th_dir_teardown);
}
