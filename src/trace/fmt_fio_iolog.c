/* fmt_fio_iolog.c: fio's I/O logs (fio(1), "TRACE FILE FORMAT"): version 2 read, version 3 read
 * and written. The first line is "fio version 2 iolog" or "fio version 3 iolog"; then a line an
 * action:
 *   v2: FILENAME ACTION [OFFSET LENGTH]      v3: TIMESTAMP FILENAME ACTION [OFFSET LENGTH]
 * ACTION add, open or close (a file), or read, write, trim, sync, datasync (an I/O; offset and
 * length bytes; a sync is a flush), or in v2 wait. Every file added is a target, named by its
 * path.
 *
 * Times are read as fio 3.33 replays them (fio's iolog.c: read_iolog, delay_since_ttime,
 * iolog_delay, read_iolog_get):
 * - v2 `wait N` holds the next I/O until N milliseconds after fio started (it sleeps for N minus
 *   mtime_since_genesis(), if positive): a request issues at the largest wait before it, not
 *   at their sum, and without waits every request issues at 0.
 * - v3: each line waits for its timestamp minus the previous line's (microseconds), counted
 *   from the previous issue; none while the previous timestamp is 0 (so the first I/O after
 *   "0 FILE add" issues at 0, whatever its own timestamp) or when the timestamp goes back.
 *   File actions take their delay too. A `wait` action, which v3 does not have, is skipped
 *   (fio logs "ignoring wait command") after its timestamp was taken as the previous one: so
 *   its interval is lost, as in fio. The reader's note (iolab_trace_note) says so once.
 * Written logs (v3) carry every time + 1 us (WRITE_EPOCH_US): fio takes no delay while the
 * previous timestamp is 0, so a log whose lines start at 0 would lose its first gap. They add
 * and open every target at that first timestamp, write "TIMESTAMP NAME sync 0 0" for a flush
 * (fio's reader takes an I/O action only with five fields) and close the targets at the last
 * request's timestamp. Read back, the requests have the times they were written with. */
#include <errno.h>
#include <inttypes.h>
#include <stdlib.h>
#include <string.h>

#include "trace/fmt_text.h"
#include "trace/trace_fmts.h"

#define US 1000u
#define MS 1000000u
#define TIME_LIMIT_US ((UINT64_C(1) << 62) / US) /* times stay below 2^62 ns */
#define WRITE_EPOCH_US 1u /* a written log's timestamp of time 0 */

struct fio {
	FILE *f;
	struct iolab_trace_header *h;
	int version;
	uint64_t not_before_ns; /* v2: the largest wait so far, in ns */
	uint64_t last_ttime;    /* v3: the previous line's timestamp (us; 0 before any) */
	uint64_t clock_us;      /* v3: the replay's time after the previous line */
	uint64_t files;         /* file actions (add, open, close) */
	struct fmt_ahead ahead;
	char buf[FMT_LINE_MAX];
};

static int io_action(const char *a)
{
	if (!strcmp(a, "read"))
		return IOLAB_TRACE_READ;
	if (!strcmp(a, "write"))
		return IOLAB_TRACE_WRITE;
	if (!strcmp(a, "trim"))
		return IOLAB_TRACE_TRIM;
	if (!strcmp(a, "sync") || !strcmp(a, "datasync"))
		return IOLAB_TRACE_FLUSH;
	return -1;
}

