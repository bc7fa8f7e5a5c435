/* test_generator.c: access specs, offset distributions and the request generator of workload.h. */
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

#include "iolab/workload.h"

#define MIB (1ull << 20)
#define GIB (1ull << 30)
#define NREQ 1000000u

static const struct iolab_dist uniform = {.kind = IOLAB_DIST_UNIFORM};

static struct iolab_gen *gen_new(const struct iolab_spec *spec, const struct iolab_dist *dist,
				 const struct iolab_region *regions, unsigned nregions, unsigned worker,
				 unsigned nworkers, uint64_t seed)
{
	struct iolab_gen *g = malloc(sizeof(*g));
	assert_non_null(g);
	struct iolab_err err = {{0}};
	int rc = iolab_gen_init(g, spec, dist ? dist : &uniform, regions, nregions, worker, nworkers, seed,
				&err);
	if (rc) {
		print_error("iolab_gen_init: %d %s\n", rc, err.msg);
		fail();
	}
	return g;
}

static const struct iolab_spec *pattern(const char *name)
{
	const struct iolab_spec *s = iolab_pattern_find(name);
	if (!s) {
		print_error("no built-in pattern '%s'\n", name);
		fail();
	}
	return s;
}

/* The request lies inside its region and is aligned. */
static void check_req(const struct iolab_req *r, const struct iolab_region *regions, unsigned nregions,
		      uint64_t align)
{
	if (r->target >= nregions) {
		print_error("target %u out of %u\n", r->target, nregions);
		fail();
	}
	const struct iolab_region *g = &regions[r->target];
	if (r->off < g->start || r->off + r->len > g->start + g->len || r->off % align != 0) {
		print_error("request off %llu len %u (align %llu) outside region [%llu, %llu) or unaligned\n",
			    (unsigned long long)r->off, r->len, (unsigned long long)align,
			    (unsigned long long)g->start, (unsigned long long)(g->start + g->len));
		fail();
	}
}

static void assert_share(double got, double want, double tol_points, const char *what)
{
	if (fabs(got - want) * 100 > tol_points) {
		print_error("%s: share %.3f%%, want %.3f%% +- %.2f points\n", what, got * 100, want * 100,
			    tol_points);
		fail();
	}
}

static void test_builtins(void **state)
{
	(void)state;
	unsigned n = iolab_pattern_count();
	assert_true(n >= 12);
	assert_null(iolab_pattern_at(n));
	assert_null(iolab_pattern_find("no-such-pattern"));
	assert_null(iolab_pattern_find(""));
	for (unsigned i = 0; i < n; i++) {
		const struct iolab_spec *s = iolab_pattern_at(i);
		assert_non_null(s);
		struct iolab_err err = {{0}};
		if (iolab_spec_validate(s, &err) != 0) {
			print_error("built-in %s does not validate: %s\n", s->name, err.msg);
			fail();
		}
		assert_ptr_equal(iolab_pattern_find(s->name), s);
		assert_non_null(s->about);
	}
	const char *names[] = {"file-server", "web-server", "database", "workstation", "streaming-read",
			       "streaming-write", "seq-read", "seq-write", "rand-read", "rand-write",
			       "rand-rw", "copy"};
	for (size_t i = 0; i < sizeof(names) / sizeof(names[0]); i++)
		assert_non_null(pattern(names[i]));
	assert_true(iolab_spec_reads(pattern("seq-read")));
	assert_false(iolab_spec_writes(pattern("seq-read")));
	assert_true(iolab_spec_writes(pattern("seq-write")));
	assert_false(iolab_spec_reads(pattern("seq-write")));
	assert_true(iolab_spec_writes(pattern("file-server")) && iolab_spec_reads(pattern("file-server")));
	assert_true(iolab_spec_max_size(pattern("file-server")) == 64 * 1024);
	assert_true(iolab_spec_max_size(pattern("web-server")) == 512 * 1024);
	assert_true(pattern("copy")->copy);
}

static void test_file_server_mix(void **state)
{
	(void)state;
	const struct iolab_spec *spec = pattern("file-server");
	struct iolab_region reg = {0, GIB};
	struct iolab_gen *g = gen_new(spec, NULL, &reg, 1, 0, 1, 42);
	uint64_t bysize[IOLAB_SPEC_LINES] = {0}, reads = 0;
	for (unsigned i = 0; i < NREQ; i++) {
		struct iolab_req r;
		iolab_gen_next(g, &r);
		unsigned line = spec->nlines;
		for (unsigned k = 0; k < spec->nlines; k++)
			if (spec->line[k].size == r.len)
				line = k;
		if (line == spec->nlines) {
			print_error("unexpected transfer size %u\n", r.len);
			fail();
		}
		bysize[line]++;
		reads += r.op == IOLAB_OP_READ;
		assert_true(r.op == IOLAB_OP_READ || r.op == IOLAB_OP_WRITE);
		check_req(&r, &reg, 1, r.len);
	}
	for (unsigned k = 0; k < spec->nlines; k++) {
		char what[64];
		snprintf(what, sizeof(what), "file-server %llu-byte share",
			 (unsigned long long)spec->line[k].size);
		assert_share((double)bysize[k] / NREQ, spec->line[k].share / 100.0, 0.3, what);
	}
	assert_share((double)reads / NREQ, 0.80, 0.3, "file-server reads");
	free(g);
}

