/* test_ssd_ftl.c: the SSD's flash translation layer (src/sim/devices/ssd_ftl.h) through its API,
 * without time.
 *
 * Write amplification (WA = pages programmed / pages the host wrote) of uniform random
 * single-page writes is checked against the analytic model of Desnoyers ("Analytic modeling of
 * SSD write performance", SYSTOR 2012) and Xiang & Kurkoski ("An improved analytic expression for
 * write amplification in NAND flash", arXiv:1110.4245):
 *
 *     WA = α / (α + W0(-α e^{-α})),   α = T_eff / U,
 *
 * W0 the principal branch of Lambert's W (computed here by Halley's iteration), U the logical
 * pages, T_eff the physical pages GC can fill: each plane keeps gc_free_blocks + 1 blocks free
 * after every write and has two open blocks (the host's and GC's) half written on average, so
 * T_eff = planes x (blocks_per_plane - gc_free_blocks - 2) x pages_per_block. The expression is
 * exact for LRW (FIFO) cleaning and greedy approaches it from below as pages per block grow (1-3 %
 * below at 256). Spare factors are MQSim's (T - U) / T. Each check uses a fixed seed, so its
 * figure is deterministic; the tolerances are those of the model, not of noise.
 *
 * Also: WA is at its steady value from the first writes after STEADY preconditioning and is
 * reached from SEQUENTIAL; the policies rank as they should (greedy lowest, random highest, RGA of
 * one choice is random); TRIM of a region before it is rewritten lowers WA; random writes under
 * every policy and both allocations never fail and the counters add up (audit); static
 * allocation follows the order's letters; dynamic allocation piling onto one plane is moved off
 * it; preconditioning starts from any state; bad parameters are refused naming the field. */
#include <errno.h>
#include <math.h>
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <cmocka.h>

#include "helpers.h"
#include "iolab/prng.h"
#include "iolab/ssd_model.h"
#include "sim/devices/ssd_ftl.h"

/* 2 planes x 512 blocks x 256 pages: 262,144 flash pages; the reserve (3 blocks a plane) is 0.6 %
 * of them. */
#define PLANES 2
#define BLOCKS 512
#define PAGES 256
#define GC_FREE 1

static struct ssd_ftl_params params(double spare, unsigned policy)
{
	struct ssd_ftl_params p = {
		.channels = PLANES, .chips = 1, .dies = 1, .planes = 1,
		.blocks_per_plane = BLOCKS, .pages_per_block = PAGES,
		.gc_policy = policy, .rga_choices = 11, .gc_free_blocks = GC_FREE,
		.allocation = IOLAB_ALLOC_STATIC, .order = "CWDP", .seed = 42,
	};
	p.logical_pages = (uint64_t)((double)PLANES * BLOCKS * PAGES * (1 - spare));
	return p;
}

static struct ssd_ftl *new_ftl(const struct ssd_ftl_params *p)
{
	struct ssd_ftl *f;
	struct iolab_err err = {0};
	int rc = ssd_ftl_new(&f, p, &err);
	if (rc) {
		print_error("ssd_ftl_new: %s\n", err.msg);
		fail();
	}
	return f;
}

static double wa_model(const struct ssd_ftl_params *p)
{
	double t_eff = (double)PLANES * (p->blocks_per_plane - p->gc_free_blocks - 2) * p->pages_per_block;
	double alpha = t_eff / (double)p->logical_pages;
	return alpha / (alpha + th_lambert_w0(-alpha * exp(-alpha)));
}

/* n uniform random single-page writes; returns their WA. */
static double random_writes(struct ssd_ftl *f, const struct ssd_ftl_params *p, struct iolab_prng *r,
			    uint64_t n)
{
	struct ssd_ftl_stats a, b;
	ssd_ftl_stats(f, &a);
	for (uint64_t i = 0; i < n; i++) {
		struct ssd_gc_work gc = {0};
		uint32_t page;
		ssd_ftl_write(f, iolab_prng_below(r, p->logical_pages), UINT32_MAX, &page, &gc);
	}
	ssd_ftl_stats(f, &b);
	return (double)(b.host_pages - a.host_pages + b.gc_pages - a.gc_pages) / (double)(b.host_pages - a.host_pages);
}

