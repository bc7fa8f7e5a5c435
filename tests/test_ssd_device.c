/* test_ssd_device.c: the simulated SSD (the `ssd` device kind, src/sim/devices/dev_ssd.c), run
 * through its component ops on a system of its own, with models built here (the figures named
 * in each test), and through the binary for the kind's refusals.
 *
 * - A QD 1 4 KiB read of an idle SSD takes command_ns + tR + channel_command_ns +
 *   4096 / channel_rate + 4096 / iface_rate, to the ns; an MLC page's tR is its position's
 *   (LSB, MSB by page index in its block).
 * - Random reads at QD 256 scale with dies per channel until the channels carry all they can,
 *   then stop, with a flash channel the busiest part, ~100 % busy; the controller takes one
 *   command at a time (1 / command_ns a second at most, the device then the busiest part).
 * - The write cliff: random writes after preconditioning (GC running) reach well below a fresh
 *   SSD's IOPS, and only then do commands wait behind GC (the "gc" phase).
 * - A write-back cache completes writes at interface + DRAM time; reads of pages it holds are
 *   hits; a cached mapping table's miss adds a translation page read (one sector over the
 *   channel), misses on a translation page being read wait for that read; a read of the page the
 *   die read last takes no tR; a suspended program lets a read in after suspend_ns; background
 *   GC runs in idle time, and then no write waits behind GC.
 * - On a modelled channel the data crosses it (the channel the bottleneck at 50 MB/s).
 * - The drive kind hands an SSD model to the ssd kind (same results); the ssd kind refuses a
 *   drive model; the parts (channels, dies) are reported after the device, named after it. */
#include <errno.h>
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <cmocka.h>

#include "helpers.h"
#include "iolab/disk_model.h"
#include "iolab/sim_kinds.h"
#include "iolab/sim_system.h"
#include "iolab/ssd_model.h"
#include "iolab/subsys.h"
#include "iolab/subsys_shape.h"
#include "sim/description/subsys_build.h"

/* A small NVMe SSD: 2 channels of 1 chip, 1 die, 1 plane; SLC 16 KiB pages; no cache; the whole
 * map in DRAM. Tests change what they need. */
static struct iolab_ssd_model small_ssd(void)
{
	return (struct iolab_ssd_model){
		.iface = IOLAB_SSD_NVME, .queues = 1, .queue_entries = 1024,
		.iface_rate = 4000000000ull, .command_ns = 3000,
		.channels = 2, .chips_per_channel = 1, .dies_per_chip = 1, .planes_per_die = 1,
		.blocks_per_plane = 64, .pages_per_block = 64, .page_bytes = 16384,
		.cell = IOLAB_CELL_SLC, .read_ns = {50000, 50000, 50000},
		.program_ns = {500000, 500000, 500000}, .erase_ns = 3000000,
		.channel_rate = 400000000ull, .channel_command_ns = 300,
		.overprovisioning = 0.125, .allocation = IOLAB_ALLOC_STATIC,
		.allocation_order = "CWDP", .gc_policy = IOLAB_GC_GREEDY, .rga_choices = 8,
		.gc_threshold = 0.05, .ideal_mapping = true, .cmt_entry_bytes = 4,
	};
}

/* One SSD of model m on a system of its own, as a subsystem line `KIND d model=...` builds it. */
struct rig {
	struct iolab_subsys *s;
	struct iolab_ssd_model m;
	struct iolab_sim sim;
	struct iolab_comp c;
	struct iolab_sreq *req;
	unsigned qd;
	uint64_t rng, span_blocks;
};