/* Share of requests that do not continue where the previous one on the same target ended. */
static double random_share(const struct iolab_spec *spec, uint64_t seed, double *read_share)
{
	struct iolab_region reg = {0, GIB};
	struct iolab_gen *g = gen_new(spec, NULL, &reg, 1, 0, 1, seed);
	struct iolab_req r;
	iolab_gen_next(g, &r);
	uint64_t prev_end = r.off + r.len, jumps = 0, reads = r.op == IOLAB_OP_READ;
	for (unsigned i = 1; i < NREQ; i++) {
		iolab_gen_next(g, &r);
		check_req(&r, &reg, 1, spec->line[0].size);
		jumps += r.off != prev_end;
		reads += r.op == IOLAB_OP_READ;
		prev_end = r.off + r.len;
	}
	free(g);
	if (read_share)
		*read_share = (double)reads / NREQ;
	return (double)jumps / (NREQ - 1);
}

static void test_random_share(void **state)
{
	(void)state;
	double rd;
	/* 80% random over 131072 blocks: a random offset equals the previous end with chance
	 * 1/131072, far below the tolerance. */
	assert_share(random_share(pattern("workstation"), 5, &rd), 0.80, 1.0, "workstation random");
	assert_share(rd, 0.80, 0.3, "workstation reads");
	assert_share(random_share(pattern("database"), 5, &rd), 1.0, 0.05, "database random");
	assert_share(rd, 0.67, 0.3, "database reads");
	/* Sequential: only the wrap at the end of the 1 GiB region is a jump (every 262144). */
	assert_share(random_share(pattern("seq-read"), 5, &rd), 0.0, 0.01, "seq-read random");
	assert_true(rd == 1.0);
	assert_share(random_share(pattern("seq-write"), 5, &rd), 0.0, 0.01, "seq-write random");
	assert_true(rd == 0.0);
	assert_share(random_share(pattern("rand-rw"), 5, &rd), 1.0, 0.05, "rand-rw random");
	assert_share(rd, 0.50, 0.3, "rand-rw reads");
}

/* Alignment and bounds for lines with default and explicit alignment, over regions whose
 * start and length are not aligned, for every distribution. */
static void test_alignment_and_bounds(void **state)
{
	(void)state;
	struct iolab_spec spec = {.name = "mixed", .nlines = 4};
	spec.line[0] = (struct iolab_spec_line){.size = 4096, .share = 40, .read_pct = 50, .random_pct = 50};
	spec.line[1] = (struct iolab_spec_line){.size = 6144, .share = 30, .read_pct = 50, .random_pct = 50,
						.align = 4096};
	spec.line[2] = (struct iolab_spec_line){.size = 65536, .share = 20, .read_pct = 0, .random_pct = 100,
						.align = 512};
	spec.line[3] = (struct iolab_spec_line){.size = 1000, .share = 10, .read_pct = 100, .random_pct = 30,
						.align = 8};
	const uint64_t align_of[4] = {4096, 4096, 512, 8};
	struct iolab_region reg[] = {
		{0, 64 * MIB},
		{12345, 10 * MIB + 777},
		{GIB + 100, 200000},
		{3 * 4096 + 1, 65536 + 4096}, /* only a few positions fit */
		{7, 65536 + 600},            /* 65536 fits only at 512 alignment: one position */
	};
	const unsigned nreg = sizeof(reg) / sizeof(reg[0]);
	const char *dists[] = {"uniform", "zipf:1.2", "zipf:0.5", "zipf:1", "pareto:0.2", "hotspot:90/10"};
	for (size_t d = 0; d < sizeof(dists) / sizeof(dists[0]); d++) {
		struct iolab_dist dist;
		struct iolab_err err = {{0}};
		assert_int_equal(iolab_dist_parse("dist", dists[d], &dist, &err), 0);
		struct iolab_gen *g = gen_new(&spec, &dist, reg, nreg, 0, 1, 100 + d);
		uint64_t used[4][5] = {{0}};
		for (unsigned i = 0; i < 200000; i++) {
			struct iolab_req r;
			iolab_gen_next(g, &r);
			unsigned line = r.len == 4096 ? 0 : r.len == 6144 ? 1 : r.len == 65536 ? 2 : r.len == 1000 ? 3 : 9;
			assert_true(line < 4);
			assert_int_equal(r.target, i % nreg); /* round robin */
			check_req(&r, reg, nreg, align_of[line]);
			used[line][r.target]++;
		}
		for (unsigned l = 0; l < 4; l++)
			for (unsigned t = 0; t < nreg; t++)
				assert_true(used[l][t] > 0);
		free(g);
	}
	/* One position: every request of the 64 KiB line is at the one aligned offset. */
	struct iolab_spec one = {.name = "one", .nlines = 1};
	one.line[0] = spec.line[2];
	one.line[0].share = 100;
	one.line[0].random_pct = 50;
	struct iolab_gen *g = gen_new(&one, NULL, &reg[4], 1, 0, 1, 3);
	for (unsigned i = 0; i < 1000; i++) {
		struct iolab_req r;
		iolab_gen_next(g, &r);
		assert_true(r.off == 512);
		check_req(&r, &reg[4], 1, 512);
	}
	free(g);
}

