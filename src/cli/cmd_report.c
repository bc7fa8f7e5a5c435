/* cmd_report.c: `iolab report ID|LABEL ... -o FILE`: reads runs from the results store
 * (include/iolab/store.h) and writes one self-contained HTML page with their charts
 * (include/iolab/report.h, docs/report.md) through outfile.c. */
#include <errno.h>
#include <getopt.h>
#include <limits.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "cli.h"
#include "iolab/compare.h"
#include "iolab/compare_prices.h"
#include "iolab/outfile.h"
#include "iolab/report.h"
#include "iolab/store.h"

static void help(void)
{
	printf("usage: iolab report ID|LABEL ... -o FILE [--force] [--db FILE] [--title TEXT]\n\n"
	       "Writes one HTML file showing the saved runs (ids or labels, see 'iolab db list'):\n"
	       "their parameters, IOPS and MB/s against queue depth and block size, latency\n"
	       "percentiles and CDFs, per-second IOPS, scaling with clients, offered load or drives,\n"
	       "the simulated parts' utilization, steady-state rounds and warnings; runs that sweep\n"
	       "the same parameter are drawn on the same axes. The file holds everything it needs\n"
	       "(Chart.js is inlined) and opens offline in any browser.\n\n"
	       "  -o, --output FILE  the HTML file ('-': standard output); an existing file is\n"
	       "                     replaced only with --force\n"
	       "  --force            replace an existing FILE\n"
	       "  --db FILE          the results store (default $XDG_DATA_HOME/iolab/results.db,\n"
	       "                     else ~/.local/share/iolab/results.db; docs/results-db.md)\n"
	       "  --title TEXT       the page's title (default \"iolab report\")\n"
	       "  --price-at POINT   the runs' $/IOPS and $/(MB/s) at that point: PATTERN,qdN or\n"
	       "                     PATTERN,bsSIZE,qdN (file-server,qd16), as in iolab compare\n\n"
	       "Exit status: 0 written, 1 a write error, 2 bad input (an unknown run) or refused.\n"
	       "See docs/report.md.\n");
}

struct report_args {
	const char *out, *db, *title, *price_at;
	bool force;
	char **keys;
	int nkeys;
};

enum { OPT_FORCE = 256, OPT_DB, OPT_TITLE, OPT_PRICE_AT };

/* Returns -1 to go on, else the exit status (help printed, or a usage error said). */
static int parse(int argc, char **argv, struct report_args *a)
{
	static const struct option lo[] = {
		{"output", required_argument, NULL, 'o'},
		{"force", no_argument, NULL, OPT_FORCE},
		{"db", required_argument, NULL, OPT_DB},
		{"title", required_argument, NULL, OPT_TITLE},
		{"price-at", required_argument, NULL, OPT_PRICE_AT},
		{"help", no_argument, NULL, 'h'},
		{0},
	};
	int ch;
	opterr = 0;
	optind = 1;
	while ((ch = getopt_long(argc, argv, ":o:h", lo, NULL)) != -1) {
		switch (ch) {
		case 'o': a->out = optarg; break;
		case OPT_FORCE: a->force = true; break;
		case OPT_DB: a->db = optarg; break;
		case OPT_TITLE: a->title = optarg; break;
		case OPT_PRICE_AT: a->price_at = optarg; break;
		case 'h': help(); return EXIT_OK;
		default: return cli_opt_error("report", ch, argv);
		}
	}
	a->keys = argv + optind;
	a->nkeys = argc - optind;
	if (!a->nkeys)
		return cli_errorf(EXIT_USAGE, "report: which runs? give their ids or labels (see 'iolab db "
				  "list')");
	if (!a->out)
		return cli_errorf(EXIT_USAGE, "report: give the HTML file to write with -o FILE");
	return -1;
}

/* Loads the runs named by keys; a run named twice is refused. Returns an exit status. */
static int load_runs(struct iolab_store *s, const struct report_args *a, struct iolab_store_doc *docs)
{
	struct iolab_err err;
	for (int i = 0; i < a->nkeys; i++) {
		int rc = iolab_store_load(s, a->keys[i], &docs[i], &err);
		if (rc)
			return cli_errorf(rc == -ENOENT || rc == -EEXIST ? EXIT_USAGE : EXIT_FAILED,
					  "report: %s", err.msg);
		for (int j = 0; j < i; j++)
			if (docs[j].id == docs[i].id)
				return cli_errorf(EXIT_USAGE, "report: run %lld is named twice ('%s' and "
						  "'%s')", (long long)docs[i].id, a->keys[j], a->keys[i]);
	}
	return EXIT_OK;
}

/* Compares runs[0..n) as % of the first; *cmp is NULL where they share no point. */
static int compare_group(const struct iolab_compare_run *runs, size_t n, json_t **cmp,
			 struct iolab_err *err)
{
	int rc = iolab_compare(runs, n, 0, IOLAB_COMPARE_REF, cmp, err);
	if (!rc && !json_array_size(json_object_get(*cmp, "points"))) {
		json_decref(*cmp);
		*cmp = NULL;
	}
	return rc;
}

/* The page shows the runs compared point by point (compare.h), each as % of a reference. Runs
 * are grouped in the order named: a run joins the first group whose first run shares a point
 * with it, else starts one; each group of two runs or more is one comparison, its first run the
 * reference (all the runs, when they measured the same points). r->comparison is an array, or
 * NULL when no two runs share a point; the caller frees it. */
