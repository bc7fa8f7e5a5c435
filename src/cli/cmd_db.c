/* cmd_db.c: `iolab db list|show|export|delete`: reading and pruning the results store
 * (include/iolab/store.h, docs/results-db.md) that run, sim and replay save into. */
#include <errno.h>
#include <limits.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <jansson.h>

#include "cli.h"
#include "iolab/outfile.h"
#include "iolab/store.h"

static const struct {
	const char *name, *usage, *about;
} subs[] = {
	{"list", "iolab db list [--json [FILE|-]] [--force] [--db FILE]",
	 "Lists the saved runs: id, time (UTC), label, kind, target or model, points (* after\n"
	 "the count: the run was interrupted), and the command line as given (shell-quoted where\n"
	 "needed). Columns are as wide as their longest entry. --json writes the list as a JSON\n"
	 "array of {id, time, label, kind, target, points, interrupted, command} to FILE or\n"
	 "standard output ('-', the default) instead; an existing FILE needs --force."},
	{"show", "iolab db show ID|LABEL [--db FILE]", "Prints the run's table as the run printed it."},
	{"export", "iolab db export ID|LABEL --json [FILE|-] [--force] [--db FILE]",
	 "Writes the run's JSON document, the same as the run's --json wrote (docs/json-schema.md),\n"
	 "to FILE or standard output ('-', the default). An existing FILE is replaced only with\n"
	 "--force."},
	{"delete", "iolab db delete ID|LABEL [--db FILE]",
	 "Deletes the run with its points and warnings. A label that names several runs is refused\n"
	 "(their ids are listed): give the id."},
};

/* The usage (of one subcommand, or -1: all): on standard output when asked for, on standard
 * error when no subcommand was given. */
static void help(int which, FILE *f)
{
	if (which >= 0) {
		fprintf(f, "usage: %s\n\n%s\n", subs[which].usage, subs[which].about);
	} else {
		fprintf(f, "usage: iolab db list|show|export|delete [ARGS] [--db FILE]\n\n");
		for (size_t i = 0; i < sizeof(subs) / sizeof(subs[0]); i++)
			fprintf(f, "  %s\n", subs[i].usage);
		fprintf(f, "\nThe results store: every run, sim and replay saves its results there unless\n"
			"given --no-db. ID is a run id, LABEL the --label it was given.\n");
	}
	fprintf(f, "\n--db FILE: the store (default $XDG_DATA_HOME/iolab/results.db, else\n"
		"~/.local/share/iolab/results.db; docs/results-db.md).\n");
}

struct db_args {
	const char *db, *key, *json;
	bool json_given, force, help;
};

static int parse(const char *sub, int argc, char **argv, bool export, struct db_args *a)
{
	bool list = !strcmp(sub, "list");
	for (int i = 1; i < argc; i++) {
		const char *s = argv[i];
		if (!strcmp(s, "--help") || !strcmp(s, "-h")) {
			a->help = true;
			return EXIT_OK;
		} else if (!strcmp(s, "--db")) {
			if (++i >= argc)
				return cli_errorf(EXIT_USAGE, "db %s: option '--db' needs a value", sub);
			a->db = argv[i];
		} else if (export && !strcmp(s, "--json")) {
			a->json_given = true;
			/* the next argument is the file if it is '-' or not an option, and the run is
			 * named before or after it */
			if (i + 1 < argc && (!strcmp(argv[i + 1], "-") || argv[i + 1][0] != '-') &&
			    (a->key || (i + 2 < argc && argv[i + 2][0] != '-')))
				a->json = argv[++i];
		} else if (list && !strcmp(s, "--json")) {
			a->json_given = true;
			if (i + 1 < argc && (!strcmp(argv[i + 1], "-") || argv[i + 1][0] != '-'))
				a->json = argv[++i];
		} else if ((export || list) && !strcmp(s, "--force")) {
			a->force = true;
		} else if (s[0] == '-' && s[1]) {
			return cli_errorf(EXIT_USAGE, "db %s: unknown option '%s' (see 'iolab db %s --help')",
					  sub, s, sub);
		} else if (!a->key && strcmp(sub, "list")) {
			a->key = s;
		} else {
			return cli_errorf(EXIT_USAGE, "db %s: unexpected argument '%s'", sub, s);
		}
	}
	if (strcmp(sub, "list") && !a->key)
		return cli_errorf(EXIT_USAGE, "db %s: give the run's id or label (see 'iolab db list')", sub);
	if (export && !a->json_given)
		return cli_errorf(EXIT_USAGE, "db export: give --json [FILE|-] (the format to export)");
	return EXIT_OK;
}

static int write_text(const char *path, const char *text, struct iolab_err *err)
{
	struct iolab_out out;
	int rc = iolab_out_open(&out, path, err);
	if (rc)
		return rc;
	if (fputs(text, out.f) == EOF) {
		iolab_out_abort(&out);
		return iolab_errf(err, EIO, "%s: write error: %s", path, strerror(errno));
	}
	return iolab_out_commit(&out, err);
}

