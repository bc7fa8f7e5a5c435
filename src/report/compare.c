/* compare.c: comparing stored runs point by point (include/iolab/compare.h, docs/compare.md).
 *
 * Matching. Each point gets a key (compare_keys.c): its full key (identity, workload, load,
 * system, swept settings) restricted to the fields the comparison keys on (--by's, or by
 * default the workload and load fields and every field that varies within one of the runs),
 * plus, with --by, the fields that still tell apart a run's points alike on them: a run that
 * varied them keys its points by them, a run that did not leaves them open, so that its one
 * point matches each of the other run's. Points still alike after that (a job file running one
 * workload twice) are numbered ("n"). The rows are the most specific joins of compatible keys;
 * a row is compared when every run has exactly one point under it, and a point that no
 * compared row uses is listed in "unmatched", never dropped.
 *
 * Figures: iops and mb_per_s as the run wrote them, lat_mean_us the mean of reads and writes
 * weighted by their I/Os (as the results store's points.lat_mean_us). pct = value / reference's
 * value * 100 (lower is better for latency); null where either is missing or the reference is 0.
 * A point of simulated SSDs carries its write amplification beside them, shown, not compared.
 */
#include <errno.h>
#include <math.h>
#include <stdbool.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "iolab/compare.h"
#include "iolab/compare_prices.h"
#include "iolab/parse.h"
#include "iolab/short_names.h"
#include "compare_keys.h"

#define NMETRIC 3
static const char *const metric_names[NMETRIC] = {"iops", "mb_per_s", "lat_mean_us"};

/* Joins of keys beyond this are refused (sweeps of several system parameters at once in
 * several runs multiply). */
#define MAX_ROWS 4096

/* One run being compared. */
struct crun {
	const json_t *points;
	size_t np;
	json_t **keys;  /* partial key of each point */
	bool *used;     /* the point is in a compared row */
};

/* One row: a key and, per run, the index of its point (-1: none). */
struct row {
	json_t *key;
	long *idx;
	bool matched;
};

/* ---- values and keys ---- */

/* Every field of a is in b with an equal value. */
static bool key_sub(const json_t *a, const json_t *b)
{
	const char *k;
	const json_t *v;
	json_object_foreach((json_t *)a, k, v) {
		const json_t *w = json_object_get(b, k);
		if (!w || !compare_value_eq(v, w))
			return false;
	}
	return true;
}

/* The fields a and b both have are equal. */
static bool key_compat(const json_t *a, const json_t *b)
{
	const char *k;
	const json_t *v;
	json_object_foreach((json_t *)a, k, v) {
		const json_t *w = json_object_get(b, k);
		if (w && !compare_value_eq(v, w))
			return false;
	}
	return true;
}

/* One run's keys: its points' full keys (fk) restricted to the fields keyed on (compare_keys.h);
 * points still alike are numbered in their order, all of them (1, 2, ...). */
static int run_keys(struct crun *r, json_t *const *fk, const json_t *fields, struct iolab_err *err)
{
	size_t np = r->np;
	long *nth = calloc(np ? np : 1, sizeof(*nth));
	if (!nth || compare_run_keys(fk, np, fields, r->keys)) {
		free(nth);
		return iolab_errf(err, ENOMEM, "out of memory");
	}
	for (size_t i = 0; i < np; i++) {
		long before = 0, alike = 0;
		for (size_t j = 0; j < np; j++)
			if (j != i && compare_value_eq(r->keys[i], r->keys[j])) {
				alike++;
				before += j < i;
			}
		nth[i] = alike ? before + 1 : 0;
	}
	for (size_t i = 0; i < np; i++)
		if (nth[i])
			json_object_set_new(r->keys[i], "n", json_integer(nth[i]));
	free(nth);
	return 0;
}

/* ---- rows ---- */

static bool has_key(json_t *const *keys, size_t n, const json_t *k)
{
	for (size_t i = 0; i < n; i++)
		if (compare_value_eq(keys[i], k))
			return true;
	return false;
}

/* All distinct partial keys, closed under joins of compatible keys; then only the maximal ones
 * (no other key holds them and more). *out is malloc'd. */
