/* comp_volume.c: a volume over several members as a component (RAID 0, 1, 10, 4, 5 and 6). Its
 * members are drives, or other parts with the same submit/complete contract, built and freed by
 * the caller; the volume only sends them pieces.
 *
 * RAID 0: block b of the volume lies in stripe unit k = b / unit, on member k mod n, at member
 * block (k / n) x unit + b mod unit; a request becomes one piece per member it touches (on each
 * member its blocks are contiguous).
 * RAID 1: every member holds every block; a read goes to the copy with the fewest commands
 * outstanding (the first of equals), a write to all copies.
 * RAID 10 (Linux md's near-2 layout on an even count): members 2k and 2k + 1 are a mirrored
 * pair, and the pairs are striped as RAID 0 over n / 2; a read goes to the copy of its pair with
 * fewer commands outstanding, a write to both.
 * RAID 4, 5 and 6: row s holds the data units and the parity units, every unit of row s at
 * member block s x unit.
 *   RAID 4: parity always on member n - 1, data unit j on member j (md's "parity-last").
 *   RAID 5, left-symmetric: parity on member P = n - 1 - (s mod n), data unit j on member
 *   (P + 1 + j) mod n.
 *   RAID 6, left-symmetric as Linux md lays it out (raid5.c, ALGORITHM_LEFT_SYMMETRIC for 6
 *   members or more of level 6): P on member n - 1 - (s mod n), Q on the next one, (P + 1) mod
 *   n, data unit j on (P + 2 + j) mod n.
 * Reads touch the data units only. A write is done row by row: a row written whole writes its
 * data and new parity, no reads; a partial row first reads what the new parity needs, then
 * writes: read-modify-write reads the old data it replaces and the old parity (P, and Q on RAID
 * 6: 2 reads and 2 writes for a small write, 3 and 3 on RAID 6), reconstruct-write reads the
 * row's other data instead, and is chosen when it reads fewer blocks (a tie goes to
 * read-modify-write).
 *
 * Trims (TRIM, discard) go where writes would, as Linux md passes discards down: RAID 0 and 10
 * by stripe units (RAID 10 to both copies), RAID 1 to every copy, RAID 4, 5 and 6 to the data
 * units' extents on their members with no parity update (md's raid456 does that only when it
 * can prove the parity stays consistent, its devices_handle_discard_safely; the simulated
 * devices' data is not modelled, so the parity is taken as consistent).
 *
 * Degraded (failed members: one at most, two on RAID 6 and on RAID 10 in different pairs): a
 * read of a failed member is rebuilt by reading the same blocks from the row's surviving members
 * (RAID 4 and 5: every other member; RAID 6: n - 2 of them, the other data and P, or Q where P
 * is lost) or from another copy (RAID 1 and 10); a write to it is not done (the parity or the
 * copies written beside it keep its data).
 *
 * Rebuild (a rate given): a replacement takes each failed member's place at once, and the volume
 * rebuilds it beside the load, stripe unit by stripe unit in address order: it reads the row's
 * surviving units (as a degraded read would: RAID 1 and 10 the copy), then writes the unit to
 * every replacement. These are the volume's own commands, queued at the members with the load's.
 * Unit k may start no earlier than k x unit bytes / rate after the volume was built, and at most
 * REBUILD_WINDOW units from the rebuild point may be under way: the rebuild proceeds at the rate
 * when the members keep up and as fast as they let it otherwise. The rebuild point is the end of
 * the units rebuilt from the start without a gap; the replaced member serves reads and writes
 * below it as a working one, and is degraded above it. Once every unit is rebuilt the volume is
 * whole.
 *
 * A volume carved from an array that holds others (iolab_comp_volume_set_offset) adds its offset
 * to every piece's member address as the piece leaves for its member.
 *
 * Pieces go to the members at once; a request completes when its last piece does. A member that
 * is full (QUEUE FULL) leaves its pieces waiting in the volume, in arrival order, until one of
 * its commands completes. The volume itself takes every request. */
#include <errno.h>
#include <stdlib.h>
#include <string.h>

#include "iolab/host_queue.h"
#include "iolab/parse.h"
#include "iolab/sim_kinds.h"
#include "iolab/sim_system.h"
#include "iolab/subsys.h"
#include "iolab/workload.h"
#include "sim/parts/raid_levels.h"

struct rowop;

/* A command the volume sends to one of its drives. */
struct piece {
	struct iolab_sreq s; /* first: the drive hands back &s */
	unsigned drive;
	struct rowop *op;    /* a parity write of a row, or a rebuilt unit: its state; or NULL */
	struct piece *next;  /* in the free list, or in a row's list of writes to come */
	struct piece *whole; /* a read standing in for a read of the failed drive: that read */
	unsigned parts;      /* a read of the failed drive: its stand-ins still in flight */
	bool held;           /* sent to its member (or waiting for it): counted in its load */
	bool rebuild;        /* the rebuild's write to a replacement: never degraded */
};

