/* runner.c: runs a configuration. Checks it (each point: point_checks.c), opens the targets
 * once, walks the sweep points in the documented order, runs each point's workers (worker.c)
 * while watching time, progress and interrupts, and turns the workers' raw counts into a result
 * with its warnings. A replay (the
 * requests of a trace instead of a pattern, replay.h) is checked whole before anything runs:
 * its spec stands for the trace's sizes and read share, and each point's targets are checked
 * against every record. */
#include <errno.h>
#include <inttypes.h>
#include <math.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/resource.h>
#include <time.h>
#include <unistd.h>

#include "iolab/clock.h"
#include "iolab/cond.h"
#include "iolab/device_info.h"
#include "iolab/method.h"
#include "iolab/sim_system.h"
#include "iolab/subsys_shape.h"
#include "iolab/target.h"
#include "iolab/trace_record.h"
#include "iolab/cluster.h"
#include "point.h"
#include "run_internal.h"
#include "scaleout.h"
#include "verify_run.h"
#include "worker_loads.h"

volatile sig_atomic_t iolab_stop_requested;

static unsigned n_or_1(unsigned n)
{
	return n ? n : 1;
}

/* The innermost sweep: the load, one of --clients, --rate (with --qd their cap) or --qd. */
static unsigned n_load(const struct iolab_config *c)
{
	return c->nclients ? c->nclients : c->nrate ? c->nrate : n_or_1(c->nqd);
}

unsigned iolab_config_points(const struct iolab_config *c)
{
	return n_or_1(c->npattern) * n_or_1(c->nhost) * n_or_1(c->narray) * n_or_1(c->nstripe) *
	       n_or_1(c->ncache) * n_or_1(c->nwp) *
	       n_or_1(c->nworkers) * n_or_1(c->nread) * n_or_1(c->nbs) *
	       n_load(c);
}

static void vwarn(struct iolab_point *p, bool detail, const char *fmt, va_list ap)
{
	if (p->nwarn >= IOLAB_WARN_MAX)
		return;
	if (detail)
		p->warn_detail |= UINT32_C(1) << p->nwarn;
	vsnprintf(p->warn[p->nwarn++], IOLAB_WARN_LEN, fmt, ap);
}

void iolab_point_warn(struct iolab_point *p, const char *fmt, ...)
{
	va_list ap;
	va_start(ap, fmt);
	vwarn(p, false, fmt, ap);
	va_end(ap);
}

void iolab_point_warn_detail(struct iolab_point *p, const char *fmt, ...)
{
	va_list ap;
	va_start(ap, fmt);
	vwarn(p, true, fmt, ap);
	va_end(ap);
}

/* v (0 < v < limit) with two significant digits (at least two decimals), and more where they
 * are needed to print it below limit: 0.999 s is not "1.00 s", and 0.0035 s is not "0.00 s". */
static const char *fmt_below(double v, double limit, char *buf, size_t n)
{
	int d = v > 0 ? (int)ceil(-log10(v)) + 1 : 2;
	for (d = d < 2 ? 2 : d > 9 ? 9 : d; d <= 9; d++) {
		snprintf(buf, n, "%.*f", d, v);
		if (strtod(buf, NULL) < limit)
			break;
	}
	return buf;
}

void iolab_results_free(struct iolab_results *res)
{
	for (unsigned i = 0; i < res->n; i++) {
		free(res->point[i].sec_ios);
		free(res->point[i].sec_bytes);
		free(res->point[i].ranks);
		free(res->point[i].comp);
		free(res->point[i].wres);
	}
	free(res->point);
	memset(res, 0, sizeof(*res));
}



static void decode_point(const struct iolab_config *c, unsigned k, struct point_params *pp)
{
	unsigned iq = k % n_load(c);
	k /= n_load(c);
	unsigned ib = k % n_or_1(c->nbs);
	k /= n_or_1(c->nbs);
	unsigned ir = k % n_or_1(c->nread);
	k /= n_or_1(c->nread);
	unsigned iw = k % n_or_1(c->nworkers);
	k /= n_or_1(c->nworkers);
	unsigned is = k % n_or_1(c->nstripe);
	k /= n_or_1(c->nstripe);
	unsigned ia = k % n_or_1(c->narray);
	k /= n_or_1(c->narray);
	pp->array_drives = c->array_level && c->narray ? c->array_drives[ia] : 0;
	pp->stripe = pp->array_drives ? (c->nstripe ? c->stripe[is] : 65536) : 0;
	unsigned ic = k % n_or_1(c->ncache);
	k /= n_or_1(c->ncache);
	unsigned ip = k % n_or_1(c->nwp);
	k /= n_or_1(c->nwp);
	pp->cache = c->ncache ? c->cache[ic] : 0;
	pp->write_policy = c->nwp ? c->write_policy[ip] : -1;
	unsigned ih = k % n_or_1(c->nhost);
	k /= n_or_1(c->nhost);
	pp->host_sched = c->nhost ? c->host_sched[ih] : 0;
	pp->spec = c->npattern ? c->pattern[k] : *iolab_pattern_find("rand-read");
	pp->clients = c->nclients ? c->clients[iq] : 0;
	pp->rate = c->nrate && !c->nclients ? c->rate[iq] : 0;
	pp->qd = pp->clients ? pp->clients : pp->rate ? (c->nqd ? c->qd[0] : IOLAB_RATE_QD)
		 : c->nqd ? c->qd[iq] : 1;
	pp->workers = c->nwspec ? c->nwspec : c->nworkers ? c->workers[iw] : 1;
	pp->bs = c->nbs ? c->bs[ib] : 0;
	pp->read_pct = c->nread ? (int)c->read[ir] : -1;
	if (pp->bs)
		iolab_spec_set_bs(&pp->spec, pp->bs);
	if (pp->read_pct >= 0)
		iolab_spec_set_read(&pp->spec, (unsigned)pp->read_pct);
}

/* Point k of a replay: decode_point, with the trace's spec and load (a timed replay's cap on
 * requests in flight is --qd, IOLAB_RATE_QD without it). */
static void decode(const struct iolab_config *c, const struct replay_run *rr, unsigned k,
		   struct point_params *pp)
{
	decode_point(c, k, pp);
	pp->timed = false;
	if (c->verify_only) { /* one sequential read of the region, checked (verify_run.h) */
		pp->spec = *iolab_pattern_find("seq-read");
		snprintf(pp->spec.name, sizeof(pp->spec.name), "verify-only");
		if (c->nbs)
			iolab_spec_set_bs(&pp->spec, c->bs[0]);
		pp->workers = 1;
		pp->read_pct = 100;
	}
	if (!rr)
		return;
	pp->spec = rr->spec;
	pp->timed = c->replay->mode == IOLAB_REPLAY_TIMED;
	if (pp->timed && !c->nqd)
		pp->qd = IOLAB_RATE_QD;
	pp->bs = 0;
	pp->read_pct = -1;
}


/* The load model of point pp, for its workers (each gets its share of an open loop's rate). */
static struct pace_params pace_of(const struct iolab_config *c, const struct point_params *pp)
{
	if (pp->clients)
		return (struct pace_params){.kind = PACE_CLIENTS, .think_ns = c->think_ns,
					    .think_exp = c->think_exp};
	if (pp->rate > 0)
		return (struct pace_params){.kind = PACE_RATE, .rate = pp->rate / pp->workers,
					    .poisson = c->poisson};
	if (pp->timed)
		return (struct pace_params){.kind = PACE_TRACE};
	return (struct pace_params){.kind = PACE_QD};
}


/* Closes the targets; a refused run (discard) also removes the scratch files it created. */
static void close_env(struct run_env *env, bool discard)
{
	if (env->verify) { /* a run that ends well closes it first, to report its journal's errors */
		struct iolab_err ignore;
		verify_run_close(env->verify, &ignore);
		free(env->verify);
		env->verify = NULL;
	}
	if (env->no_io) /* a virtual region: no target was opened (tgt[0].fd is 0, not a target) */
		return;
	for (unsigned i = 0; i < env->n; i++)
		if (discard)
			iolab_target_discard(&env->tgt[i]);
		else
			iolab_target_close(&env->tgt[i]);
	env->n = 0;
}

/* The simulated subsystem of a point: the command line's shorthands, or the subsystem file
 * with the point's sweep values (subsys_shape.c). */