static void assert_near(const char *what, double got, double want, double tolerance)
{
	print_message("%s: WA %.3f, model %.3f (%+.1f %%)\n", what, got, want, 100 * (got / want - 1));
	if (fabs(got / want - 1) > tolerance) {
		print_error("%s: WA %.3f is not within %.0f %% of %.3f\n", what, got, 100 * tolerance, want);
		fail();
	}
}

/* Greedy after STEADY: the first quarter capacity of writes and the capacity after it both at the
 * model's WA (no drift from a state that is not the steady one). */
static void test_wa_greedy_steady(void **state)
{
	(void)state;
	static const double spares[] = {0.07, 0.125, 0.20, 0.28, 0.50};
	for (size_t i = 0; i < sizeof spares / sizeof spares[0]; i++) {
		struct ssd_ftl_params p = params(spares[i], IOLAB_GC_GREEDY);
		struct ssd_ftl *f = new_ftl(&p);
		struct iolab_prng r;
		iolab_prng_seed(&r, 7);
		assert_int_equal(ssd_ftl_precondition(f, SSD_FILL_STEADY), 0);
		char what[64];
		double want = wa_model(&p);
		snprintf(what, sizeof what, "greedy, spare %.1f %%, first U/4", 100 * spares[i]);
		assert_near(what, random_writes(f, &p, &r, p.logical_pages / 4), want, 0.05);
		snprintf(what, sizeof what, "greedy, spare %.1f %%, next U", 100 * spares[i]);
		assert_near(what, random_writes(f, &p, &r, p.logical_pages), want, 0.05);
		ssd_ftl_free(f);
	}
}

/* From a sequential fill (every block all valid) greedy reaches the same WA after a few
 * capacities of random writes. */
static void test_wa_greedy_from_sequential(void **state)
{
	(void)state;
	struct ssd_ftl_params p = params(0.28, IOLAB_GC_GREEDY);
	struct ssd_ftl *f = new_ftl(&p);
	struct iolab_prng r;
	iolab_prng_seed(&r, 8);
	assert_int_equal(ssd_ftl_precondition(f, SSD_FILL_SEQUENTIAL), 0);
	double first = random_writes(f, &p, &r, p.logical_pages / 4);
	assert_true(first < 0.8 * wa_model(&p)); /* the spare blocks take the first writes */
	random_writes(f, &p, &r, 3 * p.logical_pages);
	assert_near("greedy, spare 28 %, after SEQUENTIAL and 3 U", random_writes(f, &p, &r, p.logical_pages),
		    wa_model(&p), 0.05);
	ssd_ftl_free(f);
}

/* LRW is what the model describes exactly. */
static void test_wa_fifo(void **state)
{
	(void)state;
	static const double spares[] = {0.07, 0.125, 0.28};
	for (size_t i = 0; i < sizeof spares / sizeof spares[0]; i++) {
		struct ssd_ftl_params p = params(spares[i], IOLAB_GC_FIFO);
		struct ssd_ftl *f = new_ftl(&p);
		struct iolab_prng r;
		iolab_prng_seed(&r, 9);
		assert_int_equal(ssd_ftl_precondition(f, SSD_FILL_STEADY), 0);
		char what[64];
		snprintf(what, sizeof what, "fifo, spare %.1f %%", 100 * spares[i]);
		assert_near(what, random_writes(f, &p, &r, p.logical_pages), wa_model(&p), 0.03);
		ssd_ftl_free(f);
	}
}

static double steady_wa(unsigned policy, unsigned rga_choices)
{
	struct ssd_ftl_params p = params(0.07, policy);
	p.rga_choices = rga_choices;
	struct ssd_ftl *f = new_ftl(&p);
	struct iolab_prng r;
	iolab_prng_seed(&r, 15);
	assert_int_equal(ssd_ftl_precondition(f, SSD_FILL_STEADY), 0);
	double wa = random_writes(f, &p, &r, p.logical_pages);
	ssd_ftl_free(f);
	return wa;
}

/* The policies against each other at 7 % spare: greedy takes the emptiest block, so it has the
 * lowest WA; FIFO and cost-benefit weigh age, RGA samples 11 blocks, random none: each above
 * greedy, random far above. RGA of one choice is random. */