static int build_keys(const struct crun *runs, size_t n, json_t ***out, size_t *nout,
		      struct iolab_err *err)
{
	json_t **k = calloc(MAX_ROWS, sizeof(*k));
	if (!k)
		return iolab_errf(err, ENOMEM, "out of memory");
	size_t nk = 0;
	int rc = 0;
	for (size_t r = 0; !rc && r < n; r++)
		for (size_t i = 0; !rc && i < runs[r].np; i++) {
			if (has_key(k, nk, runs[r].keys[i]))
				continue;
			if (nk == MAX_ROWS)
				rc = iolab_errf(err, E2BIG, "more than %d points to compare", MAX_ROWS);
			else
				k[nk++] = json_deep_copy(runs[r].keys[i]);
		}
	for (bool grew = true; !rc && grew;) {
		grew = false;
		for (size_t i = 0; !rc && i < nk; i++)
			for (size_t j = i + 1; !rc && j < nk; j++) {
				if (!key_compat(k[i], k[j]) || key_sub(k[i], k[j]) || key_sub(k[j], k[i]))
					continue;
				json_t *join = json_deep_copy(k[i]);
				if (!join) {
					rc = iolab_errf(err, ENOMEM, "out of memory");
					break;
				}
				json_object_update_missing(join, k[j]);
				if (has_key(k, nk, join)) {
					json_decref(join);
				} else if (nk == MAX_ROWS) {
					json_decref(join);
					rc = iolab_errf(err, E2BIG, "more than %d combinations of the swept "
							"parameters to compare", MAX_ROWS);
				} else {
					k[nk++] = join;
					grew = true;
				}
			}
	}
	size_t m = 0;
	for (size_t i = 0; i < nk; i++) {
		bool inner = false;
		for (size_t j = 0; !rc && j < nk && !inner; j++)
			inner = j != i && key_sub(k[i], k[j]) && !key_sub(k[j], k[i]);
		if (rc || inner)
			json_decref(k[i]);
		else
			k[m++] = k[i];
	}
	if (rc) {
		free(k);
		return rc;
	}
	*out = k;
	*nout = m;
	return 0;
}

/* Orders rows by the reference's point, then by each run's in turn (a missing point last). */
struct order {
	size_t n, reference;
};

static int row_cmp(const void *a, const void *b, void *ctx)
{
	const struct row *x = a, *y = b;
	const struct order *o = ctx;
	for (size_t t = 0; t <= o->n; t++) {
		size_t r = t == 0 ? o->reference : t - 1;
		unsigned long xi = (unsigned long)x->idx[r], yi = (unsigned long)y->idx[r]; /* -1 last */
		if (xi != yi)
			return xi < yi ? -1 : 1;
	}
	return 0;
}

/* ---- figures ---- */

static double num(const json_t *v)
{
	return json_is_number(v) ? json_number_value(v) : NAN;
}

static json_t *real_or_null(double v)
{
	return isfinite(v) ? json_real(v) : json_null();
}

/* Mean latency of reads and writes together, weighted by their I/Os; lat_us.mean when the point
 * has no per-direction I/Os. */
static double point_lat_mean(const json_t *p)
{
	double sum = 0, ios = 0;
	const char *dirs[] = {"read", "write"};
	for (int i = 0; i < 2; i++) {
		const json_t *d = json_object_get(p, dirs[i]);
		double n = num(json_object_get(d, "ios")), m = num(json_object_get(json_object_get(d, "lat_us"), "mean"));
		if (isfinite(n) && n > 0 && isfinite(m)) {
			sum += n * m;
			ios += n;
		}
	}
	return ios > 0 ? sum / ios : num(json_object_get(json_object_get(p, "lat_us"), "mean"));
}

static double metric_of(const json_t *p, size_t m)
{
	return m == 2 ? point_lat_mean(p) : num(json_object_get(p, metric_names[m]));
}

static double pct_of(double v, double ref)
{
	return isfinite(v) && isfinite(ref) && ref != 0 ? v / ref * 100 : NAN;
}

/* ---- names ---- */

static void append(char *buf, size_t n, const char *fmt, const char *s)
{
	size_t len = strlen(buf);
	if (len < n)
		snprintf(buf + len, n - len, fmt, s);
}

static const char *fmt_num(const json_t *v, char *buf, size_t n)
{
	snprintf(buf, n, "%g", json_number_value(v));
	return buf;
}

