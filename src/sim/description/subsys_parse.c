/* subsys_parse.c: the subsystem file (format in docs/subsystem-format.md): one part per line,
 * "KIND NAME key=value ...", read into struct iolab_subsys (subsys.h). A reference to another
 * part by name may come before that part's line: references are resolved once every line is
 * read, in the order the lines were written, and iolab_subsys_check (subsys_check.c) then runs
 * with each part's line so that every finding names the line it is about. Drive models are
 * opened once per distinct name. The kinds and their keys are the registry's (sim_kinds.h). */
#include <ctype.h>
#include <errno.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "iolab/host_queue.h"
#include "iolab/parse.h"
#include "iolab/sim_kinds.h"
#include "iolab/textfile.h"
#include "iolab/utf8.h"
#include "sim/description/subsys_extent.h"
#include "sim/description/subsys_values.h"
#include "sim/description/subsys_where.h"

#define LINE_MAX_LEN 4096
#define MODEL_NAME 1024
#define FIELDS_MAX (IOLAB_SUBSYS_MAX + 8)
#define NAME IOLAB_SUBSYS_NAME
#define PARTS_MAX (4 * IOLAB_SUBSYS_MAX + IOLAB_SUBSYS_DRIVES)

struct part {
	const struct iolab_kind *kind;
	unsigned short i;
};

/* A reference by name, resolved after the last line. */
struct ref {
	unsigned part;                  /* index into order */
	const struct iolab_param *key;
	char name[NAME];
};

struct parser {
	const char *file;
	struct iolab_subsys *s;
	struct iolab_err *err;
	unsigned line;
	struct iolab_subsys_where w;
	struct ref ref[PARTS_MAX * 2];
	unsigned nref;
	char (*vol_drive[IOLAB_SUBSYS_MAX])[NAME]; /* malloc'd, n names each */
	char *model_name[IOLAB_SUBSYS_MAX];          /* strdup'd */
	bool vol_offset[IOLAB_SUBSYS_MAX];           /* offset= given (else placed after the
							volumes before it on its drives) */
	struct part order[PARTS_MAX]; /* parts as written */
	unsigned nparts;
};

/* "FILE:LINE: field 'FIELD': MSG". */
__attribute__((format(printf, 3, 4)))
static int fail(struct parser *p, const char *field, const char *fmt, ...)
{
	char msg[400];
	va_list ap;
	va_start(ap, fmt);
	vsnprintf(msg, sizeof(msg), fmt, ap);
	va_end(ap);
	return iolab_errf(p->err, EINVAL, "%s:%u: field '%s': %s", p->file, p->line, field, msg);
}

/* Puts "FILE:LINE" before a message a value parser wrote ("field 'stripe': '6x' is ..."). */
static int located(struct parser *p, int rc)
{
	if (rc)
		iolab_err_prefix(p->err, "%s:%u", p->file, p->line);
	return rc;
}

static bool valid_name(const char *s)
{
	if (!*s || strlen(s) >= NAME)
		return false;
	for (; *s; s++)
		if (!isalnum((unsigned char)*s) && !strchr("-_.", *s))
			return false;
	return true;
}

/* The lines parts of class cls were written on. */
static unsigned *lines_of(struct iolab_subsys_where *w, enum iolab_kind_class cls)
{
	switch (cls) {
	case IOLAB_KC_BUS: return w->bus;
	case IOLAB_KC_CONTROLLER: return w->ctl;
	case IOLAB_KC_CHANNEL: return w->chan;
	case IOLAB_KC_DEVICE: return w->drive;
	case IOLAB_KC_VOLUME: return w->vol;
	default: return &w->host;
	}
}

/* The record of part (kind, i) in s, which its keys' offsets are from; its name; and the line
 * it was written on. */
static void *record(struct iolab_subsys *s, enum iolab_kind_class cls, unsigned i, const char **name)
{
	switch (cls) {
	case IOLAB_KC_BUS: *name = s->bus[i].name; return &s->bus[i];
	case IOLAB_KC_CONTROLLER: *name = s->ctl[i].name; return &s->ctl[i];
	case IOLAB_KC_CHANNEL: *name = s->chan[i].name; return &s->chan[i];
	case IOLAB_KC_DEVICE: *name = s->drive[i].name; return &s->drive[i];
	case IOLAB_KC_VOLUME: *name = s->vol[i].name; return &s->vol[i];
	default: *name = ""; return s;
	}
}

