/* phys.h: a block's physical place on the platters (struct iolab_phys), and the zone and sorted
 * list lookups every layout shares (layout.c, layout_g4.c, layout_sparing.c). */
#ifndef IOLAB_SIM_PHYS_H
#define IOLAB_SIM_PHYS_H

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

/* The index of the first of s[0..n) (ascending) that is >= x; n if none. */
static inline uint32_t iolab_lower_bound(const uint64_t *s, uint32_t n, uint64_t x)
{
	uint32_t lo = 0, hi = n;
	while (lo < hi) {
		uint32_t mid = lo + (hi - lo) / 2;
		if (s[mid] < x)
			lo = mid + 1;
		else
			hi = mid;
	}
	return lo;
}

/* The zone holding lbn (zones in order of their first block). */
static inline unsigned iolab_layout_zone_of(const struct iolab_disk_model *m, uint64_t lbn)
{
	unsigned lo = 0, hi = m->nzones;
	while (hi - lo > 1) {
		unsigned mid = (lo + hi) / 2;
		if (m->zone[mid].first_lbn <= lbn)
			lo = mid;
		else
			hi = mid;
	}
	return lo;
}

#endif
