/* subsys_set.c: iolab_subsys_set, one key of a described subsystem set from outside (a sweep's
 * point, a script), the way DiskSim's command line overrides one parameter of a parameter file
 * (`disksim x.parv out ascii t 0 "disk0" "Seek time" 5.0`: component, parameter, value).
 *
 * The part is a part's name or a kind's (every part of that kind); the key is one of the kind's
 * keys in the registry (sim_kinds.h), read as the subsystem file's reader reads it, or, for a
 * drive, a drive field of the model file format (docs/model-format.md), applied to a copy of
 * the drive's model written out and read back, so that it is derived and checked as a model
 * file is; the same for an SSD and the fields of an SSD model. The kind `drive` covers every
 * device given as a drive line, an SSD's among them (a drive line of an SSD model makes an
 * SSD). Keys that name other parts (`channel=`, `drives=`, ...) may not be set: the parts
 * and their wiring are the description's. On any refusal s is as it was. */
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "iolab/sim_kinds.h"
#include "iolab/subsys.h"
#include "sim/description/subsys_values.h"
#include "sim/formats/ssd_model_file.h"

struct target {
	const struct iolab_kind *kind;
	unsigned i;
	void *rec;
	const char *name;
};

/* Messages start "PART.KEY: " (what was asked), and name the part a refusal is about when the
 * request named several ("drive.rpm: drive 'd3': ..."). */
struct ask {
	const char *part, *key;
	bool many;
	int model; /* a model this call opened for model=, shared by its parts; or -1 */
};

static void where(const struct ask *a, const struct target *t, struct iolab_err *err)
{
	if (a->many && t->kind != &iolab_kind_host)
		iolab_err_prefix(err, "%s.%s: %s '%s'", a->part, a->key, t->kind->name, t->name);
	else
		iolab_err_prefix(err, "%s.%s", a->part, a->key);
}

/* Appends part (kind, i) of class cls whose record is rec and name is name when want is NULL
 * and its name is part, or when its kind is want (or is also: also_want). */
static void consider(struct target *t, unsigned *n, const struct iolab_kind *kind, unsigned i,
		     void *rec, const char *name, const char *part, const struct iolab_kind *want,
		     bool also_want)
{
	if (want ? kind == want || also_want : !strcmp(name, part))
		t[(*n)++] = (struct target){kind, i, rec, name};
}

/* The parts PART names (a part's name first, then a kind's). Returns their count. */
static unsigned targets(struct iolab_subsys *s, const char *part, const struct iolab_kind *want,
			struct target *t)
{
	unsigned n = 0;
	if (want == &iolab_kind_host || (!want && !strcmp(part, "host"))) {
		t[0] = (struct target){&iolab_kind_host, 0, s, "host"};
		return 1;
	}
	for (unsigned i = 0; i < s->nbus; i++)
		consider(t, &n, &iolab_kind_bus, i, &s->bus[i], s->bus[i].name, part, want, false);
	for (unsigned i = 0; i < s->nctl; i++)
		consider(t, &n, &iolab_kind_controller, i, &s->ctl[i], s->ctl[i].name, part, want, false);
	for (unsigned i = 0; i < s->nchan; i++)
		consider(t, &n, &iolab_kind_channel, i, &s->chan[i], s->chan[i].name, part, want, false);
	for (unsigned i = 0; i < s->ndrive; i++) {
		const struct iolab_sub_drive *d = &s->drive[i];
		bool drive_line = !d->kind || d->kind == &iolab_kind_drive;
		consider(t, &n, iolab_device_kind(s, d), i, &s->drive[i], d->name, part, want,
			 want == &iolab_kind_drive && drive_line);
	}
	for (unsigned i = 0; i < s->nvol; i++)
		consider(t, &n, &iolab_kind_volume, i, &s->vol[i], s->vol[i].name, part, want, false);
	return n;
}

/* The fields a model's zones (or its table layout) are laid out on: a copy with another value
 * would contradict its own zones, so they cannot be set; another model can. */
static bool layout_field(const char *key)
{
	static const char *const layout[] = {"block_bytes", "surfaces", "cylinders", "blocks",
					     "mapping"};
	for (unsigned i = 0; i < sizeof(layout) / sizeof(layout[0]); i++)
		if (!strcmp(layout[i], key))
			return true;
	return false;
}

/* A field of m's format: a drive field, or an SSD model's field (ssd_model_file.c). */
static bool model_field(const struct iolab_disk_model *m, const char *key)
{
	if (m->ssd)
		return iolab_ssd_field(key) && strcmp(key, "device");
	for (unsigned i = 0; iolab_model_field_at(i); i++)
		if (!strcmp(iolab_model_field_at(i), key))
			return true;
	return false;
}

