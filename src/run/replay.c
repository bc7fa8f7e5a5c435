/* replay.c: the trace side of `iolab replay` (replay.h): the check of a whole trace before a run
 * (iolab_replay_scan) and the stream of requests a worker draws from during one
 * (iolab_replay_src). Both read the trace through the streaming reader of trace.h, apply the
 * transforms (trace_xform.c) and map trace targets onto the run's; nothing is kept but the
 * record read ahead and the few given back. And the identity of a trace file (its hash). */
#include <errno.h>
#include <inttypes.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <xxhash.h>

#include "iolab/replay.h"

/* Largest request replayed: an I/O slot's length is 32 bits. */
#define REPLAY_LEN_MAX (1ull << 30)

/* What became of one record. */
enum { REC_DROP = 0, REC_KEEP = 1, REC_SKIP = 2 };

/* The run target of trace target t. */
static unsigned dest_of(const struct iolab_replay_dest *d, unsigned t)
{
	return d->n == 1 ? 0 : t;
}

/* Applies the transforms to rec (record n of path), maps its target through d (NULL: no
 * mapping, no bounds) and checks it fits. Returns REC_KEEP (rec's target is then the run's),
 * REC_DROP (a transform left it out), REC_SKIP (a trim unless r->trims, a flush or an empty
 * transfer), or
 * -EINVAL with err set. */
static int prepare(const struct iolab_replay *r, const struct iolab_replay_dest *d,
		   const uint64_t *from_size, struct iolab_trace_runs *runs, const char *path,
		   struct iolab_trace_rec *rec, uint64_t n, struct iolab_err *err)
{
	struct iolab_trace_xform x = r->xform;
	unsigned t = rec->target, dt = d ? dest_of(d, t) : 0;
	if (d && dt >= d->n && (x.target < 0 || (unsigned)x.target == t))
		return iolab_errf(err, EINVAL, "%s: record %" PRIu64 ": field 'target': trace target %u "
				  "has no run target (%u given: give one, or one per trace target)", path,
				  n, t, d->n);
	x.fit_size = x.from_size = x.bound = 0;
	if (d && (r->scale || x.wrap))
		x.fit_size = d->len[dt];
	if (d && r->scale) {
		x.from_size = from_size[t];
		x.runs = runs; /* back-to-back requests stay back to back */
	}
	if (d && !r->scale && !x.wrap)
		x.bound = d->len[dt];
	int rc = iolab_trace_xform_apply(&x, rec, n, err);
	if (rc < 0) {
		iolab_err_prefix(err, "%s", path);
		return rc;
	}
	if (rc == 0)
		return REC_DROP;
	if ((rec->op == IOLAB_TRACE_TRIM && !r->trims) || rec->op == IOLAB_TRACE_FLUSH || !rec->len)
		return REC_SKIP;
	if (rec->op != IOLAB_TRACE_READ && rec->op != IOLAB_TRACE_WRITE && rec->op != IOLAB_TRACE_TRIM)
		return iolab_errf(err, EINVAL, "%s: record %" PRIu64 ": field 'op': %u is not an operation",
				  path, n, rec->op);
	if (rec->len > REPLAY_LEN_MAX && rec->op != IOLAB_TRACE_TRIM) /* a trim is cut in pieces */
		return iolab_errf(err, EINVAL, "%s: record %" PRIu64 ": field 'len': %" PRIu64 " bytes is "
				  "more than the %llu a request may move", path, n, rec->len, REPLAY_LEN_MAX);
	if (!d)
		return REC_KEEP;
	uint64_t size = d->len[dt];
	if (rec->len > size)
		return iolab_errf(err, EINVAL, "%s: record %" PRIu64 ": field 'len': %" PRIu64 " bytes is "
				  "more than the %" PRIu64 " of the region of run target %u", path, n, rec->len,
				  size, dt + 1);
	if (rec->offset + rec->len > size) {
		if (!r->scale && !x.wrap)
			return iolab_errf(err, EINVAL, "%s: record %" PRIu64 ": field 'offset': %" PRIu64
					  " + %" PRIu64 " bytes is beyond the %" PRIu64 " bytes of run target "
					  "%u (--scale or --wrap fit it)", path, n, rec->offset, rec->len, size,
					  dt + 1);
		/* Fitted, but the transfer runs past the end: the last place it fits. */
		uint64_t a = d->lbs[dt] ? d->lbs[dt] : 1;
		rec->offset = (size - rec->len) / a * a;
	}
	unsigned lbs = d->lbs[dt];
	if (lbs && (rec->offset % lbs || rec->len % lbs))
		return iolab_errf(err, EINVAL, "%s: record %" PRIu64 ": field 'offset': %" PRIu64 " bytes "
				  "at %" PRIu64 " is not aligned to the logical block size %u that --direct "
				  "needs (use --buffered)", path, n, rec->len, rec->offset, lbs);
	rec->offset += d->start[dt];
	rec->target = (uint16_t)dt;
	return REC_KEEP;
}