static int shape_point(const struct iolab_config *c, const struct point_params *pp,
		       struct iolab_subsys *desc, struct iolab_err *err)
{
	struct iolab_sim_shape sh = {
		.file = c->subsys, .model = c->engine_config,
		.level = pp->array_drives ? c->array_level : 0, .drives = pp->array_drives,
		.stripe = c->subsys ? (c->nstripe ? pp->stripe : 0) : pp->stripe,
		.failed = {(int)c->failed[0] - 1, (int)c->failed[1] - 1},
		.rebuild_bytes_s = c->rebuild_rate,
		.host = {pp->host_sched, c->host_overhead_ns}, .set_host_sched = c->nhost > 0,
		.has_channel = c->has_channel, .has_bus = c->has_bus,
		.has_ctl = c->has_ctl, .channel = c->channel, .bus = c->bus,
		.channels = c->channels, .controllers = c->controllers, .ctl = c->ctl,
		.set_cache = c->ncache > 0, .set_write_policy = c->nwp > 0,
		.drive_cache = c->drive_cache,
	};
	sh.ctl.cache_bytes = pp->cache;
	sh.ctl.write_policy = pp->write_policy >= 0 ? (unsigned)pp->write_policy : IOLAB_WP_THROUGH;
	return iolab_subsys_shape(&sh, desc, err);
}


/* The region an engine without targets addresses in a point: the null engine's --size (1 GiB
 * by default), a simulated drive's capacity, or a volume's (its drives' together). */
static int virtual_region(const struct iolab_config *c, const struct point_params *pp,
			  struct run_env *env, struct iolab_err *err)
{
	uint64_t size = c->virtual_size ? c->virtual_size : c->size ? c->size : 1ull << 30;
	env->n = 1;
	env->fds[0] = -1;
	if (pp && env->desc)
		size = iolab_subsys_bytes(env->desc);
	else if (!pp && c->engine == &iolab_engine_sim)
		return 0; /* each point's path is checked with the point */
	int rc = run_region_len(c, env->desc ? "the simulated path" : "the null engine's region",
				size, &env->region[0].len, err);
	if (rc)
		return rc;
	env->region[0].start = c->offset;
	env->working_set = env->region[0].len;
	return 0;
}

/* What the point addresses in all: its targets' sizes together, or a simulated path's capacity
 * (a volume's usable bytes), or the null engine's region. */
static uint64_t env_capacity(const struct iolab_config *c, const struct run_env *env)
{
	if (env->no_io)
		return env->desc ? iolab_subsys_bytes(env->desc)
		       : c->virtual_size ? c->virtual_size : c->size ? c->size : 1ull << 30;
	uint64_t sum = 0;
	for (unsigned i = 0; i < env->n; i++)
		sum += env->tgt[i].size;
	return sum;
}

/* Where a target's news goes: the run's progress callback (run.h). */
struct teller {
	iolab_progress_fn fn;
	void *ctx;
};

static void tell_target_news(const struct iolab_target_news *n, void *ctx)
{
	const struct teller *t = ctx;
	char line[PATH_MAX + 160];
	struct iolab_progress pr = {.kind = IOLAB_PROGRESS_CREATE, .what = n->path, .done = n->done,
				    .total = n->total};
	if (n->note) {
		snprintf(line, sizeof(line), "%s: %s", n->path, n->note);
		pr = (struct iolab_progress){.kind = IOLAB_PROGRESS_NOTE, .what = line};
	}
	t->fn(&pr, t->ctx);
}

static int open_env(const struct iolab_config *c, bool writes, struct run_env *env,
		    iolab_progress_fn progress, void *ctx, struct iolab_err *err)
{
	memset(env, 0, sizeof(*env));
	env->no_io = c->engine->flags & (IOLAB_ENGINE_NO_IO | IOLAB_ENGINE_VIRTUAL);
	if (c->stroke_pct && c->length)
		return iolab_errf(err, EINVAL, "--stroke and --length cannot be used together");
	if (env->no_io) /* the null engine and the simulator address a virtual region */
		return virtual_region(c, NULL, env, err);
	if (!c->ntargets)
		return iolab_errf(err, EINVAL, "no target: give a file or block device (or --engine null)");
	struct teller teller = {progress, ctx};
	struct iolab_target_opts o = {
		.size = c->size, .write = writes, .force = c->force, .destroy_data = c->destroy_data,
		.direct = c->direct, .cancel = &iolab_stop_requested,
		.tell = progress ? tell_target_news : NULL, .tell_ctx = &teller,
	};
	for (unsigned i = 0; i < c->ntargets; i++) {
		int rc = iolab_target_open(&env->tgt[i], c->target[i], &o, err);
		if (rc) {
			close_env(env, true);
			return rc;
		}
		env->n++;
		struct iolab_target *t = &env->tgt[i];
		env->fds[i] = t->fd;
		uint64_t len;
		if ((rc = run_region_len(c, t->path, t->size, &len, err))) {
			close_env(env, true);
			return rc;
		}
		env->region[i] = (struct iolab_region){.start = c->offset, .len = len};
		scale_split(c, &env->region[i]);
		env->working_set += env->region[i].len;
	}
	return 0;
}







static double now_s(void)
{
	return (double)iolab_clock_ns() / 1e9;
}

static double cpu_s(const struct timeval *tv)
{
	return (double)tv->tv_sec + (double)tv->tv_usec / 1e6;
}

struct disk_sample {
	unsigned n;
	struct iolab_diskstat d[IOLAB_TARGETS_MAX];
};

/* Reads the sysfs counters of every distinct device under the targets. */
static void sample_disks(const struct run_env *env, struct disk_sample *s)
{
	s->n = 0;
	for (unsigned i = 0; i < env->n; i++) {
		const char *p = env->tgt[i].stat_path;
		bool dup = !*p;
		for (unsigned j = 0; j < i && !dup; j++)
			dup = !strcmp(p, env->tgt[j].stat_path);
		if (!dup && iolab_diskstat_read(p, &s->d[s->n]) == 0)
			s->n++;
	}
}

/* CPU time and device counters at one instant: their differences over the measured time give a
 * point's CPU use and device figures. */
struct sys_sample {
	struct rusage ru;
	struct disk_sample disk;
};

static void sample_system(const struct run_env *env, struct sys_sample *s)
{
	getrusage(RUSAGE_SELF, &s->ru);
	sample_disks(env, &s->disk);
}

/* Adds the CPU use and device figures between a and b, wall_s seconds apart, to p. */
static void add_system_deltas(struct iolab_point *p, const struct sys_sample *a,
			      const struct sys_sample *b, double wall_s)
{
	p->cpu_user_pct += 100 * (cpu_s(&b->ru.ru_utime) - cpu_s(&a->ru.ru_utime)) / wall_s;
	p->cpu_sys_pct += 100 * (cpu_s(&b->ru.ru_stime) - cpu_s(&a->ru.ru_stime)) / wall_s;
	const struct disk_sample *d0 = &a->disk, *d1 = &b->disk;
	if (!d1->n || d1->n != d0->n)
		return;
	p->has_disk = true;
	double ticks = 0, queue = 0;
	for (unsigned i = 0; i < d1->n; i++) {
		p->disk_ios += d1->d[i].ios - d0->d[i].ios;
		p->disk_reads += d1->d[i].reads - d0->d[i].reads;
		p->disk_writes += d1->d[i].writes - d0->d[i].writes;
		p->disk_read_bytes += d1->d[i].read_bytes - d0->d[i].read_bytes;
		p->disk_write_bytes += d1->d[i].write_bytes - d0->d[i].write_bytes;
		ticks += (double)(d1->d[i].io_ticks - d0->d[i].io_ticks);
		queue += (double)(d1->d[i].queue_ms - d0->d[i].queue_ms);
	}
	p->disk_util_pct += 100 * ticks / 1000 / wall_s / d1->n;
	p->disk_queue += queue / 1000 / wall_s;
}

/* Starts n workers on ctl and waits until each is set up; then lets them go (or, if one could not
 * start or set up, tells them all to stop at once). Returns how many threads run in *started, and
 * 0 or the first failure (err says why). */
static int start_workers(struct point_ctl *ctl, struct worker *w, unsigned n, unsigned *started,
			 struct iolab_err *err)
{
	int rc = 0;
	unsigned k = 0;
	for (; k < n; k++) {
		w[k].ctl = ctl;
		w[k].index = k;
		if (pthread_create(&w[k].thread, NULL, iolab_worker_main, &w[k])) {
			rc = iolab_errf(err, EAGAIN, "cannot start worker thread %u", k + 1);
			break;
		}
	}
	pthread_mutex_lock(&ctl->lock);
	while (ctl->ready < k)
		pthread_cond_wait(&ctl->cond, &ctl->lock);
	for (unsigned i = 0; i < k && !rc; i++)
		if (w[i].rc) {
			rc = w[i].rc;
			*err = w[i].err;
		}
	if (rc)
		atomic_store(&ctl->stop, true);
	ctl->t0 = iolab_clock_ns();
	atomic_store(&ctl->last_ok, ctl->t0);
	ctl->go = true;
	pthread_cond_broadcast(&ctl->cond);
	pthread_mutex_unlock(&ctl->lock);
	*started = k;
	return rc;
}

