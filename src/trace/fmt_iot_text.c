/* fmt_iot_text.c: the text form of iolab's trace (docs/trace-format.md): a header block of
 * "# key: value" lines, then one record a line: issue time, completion time ('-' if unknown),
 * op, target, offset, length, all integers in nanoseconds and bytes, so that binary -> text ->
 * binary gives back the same bytes. Reading keeps one line at a time. */
#include <errno.h>
#include <inttypes.h>
#include <stdlib.h>
#include <string.h>

#include "iolab/parse.h"
#include "iolab/textfile.h"
#include "iolab/trace.h"
#include "trace/trace_internal.h"

#define TEXT_MAGIC "# iolab trace 1"
#define TEXT_LEGEND "# issue_ns done_ns op target offset len"

struct text_state {
	FILE *f;
	bool completions;
	bool pending;             /* line holds the first record, read by read_open */
	char line[IOLAB_TRACE_LINE_MAX + 2];
};

/* ---- writing ---- */

static int text_write_open(struct iolab_trace_writer *w, FILE *f, const struct iolab_trace_header *h,
			   struct iolab_err *err)
{
	(void)err;
	struct text_state *s = calloc(1, sizeof(*s));
	if (!s)
		return iolab_errf(err, ENOMEM, "out of memory");
	s->f = f;
	s->completions = h->completions;
	*iolab_trace_writer_priv(w) = s;
	fprintf(f, TEXT_MAGIC "\n# source: ");
	iolab_trace_put_escaped(f, h->source);
	fprintf(f, "\n# start_unix_ns: %" PRIu64 "\n# completions: %s\n", h->start_unix_ns,
		h->completions ? "yes" : "no");
	for (unsigned i = 0; i < h->ntargets; i++) {
		fprintf(f, "# target: %u %" PRIu64 " ", i, h->target[i].size);
		iolab_trace_put_escaped(f, h->target[i].name);
		putc('\n', f);
	}
	fprintf(f, TEXT_LEGEND "\n");
	return 0;
}

static int text_write_rec(struct iolab_trace_writer *w, const struct iolab_trace_rec *rec,
			  struct iolab_err *err)
{
	(void)err;
	struct text_state *s = *iolab_trace_writer_priv(w);
	fprintf(s->f, "%" PRIu64 " ", rec->issue_ns);
	if (s->completions && rec->done_ns != IOLAB_TRACE_NO_TIME)
		fprintf(s->f, "%" PRIu64, rec->done_ns);
	else
		putc('-', s->f);
	fprintf(s->f, " %s %u %" PRIu64 " %" PRIu64 "\n", iolab_trace_op_name(rec->op), rec->target,
		rec->offset, rec->len);
	return 0;
}

static int text_write_finish(struct iolab_trace_writer *w, struct iolab_err *err)
{
	(void)err;
	free(*iolab_trace_writer_priv(w));
	*iolab_trace_writer_priv(w) = NULL;
	return 0;
}

/* ---- reading ---- */

/* One "# key: value" line of the header into h; other comment lines are ignored. */
static int header_line(char *line, struct iolab_trace_header *h, struct iolab_err *err)
{
	char *colon = strchr(line, ':');
	if (!colon)
		return 0;
	*colon = 0;
	const char *key = iolab_trim(line + 1);
	char *val = colon + 1;
	if (*val == ' ')
		val++;
	if (!strcmp(key, "source")) {
		if (iolab_trace_unescape(val, h->source, sizeof(h->source)))
			return iolab_errf(err, EINVAL, "field 'source': a bad \\x escape or longer than "
					  "255 bytes");
	} else if (!strcmp(key, "start_unix_ns")) {
		return iolab_trace_parse_u64("start_unix_ns", val, &h->start_unix_ns, err);
	} else if (!strcmp(key, "completions")) {
		if (iolab_parse_bool("completions", val, &h->completions, err))
			return -EINVAL;
	} else if (!strcmp(key, "target")) {
		char *sp1 = strchr(val, ' '), *sp2 = sp1 ? strchr(sp1 + 1, ' ') : NULL;
		uint64_t idx;
		if (!sp2)
			return iolab_errf(err, EINVAL, "field 'target': not 'INDEX SIZE NAME'");
		*sp1 = *sp2 = 0;
		if (iolab_trace_parse_u64("target", val, &idx, err))
			return -EINVAL;
		if (idx != h->ntargets || idx >= IOLAB_TRACE_TARGETS_MAX)
			return iolab_errf(err, EINVAL, "field 'target': index %s, expected %u (targets "
					  "are numbered from 0 in order, at most %d)", val, h->ntargets,
					  IOLAB_TRACE_TARGETS_MAX);
		struct iolab_trace_target *t = &h->target[h->ntargets];
		if (iolab_trace_parse_u64("size", sp1 + 1, &t->size, err))
			return -EINVAL;
		if (iolab_trace_unescape(sp2 + 1, t->name, sizeof(t->name)))
			return iolab_errf(err, EINVAL, "field 'target': a bad \\x escape or a name "
					  "longer than 127 bytes");
		h->ntargets++;
	}
	return 0;
}

