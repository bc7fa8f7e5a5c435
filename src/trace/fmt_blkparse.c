/* fmt_blkparse.c: blkparse's default text output (blkparse(1), "DEFAULT OUTPUT"), read only. An
 * event line is
 *   MAJ,MIN CPU SEQ SECONDS.NANOSECONDS PID ACTION RWBS [SECTOR + COUNT] [...]
 * A request issues at its first Q (queued) event, or at its D (dispatched to the driver) if the
 * trace has no Q events (the first Q or D seen decides), and completes at the C event whose
 * sectors cover it (so requests merged into a larger one complete with it). SECTOR and COUNT are
 * 512-byte sectors. RWBS gives the op: D discard (a trim), W write, R read, and F with no sectors
 * a flush; events of other kinds, lines that are not events (blkparse's summary at the end) and
 * requests without data are skipped. Each device MAJ,MIN is a target named so. Requests come out
 * in issue order once complete; at most BLK_PENDING wait for their completion, beyond that the
 * oldest goes out without one (as do those the trace never completes). A trace that yields no
 * request is refused, saying what it holds instead (only C events: blkparse -a complete); a
 * device with only C events among others that have requests is the reader's note. */
#include <ctype.h>
#include <errno.h>
#include <inttypes.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "trace/fmt_text.h"
#include "trace/trace_fmts.h"

#define BLK_PENDING 8192
#define BLK_SECTOR 512

struct pend {
	struct iolab_trace_rec rec;
	uint64_t sector, count;
	bool done;
};

struct blk {
	FILE *f;
	struct iolab_trace_header *h;
	char mode;          /* 'Q' or 'D' once the first issue event is seen */
	bool saw_c, eof;
	uint64_t lines, events, issues, completions; /* what the input holds: for "yields nothing" */
	uint64_t dev_issues[IOLAB_TRACE_TARGETS_MAX], dev_completions[IOLAB_TRACE_TARGETS_MAX];
	unsigned head, n;   /* the pending requests, a ring in issue order */
	struct pend *pend;
	struct fmt_ahead ahead;
	char buf[FMT_LINE_MAX];
};

static bool is_dev(const char *s)
{
	const char *c = strchr(s, ',');
	if (!c || c == s || !c[1])
		return false;
	for (const char *p = s; *p; p++)
		if (p != c && !isdigit((unsigned char)*p))
			return false;
	return true;
}

static void complete(struct blk *b, uint16_t target, bool sectors, uint64_t sector, uint64_t count,
		     uint64_t t)
{
	for (unsigned i = 0; i < b->n; i++) {
		struct pend *p = &b->pend[(b->head + i) % BLK_PENDING];
		if (p->done || p->rec.target != target || p->rec.issue_ns > t)
			continue;
		if (!sectors || count == 0) {
			if (p->rec.op != IOLAB_TRACE_FLUSH)
				continue;
			p->rec.done_ns = t;
			p->done = true;
			return; /* one flush per flush completion */
		}
		if (p->rec.op != IOLAB_TRACE_FLUSH && p->sector >= sector &&
		    p->sector + p->count <= sector + count) {
			p->rec.done_ns = t;
			p->done = true;
		}
	}
}