static void rig_up(struct rig *g, const struct iolab_ssd_model *m, const struct iolab_kind *kind,
		   unsigned qd)
{
	memset(g, 0, sizeof(*g));
	g->m = *m;
	g->s = calloc(1, sizeof(*g->s));
	assert_non_null(g->s);
	g->s->nmodel = 1;
	snprintf(g->s->model[0].name, sizeof(g->s->model[0].name), "test-ssd");
	g->s->model[0].ssd = &g->m;
	g->s->ndrive = 1;
	g->s->drive[0] = (struct iolab_sub_drive){.name = "d", .channel = -1, .model = 0,
						  .write_cache = -1, .kind = kind};
	struct iolab_err err = {0};
	const struct iolab_kind *k = iolab_device_kind(g->s, &g->s->drive[0]);
	assert_ptr_equal(k, &iolab_kind_ssd);
	assert_int_equal(k->device->check(g->s, &g->s->drive[0], &err), 0);
	assert_int_equal(iolab_sim_init(&g->sim, qd), 0);
	/* built by the line's own kind: a drive line hands over */
	const struct iolab_kind *line = kind ? kind : &iolab_kind_drive;
	assert_int_equal(line->device->build(&g->c, &g->sim, g->s, &g->s->drive[0], NULL, NULL), 0);
	g->req = calloc(qd, sizeof(*g->req));
	g->qd = qd;
	g->rng = 12345;
	uint32_t bb;
	k->device->geometry(g->s, &g->s->drive[0], &g->span_blocks, &bb);
	assert_int_equal(bb, 512);
}

static void rig_down(struct rig *g)
{
	iolab_comp_free(&g->c);
	iolab_sim_free(&g->sim);
	free(g->req);
	free(g->s);
}

static uint64_t next_rand(struct rig *g)
{
	g->rng ^= g->rng << 13;
	g->rng ^= g->rng >> 7;
	g->rng ^= g->rng << 17;
	return g->rng;
}

static void submit_at(struct rig *g, struct iolab_sreq *r, uint64_t lbn, uint32_t blocks, bool write)
{
	*r = (struct iolab_sreq){.d = {.lbn = lbn, .blocks = blocks, .write = write}};
	assert_int_equal(g->c.ops->submit(&g->c, r), 0);
}

/* One request alone: its latency. */
static uint64_t one(struct rig *g, uint64_t lbn, uint32_t blocks, bool write)
{
	struct iolab_sreq *r = &g->req[0];
	uint64_t t0 = g->sim.now;
	submit_at(g, r, lbn, blocks, write);
	while (!g->sim.ndone)
		assert_true(iolab_sim_step(&g->sim));
	assert_ptr_equal(g->sim.done[0], r);
	g->sim.ndone = 0;
	return r->d.t_done - t0;
}

/* n random requests of `blocks` blocks (page-aligned) kept qd in flight: IOPS in virtual time. */
static double closed_loop(struct rig *g, uint64_t n, uint32_t blocks, bool write)
{
	uint64_t units = g->span_blocks / blocks, started = 0, finished = 0, t0 = g->sim.now;
	for (unsigned i = 0; i < g->qd; i++, started++)
		submit_at(g, &g->req[i], next_rand(g) % units * blocks, blocks, write);
	while (finished < n) {
		assert_true(iolab_sim_step(&g->sim));
		for (unsigned i = 0; i < g->sim.ndone; i++, finished++)
			if (started < n) {
				submit_at(g, g->sim.done[i], next_rand(g) % units * blocks, blocks, write);
				started++;
			}
		g->sim.ndone = 0;
	}
	while (iolab_sim_step(&g->sim)) /* the rest */
		g->sim.ndone = 0;
	return (double)n * 1e9 / (double)(g->sim.now - t0);
}

static uint64_t xfer(uint64_t bytes, uint64_t rate)
{
	return (bytes * 1000000000ull + rate / 2) / rate;
}

static double phase(const struct iolab_breakdown *b, const char *name)
{
	for (unsigned i = 0; i < b->nphase; i++)
		if (!strcmp(b->phase[i], name))
			return b->ns[i];
	fail_msg("no phase %s", name);
	return 0;
}

