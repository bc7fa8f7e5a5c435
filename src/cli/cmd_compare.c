/* cmd_compare.c: `iolab compare`: stored runs side by side, point by point (docs/compare.md):
 * each as % of a reference, the gain of one run over another, or a prediction's error against a
 * measurement. Reads the results store (include/iolab/store.h), compares with iolab_compare
 * (include/iolab/compare.h) and prints a table, or writes the result as JSON or CSV. */
#include <errno.h>
#include <jansson.h>
#include <limits.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "cli.h"
#include "iolab/compare.h"
#include "iolab/compare_prices.h"
#include "iolab/outfile.h"
#include "iolab/output.h"
#include "iolab/parse.h"
#include "iolab/store.h"

#define MAX_RUNS 64
#define MAX_PRICES 64
#define MAX_GROUP 256 /* runs in one group */

static const char *const metric_names[] = {"iops", "mb_per_s", "lat_mean_us"};
static const char *const metric_titles[] = {"IOPS", "MB/s", "mean latency us"};

static void help(void)
{
	printf("usage: iolab compare RUN RUN... [--ref RUN]\n"
	       "       iolab compare RUN_A RUN_B --gain [--ref RUN]\n"
	       "       iolab compare --measured RUN --predicted RUN\n\n"
	       "Compares saved runs (iolab db list) point by point. RUN is a run id or label; a\n"
	       "label several runs share, or A,B (ids or labels), is one group of their points.\n"
	       "Points match by what they ran (pattern, a job's worker patterns, or a replayed\n"
	       "trace), bs, read %%, qd, workers, clients, think time, rate and replay mode, and\n"
	       "every other field that differs among one run's points (host scheduler, volume,\n"
	       "cache, write policy, model, settings), in every run.\n"
	       "A point that is not in every run is listed as not compared.\n\n"
	       "  --by FIELDS         match on these key fields alone (comma-separated: pattern,\n"
	       "                      trace, bs, read_pct, qd, workers, clients, think_s,\n"
	       "                      target_iops or rate, replay, host_scheduler, volume,\n"
	       "                      cache_bytes, write_policy, model, set:NAME); a field a run\n"
	       "                      varies beyond them keeps its points apart and is open in the\n"
	       "                      others: --by qd puts a trace's replay beside pattern runs\n"
	       "  (default)           each run's value as %% of the reference (the first run named,\n"
	       "                      or --ref's, shown first); for latency lower is better\n"
	       "  --ref RUN           the reference run\n"
	       "  --gain              two runs: the second's %% minus the first's, in points of %%\n"
	       "                      (of the first run, or of --ref's)\n"
	       "  --measured RUN --predicted RUN\n"
	       "                      the prediction's error per point, 100 * (pred - meas) / meas,\n"
	       "                      and its mean |error|, max |error| and RMS over the points\n"
	       "  --metric M          what the table shows: iops (default), mb_per_s, lat_mean_us\n"
	       "                      (JSON and CSV carry all three)\n"
	       "  --price RUN=USD     the run's price (repeatable; replaces a saved price_usd):\n"
	       "                      $/GB on the bytes the run used (its --offset, --length,\n"
	       "                      --stroke), $/IOPS and $/(MB/s) per compared point (JSON)\n"
	       "  --price-at POINT    $/IOPS and $/(MB/s) of each run at that point: PATTERN,qdN or\n"
	       "                      PATTERN,bsSIZE,qdN (file-server,qd16; rand-read,bs4k,qd16)\n"
	       "  --json [FILE|-]     the result as JSON (docs/compare.md); '-' or no FILE: stdout\n"
	       "  --csv [FILE|-]      one row per point and run; '-' or no FILE: stdout\n"
	       "  --force             replace an existing FILE\n"
	       "  --db FILE           the store (default $XDG_DATA_HOME/iolab/results.db, else\n"
	       "                      ~/.local/share/iolab/results.db; docs/results-db.md)\n\n"
	       "The argument after --json or --csv is its FILE when it is '-' or does not start with\n"
	       "'-': name the runs before it (or write --json=FILE). With '-' the table is not printed.\n\n"
	       "Exit status: 0 compared, 1 no point is in every run or a write error, 2 bad input\n"
	       "(an unknown run or --by field, a missing option), or an existing FILE without\n"
	       "--force. See docs/compare.md.\n");
}

