/* fmt_mqsim.c: the MQSim SSD simulator's ASCII trace, read and written. One request a line,
 * white space between the fields (MQSim's README, "trace file"):
 *   arrival_time_ns device_number start_lba size_in_sectors type
 * the LBA and size in 512-byte sectors, type 1 for a read and 0 for a write. Each device number
 * is a target, named by its number; a trace written from targets not so named numbers them
 * 0, 1, ... in the header's order. */
#include <errno.h>
#include <inttypes.h>
#include <stdlib.h>
#include <string.h>

#include "trace/fmt_text.h"
#include "trace/trace_fmts.h"

#define SECTOR 512


static int mq_parse(struct iolab_trace_reader *r, struct iolab_trace_rec *rec, struct iolab_err *err)
{
	struct fmt_lines *m = *iolab_trace_reader_priv(r);
	for (;;) {
		int rc = fmt_getline(r, m->f, m->buf, err);
		if (rc <= 0)
			return rc;
		char *col[5];
		unsigned n = fmt_split(m->buf, " \t", true, col, 5);
		if (n == 0)
			continue;
		if (n != 5)
			return fmt_bad_line(r, err, "expected 5 fields (arrival_ns device lba sectors "
					    "type)");
		uint64_t dev, lba, size, type;
		if (!fmt_u64(col[0], UINT64_C(1) << 63, &rec->issue_ns))
			return fmt_bad(r, err, "arrival_ns", col[0], "is not a time in nanoseconds");
		if (!fmt_u64(col[1], UINT32_MAX, &dev))
			return fmt_bad(r, err, "device", col[1], "is not a device number");
		if (!fmt_u64(col[2], UINT64_MAX / SECTOR, &lba))
			return fmt_bad(r, err, "lba", col[2], "is not a sector number");
		if (!fmt_u64(col[3], UINT32_MAX / SECTOR, &size) || size == 0)
			return fmt_bad(r, err, "sectors", col[3], "is not a sector count (1 or more)");
		if (lba + size > UINT64_MAX / SECTOR)
			return fmt_bad(r, err, "sectors", col[3], FMT_BEYOND_2_64);
		if (!fmt_u64(col[4], 1, &type))
			return fmt_bad(r, err, "type", col[4], "is not 1 (read) or 0 (write)");
		rc = fmt_target(r, m->h, "device", col[1], &rec->target, err);
		if (rc)
			return rc;
		rec->done_ns = IOLAB_TRACE_NO_TIME;
		rec->offset = lba * SECTOR;
		rec->len = size * SECTOR;
		rec->op = type == 1 ? IOLAB_TRACE_READ : IOLAB_TRACE_WRITE;
		return 1;
	}
}

static int mq_open(struct iolab_trace_reader *r, FILE *f, struct iolab_trace_header *h,
		    struct iolab_err *err)
{
	return fmt_lines_open(r, f, h, "mqsim", false, "0", mq_parse, err);
}

struct mq_w {
	FILE *f;
	uint64_t n;
	unsigned ntargets;
	uint32_t num[IOLAB_TRACE_TARGETS_MAX];
};

static int mq_wopen(struct iolab_trace_writer *w, FILE *f, const struct iolab_trace_header *h,
		    struct iolab_err *err)
{
	struct mq_w *m = calloc(1, sizeof(*m));
	if (!m)
		return iolab_errf(err, ENOMEM, "mqsim: out of memory");
	m->f = f;
	m->ntargets = h->ntargets;
	fmt_target_numbers(h, m->num);
	*iolab_trace_writer_priv(w) = m;
	return 0;
}

static int mq_write(struct iolab_trace_writer *w, const struct iolab_trace_rec *rec,
		    struct iolab_err *err)
{
	struct mq_w *m = *iolab_trace_writer_priv(w);
	m->n++;
	if (rec->op != IOLAB_TRACE_READ && rec->op != IOLAB_TRACE_WRITE)
		return iolab_errf(err, EINVAL, "mqsim: record %" PRIu64 ": field 'op': a %s has no "
				  "MQSim form (reads and writes only)", m->n,
				  rec->op == IOLAB_TRACE_TRIM ? "trim" : "flush");
	if (rec->offset % SECTOR || rec->len % SECTOR || rec->len == 0)
		return iolab_errf(err, EINVAL, "mqsim: record %" PRIu64 ": field '%s': %" PRIu64
				  " is not a whole number of 512-byte sectors", m->n,
				  rec->offset % SECTOR ? "offset" : "len",
				  rec->offset % SECTOR ? rec->offset : rec->len);
	if (rec->target >= m->ntargets)
		return iolab_errf(err, EINVAL, "mqsim: record %" PRIu64 ": field 'target': %u is "
				  "not in the header", m->n, rec->target);
	fprintf(m->f, "%" PRIu64 " %" PRIu32 " %" PRIu64 " %" PRIu64 " %d\n", rec->issue_ns,
		m->num[rec->target], rec->offset / SECTOR, rec->len / SECTOR,
		rec->op == IOLAB_TRACE_READ ? 1 : 0);
	return fmt_write_check(m->f, "mqsim", err);
}

static int mq_finish(struct iolab_trace_writer *w, struct iolab_err *err)
{
	struct mq_w *m = *iolab_trace_writer_priv(w);
	int rc = fmt_write_check(m->f, "mqsim", err);
	free(m);
	*iolab_trace_writer_priv(w) = NULL;
	return rc;
}

const struct iolab_trace_format iolab_trace_fmt_mqsim = {
	.name = "mqsim",
	.about = "MQSim ASCII trace (arrival ns, device, LBA, sectors, 1 read 0 write)",
	.read_open = mq_open,
	.read_next = fmt_lines_next,
	.read_close = fmt_lines_close,
	.write_open = mq_wopen,
	.write_rec = mq_write,
	.write_finish = mq_finish,
};
