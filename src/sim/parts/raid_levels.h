/* raid_levels.h: the one table of RAID levels (raid_levels.c) that every rule about a volume's
 * shape reads: the command line's --array and --failed (src/run/options.c, point_checks.c), the
 * subsystem file's checks (subsys_check.c), the shorthands (subsys_shape.c), the builder
 * (subsys_build.c) and the volume part (comp_volume.c). A level's minimum members, its parity,
 * the failures it survives and its layout are written here only. */
#ifndef IOLAB_SIM_RAID_LEVELS_H
#define IOLAB_SIM_RAID_LEVELS_H

#include <stddef.h>

#include "iolab/subsys.h"

#define IOLAB_RAID_MEMBERS_MAX 64 /* most members of one volume */

/* Where a volume's blocks lie on its members (comp_volume.c carries each out). */
enum iolab_raid_layout {
	IOLAB_LAYOUT_SINGLE,        /* one drive, block for block */
	IOLAB_LAYOUT_STRIPE,        /* stripe units round the members in turn (RAID 0) */
	IOLAB_LAYOUT_MIRROR,        /* every member holds every block (RAID 1) */
	IOLAB_LAYOUT_MIRROR_STRIPE, /* mirrored pairs 2k, 2k + 1, striped (md's near-2 RAID 10) */
	IOLAB_LAYOUT_PARITY_LAST,   /* data units in order, parity on the last member (RAID 4) */
	IOLAB_LAYOUT_LEFT_SYMMETRIC, /* parity (and Q) rotating left, data after it (RAID 5, 6) */
};

struct iolab_raid_info {
	enum iolab_raid_level level;
	const char *name;      /* as files and --array spell it: "raid5" ("none": one drive) */
	unsigned min_members;  /* fewest members */
	unsigned max_members;  /* most members */
	unsigned group;        /* members form groups of this many, each of which must keep its
				  data (RAID 10: mirrored pairs); 0: all members are one group */
	unsigned parity;       /* parity units in each row: RAID 4 and 5 one, RAID 6 two */
	unsigned survives;     /* failed members each group survives, as long as one member of
				  the group is left */
	enum iolab_raid_layout layout;
};

/* The level's row of the table, or NULL for a number that is no level. */
const struct iolab_raid_info *iolab_raid_info(unsigned level);
/* The level called name (len characters of it), or NULL. */
const struct iolab_raid_info *iolab_raid_find(const char *name, size_t len);
/* "none, raid0, raid1, raid10, raid4, raid5, raid6": the names, for messages. */
const char *iolab_raid_names(void);
/* Members of a volume of n members that hold data (the others' share is copies or parity). */
unsigned iolab_raid_data_members(unsigned level, unsigned n);

/* Whether a volume of the level can have n members. Returns 0, or -EINVAL with why (one line,
 * no prefix: "raid5 needs at least 3 drives, not 2") written into why[0..len). */
int iolab_raid_check_members(unsigned level, unsigned n, char *why, size_t len);
/* Whether a volume of the level with n members survives the failed members failed[0] and
 * failed[1] (0-based positions; -1: none). Returns 0, or
 * -EINVAL with why ("raid5 survives one failed drive, not two"). */
int iolab_raid_check_failed(unsigned level, unsigned n, const int failed[2], char *why, size_t len);

#endif