struct cmp_args {
	const char *db, *ref, *measured, *predicted, *json, *csv, *metric, *by, *price_at;
	bool gain, force, help, json_given, csv_given;
	const char *names[MAX_RUNS];
	size_t nnames;
	const char *prices[MAX_PRICES];
	size_t nprices;
};

/* "--opt VALUE" or "--opt=VALUE": 1 if argv[*i] is opt (its value in *v), 0 if not, or an exit
 * status below 0 (a missing value). */
static int value_opt(int argc, char **argv, int *i, const char *opt, const char **v)
{
	size_t n = strlen(opt);
	const char *s = argv[*i];
	if (strncmp(s, opt, n))
		return 0;
	if (s[n] == '=') {
		*v = s + n + 1;
		return 1;
	}
	if (s[n])
		return 0;
	if (++*i >= argc)
		return -cli_errorf(EXIT_USAGE, "compare: option '%s' needs a value", opt);
	*v = argv[*i];
	return 1;
}

/* --json / --csv with an optional FILE (see the help). 1 if argv[*i] is opt. */
static int file_opt(int argc, char **argv, int *i, const char *opt, const char **v, bool *given)
{
	size_t n = strlen(opt);
	const char *s = argv[*i];
	if (strncmp(s, opt, n) || (s[n] && s[n] != '='))
		return 0;
	*given = true;
	if (s[n] == '=')
		*v = s + n + 1;
	else if (*i + 1 < argc && (!strcmp(argv[*i + 1], "-") || argv[*i + 1][0] != '-'))
		*v = argv[++*i];
	else
		*v = "-";
	return 1;
}

static int parse(int argc, char **argv, struct cmp_args *a)
{
	bool only_runs = false;
	for (int i = 1; i < argc; i++) {
		const char *s = argv[i], *v;
		int r;
		if (only_runs || s[0] != '-' || !s[1]) {
			if (a->nnames == MAX_RUNS)
				return cli_errorf(EXIT_USAGE, "compare: more than %d runs", MAX_RUNS);
			a->names[a->nnames++] = s;
			continue;
		}
		if (!strcmp(s, "--")) {
			only_runs = true;
		} else if (!strcmp(s, "--help") || !strcmp(s, "-h")) {
			a->help = true;
			return EXIT_OK;
		} else if (!strcmp(s, "--gain")) {
			a->gain = true;
		} else if (!strcmp(s, "--force")) {
			a->force = true;
		} else if (file_opt(argc, argv, &i, "--json", &a->json, &a->json_given) ||
			   file_opt(argc, argv, &i, "--csv", &a->csv, &a->csv_given)) {
			continue;
		} else if ((r = value_opt(argc, argv, &i, "--db", &a->db)) ||
			   (r = value_opt(argc, argv, &i, "--ref", &a->ref)) ||
			   (r = value_opt(argc, argv, &i, "--measured", &a->measured)) ||
			   (r = value_opt(argc, argv, &i, "--predicted", &a->predicted)) ||
			   (r = value_opt(argc, argv, &i, "--metric", &a->metric)) ||
			   (r = value_opt(argc, argv, &i, "--by", &a->by)) ||
			   (r = value_opt(argc, argv, &i, "--price-at", &a->price_at))) {
			if (r < 0)
				return -r;
		} else if ((r = value_opt(argc, argv, &i, "--price", &v))) {
			if (r < 0)
				return -r;
			if (a->nprices == MAX_PRICES)
				return cli_errorf(EXIT_USAGE, "compare: more than %d --price options", MAX_PRICES);
			a->prices[a->nprices++] = v;
		} else {
			return cli_errorf(EXIT_USAGE, "compare: unknown option '%s' (see 'iolab compare --help')", s);
		}
	}
	return EXIT_OK;
}

static int check_args(const struct cmp_args *a, int *metric)
{
	*metric = 0;
	if (a->metric) {
		*metric = -1;
		for (int m = 0; m < 3; m++)
			if (!strcmp(a->metric, metric_names[m]))
				*metric = m;
		if (*metric < 0)
			return cli_errorf(EXIT_USAGE, "compare: --metric '%s': use iops, mb_per_s or "
					  "lat_mean_us", a->metric);
	}
	if (a->measured || a->predicted) {
		if (!a->measured || !a->predicted)
			return cli_errorf(EXIT_USAGE, "compare: %s needs %s too", a->measured ? "--measured" :
					  "--predicted", a->measured ? "--predicted RUN" : "--measured RUN");
		if (a->nnames || a->gain || a->ref)
			return cli_errorf(EXIT_USAGE, "compare: --measured and --predicted take no other runs, "
					  "--ref or --gain");
		return EXIT_OK;
	}
	if (a->gain && a->nnames != 2)
		return cli_errorf(EXIT_USAGE, "compare: --gain needs exactly two runs (got %zu)", a->nnames);
	if (a->nnames + (a->ref ? 1 : 0) < 2)
		return cli_errorf(EXIT_USAGE, "compare: name at least two runs (see 'iolab db list')");
	return EXIT_OK;
}

