/* comp_link.c: a bus or a drive channel (subsys.h's links) as a shared resource of the
 * simulated path, and its report.
 *
 * A transfer of b bytes occupies the link for X = overhead + b / (rated rate x efficiency), and
 * the link carries one transfer at a time. Transfers are placed in the order they are asked for
 * (the event order of virtual time): a transfer whose data is ready at `ready` and which would
 * end at `end` on its own (the drive's interface time) is placed as late as it can be without
 * ending after `end`, never before `ready` nor before the previous transfer ended; so a fast
 * link changes nothing for a lone drive, and a slow or busy one delays the end. The bound
 * that matters follows: the link never carries more than rated x efficiency.
 *
 * An exclusive link (parallel ATA) is held by one drive from the start of a command to its end;
 * the others wait in arrival order and are woken, one at a time, by an event of their own. */
#include <errno.h>
#include <stdlib.h>

#include "iolab/sim_kinds.h"
#include "iolab/sim_system.h"
#include "iolab/subsys.h"
#include "sim/core/ptr_ring.h"

struct link {
	struct iolab_link_type t;
	double ns_per_byte;
	double free_at;           /* the last placed transfer ends */
	struct iolab_comp_report rep;
	/* exclusive links */
	struct iolab_comp *owner;
	double held_since;
	struct ptr_ring wait;     /* parts waiting for it, in arrival order */
	unsigned wake;            /* the event that tells a waiting part it holds the link */
};

static void link_cleanup(struct iolab_comp *c)
{
	struct link *l = c->priv;
	if (l)
		ptr_ring_free(&l->wait);
	free(l);
}

const struct iolab_comp_ops iolab_comp_link = {
	.kind = "link",
	.version = IOLAB_COMP_OPS_VERSION,
	.cleanup = link_cleanup,
	.report = iolab_comp_link_report,
};

int iolab_comp_link_init(struct iolab_comp *c, struct iolab_sim *s, const struct iolab_link_type *t)
{
	if (!(t->rated_mb_s > 0) || !(t->efficiency > 0) || t->efficiency > 1)
		return -EINVAL;
	struct link *l = calloc(1, sizeof(*l));
	if (!l)
		return -ENOMEM;
	l->t = *t;
	l->ns_per_byte = 1e3 / (t->rated_mb_s * t->efficiency);
	*c = (struct iolab_comp){.ops = &iolab_comp_link, .sim = s, .priv = l};
	return 0;
}

bool iolab_comp_link_exclusive(const struct iolab_comp *c)
{
	return ((const struct link *)c->priv)->t.kind == IOLAB_LINK_EXCLUSIVE;
}

double iolab_comp_link_time(const struct iolab_comp *c, uint64_t bytes)
{
	const struct link *l = c->priv;
	return (double)l->t.overhead_ns + (double)bytes * l->ns_per_byte;
}

uint64_t iolab_comp_link_transfer(struct iolab_comp *c, double ready, double end, uint64_t bytes)
{
	struct link *l = c->priv;
	double x = iolab_comp_link_time(c, bytes);
	double start = end - x;
	if (start < ready)
		start = ready;
	if (start < l->free_at)
		start = l->free_at;
	l->free_at = start + x;
	l->rep.ios++;
	l->rep.bytes += bytes;
	if (l->t.kind != IOLAB_LINK_EXCLUSIVE) /* an exclusive link is busy while it is held */
		l->rep.busy_ns += x;
	double done = start + x > end ? start + x : end;
	return (uint64_t)(done + 0.5);
}

bool iolab_comp_link_acquire(struct iolab_comp *c, struct iolab_comp *who, unsigned what)
{
	struct link *l = c->priv;
	if (!l->owner || l->owner == who) {
		if (!l->owner)
			l->held_since = (double)c->sim->now;
		l->owner = who;
		return true;
	}
	l->wake = what; /* the same for every part that waits (the drives' pick) */
	if (ptr_ring_push(&l->wait, who) && !c->sim->error)
		c->sim->error = -ENOMEM;
	return false;
}

void iolab_comp_link_release(struct iolab_comp *c, struct iolab_comp *who)
{
	struct link *l = c->priv;
	if (l->owner != who)
		return;
	l->rep.busy_ns += (double)c->sim->now - l->held_since;
	l->owner = NULL;
	if (!l->wait.n)
		return;
	l->owner = ptr_ring_pop(&l->wait);
	l->held_since = (double)c->sim->now;
	iolab_sim_at_late(l->owner, c->sim->now, l->wake, NULL);
}

void iolab_comp_link_report(const struct iolab_comp *c, struct iolab_comp_report *out)
{
	const struct link *l = c->priv;
	*out = l->rep;
	if (l->owner) /* held now: count the time so far */
		out->busy_ns += (double)c->sim->now - l->held_since;
	snprintf(out->kind, sizeof(out->kind), "%s", l->t.kind == IOLAB_LINK_BUS ? "bus" : "channel");
	out->rated_mb_s = l->t.rated_mb_s;
}

/* The bus and channel lines of a subsystem file (sim_kinds.h). */
static const struct iolab_param bus_params[] = {
	{.key = "type", .type = IOLAB_PT_BUS, .off = offsetof(struct iolab_sub_bus, type),
	 .required = true, .def_doc = "", .doc = "an I/O bus name or a plain rate (below)"},
	{.key = "up", .type = IOLAB_PT_REF, .ref = "bus", .fixed = true,
	 .off = offsetof(struct iolab_sub_bus, up), .def_doc = "the host's own",
	 .doc = "the bus this one is bridged to; its data crosses that bus too"},
};

const struct iolab_kind iolab_kind_bus = {
	.name = "bus", .cls = IOLAB_KC_BUS, .ops = &iolab_comp_link,
	.about = "a host I/O bus (PCI, PCI-X, PCIe): every controller's data on it crosses it",
	.params = bus_params, .nparams = sizeof(bus_params) / sizeof(bus_params[0]),
};

static const struct iolab_param channel_params[] = {
	{.key = "type", .type = IOLAB_PT_CHANNEL, .off = offsetof(struct iolab_sub_channel, type),
	 .required = true, .def_doc = "", .doc = "a drive channel name or a plain rate (below)"},
	{.key = "controller", .type = IOLAB_PT_REF, .ref = "controller", .fixed = true,
	 .off = offsetof(struct iolab_sub_channel, controller), .def_doc = "straight to the host",
	 .doc = "the controller it belongs to"},
};

const struct iolab_kind iolab_kind_channel = {
	.name = "channel", .cls = IOLAB_KC_CHANNEL, .ops = &iolab_comp_link,
	.about = "a drive channel (SCSI, ATA, SATA, SAS, FC) from a controller to its devices",
	.params = channel_params, .nparams = sizeof(channel_params) / sizeof(channel_params[0]),
};
