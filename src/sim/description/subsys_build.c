/* subsys_build.c: builds the simulated path of a subsystem description (subsys.h) as components
 * on one event queue (sim_system.h), and lists what each part did.
 *
 * Bottom up: links (buses and channels), drives on their channels (a drive on a modelled
 * channel moves data at the channel's rate), a volume over each volume's
 * drives (none for a one-drive volume), the controller above each volume that has one, the bus
 * crossing above a controller that sits on a bus, and the host on top. With several volumes
 * the host stripes over them (RAID 0 of host_stripe_bytes, as a striped logical volume would).
 *
 * Volumes carved from shared drives (subsys_extent.c): a drive that several volumes use gets a
 * share part (comp_share.c) in front of it, its one queue for all of them, and each volume adds
 * its offset on the members. When the load is aimed at volumes by name (targets: subsys.h) the
 * volumes of a controller and the host's groups are joined end to end (comp_concat.c) instead
 * of striped, and each target is its volume's range of that space. */
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "iolab/sim_kinds.h"
#include "iolab/sim_system.h"
#include "iolab/subsys.h"
#include "sim/description/subsys_build.h"
#include "sim/description/subsys_extent.h"
#include "sim/parts/comp_share.h"
#include "sim/parts/raid_levels.h"

/* Kinds in the order the report lists them; from P_CROSSING on, parts that do no work of their
 * own and are not reported. */
enum part_kind { P_HOST_STRIPE, P_BUS, P_CTL, P_VOL, P_CHAN, P_DEVICE, P_CROSSING, P_SHARE, P_CONCAT,
		 P_KINDS };

struct part {
	struct iolab_comp c;
	enum part_kind kind;
	char name[IOLAB_SUBSYS_NAME + 8];
};

static struct part *add_part(struct iolab_path *p, enum part_kind kind, const char *name)
{
	struct part *x = &p->part[p->n++];
	x->kind = kind;
	snprintf(x->name, sizeof(x->name), "%s", name);
	return x;
}

/* The size of device d's blocks. */
static uint32_t block_bytes_of(const struct iolab_subsys *s, unsigned d)
{
	uint64_t blocks;
	uint32_t bb;
	iolab_subsys_device_geometry(s, d, &blocks, &bb);
	return bb;
}

/* The block size of the host's blocks: that of volume v's devices (all alike). */
static uint32_t block_bytes(const struct iolab_subsys *s, const struct iolab_sub_volume *v)
{
	return block_bytes_of(s, v->drive[0]);
}

uint64_t iolab_subsys_volume_bytes(const struct iolab_subsys *s, const struct iolab_sub_volume *v)
{
	uint32_t bb = block_bytes(s, v);
	uint64_t m = iolab_subsys_member_blocks(s, v);
	if (v->level != IOLAB_RAID_NONE && v->level != IOLAB_RAID1) {
		uint64_t unit = v->stripe_bytes / bb;
		m -= unit ? m % unit : 0; /* whole stripe units */
	}
	return m * iolab_raid_data_members(v->level, v->n) * bb;
}

static uint64_t host_unit(const struct iolab_subsys *s)
{
	return s->host_stripe_bytes ? s->host_stripe_bytes : 65536;
}

/* The controller of volume v (that of its first drive's channel), or -1. */
static int volume_controller(const struct iolab_subsys *s, const struct iolab_sub_volume *v)
{
	int ch = s->drive[v->drive[0]].channel;
	return ch < 0 ? -1 : s->chan[ch].controller;
}

/* Volumes a and b are in one group: on one controller (a volume on none is alone). */
static bool same_group(const struct iolab_subsys *s, unsigned a, unsigned b)
{
	int c = volume_controller(s, &s->vol[a]);
	return a == b || (c >= 0 && c == volume_controller(s, &s->vol[b]));
}

/* The groups of the path: first[g] gets the first volume of each; returns their count. */
static unsigned groups(const struct iolab_subsys *s, unsigned *first)
{
	unsigned n = 0;
	for (unsigned i = 0; i < s->nvol; i++) {
		bool seen = false;
		for (unsigned g = 0; g < n && !seen; g++)
			seen = same_group(s, first[g], i);
		if (!seen)
			first[n++] = i;
	}
	return n;
}

/* k parts of at least min bytes each, striped in whole units; or the one part's size. */
static uint64_t striped(uint64_t min, unsigned k, uint64_t unit)
{
	return k > 1 ? (min - min % unit) * k : min;
}

