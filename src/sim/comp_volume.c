/* comp_volume.c: a volume over several members as a component (RAID 0, 1 and 5). Its members
 * are drives, or other parts with the same submit/complete contract, built and freed by the
 * caller; the volume only sends them pieces.
 *
 * RAID 0: block b of the volume lies in stripe unit k = b / unit, on drive k mod n, at drive
 * block (k / n) x unit + b mod unit; a request becomes one piece per drive it touches (on each
 * drive its blocks are contiguous).
 * RAID 1: every drive holds every block; a read goes to the copy with the fewest commands
 * outstanding (the first of equals), a write to all copies.
 * RAID 5, left-symmetric: row s holds n - 1 data units and a parity unit on drive
 * n - 1 - (s mod n); data unit j of the row is on drive (parity + 1 + j) mod n, and every unit
 * of row s is at drive block s x unit. Reads touch the data units only. A write is done row by
 * row: a row written whole writes its data and new parity, no reads; a partial row first reads
 * what the new parity needs, then writes: read-modify-write reads the old data it replaces and
 * the old parity (2 reads and 2 writes for a small write), reconstruct-write reads the row's
 * other data instead, and is chosen when it reads fewer blocks.
 *
 * Degraded (a failed drive): a read of the failed drive is rebuilt by reading the same blocks
 * from every other drive (RAID 5) or from another copy (RAID 1); a write to it is not done.
 *
 * Pieces go to the drives at once; a request completes when its last piece does. A drive that
 * is full (QUEUE FULL) leaves its pieces waiting in the volume, in arrival order, until one of
 * its commands completes. The volume itself takes every request. */
#include <errno.h>
#include <stdlib.h>
#include <string.h>

#include "iolab/sim_system.h"

struct rowop;

/* A command the volume sends to one of its drives. */
struct piece {
	struct iolab_sreq s; /* first: the drive hands back &s */
	unsigned drive;
	struct rowop *op;    /* RAID 5 write of a row: its state; NULL otherwise */
	struct piece *next;  /* in the free list, or in a row's list of writes to come */
	struct piece *whole; /* a read standing in for a read of the failed drive: that read */
	unsigned parts;      /* a read of the failed drive: its stand-ins still in flight */
};

/* A RAID 5 write of one row: its reads (if any) in flight, then its writes. */
struct rowop {
	unsigned pending;     /* pieces of the current phase in flight */
	struct piece *writes; /* sent once the reads are in */
};

struct wait { /* a drive's pieces waiting for room, a growing ring */
	struct piece **p;
	unsigned head, n, cap;
};

