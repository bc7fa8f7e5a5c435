/* comp_concat.c: parts end to end in one address space (comp_share.h), as Linux md's "linear"
 * level joins devices: block b belongs to the part k whose range [start_k, start_k + blocks_k)
 * holds it, at block b - start_k of that part. A request that crosses a boundary becomes one
 * piece per part, and completes when its last piece does. A part that is full (QUEUE FULL)
 * keeps its pieces waiting here until one of its commands completes, sent in the host's order
 * (--host-scheduler), as the operating system's queue of each device would send them. The
 * builder puts one above the volumes of a controller and one above the host's groups when the
 * load is aimed at volumes by name (--target): each target is then a range of this space. It
 * does no work and is not reported. */
#include <errno.h>

#include "iolab/host_queue.h"
#include "sim/parts/comp_share.h"
#include "sim/parts/sreq_pool.h"

struct piece {
	struct iolab_sreq s; /* first: the part below hands back &s */
	unsigned part;
};

struct concat {
	unsigned n;
	struct iolab_comp *part[64];
	uint64_t start[65];            /* start[k]: the first block of part k; start[n]: the end */
	struct iolab_host_queue wait[64]; /* per part: pieces it refused */
	struct sreq_pool pool;
};

static bool full(const struct iolab_comp *p)
{
	return p->ops->full && p->ops->full(p);
}

static void note_error(struct iolab_comp *c, int rc)
{
	if (rc && !c->sim->error)
		c->sim->error = rc;
}

static void send(struct iolab_comp *c, struct concat *t, struct piece *p)
{
	struct iolab_comp *below = t->part[p->part];
	struct iolab_host_queue *w = &t->wait[p->part];
	if (!w->n && !full(below)) {
		int rc = below->ops->submit(below, &p->s);
		if (rc != -EBUSY) {
			note_error(c, rc);
			return;
		}
	}
	note_error(c, iolab_hostq_push(w, &p->s.d));
}

static int concat_submit(struct iolab_comp *c, struct iolab_sreq *r)
{
	struct concat *t = c->priv;
	uint64_t first = r->d.lbn, last = r->d.lbn + r->d.blocks;
	r->d.t_arrive = c->sim->now;
	r->pieces = 0;
	if (last > t->start[t->n])
		return -EINVAL; /* past the end: the load's regions lie inside */
	struct piece *list[64];
	unsigned n = 0;
	for (unsigned k = 0; k < t->n; k++) {
		uint64_t lo = first > t->start[k] ? first : t->start[k];
		uint64_t hi = last < t->start[k + 1] ? last : t->start[k + 1];
		if (hi <= lo)
			continue;
		struct piece *p = sreq_pool_get(&t->pool);
		if (!p)
			return -ENOMEM;
		p->s = (struct iolab_sreq){.d = {.lbn = lo - t->start[k], .blocks = (uint32_t)(hi - lo),
						 .write = r->d.write, .trim = r->d.trim,
						 .t_arrive = c->sim->now},
					   .from = c, .parent = r};
		p->part = k;
		list[n++] = p;
	}
	r->pieces = n; /* counted before any is sent: none completes inside submit */
	for (unsigned i = 0; i < n; i++)
		send(c, t, list[i]);
	if (!n)
		iolab_sim_done(c->sim, r);
	return 0;
}

static void concat_complete(struct iolab_comp *c, struct iolab_sreq *s)
{
	struct concat *t = c->priv;
	struct piece *p = (struct piece *)s;
	struct iolab_sreq *r = p->s.parent;
	unsigned k = p->part;
	sreq_pool_put(&t->pool, p);
	struct iolab_comp *below = t->part[k];
	while (t->wait[k].n && !full(below)) {
		struct piece *next = (struct piece *)iolab_hostq_pop(&t->wait[k], c->sim->now);
		next->s.d.t_arrive = c->sim->now;
		note_error(c, below->ops->submit(below, &next->s));
	}
	if (--r->pieces)
		return;
	r->d.t_done = c->sim->now;
	iolab_sim_done(c->sim, r);
}

static void concat_cleanup(struct iolab_comp *c)
{
	struct concat *t = c->priv;
	if (!t)
		return;
	for (unsigned k = 0; k < t->n; k++)
		iolab_hostq_free(&t->wait[k]);
	sreq_pool_free(&t->pool);
	free(t);
}

const struct iolab_comp_ops iolab_comp_concat = {
	.kind = "concat",
	.version = IOLAB_COMP_OPS_VERSION,
	.submit = concat_submit,
	.complete = concat_complete,
	.cleanup = concat_cleanup,
};

int iolab_comp_concat_init(struct iolab_comp *c, struct iolab_sim *s, struct iolab_comp *const *parts,
			   const uint64_t *blocks, unsigned n, unsigned sched)
{
	if (n < 1 || n > 64)
		return -EINVAL;
	for (unsigned k = 0; k < n; k++)
		if (!blocks[k])
			return -EINVAL;
	struct concat *t = calloc(1, sizeof(*t));
	if (!t)
		return -ENOMEM;
	*c = (struct iolab_comp){.ops = &iolab_comp_concat, .sim = s, .priv = t};
	t->pool.size = sizeof(struct piece);
	for (unsigned k = 0; k < n; k++) {
		if (iolab_hostq_init(&t->wait[k], (enum iolab_host_sched)sched, 16)) {
			concat_cleanup(c);
			c->priv = NULL;
			return -ENOMEM;
		}
		t->n = k + 1;
		t->part[k] = parts[k];
		t->start[k + 1] = t->start[k] + blocks[k];
	}
	return 0;
}
