/* subsys_parse.c: the subsystem file (format in docs/subsystem-format.md): one part per line,
 * "KIND NAME key=value ...", read into struct iolab_subsys (subsys.h). A reference to another
 * part by name may come before that part's line: references are resolved once every line is
 * read, in the order the lines were written, and iolab_subsys_check (subsys_check.c) then runs
 * with each part's line so that every finding names the line it is about. Drive models are
 * opened once per distinct name. */
#include <ctype.h>
#include <errno.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "iolab/host_queue.h"
#include "iolab/parse.h"
#include "iolab/textfile.h"
#include "iolab/utf8.h"
#include "sim/description/subsys_extent.h"
#include "sim/description/subsys_where.h"
#include "sim/parts/raid_levels.h"

enum kind { K_HOST, K_BUS, K_CTL, K_CHAN, K_DRIVE, K_VOL, K_N };

static const char *const kind_name[K_N] = {"host", "bus", "controller", "channel", "drive", "volume"};

#define NKEYS 8
/* The keys of each kind; the first `required` of them must be given. */
static const struct {
	const char *key[NKEYS];
	unsigned required;
} keys[K_N] = {
	[K_HOST] = {{"scheduler", "overhead", "stripe"}, 0},
	[K_BUS] = {{"type", "up"}, 1},
	[K_CTL] = {{"bus", "overhead", "cache", "write-policy", "battery", "read-ahead",
		    "read-ahead-size"}, 0},
	[K_CHAN] = {{"type", "controller"}, 1},
	[K_DRIVE] = {{"model", "channel", "write-cache"}, 1},
	[K_VOL] = {{"level", "drives", "stripe", "failed", "rebuild-rate", "size", "offset"}, 2},
};

#define LINE_MAX_LEN 4096
#define MODEL_NAME 1024
#define FIELDS_MAX (IOLAB_SUBSYS_MAX + 8)
#define NAME IOLAB_SUBSYS_NAME

struct part {
	unsigned char kind;
	unsigned short i;
};

