/* replay_traces.c: the traces `iolab replay` is given: each argument a trace file, or a
 * directory standing for its trace files (its *.iot files without --format; with --format every
 * regular file whose name does not start with '.'), in byte order of their names. */
#include <dirent.h>
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>

#include "cli.h"
#include "replay_traces.h"

static int by_name(const void *a, const void *b)
{
	return strcmp(*(char *const *)a, *(char *const *)b);
}

static bool is_trace_name(const char *name, bool any_format)
{
	size_t n = strlen(name);
	if (name[0] == '.')
		return false;
	return any_format || (n > 4 && !strcmp(name + n - 4, ".iot"));
}

/* Appends path to the list; returns 0 or an exit status. */
static int add(struct replay_traces *t, char *path)
{
	if (!path)
		return cli_errorf(EXIT_USAGE, "out of memory");
	char **grown = realloc(t->path, (t->n + 1) * sizeof(*grown));
	if (!grown) {
		free(path);
		return cli_errorf(EXIT_USAGE, "out of memory");
	}
	t->path = grown;
	t->path[t->n++] = path;
	return EXIT_OK;
}

/* The trace files of directory dir, sorted, onto t; returns 0 or an exit status. */
static int add_dir(struct replay_traces *t, const char *dir, bool any_format)
{
	DIR *d = opendir(dir);
	if (!d)
		return cli_errorf(EXIT_USAGE, "replay: %s: %s", dir, strerror(errno));
	unsigned first = t->n;
	size_t dn = strlen(dir);
	const char *sep = dn && dir[dn - 1] == '/' ? "" : "/";
	int status = EXIT_OK;
	struct dirent *e;
	while (!status && (e = readdir(d))) {
		if (!is_trace_name(e->d_name, any_format))
			continue;
		size_t n = dn + strlen(sep) + strlen(e->d_name) + 1;
		char *path = malloc(n);
		struct stat st;
		if (path)
			snprintf(path, n, "%s%s%s", dir, sep, e->d_name);
		if (path && (stat(path, &st) || !S_ISREG(st.st_mode))) {
			free(path);
			continue;
		}
		status = add(t, path);
	}
	closedir(d);
	if (status)
		return status;
	if (t->n == first)
		return cli_errorf(EXIT_USAGE, "replay: %s: a directory without trace files (%s)", dir,
				  any_format ? "every regular file is one with --format" : "*.iot; with "
				  "--format, every regular file");
	qsort(t->path + first, t->n - first, sizeof(*t->path), by_name);
	return EXIT_OK;
}

int replay_traces_list(char **args, unsigned nargs, bool any_format, struct replay_traces *t)
{
	memset(t, 0, sizeof(*t));
	if (!nargs)
		return cli_errorf(EXIT_USAGE, "replay: give a trace (or a directory of traces)");
	for (unsigned i = 0; i < nargs; i++) {
		struct stat st;
		int status = !stat(args[i], &st) && S_ISDIR(st.st_mode)
				     ? add_dir(t, args[i], any_format) : add(t, strdup(args[i]));
		if (status) {
			replay_traces_free(t);
			return status;
		}
	}
	return EXIT_OK;
}

void replay_traces_free(struct replay_traces *t)
{
	for (unsigned i = 0; i < t->n; i++)
		free(t->path[i]);
	free(t->path);
	memset(t, 0, sizeof(*t));
}
