/* point_checks.c: the checks a point of a run passes before anything is allocated or written
 * (point.h): its region, its load options and simulator shorthands, its failed drives, the AIO
 * budget, all the memory it can take, and its transfers against the targets' block sizes. */
#include <errno.h>
#include <inttypes.h>
#include <stdio.h>
#include <unistd.h>

#include "iolab/parse.h"
#include "iolab/sim_kinds.h"
#include "iolab/sim_system.h"
#include "point.h"
#include "sim/parts/raid_levels.h"
#include "verify_run.h"
#include "worker_loads.h"

/* The length of the region that --offset with --length or --stroke (else to the end) leaves of
 * something of size bytes that what names (a target's path). Refuses a region that starts at
 * or past the end (it would be empty), ends beyond it, or would end past 2^64 bytes. */
int run_region_len(const struct iolab_config *c, const char *what, uint64_t size, uint64_t *len,
		   struct iolab_err *err)
{
	char sz[32];
	iolab_fmt_size(size, sz, sizeof(sz));
	if (c->length && c->offset > UINT64_MAX - c->length)
		return iolab_errf(err, EINVAL, "--offset %" PRIu64 " + --length %" PRIu64 ": the region "
				  "would end beyond 2^64 bytes", c->offset, c->length);
	if (c->offset >= size)
		return iolab_errf(err, EINVAL, "%s: --offset %" PRIu64 " is %s its end (it is %" PRIu64
				  " bytes, %s): the region would be empty", what, c->offset,
				  c->offset == size ? "at" : "beyond", size, sz);
	uint64_t n = c->length ? c->length : c->stroke_pct ? size / 100 * c->stroke_pct
		     : size - c->offset;
	if (!n)
		return iolab_errf(err, EINVAL, "%s: --stroke %u%% of its %" PRIu64 " bytes is empty",
				  what, c->stroke_pct, size);
	if (n > size - c->offset) {
		char by[64];
		if (c->length)
			snprintf(by, sizeof(by), "--length %" PRIu64, n);
		else
			snprintf(by, sizeof(by), "--stroke %u%%: %" PRIu64 " bytes", c->stroke_pct, n);
		return iolab_errf(err, EINVAL, "%s: the region (--offset %" PRIu64 " + %s) ends beyond "
				  "its end (it is %" PRIu64 " bytes, %s)", what, c->offset, by, size, sz);
	}
	*len = n;
	return 0;
}

/* The load options that go together: --think with --clients, --qd with --rate as one cap, and
 * neither model on a virtual-time engine that cannot move its clock on (no advance). */
int run_check_load(const struct iolab_config *c, struct iolab_err *err)
{
	if (c->nclients && c->nrate)
		return iolab_errf(err, EINVAL, "--clients and --rate cannot be used together (a closed "
				  "loop or an open one)");
	if (c->nclients && c->nqd)
		return iolab_errf(err, EINVAL, "--clients and --qd cannot be used together: --clients "
				  "replaces --qd (with --think 0 it is the same)");
	if (c->think_set && !c->nclients)
		return iolab_errf(err, EINVAL, "--think: applies to --clients (the time each client "
				  "waits between requests)");
	if (c->nrate && c->nqd > 1)
		return iolab_errf(err, EINVAL, "--qd with --rate is the most requests in flight per "
				  "worker: give one value, not %u", c->nqd);
	if ((c->nclients || c->nrate) && (c->engine->flags & IOLAB_ENGINE_VIRTUAL) && !c->engine->advance)
		return iolab_errf(err, EINVAL, "engine '%s' cannot move its virtual clock on (no advance "
				  "hook): --%s needs it", c->engine->name, c->nclients ? "clients" : "rate");
	return 0;
}

/* The simulator's shorthands that only mean something with another: a stripe unit needs a
 * volume to stripe, and a channel count the channels' type (without --channel no channel is
 * modelled, so --channels would change nothing). */
int run_check_shorthands(const struct iolab_config *c, struct iolab_err *err)
{
	if (c->engine == &iolab_engine_sim && !c->sim.subsys && c->ntargets)
		return iolab_errf(err, EINVAL, "--target %s: names a volume of a subsystem file "
				  "(--config); a simulated drive or --array is one volume, aimed at whole",
				  c->target[0]);
	if (c->engine != &iolab_engine_sim || c->sim.subsys)
		return 0;
	if (c->sim.nstripe && !c->sim.array_level)
		return iolab_errf(err, EINVAL, "--stripe: a single drive (--model) has nothing to "
				  "stripe; the stripe unit is a volume's (--array LEVEL:N with --drive)");
	if (c->sim.channels && !c->sim.has_channel)
		return iolab_errf(err, EINVAL, "--channels %u: spreads the drives over channels of "
				  "--channel TYPE|RATE, and without --channel no channel is modelled; "
				  "give --channel", c->sim.channels);
	return 0;
}

