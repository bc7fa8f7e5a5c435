/* worker_loads.c: what each worker of a point runs. Every worker runs the point's pattern at its
 * queue depth (or clients, or share of the rate), unless the job file gave the run [worker]
 * sections: then worker i runs section i's pattern and load (IOMeter's access specification per
 * worker). Workers share the point's region (their sequential streams start spread over it, as
 * in the generator) or, with --worker-region split, each addresses its own slice: worker i of n
 * the i-th n-th of each target's region, its edges on 4 KiB. */
#include <errno.h>
#include <stdlib.h>

#include "worker_loads.h"

#define SLICE_ALIGN 4096u

/* Worker i of n's slice of region r. */
static struct iolab_region slice(const struct iolab_region *r, unsigned i, unsigned n)
{
	uint64_t a = (uint64_t)((unsigned __int128)r->len * i / n) / SLICE_ALIGN * SLICE_ALIGN;
	uint64_t b = i + 1 == n ? r->len
		     : (uint64_t)((unsigned __int128)r->len * (i + 1) / n) / SLICE_ALIGN * SLICE_ALIGN;
	return (struct iolab_region){.start = r->start + a, .len = b - a};
}

/* A [worker] section's load: its clients (and think time), its qd, or the point's. */
static void own_load(const struct iolab_worker_spec *ws, struct worker_load *ld)
{
	if (ws->clients) {
		ld->qd = ws->clients;
		ld->pace = (struct pace_params){.kind = PACE_CLIENTS, .think_ns = ws->think_ns,
						.think_exp = ws->think_exp};
	} else if (ws->qd) {
		ld->qd = ws->qd;
		ld->pace = (struct pace_params){.kind = PACE_QD};
	}
}

int worker_loads_make(struct worker_loads *wl, const struct iolab_config *c,
		      const struct run_env *env, const struct point_params *pp, unsigned slots,
		      struct pace_params pace, struct iolab_err *err)
{
	unsigned n = pp->workers;
	bool split = c->worker_region == IOLAB_WREGION_SPLIT && n > 1;
	*wl = (struct worker_loads){.n = n};
	wl->load = calloc(n, sizeof(*wl->load));
	if (split)
		wl->regions = calloc((size_t)n * env->n, sizeof(*wl->regions));
	if (c->nwspec)
		wl->spec = calloc(n, sizeof(*wl->spec));
	if (!wl->load || (split && !wl->regions) || (c->nwspec && !wl->spec)) {
		worker_loads_free(wl);
		return iolab_errf(err, ENOMEM, "out of memory");
	}
	for (unsigned i = 0; i < n; i++) {
		struct worker_load *ld = &wl->load[i];
		*ld = (struct worker_load){.spec = &pp->spec, .qd = slots, .pace = pace,
					   .regions = env->region};
		if (c->nwspec) {
			const struct iolab_worker_spec *ws = &c->wspec[i % c->nwspec];
			wl->spec[i] = ws->spec;
			ld->spec = &wl->spec[i];
			ld->name = ws->name;
			own_load(ws, ld);
		}
		if (split) {
			struct iolab_region *r = &wl->regions[(size_t)i * env->n];
			for (unsigned t = 0; t < env->n; t++)
				r[t] = slice(&env->region[t], i, n);
			ld->regions = r;
		}
	}
	return 0;
}

unsigned worker_loads_slots(const struct worker_loads *wl)
{
	unsigned sum = 0;
	for (unsigned i = 0; i < wl->n; i++)
		sum += wl->load[i].qd;
	return sum;
}

void worker_loads_free(struct worker_loads *wl)
{
	free(wl->load);
	free(wl->regions);
	free(wl->spec);
	*wl = (struct worker_loads){0};
}