static const char *fmt_seconds(double s, char *buf, size_t n)
{
	if (s >= 1)
		snprintf(buf, n, "%gs", s);
	else if (s >= 1e-3)
		snprintf(buf, n, "%gms", s * 1e3);
	else
		snprintf(buf, n, "%gus", s * 1e6);
	return buf;
}

/* A short name of a key: the pattern, a size if one was set, read % and workers if they vary
 * (or workers are not 1), the load (qd, clients and think time, or rate), the system parameters
 * in the key, and the number of a repeated workload. vary: bit 0 read_pct, bit 1 workers vary. */
static void key_name(const json_t *k, unsigned vary, const json_t *names, char *buf, size_t n)
{
	char t[64];
	const json_t *v;
	buf[0] = 0;
	if (json_is_string(v = json_object_get(k, "pattern")))
		append(buf, n, "%s", json_string_value(v));
	else if (json_is_string(v = json_object_get(k, "trace")))
		append(buf, n, "%s", json_string_value(json_object_get(names, json_string_value(v))));
	if (json_is_integer(v = json_object_get(k, "bs")))
		append(buf, n, " bs %s", iolab_fmt_size((uint64_t)json_integer_value(v), t, sizeof(t)));
	if ((vary & 1) && json_is_number(v = json_object_get(k, "read_pct")))
		append(buf, n, " read %s%%", fmt_num(v, t, sizeof(t)));
	v = json_object_get(k, "workers");
	if (json_is_number(v) && ((vary & 2) || json_number_value(v) != 1))
		append(buf, n, " workers %s", fmt_num(v, t, sizeof(t)));
	if (json_is_string(v = json_object_get(k, "replay")))
		append(buf, n, " replay %s", json_string_value(v));
	if (json_is_number(v = json_object_get(k, "clients"))) {
		append(buf, n, " clients %s", fmt_num(v, t, sizeof(t)));
		if (json_is_number(v = json_object_get(k, "think_s")))
			append(buf, n, " think %s", fmt_seconds(json_number_value(v), t, sizeof(t)));
	} else if (json_is_number(v = json_object_get(k, "target_iops"))) {
		append(buf, n, " rate %s", fmt_num(v, t, sizeof(t)));
	} else if (json_is_number(v = json_object_get(k, "qd"))) {
		append(buf, n, " qd %s", fmt_num(v, t, sizeof(t)));
	}
	if (json_is_string(v = json_object_get(k, "host_scheduler")))
		append(buf, n, " %s", json_string_value(v));
	if (json_is_object(v = json_object_get(k, "volume"))) {
		const json_t *lv = json_object_get(v, "level"), *d = json_object_get(v, "drives"),
			     *st = json_object_get(v, "stripe");
		append(buf, n, " %s", json_is_string(lv) ? json_string_value(lv) : "volume");
		if (json_is_number(d))
			append(buf, n, ":%s", fmt_num(d, t, sizeof(t)));
		if (json_is_integer(st))
			append(buf, n, " stripe %s", iolab_fmt_size((uint64_t)json_integer_value(st), t, sizeof(t)));
	}
	if (json_is_integer(v = json_object_get(k, "cache_bytes")))
		append(buf, n, " cache %s", iolab_fmt_size((uint64_t)json_integer_value(v), t, sizeof(t)));
	if (json_is_string(v = json_object_get(k, "write_policy")))
		append(buf, n, " %s", json_string_value(v));
	if (json_is_string(v = json_object_get(k, "model")))
		append(buf, n, " %s", json_string_value(v));
	const char *field;
	json_object_foreach((json_t *)k, field, v)
		if (!strncmp(field, "set:", 4)) {
			char set[2 * 64 + 2];
			snprintf(set, sizeof(set), "%s=%s", field + 4, json_is_string(v) ? json_string_value(v)
				 : "-");
			append(buf, n, " %s", set);
		}
	if (json_is_integer(v = json_object_get(k, "n")))
		append(buf, n, " #%s", fmt_num(v, t, sizeof(t)));
	if (buf[0] == ' ') /* a key of neither pattern nor trace (--by) */
		memmove(buf, buf + 1, strlen(buf));
}

