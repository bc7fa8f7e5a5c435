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

/* A part's figures as the reports show them. */
struct comp_figures {
	double utilization, mean_queue, achieved_mb_s;
};

static inline void comp_figures(const struct iolab_comp_report *c, struct comp_figures *f)
{
	double span = c->span_ns > 0 ? c->span_ns : 1;
	f->utilization = c->busy_ns / span;
	f->mean_queue = c->resident_ns / span;
	f->achieved_mb_s = (double)c->bytes / (span / 1e9) / 1e6;
}

/* The part with the highest utilization (ties: the first), or NULL if there are none. */
static inline const struct iolab_comp_report *bottleneck(const struct iolab_point *p)
{
	const struct iolab_comp_report *best = NULL;
	double top = -1;
	for (unsigned i = 0; i < p->ncomp; i++) {
		struct comp_figures f;
		comp_figures(&p->comp[i], &f);
		if (f.utilization > top) {
			top = f.utilization;
			best = &p->comp[i];
		}
	}
	return best;
}

/* The point's volume rebuild (the volume part's), or NULL if it had none. */
static inline const struct iolab_rebuild_report *point_rebuild(const struct iolab_point *p)
{
	for (unsigned i = 0; i < p->ncomp; i++)
		if (p->comp[i].rebuild.rate_bytes_s)
			return &p->comp[i].rebuild;
	return NULL;
}

#endif
