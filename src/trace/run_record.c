/* run_record.c: the recorder of --record on `iolab run` and `iolab sim` (trace_record.h): one
 * lane per worker thread (a bounded heap of completed I/Os by issue time, spilled in order to a
 * temporary file), merged by issue time into one trace writer when the point ends. */
#include <errno.h>
#include <inttypes.h>
#include <stdlib.h>
#include <string.h>

#include "iolab/engine.h"
#include "iolab/trace_record.h"
#include "iolab/workload.h"

struct lane {
	struct iolab_trace_rec *slot;  /* by the worker's slot: the I/O in flight there */
	struct iolab_trace_rec *heap;  /* completed, min-heap by issue_ns */
	unsigned n, cap;
	FILE *spill;
	int error;                     /* errno of a failed spill, 0 */
};

struct iolab_recorder {
	FILE *f;
	const struct iolab_trace_format *fmt;
	struct iolab_trace_header h;
	struct lane *lane;
	unsigned nlanes;
	uint64_t count, late;
};

int iolab_recorder_new(struct iolab_recorder **rp, FILE *f, const struct iolab_trace_format *fmt,
		       const char *source, struct iolab_err *err)
{
	if (!fmt)
		fmt = iolab_trace_format_find("iot");
	if (!fmt || !fmt->write_open)
		return iolab_errf(err, EINVAL, "--record: the trace format cannot be written");
	struct iolab_recorder *r = calloc(1, sizeof(*r));
	if (!r)
		return iolab_errf(err, ENOMEM, "--record: out of memory");
	r->f = f;
	r->fmt = fmt;
	snprintf(r->h.source, sizeof(r->h.source), "%s", source);
	r->h.completions = true;
	*rp = r;
	return 0;
}

int iolab_recorder_begin(struct iolab_recorder *r, const char *const *names, const uint64_t *sizes,
			 unsigned ntargets, unsigned nworkers, unsigned qd, uint64_t start_unix_ns,
			 struct iolab_err *err)
{
	if (r->lane)
		return iolab_errf(err, EINVAL, "--record: records one point of one run");
	if (!ntargets || ntargets > IOLAB_TRACE_TARGETS_MAX)
		return iolab_errf(err, EINVAL, "--record: %u targets (1 to %u can be recorded)",
				  ntargets, IOLAB_TRACE_TARGETS_MAX);
	r->h.ntargets = ntargets;
	for (unsigned i = 0; i < ntargets; i++) {
		snprintf(r->h.target[i].name, sizeof(r->h.target[i].name), "%s", names[i]);
		r->h.target[i].size = sizes[i];
	}
	r->h.start_unix_ns = start_unix_ns;
	r->lane = calloc(nworkers, sizeof(*r->lane));
	if (!r->lane)
		return iolab_errf(err, ENOMEM, "--record: out of memory");
	r->nlanes = nworkers;
	for (unsigned i = 0; i < nworkers; i++) {
		struct lane *l = &r->lane[i];
		l->cap = 2 * qd + 64;
		l->slot = calloc(qd, sizeof(*l->slot));
		l->heap = calloc(l->cap, sizeof(*l->heap));
		l->spill = tmpfile();
		if (!l->slot || !l->heap)
			return iolab_errf(err, ENOMEM, "--record: out of memory");
		if (!l->spill)
			return iolab_errf(err, errno, "--record: cannot create a temporary file: %s",
					  strerror(errno));
	}
	return 0;
}

void iolab_recorder_issue(struct iolab_recorder *r, unsigned w, const struct iolab_io *io, uint64_t t)
{
	struct iolab_trace_rec *s = &r->lane[w].slot[io->slot];
	s->issue_ns = t;
	s->done_ns = IOLAB_TRACE_NO_TIME;
	s->offset = io->off;
	s->len = io->len;
	s->target = io->target;
	s->op = io->op == IOLAB_OP_WRITE ? IOLAB_TRACE_WRITE : IOLAB_TRACE_READ;
}

static void heap_push(struct lane *l, const struct iolab_trace_rec *rec)
{
	unsigned i = l->n++;
	while (i) {
		unsigned p = (i - 1) / 2;
		if (l->heap[p].issue_ns <= rec->issue_ns)
			break;
		l->heap[i] = l->heap[p];
		i = p;
	}
	l->heap[i] = *rec;
}

