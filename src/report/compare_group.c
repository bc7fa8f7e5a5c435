/* compare_group.c: several stored runs as one side of a comparison (iolab_compare_pool,
 * include/iolab/compare.h; docs/compare.md, "Groups"): their points pooled, each remembering
 * its run. */
#include <errno.h>

#include "iolab/compare.h"
#include "compare_keys.h"

/* doc's member name when every run has it equal, else null */
static json_t *agreed(const struct iolab_compare_run *runs, size_t n, const char *name)
{
	const json_t *v = json_object_get(runs[0].doc, name);
	for (size_t r = 1; r < n; r++)
		if (!compare_value_eq(v, json_object_get(runs[r].doc, name)))
			return json_null();
	return v ? json_deep_copy(v) : json_null();
}

int iolab_compare_pool(const struct iolab_compare_run *runs, size_t n, json_t **doc,
		       struct iolab_err *err)
{
	if (!n)
		return iolab_errf(err, EINVAL, "compare: an empty group");
	json_t *points = json_array(), *configs = json_array(), *ids = json_array();
	bool interrupted = false;
	int rc = points && configs && ids ? 0 : iolab_errf(err, ENOMEM, "out of memory");
	for (size_t r = 0; !rc && r < n; r++) {
		const json_t *ps = json_object_get(runs[r].doc, "points");
		if (!json_is_array(ps)) {
			rc = iolab_errf(err, EINVAL, "run %lld: no \"points\" array: not an iolab results "
					"document (docs/json-schema.md)", (long long)runs[r].id);
			break;
		}
		size_t i;
		const json_t *p, *c;
		json_array_foreach(ps, i, p) {
			json_t *q = json_deep_copy(p);
			if (json_is_object(q))
				json_object_set_new(q, "run_id", json_integer((json_int_t)runs[r].id));
			json_array_append_new(points, q);
		}
		json_array_foreach(json_object_get(json_object_get(runs[r].doc, "config"), "runs"), i, c)
			json_array_append_new(configs, json_deep_copy(c));
		json_array_append_new(ids, json_integer((json_int_t)runs[r].id));
		interrupted |= json_is_true(json_object_get(runs[r].doc, "interrupted"));
	}
	json_t *command = agreed(runs, n, "command");
	if (json_is_null(command)) {
		json_decref(command);
		command = json_deep_copy(json_object_get(runs[0].doc, "command"));
	}
	json_t *d = rc ? NULL : json_pack("{s:o, s:{s:o}, s:o, s:o, s:b, s:o, s:o}", "command",
					  command ? command : json_null(), "config", "runs", configs,
					  "points", points, "group_ids", ids, "interrupted", interrupted,
					  "price_usd", agreed(runs, n, "price_usd"), "capacity_bytes",
					  agreed(runs, n, "capacity_bytes"));
	if (rc) {
		json_decref(command);
		json_decref(points);
		json_decref(configs);
		json_decref(ids);
		return rc;
	}
	if (!d)
		return iolab_errf(err, ENOMEM, "out of memory");
	*doc = d;
	return 0;
}