/* One event line: 0 (used or skipped) or -EINVAL. */
static int event(struct iolab_trace_reader *r, struct blk *b, struct iolab_err *err)
{
	char *col[10];
	unsigned n = fmt_split(b->buf, " \t", true, col, 10);
	b->lines++;
	if (n == 0 || !is_dev(col[0]))
		return 0; /* not an event: blkparse's summary, or a blank line */
	if (n < 7)
		return fmt_bad_line(r, err, "expected an event (MAJ,MIN CPU SEQ TIME PID ACTION RWBS "
				    "...)");
	const char *act = col[5], *rwbs = col[6];
	bool issue = !strcmp(act, "Q") || !strcmp(act, "D");
	b->events++;
	b->issues += issue;
	b->completions += !strcmp(act, "C");
	if (!issue && strcmp(act, "C"))
		return 0;
	if (issue && b->mode && act[0] != b->mode)
		return 0;
	uint64_t t;
	if (!fmt_time(col[3], 1000000000, &t))
		return fmt_bad(r, err, "time", col[3], "is not a time in seconds");
	if (!*rwbs || strspn(rwbs, "RWDFSMANBE") != strlen(rwbs))
		return fmt_bad(r, err, "rwbs", rwbs, "is not an RWBS field (letters of RWDFSMANBE)");
	bool sectors = n >= 10 && !strcmp(col[8], "+");
	uint64_t sector = 0, count = 0;
	if (sectors && !fmt_u64(col[7], UINT64_MAX / BLK_SECTOR, &sector))
		return fmt_bad(r, err, "sector", col[7], "is not a sector number");
	if (sectors && !fmt_u64(col[9], UINT32_MAX, &count))
		return fmt_bad(r, err, "sectors", col[9], "is not a sector count");
	if (sectors && sector + count > UINT64_MAX / BLK_SECTOR)
		return fmt_bad(r, err, "sectors", col[9], FMT_BEYOND_2_64);
	uint16_t target;
	int rc = fmt_target(r, b->h, "device", col[0], &target, err);
	if (rc)
		return rc;
	b->dev_issues[target] += issue;
	if (!issue) {
		b->dev_completions[target]++;
		b->saw_c = true;
		complete(b, target, sectors, sector, count, t);
		return 0;
	}
	int op;
	if (sectors && count) {
		op = strchr(rwbs, 'D') ? IOLAB_TRACE_TRIM : strchr(rwbs, 'W') ? IOLAB_TRACE_WRITE
		     : strchr(rwbs, 'R') ? IOLAB_TRACE_READ : -1;
	} else
		op = strchr(rwbs, 'F') ? IOLAB_TRACE_FLUSH : -1;
	if (op < 0)
		return 0; /* no data and no flush */
	if (!b->mode)
		b->mode = act[0];
	struct pend *p = &b->pend[(b->head + b->n++) % BLK_PENDING];
	memset(p, 0, sizeof(*p));
	p->rec.issue_ns = t;
	p->rec.done_ns = IOLAB_TRACE_NO_TIME;
	p->rec.target = target;
	p->rec.op = (uint8_t)op;
	p->sector = sector;
	p->count = op == IOLAB_TRACE_FLUSH ? 0 : count;
	p->rec.offset = sector * BLK_SECTOR;
	p->rec.len = p->count * BLK_SECTOR;
	return 0;
}

/* At the end: a device with C events but no Q or D event has no request in the trace; the
 * reader's note names the first (the others' requests are imported). */
static void note_devices_without_issues(struct iolab_trace_reader *r, const struct blk *b)
{
	for (unsigned i = 0; i < b->h->ntargets; i++)
		if (b->dev_completions[i] && !b->dev_issues[i]) {
			iolab_trace_reader_note(r, "%s: device %s: %" PRIu64 " C events, no %s events: "
						"its requests are not in the trace (traced with blkparse "
						"-a complete?)", iolab_trace_reader_name(r),
						b->h->target[i].name, b->dev_completions[i],
						b->mode == 'D' ? "D" : "Q");
			return;
		}
}

static int blk_parse(struct iolab_trace_reader *r, struct iolab_trace_rec *rec, struct iolab_err *err)
{
	struct blk *b = *iolab_trace_reader_priv(r);
	for (;;) {
		if (b->n && (b->pend[b->head].done || b->n >= BLK_PENDING || b->eof)) {
			*rec = b->pend[b->head].rec;
			b->head = (b->head + 1) % BLK_PENDING;
			b->n--;
			return 1;
		}
		if (b->eof)
			return 0;
		int rc = fmt_getline(r, b->f, b->buf, err);
		if (rc < 0)
			return rc;
		if (rc == 0) {
			b->eof = true;
			note_devices_without_issues(r, b);
			continue;
		}
		rc = event(r, b, err);
		if (rc)
			return rc;
	}
}