/* A parity write of one row, or the rebuild of one unit: its reads (if any) in flight, then its
 * writes. */
struct rowop {
	unsigned pending;     /* pieces of the current phase in flight */
	struct piece *writes; /* sent once the reads are in */
	bool rebuild;         /* the rebuild of unit `unit` (its pieces have no parent request) */
	uint64_t unit;
	struct rowop *next_free;
};

/* Rebuild units under way at once, from the rebuild point on: Linux md too keeps a bounded
 * window of resync requests in flight (raid1.c's RESYNC_DEPTH, 32 of 64 KiB); 16 units of 64
 * KiB sustain 10 MiB/s with up to 100 ms per unit (reads, then the write) behind the load's
 * commands. At most 64 (a bit each). */
#define REBUILD_WINDOW 16

enum { EV_REBUILD };

struct rebuild {
	uint64_t rate;     /* bytes/s; 0: no rebuild */
	uint64_t units;    /* stripe units on each member */
	uint64_t next;     /* the next unit to start */
	uint64_t done;     /* units rebuilt from 0 without a gap: the rebuild point is done x unit */
	uint64_t fin;      /* bit k: unit done + k is rebuilt (they finish out of order) */
	uint64_t t0, t_end; /* when it started, and finished */
	bool finished, timer; /* timer: an EV_REBUILD is scheduled */
	int member[2];     /* the members rebuilt (the failed ones), or -1 */
};


struct volume {
	enum iolab_raid_level level;
	enum iolab_raid_layout layout; /* the level's (raid_levels.c) */
	unsigned parity;               /* the level's parity units in a row */
	unsigned n;               /* drives */
	int failed[2];            /* the failed members (degraded mode), or -1 */
	uint64_t unit;            /* stripe unit, in blocks */
	struct iolab_comp **drive; /* n members (drives, or other parts), owned by the caller */
	uint64_t member_blocks;   /* the blocks each member gives */
	uint64_t offset;          /* where they start on each member (a volume carved from an
				     array that holds others: iolab_comp_volume_set_offset) */
	unsigned *load;           /* per drive: pieces sent to it or waiting for it, not finished */
	struct iolab_host_queue *wait; /* per drive: its pieces waiting for room, sent in the
					 host's order (as Linux md's member disks each have a queue) */
	struct piece *free;       /* spare pieces */
	unsigned npieces;         /* pieces allocated (freed at cleanup through all) */
	struct piece **all;
	unsigned allcap;
	struct rowop *free_ops;   /* the same for row operations */
	struct rowop **allops;
	unsigned nops, opscap;
	uint32_t block_bytes;
	struct iolab_comp_report rep; /* it does no work of its own (no controller time yet): busy 0 */
	struct rebuild rb;
};

static struct piece *new_piece(struct volume *v)
{
	if (v->free) {
		struct piece *p = v->free;
		v->free = p->next;
		return p;
	}
	if (v->npieces == v->allcap) {
		unsigned cap = v->allcap ? v->allcap * 2 : 64;
		struct piece **all = realloc(v->all, cap * sizeof(*all));
		if (!all)
			return NULL;
		v->all = all;
		v->allcap = cap;
	}
	struct piece *p = malloc(sizeof(*p));
	if (p)
		v->all[v->npieces++] = p;
	return p;
}

static void free_piece(struct volume *v, struct piece *p)
{
	p->next = v->free;
	v->free = p;
}

/* A zeroed row operation (kept until cleanup, so that those under way at the end are freed). */
static struct rowop *new_rowop(struct iolab_comp *c, struct volume *v)
{
	struct rowop *op = v->free_ops;
	if (op) {
		v->free_ops = op->next_free;
	} else {
		if (v->nops == v->opscap) {
			unsigned cap = v->opscap ? v->opscap * 2 : 16;
			struct rowop **all = realloc(v->allops, cap * sizeof(*all));
			if (all) {
				v->allops = all;
				v->opscap = cap;
			}
		}
		op = v->nops < v->opscap ? malloc(sizeof(*op)) : NULL;
		if (op)
			v->allops[v->nops++] = op;
	}
	if (!op && !c->sim->error)
		c->sim->error = -ENOMEM;
	if (op)
		*op = (struct rowop){0};
	return op;
}

static void free_rowop(struct volume *v, struct rowop *op)
{
	op->next_free = v->free_ops;
	v->free_ops = op;
}

static bool is_failed(const struct volume *v, unsigned i)
{
	return (int)i == v->failed[0] || (int)i == v->failed[1];
}

/* Whether member i cannot serve its blocks [lbn, lbn + blocks): it failed and they are not
 * below the rebuild point. */
static bool degraded(const struct volume *v, unsigned i, uint64_t lbn, uint64_t blocks)
{
	return is_failed(v, i) && !(v->rb.rate && lbn + blocks <= v->rb.done * v->unit);
}