struct parser {
	const char *file;
	struct iolab_subsys *s;
	struct iolab_err *err;
	unsigned line;
	struct iolab_subsys_where w;
	/* references by name ("": none), resolved after the last line */
	char bus_up[IOLAB_SUBSYS_MAX][NAME], ctl_bus[IOLAB_SUBSYS_MAX][NAME];
	char chan_ctl[IOLAB_SUBSYS_MAX][NAME], drive_chan[IOLAB_SUBSYS_DRIVES][NAME];
	char (*vol_drive[IOLAB_SUBSYS_MAX])[NAME]; /* malloc'd, n names each */
	char *model_name[IOLAB_SUBSYS_MAX];          /* strdup'd */
	bool vol_offset[IOLAB_SUBSYS_MAX];           /* offset= given (else placed after the
							volumes before it on its drives) */
	struct part order[4 * IOLAB_SUBSYS_MAX + IOLAB_SUBSYS_DRIVES]; /* parts as written */
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

/* The name of part (kind, i), and the line it was written on. */
static const char *part_name(const struct parser *p, unsigned kind, unsigned i, unsigned *line)
{
	const struct iolab_subsys *s = p->s;
	switch (kind) {
	case K_BUS: *line = p->w.bus[i]; return s->bus[i].name;
	case K_CTL: *line = p->w.ctl[i]; return s->ctl[i].name;
	case K_CHAN: *line = p->w.chan[i]; return s->chan[i].name;
	case K_DRIVE: *line = p->w.drive[i]; return s->drive[i].name;
	case K_VOL: *line = p->w.vol[i]; return s->vol[i].name;
	}
	*line = 0;
	return "";
}

/* The part called name: its index into p->order, or -1. */
static int find(const struct parser *p, const char *name)
{
	for (unsigned k = 0; k < p->nparts; k++) {
		unsigned line;
		if (!strcmp(part_name(p, p->order[k].kind, p->order[k].i, &line), name))
			return (int)k;
	}
	return -1;
}

/* Copies a reference to a part by name into ref (resolved later). */
static int set_ref(struct parser *p, const char *key, const char *val, char *ref)
{
	if (!valid_name(val))
		return fail(p, key, "'%.100s' is not a name (1 to %d letters, digits, '-', '_' or '.')",
			    val, NAME - 1);
	memcpy(ref, val, strlen(val) + 1);
	return 0;
}

/* A time with its unit ("20us", "1.5ms"; "0" alone): a bare number would be seconds, never
 * what a per-command overhead means. At most 1 s. */
static int set_time(struct parser *p, const char *key, const char *val, uint64_t *ns)
{
	char f[64];
	size_t n = strlen(val);
	if (n && isdigit((unsigned char)val[n - 1]) && strcmp(val, "0"))
		return fail(p, key, "'%.100s' needs a unit (20us, 1.5ms, 0.1s)", val);
	snprintf(f, sizeof(f), "field '%s'", key);
	int rc = located(p, iolab_parse_duration(f, val, ns, p->err));
	if (!rc && *ns > 1000000000u)
		return fail(p, key, "'%.100s' is more than 1 s", val);
	return rc;
}

static int set_size(struct parser *p, const char *key, const char *val, uint64_t *out)
{
	char f[64];
	snprintf(f, sizeof(f), "field '%s'", key);
	return located(p, iolab_parse_size(f, val, out, p->err));
}

/* A size of at least one byte (0 in the struct means the default). */
static int set_positive(struct parser *p, const char *key, const char *val, uint64_t *out,
			const char *hint)
{
	int rc = set_size(p, key, val, out);
	if (!rc && !*out)
		return fail(p, key, "must be more than 0%s", hint);
	return rc;
}

/* A rate in bytes/s: a size, optionally followed by "/s" ("10M", "10MB/s"); more than 0. */
static int set_rate(struct parser *p, const char *key, const char *val, uint64_t *out)
{
	char num[64];
	size_t n = strlen(val);
	if (n >= 2 && !strcmp(val + n - 2, "/s"))
		n -= 2;
	if (n >= sizeof(num))
		return fail(p, key, "'%.100s' is not a rate (10M, 10MB/s)", val);
	memcpy(num, val, n);
	num[n] = 0;
	int rc = set_size(p, key, num, out);
	if (!rc && !*out)
		return fail(p, key, "must be more than 0 bytes/s");
	return rc;
}

static int set_bool(struct parser *p, const char *key, const char *val, bool *out)
{
	char f[64];
	snprintf(f, sizeof(f), "field '%s'", key);
	return located(p, iolab_parse_bool(f, val, out, p->err));
}

static int set_link(struct parser *p, const char *key, const char *val, bool bus,
		    struct iolab_link_type *t)
{
	char f[64];
	snprintf(f, sizeof(f), "field '%s'", key);
	return located(p, iolab_link_parse(f, val, bus, t, p->err));
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

static int set_level(struct parser *p, const char *val, unsigned *out)
{
	const struct iolab_raid_info *r = iolab_raid_find(val, strlen(val));
	if (r)
		return *out = r->level, 0;
	return fail(p, "level", "'%.100s' is not a level (%s)", val, iolab_raid_names());
}

/* "N" or "N+M": 1-based positions in drives=, stored 0-based. */
static int set_failed(struct parser *p, const char *val, int *failed)
{
	char a[32];
	const char *plus = strchr(val, '+');
	size_t len = plus ? (size_t)(plus - val) : strlen(val);
	if (len >= sizeof(a) || (plus && strchr(plus + 1, '+')))
		return fail(p, "failed", "'%.100s' is not N or N+M (one or two failed drives, 1-based)",
			    val);
	memcpy(a, val, len);
	a[len] = 0;
	uint64_t n[2] = {0, 0};
	int rc = iolab_parse_uint("field 'failed'", a, 1, IOLAB_SUBSYS_MAX, &n[0], p->err);
	if (!rc && plus)
		rc = iolab_parse_uint("field 'failed'", plus + 1, 1, IOLAB_SUBSYS_MAX, &n[1], p->err);
	if (rc)
		return located(p, rc);
	if (n[0] == n[1])
		return fail(p, "failed", "'%s' names drive %u twice", val, (unsigned)n[0]);
	failed[0] = (int)n[0] - 1;
	failed[1] = (int)n[1] - 1;
	return 0;
}

static int set_drives(struct parser *p, const char *val, unsigned v)
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
		int rc = set_ref(p, "drives", items[k], p->vol_drive[v][k]);
		if (rc)
			return rc;
	}
	p->s->vol[v].n = (unsigned)n;
	return 0;
}

