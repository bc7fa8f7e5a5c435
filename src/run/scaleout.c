/* scaleout.c: a run across MPI ranks (scaleout.h): each rank's targets named by %r and %h, a
 * shared target split among the ranks, the merge of one point's shares on rank 0, a simulation
 * sweep's points gathered in order, and the agreements that keep the ranks in step. */
#include <assert.h>
#include <errno.h>
#include <limits.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "iolab/cluster.h"
#include "scaleout.h"
#include "sim_point.h"

void iolab_config_for_rank(struct iolab_config *c)
{
	if (!iolab_cluster_active())
		return;
	for (unsigned i = 0; i < c->ntargets; i++) {
		char out[sizeof(c->target[i])];
		size_t n = 0;
		for (const char *s = c->target[i]; *s && n + 1 < sizeof(out); s++) {
			if (s[0] == '%' && (s[1] == 'r' || s[1] == 'h')) {
				int w = s[1] == 'r'
					? snprintf(out + n, sizeof(out) - n, "%u", iolab_cluster_rank())
					: snprintf(out + n, sizeof(out) - n, "%s", iolab_cluster_host());
				n += (size_t)w < sizeof(out) - n ? (size_t)w : sizeof(out) - n - 1;
				s++;
			} else {
				out[n++] = *s;
			}
		}
		out[n] = 0;
		memcpy(c->target[i], out, n + 1);
	}
}

bool scale_spread(const struct iolab_config *c)
{
	return iolab_cluster_active() && (c->engine->flags & IOLAB_ENGINE_VIRTUAL);
}

bool scale_mine(unsigned k)
{
	unsigned n = iolab_cluster_size(), lap = k / n, i = k % n;
	return (lap % 2 ? n - 1 - i : i) == iolab_cluster_rank();
}

void scale_split(const struct iolab_config *c, struct iolab_region *r)
{
	unsigned n = iolab_cluster_size(), k = iolab_cluster_rank();
	if (!c->split || n < 2)
		return;
	uint64_t align = r->len / n >= (1u << 20) ? (1u << 20) : 4096;
	uint64_t part = r->len / n / align * align;
	r->start += part * k;
	r->len = k + 1 == n ? r->len - part * k : part;
}

/* What a rank sends rank 0 of one point. */
struct share {
	struct iolab_dir_result dir[2];
	struct iolab_spread iops, mbps;
	double seconds, qd_reached;
	unsigned inflight_max;
	int first_error, partial;
	struct iolab_errors errors;
	unsigned nwarn;
	uint32_t warn_detail;
	char warn[IOLAB_WARN_MAX][IOLAB_WARN_LEN];
};

/* Rank r's warnings join p's: the same words once, others under the host's name. */
static void merge_warnings(struct iolab_point *p, const struct share *s, unsigned r)
{
	for (unsigned i = 0; i < s->nwarn; i++) {
		bool seen = false;
		for (unsigned k = 0; k < p->nwarn && !seen; k++)
			seen = !strcmp(p->warn[k], s->warn[i]);
		if (seen)
			continue;
		if (s->warn_detail & (UINT32_C(1) << i))
			iolab_point_warn_detail(p, "host %s (rank %u): %s", iolab_cluster_host_of(r), r,
						s->warn[i]);
		else
			iolab_point_warn(p, "host %s (rank %u): %s", iolab_cluster_host_of(r), r,
					 s->warn[i]);
	}
}

/* a + b for spreads of independent figures: means, extremes add; variances add. */
static void spread_add(struct iolab_spread *a, const struct iolab_spread *b)
{
	a->mean += b->mean;
	a->min += b->min;
	a->max += b->max;
	a->stddev = sqrt(a->stddev * a->stddev + b->stddev * b->stddev);
	a->ci95 = sqrt(a->ci95 * a->ci95 + b->ci95 * b->ci95);
}