/* m written out with "key = value" in place of its own line of that field, read back into out.
 * The line goes first, or after `device = ssd`, which an SSD model starts with. */
static int model_with(const struct iolab_disk_model *m, const char *key, const char *value,
		      struct iolab_disk_model *out, struct iolab_err *err)
{
	char *text = NULL, *edited = NULL, name[96];
	size_t len = 0;
	FILE *f = open_memstream(&text, &len);
	if (!f || iolab_model_write(m, f)) {
		if (f)
			fclose(f);
		free(text);
		return iolab_errf(err, ENOMEM, "out of memory");
	}
	fclose(f);
	static const char ssd_first[] = "device = ssd\n";
	size_t klen = strlen(key), room = len + klen + strlen(value) + sizeof(ssd_first) + 8, at = 0;
	if (!(edited = malloc(room))) {
		free(text);
		return iolab_errf(err, ENOMEM, "out of memory");
	}
	unsigned key_line = m->ssd ? 2 : 1;
	if (m->ssd)
		at += (size_t)snprintf(edited, room, "%s", ssd_first);
	at += (size_t)snprintf(edited + at, room - at, "%s = %s\n", key, value);
	bool top = true; /* the drive's fields, before the first section */
	for (const char *l = text; *l;) {
		const char *nl = strchr(l, '\n');
		size_t n = nl ? (size_t)(nl - l) + 1 : strlen(l);
		top = top && *l != '[';
		bool same = top && ((!strncmp(l, key, klen) && strchr(" =", l[klen])) ||
				    (m->ssd && !strncmp(l, ssd_first, sizeof(ssd_first) - 1)));
		if (!same) {
			memcpy(edited + at, l, n);
			at += n;
		}
		l += n;
	}
	edited[at] = 0;
	snprintf(name, sizeof(name), "model %.63s", m->name);
	int rc = iolab_model_parse(name, edited, out, err);
	size_t nl = strlen(name); /* "model X:1: field ..." is the line written here: no line then */
	char at_key[16];
	size_t al = (size_t)snprintf(at_key, sizeof(at_key), ":%u: ", key_line);
	if (rc && !strncmp(err->msg, name, nl) && !strncmp(err->msg + nl, at_key, al))
		memmove(err->msg + nl + 1, err->msg + nl + al - 1, strlen(err->msg + nl + al - 1) + 1);
	free(text);
	free(edited);
	return rc == -ENOMEM ? rc : rc ? -EINVAL : 0;
}

/* Sets a drive field of the models of the drive targets: each distinct model they use gets one
 * copy with the field changed, which they then use. */
static int set_model_field(struct iolab_subsys *s, const struct ask *a, struct target *t,
			   unsigned n, const char *value, struct iolab_err *err)
{
	const char *key = a->key;
	if (!s->model[((struct iolab_sub_drive *)t[0].rec)->model].ssd && layout_field(key))
		return iolab_errf(err, EINVAL, "%s.%s: the drive's layout cannot change (its model's "
				  "zones are laid out on it): set another model instead", a->part, key);
	if (strpbrk(value, "#\n\r"))
		return iolab_errf(err, EINVAL, "%s.%s: '%.100s' holds a '#' or a line break", a->part,
				  key, value);
	unsigned was[IOLAB_SUBSYS_MAX], now[IOLAB_SUBSYS_MAX], ncopy = 0;
	for (unsigned k = 0; k < n; k++) {
		struct iolab_sub_drive *d = t[k].rec;
		unsigned c = 0;
		while (c < ncopy && was[c] != d->model)
			c++;
		if (c == ncopy) {
			if (s->nmodel == IOLAB_SUBSYS_MAX)
				return iolab_errf(err, EINVAL, "%s.%s: too many different models (at most "
						  "%d)", a->part, key, IOLAB_SUBSYS_MAX);
			int rc = model_with(&s->model[d->model], key, value, &s->model[s->nmodel], err);
			if (rc) {
				where(a, &t[k], err);
				return rc;
			}
			was[ncopy] = d->model;
			now[ncopy++] = s->nmodel++;
		}
		d->model = now[c];
	}
	return 0;
}

/* One key of the registry on one part. */
static int set_param(struct iolab_subsys *s, struct ask *a, const struct target *t,
		     const struct iolab_param *p, const char *value, struct iolab_err *err)
{
	int rc = 0;
	if (p->type == IOLAB_PT_MODEL) { /* opened once for all the parts of the call */
		if (a->model < 0 && s->nmodel == IOLAB_SUBSYS_MAX)
			rc = iolab_errf(err, EINVAL, "field 'model': too many different models (at most %d)",
					IOLAB_SUBSYS_MAX);
		else if (a->model < 0 && (rc = iolab_model_open(value, &s->model[s->nmodel], err)))
			iolab_err_prefix(err, "field 'model'");
		else if (a->model < 0)
			a->model = (int)s->nmodel++;
		if (!rc)
			((struct iolab_sub_drive *)t->rec)->model = (unsigned)a->model;
	} else if (!(rc = iolab_param_read(p, value, t->rec, err))) {
		rc = iolab_param_in_range(p, t->rec, value, err);
	}
	if (rc)
		where(a, t, err);
	return rc == -ENOMEM ? rc : rc ? -EINVAL : 0;
}