/* Which of read_pct (bit 0) and workers (bit 1) differ among all points of all runs. */
static unsigned name_vary(const struct crun *runs, size_t n)
{
	const json_t *first[2] = {NULL, NULL};
	const char *f[2] = {"read_pct", "workers"};
	unsigned vary = 0;
	for (size_t r = 0; r < n; r++)
		for (size_t i = 0; i < runs[r].np; i++)
			for (int b = 0; b < 2; b++) {
				const json_t *v = json_object_get(runs[r].keys[i], f[b]);
				if (!first[b])
					first[b] = v;
				else if (!compare_value_eq(first[b], v))
					vary |= 1u << b;
			}
	return vary;
}

/* ---- runs ---- */

/* What the run measured: its simulated models, else its targets (as the store's target). */
static json_t *run_target(const json_t *doc)
{
	char buf[1024] = "";
	size_t i, t;
	const json_t *c, *v;
	json_array_foreach(json_object_get(json_object_get(doc, "config"), "runs"), i, c) {
		if (json_is_string(v = json_object_get(c, "model"))) {
			append(buf, sizeof(buf), buf[0] ? ",%s" : "%s", json_string_value(v));
			continue;
		}
		json_array_foreach(json_object_get(c, "targets"), t, v)
			if (json_is_string(v))
				append(buf, sizeof(buf), buf[0] ? ",%s" : "%s", json_string_value(v));
	}
	return buf[0] ? json_string(buf) : json_null();
}

static json_t *run_object(const struct iolab_compare_run *in)
{
	const json_t *doc = in->doc, *kind = json_object_get(doc, "command");
	json_t *target = run_target(doc);
	const char *name = in->label ? in->label : json_is_string(target) ? json_string_value(target)
		: json_is_string(kind) ? json_string_value(kind) : "run";
	json_t *o = json_pack("{s:I, s:s?, s:s?, s:o, s:s}", "id", (json_int_t)in->id, "label",
			      in->label, "kind", json_string_value(kind), "target", target, "name", name);
	if (!o)
		return NULL;
	double price = num(json_object_get(doc, "price_usd")), cap = num(json_object_get(doc, "capacity_bytes"));
	double best_iops = NAN, best_mb = NAN;
	size_t i;
	const json_t *p;
	json_array_foreach(json_object_get(doc, "points"), i, p) {
		double a = num(json_object_get(p, "iops")), b = num(json_object_get(p, "mb_per_s"));
		if (isfinite(a) && !(a <= best_iops))
			best_iops = a;
		if (isfinite(b) && !(b <= best_mb))
			best_mb = b;
	}
	json_object_set_new(o, "price_usd", real_or_null(price));
	json_object_set_new(o, "capacity_bytes", isfinite(cap) ? json_integer((json_int_t)cap) : json_null());
	/* the prices per GB, IOPS and MB/s: compare_prices.c */
	json_object_set_new(o, "best_iops", real_or_null(best_iops));
	json_object_set_new(o, "best_mb_per_s", real_or_null(best_mb));
	json_object_set_new(o, "points", json_integer((json_int_t)json_array_size(json_object_get(doc, "points"))));
	json_object_set_new(o, "interrupted", json_boolean(json_is_true(json_object_get(doc, "interrupted"))));
	const json_t *group = json_object_get(doc, "group_ids");
	json_object_set_new(o, "ids", json_is_array(group) ? json_deep_copy(group)
			    : json_pack("[I]", (json_int_t)in->id));
	return o;
}

/* ---- the result ---- */

struct ctx {
	const struct iolab_compare_run *in;
	size_t n, reference, a, b; /* a, b: gain's runs; error's measured (a) and predicted (b) */
	enum iolab_compare_mode mode;
	struct crun *runs;
	struct row *rows;
	size_t nrows;
	json_t ***fk;    /* per run, its points' full keys (compare_keys.h) */
	json_t *fields;  /* the fields keyed on: --by's, or the default's ("by" in the result) */
	json_t *names;   /* trace identity -> its short name in the tables */
};

static json_t *metric_triplet(const double *v)
{
	json_t *o = json_object();
	for (size_t m = 0; o && m < NMETRIC; m++)
		json_object_set_new(o, metric_names[m], real_or_null(v[m]));
	return o;
}

/* A run's values of point p: the metrics v, and beside them, not compared, the write
 * amplification of a point of simulated SSDs (points[].write_amplification). */
