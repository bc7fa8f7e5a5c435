/* test_sim_controller.c: the controller (comp_controller.c) in a path built by hand, host ->
 * controller -> atlas10k drive, under a closed-loop load run here on the event queue: a
 * controller with no cache and no time per command changes nothing; write-back hides write
 * latency while the dirty data fits and falls to what destage sustains once the cache is full;
 * write-back without a battery is write-through; re-reads are hits with no drive I/O; adaptive
 * read-ahead serves sequential reads from the cache and stays off for random ones; destage
 * coalesces sequential small writes; the time per command caps the rate. The behaviours are
 * those of DiskSim's controller cache (docs/subsystems.md, "The controller"; DiskSim 4.0
 * manual, the cache's write scheme and prefetch parameters). */
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

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_pass_through),
	};
	return cmocka_run_group_tests(tests, NULL, NULL);
}