/* A volume's size: its usable capacity ("300G"), or "N%" of each of its drives (1 to 100). */
static int set_volume_size(struct parser *p, const char *val, struct iolab_sub_volume *v)
{
	size_t n = strlen(val);
	if (n && val[n - 1] == '%') {
		char num[16];
		uint64_t pct;
		if (n - 1 >= sizeof(num))
			return fail(p, "size", "'%.100s' is not a percentage from 1%% to 100%%", val);
		memcpy(num, val, n - 1);
		num[n - 1] = 0;
		if (located(p, iolab_parse_uint("field 'size'", num, 1, 100, &pct, p->err)))
			return -EINVAL;
		v->size_pct = (unsigned)pct;
		return 0;
	}
	return set_positive(p, "size", val, &v->size_bytes, " (N% of each drive, or a capacity)");
}

static int set_host(struct parser *p, unsigned key, const char *val)
{
	struct iolab_subsys *s = p->s;
	enum iolab_host_sched sched;
	switch (key) {
	case 0:
		if (iolab_host_sched_parse("field 'scheduler'", val, &sched, p->err))
			return located(p, -EINVAL);
		s->host.sched = sched;
		return 0;
	case 1: return set_time(p, "overhead", val, &s->host.overhead_ns);
	default: return set_positive(p, "stripe", val, &s->host_stripe_bytes, "");
	}
}

static int set_ctl(struct parser *p, unsigned i, unsigned key, const char *val)
{
	struct iolab_ctl_params *c = &p->s->ctl[i].p;
	switch (key) {
	case 0: return set_ref(p, "bus", val, p->ctl_bus[i]);
	case 1: return set_time(p, "overhead", val, &c->overhead_ns);
	case 2: return set_size(p, "cache", val, &c->cache_bytes);
	case 3:
		return located(p, iolab_write_policy_parse("field 'write-policy'", val, &c->write_policy,
							   p->err));
	case 4: return set_bool(p, "battery", val, &c->battery);
	case 5:
		return located(p, iolab_read_ahead_parse("field 'read-ahead'", val, &c->read_ahead,
							 p->err));
	default:
		return set_positive(p, "read-ahead-size", val, &c->read_ahead_bytes,
				    " (read-ahead=none turns read-ahead off)");
	}
}

static int set_drive(struct parser *p, unsigned i, unsigned key, const char *val)
{
	struct iolab_sub_drive *d = &p->s->drive[i];
	bool on;
	switch (key) {
	case 0: return set_model(p, val, &d->model);
	case 1: return set_ref(p, "channel", val, p->drive_chan[i]);
	default:
		if (set_bool(p, "write-cache", val, &on))
			return -EINVAL;
		d->write_cache = on;
		return 0;
	}
}

static int set_vol(struct parser *p, unsigned i, unsigned key, const char *val)
{
	struct iolab_sub_volume *v = &p->s->vol[i];
	switch (key) {
	case 0: return set_level(p, val, &v->level);
	case 1: return set_drives(p, val, i);
	case 2: return set_size(p, "stripe", val, &v->stripe_bytes);
	case 3: return set_failed(p, val, v->failed);
	case 4: return set_rate(p, "rebuild-rate", val, &v->rebuild_bytes_s);
	case 5: return set_volume_size(p, val, v);
	default:
		p->vol_offset[i] = true;
		return set_size(p, "offset", val, &v->offset_bytes);
	}
}