/* A sequential request starts where the previous one ended, rounded up to the line's alignment. */
static void test_seq_explicit_align(void **state)
{
	(void)state;
	struct iolab_spec spec = {.name = "seq-align", .nlines = 1};
	spec.line[0] = (struct iolab_spec_line){.size = 6144, .share = 100, .read_pct = 100, .align = 4096};
	struct iolab_region reg = {1000, MIB};
	struct iolab_gen *g = gen_new(&spec, NULL, &reg, 1, 0, 1, 8);
	/* Positions 4096, 12288, ...: the last that fits ends at or before 1000 + 1 MiB. */
	uint64_t expect = 4096;
	for (unsigned i = 0; i < 400; i++) {
		struct iolab_req r;
		iolab_gen_next(g, &r);
		check_req(&r, &reg, 1, 4096);
		if (expect + 6144 > reg.start + reg.len)
			expect = 4096;
		assert_true(r.off == expect);
		expect += 8192;
	}
	free(g);

	/* Line of 1000 bytes at alignment 512: 0, 1024, 2048, ... */
	spec.line[0] = (struct iolab_spec_line){.size = 1000, .share = 100, .read_pct = 0, .align = 512};
	struct iolab_region z = {0, MIB};
	g = gen_new(&spec, NULL, &z, 1, 0, 1, 8);
	for (unsigned i = 0; i < 100; i++) {
		struct iolab_req r;
		iolab_gen_next(g, &r);
		assert_true(r.off == (uint64_t)i * 1024);
		assert_int_equal(r.len, 1000);
		assert_int_equal(r.op, IOLAB_OP_WRITE);
	}
	free(g);
}

static int same_req(const struct iolab_req *a, const struct iolab_req *b)
{
	return a->off == b->off && a->len == b->len && a->op == b->op && a->target == b->target;
}

static void test_determinism(void **state)
{
	(void)state;
	const struct iolab_spec *spec = pattern("file-server");
	struct iolab_region reg[2] = {{0, GIB}, {0, 4 * GIB}};
	struct iolab_dist zipf;
	assert_int_equal(iolab_dist_parse("dist", "zipf:1.1", &zipf, NULL), 0);
	const struct iolab_dist *dists[] = {&uniform, &zipf};
	for (unsigned d = 0; d < 2; d++) {
		struct iolab_gen *a = gen_new(spec, dists[d], reg, 2, 0, 2, 1234);
		struct iolab_gen *b = gen_new(spec, dists[d], reg, 2, 0, 2, 1234);
		struct iolab_gen *c = gen_new(spec, dists[d], reg, 2, 0, 2, 1235);
		struct iolab_gen *w = gen_new(spec, dists[d], reg, 2, 1, 2, 1234);
		struct iolab_gen *z = gen_new(spec, dists[d], reg, 2, 0, 2, 0);
		unsigned diff_seed = 0, diff_worker = 0, diff_zero = 0;
		for (unsigned i = 0; i < 100000; i++) {
			struct iolab_req ra, rb, rc, rw, rz;
			iolab_gen_next(a, &ra);
			iolab_gen_next(b, &rb);
			iolab_gen_next(c, &rc);
			iolab_gen_next(w, &rw);
			iolab_gen_next(z, &rz);
			if (!same_req(&ra, &rb)) {
				print_error("same seed diverged at request %u\n", i);
				fail();
			}
			diff_seed += !same_req(&ra, &rc);
			diff_worker += !same_req(&ra, &rw);
			diff_zero += !same_req(&ra, &rz);
		}
		/* Independent streams: nearly every request differs. */
		assert_true(diff_seed > 99000);
		assert_true(diff_worker > 99000);
		assert_true(diff_zero > 99000);
		free(a);
		free(b);
		free(c);
		free(w);
		free(z);
	}
	/* Re-initialising restarts the stream. */
	struct iolab_gen *a = gen_new(spec, NULL, reg, 1, 0, 1, 77);
	struct iolab_req first[16], again;
	for (unsigned i = 0; i < 16; i++)
		iolab_gen_next(a, &first[i]);
	assert_int_equal(iolab_gen_init(a, spec, &uniform, reg, 1, 0, 1, 77, NULL), 0);
	for (unsigned i = 0; i < 16; i++) {
		iolab_gen_next(a, &again);
		assert_true(same_req(&first[i], &again));
	}
	free(a);
}

