/* fmt_iot.c: iolab's binary trace format, .iot (docs/trace-format.md has it byte by byte). A
 * fixed little-endian header (magic, version, flags, start time, source, targets and sizes), then
 * one record per request: a tag byte (op and which fields repeat the previous record's) and
 * LEB128 varints of the differences from the previous record, then an end marker with the record
 * count, so a truncated or extended file is an error. Reading and writing keep only the previous
 * record: memory does not grow with the trace. */
#include <errno.h>
#include <stdlib.h>
#include <string.h>

#include "iolab/trace.h"
#include "trace/trace_internal.h"

static const unsigned char iot_magic[8] = {0x89, 'I', 'O', 'T', '\r', '\n', 0x1a, '\n'};
#define IOT_VERSION 1
#define IOT_FLAG_COMPLETIONS 1u

/* The tag byte of a record. */
#define TAG_OP 0x03u       /* bits 0-1: enum iolab_trace_op */
#define TAG_TARGET 0x04u   /* a target varint follows (else the previous record's) */
#define TAG_SEQ 0x08u      /* offset = previous offset + previous length (else a zigzag delta) */
#define TAG_SAMELEN 0x10u  /* length = previous length (else a varint) */
#define TAG_DONE 0x20u     /* a completion varint (done - issue) follows */
#define TAG_END 0xffu      /* the end marker: a varint record count follows, then the file ends */

/* What both directions keep: the previous record, and the file. */
struct iot_state {
	FILE *f;
	uint64_t issue, offset, len, n;
	uint16_t target;
	bool completions;
};

static uint64_t zigzag(uint64_t d) { return (d << 1) ^ (0 - (d >> 63)); }
static uint64_t unzigzag(uint64_t z) { return (z >> 1) ^ (0 - (z & 1)); }

static void remember(struct iot_state *s, const struct iolab_trace_rec *rec)
{
	s->issue = rec->issue_ns;
	s->offset = rec->offset;
	s->len = rec->len;
	s->target = rec->target;
	s->n++;
}

/* ---- writing ---- */

static void put_le(FILE *f, uint64_t v, unsigned bytes)
{
	for (unsigned i = 0; i < bytes; i++)
		putc((int)((v >> (8 * i)) & 0xff), f);
}

static void put_varint(FILE *f, uint64_t v)
{
	while (v >= 0x80) {
		putc((int)(v & 0x7f) | 0x80, f);
		v >>= 7;
	}
	putc((int)v, f);
}

static int iot_write_open(struct iolab_trace_writer *w, FILE *f, const struct iolab_trace_header *h,
			  struct iolab_err *err)
{
	size_t slen = strlen(h->source);
	for (unsigned i = 0; i < h->ntargets; i++)
		if (strlen(h->target[i].name) > 127)
			return iolab_errf(err, EINVAL, "target %u: name longer than 127 bytes", i);
	struct iot_state *s = calloc(1, sizeof(*s));
	if (!s)
		return iolab_errf(err, ENOMEM, "out of memory");
	s->f = f;
	s->completions = h->completions;
	*iolab_trace_writer_priv(w) = s;
	fwrite(iot_magic, 1, sizeof(iot_magic), f);
	put_le(f, IOT_VERSION, 2);
	put_le(f, h->completions ? IOT_FLAG_COMPLETIONS : 0, 2);
	put_le(f, h->start_unix_ns, 8);
	put_le(f, slen, 2);
	fwrite(h->source, 1, slen, f);
	put_le(f, h->ntargets, 2);
	for (unsigned i = 0; i < h->ntargets; i++) {
		size_t n = strlen(h->target[i].name);
		putc((int)n, f);
		fwrite(h->target[i].name, 1, n, f);
		put_le(f, h->target[i].size, 8);
	}
	return 0;
}

static int iot_write_rec(struct iolab_trace_writer *w, const struct iolab_trace_rec *rec,
			 struct iolab_err *err)
{
	(void)err;
	struct iot_state *s = *iolab_trace_writer_priv(w);
	unsigned tag = rec->op & TAG_OP;
	bool done = s->completions && rec->done_ns != IOLAB_TRACE_NO_TIME;
	uint64_t expect = s->offset + s->len;
	if (rec->target != s->target)
		tag |= TAG_TARGET;
	if (rec->offset == expect)
		tag |= TAG_SEQ;
	if (rec->len == s->len)
		tag |= TAG_SAMELEN;
	if (done)
		tag |= TAG_DONE;
	putc((int)tag, s->f);
	put_varint(s->f, zigzag(rec->issue_ns - s->issue));
	if (done)
		put_varint(s->f, rec->done_ns - rec->issue_ns);
	if (tag & TAG_TARGET)
		put_varint(s->f, rec->target);
	if (!(tag & TAG_SEQ))
		put_varint(s->f, zigzag(rec->offset - expect));
	if (!(tag & TAG_SAMELEN))
		put_varint(s->f, rec->len);
	remember(s, rec);
	return 0;
}

