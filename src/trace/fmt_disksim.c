/* fmt_disksim.c: DiskSim's default ("ascii") input trace, read and written. One request a line,
 * white space between the fields (DiskSim 4.0 manual, section 4.1.1):
 *   arrival_time_ms device_number block_number size_in_blocks flags
 * times in milliseconds from the start (a decimal), blocks of 512 bytes, flags a hexadecimal bit
 * field whose bit 0 is set for a read. Each device number is a target, named by its number; a
 * trace written from targets not so named numbers them 0, 1, ... in the header's order. */
#include <errno.h>
#include <inttypes.h>
#include <stdlib.h>
#include <string.h>

#include "trace/fmt_text.h"
#include "trace/trace_fmts.h"

#define DISKSIM_BLOCK 512
#define MS 1000000u

struct dsim {
	FILE *f;
	struct iolab_trace_header *h;
	struct fmt_ahead ahead;
	char buf[FMT_LINE_MAX];
};

/* DiskSim's flags: hexadecimal, with or without "0x". */
static bool hex_flags(const char *s, uint64_t *v)
{
	if (s[0] == '0' && (s[1] == 'x' || s[1] == 'X'))
		s += 2;
	if (!*s || strlen(s) > 8)
		return false;
	char *end;
	*v = strtoull(s, &end, 16);
	return *end == 0 && strspn(s, "0123456789abcdefABCDEF") == strlen(s);
}

static int dsim_parse(struct iolab_trace_reader *r, struct iolab_trace_rec *rec, struct iolab_err *err)
{
	struct dsim *d = *iolab_trace_reader_priv(r);
	for (;;) {
		int rc = fmt_getline(r, d->f, d->buf, err);
		if (rc <= 0)
			return rc;
		char *col[5];
		unsigned n = fmt_split(d->buf, " \t", true, col, 5);
		if (n == 0)
			continue;
		if (n != 5)
			return fmt_bad_line(r, err, "expected 5 fields (arrival_ms device block size "
					    "flags)");
		uint64_t dev, blk, size, flags;
		if (!fmt_time(col[0], MS, &rec->issue_ns))
			return fmt_bad(r, err, "arrival_ms", col[0], "is not a time in milliseconds");
		if (!fmt_u64(col[1], UINT32_MAX, &dev))
			return fmt_bad(r, err, "device", col[1], "is not a device number");
		if (!fmt_u64(col[2], UINT64_MAX / DISKSIM_BLOCK, &blk))
			return fmt_bad(r, err, "block", col[2], "is not a block number");
		if (!fmt_u64(col[3], UINT32_MAX / DISKSIM_BLOCK, &size) || size == 0)
			return fmt_bad(r, err, "size", col[3], "is not a block count (1 or more)");
		if (blk + size < blk || blk + size > UINT64_MAX / DISKSIM_BLOCK)
			return fmt_bad(r, err, "size", col[3], FMT_BEYOND_2_64);
		if (!hex_flags(col[4], &flags))
			return fmt_bad(r, err, "flags", col[4], "is not a hexadecimal bit field");
		rc = fmt_target(r, d->h, "device", col[1], &rec->target, err);
		if (rc)
			return rc;
		rec->done_ns = IOLAB_TRACE_NO_TIME;
		rec->offset = blk * DISKSIM_BLOCK;
		rec->len = size * DISKSIM_BLOCK;
		rec->op = flags & 1 ? IOLAB_TRACE_READ : IOLAB_TRACE_WRITE;
		return 1;
	}
}

static void dsim_close(struct iolab_trace_reader *r);

/* After fmt_prescan: nothing carries over from one line to the next. */
static void dsim_reset(struct iolab_trace_reader *r)
{
	(void)r;
}

static int dsim_open_priv(struct iolab_trace_reader *r, FILE *f, struct iolab_trace_header *h,
		     struct iolab_err *err)
{
	struct dsim *d = calloc(1, sizeof(*d));
	if (!d)
		return iolab_errf(err, ENOMEM, "%s: out of memory", iolab_trace_reader_name(r));
	d->f = f;
	d->h = h;
	*iolab_trace_reader_priv(r) = d;
	fmt_source(r, h, "disksim");
	h->completions = false;
	h->ntargets = 0;
	int prc = fmt_prescan(r, f, dsim_parse, dsim_reset, err);
	if (prc)
		return prc;
	return fmt_ahead_fill(&d->ahead, r, dsim_parse, h, "0", err);
}