/* The reader's rule for a controller's line: write-back and read-ahead keep blocks in its
 * cache (subsys_parse.c). */
static int cache_used(const struct iolab_sub_controller *c, struct iolab_err *err)
{
	if (c->p.cache_bytes || (c->p.write_policy != IOLAB_WP_BACK && c->p.read_ahead == IOLAB_RA_NONE))
		return 0;
	if (c->p.write_policy == IOLAB_WP_BACK)
		return iolab_errf(err, EINVAL, "field 'write-policy': write-back needs a cache "
				  "(cache=SIZE)");
	return iolab_errf(err, EINVAL, "field 'read-ahead': %s read-ahead needs a cache (cache=SIZE)",
			  iolab_read_ahead_name(c->p.read_ahead));
}

/* A device kind whose parts have a model (a drive, an SSD): its model's fields may be set. */
static bool has_model(const struct iolab_kind *k)
{
	const struct iolab_param *p = iolab_kind_param(k, "model");
	return k->cls == IOLAB_KC_DEVICE && p && p->type == IOLAB_PT_MODEL;
}

static int set_all(struct iolab_subsys *s, struct ask *a, struct target *t, unsigned n,
		   const char *value, struct iolab_err *err)
{
	const struct iolab_kind *k = t[0].kind;
	const struct iolab_param *p = iolab_kind_param(k, a->key);
	if (!p && has_model(k) && model_field(&s->model[((struct iolab_sub_drive *)t[0].rec)->model],
					      a->key))
		return set_model_field(s, a, t, n, value, err);
	if (!p) {
		char keys[300];
		iolab_kind_keys(k, keys, sizeof(keys));
		return iolab_errf(err, EINVAL, "%s.%s: a %s has no key '%.60s' (%s%s)", a->part, a->key,
				  k->name, a->key, keys, k == &iolab_kind_drive ? ", or a drive field of "
				  "its model: docs/model-format.md" : has_model(k) ? ", or a field of its "
				  "model: docs/model-format.md" : "");
	}
	if (p->fixed)
		return iolab_errf(err, EINVAL, "%s.%s: a %s's '%s' names other parts or shapes the "
				  "path: it cannot be set per point; change the subsystem file", a->part,
				  a->key, k->name, a->key);
	for (unsigned j = 0; j < n; j++) {
		int rc = set_param(s, a, &t[j], p, value, err);
		if (!rc && t[j].kind == &iolab_kind_controller && (rc = cache_used(t[j].rec, err)))
			where(a, &t[j], err);
		if (rc)
			return rc;
	}
	return 0;
}

int iolab_subsys_set(struct iolab_subsys *s, const char *part, const char *key, const char *value,
		     struct iolab_err *err)
{
	struct target *t = malloc((4 * IOLAB_SUBSYS_MAX + IOLAB_SUBSYS_DRIVES + 1) * sizeof(*t));
	struct iolab_subsys *was = malloc(sizeof(*was));
	if (!t || !was) {
		free(t);
		free(was);
		return iolab_errf(err, ENOMEM, "out of memory");
	}
	memcpy(was, s, sizeof(*s));
	unsigned n = targets(s, part, NULL, t);
	const struct iolab_kind *k = n ? NULL : iolab_kind_find(part);
	int rc = 0;
	struct ask a = {part, key, k || n > 1, -1};
	if (!n && k && !(n = targets(s, part, k, t)))
		rc = iolab_errf(err, EINVAL, "%s.%s: the simulated path has no %s", part, key, k->name);
	if (!n && !k) {
		char kinds[200];
		iolab_kind_names(kinds, sizeof(kinds));
		rc = iolab_errf(err, EINVAL, "%s.%s: no part or kind '%.60s' in the simulated path "
				"(kinds: %s; or a part's name)", part, key, part, kinds);
	}
	if (!rc)
		rc = set_all(s, &a, t, n, value, err);
	if (!rc && (rc = iolab_subsys_check(s, err)))
		iolab_err_prefix(err, "%s.%s", part, key);
	if (rc) { /* as it was: the models the set opened go */
		for (unsigned m = was->nmodel; m < s->nmodel; m++)
			iolab_model_free(&s->model[m]);
		memcpy(s, was, sizeof(*s));
	}
	free(was);
	free(t);
	return rc;
}