/* ---- the runs ---- */

struct loaded {
	struct iolab_store_doc d[MAX_RUNS + 1];
	size_t n;
	size_t reference;
};

/* The ids RUN names: an id or label, else a comma list of them; a label may name several runs.
 * Duplicates are dropped. */
static int group_ids(struct iolab_store *s, const char *key, int64_t *ids, size_t *nid)
{
	struct iolab_err err;
	*nid = 0;
	if (!iolab_store_find_all(s, key, ids, MAX_GROUP, nid, &err))
		return EXIT_OK;
	if (!strchr(key, ','))
		return cli_errorf(EXIT_USAGE, "compare: %s", err.msg);
	for (const char *p = key;;) {
		size_t len = strcspn(p, ","), got;
		char part[512];
		int64_t found[MAX_GROUP];
		if (!len || len >= sizeof(part))
			return cli_errorf(EXIT_USAGE, "compare: '%s': give run ids or labels separated by "
					  "commas", key);
		snprintf(part, sizeof(part), "%.*s", (int)len, p);
		if (iolab_store_find_all(s, part, found, MAX_GROUP, &got, &err))
			return cli_errorf(EXIT_USAGE, "compare: '%s': %s", key, err.msg);
		for (size_t i = 0; i < got; i++) {
			bool dup = false;
			for (size_t j = 0; j < *nid; j++)
				dup |= ids[j] == found[i];
			if (dup)
				continue;
			if (*nid == MAX_GROUP)
				return cli_errorf(EXIT_USAGE, "compare: '%s': more than %d runs", key, MAX_GROUP);
			ids[(*nid)++] = found[i];
		}
		if (!p[len])
			return EXIT_OK;
		p += len + 1;
	}
}

/* Loads RUN (see group_ids): one run as stored, several as one group (iolab_compare_pool)
 * named by RUN. */
static int load(struct iolab_store *s, const char *key, struct loaded *l)
{
	struct iolab_err err;
	int64_t ids[MAX_GROUP];
	size_t nid;
	char id[32];
	int st = group_ids(s, key, ids, &nid);
	if (st)
		return st;
	if (nid == 1) {
		snprintf(id, sizeof(id), "%lld", (long long)ids[0]);
		if (iolab_store_load(s, id, &l->d[l->n], &err))
			return cli_errorf(EXIT_USAGE, "compare: %s", err.msg);
		l->n++;
		return EXIT_OK;
	}
	struct iolab_store_doc *m = calloc(nid, sizeof(*m));
	struct iolab_compare_run *runs = calloc(nid, sizeof(*runs));
	if (!m || !runs)
		st = cli_errorf(EXIT_FAILED, "out of memory");
	for (size_t i = 0; !st && i < nid; i++) {
		snprintf(id, sizeof(id), "%lld", (long long)ids[i]);
		if (iolab_store_load(s, id, &m[i], &err))
			st = cli_errorf(EXIT_USAGE, "compare: %s", err.msg);
		else
			runs[i] = (struct iolab_compare_run){m[i].id, m[i].label, m[i].doc};
	}
	json_t *doc = NULL;
	if (!st && iolab_compare_pool(runs, nid, &doc, &err))
		st = cli_errorf(EXIT_USAGE, "%s", err.msg);
	if (!st) {
		l->d[l->n] = (struct iolab_store_doc){.id = ids[0], .label = strdup(key), .doc = doc};
		if (!l->d[l->n++].label)
			st = cli_errorf(EXIT_FAILED, "out of memory");
	}
	for (size_t i = 0; m && i < nid; i++)
		iolab_store_doc_free(&m[i]);
	free(m);
	free(runs);
	return st;
}

/* Loads the runs in the order they are shown, the reference first (gain: the two runs keep
 * their order, and --ref goes first unless it is one of them). */