/* What the runner sees of a repetition while its workers run. */
struct watch {
	struct sys_sample start;  /* at the end of the ramp */
	bool sampled;             /* start was taken (false: the run ended within the ramp) */
	uint64_t mstart;          /* when the measured time started */
	uint64_t t_end;           /* when the last worker finished */
};

static bool all_finished(const struct worker *w, unsigned n)
{
	for (unsigned i = 0; i < n; i++)
		if (!atomic_load(&w[i].finished))
			return false;
	return true;
}

/* Waits on ctl's condition until a worker finishes or until (iolab_clock_ns()), 50 ms at most.
 * The condition times its wait on CLOCK_MONOTONIC (cond.h): a step of the wall clock neither
 * cuts the wait short nor stretches it. */
static void wait_workers(struct point_ctl *ctl, const struct worker *w, unsigned n, uint64_t until)
{
	uint64_t t = iolab_clock_ns(), wait = 50 * 1000 * 1000;
	if (until > t && until - t < wait)
		wait = until - t;
	pthread_mutex_lock(&ctl->lock); /* a worker sets finished under it, then signals */
	if (!all_finished(w, n))
		iolab_cond_wait_ns(&ctl->cond, &ctl->lock, wait);
	pthread_mutex_unlock(&ctl->lock);
}

/* Waits for the workers, looking twenty times a second: passes a stop request on, samples the
 * system at the end of the ramp, and reports progress twice a second. Across MPI ranks
 * (ctl->sync_start) the ramp ends on every rank together: a barrier, after which the workers
 * learn when the measured time starts (docs/scale-out.md). */
static void watch_workers(const struct iolab_config *c, const struct run_env *env, struct point_ctl *ctl,
			  struct worker *w, unsigned n, struct iolab_progress pr, iolab_progress_fn progress,
			  void *ctx, struct watch *wt)
{
	uint64_t mstart = ctl->t0 + c->ramp_ns;
	bool synced = !ctl->sync_start;
	wt->mstart = mstart;
	wt->sampled = c->ramp_ns == 0 && synced;
	if (wt->sampled)
		sample_system(env, &wt->start);
	double t_last = now_s();
	uint64_t last_done = 0;
	while (!all_finished(w, n)) {
		/* a twentieth of a second, until the ramp's end, or until the last worker
		 * finishes (a simulated point takes milliseconds) */
		wait_workers(ctl, w, n, synced ? UINT64_MAX : mstart);
		if (iolab_stop_requested)
			atomic_store(&ctl->stop, true);
		if (!synced && iolab_clock_ns() >= mstart) { /* every rank's ramp is over */
			iolab_cluster_barrier();
			wt->mstart = mstart = iolab_clock_ns();
			atomic_store(&ctl->mstart, mstart);
			synced = true;
		}
		if (!wt->sampled && synced && iolab_clock_ns() >= mstart) {
			sample_system(env, &wt->start);
			wt->sampled = true;
		}
		double t = now_s();
		if (progress && t - t_last >= 0.5) {
			uint64_t done = 0;
			for (unsigned i = 0; i < n; i++)
				done += atomic_load_explicit(&w[i].progress, memory_order_relaxed);
			pr.elapsed_s = (double)(iolab_clock_ns() - ctl->t0) / 1e9;
			pr.iops = (double)(done - last_done) / (t - t_last);
			last_done = done;
			t_last = t;
			progress(&pr, ctx);
		}
	}
	if (!synced) /* ended within the ramp: the other ranks still meet here */
		iolab_cluster_barrier();
	wt->t_end = iolab_clock_ns();
}

/* Adds the reports of n parts to p's (the same path: part k is the same part), making room for
 * them. Returns 0 or -ENOMEM. */
static int add_comps(struct iolab_point *p, const struct iolab_comp_report *comp, unsigned n)
{
	if (n > p->ncomp) {
		struct iolab_comp_report *a = realloc(p->comp, n * sizeof(*a));
		if (!a)
			return -ENOMEM;
		memcpy(a + p->ncomp, comp + p->ncomp, (n - p->ncomp) * sizeof(*a));
		p->comp = a;
		for (unsigned k = 0; k < p->ncomp; k++)
			iolab_comp_report_add(&p->comp[k], &comp[k]);
		p->ncomp = n;
		return 0;
	}
	for (unsigned k = 0; k < n; k++)
		iolab_comp_report_add(&p->comp[k], &comp[k]);
	return 0;
}

/* Sums the workers' counts into rep (this repetition) and p (the engine's counters, the per-second
 * series of this repetition); returns the measured span, the longest worker's. */
static uint64_t merge_workers(const struct iolab_config *c, const struct worker *w, unsigned n,
			      struct iolab_dir_result rep[2], struct iolab_point *p)
{
	uint64_t span_ns = 0;
	unsigned nsec = 0, inflight = 0;
	for (unsigned i = 0; i < n; i++) {
		for (int d = 0; d < 2; d++) {
			rep[d].ios += w[i].dir[d].ios;
			rep[d].bytes += w[i].dir[d].bytes;
			rep[d].errors += w[i].dir[d].errors;
			iolab_hist_merge(&rep[d].lat, &w[i].dir[d].lat);
		}
		iolab_errors_add(&p->errors, &w[i].errors);
		if (w[i].span_ns > span_ns)
			span_ns = w[i].span_ns;
		p->delay_n += w[i].delay_n;
		p->delay_sum_ns += w[i].delay_sum_ns;
		if (w[i].delay_max_ns > p->delay_max_ns)
			p->delay_max_ns = w[i].delay_max_ns;
		iolab_hist_merge(&p->issue_err, &w[i].issue_err);
		iolab_hist_merge(&p->lat_issued, &w[i].lat_issued);
		inflight += w[i].inflight_max;
		p->sub_seen += w[i].sub_seen;
		p->sub_done += w[i].sub_done;
		verify_result_add(&p->verify, &w[i].verify);
		if (c->engine->breakdown) {
			p->has_breakdown = true;
			iolab_breakdown_add(&p->bd, &w[i].bd);
		}
		if (add_comps(p, w[i].comp, w[i].ncomp))
			iolab_point_warn(p, "out of memory for the report of the path's parts: it "
					 "leaves out worker %u's", i + 1);
		if (w[i].nsec > nsec)
			nsec = w[i].nsec;
	}
	if (inflight > p->inflight_max)
		p->inflight_max = inflight;
	/* Per-second series of this repetition (the last one is kept), complete seconds only. */
	free(p->sec_ios);
	free(p->sec_bytes);
	p->sec_ios = calloc(nsec ? nsec : 1, sizeof(uint64_t));
	p->sec_bytes = calloc(nsec ? nsec : 1, sizeof(uint64_t));
	p->nsec = 0;
	if (p->sec_ios && p->sec_bytes) {
		unsigned whole = (unsigned)floor((double)span_ns / 1e9 + 1e-9);
		p->nsec = nsec < whole ? nsec : whole;
		for (unsigned i = 0; i < n; i++)
			for (unsigned s = 0; s < p->nsec && s < w[i].nsec; s++) {
				p->sec_ios[s] += w[i].sec_ios[s];
				p->sec_bytes[s] += w[i].sec_bytes[s];
			}
	}
	return span_ns;
}

static void free_workers(struct worker *w, unsigned n)
{
	for (unsigned i = 0; i < n; i++) {
		free(w[i].sec_ios);
		free(w[i].sec_bytes);
		free(w[i].comp);
	}
	free(w);
}

/* --record: the point's targets (a simulated or null engine's one virtual device) for the
 * trace's header, and its lanes. */
static int record_begin(const struct iolab_config *c, const struct run_env *env, unsigned workers,
			unsigned qd, struct iolab_err *err)
{
	const char *names[IOLAB_TARGETS_MAX];
	uint64_t sizes[IOLAB_TARGETS_MAX];
	unsigned n = env->n;
	if (env->no_io) {
		n = 1;
		names[0] = c->model_name ? c->model_name : c->engine->name;
		sizes[0] = env_capacity(c, env);
	}
	for (unsigned i = 0; !env->no_io && i < n; i++) {
		names[i] = env->tgt[i].path;
		sizes[i] = env->tgt[i].size;
	}
	struct timespec ts;
	clock_gettime(CLOCK_REALTIME, &ts);
	return iolab_recorder_begin(c->record, names, sizes, n, workers, qd,
				    (uint64_t)ts.tv_sec * 1000000000u + (uint64_t)ts.tv_nsec, err);
}

/* One repetition of one point: runs the workers and merges their counts into p; *iops and
 * *mbps get this repetition's rates. Returns 0, or -errno when workers could not be set up (err
 * says why). */
