/* test_sim_controller.c: the controller (comp_controller.c) in a path built by hand, host ->
 * controller -> atlas10k drive, under a closed-loop load run here on the event queue: a
 * controller with no cache and no time per command changes nothing; write-back hides write
 * latency while the dirty data fits and falls to what destage sustains once the cache is full;
 * write-back without a battery is write-through; re-reads are hits with no drive I/O; adaptive
 * read-ahead serves sequential reads from the cache and stays off for random ones; destage
 * coalesces sequential small writes; the time per command caps the rate. docs/subsystems.md
 * ("The controller") states the behaviour; its parts follow DiskSim 4.0's cache ("disksim
 * cachemem" in its manual, section 3.4.9): present and dirty bits per block, write scheme 1
 * (synchronous write-through) and 3 (write-back), background flushing of dirty blocks once the
 * cache is idle ("Flush idle delay"), lines combined into one write-back request ("Flush max
 * line cluster"). */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <string.h>

#include <cmocka.h>

#include "iolab/disk_model.h"
#include "iolab/engine.h"
#include "iolab/host_queue.h"
#include "iolab/prng.h"
#include "iolab/sim_system.h"
#include "iolab/subsys.h"
#include "sim/parts/ctl_cache.h"

#define MIB (1024ULL * 1024)
#define QD_MAX 64

struct slot {
	struct iolab_sreq r;
	uint64_t t0; /* when the load submitted it */
};

/* host -> [controller ->] drive, and the load's state. */
struct rig {
	struct iolab_disk_model m;
	struct iolab_sim s;
	struct iolab_comp host, ctl, drive;
	bool has_ctl;
	struct slot slot[QD_MAX];
	struct iolab_prng rng;
	uint64_t seq; /* the next block of a sequential load */
};

enum pattern { RANDOM, SEQUENTIAL, REGION };

struct load {
	enum pattern pat;
	bool write;
	unsigned qd, n;       /* depth, requests */
	uint64_t region;      /* REGION: random within blocks [0, region) */
	unsigned first;       /* mean latency of the first this many too */
	unsigned steady;      /* rate and latency from this completion on too */
};

struct result {
	double iops, mean_us;       /* whole load */
	double first_us;            /* the first `first` requests */
	double steady_iops, steady_us;
	uint64_t host_ios, host_bytes, drive_ios, drive_bytes, drive_writes;
};

static void rig_init(struct rig *g, const struct iolab_ctl_params *p, uint64_t host_overhead,
		     unsigned sched)
{
	memset(g, 0, sizeof(*g));
	struct iolab_err err;
	assert_int_equal(iolab_model_open("atlas10k", &g->m, &err), 0);
	assert_int_equal(iolab_sim_init(&g->s, QD_MAX), 0);
	assert_int_equal(iolab_comp_drive_init(&g->drive, &g->s, &g->m), 0);
	g->has_ctl = p != NULL;
	if (p)
		assert_int_equal(iolab_comp_controller_init(&g->ctl, &g->s, &g->drive, p, g->m.blocks,
							    g->m.block_bytes, 0), 0);
	struct iolab_host_params hp = {.sched = sched, .overhead_ns = host_overhead};
	assert_int_equal(iolab_comp_host_init(&g->host, &g->s, p ? &g->ctl : &g->drive, &hp, QD_MAX,
					      g->m.block_bytes), 0);
	iolab_prng_seed(&g->rng, 42);
}

static void rig_free(struct rig *g)
{
	iolab_comp_free(&g->host);
	if (g->has_ctl)
		iolab_comp_free(&g->ctl);
	iolab_comp_free(&g->drive);
	iolab_sim_free(&g->s);
	iolab_model_free(&g->m);
}

static const uint32_t BS = 8; /* 4 KiB of 512-byte blocks */