/* The width of UTF-8 text on a terminal, one column per character. */
static int text_width(const char *t)
{
	int w = 0;
	for (; *t; t++)
		w += ((unsigned char)*t & 0xC0) != 0x80;
	return w;
}

/* Prints s left-aligned in w columns (w counted in characters, not bytes). */
static void put_left(FILE *f, const char *s, int w)
{
	fprintf(f, "%s%*s", s, w - text_width(s), "");
}

/* `db list`: the runs as a table whose columns fit their longest entry, or as JSON. */
static int list(struct iolab_store *s, const struct db_args *a)
{
	struct iolab_err err;
	json_t *runs;
	if (iolab_store_list(s, &runs, &err))
		return cli_errorf(EXIT_FAILED, "%s", err.msg);
	if (a->json_given) {
		int rc = cli_write_json(a->json ? a->json : "-", runs);
		json_decref(runs);
		return rc ? EXIT_FAILED : EXIT_OK;
	}
	static const char *const heads[] = {"time", "label", "kind", "target/model"};
	static const char *const fields[] = {"time", "label", "kind", "target"};
	int w[4];
	size_t i;
	const json_t *r;
	for (int c = 0; c < 4; c++)
		w[c] = text_width(heads[c]);
	json_array_foreach(runs, i, r)
		for (int c = 0; c < 4; c++) {
			const char *t = json_string_value(json_object_get(r, fields[c]));
			if (text_width(t ? t : "-") > w[c])
				w[c] = text_width(t ? t : "-");
		}
	printf("%6s", "id");
	for (int c = 0; c < 4; c++) {
		fputs("  ", stdout);
		put_left(stdout, heads[c], w[c]);
	}
	printf("  %6s   %s\n", "points", "command");
	json_array_foreach(runs, i, r) {
		printf("%6lld", (long long)json_integer_value(json_object_get(r, "id")));
		for (int c = 0; c < 4; c++) {
			const char *t = json_string_value(json_object_get(r, fields[c]));
			fputs("  ", stdout);
			put_left(stdout, t ? t : "-", w[c]);
		}
		printf("  %6lld%s  %s\n", (long long)json_integer_value(json_object_get(r, "points")),
		       json_is_true(json_object_get(r, "interrupted")) ? "*" : " ",
		       json_string_value(json_object_get(r, "command")));
	}
	json_decref(runs);
	return EXIT_OK;
}

/* Runs one subcommand on the open store; returns an exit status. */
static int act(struct iolab_store *s, const char *sub, const struct db_args *a)
{
	struct iolab_err err;
	int64_t id = 0;
	if (!strcmp(sub, "list"))
		return list(s, a);
	if (iolab_store_find(s, a->key, &id, &err))
		return cli_errorf(EXIT_USAGE, "db %s: %s", sub, err.msg);
	if (!strcmp(sub, "delete")) {
		if (iolab_store_delete(s, id, &err))
			return cli_errorf(EXIT_FAILED, "%s", err.msg);
		printf("deleted run %lld\n", (long long)id);
		return EXIT_OK;
	}
	char *text = NULL;
	int status = EXIT_OK;
	if (iolab_store_text(s, id, !strcmp(sub, "export"), &text, &err))
		status = cli_errorf(EXIT_FAILED, "%s", err.msg);
	else if (!strcmp(sub, "show"))
		fputs(text, stdout);
	else if (write_text(a->json ? a->json : "-", text, &err))
		status = cli_errorf(EXIT_FAILED, "%s", err.msg);
	free(text);
	return status;
}

int cmd_db(int argc, char **argv)
{
	if (argc < 2 || !strcmp(argv[1], "--help") || !strcmp(argv[1], "-h")) {
		help(-1, argc < 2 ? stderr : stdout);
		return argc < 2 ? EXIT_USAGE : EXIT_OK;
	}
	const char *sub = argv[1];
	int which = -1;
	for (size_t i = 0; i < sizeof(subs) / sizeof(subs[0]); i++)
		if (!strcmp(sub, subs[i].name))
			which = (int)i;
	if (which < 0)
		return cli_errorf(EXIT_USAGE, "db: unknown subcommand '%s' (list, show, export, delete)", sub);
	struct db_args a = {0};
	int status = parse(sub, argc - 1, argv + 1, !strcmp(sub, "export"), &a);
	if (status || a.help) {
		if (a.help)
			help(which, stdout);
		return status;
	}
	struct iolab_err err;
	char dbpath[PATH_MAX];
	if (!a.db && iolab_store_default_path(dbpath, sizeof(dbpath), &err))
		return cli_errorf(EXIT_USAGE, "%s", err.msg);
	const char *db = a.db ? a.db : dbpath;
	const struct iolab_output out = {"--json", a.json, IOLAB_OUT_REPLACE};
	if (iolab_outputs_check(&out, 1, &db, 1, a.force, &err))
		return cli_errorf(EXIT_USAGE, "%s", err.msg);
	struct iolab_store *s;
	if (iolab_store_open_read(&s, db, &err))
		return cli_errorf(EXIT_USAGE, "%s", err.msg);
	status = act(s, sub, &a);
	iolab_store_close(s);
	return status;
}
