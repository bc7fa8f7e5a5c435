/* fmt_validate.c: DiskSim's "validate" traces, read only: requests measured on a real drive,
 * closed loop at depth 1 (DiskSim 4.0 manual, section 4.1; the lines are read by
 * iolab_vtrace_parse_line, src/sim/core/validate.c, the same reader `iolab sim --validate` uses):
 *   R|W Hit|Miss lbn blocks service_us think_us
 * The first request issues at 0 and completes service_us later; each next one issues think_us
 * after the previous completion. Blocks are 512 bytes; the trace has one target, the drive. */
#include <errno.h>
#include <stdlib.h>

#include "iolab/validate.h"
#include "trace/fmt_text.h"
#include "trace/trace_fmts.h"

#define VBLOCK 512

struct vt {
	FILE *f;
	uint64_t now_ns; /* when the next request issues */
	struct fmt_ahead ahead;
	char buf[FMT_LINE_MAX];
};

/* µs (a finite number >= 0) to ns, rounded; false beyond 2^62 ns. */
static bool us_to_ns(double us, uint64_t *ns)
{
	double v = us * 1e3 + 0.5;
	if (!(v < 0x1p62))
		return false;
	*ns = (uint64_t)v;
	return true;
}

static int vt_parse(struct iolab_trace_reader *r, struct iolab_trace_rec *rec, struct iolab_err *err)
{
	struct vt *v = *iolab_trace_reader_priv(r);
	for (;;) {
		int rc = fmt_getline(r, v->f, v->buf, err);
		if (rc <= 0)
			return rc;
		struct iolab_vreq q;
		rc = iolab_vtrace_parse_line(iolab_trace_reader_name(r), *iolab_trace_reader_line(r),
					     v->buf, &q, err);
		if (rc == 0)
			continue;
		if (rc < 0)
			return rc;
		uint64_t service, think;
		if (!us_to_ns(q.service_us, &service) || !us_to_ns(q.think_us, &think) ||
		    v->now_ns + service + think >= UINT64_C(1) << 63)
			return fmt_bad_line(r, err, "the trace's times run past 2^63 ns");
		rec->issue_ns = v->now_ns;
		rec->done_ns = v->now_ns + service;
		rec->offset = q.lbn * VBLOCK;
		rec->len = (uint64_t)q.blocks * VBLOCK;
		rec->target = 0;
		rec->op = q.write ? IOLAB_TRACE_WRITE : IOLAB_TRACE_READ;
		v->now_ns = rec->done_ns + think;
		return 1;
	}
}

static void vt_close(struct iolab_trace_reader *r);

static int vt_open_priv(struct iolab_trace_reader *r, FILE *f, struct iolab_trace_header *h,
		   struct iolab_err *err)
{
	struct vt *v = calloc(1, sizeof(*v));
	if (!v)
		return iolab_errf(err, ENOMEM, "%s: out of memory", iolab_trace_reader_name(r));
	v->f = f;
	*iolab_trace_reader_priv(r) = v;
	fmt_source(r, h, "validate");
	h->completions = true;
	h->ntargets = 1;
	snprintf(h->target[0].name, sizeof(h->target[0].name), "drive");
	h->target[0].size = 0;
	return fmt_ahead_fill(&v->ahead, r, vt_parse, h, "drive", err);
}

/* read_open; on failure frees what it allocated (read_close is only for an opened reader) */
static int vt_open(struct iolab_trace_reader *r, FILE *f, struct iolab_trace_header *h,
		   struct iolab_err *err)
{
	int rc = vt_open_priv(r, f, h, err);
	if (rc)
		vt_close(r);
	return rc;
}

static int vt_next(struct iolab_trace_reader *r, struct iolab_trace_rec *rec, struct iolab_err *err)
{
	struct vt *v = *iolab_trace_reader_priv(r);
	return fmt_ahead_next(&v->ahead, r, vt_parse, rec, err);
}

static void vt_close(struct iolab_trace_reader *r)
{
	free(*iolab_trace_reader_priv(r));
	*iolab_trace_reader_priv(r) = NULL;
}

const struct iolab_trace_format iolab_trace_fmt_validate = {
	.name = "validate",
	.about = "DiskSim validate trace (R|W Hit|Miss lbn blocks service_us think_us)",
	.read_open = vt_open,
	.read_next = vt_next,
	.read_close = vt_close,
};