static json_t *point_values(const json_t *p, const double *v)
{
	json_t *o = metric_triplet(v);
	const json_t *wa = json_object_get(p, "write_amplification"), *id = json_object_get(p, "run_id");
	if (o && json_is_integer(id)) /* a point of a group (iolab_compare_pool): its own run */
		json_object_set_new(o, "run_id", json_deep_copy(id));
	if (o && json_is_number(wa))
		json_object_set_new(o, "write_amplification", json_real(json_number_value(wa)));
	return o;
}

/* The name of key (a row's when row, else run r's point i's): with the workload fields a key
 * keyed on fewer (--by) leaves out, where the points under it agree on them. */
static void point_name(const struct ctx *c, const json_t *key, const struct row *row, size_t r, size_t i,
		       unsigned vary, char *buf, size_t n)
{
	static const char *const fields[] = {"pattern", "trace", "bs", "read_pct", "workers", "clients",
					     "think_s", "target_iops", "qd"};
	json_t *k = json_deep_copy(key);
	for (size_t f = 0; k && f < sizeof(fields) / sizeof(fields[0]); f++) {
		if (json_object_get(k, fields[f]))
			continue;
		const json_t *v = json_object_get(row ? c->fk[0][row->idx[0]] : c->fk[r][i], fields[f]);
		bool agree = true;
		for (size_t o = 1; row && o < c->n; o++)
			agree &= compare_value_eq(v, json_object_get(c->fk[o][row->idx[o]], fields[f]));
		if (agree && v)
			json_object_set_new(k, fields[f], json_deep_copy(v));
	}
	key_name(k ? k : key, vary, c->names, buf, n);
	json_decref(k);
}

/* The point object of a compared row; adds each run's pct of it to logs for the overall. */
static json_t *row_object(const struct ctx *c, const struct row *row, unsigned vary, double *sum_log,
			  size_t *nlog, double (*errs)[NMETRIC], size_t k)
{
	char name[256];
	point_name(c, row->key, row, 0, 0, vary, name, sizeof(name));
	json_t *o = json_pack("{sO ss}", "key", row->key, "name", name), *values = json_array();
	double ref[NMETRIC], pct[2][NMETRIC];
	const json_t *rp = json_array_get(c->runs[c->reference].points, (size_t)row->idx[c->reference]);
	for (size_t m = 0; m < NMETRIC; m++)
		ref[m] = metric_of(rp, m);
	for (size_t r = 0; r < c->n; r++) {
		const json_t *p = json_array_get(c->runs[r].points, (size_t)row->idx[r]);
		double v[NMETRIC], pc[NMETRIC];
		for (size_t m = 0; m < NMETRIC; m++) {
			v[m] = metric_of(p, m);
			pc[m] = pct_of(v[m], ref[m]);
			if (pc[m] > 0) {
				sum_log[r * NMETRIC + m] += log(pc[m]);
				nlog[r * NMETRIC + m]++;
			}
			if (r == c->a)
				pct[0][m] = pc[m];
			if (r == c->b)
				pct[1][m] = pc[m];
		}
		json_t *vo = point_values(p, v);
		json_object_set_new(vo, "pct", metric_triplet(pc));
		json_array_append_new(values, vo);
	}
	json_object_set_new(o, "values", values);
	if (c->mode == IOLAB_COMPARE_GAIN) {
		double g[NMETRIC];
		for (size_t m = 0; m < NMETRIC; m++)
			g[m] = pct[1][m] - pct[0][m];
		json_object_set_new(o, "gain", metric_triplet(g));
	} else if (c->mode == IOLAB_COMPARE_ERROR) {
		double e[NMETRIC];
		for (size_t m = 0; m < NMETRIC; m++) {
			e[m] = pct[1][m] - 100; /* 100 * (pred - meas) / meas */
			errs[k][m] = e[m];
		}
		json_object_set_new(o, "error_pct", metric_triplet(e));
	}
	return o;
}

