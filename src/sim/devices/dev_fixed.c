/* dev_fixed.c: the `fixed` device kind: a device whose every command takes a fixed access time
 * and then moves its data at a fixed rate, in arrival order, one at a time. It is DiskSim 4.0's
 * simpledisk (src/disksim_simpledisk.c; modspec src-simpledisk.modspec): "Block count" is
 * `size` (in 512-byte blocks, DiskSim's), "Access time" (with "Command overhead", which
 * simpledisk adds before it) is `time`, "Bulk sector transfer time" (per 512-byte block) is
 * 512 / `rate`, and "Max queue length" (the commands it holds, in service or waiting) is
 * `queue`. DiskSim's bus then moves each block at the slower of the two ends' block times;
 * here, on a modelled channel the data crosses the channel after the access time and the
 * command ends when that transfer does (comp_link.c), as a drive's read data does. It does not
 * hold a channel for a whole command, so a parallel ATA channel (exclusive) is refused.
 *
 * A trim (TRIM, discard) takes its turn and the access time (its command overhead) and moves no
 * data.
 *
 * This file is the whole kind: its component ops, its keys and its registry entry (the one
 * line in components.c). */
#include <errno.h>
#include <stdlib.h>

#include "iolab/sim_kinds.h"
#include "iolab/sim_system.h"
#include "iolab/subsys.h"

enum { P_SIZE, P_TIME, P_RATE, P_QUEUE };
enum { EV_END };
#define BLOCK_BYTES 512u

struct fixed {
	uint64_t time_ns;
	double rate;               /* bytes/s */
	unsigned cap;              /* commands it holds: in service and waiting */
	struct iolab_sreq **q;     /* waiting, in arrival order: a ring of cap */
	unsigned head, n;          /* n: waiting, not counting the one in service */
	bool busy;
	struct iolab_comp *link;   /* its channel, or NULL */
	struct iolab_comp_report rep;
	double service_ns, wait_ns; /* totals for the breakdown */
	uint64_t reads;
};

static bool fixed_full(const struct iolab_comp *c)
{
	const struct fixed *f = c->priv;
	return f->n + f->busy >= f->cap;
}

/* Serves r from now: the access time, then its data at the rate (over the channel if any). */
static void start(struct iolab_comp *c, struct fixed *f, struct iolab_sreq *r)
{
	uint64_t now = c->sim->now, bytes = r->d.trim ? 0 : (uint64_t)r->d.blocks * BLOCK_BYTES;
	double xfer = (double)bytes * 1e9 / f->rate;
	uint64_t ready = now + f->time_ns, end = ready + (uint64_t)(xfer + 0.5);
	if (f->link && bytes)
		end = iolab_comp_link_transfer(f->link, (double)ready, (double)end, bytes);
	f->busy = true;
	f->wait_ns += (double)(now - r->d.t_arrive);
	f->service_ns += (double)(end - now);
	f->reads += !r->d.write && !r->d.trim;
	f->rep.busy_ns += (double)(end - now);
	r->d.t_done = end;
	iolab_sim_at(c, end, EV_END, r);
}

static int fixed_submit(struct iolab_comp *c, struct iolab_sreq *r)
{
	struct fixed *f = c->priv;
	if (fixed_full(c))
		return -EBUSY;
	r->d.t_arrive = c->sim->now > r->d.t_arrive ? c->sim->now : r->d.t_arrive;
	if (!f->busy)
		start(c, f, r);
	else
		f->q[(f->head + f->n++) % f->cap] = r;
	return 0;
}

static void fixed_event(struct iolab_comp *c, unsigned what, void *arg)
{
	struct fixed *f = c->priv;
	struct iolab_sreq *r = arg;
	(void)what;
	f->busy = false;
	f->rep.ios++;
	f->rep.bytes += r->d.trim ? 0 : (uint64_t)r->d.blocks * BLOCK_BYTES;
	f->rep.resident_ns += (double)(r->d.t_done - r->d.t_arrive);
	iolab_sim_done(c->sim, r);
	if (f->n) {
		struct iolab_sreq *next = f->q[f->head];
		f->head = (f->head + 1) % f->cap;
		f->n--;
		start(c, f, next);
	}
}

static void fixed_report(const struct iolab_comp *c, struct iolab_comp_report *out)
{
	*out = ((const struct fixed *)c->priv)->rep;
	snprintf(out->kind, sizeof(out->kind), "%s", "fixed");
}

/* Its phases: waiting in its queue, and its service (the access time and the transfer). */
static void fixed_breakdown(const struct iolab_comp *c, struct iolab_breakdown *b)
{
	const struct fixed *f = c->priv;
	iolab_breakdown_put(b, "queue", f->wait_ns);
	iolab_breakdown_put(b, "service", f->service_ns);
	b->ios += f->rep.ios;
	b->reads += f->reads;
}