/* The bytes of each part a group's stripe takes (the smallest volume's), and the group's. */
static uint64_t group_part_bytes(const struct iolab_subsys *s, unsigned first, unsigned *k)
{
	uint64_t min = UINT64_MAX;
	*k = 0;
	for (unsigned i = first; i < s->nvol; i++)
		if (same_group(s, first, i)) {
			uint64_t b = iolab_subsys_volume_bytes(s, &s->vol[i]);
			min = b < min ? b : min;
			++*k;
		}
	return min;
}

/* The volumes of a group end to end (with targets): their bytes together. */
static uint64_t group_joined_bytes(const struct iolab_subsys *s, unsigned first)
{
	uint64_t sum = 0;
	for (unsigned i = first; i < s->nvol; i++)
		if (same_group(s, first, i))
			sum += iolab_subsys_volume_bytes(s, &s->vol[i]);
	return sum;
}

static uint64_t group_bytes(const struct iolab_subsys *s, unsigned first, unsigned *count)
{
	unsigned k;
	uint64_t min = group_part_bytes(s, first, &k);
	if (count)
		*count = k;
	return s->ntarget ? group_joined_bytes(s, first) : striped(min, k, host_unit(s));
}

uint64_t iolab_subsys_bytes(const struct iolab_subsys *s)
{
	unsigned first[IOLAB_SUBSYS_MAX], n = groups(s, first);
	uint64_t min = UINT64_MAX, sum = 0;
	for (unsigned t = 0; t < s->ntarget; t++)
		sum += iolab_subsys_volume_bytes(s, &s->vol[s->target[t]]);
	if (s->ntarget)
		return sum;
	for (unsigned g = 0; g < n; g++) {
		uint64_t b = group_bytes(s, first[g], NULL);
		min = b < min ? b : min;
	}
	return n ? striped(min, n, host_unit(s)) : 0;
}

uint64_t iolab_subsys_target_lbn(const struct iolab_subsys *s, unsigned t)
{
	if (t >= s->ntarget)
		return 0;
	unsigned vi = s->target[t], first[IOLAB_SUBSYS_MAX], n = groups(s, first);
	uint64_t bytes = 0; /* before the volume, in the space the groups make end to end */
	for (unsigned g = 0; g < n; g++) {
		if (!same_group(s, first[g], vi)) {
			bytes += group_bytes(s, first[g], NULL);
			continue;
		}
		for (unsigned i = first[g]; i < vi; i++)
			if (same_group(s, first[g], i))
				bytes += iolab_subsys_volume_bytes(s, &s->vol[i]);
		break;
	}
	return bytes / block_bytes(s, &s->vol[vi]);
}

uint64_t iolab_subsys_cache_bytes(const struct iolab_subsys *s)
{
	unsigned first[IOLAB_SUBSYS_MAX], n = groups(s, first);
	uint64_t sum = 0;
	for (unsigned g = 0; g < n; g++) {
		const struct iolab_sub_volume *v = &s->vol[first[g]];
		int ci = volume_controller(s, v);
		uint32_t bb = block_bytes(s, v);
		if (ci >= 0)
			sum += iolab_ctl_cache_max_bytes(&s->ctl[ci].p, group_bytes(s, first[g], NULL) / bb,
							 bb);
	}
	return sum;
}

static int fail(struct iolab_err *err, int rc, const char *what)
{
	if (rc == -E2BIG)
		return iolab_errf(err, E2BIG, "sim: %s: its cache could use more lines than the "
				  "simulator indexes (2^32 - 1)", what);
	return rc == -ENOMEM ? iolab_errf(err, ENOMEM, "sim: out of memory building the path")
			     : iolab_errf(err, EINVAL, "sim: %s cannot be built so", what);
}

/* The devices, each by its kind (sim_kinds.h), on its channel. */
static int build_devices(struct iolab_path *p, const struct iolab_subsys *s, struct part **chan,
			 struct iolab_err *err)
{
	for (unsigned i = 0; i < s->ndrive; i++) {
		const struct iolab_sub_drive *d = &s->drive[i];
		const struct iolab_link_type *t = d->channel >= 0 ? &s->chan[d->channel].type : NULL;
		struct iolab_comp *link = d->channel >= 0 && chan[d->channel] ? &chan[d->channel]->c : NULL;
		struct part *x = add_part(p, P_DEVICE, d->name);
		int rc = iolab_device_kind(s, d)->device->build(&x->c, p->sim, s, d, t, link);
		if (rc)
			return fail(err, rc, d->name);
		p->drive[i] = &x->c;
	}
	return 0;
}

