/* fmt_spc.c: the Storage Performance Council trace format (the UMass Trace Repository's
 * Financial and WebSearch traces), read only. One CSV line a request:
 *   ASU,LBA,Size,Opcode,Timestamp[,optional fields]
 * ASU the application specific unit (a target, named by its number), LBA in 512-byte blocks,
 * Size bytes, Opcode r/R read or w/W write, Timestamp seconds from the trace's start (a decimal).
 * Fields after the fifth are ignored, as the format allows. */
#include <errno.h>
#include <stdlib.h>
#include <string.h>
#include <strings.h>

#include "trace/fmt_text.h"
#include "trace/trace_fmts.h"


static int spc_parse(struct iolab_trace_reader *r, struct iolab_trace_rec *rec, struct iolab_err *err)
{
	struct fmt_lines *s = *iolab_trace_reader_priv(r);
	for (;;) {
		int rc = fmt_getline(r, s->f, s->buf, err);
		if (rc <= 0)
			return rc;
		char *col[5];
		unsigned n = fmt_split(s->buf, ",", false, col, 5);
		if (n == 0)
			continue;
		if (*iolab_trace_reader_line(r) == 1 && strcasecmp(col[0], "ASU") == 0)
			continue;
		if (n < 5)
			return fmt_bad_line(r, err, "expected 5 fields (ASU,LBA,Size,Opcode,Timestamp)");
		uint64_t asu, lba, size;
		if (!fmt_u64(col[0], UINT32_MAX, &asu))
			return fmt_bad(r, err, "ASU", col[0], "is not a unit number");
		if (!fmt_u64(col[1], UINT64_MAX >> 9, &lba))
			return fmt_bad(r, err, "LBA", col[1], "is not a block number");
		if (!fmt_u64(col[2], UINT32_MAX, &size))
			return fmt_bad(r, err, "Size", col[2], "is not a byte count");
		if ((lba << 9) + size < (lba << 9))
			return fmt_bad(r, err, "Size", col[2], FMT_BEYOND_2_64);
		if (strcasecmp(col[3], "r") && strcasecmp(col[3], "w"))
			return fmt_bad(r, err, "Opcode", col[3], "is not r or w");
		if (!fmt_time(col[4], 1000000000, &rec->issue_ns))
			return fmt_bad(r, err, "Timestamp", col[4], "is not a time in seconds");
		rc = fmt_target(r, s->h, "ASU", col[0], &rec->target, err);
		if (rc)
			return rc;
		rec->done_ns = IOLAB_TRACE_NO_TIME;
		rec->offset = lba << 9;
		rec->len = size;
		rec->op = strcasecmp(col[3], "r") == 0 ? IOLAB_TRACE_READ : IOLAB_TRACE_WRITE;
		return 1;
	}
}

static int spc_open(struct iolab_trace_reader *r, FILE *f, struct iolab_trace_header *h,
		    struct iolab_err *err)
{
	return fmt_lines_open(r, f, h, "spc", false, "0", spc_parse, err);
}

const struct iolab_trace_format iolab_trace_fmt_spc = {
	.name = "spc",
	.about = "SPC trace CSV, UMass Financial/WebSearch (ASU,LBA,Size,Opcode,Timestamp s)",
	.read_open = spc_open,
	.read_next = fmt_lines_next,
	.read_close = fmt_lines_close,
};