static int report_attach_comparison(struct iolab_html_report *r, const struct iolab_store_doc *docs,
				    size_t n, struct iolab_err *err)
{
	struct iolab_compare_run *runs = calloc(n, sizeof(*runs));
	size_t *group = calloc(n, sizeof(*group)); /* group[i]: the first run of run i's group */
	json_t *all = json_array();
	int rc = runs && group && all ? 0 : iolab_errf(err, ENOMEM, "out of memory");
	for (size_t i = 0; !rc && i < n; i++) {
		runs[i] = (struct iolab_compare_run){.id = docs[i].id, .label = docs[i].label,
						     .doc = docs[i].doc};
		group[i] = i;
		for (size_t k = 0; !rc && k < i && group[i] == i; k++) {
			if (group[k] != k)
				continue; /* k is not the first of a group */
			struct iolab_compare_run pair[2] = {runs[k], runs[i]};
			json_t *c = NULL;
			rc = compare_group(pair, 2, &c, err);
			if (c)
				group[i] = k;
			json_decref(c);
		}
	}
	struct iolab_compare_run *members = calloc(n ? n : 1, sizeof(*members));
	if (!rc && !members)
		rc = iolab_errf(err, ENOMEM, "out of memory");
	for (size_t g = 0; !rc && g < n; g++) {
		size_t m = 0;
		for (size_t i = g; i < n; i++)
			if (group[i] == g)
				members[m++] = runs[i];
		json_t *c = NULL;
		if (m >= 2 && !(rc = compare_group(members, m, &c, err)) && c)
			json_array_append_new(all, c);
	}
	free(members);
	free(runs);
	free(group);
	if (!rc && json_array_size(all)) {
		r->comparison = all;
		return 0;
	}
	json_decref(all);
	r->comparison = NULL;
	return rc;
}

/* --price-at: the runs' prices at that point in each comparison that has it; a point in none of
 * them is refused (the error of the first). */
static int report_price_at(json_t *comparisons, const char *spec)
{
	struct iolab_err err = {0}, first = {0};
	size_t i, found = 0;
	json_t *c;
	json_array_foreach(comparisons, i, c) {
		if (!iolab_compare_price_at(c, spec, &err))
			found++;
		else if (!first.msg[0])
			first = err;
	}
	if (found)
		return EXIT_OK;
	if (!first.msg[0])
		return cli_errorf(EXIT_USAGE, "report: --price-at '%s': the runs share no point to compare "
				  "(name two or more runs of a common workload)", spec);
	return cli_errorf(EXIT_USAGE, "report: %s", first.msg);
}

static int write_report(const char *path, const struct iolab_html_report *r)
{
	struct iolab_out out;
	struct iolab_err err;
	int rc = iolab_out_open(&out, path, &err);
	if (!rc && (rc = iolab_report_write(out.f, r, &err)))
		iolab_out_abort(&out);
	else if (!rc)
		rc = iolab_out_commit(&out, &err);
	if (rc)
		return cli_errorf(EXIT_FAILED, "report: %s: %s", path, err.msg);
	return EXIT_OK;
}

static int report(struct iolab_store *s, const struct report_args *a)
{
	struct iolab_store_doc *docs = calloc((size_t)a->nkeys, sizeof(*docs));
	struct iolab_report_run *runs = calloc((size_t)a->nkeys, sizeof(*runs));
	int status = docs && runs ? load_runs(s, a, docs) : cli_errorf(EXIT_FAILED, "out of memory");
	struct iolab_html_report r = {.title = a->title, .runs = runs, .nruns = (size_t)a->nkeys};
	struct iolab_err err;
	for (int i = 0; !status && i < a->nkeys; i++)
		runs[i] = (struct iolab_report_run){.id = docs[i].id, .label = docs[i].label,
						    .doc = docs[i].doc, .time = docs[i].time,
						    .command_line = docs[i].command};
	if (!status && report_attach_comparison(&r, docs, (size_t)a->nkeys, &err))
		status = cli_errorf(EXIT_FAILED, "report: %s", err.msg);
	if (!status && a->price_at)
		status = report_price_at((json_t *)r.comparison, a->price_at);
	if (!status)
		status = write_report(a->out, &r);
	json_decref((json_t *)r.comparison);
	for (int i = 0; docs && i < a->nkeys; i++)
		iolab_store_doc_free(&docs[i]);
	free(docs);
	free(runs);
	return status;
}

int cmd_report(int argc, char **argv)
{
	struct report_args a = {0};
	int status = parse(argc, argv, &a);
	if (status >= 0)
		return status;
	struct iolab_err err;
	char dbpath[PATH_MAX];
	if (a.db)
		snprintf(dbpath, sizeof(dbpath), "%s", a.db);
	else if (iolab_store_default_path(dbpath, sizeof(dbpath), &err))
		return cli_errorf(EXIT_USAGE, "report: %s", err.msg);
	const struct iolab_output out = {"-o", a.out, IOLAB_OUT_REPLACE};
	const char *inputs[] = {dbpath};
	if (iolab_outputs_check(&out, 1, inputs, 1, a.force, &err))
		return cli_errorf(EXIT_USAGE, "report: %s", err.msg);
	struct iolab_store *s;
	if (iolab_store_open_read(&s, dbpath, &err))
		return cli_errorf(EXIT_USAGE, "report: %s", err.msg);
	status = report(s, &a);
	iolab_store_close(s);
	return status;
}