static void test_seq_bs(void **state)
{
	(void)state;
	struct iolab_spec spec = *pattern("seq-read");
	iolab_spec_set_bs(&spec, 65536);
	assert_int_equal(iolab_spec_validate(&spec, NULL), 0);
	assert_true(iolab_spec_max_size(&spec) == 65536);

	/* 1 MiB region: 16 positions, then back to the start. */
	struct iolab_region reg = {0, MIB};
	struct iolab_gen *g = gen_new(&spec, NULL, &reg, 1, 0, 1, 9);
	for (unsigned i = 0; i < 100; i++) {
		struct iolab_req r;
		iolab_gen_next(g, &r);
		assert_true(r.off == (uint64_t)(i % 16) * 65536);
		assert_int_equal(r.len, 65536);
		assert_int_equal(r.op, IOLAB_OP_READ);
		assert_int_equal(r.target, 0);
	}
	free(g);

	/* Unaligned start and a tail too short for a transfer: positions 64k..960k, then wrap. */
	struct iolab_region odd = {4096, MIB + 1000};
	g = gen_new(&spec, NULL, &odd, 1, 0, 1, 9);
	for (unsigned i = 0; i < 60; i++) {
		struct iolab_req r;
		iolab_gen_next(g, &r);
		assert_true(r.off == 65536 + (uint64_t)(i % 15) * 65536);
		check_req(&r, &odd, 1, 65536);
	}
	free(g);

	/* set_bs replaces an explicit alignment and collapses a mix to one line. */
	struct iolab_spec fs = *pattern("file-server");
	fs.line[0].align = 512;
	iolab_spec_set_bs(&fs, 8192);
	assert_int_equal(fs.nlines, 1);
	assert_int_equal(iolab_spec_validate(&fs, NULL), 0);
	struct iolab_region big = {0, GIB};
	g = gen_new(&fs, NULL, &big, 1, 0, 1, 9);
	unsigned reads = 0;
	for (unsigned i = 0; i < 100000; i++) {
		struct iolab_req r;
		iolab_gen_next(g, &r);
		assert_int_equal(r.len, 8192);
		check_req(&r, &big, 1, 8192);
		reads += r.op == IOLAB_OP_READ;
	}
	assert_share(reads / 100000.0, 0.80, 0.5, "file-server --bs reads");
	free(g);

	/* set_read */
	iolab_spec_set_read(&fs, 0);
	assert_false(iolab_spec_reads(&fs));
	g = gen_new(&fs, NULL, &big, 1, 0, 1, 9);
	for (unsigned i = 0; i < 10000; i++) {
		struct iolab_req r;
		iolab_gen_next(g, &r);
		assert_int_equal(r.op, IOLAB_OP_WRITE);
	}
	free(g);
}

static void test_seq_workers(void **state)
{
	(void)state;
	const struct iolab_spec *spec = pattern("seq-read");
	struct iolab_region reg = {0, MIB};
	struct iolab_gen *w0 = gen_new(spec, NULL, &reg, 1, 0, 2, 1);
	struct iolab_gen *w1 = gen_new(spec, NULL, &reg, 1, 1, 2, 1);
	static uint8_t seen[256]; /* 4 KiB blocks of the 1 MiB region */
	memset(seen, 0, sizeof(seen));
	struct iolab_req r0, r1;
	iolab_gen_next(w0, &r0);
	iolab_gen_next(w1, &r1);
	assert_true(r0.off == 0);
	assert_true(r1.off == MIB / 2);
	/* The two streams cover disjoint halves until they wrap. */
	for (unsigned i = 0; i < 128; i++) {
		if (i) {
			struct iolab_req p0 = r0, p1 = r1;
			iolab_gen_next(w0, &r0);
			iolab_gen_next(w1, &r1);
			assert_true(r0.off == p0.off + 4096);
			assert_true(r1.off == p1.off + 4096);
		}
		check_req(&r0, &reg, 1, 4096);
		check_req(&r1, &reg, 1, 4096);
		assert_int_equal(seen[r0.off / 4096]++, 0);
		assert_int_equal(seen[r1.off / 4096]++, 0);
	}
	for (unsigned b = 0; b < 256; b++)
		assert_int_equal(seen[b], 1);
	/* Worker 1 then wraps to the start of the region. */
	iolab_gen_next(w1, &r1);
	assert_true(r1.off == 0);
	free(w0);
	free(w1);

	/* Three workers start at distinct, increasing, aligned offsets. */
	uint64_t prev = 0;
	for (unsigned w = 0; w < 3; w++) {
		struct iolab_gen *g = gen_new(spec, NULL, &reg, 1, w, 3, 1);
		struct iolab_req r;
		iolab_gen_next(g, &r);
		check_req(&r, &reg, 1, 4096);
		if (w)
			assert_true(r.off > prev);
		assert_true(r.off >= (uint64_t)w * MIB / 3 && r.off < (uint64_t)w * MIB / 3 + 4096);
		prev = r.off;
		free(g);
	}
}