static int open_trace(const struct iolab_replay *r, struct iolab_trace_reader **rd, struct iolab_err *err)
{
	if (!strcmp(r->path, "-"))
		return iolab_errf(err, EINVAL, "replay: the trace must be a file (it is read more than "
				  "once), not standard input");
	return iolab_trace_open(r->path, r->fmt, 0, rd, err);
}

/* The first pass: counts, lengths, times, and each trace target's extent (for --scale). */
static int scan_counts(const struct iolab_replay *r, struct iolab_replay_scan *s, struct iolab_err *err)
{
	struct iolab_trace_reader *rd;
	int rc = open_trace(r, &rd, err);
	if (rc)
		return rc;
	const struct iolab_trace_header *h = iolab_trace_header(rd);
	if ((rc = iolab_trace_xform_check_target(&r->xform, h, "--trace-target", err))) {
		iolab_trace_close(rd);
		iolab_err_prefix(err, "%s", r->path);
		return rc;
	}
	s->ntargets = h->ntargets;
	uint64_t extent[IOLAB_TRACE_TARGETS_MAX] = {0};
	for (unsigned t = 0; t < h->ntargets && t < IOLAB_TRACE_TARGETS_MAX; t++)
		s->header_size[t] = h->target[t].size;
	struct iolab_trace_rec rec;
	while ((rc = iolab_trace_next(rd, &rec, err)) == 1) {
		s->records++;
		if (rec.target < IOLAB_TRACE_TARGETS_MAX && rec.offset + rec.len > extent[rec.target])
			extent[rec.target] = rec.offset + rec.len;
		rc = prepare(r, NULL, NULL, NULL, r->path, &rec, s->records, err);
		if (rc < 0)
			break;
		if (rc == REC_SKIP)
			s->skipped++;
		if (rc != REC_KEEP)
			continue;
		if (rec.target < IOLAB_TRACE_TARGETS_MAX && rec.offset + rec.len > s->extent[rec.target])
			s->extent[rec.target] = rec.offset + rec.len;
		if (rec.op == IOLAB_TRACE_TRIM) {
			s->trims += (rec.len + REPLAY_LEN_MAX - 1) / REPLAY_LEN_MAX;
			continue;
		}
		if (!s->kept++)
			s->first_ns = rec.issue_ns;
		s->last_ns = rec.issue_ns;
		if (rec.op == IOLAB_TRACE_READ)
			s->reads++;
		else
			s->writes++;
		if (rec.len < s->min_len)
			s->min_len = rec.len;
		if (rec.len > s->max_len)
			s->max_len = rec.len;
	}
	if (iolab_trace_note(rd))
		snprintf(s->note, sizeof(s->note), "%s", iolab_trace_note(rd));
	for (unsigned t = 0; t < h->ntargets && t < IOLAB_TRACE_TARGETS_MAX; t++)
		s->from_size[t] = r->xform.clip_len ? r->xform.clip_len
				  : h->target[t].size ? h->target[t].size : extent[t];
	iolab_trace_close(rd);
	if (rc < 0)
		return rc;
	if (!s->kept)
		return iolab_errf(err, EINVAL, "%s: no read or write to replay (%" PRIu64 " records, %"
				  PRIu64 " of them trims, flushes or empty)", r->path, s->records, s->skipped);
	return 0;
}

/* The second pass: every kept request against its run target. */
static int scan_bounds(const struct iolab_replay *r, const struct iolab_replay_dest *d,
		       const struct iolab_replay_scan *s, struct iolab_err *err)
{
	struct iolab_trace_reader *rd;
	int rc = open_trace(r, &rd, err);
	if (rc)
		return rc;
	struct iolab_trace_rec rec;
	uint64_t n = 0;
	struct iolab_trace_runs *runs = calloc(1, sizeof(*runs));
	if (!runs) {
		iolab_trace_close(rd);
		return iolab_errf(err, ENOMEM, "out of memory");
	}
	while ((rc = iolab_trace_next(rd, &rec, err)) == 1)
		if ((rc = prepare(r, d, s->from_size, runs, r->path, &rec, ++n, err)) < 0)
			break;
	free(runs);
	iolab_trace_close(rd);
	return rc < 0 ? rc : 0;
}

int iolab_replay_scan(const struct iolab_replay *r, const struct iolab_replay_dest *d,
		      struct iolab_replay_scan *s, struct iolab_err *err)
{
	if (!d) {
		memset(s, 0, sizeof(*s));
		s->min_len = UINT64_MAX;
		return scan_counts(r, s, err);
	}
	return scan_bounds(r, d, s, err);
}

