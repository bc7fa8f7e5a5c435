/* fmt_text.c: the line reading, field splitting, number and time parsing and target bookkeeping
 * that the foreign text trace formats share (fmt_text.h). Everything works on one bounded line
 * at a time, so that a reader's memory does not grow with the trace. */
#include <ctype.h>
#include <errno.h>
#include <inttypes.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>

#include "trace/fmt_text.h"
#include "trace/trace_internal.h"

int fmt_getline(struct iolab_trace_reader *r, FILE *f, char *buf, struct iolab_err *err)
{
	int rc = iolab_trace_getline(r, f, buf, FMT_LINE_MAX, err);
	if (rc < 0) {
		/* named here: a line read ahead by read_open is reported later */
		iolab_err_prefix(err, "%s:%" PRIu64, iolab_trace_reader_name(r),
				 *iolab_trace_reader_line(r));
		return rc;
	}
	if (rc == 1 && *iolab_trace_reader_line(r) == 1 && strncmp(buf, "\xef\xbb\xbf", 3) == 0)
		memmove(buf, buf + 3, strlen(buf + 3) + 1); /* a UTF-8 byte-order mark */
	return rc;
}

int fmt_bad(struct iolab_trace_reader *r, struct iolab_err *err, const char *field,
	    const char *value, const char *why)
{
	return iolab_errf(err, EINVAL, "%s:%" PRIu64 ": field '%s': '%.64s' %s",
			  iolab_trace_reader_name(r), *iolab_trace_reader_line(r), field, value, why);
}

int fmt_bad_line(struct iolab_trace_reader *r, struct iolab_err *err, const char *what)
{
	return iolab_errf(err, EINVAL, "%s:%" PRIu64 ": %s", iolab_trace_reader_name(r),
			  *iolab_trace_reader_line(r), what);
}

static char *trim(char *s)
{
	while (*s == ' ' || *s == '\t')
		s++;
	size_t n = strlen(s);
	while (n && (s[n - 1] == ' ' || s[n - 1] == '\t'))
		s[--n] = 0;
	return s;
}

unsigned fmt_split(char *s, const char *seps, bool merge, char **col, unsigned max)
{
	unsigned n = 0;
	if (merge) {
		char *sv;
		for (char *tok = strtok_r(s, seps, &sv); tok; tok = strtok_r(NULL, seps, &sv))
			if (n++ < max)
				col[n - 1] = tok;
		return n;
	}
	if (!*trim(s))
		return 0;
	for (;;) {
		char *end = strpbrk(s, seps);
		if (end)
			*end = 0;
		if (n++ < max)
			col[n - 1] = trim(s);
		if (!end)
			return n;
		s = end + 1;
	}
}

bool fmt_u64(const char *s, uint64_t max, uint64_t *v)
{
	uint64_t x = 0;
	if (!isdigit((unsigned char)*s))
		return false;
	for (; isdigit((unsigned char)*s); s++) {
		unsigned d = (unsigned)(*s - '0');
		if (d > max || x > (max - d) / 10)
			return false;
		x = x * 10 + d;
	}
	if (*s)
		return false;
	*v = x;
	return true;
}

bool fmt_time(const char *s, uint64_t unit_ns, uint64_t *ns)
{
	const uint64_t limit = UINT64_C(1) << 63;
	uint64_t whole = 0;
	bool digits = false;
	for (; isdigit((unsigned char)*s); s++, digits = true) {
		if (whole > (limit / unit_ns) / 10)
			return false;
		whole = whole * 10 + (unsigned)(*s - '0');
	}
	if (whole > limit / unit_ns)
		return false;
	uint64_t v = whole * unit_ns, scale = unit_ns;
	if (*s == '.')
		for (s++; isdigit((unsigned char)*s); s++, digits = true)
			if (scale > 1) { /* digit k after the point is worth unit/10^k ns */
				scale /= 10;
				v += (unsigned)(*s - '0') * scale;
			}
	if (!digits || *s || v > limit)
		return false;
	*ns = v;
	return true;
}

int fmt_put_time(FILE *f, uint64_t ns, uint64_t unit_ns)
{
	if (unit_ns == 1)
		return fprintf(f, "%" PRIu64, ns);
	int places = 0;
	for (uint64_t u = unit_ns; u > 1; u /= 10)
		places++;
	return fprintf(f, "%" PRIu64 ".%0*" PRIu64, ns / unit_ns, places, ns % unit_ns);
}

int fmt_target(struct iolab_trace_reader *r, struct iolab_trace_header *h, const char *field,
	       const char *name, uint16_t *idx, struct iolab_err *err)
{
	for (unsigned i = 0; i < h->ntargets; i++)
		if (strncmp(h->target[i].name, name, sizeof(h->target[i].name) - 1) == 0) {
			*idx = (uint16_t)i;
			return 0;
		}
	if (h->ntargets >= IOLAB_TRACE_TARGETS_MAX)
		return fmt_bad(r, err, field, name, "is one target too many (a trace holds at most "
			       "256; split the input by this field first)");
	struct iolab_trace_target *t = &h->target[h->ntargets];
	snprintf(t->name, sizeof(t->name), "%s", name);
	t->size = 0;
	*idx = (uint16_t)h->ntargets++;
	return 0;
}

void fmt_source(struct iolab_trace_reader *r, struct iolab_trace_header *h, const char *format)
{
	snprintf(h->source, sizeof(h->source), "import %s %.200s", format, iolab_trace_reader_name(r));
}