static void test_policies_ordered(void **state)
{
	(void)state;
	double greedy = steady_wa(IOLAB_GC_GREEDY, 11), fifo = steady_wa(IOLAB_GC_FIFO, 11);
	double cb = steady_wa(IOLAB_GC_COST_BENEFIT, 11), rga = steady_wa(IOLAB_GC_RGA, 11);
	double rga1 = steady_wa(IOLAB_GC_RGA, 1), random = steady_wa(IOLAB_GC_RANDOM, 11);
	print_message("WA at 7 %%: greedy %.3f, fifo %.3f, cost-benefit %.3f, rga(11) %.3f, rga(1) %.3f, "
		      "random %.3f\n", greedy, fifo, cb, rga, rga1, random);
	assert_true(greedy < fifo && greedy < cb && greedy < rga);
	assert_true(rga < 1.1 * greedy);
	assert_true(random > 1.5 * rga);
	assert_true(fabs(rga1 / random - 1) < 0.03);
}

/* A scratch region (the upper half of the logical pages) is rewritten whole every round, while
 * random writes go to the lower half in between. Trimmed before the random writes, its old pages
 * are free space GC need not move; kept, GC moves them again and again. */
static double scratch_rounds(bool trim)
{
	struct ssd_ftl_params p = params(0.125, IOLAB_GC_GREEDY);
	struct ssd_ftl *f = new_ftl(&p);
	struct iolab_prng r;
	iolab_prng_seed(&r, 10);
	assert_int_equal(ssd_ftl_precondition(f, SSD_FILL_SEQUENTIAL), 0);
	uint64_t half = p.logical_pages / 2;
	struct ssd_ftl_stats st;
	for (int round = 0; round < 6; round++) {
		struct ssd_gc_work gc = {0};
		uint32_t page;
		if (trim)
			for (uint64_t l = half; l < p.logical_pages; l++)
				ssd_ftl_trim(f, l);
		for (uint64_t i = 0; i < half; i++)
			ssd_ftl_write(f, iolab_prng_below(&r, half), UINT32_MAX, &page, &gc);
		for (uint64_t l = half; l < p.logical_pages; l++)
			ssd_ftl_write(f, l, UINT32_MAX, &page, &gc);
	}
	ssd_ftl_stats(f, &st);
	assert_int_equal(st.trims, trim ? 6 * (p.logical_pages - half) : 0);
	ssd_ftl_free(f);
	return (double)(st.host_pages + st.gc_pages) / (double)st.host_pages;
}

static void test_trim_lowers_wa(void **state)
{
	(void)state;
	double with = scratch_rounds(true), without = scratch_rounds(false);
	print_message("scratch region rewritten: WA %.3f with TRIM, %.3f without\n", with, without);
	assert_true(with < 0.8 * without);
}

static void audit(const struct ssd_ftl *f, struct ssd_ftl_audit *a)
{
	struct iolab_err err = {0};
	if (ssd_ftl_audit(f, a, &err)) {
		print_error("%s\n", err.msg);
		fail();
	}
}

/* Every policy, static and dynamic allocation (the caller's plane chosen at random, so planes
 * fill unevenly), with TRIMs and background GC mixed in: no write fails, the state is whole, and
 * host + GC pages are the pages programmed (those in blocks now, less those at the start, plus a
 * block's worth per erase). */