static void test_round_robin(void **state)
{
	(void)state;
	struct iolab_region reg[3] = {{0, 8 * MIB}, {100 * MIB, MIB}, {5 * GIB, 64 * MIB}};
	/* Random: requests cycle over the targets and each stays in its own region. */
	struct iolab_gen *g = gen_new(pattern("rand-read"), NULL, reg, 3, 0, 1, 11);
	for (unsigned i = 0; i < 30000; i++) {
		struct iolab_req r;
		iolab_gen_next(g, &r);
		assert_int_equal(r.target, i % 3);
		check_req(&r, reg, 3, 4096);
	}
	free(g);
	/* Sequential: one cursor per target. */
	g = gen_new(pattern("seq-write"), NULL, reg, 3, 0, 1, 11);
	uint64_t next[3] = {reg[0].start, reg[1].start, reg[2].start};
	for (unsigned i = 0; i < 3000; i++) {
		struct iolab_req r;
		iolab_gen_next(g, &r);
		assert_int_equal(r.target, i % 3);
		assert_int_equal(r.op, IOLAB_OP_WRITE);
		if (next[r.target] + 4096 > reg[r.target].start + reg[r.target].len)
			next[r.target] = reg[r.target].start;
		assert_true(r.off == next[r.target]);
		next[r.target] += 4096;
	}
	free(g);
	/* All 16 targets are used. */
	struct iolab_region many[IOLAB_GEN_TARGETS];
	for (unsigned t = 0; t < IOLAB_GEN_TARGETS; t++)
		many[t] = (struct iolab_region){t * GIB, MIB};
	g = gen_new(pattern("database"), NULL, many, IOLAB_GEN_TARGETS, 0, 1, 2);
	for (unsigned i = 0; i < 1600; i++) {
		struct iolab_req r;
		iolab_gen_next(g, &r);
		assert_int_equal(r.target, i % IOLAB_GEN_TARGETS);
		check_req(&r, many, IOLAB_GEN_TARGETS, 8192);
	}
	free(g);
}

static void test_copy(void **state)
{
	(void)state;
	const struct iolab_spec *spec = pattern("copy");
	struct iolab_region reg = {0, 16 * MIB};
	const uint64_t half = 8 * MIB, chunk = spec->line[0].size;
	struct iolab_gen *g = gen_new(spec, NULL, &reg, 1, 0, 1, 4);
	for (unsigned i = 0; i < 600; i++) {
		struct iolab_req rd, wr;
		iolab_gen_next(g, &rd);
		iolab_gen_next(g, &wr);
		assert_int_equal(rd.op, IOLAB_OP_READ);
		assert_int_equal(wr.op, IOLAB_OP_WRITE);
		assert_true(rd.len == chunk && wr.len == chunk);
		assert_int_equal(rd.target, 0);
		assert_int_equal(wr.target, 0);
		/* Reads walk the first half, wrapping; each write goes to the mirror in the second. */
		assert_true(rd.off == (i % (half / chunk)) * chunk);
		assert_true(rd.off + rd.len <= half);
		assert_true(wr.off == rd.off + half);
		assert_true(wr.off >= half && wr.off + wr.len <= reg.len);
		assert_true(rd.off % chunk == 0 && wr.off % chunk == 0);
	}
	free(g);

	/* Two targets: read from the first, write to the second at the same relative offset. */
	struct iolab_region two[2] = {{0, 4 * MIB}, {GIB, 4 * MIB}};
	g = gen_new(spec, NULL, two, 2, 0, 1, 4);
	for (unsigned i = 0; i < 200; i++) {
		struct iolab_req rd, wr;
		iolab_gen_next(g, &rd);
		iolab_gen_next(g, &wr);
		assert_int_equal(rd.op, IOLAB_OP_READ);
		assert_int_equal(wr.op, IOLAB_OP_WRITE);
		assert_int_equal(rd.target, 0);
		assert_int_equal(wr.target, 1);
		assert_true(rd.off == (i % 64) * chunk);
		assert_true(wr.off == GIB + rd.off);
		check_req(&rd, two, 2, chunk);
		check_req(&wr, two, 2, chunk);
	}
	free(g);
}

