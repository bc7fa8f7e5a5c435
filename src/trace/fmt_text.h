/* fmt_text.h: what the foreign text trace formats (fmt_blkparse.c, fmt_msr.c, ...) share: reading
 * one bounded line at a time, splitting it into fields, strict numbers and exact decimal times,
 * targets found while reading, and the "FILE:LINE: field 'X': ..." error line. */
#ifndef IOLAB_FMT_TEXT_H
#define IOLAB_FMT_TEXT_H

#include <stdbool.h>
#include <stdint.h>
#include <stdio.h>

#include "iolab/trace.h"

/* Longest line a foreign reader takes (fio's own iolog reader stops at 4096 too). */
#define FMT_LINE_MAX 4096

/* iolab_trace_getline (trace_internal.h) into buf (FMT_LINE_MAX bytes) with the error already
 * prefixed "FILE:LINE: ", and a UTF-8 byte-order mark before the first line skipped. */
int fmt_getline(struct iolab_trace_reader *r, FILE *f, char *buf, struct iolab_err *err);

/* "FILE:LINE: field 'field': 'value' why" into err; returns -EINVAL. */
/* The why of a length that is a fine number but, added to the offset, passes 2^64 bytes. */
#define FMT_BEYOND_2_64 "makes the request end beyond 2^64 bytes (its offset + this length)"
int fmt_bad(struct iolab_trace_reader *r, struct iolab_err *err, const char *field,
	    const char *value, const char *why);
/* "FILE:LINE: what" (a line-level error, no single field); returns -EINVAL. */
int fmt_bad_line(struct iolab_trace_reader *r, struct iolab_err *err, const char *what);

/* Splits s in place at any of seps (runs of them count once when merge is true, as for white
 * space; each one separates when false, as for CSV commas, which also trims spaces around each
 * field). Stores at most max field starts in col and returns how many fields there are (which
 * can be more than max). */
unsigned fmt_split(char *s, const char *seps, bool merge, char **col, unsigned max);

/* Strict unsigned decimal (digits only, no sign or spaces) up to max: true and *v. */
bool fmt_u64(const char *s, uint64_t max, uint64_t *v);
/* A decimal time "12", "12.5", ".5" in units of unit_ns nanoseconds (1000000000 for seconds,
 * 1000000 for ms, ...) to whole nanoseconds, exactly (fraction digits finer than 1 ns are
 * truncated). True and *ns, false if not such a number or beyond 2^63 ns. */
bool fmt_time(const char *s, uint64_t unit_ns, uint64_t *ns);
/* Writes ns in units of unit_ns with the digits that unit needs for 1 ns ("%llu.%06llu" for
 * ms); trailing zeros are kept so columns line up. */
int fmt_put_time(FILE *f, uint64_t ns, uint64_t unit_ns);

/* The target called name in h (added at the end if new). Returns 0 and *idx, or -EINVAL with
 * "FILE:LINE: field 'field': ..." when h already has IOLAB_TRACE_TARGETS_MAX targets. */
int fmt_target(struct iolab_trace_reader *r, struct iolab_trace_header *h, const char *field,
	       const char *name, uint16_t *idx, struct iolab_err *err);

/* Fills h's source as "import FORMAT FILE". */
void fmt_source(struct iolab_trace_reader *r, struct iolab_trace_header *h, const char *format);

/* Issue time of a timestamp ts counted from the first one (*first, set by the first call when
 * *have_first is false); in units of unit_ns. -EINVAL (field error) when ts is before the first
 * record or the result overflows. */
int fmt_rel_time(struct iolab_trace_reader *r, struct iolab_err *err, const char *field,
		 const char *text, uint64_t ts, uint64_t unit_ns, bool *have_first, uint64_t *first,
		 uint64_t *ns);

/* The first record, read ahead by read_open so that the header can name its target: the bad
 * lines before it (up to FMT_AHEAD_BAD of them) are kept and given back first by read_next, so
 * that --skip-bad counts them like any other. */
#define FMT_AHEAD_BAD 16
struct fmt_ahead {
	unsigned nbad, next;
	int bad_rc[FMT_AHEAD_BAD];
	struct iolab_err bad[FMT_AHEAD_BAD];
	bool have;
	struct iolab_trace_rec rec;
};
/* A format's "next record from the file" (1, 0 at the end, -errno). */
typedef int (*fmt_parse_fn)(struct iolab_trace_reader *r, struct iolab_trace_rec *rec,
			    struct iolab_err *err);
/* For read_open: reads ahead to the first record; gives h a target named none_name when the
 * input names none (an empty trace). Returns 0 or -errno (not for bad lines). */
int fmt_ahead_fill(struct fmt_ahead *a, struct iolab_trace_reader *r, fmt_parse_fn parse,
		   struct iolab_trace_header *h, const char *none_name, struct iolab_err *err);
/* For read_next: the deferred bad lines, then the first record, then parse's. */
int fmt_ahead_next(struct fmt_ahead *a, struct iolab_trace_reader *r, fmt_parse_fn parse,
		   struct iolab_trace_rec *rec, struct iolab_err *err);

/* For read_open, when the input is a regular file: one pass over all of it collecting the targets
 * into the header (so that a writer given the header knows them all; the lines that fail are
 * skipped here and reported by the real pass), then back to where it was, with the line count as
 * it was and the format's state cleared by reset. From a pipe nothing is done: targets first seen
 * after the first record are added to the header as they come. Returns 0 or -errno (a read
 * error). */
typedef void (*fmt_reset_fn)(struct iolab_trace_reader *r);
int fmt_prescan(struct iolab_trace_reader *r, FILE *f, fmt_parse_fn parse, fmt_reset_fn reset,
		struct iolab_err *err);

/* A line format's reader state (msr, alibaba, tencent, spc, mqsim): the reader's priv. Such a
 * format is its parse function; fmt_lines_open does the rest of read_open, fmt_lines_next and
 * fmt_lines_close are its read_next and read_close. */
struct fmt_lines {
	FILE *f;
	struct iolab_trace_header *h;
	fmt_parse_fn parse;
	bool have_first;      /* relative times (fmt_rel_time): the first record's time is known */
	uint64_t first;
	struct fmt_ahead ahead;
	char buf[FMT_LINE_MAX];
};
/* Opens a line format named format whose records carry completions or not; none_name names
 * the target of an empty trace. An input that yields no request (and has no bad line) is
 * refused: -EINVAL "FILE: no request in N lines". On failure frees what it allocated. Returns
 * 0 or -errno. */
int fmt_lines_open(struct iolab_trace_reader *r, FILE *f, struct iolab_trace_header *h,
		   const char *format, bool completions, const char *none_name, fmt_parse_fn parse,
		   struct iolab_err *err);
int fmt_lines_next(struct iolab_trace_reader *r, struct iolab_trace_rec *rec, struct iolab_err *err);
void fmt_lines_close(struct iolab_trace_reader *r);

/* For writers of formats that number their devices (DiskSim, MQSim): num[i] is target i's name
 * when every target is named by a distinct number (as those readers name them), else i. */
void fmt_target_numbers(const struct iolab_trace_header *h, uint32_t *num);

/* Writer side: a write error on f as "-EIO" with the message; returns 0 if f is fine. */
int fmt_write_check(FILE *f, const char *format, struct iolab_err *err);

#endif
