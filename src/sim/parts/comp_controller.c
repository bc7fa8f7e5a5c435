/* comp_controller.c: a disk array controller as a component, above one volume or drive: its
 * processor's time per command, and its cache (ctl_cache.c) with read-ahead and a write policy.
 *
 * Processor: one; each command from above occupies it for overhead_ns, in arrival order, before
 * it is looked up in the cache or sent below. Its busy time is the report's busy_ns.
 * Reads: a read whose blocks are all in the cache (dirty ones included) completes after the
 * processor, with no I/O below (a hit). Otherwise one read goes below for the span from the first
 * to the last block missing, extended by read-ahead (always: every miss; adaptive: while the
 * last two reads each began where the one before ended); the data read enters the cache.
 * Writes, write-through: sent below; once done, their data is in the cache, clean. Write-back
 * (with a battery): the write completes once its blocks are in the cache, dirty. Destage writes
 * the dirty blocks below in the background while more than a quarter of the lines are pinned
 * (dirty or being written), while writes wait for room, and while the controller is idle (no
 * command of the host in it once everything of an instant has arrived); at most
 * DESTAGE_INFLIGHT at once, in elevator order (ascending from where the last one ended,
 * wrapping), each covering adjacent dirty blocks up to a limit, cut at multiples of it. A write
 * that finds no room (every line pinned) waits, in order, until destage frees lines. A write to
 * blocks being destaged makes them dirty again. Write-back without a battery, or without a
 * cache, acts as write-through (iolab_ctl_warning says so).
 * Without a cache and with overhead 0 the controller is a pure pass-through: it refuses what the
 * part below refuses, so the host queues exactly as without it.
 * The part below may refuse a command (QUEUE FULL): it then waits here, in arrival order, until
 * one of the controller's commands below completes. The controller itself takes every command. */
#include <errno.h>
#include <stdlib.h>
#include <string.h>

#include "sim/parts/ctl_cache.h"
#include "iolab/sim_kinds.h"
#include "iolab/sim_system.h"
#include "iolab/workload.h"
#include "sim/core/ptr_ring.h"
#include "iolab/subsys.h"

/* Lines of 4 KiB: the page size of the hosts and the commonest small transfer, so a 4 KiB
 * random write pins one line, not a larger stretch of the cache, while a 64 MiB cache is 16,384
 * lines, few enough to look up and walk quickly. */
#define LINE_BYTES 4096
/* Destage writes in flight at once: enough to give a drive that reorders a choice, and to keep
 * several drives of a volume writing, few enough that a read queued behind them at a drive
 * without command queuing waits for only a few writes. */
#define DESTAGE_INFLIGHT 4
/* The longest destage write, unless one stripe row of the volume is longer. */
#define DESTAGE_MAX_BYTES (1U << 20)

enum { EV_CMD, EV_IDLE };

/* A command the controller sends below: for a request from above (parent), a read into the
 * cache (a fill: the reads that wait for it are its waiters), or a destage. */
struct piece {
	struct iolab_sreq s;  /* first: the part below hands back &s */
	bool destage, fill;
	uint64_t lo, hi;      /* blocks that enter the cache (a destage: that it wrote) */
	struct iolab_sreq **wait; /* a fill: the reads from above waiting for it, in arrival order */
	unsigned nwait, waitcap;
	struct piece *next;   /* in the free list */
};

struct ctl {
	uint64_t overhead;
	bool pass;            /* no cache, no overhead */
	bool cache, wback;
	unsigned ra;          /* enum iolab_read_ahead */
	uint64_t ra_blocks, blocks, unit, row, limit;
	uint32_t block_bytes;
	struct ctl_cache cc;
	uint64_t proc_free;   /* when the processor is next free */
	struct ptr_ring below;    /* pieces the part below refused, waiting */
	struct ptr_ring room;     /* write-back writes waiting for room in the cache */
	unsigned inside;      /* requests from above not yet finished */
	unsigned destaging;   /* destage writes in flight */
	uint64_t cursor;      /* where the last destage write ended */
	bool idle, idle_posted;
	uint64_t prev_end;    /* where the last read ended */
	unsigned seq;         /* reads in a row that began where the one before ended */
	struct piece **fills; /* the fills in flight (sent or waiting to be) */
	unsigned nfills, fillcap;
	struct piece *free, **all;
	unsigned npieces, allcap;
	struct iolab_comp_report rep;
};