/* A RAID 0 part over k parts of part_bytes each (whole units of the host's stripe). */
static int build_stripe(struct iolab_path *p, const struct iolab_subsys *s, const char *name,
			struct iolab_comp **tops, unsigned k, uint64_t part_bytes, struct iolab_comp **top,
			struct iolab_err *err)
{
	uint32_t bb = block_bytes(s, &s->vol[0]);
	uint64_t unit = host_unit(s);
	struct part *x = add_part(p, P_HOST_STRIPE, name);
	int rc = iolab_comp_volume_init(&x->c, p->sim, tops, k, (part_bytes - part_bytes % unit) / bb,
					bb, IOLAB_RAID0, unit / bb, (const int[2]){-1, -1}, 0);
	*top = &x->c;
	return rc ? fail(err, rc, name) : 0;
}

/* A share part in front of each drive that several volumes use (comp_share.c): the volumes
 * send to p->member[d], the share or the drive itself. */
static int build_shares(struct iolab_path *p, const struct iolab_subsys *s, struct iolab_err *err)
{
	for (unsigned d = 0; d < s->ndrive; d++) {
		p->member[d] = p->drive[d];
		if (iolab_subsys_drive_users(s, d) < 2)
			continue;
		struct part *x = add_part(p, P_SHARE, s->drive[d].name);
		int rc = iolab_comp_share_init(&x->c, p->sim, p->drive[d], s->host.sched);
		if (rc)
			return fail(err, rc, s->drive[d].name);
		p->member[d] = &x->c;
	}
	return 0;
}

/* Volume v from its drives up: the volume part, or its one drive. A one-drive volume that is
 * carved from its drive (an offset, or the drive shared) is a volume part of one member. */
static int build_volume(struct iolab_path *p, const struct iolab_subsys *s, unsigned vi,
			struct iolab_comp **top, struct iolab_err *err)
{
	const struct iolab_sub_volume *v = &s->vol[vi];
	uint32_t bb = block_bytes(s, v);
	uint64_t offset = iolab_subsys_member_offset(s, v);
	bool carved = offset || p->member[v->drive[0]] != p->drive[v->drive[0]];
	*top = p->drive[v->drive[0]];
	if (v->level == IOLAB_RAID_NONE && !carved)
		return 0;
	struct iolab_comp *members[IOLAB_SUBSYS_MAX];
	for (unsigned i = 0; i < v->n; i++)
		members[i] = p->member[v->drive[i]];
	struct part *x = add_part(p, P_VOL, v->name);
	unsigned level = v->level == IOLAB_RAID_NONE ? IOLAB_RAID0 : v->level;
	int rc = iolab_comp_volume_init(&x->c, p->sim, members, v->n, iolab_subsys_member_blocks(s, v),
					bb, level, v->stripe_bytes / bb,
					v->failed, v->rebuild_bytes_s);
	*top = &x->c;
	if (rc)
		return fail(err, rc, v->name);
	iolab_comp_volume_set_order(&x->c, s->host.sched); /* the host's queue per drive */
	if (offset)
		iolab_comp_volume_set_offset(&x->c, offset);
	return 0;
}

/* The parts tops[0..k) end to end (targets: subsys.h), each of bytes[k]. */
static int build_concat(struct iolab_path *p, const struct iolab_subsys *s, const char *name,
			struct iolab_comp **tops, const uint64_t *bytes, unsigned k, struct iolab_comp **top,
			struct iolab_err *err)
{
	uint32_t bb = block_bytes(s, &s->vol[0]); /* one for all: check_buildable */
	uint64_t blocks[IOLAB_SUBSYS_MAX];
	for (unsigned i = 0; i < k; i++)
		blocks[i] = bytes[i] / bb;
	struct part *x = add_part(p, P_CONCAT, name);
	int rc = iolab_comp_concat_init(&x->c, p->sim, tops, blocks, k, s->host.sched);
	*top = &x->c;
	return rc ? fail(err, rc, name) : 0;
}

/* The group of volume `first` (the volumes of its controller) from the drives up: its volumes,
 * striped together by the controller if there are several (at the host's stripe unit), the
 * controller, and the crossing of the controller's buses. */