static int load_all(struct iolab_store *s, const struct cmp_args *a, struct loaded *l)
{
	int st;
	if (a->measured)
		return (st = load(s, a->measured, l)) ? st : load(s, a->predicted, l);
	if (a->gain) {
		if ((st = load(s, a->names[0], l)) || (st = load(s, a->names[1], l)))
			return st;
		if (!a->ref)
			return EXIT_OK;
		if ((st = load(s, a->ref, l)))
			return st;
		for (size_t r = 0; r < 2; r++)
			if (l->d[2].id == l->d[r].id) {
				l->reference = r;
				iolab_store_doc_free(&l->d[--l->n]);
				return EXIT_OK;
			}
		struct iolab_store_doc ref = l->d[2];
		l->d[2] = l->d[1];
		l->d[1] = l->d[0];
		l->d[0] = ref;
		return EXIT_OK;
	}
	if (a->ref && (st = load(s, a->ref, l)))
		return st;
	for (size_t i = 0; i < a->nnames; i++) {
		if ((st = load(s, a->names[i], l)))
			return st;
		if (a->ref && l->d[l->n - 1].id == l->d[0].id) /* the reference, named again */
			iolab_store_doc_free(&l->d[--l->n]);
	}
	if (l->n < 2)
		return cli_errorf(EXIT_USAGE, "compare: name at least two runs besides the reference");
	return EXIT_OK;
}

/* --price RUN=USD: sets price_usd in the documents of that run (or group). */
static int apply_prices(struct iolab_store *s, const struct cmp_args *a, struct loaded *l)
{
	for (size_t i = 0; i < a->nprices; i++) {
		char key[512];
		const char *eq = strrchr(a->prices[i], '=');
		if (!eq || eq == a->prices[i] || (size_t)(eq - a->prices[i]) >= sizeof(key))
			return cli_errorf(EXIT_USAGE, "compare: --price '%s': give RUN=USD (a run id or "
					  "label, '=', the price in US dollars)", a->prices[i]);
		snprintf(key, sizeof(key), "%.*s", (int)(eq - a->prices[i]), a->prices[i]);
		double usd;
		int64_t ids[MAX_GROUP];
		size_t nid;
		if (cli_parse_price("compare", eq + 1, &usd))
			return EXIT_USAGE;
		int st = group_ids(s, key, ids, &nid);
		if (st)
			return st;
		int64_t id = ids[0]; /* a group's price: its document goes by its first run's id */
		bool found = false;
		for (size_t r = 0; r < l->n; r++)
			if (l->d[r].id == id) {
				json_object_set_new(l->d[r].doc, "price_usd", json_real(usd));
				found = true;
			}
		if (!found)
			return cli_errorf(EXIT_USAGE, "compare: --price: run %lld ('%s') is not one of the runs "
					  "compared", (long long)id, key);
	}
	return EXIT_OK;
}

/* ---- the table ---- */

/* "run 12 (label)" of runs[r]. */
static const char *run_title(const json_t *res, size_t r, char *buf, size_t n)
{
	const json_t *run = json_array_get(json_object_get(res, "runs"), r), *ids = json_object_get(run, "ids");
	if (json_array_size(ids) > 1) { /* a group: "runs 1,5 (label)" */
		char list[96] = "";
		size_t i, len = 0;
		const json_t *id;
		json_array_foreach(ids, i, id)
			if (len < sizeof(list))
				len += (size_t)snprintf(list + len, sizeof(list) - len, "%s%lld", i ? "," : "",
							(long long)json_integer_value(id));
		snprintf(buf, n, "runs %s (%s)", list, json_string_value(json_object_get(run, "name")));
		return buf;
	}
	snprintf(buf, n, "run %lld (%s)", (long long)json_integer_value(json_object_get(run, "id")),
		 json_string_value(json_object_get(run, "name")));
	return buf;
}

static const char *fmt_value(const json_t *v, int metric, char *buf, size_t n)
{
	if (!json_is_number(v))
		snprintf(buf, n, "-");
	else
		snprintf(buf, n, metric == 1 ? "%.2f" : "%.1f", json_number_value(v));
	return buf;
}

static const char *fmt_pct(const json_t *v, const char *fmt, char *buf, size_t n)
{
	if (json_is_number(v))
		snprintf(buf, n, fmt, json_number_value(v));
	else
		snprintf(buf, n, "-");
	return buf;
}

#define MAX_COLS (MAX_RUNS + 3)
#define CELL 160