static void submit(struct rig *g, struct slot *sl, const struct load *l)
{
	uint64_t lbn;
	if (l->pat == SEQUENTIAL) {
		lbn = g->seq;
		g->seq += BS;
	} else {
		uint64_t span = l->pat == REGION ? l->region : g->m.blocks;
		lbn = iolab_prng_below(&g->rng, span / BS) * BS;
	}
	sl->r = (struct iolab_sreq){.d = {.lbn = lbn, .blocks = BS, .write = l->write, .user = sl}};
	sl->t0 = g->s.now;
	assert_int_equal(g->host.ops->submit(&g->host, &sl->r), 0);
}

/* Runs the load to its end (each finished request replaced at once while any are left), as the
 * sim engine does: the system runs until a request finishes, then the load submits. */
static void run(struct rig *g, const struct load *l, struct result *res)
{
	struct iolab_comp_report h0, h1, d0, d1;
	iolab_comp_host_report(&g->host, &h0);
	iolab_comp_drive_report(&g->drive, &d0);
	uint64_t w0 = iolab_comp_drive_stats(&g->drive)->writes;
	uint64_t start = g->s.now, steady_t0 = start;
	unsigned issued = 0, done = 0;
	double lat = 0, first = 0, steady = 0;
	for (; issued < l->qd && issued < l->n; issued++)
		submit(g, &g->slot[issued], l);
	while (done < l->n) {
		while (!g->s.ndone && !g->s.error && iolab_sim_step(&g->s))
			;
		assert_int_equal(g->s.error, 0);
		assert_true(g->s.ndone > 0);
		struct slot *fin[QD_MAX];
		unsigned k = g->s.ndone;
		for (unsigned i = 0; i < k; i++)
			fin[i] = g->s.done[i]->d.user;
		g->s.ndone = 0;
		for (unsigned i = 0; i < k; i++) {
			double t = (double)(g->s.now - fin[i]->t0);
			lat += t;
			if (done < l->first)
				first += t;
			if (l->steady && done == l->steady)
				steady_t0 = g->s.now;
			if (l->steady && done >= l->steady)
				steady += t;
			done++;
			if (issued < l->n) {
				submit(g, fin[i], l);
				issued++;
			}
		}
	}
	double span = (double)(g->s.now - start) / 1e9;
	*res = (struct result){.iops = l->n / span, .mean_us = lat / l->n / 1e3,
			       .first_us = l->first ? first / l->first / 1e3 : 0};
	if (l->steady) {
		res->steady_iops = (l->n - l->steady) / ((double)(g->s.now - steady_t0) / 1e9);
		res->steady_us = steady / (l->n - l->steady) / 1e3;
	}
	iolab_comp_host_report(&g->host, &h1);
	iolab_comp_drive_report(&g->drive, &d1);
	res->host_ios = h1.ios - h0.ios;
	res->host_bytes = h1.bytes - h0.bytes;
	res->drive_ios = d1.ios - d0.ios;
	res->drive_bytes = d1.bytes - d0.bytes;
	res->drive_writes = iolab_comp_drive_stats(&g->drive)->writes - w0;
}

/* One load on a fresh path (p NULL: no controller). */
static void run_fresh(const struct iolab_ctl_params *p, uint64_t host_overhead, unsigned sched,
		      const struct load *l, struct result *res)
{
	struct rig *g = test_malloc(sizeof(*g));
	rig_init(g, p, host_overhead, sched);
	run(g, l, res);
	rig_free(g);
	test_free(g);
}

/* (a) No cache and no time per command: the same completions at the same virtual times as the
 * drive under the host alone, whatever the host's queue policy and time per command, since the
 * controller refuses what the drive refuses and the host keeps its queue. */