static void fail(struct iolab_comp *c, int rc)
{
	if (rc && !c->sim->error)
		c->sim->error = rc;
}

static struct piece *new_piece(struct iolab_comp *c, struct ctl *t)
{
	struct piece *p = t->free;
	if (p) {
		t->free = p->next;
		return p;
	}
	if (t->npieces == t->allcap) {
		unsigned cap = t->allcap ? t->allcap * 2 : 64;
		struct piece **all = realloc(t->all, cap * sizeof(*all));
		if (!all) {
			fail(c, -ENOMEM);
			return NULL;
		}
		t->all = all;
		t->allcap = cap;
	}
	if ((p = calloc(1, sizeof(*p))))
		t->all[t->npieces++] = p;
	else
		fail(c, -ENOMEM);
	return p;
}

static bool below_full(const struct iolab_comp *c)
{
	return c->below->ops->full && c->below->ops->full(c->below);
}

/* Sends blocks [lbn, lbn + blocks) below for parent (NULL: a destage, or a fill when fill),
 * arriving at t_arrive, as a read, a write or a trim (op: enum iolab_op, or a bool: write);
 * [lo, hi) enters the cache when it is done. Returns the piece, or NULL when out of memory. */
static struct piece *send(struct iolab_comp *c, struct ctl *t, struct iolab_sreq *parent,
			  uint64_t lbn, uint64_t blocks, unsigned op, uint64_t t_arrive, uint64_t lo,
			  uint64_t hi, bool fill)
{
	struct piece *p = new_piece(c, t);
	if (!p)
		return NULL;
	struct iolab_sreq **wait = p->wait;
	unsigned waitcap = p->waitcap;
	*p = (struct piece){.s = {.d = {.lbn = lbn, .blocks = (uint32_t)blocks,
					.write = op == IOLAB_OP_WRITE, .trim = op == IOLAB_OP_TRIM,
					.t_arrive = t_arrive},
				  .from = c, .parent = parent},
			    .destage = !parent && !fill, .fill = fill, .lo = lo, .hi = hi,
			    .wait = wait, .waitcap = waitcap};
	if (!t->below.n && !below_full(c)) {
		int rc = c->below->ops->submit(c->below, &p->s);
		if (rc != -EBUSY) {
			fail(c, rc);
			return p;
		}
	}
	fail(c, ptr_ring_push(&t->below, p));
	return p;
}

/* The part below has room again: sends what waits for it. */
static void drain(struct iolab_comp *c, struct ctl *t)
{
	while (t->below.n && !below_full(c)) {
		struct piece *p = ptr_ring_pop(&t->below);
		fail(c, c->below->ops->submit(c->below, &p->s));
	}
}

/* Asks for a look once everything of this instant has arrived: is the controller idle? */
static void want_idle(struct iolab_comp *c, struct ctl *t)
{
	if (t->wback && !t->inside && !t->idle_posted && ctl_cache_pinned(&t->cc)) {
		t->idle_posted = true;
		iolab_sim_at_late(c, c->sim->now, EV_IDLE, NULL);
	}
}

/* r is done: counted, and passed up. */
static void finish(struct iolab_comp *c, struct ctl *t, struct iolab_sreq *r)
{
	r->d.t_done = c->sim->now;
	t->rep.ios++;
	t->rep.bytes += r->d.trim ? 0 : (uint64_t)r->d.blocks * t->block_bytes;
	t->rep.resident_ns += (double)(r->d.t_done - r->d.t_arrive);
	t->inside--;
	want_idle(c, t);
	iolab_sim_done(c->sim, r);
}

/* Starts destage writes while there is reason to and room for more in flight. */
static void destage(struct iolab_comp *c, struct ctl *t)
{
	while (t->wback && t->destaging < DESTAGE_INFLIGHT) {
		bool want = t->room.n || (uint64_t)ctl_cache_pinned(&t->cc) * 4 > t->cc.n || t->idle;
		uint64_t lo, hi;
		if (!want || !ctl_cache_destage(&t->cc, t->cursor, t->limit, &lo, &hi))
			return;
		t->cursor = hi < t->blocks ? hi : 0;
		if (!send(c, t, NULL, lo, hi - lo, true, c->sim->now, lo, hi, false))
			return;
		t->destaging++;
	}
}