int fmt_rel_time(struct iolab_trace_reader *r, struct iolab_err *err, const char *field,
		 const char *text, uint64_t ts, uint64_t unit_ns, bool *have_first, uint64_t *first,
		 uint64_t *ns)
{
	if (!*have_first) {
		*have_first = true;
		*first = ts;
	}
	if (ts < *first)
		return fmt_bad(r, err, field, text, "is earlier than the trace's first record (the "
			       "records must come in time order)");
	if (ts - *first > (UINT64_C(1) << 63) / unit_ns)
		return fmt_bad(r, err, field, text, "is too far after the trace's first record");
	*ns = (ts - *first) * unit_ns;
	return 0;
}

int fmt_write_check(FILE *f, const char *format, struct iolab_err *err)
{
	if (ferror(f))
		return iolab_errf(err, EIO, "writing the %s trace: %s", format,
				  strerror(errno ? errno : EIO));
	return 0;
}

int fmt_ahead_fill(struct fmt_ahead *a, struct iolab_trace_reader *r, fmt_parse_fn parse,
		   struct iolab_trace_header *h, const char *none_name, struct iolab_err *err)
{
	memset(a, 0, sizeof(*a));
	while (a->nbad < FMT_AHEAD_BAD) {
		int rc = parse(r, &a->rec, &a->bad[a->nbad]);
		if (rc == 1) {
			a->have = true;
			break;
		}
		if (rc == 0)
			break;
		if (rc != -EINVAL) {
			*err = a->bad[a->nbad];
			return rc;
		}
		a->bad_rc[a->nbad++] = rc;
	}
	if (h->ntargets == 0) {
		snprintf(h->target[0].name, sizeof(h->target[0].name), "%s", none_name);
		h->target[0].size = 0;
		h->ntargets = 1;
	}
	return 0;
}

int fmt_ahead_next(struct fmt_ahead *a, struct iolab_trace_reader *r, fmt_parse_fn parse,
		   struct iolab_trace_rec *rec, struct iolab_err *err)
{
	if (a->next < a->nbad) {
		*err = a->bad[a->next];
		return a->bad_rc[a->next++];
	}
	if (a->have) {
		a->have = false;
		*rec = a->rec;
		return 1;
	}
	return parse(r, rec, err);
}

void fmt_target_numbers(const struct iolab_trace_header *h, uint32_t *num)
{
	unsigned n = h->ntargets > IOLAB_TRACE_TARGETS_MAX ? IOLAB_TRACE_TARGETS_MAX : h->ntargets;
	bool ok = true;
	for (unsigned i = 0; i < n && ok; i++) {
		uint64_t v;
		ok = fmt_u64(h->target[i].name, UINT32_MAX, &v);
		num[i] = (uint32_t)v;
		for (unsigned j = 0; j < i && ok; j++)
			ok = num[j] != num[i];
	}
	for (unsigned i = 0; i < n && !ok; i++)
		num[i] = i;
}

int fmt_prescan(struct iolab_trace_reader *r, FILE *f, fmt_parse_fn parse, fmt_reset_fn reset,
		struct iolab_err *err)
{
	struct stat st;
	off_t at = ftello(f);
	if (at < 0 || fstat(fileno(f), &st) || !S_ISREG(st.st_mode))
		return 0;
	uint64_t *line = iolab_trace_reader_line(r), was = *line;
	struct iolab_trace_rec rec;
	struct iolab_err e;
	int rc;
	while ((rc = parse(r, &rec, &e)) != 0)
		if (rc < 0 && rc != -EINVAL) {
			*err = e;
			return rc;
		}
	clearerr(f);
	if (fseeko(f, at, SEEK_SET))
		return iolab_errf(err, errno, "%s: cannot go back to the start: %s",
				  iolab_trace_reader_name(r), strerror(errno));
	*line = was;
	reset(r);
	return 0;
}

void fmt_lines_close(struct iolab_trace_reader *r)
{
	free(*iolab_trace_reader_priv(r));
	*iolab_trace_reader_priv(r) = NULL;
}

/* After fmt_prescan: back to the state before the first line. */
static void lines_reset(struct iolab_trace_reader *r)
{
	((struct fmt_lines *)*iolab_trace_reader_priv(r))->have_first = false;
}

int fmt_lines_open(struct iolab_trace_reader *r, FILE *f, struct iolab_trace_header *h,
		   const char *format, bool completions, const char *none_name, fmt_parse_fn parse,
		   struct iolab_err *err)
{
	struct fmt_lines *l = calloc(1, sizeof(*l));
	if (!l)
		return iolab_errf(err, ENOMEM, "%s: out of memory", iolab_trace_reader_name(r));
	l->f = f;
	l->h = h;
	l->parse = parse;
	*iolab_trace_reader_priv(r) = l;
	fmt_source(r, h, format);
	h->completions = completions;
	h->ntargets = 0;
	int rc = fmt_prescan(r, f, parse, lines_reset, err);
	if (!rc)
		rc = fmt_ahead_fill(&l->ahead, r, parse, h, none_name, err);
	if (!rc && !l->ahead.have && !l->ahead.nbad)
		rc = iolab_errf(err, EINVAL, "%s: no %s request in %" PRIu64 " line%s: nothing to "
				"import", iolab_trace_reader_name(r), format, *iolab_trace_reader_line(r),
				*iolab_trace_reader_line(r) == 1 ? "" : "s");
	if (rc)
		fmt_lines_close(r);
	return rc;
}

int fmt_lines_next(struct iolab_trace_reader *r, struct iolab_trace_rec *rec, struct iolab_err *err)
{
	struct fmt_lines *l = *iolab_trace_reader_priv(r);
	return fmt_ahead_next(&l->ahead, r, l->parse, rec, err);
}