struct table {
	char (*cell)[MAX_COLS][CELL];
	size_t rows, cols;
};

static void print_table(FILE *f, const struct table *t)
{
	size_t w[MAX_COLS] = {0};
	for (size_t r = 0; r < t->rows; r++)
		for (size_t c = 0; c < t->cols; c++)
			if (strlen(t->cell[r][c]) > w[c])
				w[c] = strlen(t->cell[r][c]);
	for (size_t r = 0; r < t->rows; r++) {
		fprintf(f, " ");
		for (size_t c = 0; c < t->cols; c++)
			fprintf(f, c ? "  %*s" : " %-*s", (int)w[c], t->cell[r][c]);
		fputc('\n', f);
	}
}

/* True if a compared or unmatched point of res has a write amplification (simulated SSDs). */
static bool any_wa(const json_t *res)
{
	size_t i, r;
	const json_t *p, *v;
	json_array_foreach(json_object_get(res, "points"), i, p)
		json_array_foreach(json_object_get(p, "values"), r, v)
			if (json_is_number(json_object_get(v, "write_amplification")))
				return true;
	json_array_foreach(json_object_get(res, "unmatched"), i, p)
		if (json_is_number(json_object_get(json_object_get(p, "values"), "write_amplification")))
			return true;
	return false;
}

/* The points as a table: a column per run ("value (pct%)", and its write amplification beside
 * it when a point of simulated SSDs has one: "4000.0 (100.0%) WA 4.18"), and the gain or the
 * error. */
static int points_table(FILE *f, const json_t *res, int metric)
{
	const char *mode = json_string_value(json_object_get(res, "mode")), *mn = metric_names[metric];
	const json_t *points = json_object_get(res, "points"), *runs = json_object_get(res, "runs");
	size_t n = json_array_size(runs), np = json_array_size(points);
	bool gain = !strcmp(mode, "gain"), error = !strcmp(mode, "error");
	struct table t = {.rows = np + 1, .cols = n + 1 + (gain || error)};
	if (!(t.cell = calloc(t.rows, sizeof(*t.cell))))
		return cli_errorf(EXIT_FAILED, "out of memory");
	snprintf(t.cell[0][0], CELL, "point");
	for (size_t r = 0; r < n; r++)
		run_title(res, r, t.cell[0][r + 1], CELL);
	if (gain || error)
		snprintf(t.cell[0][n + 1], CELL, gain ? "gain" : "error");
	size_t i;
	const json_t *p;
	bool wa = any_wa(res);
	json_array_foreach(points, i, p) {
		snprintf(t.cell[i + 1][0], CELL, "%s", json_string_value(json_object_get(p, "name")));
		for (size_t r = 0; r < n; r++) {
			const json_t *v = json_array_get(json_object_get(p, "values"), r);
			char a[48], b[48], c[48] = "";
			if (wa)
				fmt_pct(json_object_get(v, "write_amplification"), " WA %.2f", c, sizeof(c));
			snprintf(t.cell[i + 1][r + 1], CELL, "%s (%s)%s", fmt_value(json_object_get(v, mn), metric, a, sizeof(a)),
				 fmt_pct(json_object_get(json_object_get(v, "pct"), mn), "%.1f%%", b, sizeof(b)),
				 !wa ? "" : *c == ' ' ? c : " WA -");
		}
		if (gain)
			fmt_pct(json_object_get(json_object_get(p, "gain"), mn), "%+.1f pp", t.cell[i + 1][n + 1], CELL);
		else if (error)
			fmt_pct(json_object_get(json_object_get(p, "error_pct"), mn), "%+.1f%%", t.cell[i + 1][n + 1], CELL);
	}
	print_table(f, &t);
	free(t.cell);
	return EXIT_OK;
}

static void unmatched_lines(FILE *f, const json_t *res)
{
	size_t i, j;
	const json_t *u, *m;
	json_array_foreach(json_object_get(res, "unmatched"), i, u) {
		char title[160];
		fprintf(f, "not compared: %s: %s", run_title(res, (size_t)json_integer_value(json_object_get(u, "run")),
							   title, sizeof(title)),
			json_string_value(json_object_get(u, "name")));
		json_array_foreach(json_object_get(u, "missing_in"), j, m)
			fprintf(f, "%s%s", j ? ", " : " (not in ", run_title(res, (size_t)json_integer_value(m), title,
									       sizeof(title)));
		fprintf(f, "%s\n", json_array_size(json_object_get(u, "missing_in")) ? ")" : "");
	}
}

