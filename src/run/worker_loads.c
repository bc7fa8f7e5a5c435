/* worker_loads.c: what each worker of a point runs. Every worker runs the point's pattern at its
 * queue depth (or clients, or share of the rate), unless the job file gave the run [worker]
 * sections: then worker i runs section i's pattern and load (IOMeter's access specification per
 * worker). Workers share the point's region (their sequential streams start spread over it, as
 * in the generator) or, with --worker-region split, each addresses its own slice: worker i of n
 * the i-th n-th of each target's region, its edges on 4 KiB. */
#include <errno.h>
#include <math.h>
#include <stdio.h>
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

/* A [worker] section's spec: its own pattern or the point's, with its bs and read %. */
static void section_spec(const struct iolab_worker_spec *ws, const struct iolab_spec *point,
			 struct iolab_spec *out)
{
	*out = ws->has_pattern ? ws->spec : *point;
	if (ws->bs)
		iolab_spec_set_bs(out, ws->bs);
	if (ws->read_pct >= 0)
		iolab_spec_set_read(out, (unsigned)ws->read_pct);
}

int worker_loads_check(const struct iolab_config *c, const struct point_params *pp,
		       struct iolab_err *err)
{
	if (!c->nwspec)
		return 0;
	const char *run = *c->name ? c->name : "(command line)";
	if (c->nworkers)
		return iolab_errf(err, EINVAL, "--workers: run '%s' has [worker] sections, which are its "
				  "workers (%u of them)", run, c->nwspec);
	if (c->nrate)
		return iolab_errf(err, EINVAL, "--rate: run '%s' has [worker] sections, each with its "
				  "own load (qd or clients): a rate is for a run without them", run);
	if (c->replay)
		return iolab_errf(err, EINVAL, "replay: a trace is replayed by one worker; run '%s' "
				  "has [worker] sections", run);
	for (unsigned i = 0; i < c->nwspec; i++) {
		struct iolab_spec s;
		section_spec(&c->wspec[i], &pp->spec, &s);
		int rc = iolab_spec_validate(&s, err);
		if (!rc && s.trimwrite && !(c->engine->flags & (IOLAB_ENGINE_VIRTUAL | IOLAB_ENGINE_NO_IO)))
			rc = iolab_errf(err, EINVAL, "pattern %s: trims are issued only on a simulated "
					"device (iolab sim); --engine %s does not issue them", s.name,
					c->engine->name);
		if (rc) {
			iolab_err_prefix(err, "worker '%s'", c->wspec[i].name);
			return rc;
		}
	}
	return 0;
}

bool worker_loads_write(const struct iolab_config *c, const struct point_params *pp)
{
	for (unsigned i = 0; i < c->nwspec; i++) {
		struct iolab_spec s;
		section_spec(&c->wspec[i], &pp->spec, &s);
		if (iolab_spec_writes(&s))
			return true;
	}
	return false;
}

int worker_loads_each_spec(const struct iolab_config *c, const struct point_params *pp,
			   int (*check)(const struct iolab_config *, const struct point_params *,
					void *, struct iolab_err *),
			   void *ctx, struct iolab_err *err)
{
	struct point_params one = *pp;
	for (unsigned i = 0; i < c->nwspec; i++) {
		section_spec(&c->wspec[i], &pp->spec, &one.spec);
		int rc = check(c, &one, ctx, err);
		if (rc)
			return rc;
	}
	return 0;
}

void worker_loads_columns(const struct iolab_config *c, const struct point_params *pp,
			  struct iolab_point *p)
{
	size_t len = 0, n = sizeof(p->pattern);
	double read = 0;
	p->qd = 0;
	for (unsigned i = 0; i < c->nwspec; i++) {
		const struct iolab_worker_spec *ws = &c->wspec[i];
		struct iolab_spec s;
		section_spec(ws, &pp->spec, &s);
		if (len < n)
			len += (size_t)snprintf(p->pattern + len, n - len, "%s%s", i ? "+" : "", s.name);
		uint64_t bs = s.nlines == 1 ? s.line[0].size : 0;
		p->bs = i == 0 || bs == p->bs ? bs : 0;
		read += iolab_spec_read_share(&s) / c->nwspec;
		unsigned qd = ws->clients ? ws->clients : ws->qd ? ws->qd : pp->qd;
		p->qd = qd > p->qd ? qd : p->qd;
	}
	p->read_pct = (int)lround(read);
}

void worker_loads_widest(const struct iolab_config *c, const struct point_params *pp,
			 struct point_params *wide)
{
	*wide = *pp;
	for (unsigned i = 0; i < c->nwspec; i++) {
		const struct iolab_worker_spec *ws = &c->wspec[i];
		struct iolab_spec s;
		section_spec(ws, &pp->spec, &s);
		unsigned qd = ws->clients ? ws->clients : ws->qd ? ws->qd : pp->qd;
		wide->qd = i == 0 || qd > wide->qd ? qd : wide->qd;
		if (i == 0 || iolab_spec_max_size(&s) > iolab_spec_max_size(&wide->spec))
			wide->spec = s;
	}
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
			section_spec(ws, &pp->spec, &wl->spec[i]);
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

unsigned worker_loads_lane_slots(const struct worker_loads *wl, bool one_thread)
{
	unsigned most = 0;
	for (unsigned i = 0; i < wl->n; i++)
		most = wl->load[i].qd > most ? wl->load[i].qd : most;
	return one_thread ? worker_loads_slots(wl) : most;
}

void worker_loads_free(struct worker_loads *wl)
{
	free(wl->load);
	free(wl->regions);
	free(wl->spec);
	*wl = (struct worker_loads){0};
}