static int fio_parse(struct iolab_trace_reader *r, struct iolab_trace_rec *rec, struct iolab_err *err)
{
	struct fio *io = *iolab_trace_reader_priv(r);
	for (;;) {
		int rc = fmt_getline(r, io->f, io->buf, err);
		if (rc <= 0)
			return rc;
		char *col[6];
		unsigned n = fmt_split(io->buf, " \t", true, col, 6);
		if (n == 0)
			continue;
		unsigned at = 0;
		uint64_t delay = 0; /* v3: added once the line is accepted (as fio does) */
		if (io->version == 3) {
			uint64_t ts;
			if (!fmt_u64(col[0], TIME_LIMIT_US, &ts))
				return fmt_bad(r, err, "timestamp", col[0], "is not a time in microseconds "
					       "(below 2^62 ns)");
			delay = io->last_ttime && ts >= io->last_ttime ? ts - io->last_ttime : 0;
			io->last_ttime = ts;
			if (n >= 3 && !strcmp(col[2], "wait")) {
				/* the first such line is named; the note stays once set */
				iolab_trace_reader_note(r, "%s:%" PRIu64 ": 'wait' lines in a version 3 "
							"log are skipped, as fio 3.x skips them (the "
							"timestamps give the times)",
							iolab_trace_reader_name(r),
							*iolab_trace_reader_line(r));
				continue;
			}
			if (delay > TIME_LIMIT_US - io->clock_us)
				return fmt_bad(r, err, "timestamp", col[0], "takes the replay beyond 2^62 ns");
			at = 1;
		}
		if (n != at + 2 && n != at + 4)
			return fmt_bad_line(r, err, io->version == 3 ?
					    "expected TIMESTAMP FILENAME ACTION [OFFSET LENGTH]" :
					    "expected FILENAME ACTION [OFFSET LENGTH]");
		const char *name = col[at], *act = col[at + 1];
		if (strlen(name) >= sizeof(io->h->target[0].name))
			return fmt_bad(r, err, "filename", name, "is longer than 127 bytes");
		if (n == at + 2) {
			if (strcmp(act, "add") && strcmp(act, "open") && strcmp(act, "close"))
				return fmt_bad(r, err, "action", act, "is not add, open or close (or an "
					       "I/O action with an offset and a length)");
			if (!strcmp(act, "add")) {
				uint16_t t;
				rc = fmt_target(r, io->h, "filename", name, &t, err);
				if (rc)
					return rc;
			}
			io->files++;
			io->clock_us += delay;
			continue;
		}
		uint64_t off, len;
		if (!fmt_u64(col[at + 2], UINT64_MAX, &off))
			return fmt_bad(r, err, "offset", col[at + 2], "is not a byte offset");
		if (!fmt_u64(col[at + 3], UINT32_MAX, &len))
			return fmt_bad(r, err, "length", col[at + 3], "is not a byte count");
		if (off + len < off && strcmp(act, "wait"))
			return fmt_bad(r, err, "length", col[at + 3], FMT_BEYOND_2_64);
		if (!strcmp(act, "wait")) { /* v2 only: v3 skipped them above */
			if (off > (UINT64_C(1) << 62) / MS)
				return fmt_bad(r, err, "offset", col[at + 2], "is too long a wait "
					       "(milliseconds since the start, below 2^62 ns)");
			if (off * MS > io->not_before_ns)
				io->not_before_ns = off * MS;
			continue;
		}
		int op = io_action(act);
		if (op < 0)
			return fmt_bad(r, err, "action", act, "is not read, write, trim, sync, datasync"
				       ", wait, add, open or close");
		rc = fmt_target(r, io->h, "filename", name, &rec->target, err);
		if (rc)
			return rc;
		io->clock_us += delay;
		rec->issue_ns = io->version == 3 ? io->clock_us * US : io->not_before_ns;
		rec->done_ns = IOLAB_TRACE_NO_TIME;
		rec->op = (uint8_t)op;
		rec->offset = op == IOLAB_TRACE_FLUSH ? 0 : off;
		rec->len = op == IOLAB_TRACE_FLUSH ? 0 : len;
		return 1;
	}
}

static void fio_close(struct iolab_trace_reader *r);

/* After fmt_prescan: back to the state before the first line. */
static void fio_reset(struct iolab_trace_reader *r)
{
	struct fio *io = *iolab_trace_reader_priv(r);
	io->not_before_ns = io->last_ttime = io->clock_us = io->files = 0;
}

static int fio_open_priv(struct iolab_trace_reader *r, FILE *f, struct iolab_trace_header *h,
		    struct iolab_err *err)
{
	struct fio *io = calloc(1, sizeof(*io));
	if (!io)
		return iolab_errf(err, ENOMEM, "%s: out of memory", iolab_trace_reader_name(r));
	io->f = f;
	io->h = h;
	*iolab_trace_reader_priv(r) = io;
	fmt_source(r, h, "fio-iolog");
	h->completions = false;
	h->ntargets = 0;
	int rc = fmt_getline(r, f, io->buf, err);
	if (rc < 0)
		return rc;
	if (rc == 0)
		return iolab_errf(err, EINVAL, "%s: empty (a fio iolog starts with \"fio version 2 "
				  "iolog\" or \"fio version 3 iolog\")", iolab_trace_reader_name(r));
	if (!strncmp(io->buf, "fio version 2 iolog", 19))
		io->version = 2;
	else if (!strncmp(io->buf, "fio version 3 iolog", 19))
		io->version = 3;
	else
		return fmt_bad(r, err, "version", io->buf, "is not \"fio version 2 iolog\" or \"fio "
			       "version 3 iolog\" (version 1 logs are not read, as fio no longer "
			       "reads them)");
	int prc = fmt_prescan(r, f, fio_parse, fio_reset, err);
	if (!prc)
		prc = fmt_ahead_fill(&io->ahead, r, fio_parse, h, "fio", err);
	if (!prc && !io->ahead.have && !io->ahead.nbad)
		return iolab_errf(err, EINVAL, "%s: no I/O in the log (%" PRIu64 " file actions, no "
				  "read, write, trim or sync): nothing to replay (fio refuses such a log "
				  "too)", iolab_trace_reader_name(r), io->files);
	return prc;
}