static void overall_lines(FILE *f, const json_t *res)
{
	const char *mode = json_string_value(json_object_get(res, "mode"));
	const json_t *overall = json_object_get(res, "overall");
	size_t np = json_array_size(json_object_get(res, "points")), n = json_array_size(json_object_get(res, "runs"));
	char a[48], b[48], c[48], d[48], title[160];
	if (!strcmp(mode, "error")) {
		fprintf(f, "error of %s against %s over %zu point%s:\n",
			run_title(res, (size_t)json_integer_value(json_object_get(res, "predicted")), title, sizeof(title)),
			run_title(res, (size_t)json_integer_value(json_object_get(res, "reference")), a, sizeof(a)), np,
			np == 1 ? "" : "s");
		for (int m = 0; m < 3; m++) {
			const json_t *o = json_object_get(overall, metric_names[m]);
			fprintf(f, "  %-16s mean |error| %s, max |error| %s, rms %s, mean %s\n", metric_titles[m],
				fmt_pct(json_object_get(o, "mean_abs_pct"), "%.1f%%", a, sizeof(a)),
				fmt_pct(json_object_get(o, "max_abs_pct"), "%.1f%%", b, sizeof(b)),
				fmt_pct(json_object_get(o, "rms_pct"), "%.1f%%", c, sizeof(c)),
				fmt_pct(json_object_get(o, "mean_pct"), "%+.1f%%", d, sizeof(d)));
		}
		return;
	}
	fprintf(f, "overall, geometric mean of %% of %s over %zu point%s:\n",
		run_title(res, (size_t)json_integer_value(json_object_get(res, "reference")), title, sizeof(title)), np,
		np == 1 ? "" : "s");
	for (int m = 0; m < 3; m++) {
		fprintf(f, "  %-16s", metric_titles[m]);
		for (size_t r = 0; r < n; r++)
			fprintf(f, "%s%s %s", r ? ", " : " ", run_title(res, r, title, sizeof(title)),
				fmt_pct(json_array_get(json_object_get(overall, metric_names[m]), r), "%.1f%%", a, sizeof(a)));
		if (!strcmp(mode, "gain"))
			fprintf(f, "; gain %s", fmt_pct(json_object_get(json_object_get(res, "overall_gain"), metric_names[m]),
							"%+.1f pp", a, sizeof(a)));
		fputc('\n', f);
	}
}

static int print_text(FILE *f, const json_t *res, int metric)
{
	const char *mode = json_string_value(json_object_get(res, "mode"));
	char title[160];
	const char *ref = run_title(res, (size_t)json_integer_value(json_object_get(res, "reference")), title,
				    sizeof(title));
	const char *better = metric == 2 ? "lower is better" : "higher is better";
	if (!strcmp(mode, "error"))
		fprintf(f, "%s: predicted against measured %s; error = 100 * (predicted - measured) / measured\n",
			metric_titles[metric], ref);
	else if (!strcmp(mode, "gain"))
		fprintf(f, "%s as %% of %s (%s); gain = the second run's %% minus the first's\n",
			metric_titles[metric], ref, better);
	else
		fprintf(f, "%s as %% of %s (%s)\n", metric_titles[metric], ref, better);
	int st = json_array_size(json_object_get(res, "points")) ? points_table(f, res, metric) : EXIT_OK;
	if (!json_array_size(json_object_get(res, "points"))) {
		fprintf(f, "no point is in every run: they were matched on");
		size_t i;
		const json_t *field;
		json_array_foreach(json_object_get(res, "by"), i, field)
			fprintf(f, "%s%s", i ? ", " : " ", json_string_value(field));
		fprintf(f, " (--by FIELDS names what to match on: --by qd pairs a replay with pattern runs)\n");
	}
	unmatched_lines(f, res);
	overall_lines(f, res);
	if (!st)
		cli_compare_price_table(f, res);
	return st;
}

/* ---- CSV ---- */

static const char *const csv_key_fields[] = {"pattern", "bs", "read_pct", "qd", "workers", "clients",
					     "think_s", "target_iops", "replay", "host_scheduler", "volume",
					     "cache_bytes", "write_policy", "model", "n", "trace"};
#define NCSVKEY (sizeof(csv_key_fields) / sizeof(csv_key_fields[0]))