int scale_run_agree(const struct iolab_config *c, int rc, bool *stop, struct iolab_err *err)
{
	if (!iolab_cluster_active() || scale_spread(c))
		return rc;
	int agreed = iolab_cluster_agree(rc, err->msg, err);
	if (iolab_cluster_lost())
		return rc; /* every later collective returns at once; scale_point keeps this share */
	if (agreed)
		return agreed;
	*stop = iolab_cluster_any(*stop);
	return 0;
}

static_assert(sizeof(struct share) <= INT_MAX, "a share is gathered in one MPI message");

/* Rank 0: the ranks' shares all[0 .. n) merged into p, which holds rank 0's; a row per rank in
 * p->ranks where there is memory for them. */
static void merge_shares(struct iolab_point *p, const struct share *all, unsigned n)
{
	free(p->wres); /* rank 0's workers alone: not the job's */
	p->wres = NULL;
	p->nwres = 0;
	if ((p->ranks = calloc(n, sizeof(*p->ranks))))
		p->nranks = n;
	else
		iolab_point_warn(p, "no memory for the rows per host: the point's figures are the "
				 "job's, without them");
	for (unsigned r = 0; r < n; r++) {
		const struct share *s = &all[r];
		if (p->ranks) {
			struct iolab_rank_result *q = &p->ranks[r];
			q->rank = r;
			snprintf(q->host, sizeof(q->host), "%s", iolab_cluster_host_of(r));
			q->iops = s->iops.mean;
			q->mbps = s->mbps.mean;
			q->seconds = s->seconds;
			q->ios = s->dir[0].ios + s->dir[1].ios;
			q->bytes = s->dir[0].bytes + s->dir[1].bytes;
			q->clock_offset_ns = iolab_cluster_offset_ns(r, &q->clock_error_ns);
			q->lat = s->dir[0].lat;
			iolab_hist_merge(&q->lat, &s->dir[1].lat);
		}
		if (r == 0)
			continue;
		for (int d = 0; d < 2; d++) {
			p->dir[d].ios += s->dir[d].ios;
			p->dir[d].bytes += s->dir[d].bytes;
			p->dir[d].errors += s->dir[d].errors;
			iolab_hist_merge(&p->dir[d].lat, &s->dir[d].lat);
		}
		spread_add(&p->iops, &s->iops);
		spread_add(&p->mbps, &s->mbps);
		p->qd_reached += s->qd_reached;
		p->inflight_max += s->inflight_max;
		if (!p->first_error)
			p->first_error = s->first_error;
		iolab_errors_add(&p->errors, &s->errors);
		p->partial |= s->partial;
		merge_warnings(p, s, r);
	}
}

int scale_point(const struct iolab_config *c, struct iolab_point *p, enum scale_stop *end,
		struct iolab_err *err)
{
	if (!iolab_cluster_active() || scale_spread(c))
		return 0;
	unsigned n = iolab_cluster_size();
	bool root = iolab_cluster_rank() == 0;
	struct share *mine = calloc(1, sizeof(*mine)), *all = root ? calloc(n, sizeof(*all)) : NULL;
	int rc = mine && (!root || all) ? 0 : iolab_errf(err, ENOMEM, "out of memory");
	rc = iolab_cluster_agree(rc, err->msg, err); /* so that no rank misses the gather */
	bool whole = false;
	if (!rc) {
		*mine = (struct share){.iops = p->iops, .mbps = p->mbps, .seconds = p->seconds,
				       .qd_reached = p->qd_reached, .inflight_max = p->inflight_max,
				       .first_error = p->first_error, .partial = p->partial, .errors = p->errors,
				       .nwarn = p->nwarn, .warn_detail = p->warn_detail};
		memcpy(mine->dir, p->dir, sizeof(p->dir));
		memcpy(mine->warn, p->warn, sizeof(p->warn));
		whole = iolab_cluster_gather(mine, sizeof(*mine), all);
	}
	free(mine);
	if (!whole && iolab_cluster_lost()) { /* this is one host's share */
		p->partial = true;
		iolab_point_warn(p, "the job lost a rank: this point holds host %s's share only",
				 iolab_cluster_host());
		free(all);
		return 0;
	}
	if (rc) {
		free(all);
		return rc;
	}
	if (root)
		merge_shares(p, all, n);
	free(all);
	*end = (enum scale_stop)iolab_cluster_max(*end);
	return 0;
}