static void test_qd1_read_to_the_ns(void **state)
{
	(void)state;
	struct iolab_ssd_model m = small_ssd();
	struct rig g;
	rig_up(&g, &m, &iolab_kind_ssd, 1);
	uint64_t want = m.command_ns + m.read_ns[0] + m.channel_command_ns +
			xfer(4096, m.channel_rate) + xfer(4096, m.iface_rate);
	assert_int_equal(one(&g, 64, 8, false), want);
	/* The phases add up to it: interface (command + transfer), flash, channel. */
	struct iolab_breakdown b = {0};
	g.c.ops->breakdown(&g.c, &b);
	assert_int_equal(b.ios, 1);
	assert_int_equal(b.reads, 1);
	assert_int_equal((uint64_t)phase(&b, "interface"), m.command_ns + xfer(4096, m.iface_rate));
	assert_int_equal((uint64_t)phase(&b, "flash"), m.read_ns[0]);
	assert_int_equal((uint64_t)phase(&b, "channel"), m.channel_command_ns + xfer(4096, m.channel_rate));
	assert_int_equal((uint64_t)(phase(&b, "queue") + phase(&b, "wait") + phase(&b, "gc") +
				    phase(&b, "map") + phase(&b, "cache")), 0);
	rig_down(&g);
}

/* MLC: page 0 of a block is an LSB page, page 1 an MSB page, each with its own tR. */
static void test_mlc_page_latency(void **state)
{
	(void)state;
	struct iolab_ssd_model m = small_ssd();
	m.channels = 1;
	m.cell = IOLAB_CELL_MLC;
	m.read_ns[0] = 40000;
	m.read_ns[1] = 90000;
	struct rig g;
	rig_up(&g, &m, &iolab_kind_ssd, 1);
	one(&g, 0, 32, true);  /* logical page 0: page 0 of the open block */
	one(&g, 32, 32, true); /* logical page 1: page 1 */
	uint64_t rest = m.command_ns + m.channel_command_ns + xfer(16384, m.channel_rate) +
			xfer(16384, m.iface_rate);
	assert_int_equal(one(&g, 0, 32, false), rest + 40000);
	assert_int_equal(one(&g, 32, 32, false), rest + 90000);
	rig_down(&g);
}

/* 4 KiB random reads at QD 256 on 1, 2, 4, 8, 16 dies per channel. */
static void test_reads_scale_until_channels_saturate(void **state)
{
	(void)state;
	unsigned dies[] = {1, 2, 4, 8, 16};
	double iops[5];
	struct iolab_comp_report rep[64];
	for (unsigned i = 0; i < 5; i++) {
		struct iolab_ssd_model m = small_ssd();
		m.dies_per_chip = dies[i];
		struct rig g;
		rig_up(&g, &m, &iolab_kind_ssd, 256);
		iops[i] = closed_loop(&g, 40000, 8, false);
		/* the busiest of the device and its parts */
		g.c.ops->report(&g.c, &rep[0]);
		unsigned n = 1 + g.c.ops->parts(&g.c, rep + 1, 63);
		assert_int_equal(n, 1 + m.channels + m.channels * dies[i]);
		unsigned top = 0;
		for (unsigned k = 1; k < n; k++)
			if (rep[k].busy_ns > rep[top].busy_ns)
				top = k;
		double util = rep[top].busy_ns / (double)g.sim.now;
		print_message("%2u dies/channel: %8.0f IOPS, busiest %s (%s) %.1f %%\n", dies[i], iops[i],
			      rep[top].name, rep[top].kind, 100 * util);
		if (i >= 3) { /* the channels carry all they can */
			assert_string_equal(rep[top].kind, "flash-channel");
			assert_true(util > 0.97);
		} else {
			assert_string_equal(rep[top].kind, "flash-die");
		}
		rig_down(&g);
	}
	struct iolab_ssd_model m = small_ssd();
	double channel_iops = m.channels * 1e9 / (double)(m.channel_command_ns + xfer(4096, m.channel_rate));
	assert_true(iops[1] > 1.8 * iops[0]);
	assert_true(iops[2] > 1.5 * iops[1]);
	assert_true(iops[3] > 1.05 * iops[2]);
	assert_true(iops[3] > 0.95 * channel_iops && iops[3] <= channel_iops * 1.001);
	assert_true(iops[4] < 1.01 * iops[3]);
}