/* read_open; on failure frees what it allocated (read_close is only for an opened reader) */
static int fio_open(struct iolab_trace_reader *r, FILE *f, struct iolab_trace_header *h,
		   struct iolab_err *err)
{
	int rc = fio_open_priv(r, f, h, err);
	if (rc)
		fio_close(r);
	return rc;
}

static int fio_next(struct iolab_trace_reader *r, struct iolab_trace_rec *rec, struct iolab_err *err)
{
	struct fio *io = *iolab_trace_reader_priv(r);
	return fmt_ahead_next(&io->ahead, r, fio_parse, rec, err);
}

static void fio_close(struct iolab_trace_reader *r)
{
	free(*iolab_trace_reader_priv(r));
	*iolab_trace_reader_priv(r) = NULL;
}

struct fio_w {
	FILE *f;
	unsigned ntargets;
	uint64_t last_us;
	char name[IOLAB_TRACE_TARGETS_MAX][128];
};

static const char *const op_word[] = {"read", "write", "trim", "sync"};

static int fio_wopen(struct iolab_trace_writer *w, FILE *f, const struct iolab_trace_header *h,
		     struct iolab_err *err)
{
	struct fio_w *io = calloc(1, sizeof(*io));
	if (!io)
		return iolab_errf(err, ENOMEM, "fio-iolog: out of memory");
	io->f = f;
	io->ntargets = h->ntargets;
	io->last_us = WRITE_EPOCH_US;
	*iolab_trace_writer_priv(w) = io;
	fprintf(f, "fio version 3 iolog\n");
	for (unsigned i = 0; i < h->ntargets; i++) {
		/* fio splits its lines at white space: a name keeps none */
		char *n = io->name[i];
		snprintf(n, sizeof(io->name[i]), "%s", h->target[i].name);
		for (char *p = n; *p; p++)
			if ((unsigned char)*p <= ' ' || *p == 0x7f)
				*p = '_';
		if (!*n)
			snprintf(n, sizeof(io->name[i]), "target%u", i);
		fprintf(f, "%u %s add\n", WRITE_EPOCH_US, n);
	}
	for (unsigned i = 0; i < h->ntargets; i++)
		fprintf(f, "%u %s open\n", WRITE_EPOCH_US, io->name[i]);
	return fmt_write_check(f, "fio-iolog", err);
}

static int fio_write(struct iolab_trace_writer *w, const struct iolab_trace_rec *rec,
		     struct iolab_err *err)
{
	struct fio_w *io = *iolab_trace_writer_priv(w);
	if (rec->len > UINT32_MAX)
		return iolab_errf(err, EINVAL, "fio-iolog: field 'len': %" PRIu64 " is above fio's "
				  "limit of %u bytes", rec->len, UINT32_MAX);
	uint64_t us = rec->issue_ns / US + WRITE_EPOCH_US;
	if (us > io->last_us)
		io->last_us = us;
	bool flush = rec->op == IOLAB_TRACE_FLUSH;
	fprintf(io->f, "%" PRIu64 " %s %s %" PRIu64 " %" PRIu64 "\n", us, io->name[rec->target],
		op_word[rec->op], flush ? 0 : rec->offset, flush ? 0 : rec->len);
	return fmt_write_check(io->f, "fio-iolog", err);
}

static int fio_finish(struct iolab_trace_writer *w, struct iolab_err *err)
{
	struct fio_w *io = *iolab_trace_writer_priv(w);
	for (unsigned i = 0; i < io->ntargets; i++)
		fprintf(io->f, "%" PRIu64 " %s close\n", io->last_us, io->name[i]);
	int rc = fmt_write_check(io->f, "fio-iolog", err);
	free(io);
	*iolab_trace_writer_priv(w) = NULL;
	return rc;
}

const struct iolab_trace_format iolab_trace_fmt_fio_iolog = {
	.name = "fio-iolog",
	.about = "fio iolog v2 (read) and v3 (read and write; times in us)",
	.read_open = fio_open,
	.read_next = fio_next,
	.read_close = fio_close,
	.write_open = fio_wopen,
	.write_rec = fio_write,
	.write_finish = fio_finish,
};