static void test_pass_through(void **state)
{
	(void)state;
	const struct iolab_ctl_params none = {0};
	const struct {
		bool write;
		uint64_t host_overhead;
		unsigned sched;
	} cases[] = {{false, 0, IOLAB_HOST_NONE}, {true, 0, IOLAB_HOST_NONE},
		     {false, 20000, IOLAB_HOST_CSCAN}, {true, 5000, IOLAB_HOST_DEADLINE}};
	for (unsigned i = 0; i < sizeof(cases) / sizeof(cases[0]); i++) {
		struct load l = {.pat = RANDOM, .write = cases[i].write, .qd = 16, .n = 2000};
		struct result a, b;
		run_fresh(NULL, cases[i].host_overhead, cases[i].sched, &l, &a);
		run_fresh(&none, cases[i].host_overhead, cases[i].sched, &l, &b);
		print_message("pass-through %s, host %s: drive alone %.3f IOPS %.3f us, controller "
			      "%.3f IOPS %.3f us\n", cases[i].write ? "writes" : "reads",
			      iolab_host_sched_name(cases[i].sched), a.iops, a.mean_us, b.iops, b.mean_us);
		assert_true(a.iops == b.iops);
		assert_true(a.mean_us == b.mean_us);
		assert_int_equal(a.drive_ios, b.drive_ios);
	}
}

static struct iolab_ctl_params cached(unsigned wp, bool battery, unsigned ra)
{
	return (struct iolab_ctl_params){.cache_bytes = 64 * MIB, .write_policy = wp, .battery = battery,
					 .read_ahead = ra};
}

/* (b) Random 4 KiB writes at QD 16, 64 MiB cache. The first 1,000 writes fit in the cache
 * (4 MiB dirty, below the quarter that starts destage): write-back completes them after the
 * controller's processing, write-through waits for the drive. Over a long run the cache fills,
 * and write-back writes no faster than destage empties it: close to the drive's own rate
 * (somewhat above it, since destage writes in address order, with short seeks), and its latency
 * rises to the drive's scale. */
static void test_write_back(void **state)
{
	(void)state;
	struct iolab_ctl_params wt = cached(IOLAB_WP_THROUGH, true, IOLAB_RA_NONE);
	struct iolab_ctl_params wb = cached(IOLAB_WP_BACK, true, IOLAB_RA_NONE);
	struct load early = {.pat = RANDOM, .write = true, .qd = 16, .n = 1000, .first = 1000};
	struct result t, b, d, lb;
	run_fresh(&wt, 0, IOLAB_HOST_NONE, &early, &t);
	run_fresh(&wb, 0, IOLAB_HOST_NONE, &early, &b);
	print_message("first 1000 random 4k writes QD 16: write-through %.1f us, write-back %.3f us\n",
		      t.first_us, b.first_us);
	struct load drive = {.pat = RANDOM, .write = true, .qd = 16, .n = 4000};
	run_fresh(NULL, 0, IOLAB_HOST_NONE, &drive, &d);
	struct load longer = {.pat = RANDOM, .write = true, .qd = 16, .n = 60000, .first = 1000,
			      .steady = 40000};
	struct rig *g = test_malloc(sizeof(*g));
	rig_init(g, &wb, 0, IOLAB_HOST_NONE);
	run(g, &longer, &lb);
	uint64_t dirty = iolab_comp_controller_dirty_bytes(&g->ctl);
	rig_free(g);
	test_free(g);
	print_message("drive alone: %.1f IOPS %.1f us; write-back over 60000 writes: first 1000 %.3f us, "
		      "writes 40000-60000 %.1f IOPS %.1f us; drive writes %llu; dirty at the end %llu "
		      "bytes\n", d.iops, d.mean_us, lb.first_us, lb.steady_iops, lb.steady_us,
		      (unsigned long long)lb.drive_writes, (unsigned long long)dirty);
	assert_true(b.first_us * 100 < t.first_us);
	assert_true(lb.steady_iops > 0.5 * d.iops && lb.steady_iops < 4 * d.iops);
	assert_true(lb.steady_us > 100 * (lb.first_us + 1));
	assert_int_equal(dirty, 64 * MIB); /* the cache stayed full: writes waited for room */
}

/* Dirty data left when the load stops is destaged while the controller is idle, all of it,
 * each block once. */