static void blk_close(struct iolab_trace_reader *r);

/* After fmt_prescan: back to the state before the first line. */
static void blk_reset(struct iolab_trace_reader *r)
{
	struct blk *b = *iolab_trace_reader_priv(r);
	b->head = b->n = 0; /* saw_c stays: whether the file has any C event */
	b->mode = 0;
	b->eof = false;
	b->lines = b->events = b->issues = b->completions = 0;
	memset(b->dev_issues, 0, sizeof(b->dev_issues));
	memset(b->dev_completions, 0, sizeof(b->dev_completions));
}

/* For read_open when the input gave no request: -EINVAL saying what it holds instead. */
static int yields_nothing(struct iolab_trace_reader *r, const struct blk *b, struct iolab_err *err)
{
	const char *name = iolab_trace_reader_name(r);
	if (!b->events)
		return iolab_errf(err, EINVAL, "%s: no blkparse event in %" PRIu64 " lines (an event "
				  "is MAJ,MIN CPU SEQ SECONDS PID ACTION RWBS [SECTOR + COUNT]; is this "
				  "blkparse's default output?)", name, b->lines);
	if (!b->issues) {
		char other[64] = "";
		if (b->events > b->completions)
			snprintf(other, sizeof(other), ", %" PRIu64 " other events",
				 b->events - b->completions);
		return iolab_errf(err, EINVAL, "%s: %" PRIu64 " C events%s, no Q or D events: no "
				  "request to import (blkparse -a complete keeps only completions: use "
				  "-a issue -a complete, or keep the Q events)", name, b->completions,
				  other);
	}
	return iolab_errf(err, EINVAL, "%s: %" PRIu64 " Q or D events, none of a read, write, "
			  "discard or flush (RWBS without R, W, D or F, or no sectors): no request "
			  "to import", name, b->issues);
}

static int blk_open(struct iolab_trace_reader *r, FILE *f, struct iolab_trace_header *h,
		    struct iolab_err *err)
{
	struct blk *b = calloc(1, sizeof(*b));
	if (b)
		b->pend = calloc(BLK_PENDING, sizeof(*b->pend));
	if (!b || !b->pend) {
		free(b);
		return iolab_errf(err, ENOMEM, "%s: out of memory", iolab_trace_reader_name(r));
	}
	*iolab_trace_reader_priv(r) = b;
	b->f = f;
	b->h = h;
	fmt_source(r, h, "blkparse");
	h->ntargets = 0;
	int rc = fmt_prescan(r, f, blk_parse, blk_reset, err);
	if (!rc)
		rc = fmt_ahead_fill(&b->ahead, r, blk_parse, h, "blkparse", err);
	h->completions = b->saw_c;
	if (!rc && !b->ahead.have && !b->ahead.nbad)
		rc = yields_nothing(r, b, err);
	if (rc)
		blk_close(r);
	return rc;
}

static int blk_next(struct iolab_trace_reader *r, struct iolab_trace_rec *rec, struct iolab_err *err)
{
	struct blk *b = *iolab_trace_reader_priv(r);
	return fmt_ahead_next(&b->ahead, r, blk_parse, rec, err);
}

static void blk_close(struct iolab_trace_reader *r)
{
	struct blk *b = *iolab_trace_reader_priv(r);
	if (b)
		free(b->pend);
	free(b);
	*iolab_trace_reader_priv(r) = NULL;
}

const struct iolab_trace_format iolab_trace_fmt_blkparse = {
	.name = "blkparse",
	.about = "blkparse default text output (Q or D issue, C completion)",
	.read_open = blk_open,
	.read_next = blk_next,
	.read_close = blk_close,
};