int iolab_replay_hash(const char *path, char *hash, struct iolab_err *err)
{
	FILE *f = fopen(path, "rb");
	if (!f)
		return iolab_errf(err, errno, "%s: %s", path, strerror(errno));
	XXH64_state_t *st = XXH64_createState();
	char *buf = malloc(1u << 16);
	int rc = st && buf ? 0 : iolab_errf(err, ENOMEM, "out of memory");
	if (!rc)
		XXH64_reset(st, 0);
	size_t n;
	while (!rc && (n = fread(buf, 1, 1u << 16, f)) > 0)
		XXH64_update(st, buf, n);
	if (!rc && ferror(f))
		rc = iolab_errf(err, EIO, "%s: %s", path, strerror(EIO));
	if (!rc)
		snprintf(hash, IOLAB_REPLAY_HASH_LEN, "xxh64:%016llx",
			 (unsigned long long)XXH64_digest(st));
	XXH64_freeState(st);
	free(buf);
	fclose(f);
	return rc;
}

struct iolab_replay_src {
	const struct iolab_replay *r;
	struct iolab_replay_dest d;
	const struct iolab_replay_scan *s;
	struct iolab_trace_reader *rd;
	uint64_t n;                  /* records read */
	int ahead_rc;                /* 1: ahead holds the next request; 0 end; -errno */
	struct iolab_replay_req ahead;
	struct iolab_replay_req rest; /* a trim longer than REPLAY_LEN_MAX: what is left of it */
	uint64_t rest_len;
	struct iolab_err ahead_err;
	struct iolab_trace_runs runs; /* --scale's memory of each trace target's last request */
	unsigned nback, cap;
	struct iolab_replay_req back[]; /* given back, the earliest last */
};

/* The next piece of a long trim into ahead: at most REPLAY_LEN_MAX bytes of it. */
static void trim_piece(struct iolab_replay_src *src)
{
	src->ahead = src->rest;
	src->ahead.len = (uint32_t)(src->rest_len < REPLAY_LEN_MAX ? src->rest_len : REPLAY_LEN_MAX);
	src->rest.off += src->ahead.len;
	src->rest_len -= src->ahead.len;
	src->ahead_rc = 1;
}

/* Reads ahead to the next request that is issued. */
static void read_ahead(struct iolab_replay_src *src)
{
	struct iolab_trace_rec rec;
	int rc;
	if (src->rest_len) {
		trim_piece(src);
		return;
	}
	while ((rc = iolab_trace_next(src->rd, &rec, &src->ahead_err)) == 1) {
		rc = prepare(src->r, &src->d, src->s->from_size, &src->runs, src->r->path, &rec, ++src->n,
			     &src->ahead_err);
		if (rc < 0)
			break;
		if (rc != REC_KEEP)
			continue;
		struct iolab_replay_req *q = &src->ahead;
		q->t_ns = 0;
		if (src->r->mode == IOLAB_REPLAY_TIMED && rec.issue_ns > src->s->first_ns)
			q->t_ns = rec.issue_ns - src->s->first_ns;
		q->off = rec.offset;
		q->len = (uint32_t)rec.len;
		q->op = rec.op == IOLAB_TRACE_READ    ? IOLAB_OP_READ
			: rec.op == IOLAB_TRACE_TRIM ? IOLAB_OP_TRIM
						     : IOLAB_OP_WRITE;
		q->target = rec.target;
		if (rec.len > REPLAY_LEN_MAX) { /* a long trim: in pieces, one after the other */
			src->rest = *q;
			src->rest_len = rec.len;
			trim_piece(src);
			return;
		}
		rc = 1;
		break;
	}
	src->ahead_rc = rc;
}

int iolab_replay_src_open(const struct iolab_replay *r, const struct iolab_replay_dest *d,
			  const struct iolab_replay_scan *s, unsigned depth,
			  struct iolab_replay_src **out, struct iolab_err *err)
{
	struct iolab_replay_src *src = calloc(1, sizeof(*src) + (depth + 1) * sizeof(src->back[0]));
	if (!src)
		return iolab_errf(err, ENOMEM, "out of memory");
	src->r = r;
	src->d = *d;
	src->s = s;
	src->cap = depth + 1;
	int rc = open_trace(r, &src->rd, err);
	if (rc) {
		free(src);
		return rc;
	}
	read_ahead(src);
	*out = src;
	return 0;
}

int iolab_replay_src_next(struct iolab_replay_src *src, struct iolab_replay_req *q, struct iolab_err *err)
{
	if (src->nback) {
		*q = src->back[--src->nback];
		return 1;
	}
	if (src->ahead_rc != 1) {
		if (src->ahead_rc < 0)
			*err = src->ahead_err;
		return src->ahead_rc;
	}
	*q = src->ahead;
	read_ahead(src);
	return 1;
}

uint64_t iolab_replay_src_peek(struct iolab_replay_src *src)
{
	if (src->nback)
		return src->back[src->nback - 1].t_ns;
	return src->ahead_rc == 1 ? src->ahead.t_ns : UINT64_MAX;
}

void iolab_replay_src_unget(struct iolab_replay_src *src, const struct iolab_replay_req *q)
{
	if (src->nback < src->cap)
		src->back[src->nback++] = *q;
}

void iolab_replay_src_close(struct iolab_replay_src *src)
{
	if (!src)
		return;
	iolab_trace_close(src->rd);
	free(src);
}