/* error mode: {metric: {points, mean_abs_pct, max_abs_pct, rms_pct, mean_pct}} */
static json_t *error_overall(double (*errs)[NMETRIC], size_t k)
{
	json_t *o = json_object();
	for (size_t m = 0; m < NMETRIC; m++) {
		double abs_sum = 0, max = NAN, sq = 0, sum = 0;
		size_t cnt = 0;
		for (size_t i = 0; i < k; i++) {
			double e = errs[i][m];
			if (!isfinite(e))
				continue;
			abs_sum += fabs(e);
			sum += e;
			sq += e * e;
			if (!(fabs(e) <= max))
				max = fabs(e);
			cnt++;
		}
		json_object_set_new(o, metric_names[m],
				    json_pack("{sI so so so so}", "points", (json_int_t)cnt, "mean_abs_pct",
					      real_or_null(cnt ? abs_sum / (double)cnt : NAN), "max_abs_pct",
					      real_or_null(max), "rms_pct",
					      real_or_null(cnt ? sqrt(sq / (double)cnt) : NAN), "mean_pct",
					      real_or_null(cnt ? sum / (double)cnt : NAN)));
	}
	return o;
}

/* Runs (indexes into runs) other than r that have no point compatible with key. */
static json_t *missing_in(const struct ctx *c, size_t r, const json_t *key)
{
	json_t *a = json_array();
	for (size_t o = 0; o < c->n; o++) {
		if (o == r)
			continue;
		bool found = false;
		for (size_t i = 0; i < c->runs[o].np && !found; i++)
			found = key_compat(key, c->runs[o].keys[i]);
		if (!found)
			json_array_append_new(a, json_integer((json_int_t)o));
	}
	return a;
}

static int assemble(const struct ctx *c, json_t **out, struct iolab_err *err)
{
	static const char *const modes[] = {"ref", "gain", "error"};
	unsigned vary = name_vary(c->runs, c->n);
	json_t *res = json_pack("{ss s[sss] sI}", "mode", modes[c->mode], "metrics", metric_names[0],
				metric_names[1], metric_names[2], "reference", (json_int_t)c->reference);
	json_t *runs = json_array(), *points = json_array(), *unmatched = json_array();
	double *sum_log = calloc(c->n * NMETRIC, sizeof(*sum_log));
	size_t *nlog = calloc(c->n * NMETRIC, sizeof(*nlog));
	double (*errs)[NMETRIC] = calloc(c->nrows ? c->nrows : 1, sizeof(*errs));
	if (!res || !runs || !points || !unmatched || !sum_log || !nlog || !errs) {
		json_decref(res);
		json_decref(runs);
		json_decref(points);
		json_decref(unmatched);
		free(sum_log);
		free(nlog);
		free(errs);
		return iolab_errf(err, ENOMEM, "out of memory");
	}
	for (size_t r = 0; r < c->n; r++)
		json_array_append_new(runs, run_object(&c->in[r]));
	size_t k = 0;
	for (size_t i = 0; i < c->nrows; i++)
		if (c->rows[i].matched)
			json_array_append_new(points, row_object(c, &c->rows[i], vary, sum_log, nlog, errs, k++));
	for (size_t r = 0; r < c->n; r++)
		for (size_t i = 0; i < c->runs[r].np; i++) {
			if (c->runs[r].used[i])
				continue;
			char name[256];
			double v[NMETRIC];
			const json_t *p = json_array_get(c->runs[r].points, i);
			for (size_t m = 0; m < NMETRIC; m++)
				v[m] = metric_of(p, m);
			point_name(c, c->runs[r].keys[i], NULL, r, i, vary, name, sizeof(name));
			json_array_append_new(unmatched,
					      json_pack("{sI ss sO sI so so}", "run", (json_int_t)r, "name", name,
							"key", c->runs[r].keys[i], "point", (json_int_t)i,
							"missing_in", missing_in(c, r, c->runs[r].keys[i]),
							"values", point_values(p, v)));
		}
	json_object_set_new(res, "by", json_deep_copy(c->fields));
	json_object_set_new(res, "runs", runs);
	json_object_set_new(res, "points", points);
	json_object_set_new(res, "unmatched", unmatched);
	if (c->mode == IOLAB_COMPARE_ERROR) {
		json_object_set_new(res, "overall", error_overall(errs, k));
		json_object_set_new(res, "predicted", json_integer((json_int_t)c->b));
	} else {
		json_t *overall = json_object();
		double geo[NMETRIC][2];
		for (size_t m = 0; m < NMETRIC; m++) {
			json_t *per = json_array();
			for (size_t r = 0; r < c->n; r++) {
				size_t j = r * NMETRIC + m;
				double g = nlog[j] ? exp(sum_log[j] / (double)nlog[j]) : NAN;
				json_array_append_new(per, real_or_null(g));
				if (r == c->a)
					geo[m][0] = g;
				if (r == c->b)
					geo[m][1] = g;
			}
			json_object_set_new(overall, metric_names[m], per);
		}
		json_object_set_new(res, "overall", overall);
		if (c->mode == IOLAB_COMPARE_GAIN) {
			double g[NMETRIC];
			for (size_t m = 0; m < NMETRIC; m++)
				g[m] = geo[m][1] - geo[m][0];
			json_object_set_new(res, "gain_runs", json_pack("[II]", (json_int_t)c->a, (json_int_t)c->b));
			json_object_set_new(res, "overall_gain", metric_triplet(g));
		}
	}
	free(sum_log);
	free(nlog);
	free(errs);
	*out = res;
	return 0;
}

