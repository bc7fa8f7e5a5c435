/* trace_io.c: the streaming trace reader and writer of include/iolab/trace.h. It owns the file
 * (a regular file or standard input, read through a stdio buffer), the line counter, the checks
 * every record passes whatever its format (op, target, completion, offset + length), skipping
 * bad lines (IOLAB_TRACE_SKIP_BAD), the "FILE:LINE: " prefix of errors, and telling the binary
 * .iot from its text form by the first byte. The formats themselves are in fmt_*.c, the
 * helpers they share in trace_access.c. */
#include <errno.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "iolab/outfile.h"
#include "iolab/textfile.h"
#include "iolab/trace.h"
#include "trace/trace_internal.h"
#include "trace/trace_objects.h"

#define IOT_FIRST_BYTE 0x89 /* the binary form's magic starts with it (fmt_iot.c) */

/* Adds "NAME:LINE: " before a format's message unless it already starts with the name. */
static void prefix_error(struct iolab_trace_reader *r, struct iolab_err *err)
{
	if (!err)
		return;
	size_t n = strlen(r->name);
	if (!strncmp(err->msg, r->name, n) && err->msg[n] == ':')
		return;
	if (r->line)
		iolab_err_prefix(err, "%s:%llu", r->name, (unsigned long long)r->line);
	else
		iolab_err_prefix(err, "%s", r->name);
}

/* The header checks of every format: 1..IOLAB_TRACE_TARGETS_MAX targets, strings terminated. */
static int check_header(struct iolab_trace_header *h, struct iolab_err *err)
{
	h->source[sizeof(h->source) - 1] = 0;
	if (h->ntargets < 1 || h->ntargets > IOLAB_TRACE_TARGETS_MAX)
		return iolab_errf(err, EINVAL, "field 'targets': %u targets (1 to %d)", h->ntargets,
				  IOLAB_TRACE_TARGETS_MAX);
	for (unsigned i = 0; i < h->ntargets; i++)
		h->target[i].name[sizeof(h->target[i].name) - 1] = 0;
	return 0;
}

/* The record checks of every format, against header h. */
static int check_rec(const struct iolab_trace_header *h, const struct iolab_trace_rec *rec,
		     struct iolab_err *err)
{
	if (rec->op > IOLAB_TRACE_FLUSH)
		return iolab_errf(err, EINVAL, "field 'op': %u is not an operation", rec->op);
	if (rec->target >= h->ntargets)
		return iolab_errf(err, EINVAL, "field 'target': %u, but the trace has %u target%s",
				  rec->target, h->ntargets, h->ntargets == 1 ? "" : "s");
	if (rec->done_ns != IOLAB_TRACE_NO_TIME && rec->done_ns < rec->issue_ns)
		return iolab_errf(err, EINVAL, "field 'done': %llu is before the issue time %llu",
				  (unsigned long long)rec->done_ns, (unsigned long long)rec->issue_ns);
	if (rec->offset + rec->len < rec->offset)
		return iolab_errf(err, EINVAL, "field 'len': offset %llu + length %llu overflows",
				  (unsigned long long)rec->offset, (unsigned long long)rec->len);
	return 0;
}

/* Opens path for reading: standard input for "-" (a pipe is read as a stream), otherwise only a
 * regular file: a named FIFO is refused at once, not waited on (iolab_open_regular). */
static int open_input(struct iolab_trace_reader *r, const char *path, struct iolab_err *err)
{
	if (!strcmp(path, "-")) {
		r->f = stdin;
		snprintf(r->name, sizeof(r->name), "stdin");
		return 0;
	}
	snprintf(r->name, sizeof(r->name), "%s", path);
	iolab_input_note(path);
	int fd = iolab_open_regular(path, "a trace is a file, or '-' for standard input", err);
	if (fd < 0)
		return fd;
	r->f = fdopen(fd, "rb");
	if (!r->f) {
		int e = errno;
		close(fd);
		return iolab_errf(err, e, "%s: cannot open: %s", path, strerror(e));
	}
	r->own = true;
	setvbuf(r->f, NULL, _IOFBF, 1 << 16);
	return 0;
}