static int run_once(const struct iolab_config *c, const struct run_env *env,
		    const struct point_params *pp, const struct replay_run *rr, struct iolab_point *p,
		    double *iops, double *mbps, const struct iolab_progress *prog,
		    iolab_progress_fn progress, void *ctx, struct iolab_err *err)
{
	struct point_ctl ctl = {
		.engine = c->engine, .fds = env->fds, .nfds = env->n, .spec = &pp->spec,
		.dist = &c->dist, .regions = env->region, .nregions = env->n,
		.qd = slots_of(c, pp), .pace = pace_of(c, pp),
		.nworkers = pp->workers, .seed = c->seed + prog->rep - 1, .ramp_ns = c->ramp_ns,
		.time_ns = c->time_ns, .on_error_continue = c->on_error_continue,
		.engine_config = c->engine_config, .host = {pp->host_sched, c->host_overhead_ns},
		.subsys = env->desc, .record = c->record,
		.replay = rr ? c->replay : NULL, .dest = rr ? &rr->dest : NULL,
		.scan = rr ? &rr->scan : NULL,
		.bytes_per_worker = c->bytes ? (c->bytes + pp->workers - 1) / pp->workers : 0,
		.buffer_pattern = c->buffer_pattern, .buffer_pct = c->buffer_compress_pct,
		.verify = env->verify,
		/* across ranks with a ramp, the measured time starts after every rank's (without
		 * one, the barrier before the workers start is the start) */
		.sync_start = iolab_cluster_active() && !scale_spread(c) && c->ramp_ns > 0,
	};
	if (c->verify_only) { /* the region once: its bytes, not a time */
		ctl.bytes_per_worker = verify_only_bytes(env->region, env->n);
		ctl.time_ns = 0;
	}
	atomic_init(&ctl.stop, false);
	atomic_init(&ctl.mstart, 0);
	atomic_init(&ctl.first_error, 0);
	atomic_init(&ctl.last_ok, 0);
	/* --fault: the workers' engine is the fault engine around the one asked for */
	struct iolab_engine_ops fault_ops;
	struct iolab_fault_run faults;
	struct iolab_fault_setup fault_setup = {&faults, c->engine, c->engine_config};
	/* each worker's load; the simulator runs them all in one thread against one system, which
	 * it keeps between the runs of the point (sim_carry.c) */
	struct worker_loads wl;
	int rc = worker_loads_make(&wl, c, env, pp, ctl.qd, ctl.pace, err);
	if (rc)
		return rc;
	ctl.load = wl.load;
	ctl.split_regions = wl.regions != NULL;
	ctl.one_thread = c->engine->flags & IOLAB_ENGINE_VIRTUAL;
	if (env->carry)
		rc = sim_carry_get(env->carry, c, env, pp, worker_loads_slots(&wl), &ctl.kept,
				   &ctl.ramp_ns, err);
	if (rc) {
		worker_loads_free(&wl);
		return rc;
	}
	if (c->faults.n) {
		iolab_fault_run_init(&faults, &c->faults, ctl.seed);
		iolab_fault_engine(c->engine, &fault_ops);
		ctl.engine = &fault_ops;
		ctl.engine_config = &fault_setup;
	}
	pthread_mutex_init(&ctl.lock, NULL);
	rc = iolab_cond_init(&ctl.cond);
	bool have_cond = !rc;
	if (rc)
		rc = iolab_errf(err, rc, "cannot make the workers' condition variable: %s", strerror(rc));
	struct worker *w = rc ? NULL : calloc(pp->workers, sizeof(*w));
	if (!rc && !w)
		rc = iolab_errf(err, ENOMEM, "out of memory");
	if (!rc && c->record)
		rc = record_begin(c, env, pp->workers, ctl.qd, err);
	/* Whatever failed, this rank takes the run's collectives with the others, as a run without
	 * workers; the ranks then agree on the failure (scale_run_agree). */
	if (!scale_spread(c))
		iolab_cluster_barrier(); /* the ranks start each run together (docs/scale-out.md) */
	unsigned started = 0;
	ctl.workers = w;
	for (unsigned i = 0; w && i < pp->workers; i++) { /* also those a thread of another runs */
		w[i].ctl = &ctl;
		w[i].index = i;
	}
	if (!rc)
		rc = start_workers(&ctl, w, ctl.one_thread ? 1 : pp->workers, &started, err);
	struct watch wt;
	watch_workers(c, env, &ctl, w, started, *prog, progress, ctx, &wt);
	struct sys_sample end;
	sample_system(env, &end);
	for (unsigned i = 0; i < started; i++)
		pthread_join(w[i].thread, NULL);
	pthread_mutex_destroy(&ctl.lock);
	if (have_cond)
		pthread_cond_destroy(&ctl.cond);
	if (env->carry)
		sim_carry_after_run(env->carry, c);
	if (rc) {
		if (w)
			free_workers(w, pp->workers);
		worker_loads_free(&wl);
		return rc;
	}

	struct iolab_dir_result rep[2] = {0};
	iolab_hist_reset(&rep[0].lat);
	iolab_hist_reset(&rep[1].lat);
	double seconds = (double)merge_workers(c, w, pp->workers, rep, p) / 1e9;
	if (worker_results_add(p, w, &wl))
		iolab_point_warn(p, "out of memory for the workers' own figures: the report leaves "
				 "them out");
	free_workers(w, pp->workers);
	worker_loads_free(&wl);
	for (int d = 0; d < 2; d++) {
		p->dir[d].ios += rep[d].ios;
		p->dir[d].bytes += rep[d].bytes;
		p->dir[d].errors += rep[d].errors;
		iolab_hist_merge(&p->dir[d].lat, &rep[d].lat);
	}
	double wall = seconds > 0 ? seconds : 1e-9;
	*iops = (double)(rep[0].ios + rep[1].ios) / wall;
	*mbps = (double)(rep[0].bytes + rep[1].bytes) / wall / 1e6;
	double wall_span = wt.sampled ? (double)(wt.t_end - wt.mstart) / 1e9 : 0;
	if (wall_span > 0 && !(c->engine->flags & IOLAB_ENGINE_VIRTUAL))
		add_system_deltas(p, &wt.start, &end, wall_span);
	p->seconds += seconds;
	if (c->faults.n) {
		struct iolab_fault_counts fc;
		iolab_fault_run_counts(&faults, &fc);
		iolab_fault_counts_add(&p->faults, &fc);
		p->has_faults = true;
	}
	int fe = atomic_load(&ctl.first_error);
	if (fe && !p->first_error)
		p->first_error = fe;
	if (atomic_load(&ctl.stop))
		p->partial = true;
	return 0;
}

static void spread(const double *v, unsigned n, struct iolab_spread *s)
{
	s->min = s->max = v[0];
	double sum = 0;
	for (unsigned i = 0; i < n; i++) {
		sum += v[i];
		if (v[i] < s->min)
			s->min = v[i];
		if (v[i] > s->max)
			s->max = v[i];
	}
	s->mean = sum / n;
	double acc = 0;
	for (unsigned i = 0; i < n; i++)
		acc += (v[i] - s->mean) * (v[i] - s->mean);
	s->stddev = n > 1 ? sqrt(acc / (n - 1)) : 0;
	s->ci95 = iolab_ci95(s->stddev, n);
}

/* Drops the targets' cached pages before a run of point p (see iolab_config_invalidates);
 * a failure is warned about once per point and the run goes on. */
static void invalidate_targets(const struct run_env *env, struct iolab_point *p, bool warn)
{
	for (unsigned t = 0; t < env->n; t++) {
		struct iolab_err err;
		if (iolab_target_invalidate(&env->tgt[t], &err) && warn)
			iolab_point_warn(p, "cached pages not dropped before the run: %s", err.msg);
	}
}

/* What happened to buffered I/O one way (op: IOLAB_OP_READ or IOLAB_OP_WRITE), from the
 * evidence: the bytes the device under the targets transferred that way while the point was
 * measured (sysfs), against the bytes the point asked for. Less than half: the page cache served
 * (or absorbed) most of it. Without device counters it cannot be told, and says so. */
static void warn_buffered(const struct run_env *env, int op, struct iolab_point *p)
{
	bool rd = op == IOLAB_OP_READ;
	const char *way = rd ? "reads" : "writes";
	uint64_t asked = p->dir[op].bytes;
	if (!asked)
		return;
	bool all_tmpfs = env->n > 0;
	for (unsigned t = 0; t < env->n; t++)
		all_tmpfs &= env->tgt[t].tmpfs;
	if (all_tmpfs) {
		iolab_point_warn(p, "buffered %s on tmpfs: memory %s them, there is no device "
				 "behind it", way, rd ? "served" : "took");
		return;
	}
	if (!p->has_disk) {
		uint64_t avail = iolab_mem_available();
		iolab_point_warn(p, "buffered %s: no device counters for %s, so how many the page cache "
				 "%s cannot be told%s", way, env->tgt[0].path, rd ? "served" : "absorbed",
				 rd && avail && env->working_set <= avail
					 ? " (the working set fits in available memory)" : "");
		return;
	}
	double pct = 100.0 * (double)(rd ? p->disk_read_bytes : p->disk_write_bytes) / (double)asked;
	int dec = pct < 9.95; /* 0.4 %, not 0 % */
	if (pct >= 99.5)
		iolab_point_warn(p, "buffered %s: all the bytes %s reached the device (sysfs)", way,
				 rd ? "read" : "written");
	else if (pct >= 50)
		iolab_point_warn(p, "buffered %s: %.0f %% of the bytes %s reached the device (sysfs); "
				 "the page cache %s the rest", way, pct, rd ? "read" : "written",
				 rd ? "served" : "held");
	else
		iolab_point_warn(p, "buffered %s: only %.*f %% of the bytes %s reached the device "
				 "(sysfs): the page cache %s most of them, so the figures are not the "
				 "device's", way, dec, pct, rd ? "read" : "written", rd ? "served" : "absorbed");
}