static void expect_invalid(const struct iolab_spec *spec, const char *needle)
{
	struct iolab_err err = {{0}};
	int rc = iolab_spec_validate(spec, &err);
	if (rc != -EINVAL || !strstr(err.msg, needle)) {
		print_error("spec should be rejected with a message containing '%s': rc %d, '%s'\n", needle,
			    rc, err.msg);
		fail();
	}
	/* gen_init refuses it too */
	struct iolab_gen *g = malloc(sizeof(*g));
	struct iolab_region reg = {0, GIB};
	assert_int_equal(iolab_gen_init(g, spec, &uniform, &reg, 1, 0, 1, 1, NULL), -EINVAL);
	free(g);
}

static void test_validate(void **state)
{
	(void)state;
	struct iolab_spec s = {.name = "mine", .nlines = 2};
	s.line[0] = (struct iolab_spec_line){.size = 4096, .share = 50, .read_pct = 100};
	s.line[1] = (struct iolab_spec_line){.size = 8192, .share = 40, .read_pct = 100};
	expect_invalid(&s, "100");
	expect_invalid(&s, "90");
	expect_invalid(&s, "mine");
	s.line[1].share = 60;
	expect_invalid(&s, "110");
	s.line[1].share = 50;
	assert_int_equal(iolab_spec_validate(&s, NULL), 0);

	s.line[1].size = 0;
	expect_invalid(&s, "size");
	expect_invalid(&s, "line 2");
	s.line[1].size = 8192;

	s.line[0].read_pct = 101;
	expect_invalid(&s, "line 1");
	s.line[0].read_pct = 100;
	s.line[0].random_pct = 150;
	expect_invalid(&s, "line 1");
	s.line[0].random_pct = 0;
	s.line[0].share = 101;
	s.line[1].share = 0;
	expect_invalid(&s, "line 1");
	s.line[0].share = 50;
	s.line[1].share = 50;

	s.nlines = 0;
	expect_invalid(&s, "mine");
	struct iolab_err err = {{0}};
	assert_int_equal(iolab_spec_validate(&s, &err), -EINVAL);
	assert_non_null(strstr(err.msg, "line"));
	s.nlines = 2;
	assert_int_equal(iolab_spec_validate(&s, NULL), 0);
}

static void test_init_rejects(void **state)
{
	(void)state;
	struct iolab_gen *g = malloc(sizeof(*g));
	struct iolab_err err = {{0}};
	const struct iolab_spec *spec = pattern("rand-read");

	struct iolab_region small = {0, 4095};
	assert_int_equal(iolab_gen_init(g, spec, &uniform, &small, 1, 0, 1, 1, &err), -EINVAL);
	assert_non_null(strstr(err.msg, "4096"));
	assert_non_null(strstr(err.msg, "rand-read"));

	/* Large enough, but not once aligned. */
	struct iolab_region skewed = {1, 4096 + 100};
	memset(&err, 0, sizeof(err));
	assert_int_equal(iolab_gen_init(g, spec, &uniform, &skewed, 1, 0, 1, 1, &err), -EINVAL);
	assert_true(err.msg[0] != 0);

	/* The second target is the small one. */
	struct iolab_region two[2] = {{0, MIB}, {MIB, 2048}};
	memset(&err, 0, sizeof(err));
	assert_int_equal(iolab_gen_init(g, spec, &uniform, two, 2, 0, 1, 1, &err), -EINVAL);
	assert_non_null(strstr(err.msg, "target 2"));

	/* The largest line decides. */
	struct iolab_region mid = {0, 32 * 1024};
	assert_int_equal(iolab_gen_init(g, pattern("file-server"), &uniform, &mid, 1, 0, 1, 1, NULL), -EINVAL);
	mid.len = 64 * 1024;
	assert_int_equal(iolab_gen_init(g, pattern("file-server"), &uniform, &mid, 1, 0, 1, 1, NULL), 0);

	/* Exactly one transfer fits: every distribution draws that one block. */
	struct iolab_region exact = {8192, 4096};
	const char *dists[] = {"uniform", "zipf:1.2", "zipf:1", "pareto:0.2", "hotspot:90/10"};
	for (size_t d = 0; d < sizeof(dists) / sizeof(dists[0]); d++) {
		struct iolab_dist dist;
		assert_int_equal(iolab_dist_parse("dist", dists[d], &dist, NULL), 0);
		assert_int_equal(iolab_gen_init(g, spec, &dist, &exact, 1, 0, 1, 1, &err), 0);
		for (unsigned i = 0; i < 100; i++) {
			struct iolab_req r;
			iolab_gen_next(g, &r);
			assert_true(r.off == 8192);
		}
	}

	/* Copy needs the transfer to fit in half of a single region. */
	struct iolab_region cp = {0, 64 * 1024};
	assert_int_equal(iolab_gen_init(g, pattern("copy"), &uniform, &cp, 1, 0, 1, 1, NULL), -EINVAL);
	cp.len = 128 * 1024;
	assert_int_equal(iolab_gen_init(g, pattern("copy"), &uniform, &cp, 1, 0, 1, 1, NULL), 0);

	/* Target count and worker index. */
	struct iolab_region many[IOLAB_GEN_TARGETS + 1];
	for (unsigned t = 0; t <= IOLAB_GEN_TARGETS; t++)
		many[t] = (struct iolab_region){0, MIB};
	assert_int_equal(iolab_gen_init(g, spec, &uniform, many, 0, 0, 1, 1, NULL), -EINVAL);
	assert_int_equal(iolab_gen_init(g, spec, &uniform, many, IOLAB_GEN_TARGETS + 1, 0, 1, 1, NULL), -EINVAL);
	assert_int_equal(iolab_gen_init(g, spec, &uniform, many, IOLAB_GEN_TARGETS, 0, 1, 1, NULL), 0);
	assert_int_equal(iolab_gen_init(g, spec, &uniform, many, 1, 2, 2, 1, NULL), -EINVAL);
	assert_int_equal(iolab_gen_init(g, spec, &uniform, many, 1, 0, 0, 1, NULL), -EINVAL);
	free(g);
}