/* The default --mem-limit: half of the machine's memory. */
static uint64_t default_mem_limit(void)
{
	long pages = sysconf(_SC_PHYS_PAGES), page = sysconf(_SC_PAGESIZE);
	return pages > 0 && page > 0 ? (uint64_t)pages * (uint64_t)page / 2 : UINT64_MAX;
}

/* Checks the failed drives (--failed) against the point's volume: in range, and ones its level
 * survives (raid_levels.c, the table every check of a volume reads). */
static int check_failed(const struct iolab_config *c, const struct point_params *pp,
			struct iolab_err *err)
{
	unsigned a = c->sim.failed[0], b = c->sim.failed[1];
	char f[32], why[200];
	snprintf(f, sizeof(f), b ? "%u+%u" : "%u", a, b);
	if (c->sim.rebuild_rate && !a)
		return iolab_errf(err, EINVAL, "--rebuild-rate: there is no failed drive to rebuild "
				  "(--failed N)");
	if (!a)
		return 0;
	if (!pp->array_drives)
		return iolab_errf(err, EINVAL, "--failed %s: there is no volume (--array LEVEL:N)", f);
	/* With --controllers K the drives form K volumes of n / K (subsys_shape.c): drive N is
	 * drive (N - 1) mod (n / K) of volume (N - 1) / (n / K). */
	unsigned k = c->sim.controllers > 1 && pp->array_drives % c->sim.controllers == 0 &&
		     a <= pp->array_drives && b <= pp->array_drives ? c->sim.controllers : 1;
	unsigned per = pp->array_drives / k;
	int pos[2] = {(int)a - 1, (int)b - 1};
	for (unsigned v = 0; v < k; v++) {
		int failed[2] = {-1, -1};
		for (unsigned i = 0, nf = 0; i < 2; i++)
			if (pos[i] >= 0 && (k == 1 || (unsigned)pos[i] / per == v))
				failed[nf++] = k == 1 ? pos[i] : (int)((unsigned)pos[i] % per);
		if (iolab_raid_check_failed(c->sim.array_level, per, failed, why, sizeof(why)))
			return iolab_errf(err, EINVAL, "--failed %s: with --array %s:%u%s: %s", f,
					  iolab_raid_name(c->sim.array_level), pp->array_drives,
					  k > 1 ? " over --controllers" : "", why);
	}
	return 0;
}

/* Checks what a point asks for before anything is opened: a copy is one stream at depth 1, and
 * libaio's contexts (workers x queue depth events) fit the system's AIO budget (its memory:
 * check_memory). */
int run_check_request(const struct iolab_config *c, unsigned k, const struct point_params *pp,
		      struct iolab_err *err)
{
	int rc = check_failed(c, pp, err);
	if (rc)
		return rc;
	if (pp->spec.copy && (pp->clients > 1 || pp->rate > 0))
		return iolab_errf(err, EINVAL, "pattern %s is one stream at queue depth 1: it cannot be "
				  "run by %s", pp->spec.name, pp->rate > 0 ? "--rate" : "several --clients");
	if (pp->spec.copy && (pp->qd > 1 || pp->workers > 1))
		return iolab_errf(err, EINVAL, "pattern %s is one stream at queue depth 1: --qd %u "
				  "--workers %u cannot be run (use seq-read and seq-write for depth)",
				  pp->spec.name, pp->qd, pp->workers);
	bool trimwrite = pp->spec.trimwrite; /* --trim-bs: some point's pattern takes it */
	for (unsigned i = 0; i < c->npattern; i++)
		trimwrite |= c->pattern[i].trimwrite;
	if (c->trim_bs && !trimwrite)
		return iolab_errf(err, EINVAL, "--trim-bs applies to the patterns trimwrite and "
				  "randtrimwrite, not %s", pp->spec.name);
	if (pp->spec.trimwrite && !(c->engine->flags & (IOLAB_ENGINE_VIRTUAL | IOLAB_ENGINE_NO_IO)))
		return iolab_errf(err, EINVAL, "pattern %s: trims are issued only on a simulated "
				  "device (iolab sim); --engine %s does not issue them", pp->spec.name,
				  c->engine->name);
	unsigned qd = slots_of(c, pp);
	uint64_t aio_max, aio_used, aio_need = (uint64_t)qd * pp->workers;
	if (c->engine == &iolab_engine_libaio && iolab_libaio_budget(&aio_max, &aio_used) &&
	    aio_need > (aio_max > aio_used ? aio_max - aio_used : 0))
		return iolab_errf(err, EAGAIN, "--engine libaio: point %u needs %" PRIu64 " AIO events "
				  "(%u workers x queue depth %u), more than the %" PRIu64 " free: "
				  "/proc/sys/fs/aio-max-nr %" PRIu64 " less aio-nr %" PRIu64 " in use "
				  "(lower --qd or --workers, or raise fs.aio-max-nr)", k + 1, aio_need,
				  pp->workers, qd, aio_max > aio_used ? aio_max - aio_used : 0, aio_max,
				  aio_used);
	return 0;
}