/* Parity units in a row: 1 for RAID 4 and 5, 2 for RAID 6, 0 for the others. */
static unsigned parities(const struct volume *v)
{
	return v->parity;
}

/* Row s: the member of its parity unit k (0: P, 1: Q) and of its data unit j. */
static unsigned parity_drive(const struct volume *v, uint64_t s, unsigned k)
{
	if (v->layout == IOLAB_LAYOUT_PARITY_LAST)
		return v->n - 1;
	unsigned p = v->n - 1 - (unsigned)(s % v->n);
	return k ? (p + 1) % v->n : p;
}

static unsigned data_drive(const struct volume *v, uint64_t s, unsigned j)
{
	if (v->layout == IOLAB_LAYOUT_PARITY_LAST)
		return j;
	return (parity_drive(v, s, 0) + parities(v) + j) % v->n;
}

/* Of the copies first .. first + count - 1, the one with the fewest commands outstanding (the
 * first of equals) that can serve blocks [lbn, lbn + blocks), or -1. */
static int pick_copy(const struct volume *v, unsigned first, unsigned count, uint64_t lbn,
		     uint64_t blocks)
{
	int best = -1;
	for (unsigned i = first; i < first + count; i++)
		if (!degraded(v, i, lbn, blocks) && (best < 0 || v->load[i] < v->load[best]))
			best = (int)i;
	return best;
}

/* What r asks of the blocks it names: enum iolab_op. */
static unsigned op_of(const struct iolab_sreq *r)
{
	return r->d.trim ? IOLAB_OP_TRIM : r->d.write ? IOLAB_OP_WRITE : IOLAB_OP_READ;
}

/* A piece for drive i: blocks [lbn, lbn + blocks) of it, a part of request r, a read, a write or
 * a trim (how: enum iolab_op, or a bool: write). */
static struct piece *make_piece(struct iolab_comp *c, struct volume *v, struct iolab_sreq *r,
				unsigned i, uint64_t lbn, uint64_t blocks, unsigned how, struct rowop *op)
{
	struct piece *p = new_piece(v);
	if (!p) {
		if (!c->sim->error)
			c->sim->error = -ENOMEM;
		return NULL;
	}
	*p = (struct piece){.s = {.d = {.lbn = lbn, .blocks = (uint32_t)blocks,
					.write = how == IOLAB_OP_WRITE, .trim = how == IOLAB_OP_TRIM},
				  .from = c, .parent = r},
			    .drive = i, .op = op};

	return p;
}

static void send_piece(struct iolab_comp *c, struct volume *v, struct piece *p);

/* A stand-in read for p (a read of a failed member) on member i. */
static void stand_in(struct iolab_comp *c, struct volume *v, struct piece *p, unsigned i)
{
	struct piece *q = make_piece(c, v, p->s.parent, i, p->s.d.lbn, p->s.d.blocks, false, NULL);
	if (!q)
		return;
	q->whole = p;
	p->parts++;
	send_piece(c, v, q);
}

/* The members a lost unit of member f, blocks [lbn, lbn + blocks), is rebuilt from, into use[];
 * returns their count. RAID 1 and 10: a copy (the less busy); RAID 4 and 5: every other member
 * of the row; RAID 6: n - 2 of them, Q left out (P where Q is the lost one) while only one is
 * lost. */
static unsigned sources(const struct volume *v, unsigned f, uint64_t lbn, uint64_t blocks,
			unsigned *use)
{
	unsigned k = 0;
	if (v->layout == IOLAB_LAYOUT_MIRROR || v->layout == IOLAB_LAYOUT_MIRROR_STRIPE) {
		bool pair = v->layout == IOLAB_LAYOUT_MIRROR_STRIPE;
		int i = pick_copy(v, pair ? f & ~1u : 0, pair ? 2 : v->n, lbn, blocks);
		if (i >= 0)
			use[k++] = (unsigned)i;
		return k;
	}
	for (unsigned i = 0; i < v->n; i++)
		if (i != f && !degraded(v, i, lbn, blocks))
			use[k++] = i;
	if (k > v->n - parities(v)) { /* RAID 6 with one member lost */
		uint64_t s = lbn / v->unit;
		unsigned q = parity_drive(v, s, 1), drop = q != f ? q : parity_drive(v, s, 0), w = 0;
		for (unsigned j = 0; j < k; j++)
			if (use[j] != drop)
				use[w++] = use[j];
		k = w;
	}
	return k;
}

/* A piece for a failed member. A write is done at once (its data is lost until a rebuild; the
 * parity or the copies written beside it keep it), and so is a trim. A read is rebuilt: the same blocks are read
 * from the row's surviving members or from another copy (sources()). */
