/* fmt_alibaba.c: the Alibaba Cloud block traces (2020, Alibaba's block-traces release), read
 * only. One CSV line a request:
 *   device_id,opcode,offset,length,timestamp
 * opcode "R" or "W", offset and length bytes, timestamp microseconds since the Unix epoch. Each
 * device_id is a target (named by its id). */
#include <errno.h>
#include <stdlib.h>
#include <string.h>
#include <strings.h>

#include "trace/fmt_text.h"
#include "trace/trace_fmts.h"


static int ali_parse(struct iolab_trace_reader *r, struct iolab_trace_rec *rec, struct iolab_err *err)
{
	struct fmt_lines *a = *iolab_trace_reader_priv(r);
	for (;;) {
		int rc = fmt_getline(r, a->f, a->buf, err);
		if (rc <= 0)
			return rc;
		char *col[5];
		unsigned n = fmt_split(a->buf, ",", false, col, 5);
		if (n == 0)
			continue;
		if (*iolab_trace_reader_line(r) == 1 && strcasecmp(col[0], "device_id") == 0)
			continue;
		if (n != 5)
			return fmt_bad_line(r, err, "expected 5 fields (device_id,opcode,offset,length,"
					    "timestamp)");
		uint64_t dev, off, len, ts;
		if (!fmt_u64(col[0], UINT32_MAX, &dev))
			return fmt_bad(r, err, "device_id", col[0], "is not a device number");
		if (strcasecmp(col[1], "R") && strcasecmp(col[1], "W"))
			return fmt_bad(r, err, "opcode", col[1], "is not R or W");
		if (!fmt_u64(col[2], UINT64_MAX, &off))
			return fmt_bad(r, err, "offset", col[2], "is not a byte offset");
		if (!fmt_u64(col[3], UINT32_MAX, &len))
			return fmt_bad(r, err, "length", col[3], "is not a byte count");
		if (off + len < off)
			return fmt_bad(r, err, "length", col[3], FMT_BEYOND_2_64);
		if (!fmt_u64(col[4], UINT64_MAX / 1000, &ts))
			return fmt_bad(r, err, "timestamp", col[4], "is not a time in microseconds");
		rc = fmt_target(r, a->h, "device_id", col[0], &rec->target, err);
		if (rc)
			return rc;
		if (!a->have_first)
			a->h->start_unix_ns = ts * 1000;
		rc = fmt_rel_time(r, err, "timestamp", col[4], ts, 1000, &a->have_first, &a->first,
				  &rec->issue_ns);
		if (rc)
			return rc;
		rec->done_ns = IOLAB_TRACE_NO_TIME;
		rec->offset = off;
		rec->len = len;
		rec->op = strcasecmp(col[1], "R") == 0 ? IOLAB_TRACE_READ : IOLAB_TRACE_WRITE;
		return 1;
	}
}

static int ali_open(struct iolab_trace_reader *r, FILE *f, struct iolab_trace_header *h,
		    struct iolab_err *err)
{
	return fmt_lines_open(r, f, h, "alibaba", false, "alibaba", ali_parse, err);
}

const struct iolab_trace_format iolab_trace_fmt_alibaba = {
	.name = "alibaba",
	.about = "Alibaba Cloud block trace CSV (device_id,opcode,offset,length,timestamp us)",
	.read_open = ali_open,
	.read_next = fmt_lines_next,
	.read_close = fmt_lines_close,
};