static const char *part_name(struct parser *p, const struct part *x, unsigned *line)
{
	const char *name;
	record(p->s, x->kind->cls, x->i, &name);
	*line = x->kind->cls == IOLAB_KC_HOST ? p->w.host : lines_of(&p->w, x->kind->cls)[x->i];
	return name;
}

/* The part called name: its index into p->order, or -1. */
static int find(struct parser *p, const char *name)
{
	for (unsigned k = 0; k < p->nparts; k++) {
		unsigned line;
		if (!strcmp(part_name(p, &p->order[k], &line), name))
			return (int)k;
	}
	return -1;
}

/* Keeps a reference to a part by name (resolved later). */
static int set_ref(struct parser *p, const struct iolab_param *key, const char *val)
{
	if (!valid_name(val))
		return fail(p, key->key, "'%.100s' is not a name (1 to %d letters, digits, '-', '_' or "
			    "'.')", val, NAME - 1);
	if (p->nref == sizeof(p->ref) / sizeof(p->ref[0]))
		return fail(p, key->key, "too many references in the file");
	struct ref *r = &p->ref[p->nref++];
	r->part = p->nparts - 1;
	r->key = key;
	memcpy(r->name, val, strlen(val) + 1);
	return 0;
}

/* Opens the model called val, once per distinct name. */
static int set_model(struct parser *p, const char *val, unsigned *out)
{
	struct iolab_subsys *s = p->s;
	if (strlen(val) >= MODEL_NAME)
		return fail(p, "model", "'%.100s...' is too long", val);
	for (unsigned m = 0; m < s->nmodel; m++)
		if (!strcmp(p->model_name[m], val))
			return *out = m, 0;
	if (s->nmodel == IOLAB_SUBSYS_MAX)
		return fail(p, "model", "too many different models (at most %d)", IOLAB_SUBSYS_MAX);
	p->model_name[s->nmodel] = strdup(val);
	if (!p->model_name[s->nmodel])
		return iolab_errf(p->err, ENOMEM, "%s: out of memory", p->file);
	int rc = iolab_model_open(val, &s->model[s->nmodel], p->err);
	if (rc) {
		iolab_err_prefix(p->err, "%s:%u: field 'model'", p->file, p->line);
		return rc == -ENOMEM ? rc : -EINVAL;
	}
	*out = s->nmodel++;
	return 0;
}

static int set_drives(struct parser *p, const struct iolab_param *key, const char *val, unsigned v)
{
	char buf[LINE_MAX_LEN], *items[IOLAB_SUBSYS_MAX];
	int n = iolab_split_list("field 'drives'", val, buf, sizeof(buf), items, IOLAB_SUBSYS_MAX,
				 p->err);
	if (n < 0)
		return located(p, n);
	p->vol_drive[v] = malloc((size_t)n * sizeof(*p->vol_drive[v]));
	if (!p->vol_drive[v])
		return iolab_errf(p->err, ENOMEM, "%s: out of memory", p->file);
	for (int k = 0; k < n; k++) {
		if (!valid_name(items[k]))
			return fail(p, key->key, "'%.100s' is not a name (1 to %d letters, digits, '-', "
				    "'_' or '.')", items[k], NAME - 1);
		memcpy(p->vol_drive[v][k], items[k], strlen(items[k]) + 1);
	}
	p->s->vol[v].n = (unsigned)n;
	return 0;
}

/* One key of part i of kind k, from the registry's table. */
static int set_key(struct parser *p, const struct iolab_kind *k, unsigned i,
		   const struct iolab_param *key, const char *val)
{
	const char *name;
	void *rec = record(p->s, k->cls, i, &name);
	switch (key->type) {
	case IOLAB_PT_REF: return set_ref(p, key, val);
	case IOLAB_PT_MEMBERS: return set_drives(p, key, val, i);
	case IOLAB_PT_MODEL: return set_model(p, val, (unsigned *)((char *)rec + key->off));
	default: return located(p, iolab_param_read(key, val, rec, p->err));
	}
}