static int text_read_open(struct iolab_trace_reader *r, FILE *f, struct iolab_trace_header *h,
			  struct iolab_err *err)
{
	struct text_state *s = calloc(1, sizeof(*s));
	if (!s)
		return iolab_errf(err, ENOMEM, "out of memory");
	s->f = f;
	*iolab_trace_reader_priv(r) = s;
	int rc = iolab_trace_getline(r, f, s->line, sizeof(s->line), err);
	if (rc <= 0 || strcmp(s->line, TEXT_MAGIC)) {
		if (rc >= 0)
			rc = iolab_errf(err, EINVAL, "field 'magic': not an iolab trace (the first line "
					"must be '" TEXT_MAGIC "')");
		goto fail;
	}
	h->ntargets = 0;
	while ((rc = iolab_trace_getline(r, f, s->line, sizeof(s->line), err)) == 1) {
		if (s->line[0] != '#' && s->line[strspn(s->line, " \t")]) {
			s->pending = true;
			break;
		}
		if (s->line[0] == '#' && (rc = header_line(s->line, h, err)))
			goto fail;
	}
	if (rc < 0)
		goto fail;
	if (!h->ntargets) {
		rc = iolab_errf(err, EINVAL, "field 'target': the header has no '# target:' line");
		goto fail;
	}
	s->completions = h->completions;
	return 0;
fail:
	free(s);
	*iolab_trace_reader_priv(r) = NULL;
	return rc;
}

/* Splits line into at most max fields at spaces and tabs; returns how many (max + 1: more). */
static unsigned split(char *line, char **fields, unsigned max)
{
	unsigned n = 0;
	char *save = NULL;
	for (char *t = strtok_r(line, " \t", &save); t; t = strtok_r(NULL, " \t", &save)) {
		if (n == max)
			return max + 1;
		fields[n++] = t;
	}
	return n;
}

static int parse_rec(struct text_state *s, char *line, struct iolab_trace_rec *rec,
		     struct iolab_err *err)
{
	static const char *const names[] = {"issue", "done", "op", "target", "offset", "len"};
	char *f[6];
	unsigned n = split(line, f, 6);
	if (n < 6)
		return iolab_errf(err, EINVAL, "field '%s': missing (a record is: issue done op "
				  "target offset len)", names[n]);
	if (n > 6)
		return iolab_errf(err, EINVAL, "field 'len': more than 6 fields on the line");
	uint64_t target;
	if (iolab_trace_parse_u64("issue", f[0], &rec->issue_ns, err))
		return -EINVAL;
	rec->done_ns = IOLAB_TRACE_NO_TIME;
	if (strcmp(f[1], "-")) {
		if (!s->completions)
			return iolab_errf(err, EINVAL, "field 'done': '%.40s', but the header says "
					  "'completions: no' (write '-')", f[1]);
		if (iolab_trace_parse_u64("done", f[1], &rec->done_ns, err))
			return -EINVAL;
		if (rec->done_ns == IOLAB_TRACE_NO_TIME)
			return iolab_errf(err, EINVAL, "field 'done': '%s' is too large", f[1]);
	}
	int op = iolab_trace_op_parse(f[2]);
	if (op < 0)
		return iolab_errf(err, EINVAL, "field 'op': '%.40s' is not read, write, trim or flush",
				  f[2]);
	rec->op = (uint8_t)op;
	if (iolab_trace_parse_u64("target", f[3], &target, err))
		return -EINVAL;
	if (target >= IOLAB_TRACE_TARGETS_MAX)
		return iolab_errf(err, EINVAL, "field 'target': %s is too large", f[3]);
	rec->target = (uint16_t)target;
	if (iolab_trace_parse_u64("offset", f[4], &rec->offset, err) ||
	    iolab_trace_parse_u64("len", f[5], &rec->len, err))
		return -EINVAL;
	return 0;
}

static int text_read_next(struct iolab_trace_reader *r, struct iolab_trace_rec *rec,
			  struct iolab_err *err)
{
	struct text_state *s = *iolab_trace_reader_priv(r);
	for (;;) {
		if (s->pending) {
			s->pending = false;
		} else {
			int rc = iolab_trace_getline(r, s->f, s->line, sizeof(s->line), err);
			if (rc <= 0)
				return rc;
		}
		if (s->line[0] == '#' || !s->line[strspn(s->line, " \t")])
			continue;
		int rc = parse_rec(s, s->line, rec, err);
		return rc ? rc : 1;
	}
}

static void text_read_close(struct iolab_trace_reader *r)
{
	free(*iolab_trace_reader_priv(r));
	*iolab_trace_reader_priv(r) = NULL;
}

const struct iolab_trace_format iolab_trace_fmt_iot_text = {
	.name = "iot-text",
	.about = "the text form of iolab's trace: '# key: value' header, one request a line",
	.read_open = text_read_open,
	.read_next = text_read_next,
	.read_close = text_read_close,
	.write_open = text_write_open,
	.write_rec = text_write_rec,
	.write_finish = text_write_finish,
};
