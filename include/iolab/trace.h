/* trace.h: I/O traces. A trace is a header (where it came from, its targets and their sizes) and
 * a stream of records (issue time, completion time when known, operation, offset, length,
 * target). Every format, iolab's own (.iot binary and its text form, docs/trace-format.md) and
 * the foreign ones it imports or exports, is one file with a const struct iolab_trace_format
 * listed in trace_formats.c, like the engines. Readers and writers stream: a trace of any size is
 * read and written in bounded memory.
 *
 * Errors are one line in struct iolab_err naming the file, the line (text formats) or record
 * (binary ones), and the field: "app.csv:1207: field 'offset': 'x12' is not a number". */
#ifndef IOLAB_TRACE_H
#define IOLAB_TRACE_H

#include <stdbool.h>
#include <stdint.h>
#include <stdio.h>

#include "iolab/error.h"

enum iolab_trace_op { IOLAB_TRACE_READ, IOLAB_TRACE_WRITE, IOLAB_TRACE_TRIM, IOLAB_TRACE_FLUSH };

#define IOLAB_TRACE_NO_TIME UINT64_MAX

struct iolab_trace_rec {
	uint64_t issue_ns;  /* since the trace's start (the first record need not be at 0) */
	uint64_t done_ns;   /* completion since the start, or IOLAB_TRACE_NO_TIME */
	uint64_t offset;    /* bytes */
	uint64_t len;       /* bytes (0 for a flush) */
	uint16_t target;    /* index into the header's targets */
	uint8_t op;         /* enum iolab_trace_op */
};

#define IOLAB_TRACE_TARGETS_MAX 256

struct iolab_trace_target {
	char name[128];     /* "/dev/sdb", "scratch.img", "disk 3" (an importer's volume id) */
	uint64_t size;      /* bytes, 0 if unknown */
};

struct iolab_trace_header {
	char source[256];   /* how it was made: "iolab record /dev/sdb", "import msr web_0.csv" */
	uint64_t start_unix_ns; /* wall-clock time of the start, 0 if unknown */
	bool completions;   /* records carry done_ns */
	unsigned ntargets;  /* at least 1 */
	struct iolab_trace_target target[IOLAB_TRACE_TARGETS_MAX];
};

/* Reading flags. */
#define IOLAB_TRACE_SKIP_BAD 1u /* a bad line or record is counted and skipped, not an error */

struct iolab_trace_reader;
struct iolab_trace_writer;

/* A format. A reader's or writer's state lives in priv; the framework (trace_io.c) owns the
 * file, the line counting and the error prefix. Any hook may be NULL: that format cannot be
 * read (import) or written (export). */
struct iolab_trace_format {
	const char *name;     /* "iot", "iot-text", "blkparse", "fio-iolog", "msr", ... */
	const char *about;    /* one line for `iolab trace formats` */
	/* Opens for reading: reads what the header needs from f (it may read the first records
	 * and keep them) and fills h. Returns 0 or -errno with err set. */
	int (*read_open)(struct iolab_trace_reader *r, FILE *f, struct iolab_trace_header *h,
			 struct iolab_err *err);
	/* The next record: 1 and *rec, 0 at the end, or -errno (err set; with SKIP_BAD the
	 * framework counts and skips -EINVAL from a bad line and calls again). */
	int (*read_next)(struct iolab_trace_reader *r, struct iolab_trace_rec *rec,
			 struct iolab_err *err);
	void (*read_close)(struct iolab_trace_reader *r);
	int (*write_open)(struct iolab_trace_writer *w, FILE *f, const struct iolab_trace_header *h,
			  struct iolab_err *err);
	int (*write_rec)(struct iolab_trace_writer *w, const struct iolab_trace_rec *rec,
			 struct iolab_err *err);
	/* Writes what comes after the last record (a count, a trailer); does not close f. */
	int (*write_finish)(struct iolab_trace_writer *w, struct iolab_err *err);
};

/* The registry (trace_formats.c): formats by index (NULL after the last) or by name. */
const struct iolab_trace_format *iolab_trace_format_at(unsigned i);
const struct iolab_trace_format *iolab_trace_format_find(const char *name);

/* Opens path (a regular file, or "-" for standard input) as a trace of format fmt (NULL: iolab's
 * own, binary or text, told apart by its first bytes). Returns 0 or -errno with err set. */
int iolab_trace_open(const char *path, const struct iolab_trace_format *fmt, unsigned flags,
		     struct iolab_trace_reader **r, struct iolab_err *err);