/* A key's value when it is not given: its default, or the type's "none". */
static int set_default(struct parser *p, const struct iolab_param *key, void *rec)
{
	void *at = (char *)rec + key->off;
	if (key->def)
		return iolab_param_read(key, key->def, rec, p->err);
	switch (key->type) {
	case IOLAB_PT_REF:
	case IOLAB_PT_SWITCH: *(int *)at = -1; break;
	case IOLAB_PT_FAILED: ((int *)at)[0] = ((int *)at)[1] = -1; break;
	default: break;
	}
	return 0;
}

/* Room for one more part of this kind: its index with defaults set, its name copied. */
static int new_part(struct parser *p, const struct iolab_kind *k, const char *name, unsigned *index)
{
	struct iolab_subsys *s = p->s;
	unsigned *count[] = {[IOLAB_KC_BUS] = &s->nbus, [IOLAB_KC_CONTROLLER] = &s->nctl,
			     [IOLAB_KC_CHANNEL] = &s->nchan, [IOLAB_KC_VOLUME] = &s->nvol,
			     [IOLAB_KC_DEVICE] = &s->ndrive};
	unsigned room = k->cls == IOLAB_KC_DEVICE ? IOLAB_SUBSYS_DRIVES : IOLAB_SUBSYS_MAX;
	if (k->cls == IOLAB_KC_HOST) {
		if (p->w.host)
			return fail(p, "kind", "the host is given twice (line %u)", p->w.host);
		p->w.host = p->line;
		*index = 0;
	} else {
		if (*count[k->cls] == room)
			return fail(p, "kind", "too many parts of kind %s (at most %u)", k->name, room);
		*index = (*count[k->cls])++;
		lines_of(&p->w, k->cls)[*index] = p->line;
	}
	const char *dst;
	void *rec = record(s, k->cls, *index, &dst);
	if (k->cls != IOLAB_KC_HOST)
		memcpy((char *)dst, name, strlen(name) + 1);
	if (k->cls == IOLAB_KC_DEVICE)
		s->drive[*index].kind = k;
	for (unsigned j = 0; j < k->nparams; j++)
		if (set_default(p, &k->params[j], rec))
			return located(p, -EINVAL);
	p->order[p->nparts++] = (struct part){k, (unsigned short)*index};
	return 0;
}

/* The kind and, except for the host, the name at the start of a line; *first is the field
 * after them. */
static int head(struct parser *p, char **f, unsigned n, const struct iolab_kind **kind,
		unsigned *first)
{
	const struct iolab_kind *k = iolab_kind_find(f[0]);
	if (!k) {
		char names[200];
		iolab_kind_names(names, sizeof(names));
		return fail(p, "kind", "'%.100s' is not a kind (%s)", f[0], names);
	}
	*kind = k;
	if (k->cls == IOLAB_KC_HOST) {
		if (n > 1 && !strchr(f[1], '='))
			return fail(p, "name", "the host takes no name (host key=value ...)");
		*first = 1;
		return 0;
	}
	if (n < 2 || strchr(f[1], '='))
		return fail(p, "name", "a %s line is: %s NAME key=value ...", k->name, k->name);
	if (!valid_name(f[1]))
		return fail(p, "name", "'%.100s' is not a name (1 to %d letters, digits, '-', '_' or '.')",
			    f[1], NAME - 1);
	int other = find(p, f[1]);
	if (other >= 0) {
		unsigned line;
		part_name(p, &p->order[other], &line);
		return fail(p, "name", "'%s' is already the name of a %s (line %u)", f[1],
			    p->order[other].kind->name, line);
	}
	*first = 2;
	return 0;
}

/* Write-back and read-ahead keep blocks in the controller's cache: they need one. */
static int cache_used(struct parser *p, const struct iolab_ctl_params *c)
{
	if (c->cache_bytes)
		return 0;
	if (c->write_policy == IOLAB_WP_BACK)
		return fail(p, "write-policy", "write-back needs a cache (cache=SIZE)");
	if (c->read_ahead != IOLAB_RA_NONE)
		return fail(p, "read-ahead", "%s read-ahead needs a cache (cache=SIZE)",
			    iolab_read_ahead_name(c->read_ahead));
	return 0;
}