static struct iolab_trace_rec heap_pop(struct lane *l)
{
	struct iolab_trace_rec top = l->heap[0], last = l->heap[--l->n];
	unsigned i = 0;
	for (;;) {
		unsigned c = 2 * i + 1;
		if (c >= l->n)
			break;
		if (c + 1 < l->n && l->heap[c + 1].issue_ns < l->heap[c].issue_ns)
			c++;
		if (last.issue_ns <= l->heap[c].issue_ns)
			break;
		l->heap[i] = l->heap[c];
		i = c;
	}
	l->heap[i] = last;
	return top;
}

static void spill_one(struct lane *l)
{
	struct iolab_trace_rec rec = heap_pop(l);
	if (!l->error && fwrite(&rec, sizeof(rec), 1, l->spill) != 1)
		l->error = errno ? errno : EIO;
}

void iolab_recorder_done(struct iolab_recorder *r, unsigned w, const struct iolab_io *io, uint64_t t)
{
	struct lane *l = &r->lane[w];
	struct iolab_trace_rec *s = &l->slot[io->slot];
	s->done_ns = t;
	if (l->n == l->cap)
		spill_one(l);
	heap_push(l, s);
}

/* The lane's next spilled record into *rec: 1, or 0 at its end (or -errno). */
static int lane_next(struct lane *l, struct iolab_trace_rec *rec)
{
	if (fread(rec, sizeof(*rec), 1, l->spill) == 1)
		return 1;
	return ferror(l->spill) ? -EIO : 0;
}

/* Merges the lanes, each in issue order, through the writer. */
static int merge(struct iolab_recorder *r, struct iolab_trace_writer *w, struct iolab_err *err)
{
	struct iolab_trace_rec *head = calloc(r->nlanes, sizeof(*head));
	bool *live = calloc(r->nlanes, sizeof(*live));
	int rc = 0;
	if (!head || !live)
		rc = iolab_errf(err, ENOMEM, "--record: out of memory");
	for (unsigned i = 0; !rc && i < r->nlanes; i++) {
		int got = lane_next(&r->lane[i], &head[i]);
		if (got < 0)
			rc = iolab_errf(err, EIO, "--record: reading a temporary file: %s", strerror(EIO));
		live[i] = got > 0;
	}
	uint64_t last = 0;
	while (!rc) {
		int best = -1;
		for (unsigned i = 0; i < r->nlanes; i++)
			if (live[i] && (best < 0 || head[i].issue_ns < head[best].issue_ns))
				best = (int)i;
		if (best < 0)
			break;
		if (head[best].issue_ns < last)
			r->late++;
		else
			last = head[best].issue_ns;
		if ((rc = iolab_trace_write(w, &head[best], err)))
			break;
		r->count++;
		int got = lane_next(&r->lane[best], &head[best]);
		if (got < 0)
			rc = iolab_errf(err, EIO, "--record: reading a temporary file: %s", strerror(EIO));
		live[best] = got > 0;
	}
	free(head);
	free(live);
	return rc;
}

int iolab_recorder_end(struct iolab_recorder *r, struct iolab_err *err)
{
	if (!r->lane)
		return iolab_errf(err, EINVAL, "--record: the run recorded nothing (no point ran)");
	for (unsigned i = 0; i < r->nlanes; i++) {
		struct lane *l = &r->lane[i];
		while (l->n)
			spill_one(l);
		if (!l->error && fflush(l->spill))
			l->error = errno ? errno : EIO;
		if (l->error)
			return iolab_errf(err, l->error, "--record: writing a temporary file: %s",
					  strerror(l->error));
		rewind(l->spill);
	}
	struct iolab_trace_writer *w;
	int rc = iolab_trace_create(r->f, r->fmt, &r->h, &w, err);
	if (rc)
		return rc;
	rc = merge(r, w, err);
	int fin = iolab_trace_finish(w, err);
	return rc ? rc : fin;
}

uint64_t iolab_recorder_count(const struct iolab_recorder *r)
{
	return r->count;
}

uint64_t iolab_recorder_late(const struct iolab_recorder *r)
{
	return r->late;
}

void iolab_recorder_free(struct iolab_recorder *r)
{
	if (!r)
		return;
	for (unsigned i = 0; i < r->nlanes; i++) {
		free(r->lane[i].slot);
		free(r->lane[i].heap);
		if (r->lane[i].spill)
			fclose(r->lane[i].spill);
	}
	free(r->lane);
	free(r);
}
