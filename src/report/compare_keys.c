/* compare_keys.c: what compare.c matches points by (compare_keys.h, docs/compare.md).
 *
 * A point's identity is what it ran apart from the system and the load (points[].workload,
 * docs/json-schema.md): a pattern point's pattern, a job point's per-worker patterns, a trace
 * point's trace (its hash, else its file name) in the field "trace" with "pattern" null. A
 * stored document older than points[].workload is read the same way: a point with a "replay"
 * object replayed the trace its "pattern" names. The replay mode is a load field like qd.
 *
 * The fields keyed on are --by's, or by default the identity, workload and load fields (the
 * replay mode among them) and every field that
 * differs among the points of one of the runs compared: all runs are keyed on all of them, so
 * a run that did not sweep a parameter meets only the point of its own value. With --by, a field
 * outside it that still differs among a run's points alike on the --by fields keys that run's
 * points and is left open in the runs where it does not differ. */
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "compare_keys.h"
#include "iolab/compare.h"

/* Every field of a full key but the settings ("set:NAME"); the first NWORKLOAD are always in
 * the default key. */
static const char *const key_fields[] = {"pattern", "trace", "bs", "read_pct", "qd", "workers",
					 "clients", "think_s", "target_iops", "replay",
					 "host_scheduler", "volume", "cache_bytes", "write_policy",
					 "model"};
#define NKEY (sizeof(key_fields) / sizeof(key_fields[0]))
#define NWORKLOAD 10

bool compare_value_eq(const json_t *a, const json_t *b)
{
	if (!a)
		a = json_null();
	if (!b)
		b = json_null();
	if (json_is_number(a) && json_is_number(b))
		return json_number_value(a) == json_number_value(b);
	if (json_is_object(a) && json_is_object(b)) {
		if (json_object_size(a) != json_object_size(b))
			return false;
		const char *k;
		const json_t *v;
		json_object_foreach((json_t *)a, k, v)
			if (!compare_value_eq(v, json_object_get(b, k)))
				return false;
		return true;
	}
	return json_equal(a, b);
}

static json_t *copy_or_null(const json_t *v)
{
	return v ? json_deep_copy(v) : json_null();
}

static const char *base_name(const char *path)
{
	const char *s = strrchr(path, '/');
	return s && s[1] ? s + 1 : path;
}

/* A job point's identity: its workers' patterns joined by '+'. */
static json_t *specs_identity(const json_t *specs)
{
	char buf[1024] = "";
	size_t i, len = 0;
	const json_t *s;
	json_array_foreach(specs, i, s)
		if (len < sizeof(buf))
			len += (size_t)snprintf(buf + len, sizeof(buf) - len, "%s%s", i ? "+" : "",
						json_is_string(s) ? json_string_value(s) : "?");
	return json_string(buf);
}

/* Sets k's "pattern" and "trace" to p's identity (see the top of the file). */
static void identity(const json_t *p, json_t *k, json_t *trace_names)
{
	const json_t *w = json_object_get(p, "workload");
	const char *kind = json_string_value(json_object_get(w, "kind"));
	const char *pattern = json_string_value(json_object_get(p, "pattern"));
	if (!kind)
		kind = json_is_object(json_object_get(p, "replay")) ? "trace" : "pattern";
	json_t *pat = json_null(), *trace = json_null();
	if (!strcmp(kind, "trace")) {
		const json_t *t = json_object_get(w, "trace");
		if (!json_is_object(t))
			t = json_object_get(p, "trace");
		const char *name = json_string_value(json_object_get(t, "name"));
		const char *hash = json_string_value(json_object_get(t, "hash"));
		if (!name)
			name = pattern ? base_name(pattern) : "trace";
		const char *id = hash ? hash : name;
		trace = json_string(id);
		if (trace_names && !json_object_get(trace_names, id))
			json_object_set_new(trace_names, id, json_string(name));
	} else if (!strcmp(kind, "job") && json_is_array(json_object_get(w, "specs"))) {
		pat = specs_identity(json_object_get(w, "specs"));
	} else {
		const json_t *wp = json_object_get(w, "pattern");
		pat = json_is_string(wp) ? json_deep_copy(wp) : pattern ? json_string(pattern) : json_null();
	}
	json_object_set_new(k, "pattern", pat ? pat : json_null());
	json_object_set_new(k, "trace", trace ? trace : json_null());
}

json_t *compare_full_key(const json_t *p, json_t *trace_names)
{
	json_t *k = json_object();
	if (!k)
		return NULL;
	identity(p, k, trace_names);
	for (size_t f = 2; f < NKEY; f++)
		json_object_set_new(k, key_fields[f], copy_or_null(json_object_get(p, key_fields[f])));
	/* points[].workers is each worker's share, worker_count their number (older files: the
	 * number itself, under workers) */
	const json_t *wc = json_object_get(p, "worker_count");
	if (json_is_integer(wc))
		json_object_set_new(k, "workers", json_integer(json_integer_value(wc)));
	const json_t *r = json_object_get(p, "replay");
	json_object_set_new(k, "replay", json_is_object(r) ? copy_or_null(json_object_get(r, "mode"))
			    : json_null());
	const char *name;
	const json_t *v;
	json_object_foreach(json_object_get(p, "settings"), name, v) {
		char field[160];
		snprintf(field, sizeof(field), "set:%s", name);
		json_object_set_new(k, field, copy_or_null(v));
	}
	return k;
}