/* One part's line, already split into fields. */
static int part_line(struct parser *p, char **f, unsigned n)
{
	const struct iolab_kind *kind = NULL;
	unsigned first = 1, i = 0;
	bool given[IOLAB_KIND_KEYS_MAX] = {false};
	int rc = head(p, f, n, &kind, &first);
	if (!rc)
		rc = new_part(p, kind, kind->cls == IOLAB_KC_HOST ? "" : f[1], &i);
	if (rc)
		return rc;
	for (unsigned k = first; k < n && !rc; k++) {
		char *eq = strchr(f[k], '=');
		if (!eq || eq == f[k])
			return fail(p, eq ? "=" : f[k], "expected key=value (a %s line is: %s%s "
				    "key=value ...)", kind->name, kind->name,
				    kind->cls == IOLAB_KC_HOST ? "" : " NAME");
		*eq = 0;
		const char *key = f[k], *val = eq + 1;
		const struct iolab_param *param = iolab_kind_param(kind, key);
		if (!param) {
			char list[200];
			iolab_kind_keys(kind, list, sizeof(list));
			return fail(p, key, "not a key of a %s (%s)", kind->name, list);
		}
		unsigned j = (unsigned)(param - kind->params);
		if (given[j])
			return fail(p, key, "given twice on this line");
		given[j] = true;
		if (!*val)
			return fail(p, key, "has no value");
		rc = set_key(p, kind, i, param, val);
	}
	for (unsigned j = 0; j < kind->nparams && !rc; j++)
		if (kind->params[j].required && !given[j])
			rc = fail(p, kind->params[j].key, "missing: a %s needs %s=", kind->name,
				  kind->params[j].key);
	if (!rc && kind->cls == IOLAB_KC_CONTROLLER)
		rc = cache_used(p, &p->s->ctl[i].p);
	const struct iolab_param *offset = iolab_kind_param(kind, "offset");
	if (!rc && kind->cls == IOLAB_KC_VOLUME && offset)
		p->vol_offset[i] = given[offset - kind->params];
	if (!rc && kind->cls == IOLAB_KC_VOLUME && p->s->vol[i].level == IOLAB_RAID1 &&
	    p->s->vol[i].n < 2)
		rc = fail(p, "drives", "raid1 needs at least 2 drives; '%s' has %u", p->s->vol[i].name,
			  p->s->vol[i].n);
	return rc;
}

/* Splits l at white space into at most max fields. Returns the count, or -1 if there are more. */
static int split(char *l, char **f, unsigned max)
{
	unsigned n = 0;
	for (char *sv, *tok = strtok_r(l, " \t\r\f\v", &sv); tok; tok = strtok_r(NULL, " \t\r\f\v", &sv)) {
		if (n == max)
			return -1;
		f[n++] = tok;
	}
	return (int)n;
}

/* The part called name, which must be of kind want (any device kind for "drive"): its index in
 * *out. */
static int resolve(struct parser *p, unsigned line, const char *field, const char *name,
		   const struct iolab_kind *want, int *out)
{
	p->line = line;
	int k = find(p, name);
	if (k < 0)
		return fail(p, field, "no %s '%s' in the file", want->name, name);
	const struct iolab_kind *got = p->order[k].kind;
	if (got != want && !(want->cls == IOLAB_KC_DEVICE && got->cls == IOLAB_KC_DEVICE)) {
		unsigned at;
		part_name(p, &p->order[k], &at);
		return fail(p, field, "'%s' is a %s (line %u), not a %s", name, got->name, at, want->name);
	}
	*out = p->order[k].i;
	return 0;
}