static void send_to_failed(struct iolab_comp *c, struct volume *v, struct piece *p)
{
	if (p->s.d.write || p->s.d.trim) {
		iolab_sim_done(c->sim, &p->s);
		return;
	}
	p->parts = 0;
	unsigned use[64], k = sources(v, p->drive, p->s.d.lbn, p->s.d.blocks, use);
	for (unsigned j = 0; j < k; j++)
		stand_in(c, v, p, use[j]);
	if (!p->parts)
		iolab_sim_done(c->sim, &p->s);
}

static void send_piece(struct iolab_comp *c, struct volume *v, struct piece *p)
{
	unsigned i = p->drive;
	if (!p->rebuild && degraded(v, i, p->s.d.lbn, p->s.d.blocks)) {
		send_to_failed(c, v, p);
		return;
	}
	struct iolab_comp *d = v->drive[i];
	struct iolab_host_queue *w = &v->wait[i];
	p->s.d.lbn += v->offset; /* from here on an address on the member */
	v->load[i]++;
	p->held = true;
	p->s.d.t_arrive = c->sim->now;
	if (!w->n && !(d->ops->full && d->ops->full(d))) {
		int rc = d->ops->submit(d, &p->s);
		if (rc != -EBUSY) {
			if (rc && !c->sim->error)
				c->sim->error = rc;
			return;
		}
	}
	if (iolab_hostq_push(w, &p->s.d) && !c->sim->error)
		c->sim->error = -ENOMEM;
}

/* Sends a piece for drive i and counts it in the request. */
static void add_piece(struct iolab_comp *c, struct volume *v, struct iolab_sreq *r, unsigned i,
		      uint64_t lbn, uint64_t blocks, unsigned how)
{
	struct piece *p = make_piece(c, v, r, i, lbn, blocks, how, NULL);
	if (p) {
		r->pieces++;
		send_piece(c, v, p);
	}
}

/* RAID 0 and 10: each member's (RAID 10: each pair's) range of member blocks for volume blocks
 * [first, last); a RAID 10 read goes to one copy of the pair, a write or a trim to both. */
static void submit_striped(struct iolab_comp *c, struct volume *v, struct iolab_sreq *r)
{
	bool pairs = v->layout == IOLAB_LAYOUT_MIRROR_STRIPE;
	unsigned g = pairs ? v->n / 2 : v->n;
	uint64_t lo[64], hi[64];
	for (unsigned i = 0; i < g; i++)
		lo[i] = UINT64_MAX, hi[i] = 0;
	uint64_t first = r->d.lbn, last = r->d.lbn + r->d.blocks;
	for (uint64_t b = first; b < last;) {
		uint64_t k = b / v->unit, off = b % v->unit, len = v->unit - off;
		if (len > last - b)
			len = last - b;
		unsigned i = (unsigned)(k % g);
		uint64_t db = k / g * v->unit + off;
		if (db < lo[i])
			lo[i] = db;
		if (db + len > hi[i])
			hi[i] = db + len;
		b += len;
	}
	for (unsigned i = 0; i < g; i++) {
		if (lo[i] == UINT64_MAX)
			continue;
		if (!pairs) {
			add_piece(c, v, r, i, lo[i], hi[i] - lo[i], op_of(r));
		} else if (r->d.write || r->d.trim) {
			add_piece(c, v, r, 2 * i, lo[i], hi[i] - lo[i], op_of(r));
			add_piece(c, v, r, 2 * i + 1, lo[i], hi[i] - lo[i], op_of(r));
		} else {
			int d = pick_copy(v, 2 * i, 2, lo[i], hi[i] - lo[i]);
			add_piece(c, v, r, d >= 0 ? (unsigned)d : 2 * i, lo[i], hi[i] - lo[i], false);
		}
	}
}

static void submit_raid1(struct iolab_comp *c, struct volume *v, struct iolab_sreq *r)
{
	if (r->d.write || r->d.trim) { /* every copy */
		for (unsigned i = 0; i < v->n; i++)
			add_piece(c, v, r, i, r->d.lbn, r->d.blocks, op_of(r));
		return;
	}
	int best = pick_copy(v, 0, v->n, r->d.lbn, r->d.blocks);
	add_piece(c, v, r, best >= 0 ? (unsigned)best : 0, r->d.lbn, r->d.blocks, false);
}

/* Sends the pieces of list, a phase of op (its reads, or its writes: then no longer to come). */
static void send_list(struct iolab_comp *c, struct volume *v, struct rowop *op, struct piece *list)
{
	if (list == op->writes)
		op->writes = NULL;
	for (struct piece *p = list, *next; p; p = next) {
		next = p->next;
		op->pending++;
		send_piece(c, v, p);
	}
}

/* Makes a piece of a row's write and puts it at the head of *list. */
static void push_piece(struct iolab_comp *c, struct volume *v, struct iolab_sreq *r,
		       struct piece **list, unsigned i, uint64_t lbn, uint64_t blocks, bool write,
		       struct rowop *op)
{
	struct piece *p = make_piece(c, v, r, i, lbn, blocks, write, op);
	if (p) {
		p->next = *list;
		*list = p;
	}
}