static int iot_write_finish(struct iolab_trace_writer *w, struct iolab_err *err)
{
	(void)err;
	struct iot_state *s = *iolab_trace_writer_priv(w);
	putc(TAG_END, s->f);
	put_varint(s->f, s->n);
	free(s);
	*iolab_trace_writer_priv(w) = NULL;
	return 0;
}

/* ---- reading ---- */

/* "NAME: WHERE: " before a message: every error names the file. */
static int fail(struct iolab_trace_reader *r, struct iolab_err *err, int code, const char *where,
		const char *msg)
{
	return iolab_errf(err, code, "%s: %s: %s", iolab_trace_reader_name(r), where, msg);
}

static int get_bytes(FILE *f, void *buf, size_t n)
{
	return fread(buf, 1, n, f) == n ? 0 : -1;
}

static int get_le(FILE *f, unsigned bytes, uint64_t *v)
{
	unsigned char b[8];
	if (get_bytes(f, b, bytes))
		return -1;
	*v = 0;
	for (unsigned i = 0; i < bytes; i++)
		*v |= (uint64_t)b[i] << (8 * i);
	return 0;
}

/* A LEB128 varint of at most 64 bits: 0, -1 at the end of the file, -2 too long. */
static int get_varint(FILE *f, uint64_t *v)
{
	*v = 0;
	for (unsigned shift = 0; shift < 64; shift += 7) {
		int c = getc(f);
		if (c == EOF)
			return -1;
		if (shift == 63 && (c & 0xfe))
			return -2;
		*v |= (uint64_t)(c & 0x7f) << shift;
		if (!(c & 0x80))
			return 0;
	}
	return -2;
}

static int read_header(struct iolab_trace_reader *r, FILE *f, struct iolab_trace_header *h,
		       struct iolab_err *err)
{
	unsigned char magic[8];
	uint64_t version, flags, v;
	if (get_bytes(f, magic, 8) || memcmp(magic, iot_magic, 8))
		return fail(r, err, EINVAL, "header", "field 'magic': not an iolab binary trace (.iot)");
	if (get_le(f, 2, &version) || get_le(f, 2, &flags) || get_le(f, 8, &h->start_unix_ns))
		return fail(r, err, EINVAL, "header", "truncated");
	if (version != IOT_VERSION) {
		char m[128];
		snprintf(m, sizeof(m), "field 'version': %u, but this iolab reads version %d",
			 (unsigned)version, IOT_VERSION);
		return fail(r, err, EINVAL, "header", m);
	}
	if (flags & ~(uint64_t)IOT_FLAG_COMPLETIONS)
		return fail(r, err, EINVAL, "header", "field 'flags': unknown flags are set");
	h->completions = flags & IOT_FLAG_COMPLETIONS;
	if (get_le(f, 2, &v) || v >= sizeof(h->source) || get_bytes(f, h->source, v))
		return fail(r, err, EINVAL, "header", "field 'source': truncated or longer than 255 bytes");
	if (memchr(h->source, 0, v))
		return fail(r, err, EINVAL, "header", "field 'source': holds a NUL byte");
	h->source[v] = 0;
	if (get_le(f, 2, &v) || v < 1 || v > IOLAB_TRACE_TARGETS_MAX)
		return fail(r, err, EINVAL, "header", "field 'targets': missing, or not 1 to 256");
	h->ntargets = (unsigned)v;
	for (unsigned i = 0; i < h->ntargets; i++) {
		int n = getc(f);
		if (n == EOF || n > 127 || get_bytes(f, h->target[i].name, (size_t)n) ||
		    get_le(f, 8, &h->target[i].size))
			return fail(r, err, EINVAL, "header", "field 'target': truncated or name too long");
		h->target[i].name[n] = 0;
		if (memchr(h->target[i].name, 0, (size_t)n))
			return fail(r, err, EINVAL, "header", "field 'target': a name holds a NUL byte");
	}
	return 0;
}

