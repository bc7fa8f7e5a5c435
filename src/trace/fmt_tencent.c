/* fmt_tencent.c: the Tencent Cloud Block Storage (CBS) traces (SNIA IOTTA, 2018), read only. One
 * CSV line a request:
 *   Timestamp,Offset,Size,IOType,VolumeID
 * Timestamp seconds since the Unix epoch, Offset and Size 512-byte sectors, IOType 0 read and 1
 * write. Each VolumeID is a target (named by its id). The timestamps' 1 s resolution is kept:
 * the requests of one second all issue at its start. */
#include <errno.h>
#include <stdlib.h>
#include <string.h>
#include <strings.h>

#include "trace/fmt_text.h"
#include "trace/trace_fmts.h"


static int tencent_parse(struct iolab_trace_reader *r, struct iolab_trace_rec *rec,
			 struct iolab_err *err)
{
	struct fmt_lines *t = *iolab_trace_reader_priv(r);
	for (;;) {
		int rc = fmt_getline(r, t->f, t->buf, err);
		if (rc <= 0)
			return rc;
		char *col[5];
		unsigned n = fmt_split(t->buf, ",", false, col, 5);
		if (n == 0)
			continue;
		if (*iolab_trace_reader_line(r) == 1 && strcasecmp(col[0], "Timestamp") == 0)
			continue;
		if (n != 5)
			return fmt_bad_line(r, err, "expected 5 fields (Timestamp,Offset,Size,IOType,"
					    "VolumeID)");
		uint64_t ts, off, size, type, vol;
		if (!fmt_u64(col[0], UINT64_C(1) << 33, &ts))
			return fmt_bad(r, err, "Timestamp", col[0], "is not a time in seconds");
		if (!fmt_u64(col[1], UINT64_MAX >> 9, &off))
			return fmt_bad(r, err, "Offset", col[1], "is not a sector number");
		if (!fmt_u64(col[2], UINT32_MAX >> 9, &size))
			return fmt_bad(r, err, "Size", col[2], "is not a sector count");
		if (!fmt_u64(col[3], 1, &type))
			return fmt_bad(r, err, "IOType", col[3], "is not 0 (read) or 1 (write)");
		if (!fmt_u64(col[4], UINT32_MAX, &vol))
			return fmt_bad(r, err, "VolumeID", col[4], "is not a volume number");
		if ((off << 9) + (size << 9) < (off << 9))
			return fmt_bad(r, err, "Size", col[2], FMT_BEYOND_2_64);
		rc = fmt_target(r, t->h, "VolumeID", col[4], &rec->target, err);
		if (rc)
			return rc;
		if (!t->have_first)
			t->h->start_unix_ns = ts * 1000000000;
		rc = fmt_rel_time(r, err, "Timestamp", col[0], ts, 1000000000, &t->have_first,
				  &t->first, &rec->issue_ns);
		if (rc)
			return rc;
		rec->done_ns = IOLAB_TRACE_NO_TIME;
		rec->offset = off << 9;
		rec->len = size << 9;
		rec->op = type == 0 ? IOLAB_TRACE_READ : IOLAB_TRACE_WRITE;
		return 1;
	}
}

static int tencent_open(struct iolab_trace_reader *r, FILE *f, struct iolab_trace_header *h,
		    struct iolab_err *err)
{
	return fmt_lines_open(r, f, h, "tencent", false, "tencent", tencent_parse, err);
}

const struct iolab_trace_format iolab_trace_fmt_tencent = {
	.name = "tencent",
	.about = "Tencent CBS CSV (Timestamp s,Offset,Size sectors,IOType 0 read 1 write,VolumeID)",
	.read_open = tencent_open,
	.read_next = fmt_lines_next,
	.read_close = fmt_lines_close,
};