static void csv_value(FILE *f, const json_t *v)
{
	char buf[128];
	fputc(',', f);
	if (json_is_integer(v)) {
		fprintf(f, "%lld", (long long)json_integer_value(v));
	} else if (json_is_real(v)) {
		fprintf(f, "%.10g", json_real_value(v));
	} else if (json_is_string(v)) {
		iolab_csv_text(f, json_string_value(v));
	} else if (json_is_object(v)) { /* a volume: level:drives/stripe */
		const json_t *s = json_object_get(v, "stripe");
		snprintf(buf, sizeof(buf), "%s:%lld/%lld", json_string_value(json_object_get(v, "level")),
			 (long long)json_integer_value(json_object_get(v, "drives")),
			 (long long)(json_is_integer(s) ? json_integer_value(s) : 0));
		iolab_csv_text(f, buf);
	}
}

/* Adds the swept settings of key ("set:NAME" fields, docs/compare.md) that sets lacks. */
static void add_settings(json_t *sets, const json_t *key)
{
	const char *field;
	const json_t *v, *have;
	size_t i;
	json_object_foreach((json_t *)key, field, v) {
		bool seen = strncmp(field, "set:", 4) != 0;
		json_array_foreach(sets, i, have)
			seen |= !strcmp(json_string_value(have), field);
		if (!seen)
			json_array_append_new(sets, json_string(field));
	}
}

static void csv_row(FILE *f, const json_t *res, const json_t *name, bool matched, size_t r, const json_t *key,
		    const json_t *values, const json_t *gain, const json_t *error, bool wa,
		    const json_t *sets)
{
	const json_t *run = json_array_get(json_object_get(res, "runs"), r);
	iolab_csv_text(f, json_string_value(name));
	fprintf(f, ",%d", matched);
	csv_value(f, json_object_get(run, "id"));
	csv_value(f, json_object_get(run, "name"));
	for (size_t k = 0; k < NCSVKEY; k++)
		csv_value(f, json_object_get(key, csv_key_fields[k]));
	for (size_t m = 0; m < 3; m++)
		csv_value(f, json_object_get(values, metric_names[m]));
	for (size_t m = 0; m < 3; m++)
		csv_value(f, json_object_get(json_object_get(values, "pct"), metric_names[m]));
	for (size_t m = 0; m < 3; m++)
		csv_value(f, json_object_get(gain, metric_names[m]));
	for (size_t m = 0; m < 3; m++)
		csv_value(f, json_object_get(error, metric_names[m]));
	if (wa)
		csv_value(f, json_object_get(values, "write_amplification"));
	size_t i;
	const json_t *set;
	json_array_foreach(sets, i, set)
		csv_value(f, json_object_get(key, json_string_value(set)));
	fputc('\n', f);
}

static void write_csv(FILE *f, const json_t *res)
{
	fputs("point,matched,run_id,run", f);
	for (size_t k = 0; k < NCSVKEY; k++)
		fprintf(f, ",%s", csv_key_fields[k]);
	fputs(",iops,mb_per_s,lat_mean_us,pct_iops,pct_mb_per_s,pct_lat_mean_us,gain_iops,gain_mb_per_s,"
	      "gain_lat_mean_us,error_iops,error_mb_per_s,error_lat_mean_us", f);
	bool wa = any_wa(res); /* a column of simulated SSDs' write amplification */
	if (wa)
		fputs(",write_amplification", f);
	size_t i, r;
	const json_t *p, *v;
	json_t *sets = json_array(); /* the swept settings in the keys: a column each, at the end */
	json_array_foreach(json_object_get(res, "points"), i, p)
		add_settings(sets, json_object_get(p, "key"));
	json_array_foreach(json_object_get(res, "unmatched"), i, p)
		add_settings(sets, json_object_get(p, "key"));
	json_array_foreach(sets, i, v) {
		fputc(',', f);
		iolab_csv_text(f, json_string_value(v));
	}
	fputc('\n', f);
	json_array_foreach(json_object_get(res, "points"), i, p)
		json_array_foreach(json_object_get(p, "values"), r, v)
			csv_row(f, res, json_object_get(p, "name"), true, r, json_object_get(p, "key"), v,
				json_object_get(p, "gain"), json_object_get(p, "error_pct"), wa, sets);
	json_array_foreach(json_object_get(res, "unmatched"), i, p)
		csv_row(f, res, json_object_get(p, "name"), false, (size_t)json_integer_value(json_object_get(p, "run")),
			json_object_get(p, "key"), json_object_get(p, "values"), NULL, NULL, wa, sets);
	json_decref(sets);
}