static void test_idle_flush(void **state)
{
	(void)state;
	struct iolab_ctl_params wb = cached(IOLAB_WP_BACK, true, IOLAB_RA_NONE);
	struct rig *g = test_malloc(sizeof(*g));
	rig_init(g, &wb, 0, IOLAB_HOST_NONE);
	struct load l = {.pat = RANDOM, .write = true, .qd = 16, .n = 1000};
	struct result r;
	run(g, &l, &r);
	assert_int_equal(iolab_comp_controller_dirty_bytes(&g->ctl), 1000 * 4096);
	while (iolab_sim_step(&g->s))
		;
	assert_int_equal(iolab_comp_controller_dirty_bytes(&g->ctl), 0);
	struct iolab_comp_report d;
	iolab_comp_drive_report(&g->drive, &d);
	uint64_t w = iolab_comp_drive_stats(&g->drive)->writes;
	print_message("1000 random 4k writes destaged when idle: %llu drive writes, %llu bytes\n",
		      (unsigned long long)w, (unsigned long long)d.bytes);
	assert_int_equal(d.bytes, 1000 * 4096); /* every block written once */
	assert_true(w <= 1000 && w >= 990); /* neighbours by chance are written together */
	rig_free(g);
	test_free(g);
}

/* A write of a block whose destage is in flight: the block is dirty again once that destage
 * completes, and written a second time (the newer data is not lost). */
static void test_write_during_destage(void **state)
{
	(void)state;
	struct iolab_ctl_params wb = cached(IOLAB_WP_BACK, true, IOLAB_RA_NONE);
	struct rig *g = test_malloc(sizeof(*g));
	rig_init(g, &wb, 0, IOLAB_HOST_NONE);
	struct load one = {.pat = REGION, .region = BS, .write = true, .qd = 1, .n = 1};
	submit(g, &g->slot[0], &one);
	while (!g->s.ndone && iolab_sim_step(&g->s))
		;
	g->s.ndone = 0;
	assert_true(iolab_sim_step(&g->s)); /* the idle look: destage starts */
	assert_int_equal(iolab_comp_drive_stats(&g->drive)->writes, 0);
	assert_int_equal(iolab_comp_controller_dirty_bytes(&g->ctl), 4096); /* in flight */
	submit(g, &g->slot[1], &one); /* the same block again, completes in the cache */
	while (iolab_sim_step(&g->s))
		;
	assert_int_equal(iolab_comp_drive_stats(&g->drive)->writes, 2);
	assert_int_equal(iolab_comp_controller_dirty_bytes(&g->ctl), 0);
	rig_free(g);
	test_free(g);
}

/* (c) Write-back without a battery is write-through, exactly; the controller says so. */
static void test_no_battery(void **state)
{
	(void)state;
	struct iolab_ctl_params wt = cached(IOLAB_WP_THROUGH, true, IOLAB_RA_NONE);
	struct iolab_ctl_params nb = cached(IOLAB_WP_BACK, false, IOLAB_RA_NONE);
	assert_null(iolab_ctl_warning(&wt));
	assert_string_equal(iolab_ctl_warning(&nb), "write-back without a battery: acting as write-through");
	struct load l = {.pat = RANDOM, .write = true, .qd = 16, .n = 3000};
	struct result a, b;
	run_fresh(&wt, 0, IOLAB_HOST_NONE, &l, &a);
	run_fresh(&nb, 0, IOLAB_HOST_NONE, &l, &b);
	print_message("write-through %.3f IOPS %.3f us, write-back without battery %.3f IOPS %.3f us\n",
		      a.iops, a.mean_us, b.iops, b.mean_us);
	assert_true(a.iops == b.iops);
	assert_true(a.mean_us == b.mean_us);
	assert_int_equal(a.drive_ios, b.drive_ios);
	assert_int_equal(a.drive_writes, b.drive_writes);
}