static int set_key(struct parser *p, unsigned kind, unsigned i, unsigned key, const char *val)
{
	struct iolab_subsys *s = p->s;
	switch (kind) {
	case K_HOST: return set_host(p, key, val);
	case K_BUS:
		return key ? set_ref(p, "up", val, p->bus_up[i])
			   : set_link(p, "type", val, true, &s->bus[i].type);
	case K_CTL: return set_ctl(p, i, key, val);
	case K_CHAN:
		return key ? set_ref(p, "controller", val, p->chan_ctl[i])
			   : set_link(p, "type", val, false, &s->chan[i].type);
	case K_DRIVE: return set_drive(p, i, key, val);
	default: return set_vol(p, i, key, val);
	}
}

/* Room for one more part of this kind: its index with defaults set, its name copied. */
static int new_part(struct parser *p, unsigned kind, const char *name, unsigned *index)
{
	struct iolab_subsys *s = p->s;
	unsigned *count[K_N] = {NULL, &s->nbus, &s->nctl, &s->nchan, &s->ndrive, &s->nvol};
	unsigned room = kind == K_DRIVE ? IOLAB_SUBSYS_DRIVES : IOLAB_SUBSYS_MAX;
	if (kind == K_HOST) {
		if (p->w.host)
			return fail(p, "kind", "the host is given twice (line %u)", p->w.host);
		p->w.host = p->line;
		return *index = 0, 0;
	}
	if (*count[kind] == room)
		return fail(p, "kind", "too many parts of kind %s (at most %u)", kind_name[kind], room);
	unsigned i = *index = (*count[kind])++;
	char *dst = NULL;
	switch (kind) {
	case K_BUS: s->bus[i].up = -1; p->w.bus[i] = p->line; dst = s->bus[i].name; break;
	case K_CTL:
		s->ctl[i].bus = -1;
		s->ctl[i].p.battery = true;
		p->w.ctl[i] = p->line;
		dst = s->ctl[i].name;
		break;
	case K_CHAN: s->chan[i].controller = -1; p->w.chan[i] = p->line; dst = s->chan[i].name; break;
	case K_DRIVE:
		s->drive[i].channel = -1;
		s->drive[i].write_cache = -1;
		p->w.drive[i] = p->line;
		dst = s->drive[i].name;
		break;
	case K_VOL:
		s->vol[i].stripe_bytes = 64 * 1024;
		s->vol[i].failed[0] = s->vol[i].failed[1] = -1;
		p->w.vol[i] = p->line;
		dst = s->vol[i].name;
		break;
	}
	memcpy(dst, name, strlen(name) + 1);
	p->order[p->nparts++] = (struct part){(unsigned char)kind, (unsigned short)i};
	return 0;
}

/* The kind and, except for the host, the name at the start of a line; *first is the field
 * after them. */