/* read_open; on failure frees what it allocated (read_close is only for an opened reader) */
static int dsim_open(struct iolab_trace_reader *r, FILE *f, struct iolab_trace_header *h,
		   struct iolab_err *err)
{
	int rc = dsim_open_priv(r, f, h, err);
	if (rc)
		dsim_close(r);
	return rc;
}

static int dsim_next(struct iolab_trace_reader *r, struct iolab_trace_rec *rec, struct iolab_err *err)
{
	struct dsim *d = *iolab_trace_reader_priv(r);
	return fmt_ahead_next(&d->ahead, r, dsim_parse, rec, err);
}

static void dsim_close(struct iolab_trace_reader *r)
{
	free(*iolab_trace_reader_priv(r));
	*iolab_trace_reader_priv(r) = NULL;
}

struct dsim_w {
	FILE *f;
	uint64_t n;
	unsigned ntargets;
	uint32_t num[IOLAB_TRACE_TARGETS_MAX];
};

static int dsim_wopen(struct iolab_trace_writer *w, FILE *f, const struct iolab_trace_header *h,
		      struct iolab_err *err)
{
	struct dsim_w *d = calloc(1, sizeof(*d));
	if (!d)
		return iolab_errf(err, ENOMEM, "disksim: out of memory");
	d->f = f;
	d->ntargets = h->ntargets;
	fmt_target_numbers(h, d->num);
	*iolab_trace_writer_priv(w) = d;
	return 0;
}

static int dsim_write(struct iolab_trace_writer *w, const struct iolab_trace_rec *rec,
		      struct iolab_err *err)
{
	struct dsim_w *d = *iolab_trace_writer_priv(w);
	d->n++;
	if (rec->op != IOLAB_TRACE_READ && rec->op != IOLAB_TRACE_WRITE)
		return iolab_errf(err, EINVAL, "disksim: record %" PRIu64 ": field 'op': a %s has no "
				  "DiskSim form (reads and writes only)", d->n,
				  rec->op == IOLAB_TRACE_TRIM ? "trim" : "flush");
	if (rec->offset % DISKSIM_BLOCK || rec->len % DISKSIM_BLOCK || rec->len == 0)
		return iolab_errf(err, EINVAL, "disksim: record %" PRIu64 ": field '%s': %" PRIu64
				  " is not a whole number of 512-byte blocks", d->n,
				  rec->offset % DISKSIM_BLOCK ? "offset" : "len",
				  rec->offset % DISKSIM_BLOCK ? rec->offset : rec->len);
	if (rec->target >= d->ntargets)
		return iolab_errf(err, EINVAL, "disksim: record %" PRIu64 ": field 'target': %u is "
				  "not in the header", d->n, rec->target);
	fmt_put_time(d->f, rec->issue_ns, MS);
	fprintf(d->f, " %" PRIu32 " %" PRIu64 " %" PRIu64 " %d\n", d->num[rec->target],
		rec->offset / DISKSIM_BLOCK, rec->len / DISKSIM_BLOCK,
		rec->op == IOLAB_TRACE_READ ? 1 : 0);
	return fmt_write_check(d->f, "disksim", err);
}

static int dsim_finish(struct iolab_trace_writer *w, struct iolab_err *err)
{
	struct dsim_w *d = *iolab_trace_writer_priv(w);
	int rc = fmt_write_check(d->f, "disksim", err);
	free(d);
	*iolab_trace_writer_priv(w) = NULL;
	return rc;
}

const struct iolab_trace_format iolab_trace_fmt_disksim = {
	.name = "disksim",
	.about = "DiskSim ascii trace (arrival ms, device, block, blocks, flags)",
	.read_open = dsim_open,
	.read_next = dsim_next,
	.read_close = dsim_close,
	.write_open = dsim_wopen,
	.write_rec = dsim_write,
	.write_finish = dsim_finish,
};