/* (d) A 1 MiB region read once, then read again at random: every re-read is a hit and the drive
 * does nothing more. */
static void test_reread(void **state)
{
	(void)state;
	struct iolab_ctl_params p = cached(IOLAB_WP_THROUGH, true, IOLAB_RA_NONE);
	struct rig *g = test_malloc(sizeof(*g));
	rig_init(g, &p, 0, IOLAB_HOST_NONE);
	struct load warm = {.pat = SEQUENTIAL, .qd = 4, .n = 256};
	struct load again = {.pat = REGION, .region = 2048, .qd = 4, .n = 1000};
	struct result w, r;
	run(g, &warm, &w);
	struct iolab_comp_report c0, c1;
	iolab_comp_controller_report(&g->ctl, &c0);
	run(g, &again, &r);
	iolab_comp_controller_report(&g->ctl, &c1);
	print_message("re-reads: %llu host I/Os, %llu hits, %llu drive I/Os, %.1f IOPS\n",
		      (unsigned long long)r.host_ios, (unsigned long long)(c1.hits - c0.hits),
		      (unsigned long long)r.drive_ios, r.iops);
	assert_int_equal(w.drive_ios, 256);
	assert_int_equal(r.host_ios, 1000);
	assert_int_equal(c1.hits - c0.hits, 1000);
	assert_int_equal(r.drive_ios, 0);
	rig_free(g);
	test_free(g);
}

/* (e) Sequential 4 KiB reads at QD 1 with adaptive read-ahead (64 KiB on a single drive): from
 * the third read on, each miss reads 64 KiB more, and the next 16 reads are hits. Random reads
 * never turn it on: the drive reads exactly what the host asked for and missed. With always,
 * each random miss reads 64 KiB more. */
static void test_read_ahead(void **state)
{
	(void)state;
	struct iolab_ctl_params none = cached(IOLAB_WP_THROUGH, true, IOLAB_RA_NONE);
	struct iolab_ctl_params ad = cached(IOLAB_WP_THROUGH, true, IOLAB_RA_ADAPTIVE);
	struct load seq = {.pat = SEQUENTIAL, .qd = 1, .n = 10000};
	struct result a, b;
	run_fresh(&none, 0, IOLAB_HOST_NONE, &seq, &a);
	run_fresh(&ad, 0, IOLAB_HOST_NONE, &seq, &b);
	print_message("sequential 4k reads QD 1: no read-ahead %.1f IOPS, %llu drive I/Os; adaptive "
		      "%.1f IOPS, %llu drive I/Os, %llu drive bytes\n", a.iops,
		      (unsigned long long)a.drive_ios, b.iops, (unsigned long long)b.drive_ios,
		      (unsigned long long)b.drive_bytes);
	assert_int_equal(a.drive_ios, 10000);
	assert_true(b.drive_ios * 15 < a.drive_ios && b.drive_ios * 18 > a.drive_ios);
	assert_true(b.iops > a.iops);
	struct load rnd = {.pat = RANDOM, .qd = 16, .n = 5000};
	struct rig *g = test_malloc(sizeof(*g));
	rig_init(g, &ad, 0, IOLAB_HOST_NONE);
	struct result r;
	run(g, &rnd, &r);
	struct iolab_comp_report c;
	iolab_comp_controller_report(&g->ctl, &c);
	print_message("random 4k reads, adaptive: host %llu bytes, drive %llu bytes, %llu hits\n",
		      (unsigned long long)r.host_bytes, (unsigned long long)r.drive_bytes,
		      (unsigned long long)c.hits);
	assert_int_equal(r.drive_bytes, r.host_bytes - c.hits * 4096);
	assert_int_equal(r.drive_ios, r.host_ios - c.hits);
	rig_free(g);
	test_free(g);
	/* always: every random miss reads its 4 KiB and 64 KiB past it, in one command. */
	struct iolab_ctl_params al = cached(IOLAB_WP_THROUGH, true, IOLAB_RA_ALWAYS);
	g = test_malloc(sizeof(*g));
	rig_init(g, &al, 0, IOLAB_HOST_NONE);
	run(g, &rnd, &r);
	iolab_comp_controller_report(&g->ctl, &c);
	print_message("random 4k reads, always: host %llu bytes, drive %llu bytes in %llu I/Os, "
		      "%llu hits\n", (unsigned long long)r.host_bytes, (unsigned long long)r.drive_bytes,
		      (unsigned long long)r.drive_ios, (unsigned long long)c.hits);
	assert_int_equal(r.drive_ios, r.host_ios - c.hits);
	assert_int_equal(r.drive_bytes, r.drive_ios * (4096 + 65536));
	rig_free(g);
	test_free(g);
}

