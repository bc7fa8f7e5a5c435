/* methodology.c: how a point is measured beyond one run: steady-state rounds (SNIA PTS, method.h),
 * the spread of repetitions, and preconditioning the targets. */
#include <errno.h>
#include <inttypes.h>
#include <math.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "iolab/clock.h"
#include "point.h"
#include "scaleout.h"
#include "verify_run.h"
#include "worker_loads.h"

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
	p->trims += q->trims;
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
	if (point_add_comps(p, q->comp, q->ncomp))
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
			env_invalidate(env, q, r == 0);
		prog.rep = r + 1;
		rc = point_run_once(c, env, pp, rr, q, &ri[r], &rm[r], &prog, progress, ctx, err);
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
int run_precondition(const struct run_env *env, struct iolab_results *res,
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

int point_measure(const struct iolab_config *c, const struct run_env *env,
		  const struct point_params *pp, const struct replay_run *rr, struct iolab_point *p,
		  unsigned k, unsigned npoints, iolab_progress_fn progress, void *ctx,
		  struct iolab_err *err)
{
	double iops[IOLAB_REPEAT_MAX], mbps[IOLAB_REPEAT_MAX];
	bool simulated = c->engine->flags & IOLAB_ENGINE_VIRTUAL;
	int rc = 0;
	if (c->steady) { /* one rank only */
		struct iolab_progress prog = {.point = k + 1, .points = npoints, .simulated = simulated};
		rc = run_steady(c, env, pp, rr, p, iops, mbps, prog, progress, ctx, err);
	}
	for (unsigned r = 0; r < c->repeat && !c->steady && !rc; r++) {
		if (iolab_config_invalidates(c))
			env_invalidate(env, p, r == 0);
		struct iolab_progress prog = {.point = k + 1, .points = npoints, .rep = r + 1,
					      .reps = c->repeat, .simulated = simulated};
		rc = point_run_once(c, env, pp, rr, p, &iops[r], &mbps[r], &prog, progress, ctx, err);
		bool cut = p->partial;
		if (!(rc = scale_run_agree(c, rc, &cut, err)))
			p->reps++;
		if (cut)
			break;
	}
	if (rc || !p->reps)
		return rc;
	spread(iops, p->reps, &p->iops);
	spread(mbps, p->reps, &p->mbps);
	p->cpu_user_pct /= p->reps;
	p->cpu_sys_pct /= p->reps;
	p->disk_util_pct /= p->reps;
	p->disk_queue /= p->reps;
	/* Little's law over the time each I/O was in flight. A timed replay's latency runs from the
	 * intended issue time, as --rate's: a request still waiting for a free slot under the --qd
	 * cap is not in flight, so its qd@ takes the latency from the actual issue. */
	double lat_ns = p->replay_timed ? (double)p->lat_issued.sum
			: (double)(p->dir[0].lat.sum + p->dir[1].lat.sum);
	p->qd_reached = p->seconds > 0 ? lat_ns / (p->seconds * 1e9) : 0;
	return 0;
}