/* An asynchronous engine that completed most I/Os inside the call that submitted them (buffered
 * libaio, buffered io_uring on cached pages) kept no queue at the device whatever qd says, and
 * its latency is mostly finished I/Os waiting to be collected. Says so from the engine's count,
 * with the device's own mean queue where sysfs has it. (A synchronous engine gets the queue
 * depth warning instead.) */
static void warn_done_at_submit(const struct iolab_config *c, const struct run_env *env,
				const struct point_params *pp, struct iolab_point *p)
{
	if (env->no_io || (c->engine->flags & IOLAB_ENGINE_SYNC) || pp->qd < 2 || p->sub_seen < 100)
		return;
	double pct = 100.0 * (double)p->sub_done / (double)p->sub_seen;
	if (pct < 50)
		return;
	char dev[64] = "";
	if (p->has_disk)
		snprintf(dev, sizeof(dev), " (the device's own mean queue: %.2f)", p->disk_queue);
	iolab_point_warn(p, "%.0f %% of the I/Os were complete when %s's submit call returned: qd %u "
			 "was not a queue at the device%s; latency includes waiting to be collected",
			 pct, c->engine->name, pp->qd, dev);
}

/* An open loop that did not keep up with its rate: the device could not, or the cap on requests
 * in flight held them back (then they waited for a slot: their latency counts from their
 * intended arrival all the same). */
static void warn_load(const struct point_params *pp, struct iolab_point *p)
{
	if (pp->rate <= 0 || p->seconds <= 0 || p->iops.mean >= 0.95 * pp->rate)
		return;
	char cap[96] = "";
	if (p->inflight_max >= pp->qd * pp->workers)
		snprintf(cap, sizeof(cap), "; the cap of %u in flight (--qd) was reached", pp->qd * pp->workers);
	double late = p->delay_n ? p->delay_sum_ns / (double)p->delay_n : 0;
	iolab_point_warn(p, "target rate not reached: %.1f IOPS of %.6g (below 95 %%); requests were "
			 "issued %.3g %s late on average%s", p->iops.mean, pp->rate,
			 late >= 1e9 ? late / 1e9 : late / 1e6, late >= 1e9 ? "s" : "ms", cap);
}

/* A point's failures: their count by kind and the first ("12 I/O errors: 3 EIO (read), 9 short
 * writes; the first: a read of 4096 bytes at offset 8192: Input/output error (EIO)"), a point
 * given up on, and the faults --fault injected. */
static void warn_errors(struct iolab_point *p)
{
	const struct iolab_errors *e = &p->errors;
	uint64_t n = iolab_errors_count(e);
	if (n) {
		char kinds[IOLAB_WARN_LEN], first[IOLAB_WARN_LEN] = "";
		iolab_errors_describe(e, kinds, sizeof(kinds));
		if (e->has_first)
			iolab_error_describe(&e->first, first, sizeof(first));
		iolab_point_warn(p, "%" PRIu64 " I/O error%s: %s; the first: %s%s", n, n == 1 ? "" : "s",
				 kinds, first, e->has_first && e->first.err == ENOSPC
				 ? ", the device or file system is full" : "");
	}
	if (e->gave_up)
		iolab_point_warn(p, "every I/O failed for %.0f s (has the device gone?): the point "
				 "stopped there (--on-error continue)", IOLAB_GIVE_UP_NS / 1e9);
	if (p->has_faults) {
		char what[IOLAB_WARN_LEN] = "";
		size_t len = 0;
		for (unsigned k = 0; k < IOLAB_FAULT_KINDS && len < sizeof(what); k++)
			if (p->faults.kind[k])
				len += (size_t)snprintf(what + len, sizeof(what) - len, "%s%" PRIu64 " %s",
							len ? ", " : "", p->faults.kind[k],
							iolab_fault_kind_name(k));
		iolab_point_warn(p, "faults injected on purpose (--fault): %s", len ? what : "none struck");
	}
}

/* The honest-results warnings of a finished point. */
static void add_warnings(const struct iolab_config *c, const struct run_env *env,
			 const struct point_params *pp, struct iolab_point *p)
{
	uint64_t n = p->dir[0].ios + p->dir[1].ios;
	for (unsigned i = 0; env->desc && i < env->desc->nctl; i++) {
		const struct iolab_sub_controller *k = &env->desc->ctl[i];
		const char *why = iolab_ctl_warning(&k->p);
		if (why)
			iolab_point_warn(p, "%s: %s", k->name, why);
	}
	if (!env->no_io && !c->direct) {
		warn_buffered(env, IOLAB_OP_READ, p);
		warn_buffered(env, IOLAB_OP_WRITE, p);
	}
	static const struct {
		double need;
		const char *name;
	} pct[] = {{1e4, "p99"}, {1e5, "p99.9"}, {1e6, "p99.99"}};
	for (unsigned i = 0; i < 3; i++)
		if ((double)n < pct[i].need) {
			/* The table shows p99 only: the others go to the JSON and CSV, which have them. */
			(i ? iolab_point_warn_detail : iolab_point_warn)(
				p, "only %" PRIu64 " I/Os: %s and above rest on fewer than 100 samples (they "
				"need %.0f I/Os)", n, pct[i].name, pct[i].need);
			break;
		}
	warn_done_at_submit(c, env, pp, p);
	warn_load(pp, p);
	verify_warn(env->verify, p);
	if (p->replay_skipped)
		iolab_point_warn(p, "%" PRIu64 " of the trace's %" PRIu64 " records not replayed: trims, "
				 "flushes and empty transfers (the engines issue reads and writes)",
				 p->replay_skipped, p->replay_records);
	/* fewer in flight than slots, by design */
	bool paced = pp->clients || pp->rate > 0 || pp->timed;
	unsigned want_qd = pp->qd * pp->workers;
	if (!paced && p->device_depth && want_qd > p->device_depth) /* said once, under the table */
		iolab_point_warn_detail(p, "%s accepts %u command%s at a time: of the %u I/Os in "
					"flight, %u waited in the host queue",
					p->model ? p->model : c->engine->name, p->device_depth,
					p->device_depth == 1 ? "" : "s", want_qd, want_qd - p->device_depth);
	uint64_t errs = p->dir[0].errors + p->dir[1].errors;
	if (!paced && !env->no_io && p->seconds > 0 && !p->partial && !errs) {
		double want = (double)pp->qd * pp->workers;
		double mean_qd = p->qd_reached;
		if (mean_qd < 0.9 * want) {
			if (c->engine->flags & IOLAB_ENGINE_SYNC && pp->qd > 1)
				iolab_point_warn(p, "queue depth %.1f reached of %.0f requested: %s is "
						 "synchronous (one I/O per worker); use io_uring or libaio",
						 mean_qd, want, c->engine->name);
			else
				iolab_point_warn(p, "queue depth %.1f reached of %.0f requested", mean_qd, want);
		}
	}
	for (unsigned t = 0; t < env->n && !env->no_io && c->direct; t++) {
		struct iolab_device_info d;
		if (env->tgt[t].tmpfs)
			iolab_point_warn(p, "%s is on tmpfs: O_DIRECT does not bypass memory there",
					 env->tgt[t].path);
		else if (env->tgt[t].blockdev && iolab_device_info(env->tgt[t].path, &d) && !d.loop_dio)
			iolab_point_warn(p, "%s is a loop device reading %s through the page cache "
					 "(loop/dio = 0): memory serves what it cached, not the disk "
					 "(losetup --direct-io=on)", env->tgt[t].path, d.backing);
	}
	warn_errors(p);
	/* A partial point (interrupted, stopped by an error) is as unstable when short as any. */
	char secs[32];
	if (p->seconds > 0 && p->seconds / p->reps < 1.0)
		iolab_point_warn(p, "measured for only %s s per run%s: too short to be a stable figure",
				 fmt_below(p->seconds / p->reps, 1.0, secs, sizeof(secs)),
				 p->partial ? " (stopped early)" : "");
}

/* Adds round q's counts to p (the steady-state window merged into the point); the per-second
 * series becomes q's, the last round's. */