/* ---- the entry point ---- */

static int check_args(const struct iolab_compare_run *runs, size_t n, size_t reference,
		      enum iolab_compare_mode mode, struct iolab_err *err)
{
	if (n < 2)
		return iolab_errf(err, EINVAL, "compare: name at least two runs");
	if (reference >= n)
		return iolab_errf(err, EINVAL, "compare: the reference (%zu) is not one of the %zu runs",
				  reference, n);
	if (mode == IOLAB_COMPARE_GAIN && n > 3)
		return iolab_errf(err, EINVAL, "compare: a gain is of two runs (and a reference), not %zu", n);
	if (mode == IOLAB_COMPARE_ERROR && n != 2)
		return iolab_errf(err, EINVAL, "compare: an error is of one predicted run against one "
				  "measured, not %zu runs", n);
	for (size_t r = 0; r < n; r++)
		if (!json_is_object(runs[r].doc) || !json_is_array(json_object_get(runs[r].doc, "points")))
			return iolab_errf(err, EINVAL, "run %lld: no \"points\" array: not an iolab results "
					  "document (docs/json-schema.md)", (long long)runs[r].id);
	return 0;
}

/* Fills the rows: each key's point in each run; marks the points of compared rows used. */
static int place_rows(struct ctx *c, json_t **keys, size_t nk, struct iolab_err *err)
{
	c->rows = calloc(nk ? nk : 1, sizeof(*c->rows));
	if (!c->rows)
		return iolab_errf(err, ENOMEM, "out of memory");
	for (size_t i = 0; i < nk; i++) {
		struct row *row = &c->rows[c->nrows++];
		row->key = keys[i];
		if (!(row->idx = malloc(c->n * sizeof(*row->idx))))
			return iolab_errf(err, ENOMEM, "out of memory");
		row->matched = true;
		for (size_t r = 0; r < c->n; r++) {
			row->idx[r] = -1;
			for (size_t p = 0; p < c->runs[r].np && row->idx[r] < 0; p++)
				if (key_sub(c->runs[r].keys[p], row->key))
					row->idx[r] = (long)p;
			row->matched &= row->idx[r] >= 0;
		}
		for (size_t r = 0; row->matched && r < c->n; r++)
			c->runs[r].used[row->idx[r]] = true;
	}
	struct order o = {c->n, c->reference};
	qsort_r(c->rows, c->nrows, sizeof(*c->rows), row_cmp, &o);
	return 0;
}

static void free_ctx(struct ctx *c)
{
	for (size_t r = 0; c->fk && c->runs && r < c->n; r++) {
		for (size_t i = 0; c->fk[r] && i < c->runs[r].np; i++)
			json_decref(c->fk[r][i]);
		free(c->fk[r]);
	}
	free(c->fk);
	for (size_t r = 0; c->runs && r < c->n; r++) {
		for (size_t i = 0; c->runs[r].keys && i < c->runs[r].np; i++)
			json_decref(c->runs[r].keys[i]);
		free(c->runs[r].keys);
		free(c->runs[r].used);
	}
	free(c->runs);
	for (size_t i = 0; i < c->nrows; i++) {
		json_decref(c->rows[i].key);
		free(c->rows[i].idx);
	}
	free(c->rows);
	json_decref(c->fields);
	json_decref(c->names);
}

