/* trace_xform.c: the transforms of `iolab trace convert` and `iolab replay` applied to one record
 * (struct iolab_trace_xform, include/iolab/trace.h), in this order: the op and target filters,
 * the time slice (kept times become relative to its start), the offset clip (kept offsets become
 * relative to its start), the shift, scale (only ever down) or wrap to a size, the bound check,
 * and the speed; and the check of the target filter against a trace's targets. docs/trace-format.md says what
 * each does at the edges. */
#include <errno.h>
#include <inttypes.h>
#include <stdio.h>

#include "iolab/trace.h"

#define ALIGN 512u /* a scaled or moved offset keeps this alignment (a sector) */

/* Moves rec so that it ends within size; keeps ALIGN alignment. -EINVAL if it cannot fit. */
static int fit_end(struct iolab_trace_rec *rec, uint64_t size, uint64_t n, struct iolab_err *err)
{
	if (rec->len > size)
		return iolab_errf(err, EINVAL, "record %" PRIu64 ": field 'len': %" PRIu64 " bytes do "
				  "not fit in %" PRIu64, n, rec->len, size);
	if (rec->offset + rec->len > size)
		rec->offset = (size - rec->len) / ALIGN * ALIGN;
	return 0;
}

/* --scale: offsets shrink by fit_size / from_size, never grow (a source that fits keeps its
 * offsets). With x->runs, a request starting where its target's previous one ended is put where
 * that one's mapping ended, so sequential runs stay contiguous instead of overlapping. */
static int scale(const struct iolab_trace_xform *x, struct iolab_trace_rec *rec, uint64_t n,
		 struct iolab_err *err)
{
	if (!x->from_size)
		return iolab_errf(err, EINVAL, "record %" PRIu64 ": --scale needs the source's size", n);
	if (x->from_size <= x->fit_size)
		return fit_end(rec, x->fit_size, n, err);
	struct iolab_trace_runs *q = x->runs;
	unsigned t = rec->target;
	uint64_t src_end = rec->offset + rec->len;
	if (q && q->seen[t] && rec->offset == q->src_end[t] && rec->len <= x->fit_size &&
	    q->dst_end[t] <= x->fit_size - rec->len) {
		rec->offset = q->dst_end[t];
	} else {
		unsigned __int128 o = (unsigned __int128)rec->offset * x->fit_size / x->from_size;
		rec->offset = (uint64_t)o / ALIGN * ALIGN;
		int rc = fit_end(rec, x->fit_size, n, err);
		if (rc)
			return rc;
	}
	if (q) {
		q->seen[t] = true;
		q->src_end[t] = src_end;
		q->dst_end[t] = rec->offset + rec->len;
	}
	return 0;
}

static int fit(const struct iolab_trace_xform *x, struct iolab_trace_rec *rec, uint64_t n,
	       struct iolab_err *err)
{
	if (x->wrap) {
		rec->offset %= x->fit_size;
		if (rec->offset + rec->len > x->fit_size)
			rec->offset = 0; /* it would run past the end: it wraps to the start whole */
		return fit_end(rec, x->fit_size, n, err);
	}
	return scale(x, rec, n, err);
}

/* Slice, clip and shift: 1 keep, 0 drop, -EINVAL. */
static int select_and_move(const struct iolab_trace_xform *x, struct iolab_trace_rec *rec,
			   uint64_t n, struct iolab_err *err)
{
	if (x->slice_len_ns) {
		if (rec->issue_ns < x->slice_start_ns || rec->issue_ns - x->slice_start_ns >= x->slice_len_ns)
			return 0;
		rec->issue_ns -= x->slice_start_ns;
		if (rec->done_ns != IOLAB_TRACE_NO_TIME)
			rec->done_ns -= x->slice_start_ns;
	}
	if (x->clip_len && rec->op != IOLAB_TRACE_FLUSH) {
		if (rec->offset < x->clip_start || rec->offset - x->clip_start > x->clip_len ||
		    rec->len > x->clip_len - (rec->offset - x->clip_start))
			return 0;
		rec->offset -= x->clip_start;
	}
	if (x->shift && rec->op != IOLAB_TRACE_FLUSH) {
		if (x->shift < 0 && rec->offset < (uint64_t)0 - (uint64_t)x->shift)
			return iolab_errf(err, EINVAL, "record %" PRIu64 ": field 'offset': %" PRIu64
					  " shifted by %" PRId64 " is below 0", n, rec->offset, x->shift);
		uint64_t o = rec->offset + (uint64_t)x->shift;
		if (x->shift > 0 && (o < rec->offset || o + rec->len < o))
			return iolab_errf(err, EINVAL, "record %" PRIu64 ": field 'offset': %" PRIu64
					  " shifted by %" PRId64 " overflows", n, rec->offset, x->shift);
		rec->offset = o;
	}
	return 1;
}

/* t divided by speed, kept below IOLAB_TRACE_NO_TIME. */
static uint64_t sped(uint64_t t, double speed)
{
	double v = (double)t / speed;
	return v >= 18446744073709549568.0 ? IOLAB_TRACE_NO_TIME - 1 : (uint64_t)v;
}

int iolab_trace_xform_apply(const struct iolab_trace_xform *x, struct iolab_trace_rec *rec,
			    uint64_t n, struct iolab_err *err)
{
	if (x->ops && !(x->ops & (1u << rec->op)))
		return 0;
	if (x->target >= 0 && rec->target != x->target)
		return 0;
	int rc = select_and_move(x, rec, n, err);
	if (rc <= 0)
		return rc;
	if (x->fit_size && rec->op != IOLAB_TRACE_FLUSH && (rc = fit(x, rec, n, err)))
		return rc;
	if (x->bound && rec->op != IOLAB_TRACE_FLUSH && rec->offset + rec->len > x->bound)
		return iolab_errf(err, EINVAL, "record %" PRIu64 ": field 'offset': %" PRIu64 " + length %"
				  PRIu64 " is past the end (%" PRIu64 " bytes): use --clip, --scale or "
				  "--wrap", n, rec->offset, rec->len, x->bound);
	if (x->speed > 0 && x->speed != 1) {
		rec->issue_ns = sped(rec->issue_ns, x->speed);
		if (rec->done_ns != IOLAB_TRACE_NO_TIME) {
			uint64_t d = sped(rec->done_ns, x->speed);
			rec->done_ns = d < rec->issue_ns ? rec->issue_ns : d;
		}
	}
	return 1;
}

int iolab_trace_xform_check_target(const struct iolab_trace_xform *x,
				   const struct iolab_trace_header *h, const char *option,
				   struct iolab_err *err)
{
	if (x->target < 0 || (unsigned)x->target < h->ntargets)
		return 0;
	char names[320];
	size_t len = 0;
	for (unsigned i = 0; i < h->ntargets && len < sizeof(names); i++)
		len += (size_t)snprintf(names + len, sizeof(names) - len, "%s%u (%s)", i ? ", " : "", i,
					h->target[i].name);
	if (len >= sizeof(names))
		snprintf(names + sizeof(names) - 5, 5, "...");
	return iolab_errf(err, EINVAL, "%s %d: the trace has %u target%s (counted from 0): %s", option,
			  x->target, h->ntargets, h->ntargets == 1 ? "" : "s", names);
}