/* The reads of a reconstruct-write of row s: in each data unit, the parity range [plo, phi)
 * minus what is written there ([wlo, whi), at one end of it or empty). */
static struct piece *reconstruct_reads(struct iolab_comp *c, struct volume *v, struct iolab_sreq *r,
				       uint64_t s, const uint64_t *wlo, const uint64_t *whi,
				       uint64_t plo, uint64_t phi, struct rowop *op)
{
	struct piece *reads = NULL;
	for (unsigned j = 0; j < v->n - parities(v); j++) {
		uint64_t lo = plo, hi = phi;
		if (whi[j] > wlo[j] && wlo[j] <= plo)
			lo = whi[j];
		else if (whi[j] > wlo[j] && whi[j] >= phi)
			hi = wlo[j];
		if (hi > lo)
			push_piece(c, v, r, &reads, data_drive(v, s, j), s * v->unit + lo, hi - lo, false, op);
	}
	return reads;
}

/* One row of a parity write (RAID 4, 5, 6): the row's data offsets [a, b) (0 <= a < b <= its
 * data units x unit). */
static void write_row(struct iolab_comp *c, struct volume *v, struct iolab_sreq *r, uint64_t s,
		      uint64_t a, uint64_t b)
{
	unsigned np = parities(v), d = v->n - np;
	uint64_t u = v->unit, base = s * u;
	struct rowop *op = new_rowop(c, v);
	if (!op)
		return;
	/* The written part of each data unit, and the parity range they change. */
	uint64_t wlo[64], whi[64], plo = u, phi = 0, written = 0;
	for (unsigned j = 0; j < d; j++) {
		uint64_t lo = a > j * u ? a - j * u : 0, hi = b < (j + 1) * u ? b - j * u : u;
		if (b <= j * u || a >= (j + 1) * u)
			lo = hi = 0; /* not touched */
		wlo[j] = lo;
		whi[j] = hi;
		if (hi > lo) {
			written += hi - lo;
			plo = lo < plo ? lo : plo;
			phi = hi > phi ? hi : phi;
		}
	}
	bool full = a == 0 && b == (uint64_t)d * u;
	/* Blocks each way must read: read-modify-write the old data and parity; reconstruct-write
	 * the rest of the parity range in every data unit. */
	uint64_t rmw = written + np * (phi - plo), rcw = (uint64_t)d * (phi - plo) - written;
	bool reconstruct = !full && rcw < rmw;
	r->pieces++;
	for (unsigned j = 0; j < d; j++) /* the writes, sent once the reads are in */
		if (whi[j] > wlo[j])
			push_piece(c, v, r, &op->writes, data_drive(v, s, j), base + wlo[j],
				   whi[j] - wlo[j], true, op);
	for (unsigned k = 0; k < np; k++)
		push_piece(c, v, r, &op->writes, parity_drive(v, s, k), base + plo, phi - plo, true, op);
	struct piece *reads = NULL;
	if (!full && !reconstruct) {
		for (unsigned j = 0; j < d; j++)
			if (whi[j] > wlo[j])
				push_piece(c, v, r, &reads, data_drive(v, s, j), base + wlo[j],
					   whi[j] - wlo[j], false, op);
		for (unsigned k = 0; k < np; k++)
			push_piece(c, v, r, &reads, parity_drive(v, s, k), base + plo, phi - plo, false, op);
	} else if (reconstruct) {
		reads = reconstruct_reads(c, v, r, s, wlo, whi, plo, phi, op);
	}
	send_list(c, v, op, reads ? reads : op->writes);
}

static void submit_parity(struct iolab_comp *c, struct volume *v, struct iolab_sreq *r)
{
	uint64_t u = v->unit, d = v->n - parities(v), row = d * u;
	uint64_t first = r->d.lbn, last = r->d.lbn + r->d.blocks;
	for (uint64_t s = first / row; s * row < last; s++) {
		uint64_t a = first > s * row ? first - s * row : 0;
		uint64_t b = last < (s + 1) * row ? last - s * row : row;
		if (r->d.write) {
			write_row(c, v, r, s, a, b);
			continue;
		}
		/* a read, or a trim: the data units' extents (a trim changes no parity) */
		for (unsigned j = 0; j < d; j++) {
			uint64_t lo = a > j * u ? a - j * u : 0, hi = b < (j + 1) * u ? b - j * u : u;
			if (b > j * u && a < (j + 1) * u && hi > lo)
				add_piece(c, v, r, data_drive(v, s, j), s * u + lo, hi - lo, op_of(r));
		}
	}
}