/* The controller takes one command at a time: at 20 us a command, 50K IOPS at most, and the
 * device (its controller) is the busiest part. */
static void test_controller_limits(void **state)
{
	(void)state;
	struct iolab_ssd_model m = small_ssd();
	m.dies_per_chip = 8;
	m.command_ns = 20000;
	struct rig g;
	rig_up(&g, &m, &iolab_kind_ssd, 64);
	double iops = closed_loop(&g, 20000, 8, false);
	struct iolab_comp_report rep[32];
	g.c.ops->report(&g.c, &rep[0]);
	unsigned n = 1 + g.c.ops->parts(&g.c, rep + 1, 31), top = 0;
	for (unsigned k = 1; k < n; k++)
		if (rep[k].busy_ns > rep[top].busy_ns)
			top = k;
	assert_true(iops > 0.99 * 50000 && iops <= 50000 * 1.0001);
	assert_string_equal(rep[top].kind, "ssd");
	struct iolab_breakdown b = {0};
	g.c.ops->breakdown(&g.c, &b);
	assert_true(phase(&b, "queue") / (double)b.ios > 10 * m.command_ns); /* waiting for it */
	rig_down(&g);
}

/* A model with GC to do: 4 planes, write-through (no cache). */
static struct iolab_ssd_model gc_ssd(void)
{
	struct iolab_ssd_model m = small_ssd();
	m.chips_per_channel = 2;
	m.page_bytes = 4096;
	return m;
}

/* Without a cache (write-through) and with a write-back one of 16 pages, whose writes wait for
 * a cache slot behind flushes that waited for GC (that share is their "gc" phase). */
static void test_write_cliff_and_gc_phase(void **state)
{
	(void)state;
	for (int cache = 0; cache < 2; cache++) {
		struct iolab_ssd_model m = gc_ssd();
		m.cache_bytes = cache ? 16 * 4096 : 0;
		m.cache_write_back = cache;
		m.cache_page_ns = 1000;
		struct rig fresh, steady;
		rig_up(&fresh, &m, &iolab_kind_ssd, 32);
		rig_up(&steady, &m, &iolab_kind_ssd, 32);
		assert_int_equal(steady.c.ops->precondition(&steady.c), 0);
		double f = closed_loop(&fresh, 3000, 8, true), s = closed_loop(&steady, 3000, 8, true);
		struct iolab_breakdown bf = {0}, bs = {0};
		fresh.c.ops->breakdown(&fresh.c, &bf);
		steady.c.ops->breakdown(&steady.c, &bs);
		struct iolab_comp_report rf, rs;
		fresh.c.ops->report(&fresh.c, &rf);
		steady.c.ops->report(&steady.c, &rs);
		print_message("cache %d: fresh %.0f IOPS (gc %.0f ns), steady %.0f IOPS (gc %.0f ns, "
			      "WA %.2f)\n", cache, f, phase(&bf, "gc"), s, phase(&bs, "gc"),
			      (double)rs.flash.flash_programs / (double)rs.flash.host_pages_written);
		assert_true(s < 0.6 * f);
		assert_true(phase(&bf, "gc") == 0);
		assert_true(phase(&bs, "gc") > 0);
		assert_true(rf.flash_given && rs.flash_given);
		assert_int_equal(rf.flash.gc_pages, 0);
		assert_true(rs.flash.gc_pages > 0 && rs.flash.erases > 0 && rs.flash.gc_ns > 0);
		assert_true(rs.flash.flash_programs > rs.flash.host_pages_written);
		rig_down(&fresh);
		rig_down(&steady);
	}
}