/* Resolves the references of part k (in the order the parts were written). */
static int resolve_part(struct parser *p, unsigned k)
{
	const struct part *x = &p->order[k];
	const char *name;
	unsigned line;
	part_name(p, x, &line);
	char *rec = record(p->s, x->kind->cls, x->i, &name);
	for (unsigned j = 0; j < p->nref; j++) {
		const struct ref *r = &p->ref[j];
		if (r->part != k)
			continue;
		int rc = resolve(p, line, r->key->key, r->name, iolab_kind_find(r->key->ref),
				 (int *)(rec + r->key->off));
		if (rc)
			return rc;
	}
	if (x->kind->cls != IOLAB_KC_VOLUME)
		return 0;
	struct iolab_sub_volume *v = &p->s->vol[x->i];
	for (unsigned m = 0; m < v->n; m++) {
		int d;
		int rc = resolve(p, line, "drives", p->vol_drive[x->i][m], &iolab_kind_drive, &d);
		if (rc)
			return rc;
		v->drive[m] = (unsigned)d;
	}
	return 0;
}

/* Messages quote what a line holds: it must be text a terminal shows as it is. */
static int printable(struct parser *p, const char *field, unsigned k)
{
	char why[96];
	if (iolab_text_check(field, LINE_MAX_LEN, why, sizeof(why)))
		return fail(p, "text", "field %u of the line %s", k, why);
	return 0;
}

static int read_lines(struct parser *p, const char *text)
{
	int rc = 0;
	for (const char *at = text; *at && !rc;) {
		const char *nl = strchr(at, '\n');
		size_t len = nl ? (size_t)(nl - at) : strlen(at);
		char buf[LINE_MAX_LEN], *f[FIELDS_MAX];
		p->line++;
		if (len >= sizeof(buf))
			return iolab_errf(p->err, EINVAL, "%s:%u: line is too long (at most %d characters)",
					  p->file, p->line, LINE_MAX_LEN - 1);
		memcpy(buf, at, len);
		buf[len] = 0;
		at += len + (nl ? 1 : 0);
		char *hash = strchr(buf, '#');
		if (hash)
			*hash = 0;
		int n = split(buf, f, FIELDS_MAX);
		if (n < 0)
			return iolab_errf(p->err, EINVAL, "%s:%u: too many fields on the line (at most %d)",
					  p->file, p->line, FIELDS_MAX);
		for (int k = 0; k < n && !rc; k++)
			rc = printable(p, f[k], (unsigned)k + 1);
		if (n && !rc)
			rc = part_line(p, f, (unsigned)n);
	}
	return rc;
}

int iolab_subsys_parse(const char *name, const char *text, struct iolab_subsys *s, struct iolab_err *err)
{
	struct iolab_err own;
	if (!err)
		err = &own; /* the model reader writes into its err */
	memset(s, 0, sizeof(*s));
	struct parser *p = calloc(1, sizeof(*p));
	if (!p)
		return iolab_errf(err, ENOMEM, "%s: out of memory", name);
	p->file = name;
	p->s = s;
	p->err = err;
	p->w.file = name;
	int rc = read_lines(p, text);
	for (unsigned k = 0; k < p->nparts && !rc; k++)
		rc = resolve_part(p, k);
	if (!rc) /* volumes without offset= go after those before them on their drives */
		iolab_subsys_place_volumes(s, p->vol_offset);
	if (!rc)
		rc = iolab_subsys_check_where(s, &p->w, err);
	for (unsigned i = 0; i < IOLAB_SUBSYS_MAX; i++) {
		free(p->vol_drive[i]);
		free(p->model_name[i]);
	}
	free(p);
	if (rc)
		iolab_subsys_free(s);
	return rc;
}

int iolab_subsys_load(const char *path, struct iolab_subsys *s, struct iolab_err *err)
{
	char *text;
	memset(s, 0, sizeof(*s));
	int rc = iolab_read_text(path, 1u << 20, "a subsystem file", &text, err);
	if (rc)
		return rc;
	rc = iolab_subsys_parse(path, text, s, err);
	free(text);
	return rc;
}

void iolab_subsys_free(struct iolab_subsys *s)
{
	for (unsigned m = 0; m < s->nmodel && m < IOLAB_SUBSYS_MAX; m++)
		iolab_model_free(&s->model[m]);
	memset(s, 0, sizeof(*s));
}