/* Per-block counts of 10^6 random 4 KiB requests over 100000 blocks, sorted, most used first. */
#define NBLK 100000u
static uint32_t counts[NBLK];

static int desc(const void *a, const void *b)
{
	uint32_t x = *(const uint32_t *)a, y = *(const uint32_t *)b;
	return x < y ? 1 : x > y ? -1 : 0;
}

static void draw(const char *dist_str, uint64_t *hot10)
{
	struct iolab_dist dist;
	struct iolab_err err = {{0}};
	assert_int_equal(iolab_dist_parse("dist", dist_str, &dist, &err), 0);
	struct iolab_region reg = {0, (uint64_t)NBLK * 4096};
	struct iolab_gen *g = gen_new(pattern("rand-read"), &dist, &reg, 1, 0, 1, 2024);
	memset(counts, 0, sizeof(counts));
	uint64_t hot = 0;
	for (unsigned i = 0; i < NREQ; i++) {
		struct iolab_req r;
		iolab_gen_next(g, &r);
		check_req(&r, &reg, 1, 4096);
		counts[r.off / 4096]++;
		hot += r.off < reg.len / 10;
	}
	free(g);
	if (hot10)
		*hot10 = hot;
	qsort(counts, NBLK, sizeof(counts[0]), desc);
}

static double top_share(unsigned nblocks)
{
	uint64_t s = 0;
	for (unsigned i = 0; i < nblocks; i++)
		s += counts[i];
	return (double)s / NREQ;
}

static void test_dist_uniform(void **state)
{
	(void)state;
	draw("uniform", NULL);
	/* Mean 10 per block: the top 1% of blocks get a little over 1%. */
	assert_true(top_share(NBLK / 100) < 0.03);
	assert_true(top_share(NBLK / 5) < 0.35);
	assert_true(counts[0] < 40);
	/* Poisson(10): about 4.5 of the 100000 blocks are expected never to be drawn. */
	unsigned zero = 0;
	for (unsigned i = 0; i < NBLK; i++)
		zero += counts[i] == 0;
	assert_true(zero < 30);
}

static void test_dist_zipf(void **state)
{
	(void)state;
	draw("zipf:1.2", NULL);
	double h_n = 0, h_1pct = 0;
	for (unsigned k = 1; k <= NBLK; k++) {
		h_n += pow(k, -1.2);
		if (k == NBLK / 100)
			h_1pct = h_n;
	}
	double top1 = top_share(NBLK / 100);
	assert_true(top1 > 0.30);
	/* And close to what the distribution says: rank 1 has 1/H(n), ranks 1..1000 H(1000)/H(n). */
	assert_share(top1, h_1pct / h_n, 1.0, "zipf:1.2 top 1%");
	assert_share((double)counts[0] / NREQ, 1 / h_n, 0.5, "zipf:1.2 hottest block");
	assert_share((double)counts[1] / NREQ, pow(2, -1.2) / h_n, 0.5, "zipf:1.2 second block");

	/* A flatter exponent is less skewed, but still skewed. */
	draw("zipf:0.8", NULL);
	double t08 = top_share(NBLK / 100);
	assert_true(t08 > 0.05 && t08 < top1);
}