/* Adds to set (field -> true) the fields of a or b that differ between them, outside skip (an
 * object of the same kind, or NULL). */
static void add_differing(const json_t *a, const json_t *b, const json_t *skip, json_t *set)
{
	for (int side = 0; side < 2; side++) {
		const char *f;
		const json_t *v;
		json_object_foreach((json_t *)(side ? b : a), f, v)
			if (!json_object_get(skip, f) && !json_object_get(set, f) &&
			    !compare_value_eq(json_object_get(a, f), json_object_get(b, f)))
				json_object_set_new(set, f, json_true());
	}
}

/* a and b equal on the fields of set */
static bool equal_on(const json_t *a, const json_t *b, const json_t *set)
{
	const char *f;
	const json_t *v;
	json_object_foreach((json_t *)set, f, v)
		if (!compare_value_eq(json_object_get(a, f), json_object_get(b, f)))
			return false;
	return true;
}

static json_t *set_to_array(const json_t *set)
{
	json_t *a = json_array();
	const char *f;
	const json_t *v;
	json_object_foreach((json_t *)set, f, v)
		json_array_append_new(a, json_string(f));
	return a;
}

json_t *compare_key_fields(json_t **const *fk, const size_t *np, size_t n, const json_t *by)
{
	if (by)
		return json_deep_copy(by);
	json_t *set = json_object();
	for (size_t f = 0; set && f < NWORKLOAD; f++)
		json_object_set_new(set, key_fields[f], json_true());
	for (size_t r = 0; set && r < n; r++)
		for (size_t i = 0; i < np[r]; i++)
			for (size_t j = i + 1; j < np[r]; j++)
				add_differing(fk[r][i], fk[r][j], NULL, set);
	json_t *a = set ? set_to_array(set) : NULL;
	json_decref(set);
	return a;
}

int compare_run_keys(json_t *const *fk, size_t np, const json_t *fields, json_t **keys)
{
	json_t *base = json_object(), *open = json_object();
	size_t i;
	const json_t *f;
	int rc = base && open ? 0 : -ENOMEM;
	json_array_foreach(fields, i, f)
		if (!rc)
			json_object_set_new(base, json_string_value(f), json_true());
	for (i = 0; !rc && i < np; i++)
		for (size_t j = i + 1; j < np; j++)
			if (equal_on(fk[i], fk[j], base))
				add_differing(fk[i], fk[j], base, open);
	for (i = 0; !rc && i < np; i++) { /* the fields keyed on, in their order, then the others */
		if (!(keys[i] = json_object())) {
			rc = -ENOMEM;
			break;
		}
		const char *name;
		for (int pass = 0; pass < 2; pass++)
			json_object_foreach(pass ? open : base, name, f)
				json_object_set_new(keys[i], name, copy_or_null(json_object_get(fk[i], name)));
	}
	json_decref(base);
	json_decref(open);
	return rc;
}

int iolab_compare_parse_by(const char *list, json_t **by, struct iolab_err *err)
{
	json_t *a = json_array();
	if (!a)
		return iolab_errf(err, ENOMEM, "out of memory");
	const char *s = list;
	for (;;) {
		size_t len = strcspn(s, ",");
		char field[160];
		if (!len || len >= sizeof(field) || (len == 4 && !strncmp(s, "set:", 4))) {
			json_decref(a);
			return iolab_errf(err, EINVAL, "--by '%s': give key fields separated by commas "
					  "(docs/compare.md)", list);
		}
		snprintf(field, sizeof(field), "%.*s", (int)len, s);
		const char *name = !strcmp(field, "rate") ? "target_iops" : field;
		bool known = !strncmp(name, "set:", 4);
		for (size_t f = 0; !known && f < NKEY; f++)
			known = !strcmp(name, key_fields[f]);
		if (!known) {
			json_decref(a);
			return iolab_errf(err, EINVAL, "--by: unknown field '%s': use pattern, trace, bs, "
					  "read_pct, qd, workers, clients, think_s, target_iops (rate), "
					  "replay, host_scheduler, volume, cache_bytes, write_policy, model "
					  "or set:NAME", field);
		}
		size_t i;
		const json_t *have;
		bool dup = false;
		json_array_foreach(a, i, have)
			dup |= !strcmp(json_string_value(have), name);
		if (!dup)
			json_array_append_new(a, json_string(name));
		if (!s[len])
			break;
		s += len + 1;
	}
	*by = a;
	return 0;
}
