/* point_run.c: one run (repetition) of one point: starts its workers (worker.c), watches time,
 * progress, the ramp and interrupts, samples CPU and device counters, and merges the workers'
 * counts into the point. */
#include <errno.h>
#include <math.h>
#include <stdlib.h>
#include <string.h>
#include <sys/resource.h>
#include <time.h>

#include "iolab/clock.h"
#include "iolab/cond.h"
#include "iolab/trace_record.h"
#include "iolab/cluster.h"
#include "point.h"
#include "run_internal.h"
#include "scaleout.h"
#include "sim_point.h"
#include "verify_run.h"
#include "worker_loads.h"

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
int point_add_comps(struct iolab_point *p, const struct iolab_comp_report *comp, unsigned n)
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
		p->trims += w[i].trims;
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
		if (point_add_comps(p, w[i].comp, w[i].ncomp))
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

/* --record: the point's targets (a simulated or null engine's one virtual device, or the
 * volumes --target names) for the trace's header, and its lanes. */
static int record_begin(const struct iolab_config *c, const struct run_env *env, unsigned workers,
			unsigned qd, struct iolab_err *err)
{
	const char *names[IOLAB_TARGETS_MAX];
	uint64_t sizes[IOLAB_TARGETS_MAX];
	unsigned n = env->n;
	if (env->no_io && env->desc && env->desc->ntarget) {
		for (unsigned t = 0; t < n; t++) {
			const struct iolab_sub_volume *v = &env->desc->vol[env->desc->target[t]];
			names[t] = v->name;
			sizes[t] = iolab_subsys_volume_bytes(env->desc, v);
		}
	} else if (env->no_io) {
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
	return iolab_recorder_begin(env->record, names, sizes, n, workers, qd,
				    (uint64_t)ts.tv_sec * 1000000000u + (uint64_t)ts.tv_nsec, err);
}

/* One repetition of one point: runs the workers and merges their counts into p; *iops and
 * *mbps get this repetition's rates. Returns 0, or -errno when workers could not be set up (err
 * says why). */
int point_run_once(const struct iolab_config *c, const struct run_env *env,
		   const struct point_params *pp, const struct replay_run *rr, struct iolab_point *p,
		   double *iops, double *mbps, const struct iolab_progress *prog,
		   iolab_progress_fn progress, void *ctx, struct iolab_err *err)
{
	struct iolab_sim_engine_config sim_cfg;
	struct point_ctl ctl = {
		.engine = c->engine, .fds = env->fds, .nfds = env->n, .spec = &pp->spec,
		.dist = &c->dist, .regions = env->region, .nregions = env->n,
		.qd = slots_of(c, pp), .pace = point_pace(c, pp),
		.nworkers = pp->workers, .seed = c->seed + prog->rep - 1, .ramp_ns = c->ramp_ns,
		.time_ns = c->time_ns, .on_error_continue = c->on_error_continue,
		.engine_config = sim_point_engine(c, pp, env, &sim_cfg), .record = env->record,
		.replay = rr ? &rr->replay : NULL, .dest = rr ? &rr->dest : NULL,
		.scan = rr ? &rr->scan : NULL,
		/* a copy of --bytes N reads N and writes N (its one worker's reads and writes) */
		.bytes_per_worker = c->bytes ? (c->bytes + pp->workers - 1) / pp->workers
					       * (pp->spec.copy ? 2 : 1) : 0,
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
	struct iolab_fault_setup fault_setup = {&faults, c->engine, ctl.engine_config};
	/* each worker's load; the simulator runs them all in one thread against one system, which
	 * it keeps between the runs of the point (sim_carry.c) */
	struct worker_loads wl;
	int rc = worker_loads_make(&wl, c, env, pp, ctl.qd, ctl.pace, err);
	ctl.load = wl.load;
	ctl.split_regions = wl.regions != NULL;
	ctl.one_thread = c->engine->flags & IOLAB_ENGINE_VIRTUAL;
	if (!rc && env->carry)
		rc = sim_carry_get(env->carry, c, env, pp, worker_loads_slots(&wl), &ctl.kept,
				   &ctl.ramp_ns, err);
	if (c->faults.n) {
		iolab_fault_run_init(&faults, &c->faults, ctl.seed);
		iolab_fault_engine(c->engine, &fault_ops);
		ctl.engine = &fault_ops;
		ctl.engine_config = &fault_setup;
	}
	pthread_mutex_init(&ctl.lock, NULL);
	int crc = iolab_cond_init(&ctl.cond);
	bool have_cond = !crc;
	if (crc && !rc)
		rc = iolab_errf(err, crc, "cannot make the workers' condition variable: %s",
				strerror(crc));
	struct worker *w = rc ? NULL : calloc(pp->workers, sizeof(*w));
	if (!rc && !w)
		rc = iolab_errf(err, ENOMEM, "out of memory");
	if (!rc && env->record)
		rc = record_begin(c, env, pp->workers, worker_loads_lane_slots(&wl, ctl.one_thread),
				  err);
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