static int iot_read_open(struct iolab_trace_reader *r, FILE *f, struct iolab_trace_header *h,
			 struct iolab_err *err)
{
	int rc = read_header(r, f, h, err);
	if (rc)
		return rc;
	struct iot_state *s = calloc(1, sizeof(*s));
	if (!s)
		return iolab_errf(err, ENOMEM, "out of memory");
	s->f = f;
	s->completions = h->completions;
	*iolab_trace_reader_priv(r) = s;
	return 0;
}

/* Reads one varint field of record n; an error names it. */
static int field(struct iolab_trace_reader *r, struct iot_state *s, const char *name, uint64_t *v,
		 struct iolab_err *err)
{
	int rc = get_varint(s->f, v);
	if (!rc)
		return 0;
	return iolab_errf(err, EBADMSG, "%s: record %llu: field '%s': %s", iolab_trace_reader_name(r),
			  (unsigned long long)s->n + 1, name,
			  rc == -1 ? "the file ends inside the record (truncated)"
				   : "a varint longer than 64 bits");
}

static int read_end(struct iolab_trace_reader *r, struct iot_state *s, struct iolab_err *err)
{
	uint64_t count;
	const char *name = iolab_trace_reader_name(r);
	if (get_varint(s->f, &count))
		return iolab_errf(err, EBADMSG, "%s: end marker: field 'count': truncated", name);
	if (count != s->n)
		return iolab_errf(err, EBADMSG, "%s: end marker: field 'count': %llu records, but %llu "
				  "were read", name, (unsigned long long)count, (unsigned long long)s->n);
	if (getc(s->f) != EOF)
		return iolab_errf(err, EBADMSG, "%s: end marker: bytes follow the end of the trace", name);
	return 0;
}

static int iot_read_next(struct iolab_trace_reader *r, struct iolab_trace_rec *rec,
			 struct iolab_err *err)
{
	struct iot_state *s = *iolab_trace_reader_priv(r);
	const char *name = iolab_trace_reader_name(r);
	int tag = getc(s->f);
	if (tag == EOF) {
		if (ferror(s->f))
			return iolab_errf(err, EIO, "%s: read error", name);
		return iolab_errf(err, EBADMSG, "%s: truncated: no end marker after %llu records", name,
				  (unsigned long long)s->n);
	}
	if (tag == TAG_END) {
		int rc = read_end(r, s, err);
		return rc ? rc : 0;
	}
	if (tag & 0xc0u || ((tag & TAG_DONE) && !s->completions))
		return iolab_errf(err, EBADMSG, "%s: record %llu: field 'tag': 0x%02x is not a record "
				  "tag%s", name, (unsigned long long)s->n + 1, (unsigned)tag,
				  tag & 0xc0u ? "" : " (a completion, but the header has none)");
	uint64_t d, v;
	int rc = field(r, s, "issue", &d, err);
	rec->op = tag & TAG_OP;
	rec->issue_ns = s->issue + unzigzag(d);
	rec->done_ns = IOLAB_TRACE_NO_TIME;
	if (!rc && (tag & TAG_DONE) && !(rc = field(r, s, "done", &v, err)))
		rec->done_ns = rec->issue_ns + v;
	rec->target = s->target;
	if (!rc && (tag & TAG_TARGET) && !(rc = field(r, s, "target", &v, err))) {
		if (v >= UINT16_MAX)
			rc = iolab_errf(err, EBADMSG, "%s: record %llu: field 'target': %llu is too large",
					name, (unsigned long long)s->n + 1, (unsigned long long)v);
		rec->target = (uint16_t)v;
	}
	rec->offset = s->offset + s->len;
	if (!rc && !(tag & TAG_SEQ) && !(rc = field(r, s, "offset", &v, err)))
		rec->offset += unzigzag(v);
	rec->len = s->len;
	if (!rc && !(tag & TAG_SAMELEN))
		rc = field(r, s, "len", &rec->len, err);
	if (rc)
		return rc;
	remember(s, rec);
	*iolab_trace_reader_line(r) = s->n;
	return 1;
}

static void iot_read_close(struct iolab_trace_reader *r)
{
	free(*iolab_trace_reader_priv(r));
	*iolab_trace_reader_priv(r) = NULL;
}

const struct iolab_trace_format iolab_trace_fmt_iot = {
	.name = "iot",
	.about = "iolab's binary trace (.iot): compact, versioned, with a record count at the end",
	.read_open = iot_read_open,
	.read_next = iot_read_next,
	.read_close = iot_read_close,
	.write_open = iot_write_open,
	.write_rec = iot_write_rec,
	.write_finish = iot_write_finish,
};
