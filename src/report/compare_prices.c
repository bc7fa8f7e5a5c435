/* compare_prices.c: the prices of a comparison's runs on what each run used and measured
 * (include/iolab/compare_prices.h, docs/compare.md "Prices"): $/GB on the bytes of the region
 * the run addressed, not the drive's whole capacity; $/IOPS and $/(MB/s) per compared point, and
 * at one point a person names (--price-at), never at the best point of whatever pattern ran.
 * It reads the result object iolab_compare built (runs[].price_usd, points[].key and values), and
 * the runs' documents for their regions (docs/json-schema.md, RUN: offset, length, stroke_pct). */
#include <errno.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "iolab/compare_prices.h"
#include "iolab/parse.h"

static double num(const json_t *v)
{
	return json_is_number(v) ? json_number_value(v) : NAN;
}

static json_t *real_or_null(double v)
{
	return isfinite(v) ? json_real(v) : json_null();
}

static double per(double price, double figure)
{
	return figure > 0 ? price / figure : NAN;
}

/* The config.runs[] entry point p ran under: the one its "run" names (job files), else the first. */
static const json_t *run_config(const json_t *doc, const json_t *p)
{
	const json_t *runs = json_object_get(json_object_get(doc, "config"), "runs"), *c;
	const char *name = json_string_value(json_object_get(p, "run"));
	size_t i;
	json_array_foreach(runs, i, c)
		if (name && json_is_string(json_object_get(c, "name")) &&
		    !strcmp(name, json_string_value(json_object_get(c, "name"))))
			return c;
	return json_array_get(runs, 0);
}

/* The bytes point p of doc addressed: its region (offset, length, stroke_pct) on each target of
 * the run's capacity_bytes, as the run sized it (run_region_len: length, else stroke % of the target,
 * else from the offset to the end). A document without them: the whole capacity. NAN without a
 * capacity. */
static double used_bytes(const json_t *doc, const json_t *p)
{
	double cap = num(json_object_get(doc, "capacity_bytes")); /* the run's: its first point's */
	if (!(cap > 0))
		cap = num(json_object_get(p, "capacity_bytes"));
	if (!(cap > 0))
		return NAN;
	const json_t *c = run_config(doc, p);
	double off = num(json_object_get(c, "offset")), len = num(json_object_get(c, "length")),
	       stroke = num(json_object_get(c, "stroke_pct"));
	double targets = (double)json_array_size(json_object_get(c, "targets"));
	if (targets < 1)
		targets = 1; /* a simulated path or the null engine: one region */
	double used = cap;
	if (len > 0)
		used = targets * len;
	else if (stroke > 0)
		used = floor(cap / targets / 100) * stroke * targets;
	else if (off > 0)
		used = cap - targets * off;
	return used > 0 && used <= cap ? used : cap;
}

int iolab_compare_prices(json_t *res, const struct iolab_compare_run *runs, size_t n,
			 struct iolab_err *err)
{
	json_t *rs = json_object_get(res, "runs");
	for (size_t r = 0; r < n && r < json_array_size(rs); r++) {
		json_t *run = json_array_get(rs, r);
		const json_t *doc = runs[r].doc;
		double price = num(json_object_get(run, "price_usd"));
		double used = used_bytes(doc, json_array_get(json_object_get(doc, "points"), 0));
		if (json_object_set_new(run, "used_bytes", isfinite(used) ? json_integer((json_int_t)used)
					: json_null()) ||
		    json_object_set_new(run, "usd_per_gb", real_or_null(per(price, used / 1e9))) ||
		    json_object_set_new(run, "usd_per_iops", json_null()) ||
		    json_object_set_new(run, "usd_per_mb_s", json_null()) ||
		    json_object_set_new(run, "price_at", json_null()))
			return iolab_errf(err, ENOMEM, "out of memory");
	}
	size_t i;
	json_t *p;
	json_array_foreach(json_object_get(res, "points"), i, p) {
		size_t r;
		json_t *v;
		json_array_foreach(json_object_get(p, "values"), r, v) {
			double price = num(json_object_get(json_array_get(rs, r), "price_usd"));
			if (!json_is_object(v))
				continue;
			if (json_object_set_new(v, "usd_per_iops",
						real_or_null(per(price, num(json_object_get(v, "iops"))))) ||
			    json_object_set_new(v, "usd_per_mb_s",
						real_or_null(per(price, num(json_object_get(v, "mb_per_s"))))))
				return iolab_errf(err, ENOMEM, "out of memory");
		}
	}
	if (json_object_set_new(res, "price_at", json_null()))
		return iolab_errf(err, ENOMEM, "out of memory");
	return 0;
}

