/* comp_crossing.c: a controller's data crossing the host's I/O buses, as a part of the path.
 *
 * It stands above a controller and names the buses between it and the host memory (its own bus,
 * then each bus that one is bridged to). The controller moves data store-and-forward: a write's
 * data crosses every bus, host side first, before the controller sees the command; a read's
 * data crosses them, controller side first, after the controller has finished it. Each crossing
 * is a transfer on that bus (comp_link.c), so every controller behind one bus shares its rate. */
#include <errno.h>
#include <stdlib.h>

#include "iolab/sim_system.h"

enum { EV_DOWN, EV_UP };

struct crossing {
	struct iolab_comp **bus; /* nbus, the controller's own first */
	unsigned nbus;
	uint32_t block_bytes;
	struct iolab_sreq **spare; /* copies sent below, free for reuse */
	unsigned nspare, cap;
	struct iolab_sreq **all;   /* every copy allocated */
	unsigned nall;
};

/* The request sent below in r's place (r stays the one the part above knows). */
static struct iolab_sreq *copy_of(struct iolab_comp *c, struct crossing *x, struct iolab_sreq *r)
{
	struct iolab_sreq *q;
	if (x->nspare) {
		q = x->spare[--x->nspare];
	} else {
		if (x->nall == x->cap) {
			unsigned cap = x->cap ? x->cap * 2 : 32;
			struct iolab_sreq **all = realloc(x->all, cap * sizeof(*all));
			struct iolab_sreq **spare = realloc(x->spare, cap * sizeof(*spare));
			if (all)
				x->all = all;
			if (spare)
				x->spare = spare;
			if (!all || !spare)
				return NULL;
			x->cap = cap;
		}
		if (!(q = malloc(sizeof(*q))))
			return NULL;
		x->all[x->nall++] = q;
	}
	*q = (struct iolab_sreq){.d = {.lbn = r->d.lbn, .blocks = r->d.blocks, .write = r->d.write,
				       .trim = r->d.trim, .t_arrive = c->sim->now}, .from = c, .parent = r};
	return q;
}

/* Moves r's data over the buses in order (up: controller side first), from now; returns when
 * the last crossing ends. */
static uint64_t cross(struct crossing *x, const struct iolab_sreq *r, uint64_t now, bool up)
{
	uint64_t t = now, bytes = (uint64_t)r->d.blocks * x->block_bytes;
	for (unsigned i = 0; i < x->nbus; i++) {
		struct iolab_comp *b = x->bus[up ? i : x->nbus - 1 - i];
		t = iolab_comp_link_transfer(b, (double)t, (double)t, bytes);
	}
	return t;
}

static void send_below(struct iolab_comp *c, struct iolab_sreq *r)
{
	struct iolab_sreq *q = copy_of(c, c->priv, r);
	int rc = q ? c->below->ops->submit(c->below, q) : -ENOMEM;
	if (rc && !c->sim->error)
		c->sim->error = rc; /* a controller takes every request */
}

static int crossing_submit(struct iolab_comp *c, struct iolab_sreq *r)
{
	struct crossing *x = c->priv;
	r->d.t_arrive = c->sim->now;
	uint64_t t = r->d.write ? cross(x, r, c->sim->now, false) : c->sim->now;
	if (t > c->sim->now)
		iolab_sim_at(c, t, EV_DOWN, r);
	else
		send_below(c, r);
	return 0;
}

static void crossing_complete(struct iolab_comp *c, struct iolab_sreq *q)
{
	struct crossing *x = c->priv;
	struct iolab_sreq *r = q->parent;
	x->spare[x->nspare++] = q;
	uint64_t t = r->d.write || r->d.trim ? c->sim->now : cross(x, r, c->sim->now, true); /* a trim
													 moves no data */
	if (t > c->sim->now)
		iolab_sim_at(c, t, EV_UP, r);
	else
		iolab_sim_done(c->sim, r);
}

static void crossing_event(struct iolab_comp *c, unsigned what, void *arg)
{
	if (what == EV_DOWN)
		send_below(c, arg);
	else
		iolab_sim_done(c->sim, arg);
}

static void crossing_cleanup(struct iolab_comp *c)
{
	struct crossing *x = c->priv;
	if (!x)
		return;
	for (unsigned i = 0; i < x->nall; i++)
		free(x->all[i]);
	free(x->all);
	free(x->spare);
	free(x->bus);
	free(x);
}

const struct iolab_comp_ops iolab_comp_crossing = {
	.kind = "crossing",
	.version = IOLAB_COMP_OPS_VERSION,
	.submit = crossing_submit,
	.complete = crossing_complete,
	.event = crossing_event,
	.cleanup = crossing_cleanup,
};

int iolab_comp_crossing_init(struct iolab_comp *c, struct iolab_sim *s, struct iolab_comp *below,
			     struct iolab_comp *const *bus, unsigned nbus, uint32_t block_bytes)
{
	struct crossing *x = calloc(1, sizeof(*x));
	if (!x || !(x->bus = malloc((nbus ? nbus : 1) * sizeof(*x->bus)))) {
		free(x);
		return -ENOMEM;
	}
	for (unsigned i = 0; i < nbus; i++)
		x->bus[i] = bus[i];
	x->nbus = nbus;
	x->block_bytes = block_bytes;
	*c = (struct iolab_comp){.ops = &iolab_comp_crossing, .sim = s, .below = below, .priv = x};
	return 0;
}