static int head(struct parser *p, char **f, unsigned n, unsigned *kind, unsigned *first)
{
	unsigned k = 0;
	while (k < K_N && strcmp(f[0], kind_name[k]))
		k++;
	if (k == K_N)
		return fail(p, "kind", "'%.100s' is not a kind (host, bus, controller, channel, drive, "
			    "volume)", f[0]);
	*kind = k;
	if (k == K_HOST) {
		if (n > 1 && !strchr(f[1], '='))
			return fail(p, "name", "the host takes no name (host key=value ...)");
		*first = 1;
		return 0;
	}
	if (n < 2 || strchr(f[1], '='))
		return fail(p, "name", "a %s line is: %s NAME key=value ...", kind_name[k], kind_name[k]);
	if (!valid_name(f[1]))
		return fail(p, "name", "'%.100s' is not a name (1 to %d letters, digits, '-', '_' or '.')",
			    f[1], NAME - 1);
	int other = find(p, f[1]);
	if (other >= 0) {
		unsigned line;
		part_name(p, p->order[other].kind, p->order[other].i, &line);
		return fail(p, "name", "'%s' is already the name of a %s (line %u)", f[1],
			    kind_name[p->order[other].kind], line);
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
	unsigned kind = K_HOST, first = 1, i = 0, given = 0;
	int rc = head(p, f, n, &kind, &first);
	if (!rc)
		rc = new_part(p, kind, kind == K_HOST ? "" : f[1], &i);
	if (rc)
		return rc;
	for (unsigned k = first; k < n && !rc; k++) {
		char *eq = strchr(f[k], '=');
		if (!eq || eq == f[k])
			return fail(p, eq ? "=" : f[k], "expected key=value (a %s line is: %s%s "
				    "key=value ...)", kind_name[kind], kind_name[kind],
				    kind == K_HOST ? "" : " NAME");
		*eq = 0;
		const char *key = f[k], *val = eq + 1;
		unsigned j = 0;
		while (j < NKEYS && keys[kind].key[j] && strcmp(keys[kind].key[j], key))
			j++;
		if (j == NKEYS || !keys[kind].key[j]) {
			char list[200] = "";
			for (unsigned q = 0; q < NKEYS && keys[kind].key[q]; q++)
				snprintf(list + strlen(list), sizeof(list) - strlen(list), "%s%s",
					 q ? ", " : "", keys[kind].key[q]);
			return fail(p, key, "not a key of a %s (%s)", kind_name[kind], list);
		}
		if (given & (1u << j))
			return fail(p, key, "given twice on this line");
		given |= 1u << j;
		if (!*val)
			return fail(p, key, "has no value");
		rc = set_key(p, kind, i, j, val);
	}
	for (unsigned j = 0; j < keys[kind].required && !rc; j++)
		if (!(given & (1u << j)))
			rc = fail(p, keys[kind].key[j], "missing: a %s needs %s=", kind_name[kind],
				  keys[kind].key[j]);
	if (!rc && kind == K_CTL)
		rc = cache_used(p, &p->s->ctl[i].p);
	if (!rc && kind == K_VOL && p->s->vol[i].level == IOLAB_RAID1 && p->s->vol[i].n < 2)
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

/* The part called name, which must be of kind want: its index in *out. */
static int resolve(struct parser *p, unsigned line, const char *field, const char *name,
		   unsigned want, int *out)
{
	p->line = line;
	int k = find(p, name);
	if (k < 0)
		return fail(p, field, "no %s '%s' in the file", kind_name[want], name);
	if (p->order[k].kind != want) {
		unsigned at;
		part_name(p, p->order[k].kind, p->order[k].i, &at);
		return fail(p, field, "'%s' is a %s (line %u), not a %s", name,
			    kind_name[p->order[k].kind], at, kind_name[want]);
	}
	*out = p->order[k].i;
	return 0;
}

/* Resolves the references of part k (in the order the parts were written). */
static int resolve_part(struct parser *p, const struct part *k)
{
	struct iolab_subsys *s = p->s;
	unsigned i = k->i;
	switch (k->kind) {
	case K_BUS:
		return p->bus_up[i][0] ? resolve(p, p->w.bus[i], "up", p->bus_up[i], K_BUS, &s->bus[i].up) : 0;
	case K_CTL:
		return p->ctl_bus[i][0] ? resolve(p, p->w.ctl[i], "bus", p->ctl_bus[i], K_BUS, &s->ctl[i].bus) : 0;
	case K_CHAN:
		return p->chan_ctl[i][0] ? resolve(p, p->w.chan[i], "controller", p->chan_ctl[i], K_CTL,
						   &s->chan[i].controller) : 0;
	case K_DRIVE:
		return p->drive_chan[i][0] ? resolve(p, p->w.drive[i], "channel", p->drive_chan[i], K_CHAN,
						     &s->drive[i].channel) : 0;
	}
	for (unsigned m = 0; m < s->vol[i].n; m++) {
		int d;
		int rc = resolve(p, p->w.vol[i], "drives", p->vol_drive[i][m], K_DRIVE, &d);
		if (rc)
			return rc;
		s->vol[i].drive[m] = (unsigned)d;
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
		rc = resolve_part(p, &p->order[k]);
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