/* Write-back writes waiting for room, in order, as far as there is room. */
static void take_waiting(struct iolab_comp *c, struct ctl *t)
{
	while (t->room.n) {
		struct iolab_sreq *r = t->room.p[t->room.head];
		if (!ctl_cache_room(&t->cc, r->d.lbn, r->d.lbn + r->d.blocks))
			return;
		ptr_ring_pop(&t->room);
		ctl_cache_write(&t->cc, r->d.lbn, r->d.lbn + r->d.blocks);
		finish(c, t, r);
	}
}

/* r waits for fill p; false when out of memory. */
static bool wait_for(struct iolab_comp *c, struct piece *p, struct iolab_sreq *r)
{
	if (p->nwait == p->waitcap) {
		unsigned cap = p->waitcap ? p->waitcap * 2 : 4;
		struct iolab_sreq **w = realloc(p->wait, cap * sizeof(*w));
		if (!w) {
			fail(c, -ENOMEM);
			return false;
		}
		p->wait = w;
		p->waitcap = cap;
	}
	p->wait[p->nwait++] = r;
	r->pieces++;
	return true;
}

/* The fill in flight that holds block b, or NULL. */
static struct piece *fill_holding(const struct ctl *t, uint64_t b)
{
	for (unsigned i = 0; i < t->nfills; i++)
		if (t->fills[i]->lo <= b && b < t->fills[i]->hi)
			return t->fills[i];
	return NULL;
}

/* Sends a fill of [lo, hi) and keeps it in flight; NULL when out of memory. */
static struct piece *start_fill(struct iolab_comp *c, struct ctl *t, uint64_t lo, uint64_t hi)
{
	if (t->nfills == t->fillcap) {
		unsigned cap = t->fillcap ? t->fillcap * 2 : 16;
		struct piece **f = realloc(t->fills, cap * sizeof(*f));
		if (!f) {
			fail(c, -ENOMEM);
			return NULL;
		}
		t->fills = f;
		t->fillcap = cap;
	}
	struct piece *p = send(c, t, NULL, lo, hi - lo, false, c->sim->now, lo, hi, true);
	if (p)
		t->fills[t->nfills++] = p;
	return p;
}

/* A read that misses waits for the fills in flight that hold blocks it lacks, and reads what
 * none of them holds: one fill from the first block not in flight to the last, extended by
 * read-ahead (always: every such read; adaptive: while the last two reads each began where the
 * one before ended) ahead of the read, past what is already in flight. So a sequential stream
 * with many reads in flight reads each block once, ahead of its furthest read, and its reads
 * find their blocks in the cache or on their way (served from the cache, with no read of their
 * own: hits), as with one read in flight. (Adaptive read-ahead of array controllers: a stream
 * detected over the last reads is read ahead of the furthest one; LSI MegaRAID's and HP Smart
 * Array's documented behaviour.) */
static void process_read(struct iolab_comp *c, struct ctl *t, struct iolab_sreq *r)
{
	uint64_t lo = r->d.lbn, hi = lo + r->d.blocks, first, last;
	t->seq = lo == t->prev_end ? t->seq + 1 : 0;
	t->prev_end = hi;
	if (ctl_cache_lookup(&t->cc, lo, hi, &first, &last)) {
		t->rep.hits++;
		ctl_cache_touch(&t->cc, lo, hi);
		finish(c, t, r);
		return;
	}
	uint64_t end = last + 1;
	if (t->ra == IOLAB_RA_ALWAYS || (t->ra == IOLAB_RA_ADAPTIVE && t->seq >= 2)) {
		uint64_t ahead = hi + t->ra_blocks < t->blocks ? hi + t->ra_blocks : t->blocks;
		end = ahead > end ? ahead : end;
	}
	r->pieces = 0;
	for (unsigned i = 0; i < t->nfills; i++)
		if (t->fills[i]->lo <= last && t->fills[i]->hi > first && !wait_for(c, t->fills[i], r))
			return;
	uint64_t a = first, b = end; /* [a, b): what no fill in flight holds at either end */
	for (struct piece *p; (p = fill_holding(t, a));)
		a = p->hi;
	for (struct piece *p; b > a && (p = fill_holding(t, b - 1));)
		b = p->lo;
	struct piece *own = a < b ? start_fill(c, t, a, b) : NULL;
	if (own && a <= last && !wait_for(c, own, r))
		return;
	if (!own || a > last) /* its blocks were all on their way: no read of its own */
		t->rep.hits++;
	if (!r->pieces) /* out of memory for its fill (the run fails): not left hanging */
		finish(c, t, r);
}

