/* fmt_msr.c: the MSR Cambridge block I/O traces (SNIA IOTTA), read only. One CSV line a request:
 *   Timestamp,Hostname,DiskNumber,Type,Offset,Size,ResponseTime
 * Timestamp is a Windows filetime (100 ns units since 1601-01-01), Type "Read" or "Write",
 * Offset and Size bytes, ResponseTime 100 ns units. Each host and disk is a target ("hm_1", as
 * the published files are named); completion = issue + ResponseTime. */
#include <errno.h>
#include <stdlib.h>
#include <string.h>
#include <strings.h>

#include "trace/fmt_text.h"
#include "trace/trace_fmts.h"

/* 1601-01-01 to 1970-01-01 in filetime units. */
#define FILETIME_UNIX_EPOCH UINT64_C(116444736000000000)


static int msr_parse(struct iolab_trace_reader *r, struct iolab_trace_rec *rec, struct iolab_err *err)
{
	struct fmt_lines *m = *iolab_trace_reader_priv(r);
	for (;;) {
		int rc = fmt_getline(r, m->f, m->buf, err);
		if (rc <= 0)
			return rc;
		char *col[7];
		unsigned n = fmt_split(m->buf, ",", false, col, 7);
		if (n == 0)
			continue;
		if (*iolab_trace_reader_line(r) == 1 && strcasecmp(col[0], "Timestamp") == 0)
			continue; /* a header line some copies carry */
		if (n != 7)
			return fmt_bad_line(r, err, "expected 7 fields (Timestamp,Hostname,DiskNumber,"
					    "Type,Offset,Size,ResponseTime)");
		uint64_t ts, disk, off, size, resp;
		if (!fmt_u64(col[0], UINT64_MAX, &ts))
			return fmt_bad(r, err, "Timestamp", col[0], "is not a filetime (a whole number)");
		if (!*col[1])
			return fmt_bad(r, err, "Hostname", col[1], "is empty");
		if (!fmt_u64(col[2], 65535, &disk))
			return fmt_bad(r, err, "DiskNumber", col[2], "is not a disk number");
		if (strcasecmp(col[3], "Read") && strcasecmp(col[3], "Write"))
			return fmt_bad(r, err, "Type", col[3], "is not Read or Write");
		if (!fmt_u64(col[4], UINT64_MAX, &off))
			return fmt_bad(r, err, "Offset", col[4], "is not a byte offset");
		if (!fmt_u64(col[5], UINT32_MAX, &size))
			return fmt_bad(r, err, "Size", col[5], "is not a byte count");
		if (off + size < off)
			return fmt_bad(r, err, "Size", col[5], FMT_BEYOND_2_64);
		if (!fmt_u64(col[6], UINT64_C(1) << 40, &resp))
			return fmt_bad(r, err, "ResponseTime", col[6], "is not a time in 100 ns units");
		char name[128];
		snprintf(name, sizeof(name), "%.100s_%u", col[1], (unsigned)disk);
		rc = fmt_target(r, m->h, "Hostname", name, &rec->target, err);
		if (rc)
			return rc;
		if (!m->have_first && ts >= FILETIME_UNIX_EPOCH)
			m->h->start_unix_ns = (ts - FILETIME_UNIX_EPOCH) * 100;
		rc = fmt_rel_time(r, err, "Timestamp", col[0], ts, 100, &m->have_first, &m->first,
				  &rec->issue_ns);
		if (rc)
			return rc;
		rec->done_ns = rec->issue_ns + resp * 100;
		rec->offset = off;
		rec->len = size;
		rec->op = strcasecmp(col[3], "Read") == 0 ? IOLAB_TRACE_READ : IOLAB_TRACE_WRITE;
		return 1;
	}
}

static int msr_open(struct iolab_trace_reader *r, FILE *f, struct iolab_trace_header *h,
		    struct iolab_err *err)
{
	return fmt_lines_open(r, f, h, "msr", true, "msr", msr_parse, err);
}

const struct iolab_trace_format iolab_trace_fmt_msr = {
	.name = "msr",
	.about = "MSR Cambridge CSV (Timestamp,Hostname,DiskNumber,Type,Offset,Size,ResponseTime)",
	.read_open = msr_open,
	.read_next = fmt_lines_next,
	.read_close = fmt_lines_close,
};