static void merge_round(struct iolab_point *p, struct iolab_point *q)
{
	for (int d = 0; d < 2; d++) {
		p->dir[d].ios += q->dir[d].ios;
		p->dir[d].bytes += q->dir[d].bytes;
		p->dir[d].errors += q->dir[d].errors;
		iolab_hist_merge(&p->dir[d].lat, &q->dir[d].lat);
	}
	p->seconds += q->seconds;
	if (q->first_error && !p->first_error)
		p->first_error = q->first_error;
	p->has_faults |= q->has_faults;
	p->partial |= q->partial;
	p->delay_n += q->delay_n;
	p->delay_sum_ns += q->delay_sum_ns;
	p->delay_max_ns = q->delay_max_ns > p->delay_max_ns ? q->delay_max_ns : p->delay_max_ns;
	iolab_hist_merge(&p->issue_err, &q->issue_err);
	iolab_hist_merge(&p->lat_issued, &q->lat_issued);
	p->sub_seen += q->sub_seen;
	p->sub_done += q->sub_done;
	verify_result_add(&p->verify, &q->verify);
	if (q->has_breakdown) {
		p->has_breakdown = true;
		iolab_breakdown_add(&p->bd, &q->bd);
	}
	if (add_comps(p, q->comp, q->ncomp))
		iolab_point_warn(p, "out of memory for the report of the path's parts: it leaves out "
				 "a round's");
	if (worker_results_merge(p, q))
		iolab_point_warn(p, "out of memory for the workers' own figures: they leave out a "
				 "round's");
	p->inflight_max = q->inflight_max > p->inflight_max ? q->inflight_max : p->inflight_max;
	p->cpu_user_pct += q->cpu_user_pct;
	p->cpu_sys_pct += q->cpu_sys_pct;
	p->has_disk |= q->has_disk;
	p->disk_util_pct += q->disk_util_pct;
	p->disk_queue += q->disk_queue;
	p->disk_ios += q->disk_ios;
	p->disk_reads += q->disk_reads;
	p->disk_writes += q->disk_writes;
	p->disk_read_bytes += q->disk_read_bytes;
	p->disk_write_bytes += q->disk_write_bytes;
	free(p->sec_ios);
	free(p->sec_bytes);
	p->sec_ios = q->sec_ios;
	p->sec_bytes = q->sec_bytes;
	p->nsec = q->nsec;
	q->sec_ios = q->sec_bytes = NULL;
	for (unsigned w = 0; w < q->nwarn; w++)
		iolab_point_warn(p, "%s", q->warn[w]);
}

/* The tracked value of a round that ran into q. */
static double round_value(unsigned metric, const struct iolab_point *q, double iops, double mbps)
{
	if (metric == IOLAB_SS_IOPS)
		return iops;
	if (metric == IOLAB_SS_MB)
		return mbps;
	uint64_t n = q->dir[0].lat.count + q->dir[1].lat.count;
	return n ? (double)(q->dir[0].lat.sum + q->dir[1].lat.sum) / (double)n / 1e3 : 0;
}

/* --steady-state: runs point p in rounds of --time, each into a fresh copy of p, until the last
 * IOLAB_SS_WINDOW rounds' tracked values meet the SNIA PTS rule (method.h) or after
 * IOLAB_SS_MAX_ROUNDS; then merges the window's rounds into p. iops and mbps get the window's
 * rates, p->reps their count. */
static int run_steady(const struct iolab_config *c, const struct run_env *env,
		      const struct point_params *pp, const struct replay_run *rr, struct iolab_point *p,
		      double *iops, double *mbps, struct iolab_progress prog, iolab_progress_fn progress,
		      void *ctx, struct iolab_err *err)
{
	struct iolab_point *ring = calloc(IOLAB_SS_WINDOW, sizeof(*ring));
	if (!ring)
		return iolab_errf(err, ENOMEM, "out of memory");
	double v[IOLAB_SS_MAX_ROUNDS], ri[IOLAB_SS_MAX_ROUNDS], rm[IOLAB_SS_MAX_ROUNDS];
	struct iolab_steady_result *ss = &p->steady;
	ss->metric = c->steady;
	prog.reps = IOLAB_SS_MAX_ROUNDS;
	int rc = 0;
	unsigned r = 0;
	while (r < IOLAB_SS_MAX_ROUNDS && !iolab_stop_requested) {
		struct iolab_point *q = &ring[r % IOLAB_SS_WINDOW];
		free(q->sec_ios);
		free(q->sec_bytes);
		free(q->comp);
		free(q->wres);
		*q = *p;
		q->sec_ios = q->sec_bytes = NULL;
		q->wres = NULL;
		q->nwres = 0;
		q->errors = (struct iolab_errors){0};
		q->faults = (struct iolab_fault_counts){{0}};
		q->comp = NULL;
		q->ncomp = 0;
		if (iolab_config_invalidates(c))
			invalidate_targets(env, q, r == 0);
		prog.rep = r + 1;
		rc = run_once(c, env, pp, rr, q, &ri[r], &rm[r], &prog, progress, ctx, err);
		if (rc)
			break;
		/* failures and faults count in every round, not only the window's */
		iolab_errors_add(&p->errors, &q->errors);
		iolab_fault_counts_add(&p->faults, &q->faults);
		v[r] = round_value(c->steady, q, ri[r], rm[r]);
		r++;
		if (q->partial || (ss->reached = iolab_steady(v, r)))
			break;
	}
	ss->rounds = r;
	ss->nwindow = r < IOLAB_SS_WINDOW ? r : IOLAB_SS_WINDOW;
	for (unsigned i = 0; !rc && i < ss->nwindow; i++) {
		unsigned k = r - ss->nwindow + i;
		ss->window[i] = v[k];
		iops[i] = ri[k];
		mbps[i] = rm[k];
		merge_round(p, &ring[k % IOLAB_SS_WINDOW]);
	}
	p->reps = rc ? 0 : ss->nwindow;
	for (unsigned i = 0; i < IOLAB_SS_WINDOW; i++) {
		free(ring[i].sec_ios);
		free(ring[i].sec_bytes);
		free(ring[i].comp);
		free(ring[i].wres);
	}
	free(ring);
	if (!rc && !ss->reached && r > 0)
		iolab_point_warn(p, "steady state (%s) not reached in %u rounds: the figures are the "
				 "last %u rounds'", iolab_ss_metric_name(c->steady), r, ss->nwindow);
	return rc;
}

/* Writes buf[0..n) at off whole: again after EINTR (nothing written), on from where a short
 * write stopped (write(2): fewer bytes than asked is not an error); 0 or -errno. */
static int write_all(int fd, const unsigned char *buf, size_t n, uint64_t off, const char *path,
		     struct iolab_err *err)
{
	for (size_t at = 0; at < n;) {
		ssize_t w = pwrite(fd, buf + at, n - at, (off_t)(off + at));
		if (w < 0 && errno == EINTR)
			continue;
		if (w <= 0) /* 0: no progress, as a full device gives it (ENOSPC on the next try) */
			return iolab_errf(err, w < 0 ? errno : ENOSPC, "--precondition: %s: write at "
					  "%" PRIu64 ": %s", path, off + at, strerror(w < 0 ? errno : ENOSPC));
		at += (size_t)w;
	}
	return 0;
}

/* --precondition: writes every target whole, sequentially, twice, in 128 KiB writes through the
 * targets' descriptors (direct when the run is), telling progress how far it got at every
 * 64 MiB and at the end. */
static int precondition(const struct run_env *env, struct iolab_results *res,
			iolab_progress_fn progress, void *ctx, struct iolab_err *err)
{
	enum { CHUNK = 128 * 1024 };
	unsigned char *buf = aligned_alloc(4096, CHUNK);
	if (!buf)
		return iolab_errf(err, ENOMEM, "out of memory");
	for (unsigned i = 0; i < CHUNK; i++) /* non-zero, varied bytes */
		buf[i] = (unsigned char)(1 + (i * 131u + i / 4096) % 255);
	struct iolab_progress told = {.kind = IOLAB_PROGRESS_PRECONDITION};
	for (unsigned t = 0; t < env->n; t++)
		told.total += 2 * env->tgt[t].size;
	uint64_t done = 0;
	int rc = 0;
	for (unsigned pass = 0; pass < 2 && !rc; pass++)
		for (unsigned t = 0; t < env->n && !rc; t++) {
			const struct iolab_target *tg = &env->tgt[t];
			for (uint64_t off = 0; off < tg->size && !rc; off += CHUNK) {
				if (iolab_stop_requested) {
					rc = iolab_errf(err, EINTR, "--precondition: interrupted");
					break;
				}
				size_t n = tg->size - off < CHUNK ? (size_t)(tg->size - off) : CHUNK;
				rc = write_all(env->fds[t], buf, n, off, tg->path, err);
				done += n;
				if (progress && (done % (64u << 20) == 0 || done == told.total)) {
					told.done = done;
					progress(&told, ctx);
				}
			}
		}
	free(buf);
	for (unsigned t = 0; t < env->n && !rc; t++)
		if (fsync(env->fds[t]))
			rc = iolab_errf(err, errno, "--precondition: %s: fsync: %s", env->tgt[t].path,
					strerror(errno));
	res->precondition_bytes += done;
	return rc;
}



