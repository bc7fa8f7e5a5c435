/* comp_host.c: the host as a component, the top of every simulated path. It sends each request
 * of the load to the part below after its time per command (--host-overhead); what the part
 * below refuses (QUEUE FULL) waits in the host queue (host_queue.c), whose policy picks the next
 * one to send each time a request completes (--host-scheduler). It counts the time requests
 * spent in it: waiting, and the time per command. */
#include <errno.h>
#include <stdlib.h>

#include "iolab/engine.h"
#include "iolab/host_queue.h"
#include "iolab/sim_kinds.h"
#include "iolab/sim_system.h"
#include "iolab/subsys.h"

struct host {
	struct iolab_host_queue q;
	uint64_t overhead;
	double wait_ns;
	uint32_t block_bytes;
	uint64_t ios, bytes;
};

/* Sends r below at now, after the time per command. Returns what the part below says. */
static int send(struct iolab_comp *c, struct host *h, struct iolab_sreq *r)
{
	uint64_t now = c->sim->now;
	h->wait_ns += (double)(now - r->d.t_arrive) + (double)h->overhead;
	r->d.t_arrive = now + h->overhead;
	r->from = c;
	return c->below->ops->submit(c->below, r);
}

static bool below_full(struct iolab_comp *c)
{
	return c->below->ops->full && c->below->ops->full(c->below);
}

static int host_submit(struct iolab_comp *c, struct iolab_sreq *r)
{
	struct host *h = c->priv;
	r->d.t_arrive = c->sim->now;
	if (!h->q.n && !below_full(c))
		return send(c, h, r);
	return iolab_hostq_push(&h->q, &r->d); /* the part below is full: r waits here */
}

static void host_complete(struct iolab_comp *c, struct iolab_sreq *r)
{
	struct host *h = c->priv;
	while (h->q.n && !below_full(c)) { /* the part below has room again */
		int rc = send(c, h, (struct iolab_sreq *)iolab_hostq_pop(&h->q, c->sim->now));
		if (rc && !c->sim->error)
			c->sim->error = rc;
	}
	h->ios++;
	h->bytes += r->d.trim ? 0 : (uint64_t)r->d.blocks * h->block_bytes; /* a trim moves none */
	r->from = NULL; /* the host is the top: r goes back to the load */
	iolab_sim_done(c->sim, r);
}

static void host_cleanup(struct iolab_comp *c)
{
	struct host *h = c->priv;
	if (h)
		iolab_hostq_free(&h->q);
	free(h);
}

const struct iolab_comp_ops iolab_comp_host = {
	.kind = "host",
	.version = IOLAB_COMP_OPS_VERSION,
	.submit = host_submit,
	.complete = host_complete,
	.cleanup = host_cleanup,
	.report = iolab_comp_host_report,
};

int iolab_comp_host_init(struct iolab_comp *c, struct iolab_sim *s, struct iolab_comp *below,
			 const struct iolab_host_params *p, unsigned cap, uint32_t block_bytes)
{
	struct host *h = calloc(1, sizeof(*h));
	if (!h || iolab_hostq_init(&h->q, p->sched, cap)) {
		free(h);
		return -ENOMEM;
	}
	h->overhead = p->overhead_ns;
	h->block_bytes = block_bytes;
	*c = (struct iolab_comp){.ops = &iolab_comp_host, .sim = s, .below = below, .priv = h};
	return 0;
}

void iolab_comp_host_report(const struct iolab_comp *c, struct iolab_comp_report *out)
{
	const struct host *h = c->priv;
	*out = (struct iolab_comp_report){.kind = "host", .ios = h->ios, .bytes = h->bytes,
					  .resident_ns = h->wait_ns};
}

/* The host's line in a subsystem file (sim_kinds.h): its record is the whole description. */
static int sched_choice(const char *field, const char *text, unsigned *out, struct iolab_err *err)
{
	enum iolab_host_sched s;
	int rc = iolab_host_sched_parse(field, text, &s, err);
	*out = rc ? *out : (unsigned)s;
	return rc;
}

static const struct iolab_param host_params[] = {
	{.key = "scheduler", .type = IOLAB_PT_CHOICE, .off = offsetof(struct iolab_subsys, host.sched),
	 .choice = sched_choice, .def_doc = "`none`",
	 .doc = "`none`, `cscan`, `deadline` (the host's queue: docs/subsystems.md)"},
	{.key = "overhead", .type = IOLAB_PT_TIME, .off = offsetof(struct iolab_subsys, host.overhead_ns),
	 .unit = "ns", .max = 1e9, .def_doc = "0",
	 .doc = "time per command in the host's driver and adapter"},
	{.key = "stripe", .type = IOLAB_PT_SIZE_POS, .off = offsetof(struct iolab_subsys, host_stripe_bytes),
	 .unit = "bytes", .min = 512, .max = 1 << 30, .def_doc = "64k",
	 .doc = "the unit in which the host stripes over several volumes (RAID 0 over them), a "
		"multiple of 512 bytes up to 1 GiB"},
};

const struct iolab_kind iolab_kind_host = {
	.name = "host", .cls = IOLAB_KC_HOST, .ops = &iolab_comp_host,
	.about = "the host: its queue and its time per command (at most one line, no name)",
	.params = host_params, .nparams = sizeof(host_params) / sizeof(host_params[0]),
};
