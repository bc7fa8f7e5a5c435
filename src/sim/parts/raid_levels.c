/* raid_levels.c: the table of RAID levels and the two rules every check of a volume's shape
 * applies through it: enough members (and whole groups), and failed members it survives.
 *
 * Minimum members: a stripe of one drive and a mirror of one copy are volumes (the baselines of
 * a stripe's and a mirror's gain, --array raid0:1 and raid1:1); RAID 4 and 5 need two data
 * members and a parity, RAID 6 two data and P and Q, RAID 10 two mirrored pairs (Linux md's
 * raid10 near-2 layout takes two drives, but that is a RAID 1: iolab asks for two pairs).
 * Failures: a group keeps its data while no more than `survives` of its members failed and one
 * is left: RAID 1 one (md survives all copies but one; the volume part, comp_volume.c, models
 * one failed copy), RAID 4 and 5 one (the parity rebuilds it), RAID 6 two (P
 * and Q), RAID 10 one in each mirrored pair; RAID 0 and a lone drive none (md(4), "RAID
 * levels"; Patterson, Gibson and Katz, "A case for redundant arrays of inexpensive disks",
 * 1988). */
#include <errno.h>
#include <stdarg.h>
#include <stdio.h>
#include <string.h>

#include "sim/parts/raid_levels.h"

#define M IOLAB_RAID_MEMBERS_MAX

/* In the order of enum iolab_raid_level. */
static const struct iolab_raid_info levels[] = {
	{IOLAB_RAID_NONE, "none", 1, 1, 0, 0, 0, IOLAB_LAYOUT_SINGLE},
	{IOLAB_RAID0, "raid0", 1, M, 0, 0, 0, IOLAB_LAYOUT_STRIPE},
	{IOLAB_RAID1, "raid1", 1, M, 0, 0, 1, IOLAB_LAYOUT_MIRROR},
	{IOLAB_RAID5, "raid5", 3, M, 0, 1, 1, IOLAB_LAYOUT_LEFT_SYMMETRIC},
	{IOLAB_RAID10, "raid10", 4, M, 2, 0, 1, IOLAB_LAYOUT_MIRROR_STRIPE},
	{IOLAB_RAID4, "raid4", 3, M, 0, 1, 1, IOLAB_LAYOUT_PARITY_LAST},
	{IOLAB_RAID6, "raid6", 4, M, 0, 2, 2, IOLAB_LAYOUT_LEFT_SYMMETRIC},
};

#define NLEVELS (sizeof(levels) / sizeof(levels[0]))

const struct iolab_raid_info *iolab_raid_info(unsigned level)
{
	return level < NLEVELS ? &levels[level] : NULL;
}

const char *iolab_raid_name(unsigned level)
{
	return level < NLEVELS ? levels[level].name : "none";
}

const struct iolab_raid_info *iolab_raid_find(const char *name, size_t len)
{
	for (unsigned l = 0; l < NLEVELS; l++)
		if (strlen(levels[l].name) == len && !strncmp(levels[l].name, name, len))
			return &levels[l];
	return NULL;
}

const char *iolab_raid_names(void)
{
	return "none, raid0, raid1, raid10, raid4, raid5, raid6";
}

unsigned iolab_raid_data_members(unsigned level, unsigned n)
{
	const struct iolab_raid_info *r = iolab_raid_info(level);
	if (!r)
		return n;
	switch (r->layout) {
	case IOLAB_LAYOUT_MIRROR: return 1;
	case IOLAB_LAYOUT_MIRROR_STRIPE: return n / 2;
	default: return n - r->parity;
	}
}

__attribute__((format(printf, 3, 4)))
static int why_is(char *why, size_t len, const char *fmt, ...)
{
	va_list ap;
	va_start(ap, fmt);
	vsnprintf(why, len, fmt, ap);
	va_end(ap);
	return -EINVAL;
}

int iolab_raid_check_members(unsigned level, unsigned n, char *why, size_t len)
{
	const struct iolab_raid_info *r = iolab_raid_info(level);
	if (!r)
		return why_is(why, len, "%u is not a level", level);
	if (r->layout == IOLAB_LAYOUT_SINGLE && n != 1)
		return why_is(why, len, "level none is one drive, not %u (give a RAID level)", n);
	if (n < r->min_members)
		return why_is(why, len, "%s needs at least %u drives, not %u", r->name, r->min_members,
			      n);
	if (n > r->max_members)
		return why_is(why, len, "%s takes at most %u drives, not %u", r->name, r->max_members,
			      n);
	if (r->group && n % r->group)
		return why_is(why, len, "%s is mirrored pairs: %u drives is not an even count", r->name,
			      n);
	return 0;
}

static const char *count_word(unsigned n)
{
	return n == 1 ? "one" : n == 2 ? "two" : "more";
}

int iolab_raid_check_failed(unsigned level, unsigned n, const int failed[2], char *why, size_t len)
{
	const struct iolab_raid_info *r = iolab_raid_info(level);
	int f[2];
	unsigned nf = 0;
	if (!r)
		return why_is(why, len, "%u is not a level", level);
	for (unsigned k = 0; k < 2; k++) {
		if (failed[k] == -1)
			continue;
		if (failed[k] < 0 || failed[k] >= (int)n)
			return why_is(why, len, "drive %d is out of range: the volume has %u drives (1 to "
				      "%u)", failed[k] + 1, n, n);
		f[nf++] = failed[k];
	}
	if (nf == 2 && f[0] == f[1])
		return why_is(why, len, "names drive %d twice", f[0] + 1);
	if (!nf)
		return 0;
	if (!r->survives)
		return why_is(why, len, "%s has no redundancy: a failed drive loses the volume", r->name);
	unsigned group = r->group ? r->group : n;
	for (unsigned k = 0; k < nf; k++) {
		unsigned in = 0; /* failed members in f[k]'s group */
		for (unsigned j = 0; j < nf; j++)
			in += (unsigned)f[j] / group == (unsigned)f[k] / group;
		if (in >= group && !r->group)
			return why_is(why, len, "%s of %u drive%s keeps no copy with %s failed: it loses "
				      "the volume", r->name, n, n == 1 ? "" : "s", count_word(nf));
		if (in > r->survives && r->group)
			return why_is(why, len, "drives %d and %d are the two copies of a mirrored pair of "
				      "the %s; it loses the volume", (f[0] < f[1] ? f[0] : f[1]) + 1,
				      (f[0] < f[1] ? f[1] : f[0]) + 1, r->name);
		if (in > r->survives)
			return why_is(why, len, "%s survives %s failed drive%s, not %s", r->name,
				      count_word(r->survives), r->survives == 1 ? "" : "s",
				      count_word(in));
	}
	return 0;
}
