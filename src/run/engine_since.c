/* engine_since.c: what an engine the runner keeps between the runs of a point did during one
 * run. The simulator's counters (its breakdown, its parts' reports, its submissions) add up
 * from the moment the system was built; when the simulated state carries over rounds, repeats
 * and the ramp, a run's own figures are the counters at its end less those at its start. */
#include <errno.h>
#include <stdlib.h>

#include "iolab/flash_report.h"
#include "run_internal.h"

int engine_mark(struct iolab_engine *e, struct engine_mark *m)
{
	*m = (struct engine_mark){.sub_seen = e->sub_seen, .sub_done = e->sub_done};
	if (e->ops->breakdown)
		e->ops->breakdown(e, &m->bd);
	if (!e->ops->components)
		return 0;
	unsigned n = e->ops->components(e, NULL, 0);
	if (n && !(m->comp = calloc(n, sizeof(*m->comp))))
		return -ENOMEM;
	m->ncomp = n ? e->ops->components(e, m->comp, n) : 0;
	return 0;
}

static void breakdown_sub(struct iolab_breakdown *a, const struct iolab_breakdown *b)
{
	for (unsigned i = 0; i < b->nphase; i++) /* by name: x + (-y) is x - y */
		iolab_breakdown_put(a, b->phase[i], -b->ns[i]);
	a->ios -= b->ios;
	a->reads -= b->reads;
	a->read_hits -= b->read_hits;
	a->read_partial_hits -= b->read_partial_hits;
}

/* A part's counts less those it had at the mark; its rate, rebuild and flash state (erase
 * counts, free blocks) are as they are now. */
static void report_sub(struct iolab_comp_report *a, const struct iolab_comp_report *b)
{
	a->ios -= b->ios;
	a->bytes -= b->bytes;
	a->hits -= b->hits;
	a->busy_ns -= b->busy_ns;
	a->resident_ns -= b->resident_ns;
	a->span_ns -= b->span_ns;
	if (a->flash_given && b->flash_given)
		iolab_flash_report_sub(&a->flash, &b->flash);
}

void engine_since(struct iolab_engine *e, const struct engine_mark *m, struct worker *w)
{
	if (e->ops->breakdown) {
		struct iolab_breakdown now = {0};
		e->ops->breakdown(e, &now);
		breakdown_sub(&now, &m->bd);
		iolab_breakdown_add(&w->bd, &now);
	}
	if (e->ops->components && w->comp) {
		w->ncomp = e->ops->components(e, w->comp, w->ncomp);
		for (unsigned k = 0; k < w->ncomp && k < m->ncomp; k++)
			report_sub(&w->comp[k], &m->comp[k]);
	}
	w->sub_seen = e->sub_seen - m->sub_seen;
	w->sub_done = e->sub_done - m->sub_done;
}

void engine_mark_free(struct engine_mark *m)
{
	free(m->comp);
	m->comp = NULL;
	m->ncomp = 0;
}