static void fixed_cleanup(struct iolab_comp *c)
{
	struct fixed *f = c->priv;
	if (f)
		free(f->q);
	free(f);
}

const struct iolab_comp_ops iolab_comp_fixed = {
	.kind = "fixed",
	.version = IOLAB_COMP_OPS_VERSION,
	.submit = fixed_submit,
	.full = fixed_full,
	.event = fixed_event,
	.cleanup = fixed_cleanup,
	.report = fixed_report,
	.breakdown = fixed_breakdown,
};

static void fixed_geometry(const struct iolab_subsys *s, const struct iolab_sub_drive *d,
			   uint64_t *blocks, uint32_t *block_bytes)
{
	(void)s;
	*blocks = d->param[P_SIZE] / BLOCK_BYTES;
	*block_bytes = BLOCK_BYTES;
}

static int fixed_check(const struct iolab_subsys *s, const struct iolab_sub_drive *d,
		       struct iolab_err *err)
{
	if (d->channel >= 0 && d->channel < (int)s->nchan &&
	    s->chan[d->channel].type.kind == IOLAB_LINK_EXCLUSIVE)
		return iolab_errf(err, EINVAL, "field 'channel': a fixed device does not hold a channel "
				  "from a command's start to its end as parallel ATA needs: put it on a "
				  "shared or point-to-point channel");
	if (d->param[P_SIZE] < BLOCK_BYTES)
		return iolab_errf(err, EINVAL, "field 'size': a fixed device holds at least one "
				  "block of %u bytes", BLOCK_BYTES);
	if (!d->param[P_RATE])
		return iolab_errf(err, EINVAL, "field 'rate': must be more than 0 bytes/s");
	if (!d->param[P_QUEUE] || d->param[P_QUEUE] > 1024)
		return iolab_errf(err, EINVAL, "field 'queue': %llu is not 1 to 1024",
				  (unsigned long long)d->param[P_QUEUE]);
	return 0;
}

static int fixed_build(struct iolab_comp *c, struct iolab_sim *sim, const struct iolab_subsys *s,
		       const struct iolab_sub_drive *d, const struct iolab_link_type *t,
		       struct iolab_comp *link)
{
	(void)s;
	(void)t;
	struct fixed *f = calloc(1, sizeof(*f));
	if (!f || !(f->q = calloc(d->param[P_QUEUE], sizeof(*f->q)))) {
		free(f);
		return -ENOMEM;
	}
	f->time_ns = d->param[P_TIME];
	f->rate = (double)d->param[P_RATE];
	f->cap = (unsigned)d->param[P_QUEUE];
	f->link = link;
	*c = (struct iolab_comp){.ops = &iolab_comp_fixed, .sim = sim, .priv = f};
	return 0;
}

static const struct iolab_device_ops fixed_device = {
	.geometry = fixed_geometry,
	.check = fixed_check,
	.build = fixed_build,
};

#define PARAM(i) offsetof(struct iolab_sub_drive, param) + (i) * sizeof(uint64_t)
static const struct iolab_param fixed_params[] = {
	{.key = "channel", .type = IOLAB_PT_REF, .ref = "channel", .fixed = true,
	 .off = offsetof(struct iolab_sub_drive, channel), .def_doc = "none modelled",
	 .doc = "the channel it is on"},
	{.key = "size", .type = IOLAB_PT_SIZE, .off = PARAM(P_SIZE), .required = true,
	 .unit = "bytes", .min = BLOCK_BYTES, .max = 1ull << 50, .def_doc = "",
	 .doc = "its capacity, in whole blocks of 512 bytes (DiskSim's Block count)"},
	{.key = "time", .type = IOLAB_PT_TIME, .off = PARAM(P_TIME), .unit = "ns", .max = 1e9,
	 .def_doc = "0", .doc = "the time of every command before its data moves (DiskSim's Access "
	 "time and Command overhead)"},
	{.key = "rate", .type = IOLAB_PT_RATE, .off = PARAM(P_RATE), .required = true,
	 .unit = "bytes/s", .min = 1, .max = 1ull << 40, .def_doc = "",
	 .doc = "the rate its data moves at (512 / DiskSim's Bulk sector transfer time)"},
	{.key = "queue", .type = IOLAB_PT_COUNT, .off = PARAM(P_QUEUE), .def = "1",
	 .unit = "commands", .min = 1, .max = 1024, .def_doc = "1",
	 .doc = "the commands it holds, in service and waiting (DiskSim's Max queue length); "
	 "more wait in the host's queue"},
};
#undef PARAM

const struct iolab_kind iolab_kind_fixed = {
	.name = "fixed", .cls = IOLAB_KC_DEVICE, .ops = &iolab_comp_fixed,
	.about = "a device of a fixed time per command and a transfer rate (DiskSim's simpledisk)",
	.params = fixed_params, .nparams = sizeof(fixed_params) / sizeof(fixed_params[0]),
	.device = &fixed_device,
};
