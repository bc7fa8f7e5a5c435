/* layout.h: the simulator's view of a block's physical place (layout.c). */
#ifndef IOLAB_SIM_LAYOUT_H
#define IOLAB_SIM_LAYOUT_H

#include "iolab/disk_model.h"

struct iolab_phys {
	unsigned zone;
	uint32_t cyl, head, track; /* track: index within the cylinder in mapping order */
	uint32_t sector;
	double angle;     /* where the sector starts, in revolutions [0, 1) */
	double sector_ns; /* time one sector takes to pass under the head */
	/* for iolab_layout_next */
	uint64_t lbn, pbn;   /* the block, and its physical sector within the zone */
	uint64_t next_slip;  /* first slipped sector after pbn in the zone (UINT64_MAX: none) */
	uint64_t run_end;    /* the blocks lbn .. run_end - 1 lie on this track in consecutive
				sectors from this one (no track end, slip, spare or remapped
				sector among them) */
};

/* Physical place of lbn. Returns 0 or -ERANGE past the last block. */
/* The index of the first of s[0..n) (ascending) that is >= x; n if none. */
uint32_t iolab_lower_bound(const uint64_t *s, uint32_t n, uint64_t x);
/* The zone holding lbn (zones in order of their first block). */
unsigned iolab_layout_zone_of(const struct iolab_disk_model *m, uint64_t lbn);
int iolab_layout_map(const struct iolab_disk_model *m, uint64_t lbn, struct iolab_phys *p);

/* Moves p (a result of iolab_layout_map) to the next block: in O(1) within p's run (run_end),
 * else by a full lookup. Returns 0 or -ERANGE. */
int iolab_layout_next(const struct iolab_disk_model *m, struct iolab_phys *p);

#endif