/* Write-back: a write completes at command + interface + DRAM; a read of it then hits. */
static void test_write_back_cache(void **state)
{
	(void)state;
	struct iolab_ssd_model m = small_ssd();
	m.cache_bytes = 4 * 16384;
	m.cache_write_back = true;
	m.cache_page_ns = 2000;
	struct rig g;
	rig_up(&g, &m, &iolab_kind_ssd, 8);
	uint64_t w = one(&g, 0, 32, true);
	assert_int_equal(w, m.command_ns + xfer(16384, m.iface_rate) + m.cache_page_ns);
	uint64_t r = one(&g, 0, 32, false);
	assert_int_equal(r, m.command_ns + m.cache_page_ns + xfer(16384, m.iface_rate));
	struct iolab_breakdown b = {0};
	g.c.ops->breakdown(&g.c, &b);
	assert_int_equal(b.read_hits, 1);
	/* Five more pages at once: the cache holds four unflushed, the fifth waits for a flush. */
	uint64_t t0 = g.sim.now + 10000000; /* the flushes of those two ended long before */
	assert_int_equal(iolab_sim_advance(&g.sim, t0), t0);
	for (unsigned i = 0; i < 5; i++)
		submit_at(&g, &g.req[i], (uint64_t)(i + 1) * 32, 32, true);
	assert_true(g.req[3].d.t_done - t0 < m.program_ns[0]);
	assert_true(g.req[4].d.t_done - t0 > m.program_ns[0]);
	while (iolab_sim_step(&g.sim))
		g.sim.ndone = 0;
	rig_down(&g);
}

/* A cached mapping table of two entries: a miss reads the translation page first. Logical pages
 * 0, 2 and 4 are on die 0 (channel = page mod 2), as is their translation page. A read of the
 * page the die read last needs no tR (its page register holds it). The translation page read
 * moves one sector of it over the channel. */
static void test_mapping_table_miss(void **state)
{
	(void)state;
	struct iolab_ssd_model m = small_ssd();
	m.ideal_mapping = false;
	m.cmt_bytes = 8;
	m.cmt_entry_bytes = 4;
	struct rig g;
	rig_up(&g, &m, &iolab_kind_ssd, 1);
	uint64_t hit = m.command_ns + m.read_ns[0] + m.channel_command_ns + xfer(4096, m.channel_rate) +
		       xfer(4096, m.iface_rate);
	/* a translation read moves one 512-byte sector over the channel, not the page */
	uint64_t map = m.read_ns[0] + m.channel_command_ns + xfer(512, m.channel_rate);
	assert_int_equal(one(&g, 0, 8, false), hit + map);
	assert_int_equal(one(&g, 64, 8, false), hit + map);
	assert_int_equal(one(&g, 0, 8, false), hit);                   /* in the table */
	assert_int_equal(one(&g, 0, 8, false), hit - m.read_ns[0]);    /* in the page register */
	assert_int_equal(one(&g, 128, 8, false), hit + map);           /* page 2 leaves the table */
	assert_int_equal(one(&g, 64, 8, false), hit + map);
	struct iolab_comp_report rep;
	g.c.ops->report(&g.c, &rep);
	assert_int_equal(rep.flash.map_reads, 4);
	assert_int_equal(rep.flash.flash_reads, 4 + 5); /* the register's read is no flash read */
	rig_down(&g);
}

/* Misses on a translation page whose read is in flight wait for it: four reads of pages 0, 2, 4,
 * 6 (die 0; translation page 0 holds entries 0..4095) at once make one translation read, which
 * ends at R = command_ns + tR + channel_command_ns + 512 / channel_rate; the k-th command, taken
 * by the controller at k x command_ns, waits R - k x command_ns for it. A miss after that read
 * ended reads the page again. */