/* r is done: counted, and passed up. */
static void finish(struct iolab_comp *c, struct volume *v, struct iolab_sreq *r)
{
	r->d.t_done = c->sim->now;
	v->rep.ios++;
	v->rep.bytes += r->d.trim ? 0 : (uint64_t)r->d.blocks * v->block_bytes;
	v->rep.resident_ns += (double)(r->d.t_done - r->d.t_arrive);
	iolab_sim_done(c->sim, r);
}

static int volume_submit(struct iolab_comp *c, struct iolab_sreq *r)
{
	struct volume *v = c->priv;
	r->d.t_arrive = c->sim->now;
	r->pieces = 0;
	if (v->layout == IOLAB_LAYOUT_MIRROR)
		submit_raid1(c, v, r);
	else if (parities(v))
		submit_parity(c, v, r);
	else
		submit_striped(c, v, r);
	if (!r->pieces) /* nothing to do (out of memory: the error is kept) */
		finish(c, v, r);
	return 0;
}

/* Drive i has room again: sends what waits for it. */
static void drain(struct iolab_comp *c, struct volume *v, unsigned i)
{
	struct iolab_host_queue *w = &v->wait[i];
	struct iolab_comp *d = v->drive[i];
	while (w->n && !(d->ops->full && d->ops->full(d))) {
		struct piece *p = (struct piece *)iolab_hostq_pop(w, c->sim->now); /* d is first */
		p->s.d.t_arrive = c->sim->now;
		int rc = d->ops->submit(d, &p->s);
		if (rc && !c->sim->error)
			c->sim->error = rc;
	}
}

/* ---- rebuild --------------------------------------------------------------------------- */

/* When unit k of the rebuild may start: k units' bytes at the rate after the start. */
static uint64_t rebuild_due(const struct volume *v, uint64_t k)
{
	unsigned __int128 ns = (unsigned __int128)k * v->unit * v->block_bytes * 1000000000u;
	return v->rb.t0 + (uint64_t)(ns / v->rb.rate);
}

/* Starts the rebuild of unit k: reads its sources, then (send_list from volume_complete) writes
 * it to every replacement. */
static void rebuild_unit(struct iolab_comp *c, struct volume *v, uint64_t k)
{
	struct rowop *op = new_rowop(c, v);
	if (!op)
		return;
	op->rebuild = true;
	op->unit = k;
	uint64_t lbn = k * v->unit, blocks = v->member_blocks - lbn < v->unit ? v->member_blocks - lbn
									     : v->unit;
	bool from[64] = {false};
	struct piece *reads = NULL;
	for (unsigned f = 0; f < 2 && v->rb.member[f] >= 0; f++) {
		unsigned use[64], n = sources(v, (unsigned)v->rb.member[f], lbn, blocks, use);
		for (unsigned j = 0; j < n; j++)
			if (!from[use[j]]) {
				from[use[j]] = true;
				push_piece(c, v, NULL, &reads, use[j], lbn, blocks, false, op);
			}
		push_piece(c, v, NULL, &op->writes, (unsigned)v->rb.member[f], lbn, blocks, true, op);
		if (op->writes)
			op->writes->rebuild = true;
	}
	send_list(c, v, op, reads ? reads : op->writes);
}

/* Starts the units that are due and fit the window; schedules itself for the next one. */
static void rebuild_pump(struct iolab_comp *c, struct volume *v)
{
	struct rebuild *b = &v->rb;
	while (b->next < b->units && b->next - b->done < REBUILD_WINDOW &&
	       rebuild_due(v, b->next) <= c->sim->now)
		rebuild_unit(c, v, b->next++);
	if (b->next < b->units && b->next - b->done < REBUILD_WINDOW && !b->timer) {
		b->timer = true;
		iolab_sim_at(c, rebuild_due(v, b->next), EV_REBUILD, NULL);
	}
}

/* Unit k is rebuilt: the rebuild point moves past every unit rebuilt without a gap; at the last,
 * the volume is whole. */
static void rebuilt(struct iolab_comp *c, struct volume *v, uint64_t k)
{
	struct rebuild *b = &v->rb;
	b->fin |= UINT64_C(1) << (k - b->done);
	while (b->fin & 1) {
		b->fin >>= 1;
		b->done++;
	}
	if (b->done == b->units && !b->finished) {
		b->finished = true;
		b->t_end = c->sim->now;
		v->failed[0] = v->failed[1] = -1;
		return;
	}
	rebuild_pump(c, v);
}

static void volume_event(struct iolab_comp *c, unsigned what, void *arg)
{
	(void)what;
	(void)arg;
	struct volume *v = c->priv;
	v->rb.timer = false;
	rebuild_pump(c, v);
}