/* Fill p is done: its blocks enter the cache, and the reads that waited for it and for no
 * other fill finish, in their arrival order. */
static void fill_done(struct iolab_comp *c, struct ctl *t, struct piece *p)
{
	for (unsigned i = 0; i < t->nfills; i++)
		if (t->fills[i] == p) {
			t->fills[i] = t->fills[--t->nfills];
			break;
		}
	ctl_cache_fill(&t->cc, p->lo, p->hi);
	for (unsigned i = 0; i < p->nwait; i++)
		if (!--p->wait[i]->pieces)
			finish(c, t, p->wait[i]);
}

static void process_write_back(struct iolab_comp *c, struct ctl *t, struct iolab_sreq *r)
{
	uint64_t lo = r->d.lbn, hi = lo + r->d.blocks;
	if (r->d.blocks && (hi - 1) / t->cc.lb - lo / t->cc.lb + 1 > t->cc.n) {
		/* Larger than the whole cache: written through; the cache's older data of it is
		 * no longer dirty. */
		ctl_cache_undirty(&t->cc, lo, hi);
		send(c, t, r, lo, r->d.blocks, true, c->sim->now, lo, hi, false);
	} else if (!t->room.n && ctl_cache_room(&t->cc, lo, hi)) {
		ctl_cache_write(&t->cc, lo, hi);
		finish(c, t, r);
	} else {
		fail(c, ptr_ring_push(&t->room, r));
	}
	destage(c, t);
}

/* r has had its processor time: served from the cache, or sent below. */
static void process(struct iolab_comp *c, struct ctl *t, struct iolab_sreq *r)
{
	uint64_t lo = r->d.lbn, hi = lo + r->d.blocks;
	if (r->d.trim) { /* the cache drops the range (its dirty data discarded); the trim goes on */
		if (t->cache)
			ctl_cache_discard(&t->cc, lo, hi);
		send(c, t, r, lo, r->d.blocks, IOLAB_OP_TRIM, c->sim->now, 0, 0, false);
	} else if (!t->cache)
		send(c, t, r, lo, r->d.blocks, r->d.write, c->sim->now, 0, 0, false);
	else if (!r->d.write)
		process_read(c, t, r);
	else if (t->wback)
		process_write_back(c, t, r);
	else
		send(c, t, r, lo, r->d.blocks, true, c->sim->now, lo, hi, false);
}

/* A cache line that could not be made (out of memory) fails the run, as any allocation does. */
static void check_cache(struct iolab_comp *c, const struct ctl *t)
{
	if (t->cache && t->cc.nomem)
		fail(c, -ENOMEM);
}

static int ctl_submit(struct iolab_comp *c, struct iolab_sreq *r)
{
	struct ctl *t = c->priv;
	uint64_t now = c->sim->now;
	if (r->d.t_arrive < now)
		r->d.t_arrive = now; /* when it reached the controller */
	t->inside++;
	if (t->pass) {
		send(c, t, r, r->d.lbn, r->d.blocks, r->d.trim ? IOLAB_OP_TRIM : r->d.write,
		     r->d.t_arrive, 0, 0, false);
		return 0;
	}
	t->idle = false;
	uint64_t start = r->d.t_arrive > t->proc_free ? r->d.t_arrive : t->proc_free;
	t->proc_free = start + t->overhead;
	t->rep.busy_ns += (double)t->overhead;
	if (t->proc_free == now)
		process(c, t, r);
	else
		iolab_sim_at(c, t->proc_free, EV_CMD, r);
	check_cache(c, t);
	return 0;
}

static bool ctl_full(const struct iolab_comp *c)
{
	const struct ctl *t = c->priv;
	return t->pass && (t->below.n || below_full(c));
}