struct volume {
	enum iolab_raid_level level;
	unsigned n;               /* drives */
	int failed;               /* the failed drive (degraded mode), or -1 */
	uint64_t unit;            /* stripe unit, in blocks */
	struct iolab_comp **drive; /* n members (drives, or other parts), owned by the caller */
	uint64_t member_blocks;   /* the blocks each member gives */
	unsigned *load;           /* per drive: pieces sent to it or waiting for it, not finished */
	struct wait *wait;
	struct piece *free;       /* spare pieces */
	unsigned npieces;         /* pieces allocated (freed at cleanup through all) */
	struct piece **all;
	unsigned allcap;
	uint32_t block_bytes;
	struct iolab_comp_report rep; /* it does no work of its own (no controller time yet): busy 0 */
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

/* A piece for drive i: blocks [lbn, lbn + blocks) of it, a part of request r. */
static struct piece *make_piece(struct iolab_comp *c, struct volume *v, struct iolab_sreq *r,
				unsigned i, uint64_t lbn, uint64_t blocks, bool write, struct rowop *op)
{
	struct piece *p = new_piece(v);
	if (!p) {
		if (!c->sim->error)
			c->sim->error = -ENOMEM;
		return NULL;
	}
	*p = (struct piece){.s = {.d = {.lbn = lbn, .blocks = (uint32_t)blocks, .write = write},
				  .from = c, .parent = r},
			    .drive = i, .op = op};

	return p;
}

static void send_piece(struct iolab_comp *c, struct volume *v, struct piece *p);

/* A piece for the failed drive. A write is done at once (its data is lost until a rebuild; the
 * parity, written beside it, keeps it). A read is rebuilt: the same blocks are read from every
 * other drive (RAID 5: the row's other data and its parity) or from another copy (RAID 1). */
static void send_to_failed(struct iolab_comp *c, struct volume *v, struct piece *p)
{
	if (p->s.d.write) {
		iolab_sim_done(c->sim, &p->s);
		return;
	}
	p->parts = 0;
	for (unsigned i = 0; i < v->n; i++) {
		if ((int)i == v->failed)
			continue;
		struct piece *q = make_piece(c, v, p->s.parent, i, p->s.d.lbn, p->s.d.blocks, false, NULL);
		if (!q)
			break;
		q->whole = p;
		p->parts++;
		send_piece(c, v, q);
		if (v->level == IOLAB_RAID1)
			break; /* one copy is enough */
	}
	if (!p->parts)
		iolab_sim_done(c->sim, &p->s);
}

static void send_piece(struct iolab_comp *c, struct volume *v, struct piece *p)
{
	unsigned i = p->drive;
	if ((int)i == v->failed) {
		send_to_failed(c, v, p);
		return;
	}
	struct iolab_comp *d = v->drive[i];
	struct wait *w = &v->wait[i];
	v->load[i]++;
	p->s.d.t_arrive = c->sim->now;
	if (!w->n && !(d->ops->full && d->ops->full(d))) {
		int rc = d->ops->submit(d, &p->s);
		if (rc != -EBUSY) {
			if (rc && !c->sim->error)
				c->sim->error = rc;
			return;
		}
	}
	if (w->n == w->cap) {
		unsigned cap = w->cap ? w->cap * 2 : 16;
		struct piece **q = malloc(cap * sizeof(*q));
		if (!q) {
			if (!c->sim->error)
				c->sim->error = -ENOMEM;
			return;
		}
		for (unsigned k = 0; k < w->n; k++)
			q[k] = w->p[(w->head + k) % w->cap];
		free(w->p);
		w->p = q;
		w->head = 0;
		w->cap = cap;
	}
	w->p[(w->head + w->n++) % w->cap] = p;
}

/* Sends a piece for drive i and counts it in the request. */
static void add_piece(struct iolab_comp *c, struct volume *v, struct iolab_sreq *r, unsigned i,
		      uint64_t lbn, uint64_t blocks, bool write)
{
	struct piece *p = make_piece(c, v, r, i, lbn, blocks, write, NULL);
	if (p) {
		r->pieces++;
		send_piece(c, v, p);
	}
}

/* RAID 0: each drive's range of drive blocks for volume blocks [first, last). */
static void submit_raid0(struct iolab_comp *c, struct volume *v, struct iolab_sreq *r)
{
	uint64_t lo[64], hi[64];
	for (unsigned i = 0; i < v->n; i++)
		lo[i] = UINT64_MAX, hi[i] = 0;
	uint64_t first = r->d.lbn, last = r->d.lbn + r->d.blocks;
	for (uint64_t b = first; b < last;) {
		uint64_t k = b / v->unit, off = b % v->unit, len = v->unit - off;
		if (len > last - b)
			len = last - b;
		unsigned i = (unsigned)(k % v->n);
		uint64_t db = k / v->n * v->unit + off;
		if (db < lo[i])
			lo[i] = db;
		if (db + len > hi[i])
			hi[i] = db + len;
		b += len;
	}
	for (unsigned i = 0; i < v->n; i++)
		if (lo[i] != UINT64_MAX)
			add_piece(c, v, r, i, lo[i], hi[i] - lo[i], r->d.write);
}

static void submit_raid1(struct iolab_comp *c, struct volume *v, struct iolab_sreq *r)
{
	if (r->d.write) {
		for (unsigned i = 0; i < v->n; i++)
			add_piece(c, v, r, i, r->d.lbn, r->d.blocks, true);
		return;
	}
	unsigned best = v->failed == 0 ? 1 : 0;
	for (unsigned i = best + 1; i < v->n; i++)
		if ((int)i != v->failed && v->load[i] < v->load[best])
			best = i;
	add_piece(c, v, r, best, r->d.lbn, r->d.blocks, false);
}

/* RAID 5, row s: the drive of its parity and of its data unit j. */
static unsigned parity_drive(const struct volume *v, uint64_t s)
{
	return v->n - 1 - (unsigned)(s % v->n);
}

static unsigned data_drive(const struct volume *v, uint64_t s, unsigned j)
{
	return (parity_drive(v, s) + 1 + j) % v->n;
}

/* One row of a RAID 5 write: the row's data offsets [a, b) (0 <= a < b <= (n-1) x unit). */
static void write_row(struct iolab_comp *c, struct volume *v, struct iolab_sreq *r, uint64_t s,
		      uint64_t a, uint64_t b)
{
	unsigned d = v->n - 1;
	uint64_t u = v->unit, base = s * u;
	struct rowop *op = calloc(1, sizeof(*op));
	if (!op) {
		if (!c->sim->error)
			c->sim->error = -ENOMEM;
		return;
	}
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
	uint64_t rmw = written + (phi - plo), rcw = (uint64_t)d * (phi - plo) - written;
	bool reconstruct = !full && rcw < rmw;
	r->pieces++;
	for (unsigned j = 0; j < d; j++) { /* the writes, sent once the reads are in */
		if (whi[j] > wlo[j]) {
			struct piece *p = make_piece(c, v, r, data_drive(v, s, j), base + wlo[j],
						     whi[j] - wlo[j], true, op);
			if (p) {
				p->next = op->writes;
				op->writes = p;
			}
		}
	}
	struct piece *pp = make_piece(c, v, r, parity_drive(v, s), base + plo, phi - plo, true, op);
	if (pp) {
		pp->next = op->writes;
		op->writes = pp;
	}
	struct piece *reads = NULL;
	if (!full && !reconstruct) {
		for (unsigned j = 0; j < d; j++)
			if (whi[j] > wlo[j]) {
				struct piece *p = make_piece(c, v, r, data_drive(v, s, j), base + wlo[j],
							     whi[j] - wlo[j], false, op);
				if (p) {
					p->next = reads;
					reads = p;
				}
			}
		struct piece *p = make_piece(c, v, r, parity_drive(v, s), base + plo, phi - plo, false, op);
		if (p) {
			p->next = reads;
			reads = p;
		}
	} else if (reconstruct) {
		for (unsigned j = 0; j < d; j++) { /* the parity range minus what is written */
			uint64_t lo = plo, hi = phi;
			if (whi[j] > wlo[j] && wlo[j] <= plo)
				lo = whi[j];
			else if (whi[j] > wlo[j] && whi[j] >= phi)
				hi = wlo[j];
			if (hi > lo) {
				struct piece *p = make_piece(c, v, r, data_drive(v, s, j), base + lo,
							     hi - lo, false, op);
				if (p) {
					p->next = reads;
					reads = p;
				}
			}
		}
	}
	struct piece *send = reads ? reads : op->writes;
	if (!reads)
		op->writes = NULL;
	for (struct piece *p = send, *next; p; p = next) {
		next = p->next;
		op->pending++;
		send_piece(c, v, p);
	}
}

static void submit_raid5(struct iolab_comp *c, struct volume *v, struct iolab_sreq *r)
{
	uint64_t u = v->unit, d = v->n - 1, row = d * u;
	uint64_t first = r->d.lbn, last = r->d.lbn + r->d.blocks;
	for (uint64_t s = first / row; s * row < last; s++) {
		uint64_t a = first > s * row ? first - s * row : 0;
		uint64_t b = last < (s + 1) * row ? last - s * row : row;
		if (r->d.write) {
			write_row(c, v, r, s, a, b);
			continue;
		}
		for (unsigned j = 0; j < d; j++) {
			uint64_t lo = a > j * u ? a - j * u : 0, hi = b < (j + 1) * u ? b - j * u : u;
			if (b > j * u && a < (j + 1) * u && hi > lo)
				add_piece(c, v, r, data_drive(v, s, j), s * u + lo, hi - lo, false);
		}
	}
}

/* r is done: counted, and passed up. */
static void finish(struct iolab_comp *c, struct volume *v, struct iolab_sreq *r)
{
	r->d.t_done = c->sim->now;
	v->rep.ios++;
	v->rep.bytes += (uint64_t)r->d.blocks * v->block_bytes;
	v->rep.resident_ns += (double)(r->d.t_done - r->d.t_arrive);
	iolab_sim_done(c->sim, r);
}

static int volume_submit(struct iolab_comp *c, struct iolab_sreq *r)
{
	struct volume *v = c->priv;
	r->d.t_arrive = c->sim->now;
	r->pieces = 0;
	if (v->level == IOLAB_RAID1)
		submit_raid1(c, v, r);
	else if (v->level == IOLAB_RAID5)
		submit_raid5(c, v, r);
	else
		submit_raid0(c, v, r);
	if (!r->pieces) /* nothing to do (out of memory: the error is kept) */
		finish(c, v, r);
	return 0;
}

/* Drive i has room again: sends what waits for it. */
static void drain(struct iolab_comp *c, struct volume *v, unsigned i)
{
	struct wait *w = &v->wait[i];
	struct iolab_comp *d = v->drive[i];
	while (w->n && !(d->ops->full && d->ops->full(d))) {
		struct piece *p = w->p[w->head];
		w->head = (w->head + 1) % w->cap;
		w->n--;
		p->s.d.t_arrive = c->sim->now;
		int rc = d->ops->submit(d, &p->s);
		if (rc && !c->sim->error)
			c->sim->error = rc;
	}
}

static void volume_complete(struct iolab_comp *c, struct iolab_sreq *s)
{
	struct volume *v = c->priv;
	struct piece *p = (struct piece *)s;
	if ((int)p->drive != v->failed) {
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
	if (op) { /* a RAID 5 row: its reads are in, send its writes; its writes are in, done */
		if (--op->pending)
			return;
		if (op->writes) {
			struct piece *w = op->writes;
			op->writes = NULL;
			for (struct piece *next; w; w = next) {
				next = w->next;
				op->pending++;
				send_piece(c, v, w);
			}
			return;
		}
		free(op);
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
		free(v->wait[i].p);
	for (unsigned i = 0; i < v->npieces; i++)
		free(v->all[i]);
	free(v->all);
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
	.cleanup = volume_cleanup,
};

int iolab_comp_volume_init(struct iolab_comp *c, struct iolab_sim *s, struct iolab_comp *const *members,
			   unsigned n, uint64_t member_blocks, uint32_t block_bytes,
			   enum iolab_raid_level level, uint64_t unit_blocks, const int failed[2],
			   uint64_t rebuild_bytes_s)
{
	unsigned min = level == IOLAB_RAID5 ? 3 : 1;
	int f = failed[0];
	if (n < min || n > 64 || !unit_blocks || !member_blocks || !block_bytes ||
	    level < IOLAB_RAID0 || level > IOLAB_RAID5 || f >= (int)n ||
	    (f >= 0 && (level == IOLAB_RAID0 || n < 2)) || failed[1] >= 0 || rebuild_bytes_s)
		return -EINVAL;
	struct volume *v = calloc(1, sizeof(*v));
	if (!v)
		return -ENOMEM;
	*c = (struct iolab_comp){.ops = &iolab_comp_volume, .sim = s, .priv = v};
	v->level = level;
	v->failed = f;
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
	return 0;
}

void iolab_comp_volume_report(const struct iolab_comp *c, struct iolab_comp_report *out)
{
	*out = ((const struct volume *)c->priv)->rep;
	out->kind = "volume";
}

unsigned iolab_comp_volume_members(const struct iolab_comp *c, struct iolab_comp *const **members)
{
	const struct volume *v = c->priv;
	*members = v->drive;
	return v->n;
}