static void volume_complete(struct iolab_comp *c, struct iolab_sreq *s)
{
	struct volume *v = c->priv;
	struct piece *p = (struct piece *)s;
	if (p->held) {
		v->load[p->drive]--;
		drain(c, v, p->drive);
	}
	if (p->whole) { /* a stand-in: the failed drive's read is done with its last one */
		struct piece *w = p->whole;
		free_piece(v, p);
		if (--w->parts)
			return;
		p = w;
	}
	struct iolab_sreq *r = p->s.parent;
	struct rowop *op = p->op;
	free_piece(v, p);
	if (op) { /* a row or a rebuilt unit: its reads are in, send its writes; its writes, done */
		if (--op->pending)
			return;
		if (op->writes) {
			send_list(c, v, op, op->writes);
			return;
		}
		bool rebuild = op->rebuild;
		uint64_t unit = op->unit;
		free_rowop(v, op);
		if (rebuild) {
			rebuilt(c, v, unit);
			return;
		}
	}
	if (--r->pieces)
		return;
	finish(c, v, r);
}

static void volume_cleanup(struct iolab_comp *c)
{
	struct volume *v = c->priv;
	if (!v)
		return;
	for (unsigned i = 0; v->wait && i < v->n; i++)
		iolab_hostq_free(&v->wait[i]);
	for (unsigned i = 0; i < v->npieces; i++)
		free(v->all[i]);
	free(v->all);
	for (unsigned i = 0; i < v->nops; i++)
		free(v->allops[i]);
	free(v->allops);
	free(v->wait);
	free(v->load);
	free(v->drive);
	free(v);
}

const struct iolab_comp_ops iolab_comp_volume = {
	.kind = "volume",
	.version = IOLAB_COMP_OPS_VERSION,
	.submit = volume_submit,
	.complete = volume_complete,
	.event = volume_event,
	.cleanup = volume_cleanup,
	.report = iolab_comp_volume_report,
};

/* Whether a volume of the level can have n members and the failed ones (raid_levels.c). */
static bool shape_ok(enum iolab_raid_level level, unsigned n, const int failed[2])
{
	char why[160];
	return level != IOLAB_RAID_NONE && !iolab_raid_check_members(level, n, why, sizeof(why)) &&
	       !iolab_raid_check_failed(level, n, failed, why, sizeof(why));
}

int iolab_comp_volume_init(struct iolab_comp *c, struct iolab_sim *s, struct iolab_comp *const *members,
			   unsigned n, uint64_t member_blocks, uint32_t block_bytes,
			   enum iolab_raid_level level, uint64_t unit_blocks, const int failed[2],
			   uint64_t rebuild_bytes_s)
{
	if (!shape_ok(level, n, failed) || !unit_blocks || !member_blocks || !block_bytes ||
	    (rebuild_bytes_s && failed[0] < 0 && failed[1] < 0))
		return -EINVAL;
	struct volume *v = calloc(1, sizeof(*v));
	if (!v)
		return -ENOMEM;
	*c = (struct iolab_comp){.ops = &iolab_comp_volume, .sim = s, .priv = v};
	v->level = level;
	v->layout = iolab_raid_info(level)->layout;
	v->parity = iolab_raid_info(level)->parity;
	bool second_only = failed[0] < 0; /* {-1, k}: one failed drive, k */
	v->failed[0] = second_only ? failed[1] : failed[0];
	v->failed[1] = second_only ? -1 : failed[1];
	v->n = n;
	v->unit = unit_blocks;
	v->member_blocks = member_blocks;
	v->block_bytes = block_bytes;
	v->load = calloc(n, sizeof(*v->load));
	v->drive = calloc(n, sizeof(*v->drive));
	v->wait = calloc(n, sizeof(*v->wait));
	if (!v->drive || !v->wait || !v->load) {
		volume_cleanup(c);
		c->priv = NULL;
		return -ENOMEM;
	}
	for (unsigned i = 0; i < n; i++)
		v->drive[i] = members[i];
	v->rb = (struct rebuild){.rate = rebuild_bytes_s, .member = {v->failed[0], v->failed[1]},
				 .units = (member_blocks + unit_blocks - 1) / unit_blocks, .t0 = s->now};
	if (rebuild_bytes_s)
		rebuild_pump(c, v);
	return 0;
}

void iolab_comp_volume_report(const struct iolab_comp *c, struct iolab_comp_report *out)
{
	const struct volume *v = c->priv;
	const struct rebuild *b = &v->rb;
	*out = v->rep;
	snprintf(out->kind, sizeof(out->kind), "%s", "volume");
	if (!b->rate)
		return;
	uint64_t done = b->done * v->unit < v->member_blocks ? b->done * v->unit : v->member_blocks;
	out->rebuild = (struct iolab_rebuild_report){
		.rate_bytes_s = b->rate, .done_bytes = done * v->block_bytes,
		.total_bytes = v->member_blocks * v->block_bytes,
		.ns = b->finished ? (double)(b->t_end - b->t0) : -1,
		.drive = {b->member[0], b->member[1]}};
}

unsigned iolab_comp_volume_members(const struct iolab_comp *c, struct iolab_comp *const **members)
{
	const struct volume *v = c->priv;
	*members = v->drive;
	return v->n;
}