static void ctl_complete(struct iolab_comp *c, struct iolab_sreq *s)
{
	struct ctl *t = c->priv;
	struct piece *p = (struct piece *)s;
	drain(c, t);
	if (p->destage) {
		t->destaging--;
		ctl_cache_destaged(&t->cc, p->lo, p->hi);
		take_waiting(c, t);
		destage(c, t);
	} else if (p->fill) {
		fill_done(c, t, p);
	} else {
		if (p->hi > p->lo)
			ctl_cache_fill(&t->cc, p->lo, p->hi);
		finish(c, t, p->s.parent);
	}
	p->next = t->free;
	t->free = p;
	check_cache(c, t);
}

static void ctl_event(struct iolab_comp *c, unsigned what, void *arg)
{
	struct ctl *t = c->priv;
	if (what == EV_CMD) {
		process(c, t, arg);
		check_cache(c, t);
		return;
	}
	t->idle_posted = false; /* EV_IDLE: everything of this instant has arrived */
	if (!t->inside) {
		t->idle = true;
		destage(c, t);
	}
}

static void ctl_cleanup(struct iolab_comp *c)
{
	struct ctl *t = c->priv;
	if (!t)
		return;
	for (unsigned i = 0; i < t->npieces; i++) {
		free(t->all[i]->wait);
		free(t->all[i]);
	}
	free(t->all);
	free(t->fills);
	ptr_ring_free(&t->below);
	ptr_ring_free(&t->room);
	ctl_cache_free(&t->cc);
	free(t);
}

const struct iolab_comp_ops iolab_comp_controller = {
	.kind = "controller",
	.version = IOLAB_COMP_OPS_VERSION,
	.submit = ctl_submit,
	.full = ctl_full,
	.complete = ctl_complete,
	.event = ctl_event,
	.cleanup = ctl_cleanup,
	.report = iolab_comp_controller_report,
};

/* The cache's lines of 4 KiB (or one block), for a device of block_bytes blocks. */
static uint32_t line_blocks(uint32_t block_bytes)
{
	uint32_t lb = block_bytes < LINE_BYTES ? LINE_BYTES / block_bytes : 1;
	return lb > 64 ? 64 : lb;
}

/* The destage limit: whole rows (one if a row is longer than DESTAGE_MAX_BYTES). */
static void set_limit(struct ctl *t)
{
	uint64_t max = DESTAGE_MAX_BYTES / t->block_bytes, row = t->row ? t->row : 1;
	t->limit = row >= max ? row : max / row * row;
}

int iolab_comp_controller_init(struct iolab_comp *c, struct iolab_sim *s, struct iolab_comp *below,
			       const struct iolab_ctl_params *p, uint64_t blocks, uint32_t block_bytes,
			       uint64_t unit_blocks)
{
	if (!below || !blocks || !block_bytes || block_bytes > DESTAGE_MAX_BYTES)
		return -EINVAL;
	uint32_t lb = line_blocks(block_bytes);
	uint64_t lines = p->cache_bytes / ((uint64_t)lb * block_bytes);
	if (p->cache_bytes && !lines)
		return -EINVAL;
	struct ctl *t = calloc(1, sizeof(*t));
	if (!t)
		return -ENOMEM;
	t->overhead = p->overhead_ns;
	t->cache = lines > 0;
	t->wback = t->cache && p->write_policy == IOLAB_WP_BACK && p->battery;
	t->ra = t->cache ? p->read_ahead : IOLAB_RA_NONE;
	t->pass = !t->cache && !t->overhead;
	t->blocks = blocks;
	t->block_bytes = block_bytes;
	t->unit = unit_blocks;
	t->row = unit_blocks;
	t->ra_blocks = p->read_ahead_bytes ? (p->read_ahead_bytes + block_bytes - 1) / block_bytes
			: unit_blocks ? unit_blocks : (65536 + block_bytes - 1) / block_bytes;
	t->prev_end = UINT64_MAX;
	set_limit(t);
	int rc = t->cache ? ctl_cache_init(&t->cc, lines, lb, blocks) : 0;
	if (rc) {
		free(t);
		return rc;
	}
	*c = (struct iolab_comp){.ops = &iolab_comp_controller, .sim = s, .below = below, .priv = t};
	return 0;
}