static void test_random_writes_add_up(void **state)
{
	(void)state;
	for (unsigned policy = IOLAB_GC_GREEDY; policy <= IOLAB_GC_RANDOM; policy++)
		for (unsigned alloc = IOLAB_ALLOC_STATIC; alloc <= IOLAB_ALLOC_DYNAMIC; alloc++) {
			struct ssd_ftl_params p = params(0.07, policy);
			p.channels = 2;
			p.dies = 2;
			p.blocks_per_plane = 64;
			p.pages_per_block = 64;
			p.gc_free_blocks = 2;
			p.allocation = alloc;
			p.logical_pages = 4 * (64 - 2 - 2) * 64 - 4;
			struct ssd_ftl *f = new_ftl(&p);
			struct iolab_prng r;
			iolab_prng_seed(&r, 11 + policy);
			assert_int_equal(ssd_ftl_precondition(f, policy & 1 ? SSD_FILL_STEADY : SSD_FILL_SEQUENTIAL), 0);
			struct ssd_ftl_audit start, end;
			audit(f, &start);
			assert_int_equal(start.mapped, p.logical_pages);
			uint64_t moved = 0, erased = 0;
			for (uint64_t i = 0; i < 20 * p.logical_pages; i++) {
				struct ssd_gc_work gc = {0};
				uint64_t lpa = iolab_prng_below(&r, p.logical_pages);
				uint32_t page, want = alloc == IOLAB_ALLOC_DYNAMIC ? (uint32_t)iolab_prng_below(&r, 4) : UINT32_MAX;
				if (i % 97 == 0) {
					ssd_ftl_trim(f, lpa);
					continue;
				}
				if (i % 89 == 0)
					ssd_ftl_collect(f, (uint32_t)iolab_prng_below(&r, 4), 8, &gc);
				uint32_t plane = ssd_ftl_write(f, lpa, want, &page, &gc);
				bool mapped;
				uint32_t rpage;
				assert_int_equal(ssd_ftl_read(f, lpa, &rpage, &mapped), plane);
				assert_true(mapped);
				assert_int_equal(rpage, page);
				assert_true(page < p.pages_per_block);
				if (alloc == IOLAB_ALLOC_STATIC)
					assert_int_equal(plane, ssd_ftl_static_plane(f, lpa));
				assert_true(ssd_ftl_free_blocks(f, plane) >= 1);
				moved += gc.moved;
				erased += gc.erased;
			}
			struct ssd_ftl_stats st;
			ssd_ftl_stats(f, &st);
			audit(f, &end);
			assert_int_equal(end.valid, end.mapped);
			assert_int_equal(st.host_pages + st.gc_pages,
					 end.written - start.written + st.erases * p.pages_per_block);
			assert_int_equal(st.gc_pages, moved);
			assert_int_equal(st.erases, erased);
			assert_int_equal(st.victims, st.erases);
			assert_int_equal(st.victim_valid, st.gc_pages);
			assert_true(st.free_min >= 1);
			assert_true(st.erase_min <= st.erase_mean && st.erase_mean <= st.erase_max);
			print_message("policy %u, %s: WA %.2f, erases per block %u..%u (mean %.1f), fewest free %u\n",
				      policy, alloc ? "dynamic" : "static",
				      (double)(st.host_pages + st.gc_pages) / (double)st.host_pages,
				      st.erase_min, st.erase_max, st.erase_mean, st.free_min);
			ssd_ftl_free(f);
		}
}

/* CWDP: consecutive logical pages go to consecutive channels, then chips, dies, planes; planes
 * are numbered channel-major. PDWC: planes first. A page never written reads from there. */
static void test_static_allocation_order(void **state)
{
	(void)state;
	struct ssd_ftl_params p = params(0.07, IOLAB_GC_GREEDY);
	p.channels = 4;
	p.chips = 2;
	p.dies = 2;
	p.planes = 2;
	p.blocks_per_plane = 16;
	p.pages_per_block = 8;
	p.logical_pages = 1000;
	struct ssd_ftl *f = new_ftl(&p);
	assert_int_equal(ssd_ftl_planes(f), 32);
	/* plane index = ((channel x chips + chip) x dies + die) x planes + plane */
	assert_int_equal(ssd_ftl_static_plane(f, 0), 0);
	assert_int_equal(ssd_ftl_static_plane(f, 1), 8);  /* channel 1 */
	assert_int_equal(ssd_ftl_static_plane(f, 4), 4);  /* chip 1 */
	assert_int_equal(ssd_ftl_static_plane(f, 8), 2);  /* die 1 */
	assert_int_equal(ssd_ftl_static_plane(f, 16), 1); /* plane 1 */
	assert_int_equal(ssd_ftl_static_plane(f, 32 + 5), 12);
	bool mapped = true;
	uint32_t page;
	assert_int_equal(ssd_ftl_read(f, 32 * 3 + 1, &page, &mapped), 8);
	assert_false(mapped);
	assert_int_equal(page, 3);
	ssd_ftl_free(f);
	strcpy(p.order, "PDWC");
	f = new_ftl(&p);
	assert_int_equal(ssd_ftl_static_plane(f, 1), 1);
	assert_int_equal(ssd_ftl_static_plane(f, 2), 2);
	assert_int_equal(ssd_ftl_static_plane(f, 4), 4);
	assert_int_equal(ssd_ftl_static_plane(f, 8), 8);
	ssd_ftl_free(f);
}