void iolab_comp_volume_set_offset(struct iolab_comp *c, uint64_t blocks)
{
	((struct volume *)c->priv)->offset = blocks;
}

void iolab_comp_volume_set_order(struct iolab_comp *c, unsigned sched)
{
	struct volume *v = c->priv;
	for (unsigned i = 0; i < v->n; i++)
		v->wait[i].sched = (enum iolab_host_sched)sched;
}

/* The volume's line in a subsystem file (sim_kinds.h). Its level, failed members, size and
 * offset shape the path as its drives do (the members that hold data, where it lies on them, the
 * capacity the load is sized from): they do not vary between the points of a sweep. */
static int level_choice(const char *field, const char *text, unsigned *out, struct iolab_err *err)
{
	const struct iolab_raid_info *r = iolab_raid_find(text, strlen(text));
	if (r)
		return *out = r->level, 0;
	return iolab_errf(err, EINVAL, "%s: '%.100s' is not a level (%s)", field, text,
			  iolab_raid_names());
}

/* A volume's size: its usable capacity ("300G"), or "N%" of each of its devices (1 to 100). */
static int size_read(const struct iolab_param *k, const char *text, void *rec, struct iolab_err *err)
{
	struct iolab_sub_volume *v = rec;
	size_t n = strlen(text);
	if (n && text[n - 1] == '%') {
		char num[16];
		uint64_t pct;
		if (n - 1 >= sizeof(num))
			return iolab_errf(err, EINVAL, "field 'size': '%.100s' is not a percentage from 1%% "
					  "to 100%%", text);
		memcpy(num, text, n - 1);
		num[n - 1] = 0;
		if (iolab_parse_uint("field 'size'", num, 1, 100, &pct, err))
			return -EINVAL;
		v->size_pct = (unsigned)pct;
		v->size_bytes = 0;
		return 0;
	}
	(void)k;
	if (iolab_parse_size("field 'size'", text, &v->size_bytes, err))
		return -EINVAL;
	if (!v->size_bytes)
		return iolab_errf(err, EINVAL, "field 'size': must be more than 0 (N%% of each drive, or "
				  "a capacity)");
	v->size_pct = 0;
	return 0;
}

#define VOL(m) offsetof(struct iolab_sub_volume, m)
static const struct iolab_param volume_params[] = {
	{.key = "level", .type = IOLAB_PT_CHOICE, .off = VOL(level), .choice = level_choice,
	 .required = true, .fixed = true, .def_doc = "",
	 .doc = "`none` (one drive), `raid0`, `raid1`, `raid10`, `raid4`, `raid5`, `raid6`"},
	{.key = "drives", .type = IOLAB_PT_MEMBERS, .fixed = true, .off = VOL(drive),
	 .required = true, .def_doc = "",
	 .doc = "its drives (or other devices), in order, comma-separated (`d1,d2,d3`)"},
	{.key = "stripe", .type = IOLAB_PT_SIZE, .off = VOL(stripe_bytes), .def = "64k",
	 .unit = "bytes", .min = 512, .max = 1 << 30, .def_doc = "64k",
	 .doc = "stripe unit, a multiple of 512 bytes up to 1 GiB"},
	{.key = "failed", .type = IOLAB_PT_FAILED, .off = VOL(failed), .fixed = true, .def_doc = "none",
	 .doc = "`N` or `N+M`: the failed drives, 1-based positions in `drives`"},
	{.key = "rebuild-rate", .type = IOLAB_PT_RATE, .off = VOL(rebuild_bytes_s), .unit = "bytes/s",
	 .def_doc = "no rebuild",
	 .doc = "rebuild the failed drives onto replacements at this rate, beside the load"},
	{.key = "size", .type = IOLAB_PT_CUSTOM, .custom = size_read, .off = VOL(size_bytes),
	 .fixed = true, .unit = "size or N%", .def_doc = "to the end of its drives",
	 .doc = "its usable capacity (`300G`: what a RAID controller's configuration utility asks for "
		"a logical drive), or `N%` (1 to 100) of each of its drives; it takes that much of "
		"each drive in whole stripe units (`300G` of RAID 5 over 5 drives: 75 GiB of each)"},
	{.key = "offset", .type = IOLAB_PT_SIZE, .off = VOL(offset_bytes), .fixed = true,
	 .unit = "bytes", .def_doc = "after the volumes before it that share one of its drives, else 0",
	 .doc = "where it starts on each of its drives, a whole number of their blocks"},
};
#undef VOL

const struct iolab_kind iolab_kind_volume = {
	.name = "volume", .cls = IOLAB_KC_VOLUME, .ops = &iolab_comp_volume,
	.about = "a volume: RAID over devices, what the host reads and writes",
	.params = volume_params, .nparams = sizeof(volume_params) / sizeof(volume_params[0]),
};