const struct iolab_trace_header *iolab_trace_header(const struct iolab_trace_reader *r);
/* 1 with *rec, 0 at the end, -errno with err set. */
int iolab_trace_next(struct iolab_trace_reader *r, struct iolab_trace_rec *rec, struct iolab_err *err);
/* Bad lines skipped so far (IOLAB_TRACE_SKIP_BAD). */
uint64_t iolab_trace_skipped(const struct iolab_trace_reader *r);
/* One line the reader wants said about what it read past (fio's skipped v3 `wait` actions),
 * or NULL. The caller prints it as a warning; the library never prints. */
const char *iolab_trace_note(const struct iolab_trace_reader *r);
void iolab_trace_close(struct iolab_trace_reader *r);

/* For format modules: the reader's or writer's private state, the file name and the current
 * line (text formats count lines here; binary ones records), for messages. */
void **iolab_trace_reader_priv(struct iolab_trace_reader *r);
const char *iolab_trace_reader_name(const struct iolab_trace_reader *r);
uint64_t *iolab_trace_reader_line(struct iolab_trace_reader *r);
/* Sets the reader's note (iolab_trace_note) unless one is set already. */
void iolab_trace_reader_note(struct iolab_trace_reader *r, const char *fmt, ...)
	__attribute__((format(printf, 2, 3)));
void **iolab_trace_writer_priv(struct iolab_trace_writer *w);

/* Writes a trace of format fmt to f (from iolab_out_open: outfile.h), header h first. */
int iolab_trace_create(FILE *f, const struct iolab_trace_format *fmt,
		       const struct iolab_trace_header *h, struct iolab_trace_writer **w,
		       struct iolab_err *err);
int iolab_trace_write(struct iolab_trace_writer *w, const struct iolab_trace_rec *rec,
		      struct iolab_err *err);
/* Finishes the trace (the format's trailer) and frees w; f stays open for the caller to
 * commit. Returns 0 or -errno. */
int iolab_trace_finish(struct iolab_trace_writer *w, struct iolab_err *err);

/* --scale's memory of each target's previous request: where it ended before and after the
 * mapping, so that a request starting where the previous one ended still does (a sequential
 * run stays one). */
struct iolab_trace_runs {
	uint64_t src_end[IOLAB_TRACE_TARGETS_MAX], dst_end[IOLAB_TRACE_TARGETS_MAX];
	bool seen[IOLAB_TRACE_TARGETS_MAX];
};

/* Transforms applied to records on the way from a reader (trace_xform.c): --clip, --shift,
 * --scale, --wrap, --op, --target, --speed, --slice. */
struct iolab_trace_xform {
	uint64_t clip_start, clip_len;   /* keep only requests inside [start, start+len); len 0: off.
					    Kept offsets become relative to clip_start */
	int64_t shift;                   /* added to every offset (after clipping) */
	uint64_t fit_size;               /* --scale or --wrap to this size (bytes; 0: neither) */
	bool wrap;                       /* modulo fit_size instead of scaling */
	uint64_t from_size;              /* --scale: the source's size (the header's target size,
					    or the highest offset + len, from a first pass). At
					    most fit_size: offsets are kept (never scaled up) */
	struct iolab_trace_runs *runs;   /* --scale: back-to-back requests kept so, in the order
					    given to apply (zeroed before the first); NULL: each
					    request scaled on its own */
	uint64_t bound;                  /* offsets + len must stay within this (0: no check):
					    otherwise an error naming the first such record */
	unsigned ops;                    /* bit (1 << op) kept; 0: all */
	int target;                      /* keep only this target, or -1 */
	double speed;                    /* times divided by this (0 or 1: unchanged) */
	uint64_t slice_start_ns, slice_len_ns; /* keep issue times in the slice; len 0: all */
};
/* Applies x to rec (number n, 1-based, for messages). Returns 1 keep, 0 drop, -EINVAL (out of
 * bounds: err names record n and its offset). */
int iolab_trace_xform_apply(const struct iolab_trace_xform *x, struct iolab_trace_rec *rec,
			    uint64_t n, struct iolab_err *err);
/* Checks x's target filter against the targets of h (option names it: "--target"): a target the
 * trace does not have would keep nothing. Returns 0, or -EINVAL with "OPTION N: the trace has 1
 * target (counted from 0): 0 (NAME)" listing them. */
int iolab_trace_xform_check_target(const struct iolab_trace_xform *x,
				   const struct iolab_trace_header *h, const char *option,
				   struct iolab_err *err);

#endif
