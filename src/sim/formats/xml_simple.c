/* xml_simple.c: the XML subset of MQSim's configuration files (xml_simple.h): elements that
 * hold either text or other elements, an <?xml ...?> declaration, comments; attributes are read
 * past (MQSim ignores them). iolab's own reader rather than a library's, because the format is
 * this small, every error must name its line, and the fuzzer (fuzz/fuzz_mqsim_xml.c) then
 * covers all of the code that reads the file. */
#include <errno.h>
#include <stdbool.h>
#include <stdlib.h>
#include <string.h>

#include "sim/formats/xml_simple.h"

#define XML_MAX_DEPTH 16
#define XML_MAX_NODES 4096

struct xparser {
	const char *name;
	char *p;          /* the next character */
	unsigned line;
	struct xml_doc *doc;
	struct iolab_err *err;
};

static int xerr(struct xparser *x, const char *fmt, const char *what)
{
	return iolab_errf(x->err, EINVAL, "%s:%u: %s%s%.60s%s", x->name, x->line, fmt,
			  what ? " '" : "", what ? what : "", what ? "'" : "");
}

static void advance(struct xparser *x, size_t n)
{
	for (size_t i = 0; i < n && *x->p; i++, x->p++)
		if (*x->p == '\n')
			x->line++;
}

static void skip_space(struct xparser *x)
{
	while (*x->p == ' ' || *x->p == '\t' || *x->p == '\r' || *x->p == '\n')
		advance(x, 1);
}

/* Skips comments and white space (and the declaration, where allowed). */
static int skip_misc(struct xparser *x, bool declaration)
{
	for (;;) {
		skip_space(x);
		if (!strncmp(x->p, "<!--", 4)) {
			char *end = strstr(x->p + 4, "-->");
			if (!end)
				return xerr(x, "a comment that does not end (-->)", NULL);
			advance(x, (size_t)(end + 3 - x->p));
		} else if (declaration && !strncmp(x->p, "<?xml", 5) && strchr(" \t\r\n?", x->p[5])) {
			char *end = strstr(x->p, "?>");
			if (!end)
				return xerr(x, "the <?xml declaration does not end (?>)", NULL);
			advance(x, (size_t)(end + 2 - x->p));
			declaration = false;
		} else if (!strncmp(x->p, "<?", 2) || !strncmp(x->p, "<!", 2)) {
			return xerr(x, "a processing instruction, DOCTYPE or CDATA section: not part of "
				    "MQSim's configuration format", NULL);
		} else {
			return 0;
		}
	}
}

static bool name_char(char c)
{
	return (c >= 'A' && c <= 'Z') || (c >= 'a' && c <= 'z') || (c >= '0' && c <= '9') || c == '_' ||
	       c == '-' || c == '.' || c == ':';
}

/* An element name at x->p, cut off with a NUL at its end once the caller is done with what
 * follows: returns its length (0: none). */
static size_t name_len(const char *p)
{
	size_t n = 0;
	while (name_char(p[n]))
		n++;
	return n;
}

static int new_node(struct xparser *x, int parent, int *out)
{
	struct xml_doc *d = x->doc;
	if (d->n == XML_MAX_NODES)
		return xerr(x, "more than 4096 elements", NULL);
	if (d->n == d->cap) {
		unsigned cap = d->cap ? d->cap * 2 : 64;
		struct xml_node *nn = realloc(d->node, cap * sizeof(*nn));
		if (!nn)
			return iolab_errf(x->err, ENOMEM, "%s: out of memory", x->name);
		d->node = nn;
		d->cap = cap;
	}
	*out = (int)d->n;
	d->node[d->n++] = (struct xml_node){.parent = parent, .first_child = -1, .next = -1,
					    .line = x->line};
	if (parent >= 0) { /* append to the parent's children */
		int *at = &d->node[parent].first_child;
		while (*at >= 0)
			at = &d->node[*at].next;
		*at = *out;
	}
	return 0;
}

/* The attributes of a start tag (NAME="value" or NAME='value', space between them), skipped:
 * MQSim reads its parameters from element text only (rapidxml parses attributes, MQSim's
 * XML_deserialize never asks for one), so they mean nothing there either. */