/* ---- --price-at ---- */

struct point_spec {
	char pattern[128];
	uint64_t qd, bs; /* bs 0: any */
};

static int parse_spec(const char *spec, struct point_spec *s, struct iolab_err *err)
{
	char buf[512], *items[8];
	int n = iolab_split_list("--price-at", spec, buf, sizeof(buf), items, 8, err);
	if (n < 0)
		return n;
	*s = (struct point_spec){0};
	snprintf(s->pattern, sizeof(s->pattern), "%s", items[0]);
	for (int i = 1; i < n; i++) {
		int rc;
		if (!strncmp(items[i], "qd", 2))
			rc = iolab_parse_uint("--price-at: qd", items[i] + 2, 1, 1u << 20, &s->qd, err);
		else if (!strncmp(items[i], "bs", 2))
			rc = iolab_parse_size("--price-at: bs", items[i] + 2, &s->bs, err);
		else
			rc = iolab_errf(err, EINVAL, "--price-at '%s': '%s' is neither qdN nor bsSIZE "
					"(PATTERN,qdN or PATTERN,bsSIZE,qdN: file-server,qd16)", spec, items[i]);
		if (rc)
			return rc;
	}
	if (!s->qd)
		return iolab_errf(err, EINVAL, "--price-at '%s': name the point's queue depth too "
				  "(PATTERN,qdN or PATTERN,bsSIZE,qdN: file-server,qd16)", spec);
	return 0;
}

static bool spec_matches(const struct point_spec *s, const json_t *key)
{
	const json_t *pat = json_object_get(key, "pattern");
	return json_is_string(pat) && !strcmp(json_string_value(pat), s->pattern) &&
	       num(json_object_get(key, "qd")) == (double)s->qd &&
	       (!s->bs || num(json_object_get(key, "bs")) == (double)s->bs);
}

int iolab_compare_price_at(json_t *res, const char *spec, struct iolab_err *err)
{
	struct point_spec s;
	int rc = parse_spec(spec, &s, err);
	if (rc)
		return rc;
	const json_t *points = json_object_get(res, "points"), *p;
	char names[512] = "";
	size_t i, found = 0, at = 0;
	json_array_foreach(points, i, p)
		if (spec_matches(&s, json_object_get(p, "key"))) {
			size_t len = strlen(names);
			snprintf(names + len, sizeof(names) - len, "%s'%s'", found ? ", " : "",
				 json_string_value(json_object_get(p, "name")));
			if (!found++)
				at = i;
		}
	if (!found)
		return iolab_errf(err, EINVAL, "--price-at '%s': no compared point is pattern %s at qd %llu%s "
				  "(the compared points are named as in the table)", spec, s.pattern,
				  (unsigned long long)s.qd, s.bs ? " of that bs" : "");
	if (found > 1)
		return iolab_errf(err, EINVAL, "--price-at '%s': %zu compared points match (%s): name one "
				  "by its bs too (PATTERN,bsSIZE,qdN)", spec, found, names);
	p = json_array_get(points, at);
	json_t *rs = json_object_get(res, "runs"), *run;
	size_t r;
	json_array_foreach(rs, r, run) {
		const json_t *v = json_array_get(json_object_get(p, "values"), r);
		json_object_set_new(run, "usd_per_iops", json_copy(json_object_get(v, "usd_per_iops")));
		json_object_set_new(run, "usd_per_mb_s", json_copy(json_object_get(v, "usd_per_mb_s")));
		json_object_set(run, "price_at", json_object_get(p, "name"));
	}
	json_object_set_new(res, "price_at", json_pack("{ss sI sO}", "spec", spec, "point", (json_int_t)at,
							"name", json_object_get(p, "name")));
	return 0;
}