static void test_mapping_reads_in_flight_merge(void **state)
{
	(void)state;
	struct iolab_ssd_model m = small_ssd();
	m.ideal_mapping = false;
	m.cmt_bytes = 64;
	m.cmt_entry_bytes = 4;
	struct rig g;
	rig_up(&g, &m, &iolab_kind_ssd, 4);
	for (unsigned i = 0; i < 4; i++)
		submit_at(&g, &g.req[i], (uint64_t)i * 64, 8, false);
	while (iolab_sim_step(&g.sim))
		g.sim.ndone = 0;
	struct iolab_comp_report rep;
	g.c.ops->report(&g.c, &rep);
	assert_int_equal(rep.flash.map_reads, 1);
	uint64_t ready = m.command_ns + m.read_ns[0] + m.channel_command_ns + xfer(512, m.channel_rate);
	struct iolab_breakdown b = {0};
	g.c.ops->breakdown(&g.c, &b);
	assert_int_equal((uint64_t)phase(&b, "map"), 4 * ready - (1 + 2 + 3 + 4) * m.command_ns);
	one(&g, 8 * 64, 8, false); /* page 8: translation page 0 again, its read long over */
	g.c.ops->report(&g.c, &rep);
	assert_int_equal(rep.flash.map_reads, 2);
	rig_down(&g);
}

/* Program suspension: a read to a die in a program starts after suspend_ns. */
static void test_program_suspension(void **state)
{
	(void)state;
	struct iolab_ssd_model m = small_ssd();
	m.channels = 1;
	m.suspend_program = true;
	m.suspend_ns = 20000;
	for (int with = 0; with < 2; with++) {
		m.suspend_program = with;
		struct rig g;
		rig_up(&g, &m, &iolab_kind_ssd, 2);
		submit_at(&g, &g.req[0], 0, 32, true); /* program runs 500 us */
		uint64_t wdone = g.req[0].d.t_done;
		uint64_t later = g.sim.now + 100000; /* the program runs */
		assert_int_equal(iolab_sim_advance(&g.sim, later), later);
		submit_at(&g, &g.req[1], 32, 8, false);
		uint64_t lat = g.req[1].d.t_done - g.sim.now;
		uint64_t alone = m.command_ns + m.read_ns[0] + m.channel_command_ns +
				 xfer(4096, m.channel_rate) + xfer(4096, m.iface_rate);
		if (with) /* in after suspend_ns */
			assert_int_equal(lat, alone + m.suspend_ns);
		else /* after the program */
			assert_int_equal(lat, wdone - g.sim.now + alone - m.command_ns);
		while (iolab_sim_step(&g.sim))
			g.sim.ndone = 0;
		rig_down(&g);
	}
}

/* Background GC: writes of a preconditioned SSD 100 ms apart. With gc_background, GC collects
 * in the dies' idle time and no write waits behind it; without, writes wait behind GC. */
static void test_background_gc_in_idle_time(void **state)
{
	(void)state;
	double gc_phase[2], gc_flash[2];
	for (int bg = 0; bg < 2; bg++) {
		struct iolab_ssd_model m = gc_ssd();
		m.gc_background = bg ? 0.25 : 0;
		struct rig g;
		rig_up(&g, &m, &iolab_kind_ssd, 1);
		assert_int_equal(g.c.ops->precondition(&g.c), 0);
		for (unsigned i = 0; i < 400; i++) {
			one(&g, next_rand(&g) % (g.span_blocks / 8) * 8, 8, true);
			uint64_t later = g.sim.now + 100000000;
			assert_int_equal(iolab_sim_advance(&g.sim, later), later);
		}
		struct iolab_breakdown b = {0};
		struct iolab_comp_report rep;
		g.c.ops->breakdown(&g.c, &b);
		g.c.ops->report(&g.c, &rep);
		gc_phase[bg] = phase(&b, "gc");
		gc_flash[bg] = rep.flash.gc_ns;
		rig_down(&g);
	}
	print_message("foreground: gc phase %.0f ns, GC %.0f ns; background: %.0f, %.0f\n",
		      gc_phase[0], gc_flash[0], gc_phase[1], gc_flash[1]);
	assert_true(gc_phase[0] > 0);
	assert_true(gc_phase[1] == 0);
	assert_true(gc_flash[1] > 0);
}