static int skip_attributes(struct xparser *x, char *name, size_t n)
{
	for (size_t an; (an = name_len(x->p)); skip_space(x)) {
		advance(x, an);
		skip_space(x);
		char q = x->p[0] == '=' ? x->p[1] : 0;
		if (q != '"' && q != '\'') {
			name[n] = 0;
			return xerr(x, "an attribute without =\"value\" in the start tag of element", name);
		}
		unsigned at = x->line;
		advance(x, 2);
		while (*x->p && *x->p != q)
			advance(x, 1);
		if (!*x->p) {
			x->line = at;
			name[n] = 0;
			return xerr(x, "an attribute's value without its closing quote, in element", name);
		}
		advance(x, 1);
	}
	return 0;
}

/* One element starting at '<' (its start tag, content and end tag). */
static int element(struct xparser *x, int parent, unsigned depth)
{
	if (depth > XML_MAX_DEPTH)
		return xerr(x, "elements nested more than 16 deep", NULL);
	int me = -1;
	int rc = new_node(x, parent, &me);
	if (rc)
		return rc;
	advance(x, 1); /* '<' */
	char *name = x->p;
	size_t n = name_len(name);
	if (!n)
		return xerr(x, "expected an element name after '<'", NULL);
	advance(x, n);
	skip_space(x);
	if ((rc = skip_attributes(x, name, n)))
		return rc;
	char after = *x->p;
	if (after != '>' && !(after == '/' && x->p[1] == '>')) {
		name[n] = 0;
		return xerr(x, "expected '>' or '/>' to end the start tag of element", name);
	}
	bool empty = after == '/';
	advance(x, empty ? 2 : 1);
	name[n] = 0;
	x->doc->node[me].name = name;
	if (empty) {
		x->doc->node[me].text = "";
		return 0;
	}
	/* text, or child elements with only white space and comments between them */
	char *text = x->p;
	while (*x->p && *x->p != '<') {
		if (*x->p == '&')
			return xerr(x, "entity references (&...;) are not part of MQSim's configuration "
				    "format: in element", name);
		advance(x, 1);
	}
	char *text_end = x->p;
	for (;;) {
		if (!*x->p)
			return xerr(x, "the file ends inside element", name);
		if (!strncmp(x->p, "</", 2))
			break;
		if (!strncmp(x->p, "<!--", 4) || !strncmp(x->p, "<?", 2) || !strncmp(x->p, "<!", 2)) {
			if ((rc = skip_misc(x, false)))
				return rc;
			continue;
		}
		for (const char *t = text; t < text_end; t++)
			if (*t != ' ' && *t != '\t' && *t != '\r' && *t != '\n')
				return xerr(x, "text mixed with elements in element", name);
		if ((rc = element(x, me, depth + 1)))
			return rc;
		text_end = text; /* the content is elements */
		skip_space(x);
		if (*x->p && *x->p != '<')
			return xerr(x, "text mixed with elements in element", name);
	}
	unsigned end_line = x->line;
	advance(x, 2);
	size_t en = name_len(x->p);
	if (en != n || strncmp(x->p, name, n)) {
		x->line = end_line;
		return xerr(x, "the end tag does not match element", name);
	}
	advance(x, en);
	skip_space(x);
	if (*x->p != '>')
		return xerr(x, "expected '>' to end the end tag of element", name);
	advance(x, 1);
	if (x->doc->node[me].first_child < 0) {
		while (text < text_end && strchr(" \t\r\n", *text))
			text++;
		while (text_end > text && strchr(" \t\r\n", text_end[-1]))
			text_end--;
		*text_end = 0; /* within the start of the end tag or the text itself */
		x->doc->node[me].text = text;
	}
	return 0;
}

int xml_simple_parse(const char *name, const char *text, struct xml_doc *doc, struct iolab_err *err)
{
	memset(doc, 0, sizeof(*doc));
	doc->buf = strdup(text);
	if (!doc->buf)
		return iolab_errf(err, ENOMEM, "%s: out of memory", name);
	struct xparser x = {.name = name, .p = doc->buf, .line = 1, .doc = doc, .err = err};
	if (!strncmp(x.p, "\xef\xbb\xbf", 3)) /* a UTF-8 byte order mark */
		x.p += 3;
	int rc = skip_misc(&x, true);
	if (!rc && *x.p != '<')
		rc = *x.p ? xerr(&x, "expected an element ('<')", NULL)
			  : xerr(&x, "no element: the file is empty", NULL);
	if (!rc)
		rc = element(&x, -1, 0);
	if (!rc)
		rc = skip_misc(&x, false);
	if (!rc && *x.p)
		rc = xerr(&x, "more after the root element", NULL);
	if (rc)
		xml_simple_free(doc);
	return rc;
}

void xml_simple_free(struct xml_doc *doc)
{
	free(doc->buf);
	free(doc->node);
	memset(doc, 0, sizeof(*doc));
}