/* A replay's options, and the first look at its trace: the spec that stands for it. */
static int replay_prepare(const struct iolab_config *c, struct replay_run *rr, struct iolab_err *err)
{
	const char *bad = c->npattern ? "pattern" : c->nbs ? "bs" : c->nread ? "read"
			  : c->nclients ? "clients" : c->nrate ? "rate" : c->think_set ? "think"
			  : c->dist.kind != IOLAB_DIST_UNIFORM ? "dist" : NULL;
	if (bad)
		return iolab_errf(err, EINVAL, "replay: --%s does not apply: the trace gives the requests "
				  "(--mode closed or timed sets the load)", bad);
	for (unsigned i = 0; i < c->nworkers; i++)
		if (c->workers[i] > 1)
			return iolab_errf(err, EINVAL, "replay: --workers %u: a trace is replayed by one "
					  "worker, in its order (--qd sets the requests in flight)",
					  c->workers[i]);
	struct iolab_replay_scan *sc = &rr->scan;
	int rc = iolab_replay_scan(c->replay, NULL, sc, err);
	if (rc)
		return rc;
	const char *base = strrchr(c->replay->path, '/');
	struct iolab_spec *sp = &rr->spec;
	memset(sp, 0, sizeof(*sp));
	snprintf(sp->name, sizeof(sp->name), "%s", base ? base + 1 : c->replay->path);
	sp->nlines = 1;
	/* The read share, kept off 0 and 100 where the trace has both, so that the targets are
	 * opened for writing and the buffers filled when one request writes. */
	unsigned rd = (unsigned)lround(100.0 * (double)sc->reads / (double)sc->kept);
	if (sc->writes && rd > 99)
		rd = 99;
	if (sc->reads && rd < 1)
		rd = 1;
	sp->line[0] = (struct iolab_spec_line){.size = sc->max_len, .share = 100, .read_pct = rd};
	return 0;
}

/* Where a replay's requests go in the current point: the targets' regions (and logical block
 * size, for direct I/O on real targets). */
static void replay_dest(const struct iolab_config *c, const struct run_env *env,
			struct iolab_replay_dest *d)
{
	memset(d, 0, sizeof(*d));
	d->n = env->n;
	for (unsigned t = 0; t < env->n; t++) {
		d->start[t] = env->region[t].start;
		d->len[t] = env->region[t].len;
		d->lbs[t] = !env->no_io && c->direct ? env->tgt[t].lbs : 0;
	}
}

/* Checks every point of c and opens its targets (env, with the precondition done); returns 0 or
 * -errno (err says why), env then closed. */
static int prepare_points(const struct iolab_config *c, struct iolab_subsys *desc,
			  struct replay_run *rr, struct run_env *env, iolab_progress_fn progress,
			  void *ctx, struct iolab_err *err)
{
	int rc;
	if (iolab_cluster_active() && (c->steady || c->record))
		return iolab_errf(err, EINVAL, "--%s: not across MPI ranks (run it on one)",
				  c->steady ? "steady-state" : "record");
	if (iolab_cluster_active() && c->split && c->size)
		return iolab_errf(err, EINVAL, "--split: the ranks share one target, which --size would "
				  "have each of them create: create it first (one process), then split it");
	if (c->repeat < 1 || c->repeat > IOLAB_REPEAT_MAX)
		return iolab_errf(err, EINVAL, "repeat: %u is not 1..%u", c->repeat, IOLAB_REPEAT_MAX);
	if ((rc = run_check_load(c, err)) || (rc = run_check_shorthands(c, err)))
		return rc;
	if ((rc = verify_check_options(c, err)))
		return rc;
	if (c->steady && (c->bytes || c->repeat > 1))
		return iolab_errf(err, EINVAL, "--steady-state: each round runs one --time: it cannot be "
				  "used with --%s", c->bytes ? "bytes" : "repeat");
	if (rr && (rc = replay_prepare(c, rr, err)))
		return rc;
	unsigned npoints = iolab_config_points(c);
	bool writes = false;
	iolab_clock_init();
	struct point_params pp;
	for (unsigned k = 0; k < npoints; k++) {
		decode(c, rr, k, &pp);
		rc = iolab_spec_validate(&pp.spec, err);
		if (!rc)
			rc = worker_loads_check(c, &pp, err);
		if (!rc)
			rc = run_check_request(c, k, &pp, err);
		if (!rc && desc)
			rc = shape_point(c, &pp, desc, err);
		if (!rc)
			rc = run_check_memory(c, k, &pp, desc, 0, err);
		if (rc)
			return rc;
		writes |= iolab_spec_writes(&pp.spec) || worker_loads_write(c, &pp);
	}
	if (c->faults.n && (c->engine->flags & IOLAB_ENGINE_VIRTUAL))
		return iolab_errf(err, EINVAL, "--fault: engine '%s' keeps its own clock: faults wrap "
				  "io_uring, libaio, psync and null", c->engine->name);
	if (c->precondition && (c->engine->flags & (IOLAB_ENGINE_NO_IO | IOLAB_ENGINE_VIRTUAL)))
		return iolab_errf(err, EINVAL, "--precondition: engine '%s' has no target to write",
				  c->engine->name);
	writes |= c->precondition; /* the same permission as a write pattern */
	rc = open_env(c, writes, env, progress, ctx, err);
	if (rc)
		return rc;
	env->desc = desc;
	for (unsigned k = 0; k < npoints && !rc; k++) {
		decode(c, rr, k, &pp);
		rc = desc ? shape_point(c, &pp, desc, err) : 0;
		if (!rc && env->no_io)
			rc = virtual_region(c, &pp, env, err);
		if (!rc && rr && (k == 0 || env->no_io)) { /* every record against the targets */
			replay_dest(c, env, &rr->dest);
			rc = iolab_replay_scan(c->replay, &rr->dest, &rr->scan, err);
		}
		if (!rc)
			rc = run_check_point(c, env, k, &pp, err);
		if (!rc && !rr) {
			struct iolab_gen g;
			rc = iolab_gen_init(&g, &pp.spec, &c->dist, env->region, env->n, 0, 1, 0, err);
		}
	}
	return rc;
}

/* Takes the last point off res, with what its finished repetitions allocated. */
static void drop_point(struct iolab_results *res)
{
	struct iolab_point *p = &res->point[--res->n];
	free(p->sec_ios);
	free(p->sec_bytes);
	free(p->ranks);
	free(p->comp);
	free(p->wres);
}

/* --verify, --verify-only: the run's verification over env's regions (after --precondition,
 * whose writes carry no headers). */
static int open_verify(const struct iolab_config *c, struct run_env *env, struct iolab_err *err)
{
	if (!(env->verify = malloc(sizeof(*env->verify))))
		return iolab_errf(err, ENOMEM, "out of memory");
	int rc = verify_run_open(env->verify, c, env->region, env->n, err);
	if (rc) {
		free(env->verify);
		env->verify = NULL;
	}
	return rc;
}

/* Room for a run of npoints more points in res, and for the places (ks) and ends (why) of a
 * spread sweep's; returns 0 or -ENOMEM. */
static int make_room(struct iolab_results *res, unsigned npoints, unsigned **ks,
		     unsigned char **why, struct iolab_err *err)
{
	if (res->cap < res->n + npoints) {
		struct iolab_point *np = realloc(res->point, (res->n + npoints) * sizeof(*np));
		if (!np)
			return iolab_errf(err, ENOMEM, "out of memory");
		res->point = np;
		res->cap = res->n + npoints;
	}
	*ks = calloc(npoints, sizeof(**ks));
	*why = calloc(npoints, 1);
	return *ks && *why ? 0 : iolab_errf(err, ENOMEM, "out of memory");
}

