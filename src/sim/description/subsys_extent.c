/* subsys_extent.c: where a volume lies on its drives. A volume is carved from its drives as a
 * RAID controller carves logical drives from an array (HP Smart Array: a logical drive's size
 * is its usable capacity, and the controller places it after the logical drives already on the
 * array) or as Linux md builds an array over partitions: it takes the same extent on each
 * member, from its offset, of as many blocks as its size needs in whole stripe units. Without a
 * size a volume takes each drive from its offset to the end of the smallest. Several volumes
 * may share drives where their extents do not overlap (subsys_check.c refuses the rest). */
#include "iolab/sim_kinds.h"
#include "iolab/subsys.h"
#include "sim/description/subsys_extent.h"
#include "sim/parts/raid_levels.h"

static uint32_t block_bytes(const struct iolab_subsys *s, const struct iolab_sub_volume *v)
{
	uint64_t blocks;
	uint32_t bb;
	iolab_subsys_device_geometry(s, v->drive[0], &blocks, &bb);
	return bb;
}

/* The blocks of the smallest member device. */
static uint64_t smallest_drive(const struct iolab_subsys *s, const struct iolab_sub_volume *v)
{
	uint64_t min = UINT64_MAX;
	for (unsigned i = 0; i < v->n; i++) {
		uint64_t b;
		uint32_t bb;
		iolab_subsys_device_geometry(s, v->drive[i], &b, &bb);
		if (b < min)
			min = b;
	}
	return v->n ? min : 0;
}

uint64_t iolab_subsys_member_offset(const struct iolab_subsys *s, const struct iolab_sub_volume *v)
{
	return v->n ? v->offset_bytes / block_bytes(s, v) : 0;
}

uint64_t iolab_subsys_member_blocks(const struct iolab_subsys *s, const struct iolab_sub_volume *v)
{
	if (!v->n)
		return 0;
	uint64_t drive = smallest_drive(s, v), off = iolab_subsys_member_offset(s, v);
	uint32_t bb = block_bytes(s, v);
	bool striped = v->level != IOLAB_RAID_NONE && v->level != IOLAB_RAID1;
	uint64_t unit = striped && v->stripe_bytes >= bb ? v->stripe_bytes / bb : 1;
	if (v->size_pct) {
		uint64_t m = drive / 100 * v->size_pct + drive % 100 * v->size_pct / 100;
		return m - m % unit;
	}
	if (v->size_bytes) {
		uint64_t per = bb * (uint64_t)iolab_raid_data_members(v->level, v->n);
		uint64_t m = v->size_bytes / per + (v->size_bytes % per != 0);
		return m % unit && m < UINT64_MAX - unit ? m + unit - m % unit : m;
	}
	return drive > off ? drive - off : 0;
}

/* Whether volumes a and b have a drive in common; its index in *d. */
static bool share_drive(const struct iolab_sub_volume *a, const struct iolab_sub_volume *b,
			unsigned *d)
{
	for (unsigned i = 0; i < a->n; i++)
		for (unsigned k = 0; k < b->n; k++)
			if (a->drive[i] == b->drive[k])
				return *d = a->drive[i], true;
	return false;
}

bool iolab_subsys_share_drive(const struct iolab_subsys *s, unsigned a, unsigned b, unsigned *d)
{
	return share_drive(&s->vol[a], &s->vol[b], d);
}

void iolab_subsys_place_volumes(struct iolab_subsys *s, const bool *offset_given)
{
	for (unsigned i = 0; i < s->nvol; i++) {
		struct iolab_sub_volume *v = &s->vol[i];
		if (offset_given[i] || !v->n)
			continue;
		uint64_t end = 0; /* blocks */
		for (unsigned j = 0; j < i; j++) {
			const struct iolab_sub_volume *w = &s->vol[j];
			unsigned d;
			if (!w->n || !share_drive(v, w, &d))
				continue;
			uint64_t o = iolab_subsys_member_offset(s, w), b = iolab_subsys_member_blocks(s, w);
			uint64_t e = b > UINT64_MAX - o ? UINT64_MAX : o + b;
			end = e > end ? e : end;
		}
		uint32_t bb = block_bytes(s, v); /* an end past any drive: the check says so */
		v->offset_bytes = end > UINT64_MAX / bb ? UINT64_MAX / bb * bb : end * bb;
	}
}

int iolab_subsys_overlap(const struct iolab_subsys *s, unsigned a, unsigned b, unsigned *drive)
{
	const struct iolab_sub_volume *v = &s->vol[a], *w = &s->vol[b];
	if (!share_drive(v, w, drive))
		return 0;
	uint64_t va = iolab_subsys_member_offset(s, v), vb = va + iolab_subsys_member_blocks(s, v);
	uint64_t wa = iolab_subsys_member_offset(s, w), wb = wa + iolab_subsys_member_blocks(s, w);
	return va < wb && wa < vb;
}

unsigned iolab_subsys_drive_users(const struct iolab_subsys *s, unsigned d)
{
	unsigned n = 0;
	for (unsigned i = 0; i < s->nvol; i++)
		for (unsigned k = 0; k < s->vol[i].n; k++)
			n += s->vol[i].drive[k] == d;
	return n;
}
