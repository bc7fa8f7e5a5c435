/* output_common.h: figures derived from a point that every output format prints. */
#ifndef IOLAB_OUTPUT_COMMON_H
#define IOLAB_OUTPUT_COMMON_H

#include <stdio.h>

#include "iolab/output.h"

/* The most columns of swept settings the table and the CSV show. */
#define SETTINGS_COLUMNS 16
/* The names of the swept settings r's points carry, in the order they first appear (at most
 * max) into names (pointing into r); returns how many (settings_columns.c). */
unsigned settings_columns(const struct iolab_results *r, const char **names, unsigned max);
/* Point p's value of the setting name, or NULL. */
const char *point_setting(const struct iolab_point *p, const char *name);

/* The warnings under the table, those of one kind on several points grouped into one line
 * (table_warnings.c). */
void table_warnings(FILE *f, const struct iolab_results *r);
/* A latency of us microseconds for a table: scaled to us, ms or s and followed by its unit
 * ("37.2 us", "9.20 ms", "1.25 s"), in buf (table_units.c). */
const char *table_lat(double us, char *buf, size_t n);

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

/* A point's breakdown as the reports show it: mean µs per I/O of each phase the engine named
 * (phase names in bd), and cache hits as % of reads. */
struct breakdown_means {
	const struct iolab_breakdown *bd;
	double us[IOLAB_PHASES_MAX], hit_pct, partial_hit_pct;
};

/* False when the point has no breakdown (a real engine, or no I/O). */
static inline bool breakdown_means(const struct iolab_point *p, struct breakdown_means *m)
{
	const struct iolab_breakdown *b = &p->bd;
	if (!p->has_breakdown || !b->ios)
		return false;
	double n = (double)b->ios * 1e3, reads = b->reads ? (double)b->reads : 1;
	m->bd = b;
	for (unsigned i = 0; i < b->nphase; i++)
		m->us[i] = b->ns[i] / n;
	m->hit_pct = 100.0 * (double)b->read_hits / reads;
	m->partial_hit_pct = 100.0 * (double)b->read_partial_hits / reads;
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
static inline const struct iolab_comp_report *busiest(const struct iolab_point *p)
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

/* A part busy at least this share of the time is saturated: the load waits for it, and it
 * limits the point (utilization law: a part's throughput is its utilization over its service
 * time, so one near 1 can give no more). Below it on every part, nothing of the path is the
 * limit: the offered load is. */
#define SATURATED_UTIL 0.90

/* The bottleneck: the busiest part if it is saturated, else NULL (no part limits the point). */
static inline const struct iolab_comp_report *bottleneck(const struct iolab_point *p)
{
	const struct iolab_comp_report *b = busiest(p);
	struct comp_figures f;
	if (!b)
		return NULL;
	comp_figures(b, &f);
	return f.utilization >= SATURATED_UTIL ? b : NULL;
}

/* What a point offered that no part of the path limited, in its load model's terms: "queue
 * depth 4", "8 clients thinking 10 ms", "an arrival rate of 200 I/Os per s", "a trace's
 * requests at their times". */
static inline void offered_load(const struct iolab_point *p, char *buf, size_t n)
{
	if (p->replay_timed)
		snprintf(buf, n, "the trace's requests at their recorded times");
	else if (p->target_iops > 0)
		snprintf(buf, n, "%s arrival rate of %.6g I/Os per s", p->poisson ? "a Poisson" : "an",
			 p->target_iops);
	else if (p->clients)
		snprintf(buf, n, "%u client%s per worker, each thinking %s%.6g ms", p->clients,
			 p->clients == 1 ? "" : "s", p->think_exp ? "on average " : "",
			 (double)p->think_ns / 1e6);
	else
		snprintf(buf, n, "queue depth %u%s", p->qd * p->workers, p->replay ? " (the trace's "
			 "requests, closed loop)" : "");
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