/* A drive line of an SSD model is the ssd kind's device: the same times. */
static void test_drive_kind_hands_over(void **state)
{
	(void)state;
	struct iolab_ssd_model m = gc_ssd();
	struct rig a, b;
	rig_up(&a, &m, &iolab_kind_ssd, 16);
	rig_up(&b, &m, NULL, 16);
	assert_ptr_equal(b.c.ops, a.c.ops);
	assert_string_equal(b.c.ops->kind, "ssd");
	double x = closed_loop(&a, 2000, 8, true), y = closed_loop(&b, 2000, 8, true);
	assert_true(x == y);
	assert_int_equal(a.sim.now, b.sim.now);
	rig_down(&a);
	rig_down(&b);
}

/* The ssd kind refuses a drive model, naming it; the drive kind takes it. */
static void test_ssd_kind_refuses_drive_model(void **state)
{
	(void)state;
	char conf[300];
	snprintf(conf, sizeof(conf), "%s/ssd-drive.conf", th_dir);
	th_write_text(conf, "ssd d model=atlas10k\nvolume v level=none drives=d\n");
	struct th_out o = th_iolab("sim", "--config", conf, "--qd", "1", "--time", "1", "--no-db",
				   "--quiet", NULL);
	TH_EXPECT_EXIT(o, 2, "field 'model': 'atlas10k' is a drive model, not an SSD");
	th_write_text(conf, "channel c0 type=ata133\nssd d model=nvme-ssd channel=c0\n"
		      "volume v level=none drives=d\n");
	o = th_iolab("sim", "--config", conf, "--time", "1", "--no-db", "--quiet", NULL);
	TH_EXPECT_EXIT(o, 2, "ssd-drive.conf:2: field 'channel': an SSD does not hold a channel");
	o = th_iolab("sim", "kinds", "ssd", NULL);
	assert_int_equal(o.status, 0);
	assert_non_null(strstr(o.out, "ssd NAME: "));
	th_out_free(&o);
}

/* A subsystem line `drive d model=nvme-ssd` and `ssd d model=nvme-ssd` make the same device;
 * --set of an SSD model's field makes a sweep of it. */
static void test_drive_line_of_ssd_model(void **state)
{
	(void)state;
	char a[300], b[300];
	snprintf(a, sizeof(a), "%s/a.conf", th_dir);
	snprintf(b, sizeof(b), "%s/b.conf", th_dir);
	th_write_text(a, "drive d model=nvme-ssd\nvolume v level=none drives=d\n");
	th_write_text(b, "ssd d model=nvme-ssd\nvolume v level=none drives=d\n");
	struct th_out x = th_iolab("sim", "--config", a, "--pattern", "rand-read", "--bs", "4k", "--qd",
				   "8", "--time", "0.05", "--no-db", "--quiet", "--explain", NULL);
	struct th_out y = th_iolab("sim", "--config", b, "--pattern", "rand-read", "--bs", "4k", "--qd",
				   "8", "--time", "0.05", "--no-db", "--quiet", "--explain", NULL);
	assert_int_equal(x.status, 0);
	assert_int_equal(y.status, 0);
	char *cut_x = strstr(x.out, "simulated subsystem"), *cut_y = strstr(y.out, "simulated subsystem");
	assert_non_null(cut_x);
	assert_non_null(cut_y);
	*cut_x = *cut_y = 0; /* the lines after name the file */
	assert_string_equal(x.out, y.out);
	assert_non_null(strstr(x.out, " d            ssd "));
	th_out_free(&x);
	th_out_free(&y);
	x = th_iolab("sim", "--model", "nvme-ssd", "--set", "drive.overprovisioning=7%,28%", "--pattern",
		     "rand-read", "--time", "0.02", "--no-db", "--quiet", NULL);
	assert_int_equal(x.status, 0);
	assert_non_null(strstr(x.out, "\n  1 7% "));
	assert_non_null(strstr(x.out, "\n  2 28% "));
	th_out_free(&x);
}

