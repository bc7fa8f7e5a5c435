/* output_common.h: figures derived from a point that every output format prints. */
#ifndef IOLAB_OUTPUT_COMMON_H
#define IOLAB_OUTPUT_COMMON_H

#include "iolab/output.h"

/* Reads and writes together. */
static inline void point_all(const struct iolab_point *p, struct iolab_dir_result *all)
{
	*all = p->dir[0];
	all->ios += p->dir[1].ios;
	all->bytes += p->dir[1].bytes;
	all->errors += p->dir[1].errors;
	iolab_hist_merge(&all->lat, &p->dir[1].lat);
}

static inline double dir_rate(const struct iolab_point *p, uint64_t v)
{
	return p->seconds > 0 ? (double)v / p->seconds : 0;
}

/* A point's breakdown as the reports show it: mean µs per I/O, and cache hits as % of reads. */
struct breakdown_means {
	double host, overhead, queue, seek, rotation, media, interface, hit_pct, partial_hit_pct;
};

/* False when the point has no breakdown (a real engine, or no I/O). */
static inline bool breakdown_means(const struct iolab_point *p, struct breakdown_means *m)
{
	const struct iolab_breakdown *b = &p->bd;
	if (!p->has_breakdown || !b->ios)
		return false;
	double n = (double)b->ios * 1e3, reads = b->reads ? (double)b->reads : 1;
	*m = (struct breakdown_means){
		.host = b->host_ns / n, .overhead = b->overhead_ns / n, .queue = b->queue_ns / n, .seek = b->seek_ns / n,
		.rotation = b->rotate_ns / n, .media = b->media_ns / n, .interface = b->bus_ns / n,
		.hit_pct = 100.0 * (double)b->read_hits / reads,
		.partial_hit_pct = 100.0 * (double)b->read_partial_hits / reads,
	};
	return true;
}

#endif