/* Point p of point parameters pp, before it runs: what it is (its row's columns). */
static void begin_point(const struct iolab_config *c, const struct iolab_subsys *desc,
			const struct replay_run *rr, const struct run_env *env,
			const struct point_params *pp, struct iolab_point *p)
{
	memset(p, 0, sizeof(*p));
	p->run = c->name;
	snprintf(p->pattern, sizeof(p->pattern), "%s", pp->spec.name);
	if (c->nwspec) /* each worker its own: their patterns */
		worker_loads_name(c, pp, p->pattern, sizeof(p->pattern));
	p->qd = pp->qd;
	p->workers = pp->workers;
	p->clients = pp->clients;
	p->think_ns = pp->clients ? c->think_ns : 0;
	p->think_exp = pp->clients && c->think_exp;
	p->target_iops = pp->rate;
	p->poisson = pp->rate > 0 && c->poisson;
	p->bs = pp->spec.nlines == 1 ? pp->spec.line[0].size : 0;
	p->read_pct = pp->read_pct >= 0 ? pp->read_pct : (int)lround(iolab_spec_read_share(&pp->spec));
	p->engine = c->engine->name;
	p->model = c->model_name;
	p->host_sched = !(c->engine->flags & IOLAB_ENGINE_VIRTUAL) ? -1
			: desc ? (int)desc->host.sched : (int)pp->host_sched;
	p->array_drives = pp->array_drives;
	p->array_level = pp->array_drives ? c->array_level : 0;
	p->stripe = pp->stripe;
	p->cache = pp->cache;
	p->write_policy = pp->write_policy;
	p->subsystem = c->subsys != NULL;
	p->direct = c->direct && !env->no_io;
	/* A volume spreads the queue over its drives: no single device limit to report. */
	bool lone = !desc || (desc->nvol == 1 && !desc->vol[0].level);
	p->capacity_bytes = env_capacity(c, env);
	p->device_depth = c->engine->device_depth && lone
			  ? c->engine->device_depth(c->engine_config) : 0;
	iolab_hist_reset(&p->dir[0].lat);
	iolab_hist_reset(&p->dir[1].lat);
	iolab_hist_reset(&p->issue_err);
	iolab_hist_reset(&p->lat_issued);
	if (rr) {
		const struct iolab_replay_scan *sc = &rr->scan;
		p->replay = true;
		p->replay_timed = pp->timed;
		p->replay_records = sc->records;
		p->replay_skipped = sc->skipped;
		p->bs = sc->min_len == sc->max_len ? sc->max_len : 0;
		p->read_pct = (int)lround(100.0 * (double)sc->reads / (double)sc->kept);
	}
}

/* Runs the points of c into res, unless rc (how getting ready went) is an error. Across MPI
 * ranks every step that can fail on one rank is followed by the ranks' agreement before the next
 * collective (scaleout.h), so that they fail, stop and go on together and none is left waiting
 * for another. */
static int run_points(const struct iolab_config *c, struct iolab_subsys *desc, struct replay_run *rr,
		      struct iolab_results *res, iolab_progress_fn progress, void *ctx, int rc,
		      struct iolab_err *err)
{
	struct run_env env = {0};
	unsigned npoints = iolab_config_points(c);
	/* spread over the ranks (a simulation): this rank's points, their places and ends */
	bool spreads = scale_spread(c);
	unsigned first = res->n, mine = 0, *ks = NULL;
	unsigned char *why = NULL;
	/* every rank's checks pass before any rank writes (docs/scale-out.md) */
	if (!rc)
		rc = prepare_points(c, desc, rr, &env, progress, ctx, err);
	if (!rc)
		rc = make_room(res, npoints, &ks, &why, err);
	if ((rc = iolab_cluster_agree(rc, err->msg, err))) {
		free(ks);
		free(why);
		close_env(&env, true);
		return rc;
	}
	if (c->precondition)
		rc = iolab_cluster_agree(precondition(&env, res, progress, ctx, err), err->msg, err);
	if (!rc && (c->verify || c->verify_only))
		rc = iolab_cluster_agree(open_verify(c, &env, err), err->msg, err);
	struct sim_carry carry = {0};
	env.carry = &carry;
	struct point_params pp;
	for (unsigned k = 0; k < npoints && !rc; sim_carry_end(&carry), k++) {
		if (spreads ? iolab_stop_requested : iolab_cluster_any(iolab_stop_requested))
			break;
		if (spreads && !scale_mine(k))
			continue;
		decode(c, rr, k, &pp);
		if (desc) /* checked above */
			shape_point(c, &pp, desc, NULL);
		if (env.no_io)
			virtual_region(c, &pp, &env, NULL);
		if (rr)
			replay_dest(c, &env, &rr->dest);
		struct iolab_point *p = &res->point[res->n++];
		begin_point(c, desc, rr, &env, &pp, p);
		double iops[IOLAB_REPEAT_MAX], mbps[IOLAB_REPEAT_MAX];
		if (c->steady) { /* one rank only */
			struct iolab_progress prog = {.point = k + 1, .points = npoints,
						      .simulated = c->engine->flags & IOLAB_ENGINE_VIRTUAL};
			rc = run_steady(c, &env, &pp, rr, p, iops, mbps, prog, progress, ctx, err);
			if (rc)
				drop_point(res);
			if (rc || !p->reps)
				continue;
		}
		for (unsigned r = 0; r < c->repeat && !c->steady && !rc; r++) {
			if (iolab_config_invalidates(c))
				invalidate_targets(&env, p, r == 0);
			struct iolab_progress prog = {.point = k + 1, .points = npoints, .rep = r + 1,
						      .reps = c->repeat,
						      .simulated = c->engine->flags & IOLAB_ENGINE_VIRTUAL};
			rc = run_once(c, &env, &pp, rr, p, &iops[r], &mbps[r], &prog, progress, ctx, err);
			bool cut = p->partial;
			if (!(rc = scale_run_agree(c, rc, &cut, err)))
				p->reps++;
			if (cut)
				break;
		}
		if (rc) { /* workers could not be set up, or another rank failed (err says why) */
			drop_point(res);
			break;
		}
		spread(iops, p->reps, &p->iops);
		spread(mbps, p->reps, &p->mbps);
		p->cpu_user_pct /= p->reps;
		p->cpu_sys_pct /= p->reps;
		p->disk_util_pct /= p->reps;
		p->disk_queue /= p->reps;
		double lat_ns = (double)(p->dir[0].lat.sum + p->dir[1].lat.sum);
		p->qd_reached = p->seconds > 0 ? lat_ns / (p->seconds * 1e9) : 0;
		add_warnings(c, &env, &pp, p);
		/* Fewer completions than I/Os kept in flight: the queue never turned over once, so
		 * every figure describes the start-up burst, not a steady state. */
		uint64_t in_flight = pp.rate > 0 ? p->inflight_max : (uint64_t)pp.workers * slots_of(c, &pp);
		bool mismatched = p->verify.mismatches && !c->on_error_continue;
		bool short_run = !rr && !c->verify_only && !mismatched &&
				 p->dir[0].ios + p->dir[1].ios < in_flight * p->reps && !iolab_stop_requested;
		enum scale_stop end = p->first_error && !c->on_error_continue ? SCALE_IO_FAILED
				      : mismatched ? SCALE_MISMATCH : short_run ? SCALE_SHORT : SCALE_GO;
		if (spreads) {
			ks[mine] = k;
			why[mine++] = end;
		}
		if ((rc = scale_point(c, p, &end, err))) {
			drop_point(res);
			break;
		}
		if (end == SCALE_IO_FAILED) {
			res->io_failed = true;
			break;
		}
		if (end == SCALE_MISMATCH) {
			res->verify_failed = true;
			break;
		}
		if (end == SCALE_SHORT) {
			res->short_point = res->n;
			break;
		}
	}
	sim_carry_end(&carry);
	env.carry = NULL;
	rc = scale_collect(c, res, first, mine, ks, why, npoints, rc, err);
	free(ks);
	free(why);
	if (!rc) /* every rank, or none */
		scale_end(c, res);
	if (env.verify) {
		int vrc = verify_run_close(env.verify, err);
		free(env.verify);
		env.verify = NULL;
		rc = rc ? rc : vrc;
	}
	close_env(&env, iolab_stop_requested == SIGTERM); /* terminated: leave no scratch file */
	return rc;
}

bool iolab_run_stopped(const struct iolab_results *res)
{
	return res->io_failed || res->short_point || res->verify_failed || res->interrupted ||
	       (!iolab_cluster_active() && iolab_stop_requested);
}

int iolab_run(const struct iolab_config *c, struct iolab_results *res, iolab_progress_fn progress,
	      void *ctx, struct iolab_err *err)
{
	struct iolab_subsys *desc = NULL;
	struct replay_run *rr = NULL;
	int rc = iolab_engine_check(c->engine, err); /* an engine one host may lack */
	if (!rc && c->engine == &iolab_engine_sim && !c->engine_config && !c->subsys)
		rc = iolab_errf(err, EINVAL, "engine 'sim': no drive model or subsystem to simulate "
				"(iolab sim --model NAME, --array with --drive, or --config)");
	if (!rc && ((c->engine == &iolab_engine_sim && !(desc = malloc(sizeof(*desc)))) ||
		    (c->replay && !(rr = malloc(sizeof(*rr))))))
		rc = iolab_errf(err, ENOMEM, "out of memory");
	rc = run_points(c, desc, rr, res, progress, ctx, rc, err);
	free(desc);
	free(rr);
	return rc;
}