/* On a modelled channel of 50 MB/s the SSD's data crosses it: the channel is the bottleneck. */
static void test_on_a_channel(void **state)
{
	(void)state;
	char conf[300];
	snprintf(conf, sizeof(conf), "%s/chan.conf", th_dir);
	th_write_text(conf, "channel c0 type=50M\nssd d model=nvme-ssd channel=c0\n"
		      "volume v level=none drives=d\n");
	struct th_out o = th_iolab("sim", "--config", conf, "--pattern", "rand-read", "--bs", "128k",
				   "--qd", "4", "--time", "0.5", "--no-db", "--quiet", "--explain", NULL);
	assert_int_equal(o.status, 0);
	assert_non_null(strstr(o.out, "  1 bottleneck: c0 ("));
	assert_non_null(strstr(o.out, "\n  1 c0           channel      100.0 "));
	th_out_free(&o);
}

/* The path of `sim --model` on an SSD model: the device's report, then its channels and dies
 * named "<device>.ch0", ... */
static void test_parts_in_path_reports(void **state)
{
	(void)state;
	struct iolab_ssd_model m = small_ssd();
	struct iolab_disk_model dm = {.name = "test-ssd", .ssd = &m, .block_bytes = 512,
				      .blocks = iolab_ssd_logical_pages(&m) * 32, .queue_depth = 1024};
	struct iolab_subsys *s = calloc(1, sizeof(*s));
	assert_non_null(s);
	struct iolab_sim_shape sh = {.model = &dm, .failed = {-1, -1}, .drive_cache = -1};
	struct iolab_err err = {0};
	if (iolab_subsys_shape(&sh, s, &err))
		fail_msg("%s", err.msg);
	assert_ptr_equal(iolab_device_kind(s, &s->drive[0]), &iolab_kind_ssd);
	struct iolab_sim sim;
	struct iolab_path p;
	assert_int_equal(iolab_sim_init(&sim, 4), 0);
	if (iolab_path_build(&p, &sim, s, 4, &err))
		fail_msg("%s", err.msg);
	struct iolab_comp_report rep[16];
	unsigned n = iolab_path_reports(&p, rep, 16);
	assert_int_equal(n, iolab_path_reports(&p, NULL, 0));
	assert_int_equal(n, 2 + 2 + 2); /* host, the SSD, 2 channels, 2 dies */
	assert_string_equal(rep[1].name, "drive");
	assert_string_equal(rep[1].kind, "ssd");
	assert_true(rep[1].flash_given);
	assert_string_equal(rep[2].name, "drive.ch0");
	assert_string_equal(rep[2].kind, "flash-channel");
	assert_true(rep[2].rated_mb_s == 400);
	assert_string_equal(rep[5].name, "drive.die1");
	assert_string_equal(rep[5].kind, "flash-die");
	assert_int_equal(iolab_path_reports(&p, rep, 3), n); /* cut short: still the count */
	iolab_path_free(&p);
	iolab_sim_free(&sim);
	free(s);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_qd1_read_to_the_ns),
		cmocka_unit_test(test_mlc_page_latency),
		cmocka_unit_test(test_reads_scale_until_channels_saturate),
		cmocka_unit_test(test_controller_limits),
		cmocka_unit_test(test_write_cliff_and_gc_phase),
		cmocka_unit_test(test_write_back_cache),
		cmocka_unit_test(test_mapping_table_miss),
		cmocka_unit_test(test_mapping_reads_in_flight_merge),
		cmocka_unit_test(test_program_suspension),
		cmocka_unit_test(test_background_gc_in_idle_time),
		cmocka_unit_test(test_drive_kind_hands_over),
		cmocka_unit_test(test_parts_in_path_reports),
		cmocka_unit_test_setup_teardown(test_ssd_kind_refuses_drive_model, th_dir_setup,
						th_dir_teardown),
		cmocka_unit_test_setup_teardown(test_drive_line_of_ssd_model, th_dir_setup,
						th_dir_teardown),
		cmocka_unit_test_setup_teardown(test_on_a_channel, th_dir_setup, th_dir_teardown),
	};
	return cmocka_run_group_tests(tests, NULL, NULL);
}