/* Dynamic allocation: the page goes to the plane the caller names, until that plane holds all the
 * valid pages GC can keep room for; then to the plane with the fewest, and once all are full a
 * rewrite stays on the plane of the old copy. Nothing fails and every plane keeps a free block. */
static void test_dynamic_plane_full(void **state)
{
	(void)state;
	struct ssd_ftl_params p = params(0.07, IOLAB_GC_GREEDY);
	p.channels = 4;
	p.blocks_per_plane = 16;
	p.pages_per_block = 16;
	p.allocation = IOLAB_ALLOC_DYNAMIC;
	uint64_t room = (16 - GC_FREE - 2) * 16 - 1; /* per plane */
	p.logical_pages = 4 * room;
	struct ssd_ftl *f = new_ftl(&p);
	uint32_t page;
	for (uint64_t lpa = 0; lpa < p.logical_pages; lpa++) {
		struct ssd_gc_work gc = {0};
		uint32_t plane = ssd_ftl_write(f, lpa, 0, &page, &gc);
		/* plane 0 until it is full, then the emptiest: planes 1, 2, 3 in turn */
		assert_int_equal(plane, lpa < room ? 0 : 1 + (lpa - room) % 3);
		assert_true(ssd_ftl_free_blocks(f, plane) >= 1);
	}
	struct iolab_prng r;
	iolab_prng_seed(&r, 12);
	for (int i = 0; i < 20000; i++) {
		struct ssd_gc_work gc = {0};
		uint64_t lpa = iolab_prng_below(&r, p.logical_pages);
		bool mapped;
		uint32_t was = ssd_ftl_read(f, lpa, &page, &mapped);
		assert_int_equal(ssd_ftl_write(f, lpa, 0, &page, &gc), was); /* every plane is full */
	}
	struct ssd_ftl_audit a;
	audit(f, &a);
	assert_int_equal(a.mapped, p.logical_pages);
	ssd_ftl_free(f);
}

/* Preconditioning starts from any state: after random writes and TRIMs, SEQUENTIAL leaves every
 * logical page mapped once in order (page k of a plane in its block k / pages_per_block), counters
 * and erase counts at 0; STEADY leaves every logical page mapped and the GC reserve free. */
static void test_precondition_from_any_state(void **state)
{
	(void)state;
	struct ssd_ftl_params p = params(0.125, IOLAB_GC_GREEDY);
	struct ssd_ftl *f = new_ftl(&p);
	struct iolab_prng r;
	iolab_prng_seed(&r, 13);
	assert_int_equal(ssd_ftl_precondition(f, SSD_FILL_STEADY), 0);
	random_writes(f, &p, &r, p.logical_pages);
	for (uint64_t l = 0; l < 1000; l++)
		ssd_ftl_trim(f, l);
	assert_int_equal(ssd_ftl_precondition(f, SSD_FILL_SEQUENTIAL), 0);
	struct ssd_ftl_stats st;
	struct ssd_ftl_audit a;
	ssd_ftl_stats(f, &st);
	audit(f, &a);
	assert_int_equal(a.mapped, p.logical_pages);
	assert_int_equal(a.written, p.logical_pages);
	assert_int_equal(st.host_pages + st.gc_pages + st.erases + st.trims + st.erase_max, 0);
	for (uint64_t lpa = 0; lpa < p.logical_pages; lpa += 997) {
		bool mapped;
		uint32_t page;
		assert_int_equal(ssd_ftl_read(f, lpa, &page, &mapped), ssd_ftl_static_plane(f, lpa));
		assert_true(mapped);
		assert_int_equal(page, (lpa / PLANES) % PAGES);
	}
	assert_int_equal(ssd_ftl_precondition(f, SSD_FILL_STEADY), 0);
	audit(f, &a);
	ssd_ftl_stats(f, &st);
	assert_int_equal(a.mapped, p.logical_pages);
	assert_int_equal(st.free_min, GC_FREE + 1);
	for (uint32_t i = 0; i < PLANES; i++)
		assert_int_equal(ssd_ftl_free_blocks(f, i), GC_FREE + 1);
	ssd_ftl_free(f);
}