static int build_group(struct iolab_path *p, const struct iolab_subsys *s, unsigned first,
		       struct part **bus, struct iolab_comp **top, struct iolab_err *err)
{
	struct iolab_comp *tops[IOLAB_SUBSYS_MAX];
	uint64_t vbytes[IOLAB_SUBSYS_MAX];
	unsigned k = 0;
	int rc = 0;
	for (unsigned i = first; i < s->nvol && !rc; i++)
		if (same_group(s, first, i)) {
			vbytes[k] = iolab_subsys_volume_bytes(s, &s->vol[i]);
			rc = build_volume(p, s, i, &tops[k++], err);
		}
	const struct iolab_sub_volume *v = &s->vol[first];
	int ci = volume_controller(s, v);
	unsigned nvol;
	uint64_t part = group_part_bytes(s, first, &nvol), bytes = group_bytes(s, first, NULL);
	struct iolab_comp *below = tops[0];
	if (!rc && k > 1 && s->ntarget) {
		char name[IOLAB_SUBSYS_NAME + 8];
		snprintf(name, sizeof(name), "%.31s-concat", ci >= 0 ? s->ctl[ci].name : v->name);
		rc = build_concat(p, s, name, tops, vbytes, k, &below, err);
	} else if (!rc && k > 1) {
		char name[IOLAB_SUBSYS_NAME + 8];
		snprintf(name, sizeof(name), "%.31s-stripe", ci >= 0 ? s->ctl[ci].name : v->name);
		rc = build_stripe(p, s, name, tops, k, part, &below, err);
	}
	if (rc || ci < 0) {
		*top = below;
		return rc;
	}
	const struct iolab_sub_controller *ctl = &s->ctl[ci];
	uint32_t bb = block_bytes(s, v);
	uint64_t unit = v->stripe_bytes / bb;
	struct part *x = add_part(p, P_CTL, ctl->name);
	if ((rc = iolab_comp_controller_init(&x->c, p->sim, below, &ctl->p, bytes / bb,
					     bb, v->level ? unit : 0)))
		return fail(err, rc, ctl->name);
	if (k == 1 && v->level != IOLAB_RAID_NONE && v->level != IOLAB_RAID1) /* whole rows */
		iolab_comp_controller_set_row(&x->c, unit * iolab_raid_data_members(v->level, v->n));
	below = &x->c;
	if (ctl->bus >= 0) {
		struct iolab_comp *chain[IOLAB_SUBSYS_MAX];
		unsigned n = 0;
		for (int b = ctl->bus; b >= 0 && n < IOLAB_SUBSYS_MAX; b = s->bus[b].up)
			chain[n++] = &bus[b]->c;
		x = add_part(p, P_CROSSING, ctl->name);
		if ((rc = iolab_comp_crossing_init(&x->c, p->sim, below, chain, n, bb)))
			return fail(err, rc, ctl->name);
		below = &x->c;
	}
	*top = below;
	return 0;
}

/* Refuses what the builder cannot do beyond iolab_subsys_check: drives of different block
 * sizes in different volumes. */
static int check_buildable(const struct iolab_subsys *s, struct iolab_err *err)
{
	uint32_t bb = s->nvol ? block_bytes(s, &s->vol[0]) : 0;
	for (unsigned i = 0; i < s->nvol; i++)
		for (unsigned k = 0; k < s->vol[i].n; k++)
			if (block_bytes_of(s, s->vol[i].drive[k]) != bb)
				return iolab_errf(err, EINVAL, "volume %s: its drives' block sizes differ "
						  "from the other volumes'", s->vol[i].name);
	return 0;
}

