/* worker_results.c: each worker's share of a point (points[].workers[] in the JSON): its
 * pattern, its I/Os, bytes and latency over its own measured time, added up over repetitions
 * and steady-state rounds as the point's own figures are. */
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "worker_loads.h"

/* Room for n workers in p; false (p keeping none) without memory. */
static bool room(struct iolab_point *p, unsigned n)
{
	if (p->nwres == n)
		return true;
	free(p->wres);
	p->nwres = 0;
	if (!(p->wres = calloc(n, sizeof(*p->wres))))
		return false;
	p->nwres = n;
	for (unsigned i = 0; i < n; i++)
		iolab_hist_reset(&p->wres[i].lat);
	return true;
}

int worker_results_add(struct iolab_point *p, const struct worker *w, const struct worker_loads *wl)
{
	bool fresh = p->nwres != wl->n;
	if (!room(p, wl->n))
		return -ENOMEM;
	for (unsigned i = 0; i < wl->n; i++) {
		struct iolab_worker_result *r = &p->wres[i];
		const struct worker_load *ld = &wl->load[i];
		if (fresh) {
			snprintf(r->pattern, sizeof(r->pattern), "%s", ld->spec->name);
			snprintf(r->name, sizeof(r->name), "%s", ld->name ? ld->name : "");
			r->qd = ld->qd;
		}
		r->seconds += (double)w[i].span_ns / 1e9;
		for (int d = 0; d < 2; d++) {
			r->ios += w[i].dir[d].ios;
			r->bytes += w[i].dir[d].bytes;
			iolab_hist_merge(&r->lat, &w[i].dir[d].lat);
		}
	}
	return 0;
}

int worker_results_merge(struct iolab_point *p, const struct iolab_point *q)
{
	if (!q->nwres)
		return 0;
	bool fresh = p->nwres != q->nwres;
	if (!room(p, q->nwres))
		return -ENOMEM;
	for (unsigned i = 0; i < q->nwres; i++) {
		struct iolab_worker_result *r = &p->wres[i];
		const struct iolab_worker_result *s = &q->wres[i];
		if (fresh) {
			memcpy(r->name, s->name, sizeof(r->name));
			memcpy(r->pattern, s->pattern, sizeof(r->pattern));
			r->qd = s->qd;
		}
		r->seconds += s->seconds;
		r->ios += s->ios;
		r->bytes += s->bytes;
		iolab_hist_merge(&r->lat, &s->lat);
	}
	return 0;
}