static void refused(struct ssd_ftl_params p, const char *field)
{
	struct ssd_ftl *f = (struct ssd_ftl *)&p;
	struct iolab_err err = {0};
	assert_int_equal(ssd_ftl_new(&f, &p, &err), -EINVAL);
	assert_null(f);
	char want[64];
	snprintf(want, sizeof want, "field '%s': ", field);
	if (strncmp(err.msg, want, strlen(want)) != 0) {
		print_error("refusal '%s' does not begin with \"%s\"\n", err.msg, want);
		fail();
	}
	print_message("refused: %s\n", err.msg);
}

static void test_bad_params_refused(void **state)
{
	(void)state;
	struct ssd_ftl_params good = params(0.07, IOLAB_GC_GREEDY), p;
	p = good, p.channels = 0, refused(p, "channels");
	p = good, p.chips = 0, refused(p, "chips");
	p = good, p.dies = 0, refused(p, "dies");
	p = good, p.planes = 0, refused(p, "planes");
	p = good, p.pages_per_block = 0, refused(p, "pages_per_block");
	p = good, p.gc_free_blocks = 0, refused(p, "gc_free_blocks");
	p = good, p.blocks_per_plane = good.gc_free_blocks + 2, refused(p, "blocks_per_plane");
	p = good, p.logical_pages = 0, refused(p, "logical_pages");
	/* no spare beyond the reserve: all the physical pages, and one page more than fits */
	p = good, p.logical_pages = (uint64_t)PLANES * BLOCKS * PAGES, refused(p, "logical_pages");
	p = good, p.logical_pages = (uint64_t)PLANES * ((BLOCKS - GC_FREE - 2) * PAGES - 1) + 1,
	refused(p, "logical_pages");
	p = good, p.gc_policy = 99, refused(p, "gc_policy");
	p = good, p.gc_policy = IOLAB_GC_RGA, p.rga_choices = 0, refused(p, "rga_choices");
	p = good, p.allocation = 7, refused(p, "allocation");
	p = good, strcpy(p.order, "CWDD"), refused(p, "order");
	p = good, strcpy(p.order, "CWD"), refused(p, "order");
	p = good, p.blocks_per_plane = 1u << 20, p.pages_per_block = 1u << 12, refused(p, "blocks_per_plane");
	p = good, p.planes = 1u << 30, p.blocks_per_plane = UINT32_MAX, p.pages_per_block = UINT32_MAX,
	refused(p, "blocks_per_plane"); /* the product is more than 2^64 */
	/* the largest that fits is taken, and works: preconditioned full, then rewritten at random */
	struct ssd_ftl_audit a;
	struct iolab_prng r;
	iolab_prng_seed(&r, 14);
	p = good, p.logical_pages = (uint64_t)PLANES * ((BLOCKS - GC_FREE - 2) * PAGES - 1);
	struct ssd_ftl *f = new_ftl(&p);
	assert_int_equal(ssd_ftl_precondition(f, SSD_FILL_STEADY), 0);
	audit(f, &a);
	assert_int_equal(a.mapped, p.logical_pages);
	random_writes(f, &p, &r, 1000);
	assert_int_equal(ssd_ftl_precondition(f, SSD_FILL_SEQUENTIAL), 0);
	random_writes(f, &p, &r, 1000);
	audit(f, &a);
	assert_int_equal(a.mapped, p.logical_pages);
	ssd_ftl_free(f);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_wa_greedy_steady),
		cmocka_unit_test(test_wa_greedy_from_sequential),
		cmocka_unit_test(test_wa_fifo),
		cmocka_unit_test(test_policies_ordered),
		cmocka_unit_test(test_trim_lowers_wa),
		cmocka_unit_test(test_random_writes_add_up),
		cmocka_unit_test(test_static_allocation_order),
		cmocka_unit_test(test_dynamic_plane_full),
		cmocka_unit_test(test_precondition_from_any_state),
		cmocka_unit_test(test_bad_params_refused),
	};
	return cmocka_run_group_tests(tests, NULL, NULL);
}