/* Each run's points' full keys (c->fk), the trace names (c->names, shortened), the fields keyed
 * on (c->fields) and each run's keys. */
static int all_keys(struct ctx *c, const json_t *by, struct iolab_err *err)
{
	size_t *np = calloc(c->n, sizeof(*np));
	c->fk = calloc(c->n, sizeof(*c->fk));
	c->names = json_object();
	int rc = np && c->fk && c->names ? 0 : iolab_errf(err, ENOMEM, "out of memory");
	for (size_t r = 0; !rc && r < c->n; r++) {
		struct crun *cr = &c->runs[r];
		np[r] = cr->np;
		if (!(c->fk[r] = calloc(cr->np ? cr->np : 1, sizeof(**c->fk))))
			rc = iolab_errf(err, ENOMEM, "out of memory");
		for (size_t i = 0; !rc && i < cr->np; i++) {
			const json_t *p = json_array_get(cr->points, i);
			if (!json_is_object(p))
				rc = iolab_errf(err, EINVAL, "run %lld: point %zu is not an object",
						(long long)c->in[r].id, i + 1);
			else if (!(c->fk[r][i] = compare_full_key(p, c->names)))
				rc = iolab_errf(err, ENOMEM, "out of memory");
		}
	}
	if (!rc && !(c->fields = compare_key_fields(c->fk, np, c->n, by)))
		rc = iolab_errf(err, ENOMEM, "out of memory");
	for (size_t r = 0; !rc && r < c->n; r++)
		rc = run_keys(&c->runs[r], c->fk[r], c->fields, err);
	if (!rc && iolab_short_names_json(c->names, IOLAB_SHORT_NAME_WIDTH))
		rc = iolab_errf(err, ENOMEM, "out of memory");
	free(np);
	return rc;
}

int iolab_compare(const struct iolab_compare_run *runs, size_t n, size_t reference,
		  enum iolab_compare_mode mode, json_t **out, struct iolab_err *err)
{
	return iolab_compare_by(runs, n, reference, mode, NULL, out, err);
}

int iolab_compare_by(const struct iolab_compare_run *runs, size_t n, size_t reference,
		     enum iolab_compare_mode mode, const json_t *by, json_t **out, struct iolab_err *err)
{
	int rc = check_args(runs, n, reference, mode, err);
	if (rc)
		return rc;
	struct ctx c = {.in = runs, .n = n, .reference = reference, .mode = mode};
	/* gain: with two runs, the second's pct minus the first's; with three, the two that are
	 * not the reference, in order. error: the one that is not the measured run is predicted. */
	c.a = n == 3 ? (reference == 0 ? 1 : 0) : (mode == IOLAB_COMPARE_ERROR ? reference : 0);
	c.b = n == 3 ? (reference == 2 ? 1 : 2) : (mode == IOLAB_COMPARE_ERROR ? 1 - reference : 1);
	if (!(c.runs = calloc(n, sizeof(*c.runs))))
		return iolab_errf(err, ENOMEM, "out of memory");
	for (size_t r = 0; !rc && r < n; r++) {
		struct crun *cr = &c.runs[r];
		cr->points = json_object_get(runs[r].doc, "points");
		cr->np = json_array_size(cr->points);
		cr->keys = calloc(cr->np ? cr->np : 1, sizeof(*cr->keys));
		cr->used = calloc(cr->np ? cr->np : 1, sizeof(*cr->used));
		if (!cr->keys || !cr->used)
			rc = iolab_errf(err, ENOMEM, "out of memory");
	}
	if (!rc)
		rc = all_keys(&c, by, err);
	json_t **keys = NULL;
	size_t nk = 0;
	if (!rc)
		rc = build_keys(c.runs, n, &keys, &nk, err);
	if (!rc) {
		rc = place_rows(&c, keys, nk, err);
		for (size_t i = c.nrows; i < nk; i++) /* keys not taken into rows */
			json_decref(keys[i]);
		free(keys);
	}
	if (!rc)
		rc = assemble(&c, out, err);
	if (!rc && (rc = iolab_compare_prices(*out, runs, n, err)))
		json_decref(*out);
	free_ctx(&c);
	return rc;
}