/* A simulated drive moves whole sectors (the model's block size): every transfer size, its
 * alignment and the region's offset must be multiples of it, as O_DIRECT needs of a real
 * device's logical block size. (A trace's requests are the trace's: a replay is not checked.) */
static int check_sectors(const struct iolab_config *c, const struct iolab_subsys *desc,
			 const struct point_params *pp, struct iolab_err *err)
{
	const struct iolab_sub_drive *d = &desc->drive[desc->vol[0].drive[0]];
	uint64_t blocks;
	uint32_t bb;
	iolab_subsys_device_geometry(desc, desc->vol[0].drive[0], &blocks, &bb);
	const char *name = d->kind && d->kind != &iolab_kind_drive ? d->name : desc->model[d->model].name;
	for (unsigned i = 0; i < pp->spec.nlines && !c->replay; i++) {
		const struct iolab_spec_line *l = &pp->spec.line[i];
		uint64_t align = l->align ? l->align : l->size;
		if (l->size % bb || align % bb)
			return iolab_errf(err, EINVAL, "transfer size %" PRIu64 " (alignment %" PRIu64
					  ") of pattern '%s' (--bs, or the pattern's sizes) is not a "
					  "multiple of the %" PRIu32 "-byte sector of the simulated drive "
					  "%s: a drive transfers whole sectors", l->size, align,
					  pp->spec.name, bb, name);
	}
	if (c->offset % bb)
		return iolab_errf(err, EINVAL, "--offset %" PRIu64 " is not a multiple of the %" PRIu32
				  "-byte sector of the simulated drive %s", c->offset, bb, name);
	return 0;
}

/* Checks all the memory a point can take against the limit before anything is allocated: the
 * I/O buffers, the per-second series of a --time over an hour (16 bytes a second in each
 * worker, and the point's copy), a simulated path's controller caches (the records of the lines
 * in use, at most as many as cover the volume) and the run's verify state (verify_bytes: a word
 * per 4 KiB block of the region, known once the targets are open). The refusal names the
 * largest part and the options that size it. */