/* (f) Sequential 4 KiB writes, write-back: destage writes the dirty run in address order, up to
 * 1 MiB at a time, so the drive sees a small fraction of the host's writes. */
static void test_coalesce(void **state)
{
	(void)state;
	struct iolab_ctl_params wb = cached(IOLAB_WP_BACK, true, IOLAB_RA_NONE);
	struct load l = {.pat = SEQUENTIAL, .write = true, .qd = 16, .n = 50000};
	struct result r, d;
	run_fresh(&wb, 0, IOLAB_HOST_NONE, &l, &r);
	struct load dl = {.pat = SEQUENTIAL, .write = true, .qd = 16, .n = 5000};
	run_fresh(NULL, 0, IOLAB_HOST_NONE, &dl, &d);
	print_message("sequential 4k writes QD 16: write-back %llu host writes, %llu drive writes, "
		      "%.1f IOPS (drive alone %.1f IOPS)\n", (unsigned long long)r.host_ios,
		      (unsigned long long)r.drive_writes, r.iops, d.iops);
	assert_true(r.drive_writes * 100 < r.host_ios);
	/* The drive alone combines sequential writes in its segment (atlas10k: Combine seq
	 * writes = 1, DiskSim 4.0 manual 3.4.5 p20), so it streams them at its interface rate;
	 * the controller's destage is still faster. */
	assert_true(r.iops > 1.5 * d.iops);
}

/* (g) 100 us per command, every read a hit: at most 10,000 commands a second, and the
 * processor busy nearly all the time. */
static void test_overhead(void **state)
{
	(void)state;
	struct iolab_ctl_params p = cached(IOLAB_WP_THROUGH, true, IOLAB_RA_NONE);
	p.overhead_ns = 100000;
	struct rig *g = test_malloc(sizeof(*g));
	rig_init(g, &p, 0, IOLAB_HOST_NONE);
	struct load warm = {.pat = SEQUENTIAL, .qd = 4, .n = 256};
	struct load hits = {.pat = REGION, .region = 2048, .qd = 16, .n = 20000};
	struct result w, r;
	run(g, &warm, &w);
	struct iolab_comp_report c0, c1;
	iolab_comp_controller_report(&g->ctl, &c0);
	uint64_t t0 = g->s.now;
	run(g, &hits, &r);
	iolab_comp_controller_report(&g->ctl, &c1);
	double util = (c1.busy_ns - c0.busy_ns) / (double)(g->s.now - t0);
	print_message("100 us per command, hits at QD 16: %.1f IOPS, controller utilization %.4f, mean "
		      "queue %.2f\n", r.iops, util, (c1.resident_ns - c0.resident_ns) / (double)(g->s.now - t0));
	assert_int_equal(r.drive_ios, 0);
	assert_true(r.iops <= 10000.0 + 1e-6 && r.iops > 9900);
	assert_true(util > 0.99 && util <= 1.0 + 1e-9);
	rig_free(g);
	test_free(g);
}

/* The cache's rules by hand, lines of 8 blocks: a lookup names the first and last block
 * missing; LRU eviction skips what was touched; destage walks dirty blocks upward from where
 * it was (from the middle of a line too), wraps to the lowest, joins adjacent dirty blocks
 * across lines, cuts at multiples of the limit, and skips blocks already being written. */