/* iolab's own formats: the binary one starts with byte 0x89, anything else is read as text. */
static const struct iolab_trace_format *sniff(FILE *f)
{
	int c = getc(f);
	if (c != EOF)
		ungetc(c, f);
	return iolab_trace_format_find(c == IOT_FIRST_BYTE ? "iot" : "iot-text");
}

int iolab_trace_open(const char *path, const struct iolab_trace_format *fmt, unsigned flags,
		     struct iolab_trace_reader **out, struct iolab_err *err)
{
	*out = NULL;
	struct iolab_trace_reader *r = calloc(1, sizeof(*r));
	if (!r)
		return iolab_errf(err, ENOMEM, "%s: out of memory", path);
	r->flags = flags;
	int rc = open_input(r, path, err);
	if (!rc && !fmt)
		fmt = sniff(r->f);
	if (!rc && (!fmt || !fmt->read_open || !fmt->read_next))
		rc = iolab_errf(err, EINVAL, "%s: format '%s' cannot be read", path,
				fmt ? fmt->name : "?");
	if (!rc) {
		r->fmt = fmt;
		rc = fmt->read_open(r, r->f, &r->h, err);
		r->opened = rc == 0;
		if (!rc)
			rc = check_header(&r->h, err);
		if (rc)
			prefix_error(r, err);
	}
	if (rc) {
		iolab_trace_close(r);
		return rc;
	}
	*out = r;
	return 0;
}

int iolab_trace_next(struct iolab_trace_reader *r, struct iolab_trace_rec *rec, struct iolab_err *err)
{
	for (;;) {
		memset(rec, 0, sizeof(*rec));
		int rc = r->fmt->read_next(r, rec, err);
		if (rc == 1)
			rc = check_rec(&r->h, rec, err) ? -EINVAL : 1;
		if (rc == -EINVAL && (r->flags & IOLAB_TRACE_SKIP_BAD)) {
			r->skipped++;
			continue;
		}
		if (rc < 0)
			prefix_error(r, err);
		return rc;
	}
}

void iolab_trace_close(struct iolab_trace_reader *r)
{
	if (!r)
		return;
	if (r->opened && r->fmt->read_close)
		r->fmt->read_close(r);
	if (r->own && r->f)
		fclose(r->f);
	free(r);
}

int iolab_trace_create(FILE *f, const struct iolab_trace_format *fmt,
		       const struct iolab_trace_header *h, struct iolab_trace_writer **out,
		       struct iolab_err *err)
{
	*out = NULL;
	if (!fmt || !fmt->write_open || !fmt->write_rec)
		return iolab_errf(err, EINVAL, "format '%s' cannot be written", fmt ? fmt->name : "?");
	struct iolab_trace_writer *w = calloc(1, sizeof(*w));
	if (!w)
		return iolab_errf(err, ENOMEM, "out of memory");
	w->f = f;
	w->fmt = fmt;
	w->h = *h;
	int rc = check_header(&w->h, err);
	if (!rc)
		rc = fmt->write_open(w, f, &w->h, err);
	if (rc) {
		free(w->priv); /* a format that failed in write_open leaves nothing else */
		free(w);
		return rc;
	}
	w->opened = true;
	*out = w;
	return 0;
}

int iolab_trace_write(struct iolab_trace_writer *w, const struct iolab_trace_rec *rec,
		      struct iolab_err *err)
{
	w->n++;
	int rc = check_rec(&w->h, rec, err);
	if (!rc)
		rc = w->fmt->write_rec(w, rec, err);
	if (!rc && ferror(w->f))
		rc = iolab_errf(err, EIO, "write error");
	if (rc)
		iolab_err_prefix(err, "record %llu", (unsigned long long)w->n);
	return rc;
}

int iolab_trace_finish(struct iolab_trace_writer *w, struct iolab_err *err)
{
	int rc = 0;
	if (w->fmt->write_finish)
		rc = w->fmt->write_finish(w, err);
	else
		free(w->priv);
	if (!rc && (fflush(w->f) || ferror(w->f)))
		rc = iolab_errf(err, EIO, "write error: %s", strerror(errno ? errno : EIO));
	free(w);
	return rc;
}
