/* comp_volume.c: a volume over several drives as a component (RAID 0 and RAID 1).
 *
 * RAID 0: block b of the volume lies in stripe unit k = b / unit, on drive k mod n, at drive
 * block (k / n) x unit + b mod unit; a request becomes one piece per drive it touches (on each
 * drive its blocks are contiguous).
 * RAID 1: every drive holds every block; a read goes to the copy with the fewest commands
 * outstanding (the first of equals), a write to all copies.
 *
 * Pieces go to the drives at once; a request completes when its last piece does. A drive that
 * is full (QUEUE FULL) leaves its pieces waiting in the volume, in arrival order, until one of
 * its commands completes. The volume itself takes every request. */
#include <errno.h>
#include <stdlib.h>
#include <string.h>

#include "iolab/sim_system.h"

struct volume {
	enum iolab_raid_level level;
	unsigned n;               /* drives */
	unsigned *load;           /* per drive: pieces sent to it or waiting for it, not finished */
	uint64_t unit;            /* stripe unit, in blocks */
	struct iolab_comp *drive; /* n drives */
	struct iolab_sreq *pieces; /* cap x n, a block of n per request in flight */
	struct iolab_sreq **free_blocks;
	unsigned nfree;
	struct wait {             /* per drive: pieces waiting for room, a ring */
		struct iolab_sreq **r;
		unsigned head, n;
	} *wait;
	unsigned cap;
};

static void send_piece(struct iolab_comp *c, struct volume *v, unsigned i, struct iolab_sreq *p)
{
	v->load[i]++;
	struct iolab_comp *d = &v->drive[i];
	struct wait *w = &v->wait[i];
	if (!w->n && !(d->ops->full && d->ops->full(d))) {
		int rc = d->ops->submit(d, p);
		if (rc != -EBUSY) {
			if (rc && !c->sim->error)
				c->sim->error = rc;
			return;
		}
	}
	w->r[(w->head + w->n++) % v->cap] = p;
}

/* RAID 0: the range of drive blocks that volume blocks [first, last) occupy on each drive. */
static void map_raid0(const struct volume *v, uint64_t first, uint64_t last, uint64_t *lo, uint64_t *hi)
{
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
}

static int volume_submit(struct iolab_comp *c, struct iolab_sreq *r)
{
	struct volume *v = c->priv;
	if (!v->nfree)
		return -EBUSY; /* more requests in flight than the load's depth: not reached */
	struct iolab_sreq *block = v->free_blocks[--v->nfree];
	uint64_t lo[64], hi[64]; /* per drive: its range of drive blocks (n <= 64) */
	for (unsigned i = 0; i < v->n; i++)
		lo[i] = UINT64_MAX, hi[i] = 0;
	if (v->level == IOLAB_RAID1) {
		unsigned best = 0;
		for (unsigned i = 0; i < v->n; i++) {
			if (r->d.write) { /* every copy */
				lo[i] = r->d.lbn;
				hi[i] = r->d.lbn + r->d.blocks;
			} else if (v->load[i] < v->load[best]) {
				best = i;
			}
		}
		if (!r->d.write) {
			lo[best] = r->d.lbn;
			hi[best] = r->d.lbn + r->d.blocks;
		}
	} else {
		map_raid0(v, r->d.lbn, r->d.lbn + r->d.blocks, lo, hi);
	}
	r->pieces = 0;
	r->held = block;
	for (unsigned i = 0; i < v->n; i++) {
		if (lo[i] == UINT64_MAX)
			continue;
		struct iolab_sreq *p = &block[i];
		*p = (struct iolab_sreq){.d = {.lbn = lo[i], .blocks = (uint32_t)(hi[i] - lo[i]),
					       .write = r->d.write, .t_arrive = c->sim->now},
					 .from = c, .parent = r};
		r->pieces++;
		send_piece(c, v, i, p);
	}
	return 0;
}

static void volume_complete(struct iolab_comp *c, struct iolab_sreq *p)
{
	struct volume *v = c->priv;
	struct iolab_sreq *r = p->parent, *block = r->held;
	unsigned i = (unsigned)(p - block);
	struct wait *w = &v->wait[i];
	struct iolab_comp *d = &v->drive[i];
	v->load[i]--;
	while (w->n && !(d->ops->full && d->ops->full(d))) { /* drive i has room again */
		struct iolab_sreq *next = w->r[w->head];
		w->head = (w->head + 1) % v->cap;
		w->n--;
		next->d.t_arrive = c->sim->now;
		int rc = d->ops->submit(d, next);
		if (rc && !c->sim->error)
			c->sim->error = rc;
	}
	if (--r->pieces)
		return;
	v->free_blocks[v->nfree++] = block;
	r->d.t_done = c->sim->now;
	iolab_sim_done(c->sim, r);
}

static void volume_cleanup(struct iolab_comp *c)
{
	struct volume *v = c->priv;
	if (!v)
		return;
	for (unsigned i = 0; v->drive && i < v->n; i++)
		iolab_comp_free(&v->drive[i]);
	for (unsigned i = 0; v->wait && i < v->n; i++)
		free(v->wait[i].r);
	free(v->wait);
	free(v->load);
	free(v->drive);
	free(v->pieces);
	free(v->free_blocks);
	free(v);
}

const struct iolab_comp_ops iolab_comp_volume = {
	.kind = "volume",
	.version = IOLAB_COMP_OPS_VERSION,
	.submit = volume_submit,
	.complete = volume_complete,
	.cleanup = volume_cleanup,
};

int iolab_comp_volume_init(struct iolab_comp *c, struct iolab_sim *s, const struct iolab_disk_model *m,
			   enum iolab_raid_level level, unsigned n, uint64_t unit_blocks, unsigned cap)
{
	if (!n || n > 64 || !unit_blocks || !cap || level < IOLAB_RAID0 || level > IOLAB_RAID1)
		return -EINVAL;
	struct volume *v = calloc(1, sizeof(*v));
	if (!v)
		return -ENOMEM;
	*c = (struct iolab_comp){.ops = &iolab_comp_volume, .sim = s, .priv = v};
	v->level = level;
	v->n = n;
	v->load = calloc(n, sizeof(*v->load));
	v->unit = unit_blocks;
	v->cap = cap;
	v->drive = calloc(n, sizeof(*v->drive));
	v->wait = calloc(n, sizeof(*v->wait));
	v->pieces = calloc((size_t)cap * n, sizeof(*v->pieces));
	v->free_blocks = calloc(cap, sizeof(*v->free_blocks));
	if (!v->drive || !v->wait || !v->load || !v->pieces || !v->free_blocks)
		goto nomem;
	for (unsigned i = 0; i < n; i++) {
		if (!(v->wait[i].r = calloc(cap, sizeof(*v->wait[i].r))) ||
		    iolab_comp_drive_init(&v->drive[i], s, m))
			goto nomem;
	}
	for (unsigned i = 0; i < cap; i++)
		v->free_blocks[v->nfree++] = &v->pieces[(size_t)i * n];
	return 0;
nomem:
	volume_cleanup(c);
	c->priv = NULL;
	return -ENOMEM;
}

unsigned iolab_comp_volume_drives(const struct iolab_comp *c, const struct iolab_comp **drives)
{
	const struct volume *v = c->priv;
	*drives = v->drive;
	return v->n;
}
