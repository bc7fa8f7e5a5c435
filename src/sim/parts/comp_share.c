/* comp_share.c: one queue in front of a drive that several volumes use (comp_share.h). Each
 * volume sends the drive its pieces through the share, which sends them on while the drive has
 * room and holds the rest in one host queue (host_queue.c, the host's policy). Without it each
 * volume would hold its own waiting pieces and send them only when one of its own commands on
 * that drive completed: a volume whose pieces all wait would never be told the drive has room.
 * The share passes each request down as a request of its own (its parent the volume's piece)
 * and hands the piece back up when the drive finished it. It does no work and is not reported:
 * the drive's figures hold every volume's commands. */
#include <errno.h>

#include "iolab/host_queue.h"
#include "sim/parts/comp_share.h"
#include "sim/parts/sreq_pool.h"

struct share {
	struct iolab_host_queue q; /* what the drive refused, waiting for room */
	struct sreq_pool pool;     /* the requests sent below */
};

static void note_error(struct iolab_comp *c, int rc)
{
	if (rc && !c->sim->error)
		c->sim->error = rc;
}

static bool below_full(const struct iolab_comp *c)
{
	return c->below->ops->full && c->below->ops->full(c->below);
}

static int share_submit(struct iolab_comp *c, struct iolab_sreq *r)
{
	struct share *h = c->priv;
	struct iolab_sreq *w = sreq_pool_get(&h->pool);
	if (!w)
		return -ENOMEM;
	w->d = (struct iolab_disk_req){.lbn = r->d.lbn, .blocks = r->d.blocks, .write = r->d.write,
				       .trim = r->d.trim, .t_arrive = c->sim->now};
	w->from = c;
	w->parent = r;
	if (!h->q.n && !below_full(c)) {
		int rc = c->below->ops->submit(c->below, w);
		if (rc != -EBUSY)
			return rc;
	}
	return iolab_hostq_push(&h->q, &w->d);
}

static void share_complete(struct iolab_comp *c, struct iolab_sreq *w)
{
	struct share *h = c->priv;
	struct iolab_sreq *r = w->parent;
	sreq_pool_put(&h->pool, w);
	while (h->q.n && !below_full(c)) {
		struct iolab_sreq *next = (struct iolab_sreq *)iolab_hostq_pop(&h->q, c->sim->now);
		next->d.t_arrive = c->sim->now;
		note_error(c, c->below->ops->submit(c->below, next));
	}
	iolab_sim_done(c->sim, r);
}

static void share_cleanup(struct iolab_comp *c)
{
	struct share *h = c->priv;
	if (!h)
		return;
	iolab_hostq_free(&h->q);
	sreq_pool_free(&h->pool);
	free(h);
}

const struct iolab_comp_ops iolab_comp_share = {
	.kind = "share",
	.version = IOLAB_COMP_OPS_VERSION,
	.submit = share_submit,
	.complete = share_complete,
	.cleanup = share_cleanup,
};

int iolab_comp_share_init(struct iolab_comp *c, struct iolab_sim *s, struct iolab_comp *below,
			  unsigned sched)
{
	struct share *h = calloc(1, sizeof(*h));
	if (!h || iolab_hostq_init(&h->q, (enum iolab_host_sched)sched, 16)) {
		free(h);
		return -ENOMEM;
	}
	h->pool.size = sizeof(struct iolab_sreq);
	*c = (struct iolab_comp){.ops = &iolab_comp_share, .sim = s, .below = below, .priv = h};
	return 0;
}