/* One spread point on the wire: its place, why it ends the run, the point, its series, the
 * reports of its path's parts, its workers' figures. */
struct wire {
	unsigned k, nsec, ncomp, nwres;
	unsigned char stop;
	struct iolab_point p;
};

/* Frees this rank's spread points' series and takes them out of res (they went to rank 0, or
 * the sweep failed). */
static void drop_mine(struct iolab_results *res, unsigned first, unsigned mine)
{
	for (unsigned i = 0; i < mine; i++) {
		free(res->point[first + i].sec_ios);
		free(res->point[first + i].sec_bytes);
		free(res->point[first + i].comp);
		free(res->point[first + i].wres);
	}
	res->n = first;
}

/* This rank's points, on the wire: *size bytes in a malloc'd buffer, or NULL. */
static char *pack_mine(const struct iolab_results *res, unsigned first, unsigned mine,
		       const unsigned *k, const unsigned char *stop, size_t *size)
{
	*size = 0;
	for (unsigned i = 0; i < mine; i++)
		*size += sizeof(struct wire) + 2 * (size_t)res->point[first + i].nsec * sizeof(uint64_t) +
			 res->point[first + i].ncomp * sizeof(struct iolab_comp_report) +
			 res->point[first + i].nwres * sizeof(struct iolab_worker_result);
	char *buf = malloc(*size ? *size : 1), *at = buf;
	for (unsigned i = 0; buf && i < mine; i++) {
		const struct iolab_point *p = &res->point[first + i];
		struct wire w = {.k = k[i], .nsec = p->nsec, .ncomp = p->ncomp, .nwres = p->nwres,
				 .stop = stop[i], .p = *p};
		memcpy(at, &w, sizeof(w));
		at += sizeof(w);
		memcpy(at, p->sec_ios, p->nsec * sizeof(uint64_t));
		at += p->nsec * sizeof(uint64_t);
		memcpy(at, p->sec_bytes, p->nsec * sizeof(uint64_t));
		at += p->nsec * sizeof(uint64_t);
		if (p->ncomp)
			memcpy(at, p->comp, p->ncomp * sizeof(*p->comp));
		at += p->ncomp * sizeof(*p->comp);
		if (p->nwres)
			memcpy(at, p->wres, p->nwres * sizeof(*p->wres));
		at += p->nwres * sizeof(*p->wres);
	}
	return buf;
}

