/* trace_access.c: what the formats (fmt_*.c) use of a reader or writer (trace_internal.h):
 * their private state, name and line counter, reading a line, parsing numbers and operation
 * names, escaping names. It calls no format, so the formats and the reader that dispatches to
 * them (trace_io.c) do not depend on each other in a circle. */
#include <errno.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "iolab/trace.h"
#include "trace/trace_internal.h"
#include "trace/trace_objects.h"

void **iolab_trace_reader_priv(struct iolab_trace_reader *r) { return &r->priv; }
const char *iolab_trace_reader_name(const struct iolab_trace_reader *r) { return r->name; }
uint64_t *iolab_trace_reader_line(struct iolab_trace_reader *r) { return &r->line; }
void **iolab_trace_writer_priv(struct iolab_trace_writer *w) { return &w->priv; }
const struct iolab_trace_header *iolab_trace_header(const struct iolab_trace_reader *r) { return &r->h; }
uint64_t iolab_trace_skipped(const struct iolab_trace_reader *r) { return r->skipped; }
const char *iolab_trace_note(const struct iolab_trace_reader *r) { return r->note[0] ? r->note : NULL; }

void iolab_trace_reader_note(struct iolab_trace_reader *r, const char *fmt, ...)
{
	if (r->note[0])
		return; /* the first stays: one warning a trace */
	va_list ap;
	va_start(ap, fmt);
	vsnprintf(r->note, sizeof(r->note), fmt, ap);
	va_end(ap);
}

int iolab_trace_getline(struct iolab_trace_reader *r, FILE *f, char *buf, size_t n,
			struct iolab_err *err)
{
	size_t len = 0;
	bool too_long = false, nul = false;
	int c;
	while ((c = getc(f)) != EOF && c != '\n') {
		if (c == 0)
			nul = true;
		if (len + 1 < n)
			buf[len++] = (char)c;
		else
			too_long = true;
	}
	if (c == EOF && ferror(f))
		return iolab_errf(err, EIO, "read error");
	if (c == EOF && len == 0 && !too_long)
		return 0;
	r->line++;
	if (len && buf[len - 1] == '\r')
		len--;
	buf[len] = 0;
	if (too_long)
		return iolab_errf(err, EINVAL, "the line is longer than %zu bytes", n - 1);
	if (nul)
		return iolab_errf(err, EINVAL, "the line holds a NUL byte (is this a text trace?)");
	return 1;
}

int iolab_trace_parse_u64(const char *field, const char *s, uint64_t *v, struct iolab_err *err)
{
	uint64_t x = 0;
	const char *p = s;
	if (!*p)
		return iolab_errf(err, EINVAL, "field '%s': missing", field);
	for (; *p; p++) {
		if (*p < '0' || *p > '9' || x > (UINT64_MAX - (uint64_t)(*p - '0')) / 10)
			return iolab_errf(err, EINVAL, "field '%s': '%.40s' is not a number", field, s);
		x = x * 10 + (uint64_t)(*p - '0');
	}
	*v = x;
	return 0;
}

static const char *const op_names[] = {"read", "write", "trim", "flush"};

const char *iolab_trace_op_name(unsigned op)
{
	return op <= IOLAB_TRACE_FLUSH ? op_names[op] : "?";
}

int iolab_trace_op_parse(const char *name)
{
	for (int i = 0; i <= IOLAB_TRACE_FLUSH; i++)
		if (!strcmp(name, op_names[i]))
			return i;
	return -1;
}

void iolab_trace_put_escaped(FILE *f, const char *s)
{
	for (; *s; s++) {
		unsigned char c = (unsigned char)*s;
		if (c < 0x20 || c == 0x7f || c == '\\')
			fprintf(f, "\\x%02x", c);
		else
			putc(c, f);
	}
}

static int hexval(char c)
{
	return c >= '0' && c <= '9' ? c - '0' : c >= 'a' && c <= 'f' ? c - 'a' + 10
	       : c >= 'A' && c <= 'F' ? c - 'A' + 10 : -1;
}

int iolab_trace_unescape(const char *s, char *out, size_t n)
{
	size_t len = 0;
	while (*s) {
		int c = (unsigned char)*s++;
		if (c == '\\') {
			int hi, lo;
			if (*s != 'x' || (hi = hexval(s[1])) < 0 || (lo = hexval(s[2])) < 0 || !(hi | lo))
				return -EINVAL;
			c = hi * 16 + lo;
			s += 3;
		}
		if (len + 1 >= n)
			return -EINVAL;
		out[len++] = (char)c;
	}
	out[len] = 0;
	return 0;
}