static int csv_out(const char *path, const json_t *res)
{
	struct iolab_out out;
	struct iolab_err err;
	int rc = iolab_out_open(&out, path, &err);
	if (!rc) {
		errno = 0;
		write_csv(out.f, res);
		if (ferror(out.f)) {
			iolab_out_abort(&out);
			rc = iolab_errf(&err, EIO, "%s: error writing the CSV: %s", path, strerror(errno ? errno : EIO));
		} else {
			rc = iolab_out_commit(&out, &err);
		}
	}
	return rc ? cli_errorf(EXIT_FAILED, "%s", err.msg) : EXIT_OK;
}

/* ---- the command ---- */

static int compare_loaded(const struct cmp_args *a, struct loaded *l, int metric, const json_t *by)
{
	struct iolab_compare_run runs[MAX_RUNS + 1];
	for (size_t r = 0; r < l->n; r++)
		runs[r] = (struct iolab_compare_run){l->d[r].id, l->d[r].label, l->d[r].doc};
	enum iolab_compare_mode mode = a->measured ? IOLAB_COMPARE_ERROR : a->gain ? IOLAB_COMPARE_GAIN
		: IOLAB_COMPARE_REF;
	json_t *res;
	struct iolab_err err;
	if (iolab_compare_by(runs, l->n, l->reference, mode, by, &res, &err))
		return cli_errorf(EXIT_USAGE, "%s", err.msg);
	if (a->price_at && iolab_compare_price_at(res, a->price_at, &err)) {
		json_decref(res);
		return cli_errorf(EXIT_USAGE, "compare: %s", err.msg);
	}
	int st = EXIT_OK;
	bool to_stdout = (a->json_given && iolab_out_is_stdout(a->json)) ||
			 (a->csv_given && iolab_out_is_stdout(a->csv));
	if (!to_stdout)
		st = print_text(stdout, res, metric);
	if (!st && a->json_given && cli_write_json(a->json, res))
		st = EXIT_FAILED;
	if (!st && a->csv_given)
		st = csv_out(a->csv, res);
	if (!st && !json_array_size(json_object_get(res, "points")))
		st = EXIT_FAILED; /* nothing compared (docs/compare.md) */
	json_decref(res);
	return st;
}

/* Opens the store, loads the runs and compares them by the key fields by (NULL: the default). */
static int compare_stored(const struct cmp_args *a, int metric, const json_t *by)
{
	struct iolab_err err;
	char dbpath[PATH_MAX];
	if (!a->db && iolab_store_default_path(dbpath, sizeof(dbpath), &err))
		return cli_errorf(EXIT_USAGE, "%s", err.msg);
	const char *inputs[] = {a->db ? a->db : dbpath};
	const struct iolab_output outs[] = {{"--json", a->json_given ? a->json : NULL, IOLAB_OUT_REPLACE},
					    {"--csv", a->csv_given ? a->csv : NULL, IOLAB_OUT_REPLACE}};
	if (iolab_outputs_check(outs, 2, inputs, 1, a->force, &err))
		return cli_errorf(EXIT_USAGE, "%s", err.msg);
	struct iolab_store *s;
	if (iolab_store_open_read(&s, a->db, &err))
		return cli_errorf(EXIT_USAGE, "%s", err.msg);
	struct loaded *l = calloc(1, sizeof(*l));
	int st = l ? EXIT_OK : cli_errorf(EXIT_FAILED, "out of memory");
	if (!st)
		st = load_all(s, a, l);
	if (!st)
		st = apply_prices(s, a, l);
	iolab_store_close(s);
	if (!st)
		st = compare_loaded(a, l, metric, by);
	for (size_t r = 0; l && r < l->n; r++)
		iolab_store_doc_free(&l->d[r]);
	free(l);
	return st;
}

int cmd_compare(int argc, char **argv)
{
	struct cmp_args a = {0};
	int metric, st = parse(argc, argv, &a);
	if (st || a.help) {
		if (a.help)
			help();
		return st;
	}
	if ((st = check_args(&a, &metric)))
		return st;
	struct iolab_err err;
	json_t *by = NULL;
	if (a.by && iolab_compare_parse_by(a.by, &by, &err))
		return cli_errorf(EXIT_USAGE, "compare: %s", err.msg);
	st = compare_stored(&a, metric, by);
	json_decref(by);
	return st;
}