static void test_dist_pareto(void **state)
{
	(void)state;
	draw("pareto:0.2", NULL);
	double top20 = top_share(NBLK / 5);
	if (top20 < 0.75 || top20 > 0.85) {
		print_error("pareto:0.2: top 20%% of blocks get %.3f of the I/Os\n", top20);
		fail();
	}
	/* The mapping n * u^(ln h / ln(1-h)) is self-similar: the hottest share x of the blocks gets
	 * x^(ln(1-h) / ln h) of the I/Os, for any x, not only x = h. */
	const double e = log(0.8) / log(0.2);
	assert_share(top_share(NBLK / 100), pow(0.01, e), 1.5, "pareto:0.2 top 1%");
	assert_share((double)counts[0] / NREQ, pow(1.0 / NBLK, e), 0.5, "pareto:0.2 hottest block");
	draw("pareto:0.1", NULL); /* 90% on 10% */
	double top10 = top_share(NBLK / 10);
	assert_true(top10 > 0.85 && top10 < 0.95);
}

static void test_dist_hotspot(void **state)
{
	(void)state;
	uint64_t hot;
	draw("hotspot:90/10", &hot);
	assert_share((double)hot / NREQ, 0.90, 1.0, "hotspot:90/10 first 10%");
	draw("hotspot:50/25", NULL);
	assert_share(top_share(NBLK / 4), 0.50, 1.5, "hotspot:50/25 top 25%");
}

static void dist_bad(const char *s, const char *needle)
{
	struct iolab_err err = {{0}};
	struct iolab_dist d;
	int rc = iolab_dist_parse("--dist", s, &d, &err);
	if (rc != -EINVAL || !strstr(err.msg, "--dist") || (needle && !strstr(err.msg, needle))) {
		print_error("dist '%s' should be rejected naming the field: rc %d '%s'\n", s, rc, err.msg);
		fail();
	}
}

static void test_dist_parse(void **state)
{
	(void)state;
	struct iolab_dist d;
	struct iolab_err err = {{0}};
	char name[64];
	assert_int_equal(iolab_dist_parse("--dist", "uniform", &d, &err), 0);
	assert_int_equal(d.kind, IOLAB_DIST_UNIFORM);
	assert_int_equal(iolab_dist_parse("--dist", "zipf:1.2", &d, &err), 0);
	assert_int_equal(d.kind, IOLAB_DIST_ZIPF);
	assert_true(d.a == 1.2);
	assert_string_equal(iolab_dist_name(&d, name, sizeof(name)), "zipf:1.2");
	assert_int_equal(iolab_dist_parse("--dist", "pareto:0.2", &d, &err), 0);
	assert_int_equal(d.kind, IOLAB_DIST_PARETO);
	assert_true(d.a == 0.2);
	assert_string_equal(iolab_dist_name(&d, name, sizeof(name)), "pareto:0.2");
	assert_int_equal(iolab_dist_parse("--dist", "hotspot:90/10", &d, &err), 0);
	assert_int_equal(d.kind, IOLAB_DIST_HOTSPOT);
	assert_true(d.a == 90 && d.b == 10);
	assert_string_equal(iolab_dist_name(&d, name, sizeof(name)), "hotspot:90/10");
	assert_int_equal(iolab_dist_parse("--dist", "hotspot:99.5/0.5", &d, &err), 0);
	assert_true(d.a == 99.5 && d.b == 0.5);
	d.kind = IOLAB_DIST_UNIFORM;
	assert_string_equal(iolab_dist_name(&d, name, sizeof(name)), "uniform");

	dist_bad("zipf", "zipf");
	dist_bad("zipf:", NULL);
	dist_bad("zipf:x", "x");
	dist_bad("zipf:0", NULL);
	dist_bad("zipf:-1", NULL);
	dist_bad("pareto:1.5", "1.5");
	dist_bad("pareto:0", NULL);
	dist_bad("pareto:1", NULL);
	dist_bad("hotspot:90", "hotspot:90");
	dist_bad("hotspot:90/0", NULL);
	dist_bad("hotspot:90/100", NULL);
	dist_bad("hotspot:101/10", NULL);
	dist_bad("hotspot:x/10", NULL);
	dist_bad("foo:1", "foo:1");
	dist_bad("Uniform", "Uniform");
	dist_bad("", NULL);
	dist_bad("zipfx:1", NULL);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_builtins),
		cmocka_unit_test(test_file_server_mix),
		cmocka_unit_test(test_random_share),
		cmocka_unit_test(test_alignment_and_bounds),
		cmocka_unit_test(test_seq_explicit_align),
		cmocka_unit_test(test_determinism),
		cmocka_unit_test(test_seq_bs),
		cmocka_unit_test(test_seq_workers),
		cmocka_unit_test(test_round_robin),
		cmocka_unit_test(test_copy),
		cmocka_unit_test(test_validate),
		cmocka_unit_test(test_init_rejects),
		cmocka_unit_test(test_dist_uniform),
		cmocka_unit_test(test_dist_zipf),
		cmocka_unit_test(test_dist_pareto),
		cmocka_unit_test(test_dist_hotspot),
		cmocka_unit_test(test_dist_parse),
	};
	return cmocka_run_group_tests(tests, NULL, NULL);
}