static void test_cache_rules(void **state)
{
	(void)state;
	struct ctl_cache c;
	uint64_t first = 0, last = 0, lo, hi;
	assert_int_equal(ctl_cache_init(&c, 2, 8, UINT64_MAX), 0);
	assert_false(ctl_cache_lookup(&c, 3, 13, &first, &last));
	assert_int_equal(first, 3);
	assert_int_equal(last, 12);
	ctl_cache_fill(&c, 0, 4);
	ctl_cache_fill(&c, 8, 16);
	assert_false(ctl_cache_lookup(&c, 0, 12, &first, &last)); /* 4..7 missing */
	assert_int_equal(first, 4);
	assert_int_equal(last, 7);
	assert_true(ctl_cache_lookup(&c, 9, 16, &first, &last));
	ctl_cache_touch(&c, 0, 1); /* line 0 used last: line 1 goes first */
	ctl_cache_fill(&c, 16, 24);
	assert_true(ctl_cache_lookup(&c, 0, 4, &first, &last));
	assert_false(ctl_cache_lookup(&c, 8, 16, &first, &last));
	/* Both lines dirty: no room for a third until one is destaged. */
	ctl_cache_write(&c, 0, 8);
	ctl_cache_write(&c, 16, 20);
	assert_int_equal(ctl_cache_pinned(&c), 2);
	assert_false(ctl_cache_room(&c, 40, 48));
	assert_true(ctl_cache_room(&c, 2, 6)); /* present already */
	assert_true(ctl_cache_destage(&c, 0, 2048, &lo, &hi));
	assert_int_equal(lo, 0);
	assert_int_equal(hi, 8);
	assert_false(ctl_cache_room(&c, 40, 48)); /* in flight still pins it */
	ctl_cache_destaged(&c, 0, 8);
	assert_true(ctl_cache_room(&c, 40, 48));
	ctl_cache_free(&c);

	assert_int_equal(ctl_cache_init(&c, 16, 8, UINT64_MAX), 0);
	ctl_cache_write(&c, 80, 88);
	ctl_cache_write(&c, 16, 24);
	ctl_cache_write(&c, 24, 32);
	ctl_cache_write(&c, 40, 44);
	assert_int_equal(ctl_cache_dirty_blocks(&c), 28);
	const uint64_t want[][2] = {{30, 32}, {40, 44}, {80, 88}, {16, 30}};
	uint64_t from = 30;
	for (unsigned i = 0; i < 4; i++) {
		assert_true(ctl_cache_destage(&c, from, 2048, &lo, &hi));
		assert_int_equal(lo, want[i][0]);
		assert_int_equal(hi, want[i][1]);
		from = hi;
	}
	assert_false(ctl_cache_destage(&c, from, 2048, &lo, &hi));
	assert_int_equal(ctl_cache_dirty_blocks(&c), 28); /* all in flight */
	/* Written again while in flight: dirty, but not destaged twice at once. */
	ctl_cache_write(&c, 80, 84);
	assert_false(ctl_cache_destage(&c, 0, 2048, &lo, &hi));
	ctl_cache_destaged(&c, 80, 88);
	assert_true(ctl_cache_destage(&c, 0, 2048, &lo, &hi));
	assert_int_equal(lo, 80);
	assert_int_equal(hi, 84);
	ctl_cache_free(&c);

	assert_int_equal(ctl_cache_init(&c, 16, 8, UINT64_MAX), 0);
	ctl_cache_write(&c, 4, 40);
	for (uint64_t end = 16, at = 4; at < 40; at = end, end += 16) {
		assert_true(ctl_cache_destage(&c, at, 16, &lo, &hi));
		assert_int_equal(lo, at);
		assert_int_equal(hi, end < 40 ? end : 40);
	}
	ctl_cache_free(&c);
}