int iolab_path_build(struct iolab_path *p, struct iolab_sim *sim, const struct iolab_subsys *s,
		     unsigned cap, struct iolab_err *err)
{
	memset(p, 0, sizeof(*p));
	p->sim = sim;
	int rc = iolab_subsys_check(s, err);
	if (rc || (rc = check_buildable(s, err)))
		return rc;
	unsigned most = 2 + s->nbus + s->nchan + 2 * s->ndrive + 4 * s->nvol;
	p->part = calloc(most, sizeof(*p->part));
	p->drive = calloc(s->ndrive ? s->ndrive : 1, sizeof(*p->drive));
	p->member = calloc(s->ndrive ? s->ndrive : 1, sizeof(*p->member));
	struct part **bus = calloc(s->nbus + 1, sizeof(*bus)), **chan = calloc(s->nchan + 1, sizeof(*chan));
	struct iolab_comp *tops[IOLAB_SUBSYS_MAX];
	if (!p->part || !p->drive || !p->member || !bus || !chan) {
		rc = fail(err, -ENOMEM, "");
		goto out;
	}
	for (unsigned i = 0; i < s->nbus && !rc; i++) {
		bus[i] = add_part(p, P_BUS, s->bus[i].name);
		if ((rc = iolab_comp_link_init(&bus[i]->c, sim, &s->bus[i].type)))
			rc = fail(err, rc, s->bus[i].name);
	}
	for (unsigned i = 0; i < s->nchan && !rc; i++) {
		if (!(s->chan[i].type.rated_mb_s > 0))
			continue; /* a port, not modelled */
		chan[i] = add_part(p, P_CHAN, s->chan[i].name);
		if ((rc = iolab_comp_link_init(&chan[i]->c, sim, &s->chan[i].type)))
			rc = fail(err, rc, s->chan[i].name);
	}
	if (!rc)
		rc = build_devices(p, s, chan, err);
	if (!rc)
		rc = build_shares(p, s, err);
	unsigned first[IOLAB_SUBSYS_MAX], ng = groups(s, first);
	uint64_t gbytes[IOLAB_SUBSYS_MAX];
	for (unsigned g = 0; g < ng && !rc; g++) {
		gbytes[g] = group_bytes(s, first[g], NULL);
		rc = build_group(p, s, first[g], bus, &tops[g], err);
	}
	struct iolab_comp *top = tops[0];
	if (!rc && ng > 1 && s->ntarget) {
		rc = build_concat(p, s, "host-concat", tops, gbytes, ng, &top, err);
	} else if (!rc && ng > 1) {
		uint64_t min = UINT64_MAX;
		for (unsigned g = 0; g < ng; g++) {
			uint64_t b = group_bytes(s, first[g], NULL);
			min = b < min ? b : min;
		}
		rc = build_stripe(p, s, "host-stripe", tops, ng, min, &top, err);
	}
	if (!rc && (rc = iolab_comp_host_init(&p->host, sim, top, &s->host, cap,
					      block_bytes(s, &s->vol[0]))))
		rc = fail(err, rc, "host");
	p->ndrive = s->ndrive;
out:
	free(bus);
	free(chan);
	if (rc)
		iolab_path_free(p);
	return rc;
}

void iolab_path_free(struct iolab_path *p)
{
	iolab_comp_free(&p->host);
	for (unsigned i = p->n; i-- > 0;)
		iolab_comp_free(&p->part[i].c);
	free(p->part);
	free(p->drive);
	free(p->member);
	memset(p, 0, sizeof(*p));
}

/* The reports of a device's own parts (an SSD's flash channels and dies) into out[k..max), each
 * named "<device>.<part>"; returns how many it has. */
static unsigned device_parts(const struct part *x, struct iolab_comp_report *out, unsigned k,
			     unsigned max)
{
	if (!x->c.ops->parts)
		return 0;
	unsigned n = x->c.ops->parts(&x->c, k < max ? out + k : NULL, k < max ? max - k : 0);
	for (unsigned j = k; j < k + n && j < max; j++) { /* the device's name cut to fit */
		char part[sizeof(out->name)];
		size_t pl = strnlen(out[j].name, sizeof(part) - 2), room = sizeof(part) - 2 - pl;
		size_t dl = strnlen(x->name, room);
		memcpy(part, out[j].name, pl);
		memcpy(out[j].name, x->name, dl);
		out[j].name[dl] = '.';
		memcpy(out[j].name + dl + 1, part, pl);
		out[j].name[dl + 1 + pl] = 0;
	}
	return n;
}

unsigned iolab_path_reports(const struct iolab_path *p, struct iolab_comp_report *out, unsigned max)
{
	unsigned k = 0;
	if (k++ < max) {
		p->host.ops->report(&p->host, &out[0]);
		snprintf(out[0].name, sizeof(out->name), "host");
	}
	for (int kind = P_HOST_STRIPE; kind < P_CROSSING; kind++)
		for (unsigned i = 0; i < p->n; i++) {
			if ((int)p->part[i].kind != kind)
				continue;
			if (k < max) {
				p->part[i].c.ops->report(&p->part[i].c, &out[k]);
				snprintf(out[k].name, sizeof(out->name), "%.31s", p->part[i].name);
			}
			k++;
			k += device_parts(&p->part[i], out, k, max);
		}
	for (unsigned i = 0; i < k && i < max; i++)
		out[i].span_ns = (double)p->sim->now;
	return k;
}