int run_check_memory(const struct iolab_config *c, unsigned k, const struct point_params *pp,
		     const struct iolab_subsys *desc, uint64_t verify_bytes, struct iolab_err *err)
{
	uint64_t buf = (iolab_spec_max_size(&pp->spec) + 4095) & ~(uint64_t)4095;
	unsigned qd = slots_of(c, pp);
	/* series of an hour or less are a point's fixed cost (the worker sets them up anyway) */
	double secs = c->time_ns > 3600 * 1e9 ? (double)c->time_ns / 1e9 + 2 : 0;
	double part[4] = {(double)buf * qd * pp->workers,
			  secs * 2 * sizeof(uint64_t) * (pp->workers + 1),
			  desc ? (double)iolab_subsys_cache_bytes(desc) : 0, (double)verify_bytes};
	uint64_t limit = c->mem_limit ? c->mem_limit : default_mem_limit();
	double need = part[0] + part[1] + part[2] + part[3];
	if (need <= (double)limit)
		return 0;
	unsigned big = 0;
	for (unsigned i = 1; i < 4; i++)
		big = part[i] > part[big] ? i : big;
	char n[32], l[32], b[32], what[200];
	if (big == 3)
		snprintf(what, sizeof(what), "the verify state of the region (--verify: 8 bytes for "
			 "each of its %" PRIu64 " blocks of 4 KiB)", verify_bytes / 8);
	else if (big == 2 && c->sim.subsys)
		snprintf(what, sizeof(what), "the records of the controller cache's lines ('cache' in "
			 "%s)", c->model_name);
	else if (big == 2)
		snprintf(what, sizeof(what), "the records of the controller cache's lines (--cache %s)",
			 iolab_fmt_size(pp->cache, b, sizeof(b)));
	else if (big == 1)
		snprintf(what, sizeof(what), "the per-second series of --time %.6g s (16 bytes a second "
			 "for each worker and the point)", (double)c->time_ns / 1e9);
	else
		snprintf(what, sizeof(what), "I/O buffers (%u workers x queue depth %u x %s)",
			 pp->workers, qd, iolab_fmt_size(buf, b, sizeof(b)));
	char of[48] = " of"; /* the part, or the whole and the part */
	if (need > part[big])
		snprintf(of, sizeof(of), " of memory, %s of it for", iolab_fmt_size((uint64_t)part[big],
										   b, sizeof(b)));
	return iolab_errf(err, ENOMEM, "point %u needs %s%s %s, more than the %s %s", k + 1,
			  iolab_fmt_size(need < 1.8e19 ? (uint64_t)need : UINT64_MAX, n, sizeof(n)), of,
			  what, iolab_fmt_size(limit, l, sizeof(l)),
			  c->mem_limit ? "that --mem-limit allows"
				       : "allowed (half of the machine's memory; --mem-limit SIZE changes it)");
}

static int check_spec_fits(const struct iolab_config *c, const struct point_params *pp, void *ctx,
			   struct iolab_err *err);

/* Checks one point's (already validated) spec, and its workers' own, against the targets;
 * returns 0 or -EINVAL. */
int run_check_point(const struct iolab_config *c, const struct run_env *env, unsigned k,
		    const struct point_params *pp, struct iolab_err *err)
{
	if ((c->engine->flags & IOLAB_ENGINE_VIRTUAL) && pp->workers > 1 && pp->rate > 0)
		return iolab_errf(err, EINVAL, "--workers %u with --rate: the simulator's --rate is the "
				  "arrival rate of all requests together, one open loop, so workers "
				  "would only split it; use --workers with --qd or --clients",
				  pp->workers);
	if (c->verify || c->verify_only) {
		int rc = verify_check_config(c, &pp->spec, env->region, env->n, err);
		if (rc)
			return rc;
		/* the blocks' words (verify_run.h) beside the buffers, within the memory limit */
		uint64_t state = !c->verify_only || *c->verify_journal
				 ? verify_state_bytes(env->region, env->n) : 0;
		if ((rc = run_check_memory(c, k, pp, env->desc, state, err)))
			return rc;
	}
	int rc = check_spec_fits(c, pp, (void *)env, err);
	return rc ? rc : worker_loads_each_spec(c, pp, check_spec_fits, (void *)env, err);
}

/* Point pp's spec against what the run opened (env): whole sectors of a simulated drive,
 * --direct's logical block size. */
static int check_spec_fits(const struct iolab_config *c, const struct point_params *pp, void *ctx,
			   struct iolab_err *err)
{
	const struct run_env *env = ctx;
	if (env->desc)
		return check_sectors(c, env->desc, pp, err);
	if (env->no_io || !c->direct)
		return 0;
	for (unsigned t = 0; t < env->n; t++) {
		unsigned lbs = env->tgt[t].lbs;
		for (unsigned i = 0; i < pp->spec.nlines; i++) {
			const struct iolab_spec_line *l = &pp->spec.line[i];
			uint64_t align = l->align ? l->align : l->size;
			if (l->size % lbs || align % lbs)
				return iolab_errf(err, EINVAL,
						  "%s: transfer size %" PRIu64 " (alignment %" PRIu64
						  ") of pattern '%s' is not a multiple of the logical block "
						  "size %u that --direct needs",
						  env->tgt[t].path, l->size, align, pp->spec.name, lbs);
		}
		if (c->offset % lbs)
			return iolab_errf(err, EINVAL, "--offset %" PRIu64 " is not a multiple of the logical "
					  "block size %u of %s that --direct needs", c->offset, lbs,
					  env->tgt[t].path);
	}
	return 0;
}