int scale_collect(const struct iolab_config *c, struct iolab_results *res, unsigned first,
		  unsigned mine, const unsigned *k, const unsigned char *stop, unsigned npoints, int rc,
		  struct iolab_err *err)
{
	if (!scale_spread(c))
		return rc;
	bool root = iolab_cluster_rank() == 0;
	size_t size, *len = calloc(iolab_cluster_size(), sizeof(size_t));
	char *buf = pack_mine(res, first, mine, k, stop, &size);
	/* rank 0's room for the sweep in order, made before the ranks agree to send */
	struct iolab_point *slot = root ? calloc(npoints, sizeof(*slot)) : NULL;
	unsigned char *have = root ? calloc(npoints, 1) : NULL, *why = root ? calloc(npoints, 1) : NULL;
	if (!rc && (!len || !buf || (root && (!slot || !have || !why))))
		rc = iolab_errf(err, ENOMEM, "out of memory");
	rc = iolab_cluster_agree(rc, err->msg, err);
	void *all = NULL;
	if (!rc && (rc = iolab_cluster_gatherv(buf, size, &all, len)) == -ENOMEM)
		iolab_errf(err, ENOMEM, "rank 0 has no memory to gather the sweep's points");
	free(buf);
	if (rc == -ECANCELED || iolab_cluster_lost()) { /* the job was lost: this rank's points stay */
		free(slot), free(have), free(why), free(len), free(all);
		return rc == -ECANCELED ? 0 : rc;
	}
	/* every rank's own points go; rank 0 puts the sweep's in their place */
	drop_mine(res, first, mine);
	if (rc || !root) {
		free(slot), free(have), free(why), free(len), free(all);
		return rc;
	}
	const char *from = all;
	size_t total = 0;
	for (unsigned r = 0; r < iolab_cluster_size(); r++)
		total += len[r];
	for (const char *end = from + total; from < end;) {
		struct wire w;
		memcpy(&w, from, sizeof(w));
		from += sizeof(w);
		struct iolab_point *p = &slot[w.k];
		*p = w.p;
		p->run = c->name; /* the same run on every rank: its strings are rank 0's */
		p->engine = c->engine->name;
		p->trace_path = c->replay ? c->replay->path : NULL;
		p->model = sim_point_model(c, p); /* the point's drive, of a --drive sweep */
		p->sec_ios = malloc(w.nsec ? w.nsec * sizeof(uint64_t) : 1);
		p->sec_bytes = malloc(w.nsec ? w.nsec * sizeof(uint64_t) : 1);
		if (p->sec_ios && p->sec_bytes) {
			memcpy(p->sec_ios, from, w.nsec * sizeof(uint64_t));
			memcpy(p->sec_bytes, from + w.nsec * sizeof(uint64_t), w.nsec * sizeof(uint64_t));
		} else { /* no memory for its series: the point stays, without them */
			free(p->sec_ios);
			free(p->sec_bytes);
			p->sec_ios = p->sec_bytes = NULL;
			p->nsec = 0;
		}
		from += 2 * w.nsec * sizeof(uint64_t);
		p->comp = w.ncomp ? malloc(w.ncomp * sizeof(*p->comp)) : NULL;
		p->ncomp = p->comp ? w.ncomp : 0; /* no memory: the point stays, without them */
		if (p->comp)
			memcpy(p->comp, from, w.ncomp * sizeof(*p->comp));
		from += w.ncomp * sizeof(*p->comp);
		p->wres = w.nwres ? malloc(w.nwres * sizeof(*p->wres)) : NULL;
		p->nwres = p->wres ? w.nwres : 0; /* no memory: the point stays, without them */
		if (p->wres)
			memcpy(p->wres, from, w.nwres * sizeof(*p->wres));
		from += w.nwres * sizeof(*p->wres);
		have[w.k] = 1;
		why[w.k] = w.stop;
	}
	res->io_failed = false;
	res->short_point = 0;
	for (unsigned i = 0; i < npoints; i++) {
		if (!have[i])
			break; /* after a point that ended the run on its rank */
		res->point[res->n++] = slot[i];
		have[i] = 0;
		if (why[i] == SCALE_IO_FAILED) {
			res->io_failed = true;
			break;
		}
		if (why[i] == SCALE_MISMATCH) {
			res->verify_failed = true;
			break;
		}
		if (why[i] == SCALE_SHORT) {
			res->short_point = res->n;
			break;
		}
	}
	for (unsigned i = 0; i < npoints; i++)
		if (have[i]) {
			free(slot[i].sec_ios);
			free(slot[i].sec_bytes);
			free(slot[i].comp);
			free(slot[i].wres);
		}
	free(slot), free(have), free(why), free(len), free(all);
	return 0;
}

void scale_end(const struct iolab_config *c, struct iolab_results *res)
{
	bool stopped = iolab_cluster_any(iolab_stop_requested != 0);
	if (scale_spread(c)) {
		struct { unsigned char io_failed; unsigned short_point; } end = {
			res->io_failed, res->short_point};
		if (iolab_cluster_bcast(&end, sizeof(end))) {
			res->io_failed = end.io_failed;
			res->short_point = end.short_point;
		}
	}
	if (stopped)
		res->interrupted = true;
}
