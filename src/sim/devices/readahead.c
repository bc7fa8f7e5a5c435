/* readahead.c: where the drive's read-ahead after a read stops, by DiskSim 4.0's prefetch
 * modes ("Buffer continuous read", manual 3.4.5 p19) with the "Maximum read-ahead (blks)" cap
 * ("regardless of all other prefetch parameters", p20) and the "Minimum read-ahead (blks)"
 * floor. disk.c runs the read-ahead; this file only says how far it may go. */
#include "sim/devices/readahead.h"

#include "sim/devices/layout.h"

/* Whether lbn lies on the track (cylinder only: the cylinder) of p. */
static bool same_place(const struct iolab_disk_model *m, uint64_t lbn, const struct iolab_phys *p,
		       bool cylinder)
{
	struct iolab_phys q;
	if (lbn >= m->blocks || iolab_layout_map(m, lbn, &q))
		return false;
	return q.cyl == p->cyl && (cylinder || q.head == p->head);
}

/* The blocks [first, end) of the track (or cylinder) that holds lbn. The blocks of one track
 * are consecutive LBNs (a remapped defect aside), at most spt of them; a cylinder's at most
 * spt * surfaces: binary searches inside those bounds. */
static void place_bounds(const struct iolab_disk_model *m, uint64_t lbn, bool cylinder,
			 uint64_t *first, uint64_t *end)
{
	struct iolab_phys p;
	if (iolab_layout_map(m, lbn, &p)) {
		*first = lbn;
		*end = lbn + 1;
		return;
	}
	uint64_t span = (uint64_t)m->zone[p.zone].spt * (cylinder ? m->surfaces : 1);
	uint64_t lo = lbn, hi = lbn + span; /* lo is on it, hi is past it */
	while (hi - lo > 1) {
		uint64_t mid = lo + (hi - lo) / 2;
		if (same_place(m, mid, &p, cylinder))
			lo = mid;
		else
			hi = mid;
	}
	*end = lo + 1;
	lo = lbn > span ? lbn - span : 0;
	hi = lbn; /* the first lies in [lo, hi] */
	while (lo < hi) {
		uint64_t mid = lo + (hi - lo) / 2;
		if (same_place(m, mid, &p, cylinder))
			hi = mid;
		else
			lo = mid + 1;
	}
	*first = lo;
}

uint64_t iolab_readahead_limit(const struct iolab_disk_model *m, uint64_t lbn, uint32_t n,
			       uint64_t seg_start)
{
	uint64_t end = lbn + n, limit = end, first, tend;
	uint64_t last = n ? end - 1 : lbn;
	switch (m->readahead) {
	case IOLAB_PF_LEGACY: /* disk.c handles it */
	case IOLAB_PF_NONE:
		return end;
	case IOLAB_PF_TRACK:
		place_bounds(m, last, false, &first, &limit);
		break;
	case IOLAB_PF_CYLINDER:
		place_bounds(m, last, true, &first, &limit);
		break;
	case IOLAB_PF_SEGMENT:
		/* Full: the segment is a ring, and blocks sent to the host may be pushed out
		 * (manual 3.4.5 p15, Number of buffer segments), so it is full with
		 * segment_blocks past the read's end (Read-ahead over requested decides whether
		 * the read's own blocks stay: disk.c). */
		limit = end + m->segment_blocks;
		break;
	case IOLAB_PF_NEXT_TRACK: {
		/* The track of the block after the request; one more when the segment began
		 * before that track (the read followed one on the previous track). */
		uint64_t next = end < m->blocks ? end : last;
		place_bounds(m, next, false, &first, &tend);
		limit = tend;
		if (seg_start < first && tend < m->blocks) {
			uint64_t f2;
			place_bounds(m, tend, false, &f2, &limit);
		}
		break;
	}
	}
	if (limit > end + m->readahead_blocks)
		limit = end + m->readahead_blocks;
	if (limit < end)
		limit = end;
	return limit < m->blocks ? limit : m->blocks;
}

uint64_t iolab_readahead_floor(const struct iolab_disk_model *m, uint64_t end, uint64_t limit)
{
	if (m->readahead == IOLAB_PF_LEGACY || m->readahead == IOLAB_PF_NONE)
		return end;
	uint64_t floor = end + m->readahead_min_blocks;
	return floor < limit ? floor : limit;
}