/* RAID 5 of 4 atlas10k drives, 64 KiB unit: a row holds 3 units (192 KiB), so 1 MiB destage
 * writes cut at 1 MiB boundaries leave partial rows, each written by read-modify-write or
 * reconstruct-write. Told the row, the controller writes whole rows (5 of them, 960 KiB) and
 * sequential data is written without reading anything but the last partial row. Returns the
 * drives' reads. */
static uint64_t raid5_destage_reads(uint64_t row)
{
	struct iolab_disk_model m;
	struct iolab_err err;
	assert_int_equal(iolab_model_open("atlas10k", &m, &err), 0);
	struct iolab_sim s;
	struct iolab_comp host, ctl, vol, d[4], *members[4];
	assert_int_equal(iolab_sim_init(&s, QD_MAX), 0);
	for (unsigned i = 0; i < 4; i++) {
		assert_int_equal(iolab_comp_drive_init(&d[i], &s, &m), 0);
		members[i] = &d[i];
	}
	assert_int_equal(iolab_comp_volume_init(&vol, &s, members, 4, m.blocks, m.block_bytes,
						IOLAB_RAID5, 128, (const int[2]){-1, -1}, 0), 0);
	struct iolab_ctl_params p = cached(IOLAB_WP_BACK, true, IOLAB_RA_NONE);
	assert_int_equal(iolab_comp_controller_init(&ctl, &s, &vol, &p, m.blocks / 128 * 128 * 3,
						    m.block_bytes, 128), 0);
	if (row)
		iolab_comp_controller_set_row(&ctl, row);
	struct iolab_host_params hp = {0};
	assert_int_equal(iolab_comp_host_init(&host, &s, &ctl, &hp, QD_MAX, m.block_bytes), 0);
	static struct iolab_sreq r[5000];
	for (unsigned i = 0; i < 5000; i++) { /* 20 MB of sequential 4 KiB writes */
		r[i] = (struct iolab_sreq){.d = {.lbn = (uint64_t)i * BS, .blocks = BS, .write = true}};
		assert_int_equal(host.ops->submit(&host, &r[i]), 0);
	}
	while (iolab_sim_step(&s))
		;
	assert_int_equal(s.error, 0);
	assert_int_equal(iolab_comp_controller_dirty_bytes(&ctl), 0);
	uint64_t reads = 0, writes = 0;
	for (unsigned i = 0; i < 4; i++) {
		reads += iolab_comp_drive_stats(&d[i])->reads;
		writes += iolab_comp_drive_stats(&d[i])->writes;
	}
	print_message("RAID 5 4x64k, 5000 sequential 4k writes, write-back, row %llu blocks: drive "
		      "reads %llu, writes %llu\n", (unsigned long long)row, (unsigned long long)reads,
		      (unsigned long long)writes);
	iolab_comp_free(&host);
	iolab_comp_free(&ctl);
	iolab_comp_free(&vol);
	for (unsigned i = 0; i < 4; i++)
		iolab_comp_free(&d[i]);
	iolab_sim_free(&s);
	iolab_model_free(&m);
	return reads;
}

static void test_raid5_rows(void **state)
{
	(void)state;
	uint64_t unaligned = raid5_destage_reads(0), rows = raid5_destage_reads(3 * 128);
	assert_true(rows <= 3); /* the last, partial row only */
	assert_true(unaligned > 10 * (rows + 1));
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_cache_rules),
		cmocka_unit_test(test_pass_through),
		cmocka_unit_test(test_write_back),
		cmocka_unit_test(test_idle_flush),
		cmocka_unit_test(test_write_during_destage),
		cmocka_unit_test(test_no_battery),
		cmocka_unit_test(test_reread),
		cmocka_unit_test(test_read_ahead),
		cmocka_unit_test(test_coalesce),
		cmocka_unit_test(test_overhead),
		cmocka_unit_test(test_raid5_rows),
	};
	return cmocka_run_group_tests(tests, NULL, NULL);
}