uint64_t iolab_ctl_cache_max_bytes(const struct iolab_ctl_params *p, uint64_t blocks,
				   uint32_t block_bytes)
{
	if (!p->cache_bytes || !block_bytes)
		return 0;
	uint32_t lb = line_blocks(block_bytes);
	return ctl_cache_max_bytes(p->cache_bytes / ((uint64_t)lb * block_bytes), lb, blocks);
}

void iolab_comp_controller_set_row(struct iolab_comp *c, uint64_t row_blocks)
{
	struct ctl *t = c->priv;
	t->row = row_blocks;
	set_limit(t);
}

void iolab_comp_controller_report(const struct iolab_comp *c, struct iolab_comp_report *out)
{
	*out = ((const struct ctl *)c->priv)->rep;
	snprintf(out->kind, sizeof(out->kind), "%s", "controller");
}

uint64_t iolab_comp_controller_dirty_bytes(const struct iolab_comp *c)
{
	const struct ctl *t = c->priv;
	return t->cache ? ctl_cache_dirty_blocks(&t->cc) * t->block_bytes : 0;
}

const char *iolab_ctl_warning(const struct iolab_ctl_params *p)
{
	if (p->write_policy == IOLAB_WP_BACK && !p->battery)
		return "write-back without a battery: acting as write-through";
	if (p->write_policy == IOLAB_WP_BACK && !p->cache_bytes)
		return "write-back without a cache: acting as write-through";
	if (p->read_ahead != IOLAB_RA_NONE && !p->cache_bytes)
		return "read-ahead without a cache: none done";
	return NULL;
}

/* The controller's line in a subsystem file (sim_kinds.h). */
#define CTL(m) offsetof(struct iolab_sub_controller, m)
static const struct iolab_param controller_params[] = {
	{.key = "bus", .type = IOLAB_PT_REF, .ref = "bus", .fixed = true, .off = CTL(bus),
	 .def_doc = "none modelled", .doc = "the bus it sits on"},
	{.key = "overhead", .type = IOLAB_PT_TIME, .off = CTL(p.overhead_ns), .unit = "ns", .max = 1e9,
	 .def_doc = "0", .doc = "its processor's time per command"},
	{.key = "cache", .type = IOLAB_PT_SIZE, .off = CTL(p.cache_bytes), .unit = "bytes",
	 .def_doc = "0",
	 .doc = "cache size; 0 is no cache. The simulator keeps a record of each 4 KiB line the load "
		"touches, at most as many as cover the volume below; that most is counted against "
		"`--mem-limit` before the run"},
	{.key = "write-policy", .type = IOLAB_PT_CHOICE, .off = CTL(p.write_policy),
	 .choice = iolab_write_policy_parse, .def_doc = "`write-through`",
	 .doc = "`write-through` or `write-back`"},
	{.key = "battery", .type = IOLAB_PT_BOOL, .off = CTL(p.battery), .def = "yes",
	 .def_doc = "`yes`", .doc = "`yes` or `no`; write-back without a battery acts as write-through"},
	{.key = "read-ahead", .type = IOLAB_PT_CHOICE, .off = CTL(p.read_ahead),
	 .choice = iolab_read_ahead_parse, .def_doc = "`none`",
	 .doc = "`none`, `always` (every read miss reads ahead), `adaptive` (on after sequential "
		"reads, off after random ones). A read that misses waits for the cache reads in flight "
		"that hold its blocks (counted a hit when they hold them all) and reads the rest, its "
		"read-ahead past what is in flight: ahead of the stream's furthest read, each block "
		"read once however many reads are in flight"},
	{.key = "read-ahead-size", .type = IOLAB_PT_SIZE_POS, .off = CTL(p.read_ahead_bytes),
	 .unit = "bytes",
	 .hint = " (read-ahead=none turns read-ahead off)",
	 .def_doc = "one stripe unit of the volume, or 64k",
	 .doc = "how far a read-ahead reads past a miss (more than 0)"},
};
#undef CTL

const struct iolab_kind iolab_kind_controller = {
	.name = "controller", .cls = IOLAB_KC_CONTROLLER, .ops = &iolab_comp_controller,
	.about = "a controller: its processor's time per command and its cache, above its volumes",
	.params = controller_params, .nparams = sizeof(controller_params) / sizeof(controller_params[0]),
};
