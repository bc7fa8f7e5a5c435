/* record_dir.c: --record DIR/ (record_dir.h). Before the run every point's trace is named
 * (the point's name, "-2", "-3" ... where two points of the sweep would share one), so that
 * the outputs check (outfile.h: --force to replace) covers each file; during it each point gets
 * its own recorder, and its trace is written when the point ends, through a temporary file. */
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>

#include "cli.h"
#include "iolab/trace_record.h"
#include "record_dir.h"

bool record_is_dir(const char *path)
{
	struct stat st;
	size_t n = strlen(path);
	return (n && path[n - 1] == '/') || (!stat(path, &st) && S_ISDIR(st.st_mode));
}

/* Makes dir and its missing parents (mkdir -p); returns 0 or an exit status. */
static int make_dir(struct record_dir *d)
{
	char path[PATH_MAX];
	if (snprintf(path, sizeof(path), "%s", d->dir) >= (int)sizeof(path))
		return cli_errorf(EXIT_USAGE, "--record %s: the path is too long", d->dir);
	struct stat st;
	if (!stat(path, &st))
		return S_ISDIR(st.st_mode) ? EXIT_OK : cli_errorf(EXIT_USAGE, "--record %s: not a "
								   "directory", d->dir);
	for (char *p = path + 1;; p++) {
		bool end = !*p;
		if (*p != '/' && !end)
			continue;
		*p = 0;
		if (mkdir(path, 0777) && errno != EEXIST)
			return cli_errorf(EXIT_USAGE, "--record %s: cannot make directory %s: %s", d->dir,
					  path, strerror(errno));
		if (end)
			break;
		*p = '/';
		while (p[1] == '/')
			p++;
	}
	d->created = true;
	return EXIT_OK;
}

/* Whether name is among the first n paths' names. */
static bool taken(const struct record_dir *d, unsigned n, const char *path)
{
	for (unsigned i = 0; i < n; i++)
		if (!strcmp(d->path[i], path))
			return true;
	return false;
}

int record_dir_plan(struct record_dir *d, const char *dir, const char *source,
		    struct iolab_config **cfg, unsigned ncfg)
{
	memset(d, 0, sizeof(*d));
	d->dir = dir;
	d->source = source;
	d->cfg = cfg;
	d->ncfg = ncfg;
	for (unsigned i = 0; i < ncfg; i++) {
		if (cfg[i]->repeat > 1 || cfg[i]->steady)
			return cli_errorf(EXIT_USAGE, "--record %s: a trace per point records one run of "
					  "each (--%s does not apply)", dir, cfg[i]->steady ?
					  "steady-state" : "repeat");
		d->n += iolab_config_points(cfg[i]);
	}
	if (!(d->path = calloc(d->n ? d->n : 1, sizeof(*d->path))))
		return cli_errorf(EXIT_USAGE, "out of memory");
	size_t dn = strlen(dir);
	const char *sep = dn && dir[dn - 1] == '/' ? "" : "/";
	unsigned at = 0;
	for (unsigned i = 0; i < ncfg; i++)
		for (unsigned k = 0; k < iolab_config_points(cfg[i]); k++, at++) {
			char name[128], path[PATH_MAX];
			iolab_config_point_name(cfg[i], k, name, sizeof(name));
			snprintf(path, sizeof(path), "%s%s%s.iot", dir, sep, name);
			for (unsigned v = 2; taken(d, at, path); v++)
				snprintf(path, sizeof(path), "%s%s%s-%u.iot", dir, sep, name, v);
			if (!(d->path[at] = strdup(path)))
				return cli_errorf(EXIT_USAGE, "out of memory");
		}
	return make_dir(d);
}

void record_dir_outputs(const struct record_dir *d, struct iolab_output *outs)
{
	for (unsigned i = 0; i < d->n; i++)
		outs[i] = (struct iolab_output){"--record", d->path[i], IOLAB_OUT_REPLACE};
}

/* The index in d->path of point k of c. */
static unsigned index_of(const struct record_dir *d, const struct iolab_config *c, unsigned k)
{
	unsigned at = 0;
	for (unsigned i = 0; i < d->ncfg && d->cfg[i] != c; i++)
		at += iolab_config_points(d->cfg[i]);
	return at + k;
}

static int begin_point(void *ctx, const struct iolab_config *c, unsigned k, struct iolab_recorder **r,
		       struct iolab_err *err)
{
	struct record_dir *d = ctx;
	unsigned i = index_of(d, c, k);
	if (i >= d->n)
		return iolab_errf(err, EINVAL, "--record %s: point %u has no trace named", d->dir, k + 1);
	int rc = iolab_out_open(&d->out, d->path[i], err);
	if (!rc && (rc = iolab_recorder_new(r, d->out.f, NULL, d->source, err)))
		iolab_out_abort(&d->out);
	return rc;
}

static void end_point(void *ctx, struct iolab_recorder *r, bool ran)
{
	struct record_dir *d = ctx;
	struct iolab_err err;
	int rc = ran ? iolab_recorder_end(r, &err) : -ECANCELED;
	if (rc) {
		iolab_out_abort(&d->out);
		if (ran)
			iolab_err_prefix(&err, "%s", d->out.path);
	} else {
		rc = iolab_out_commit(&d->out, &err);
	}
	if (rc && ran) {
		cli_errorf(EXIT_FAILED, "%s", err.msg);
		d->status = EXIT_FAILED;
	} else if (ran && iolab_recorder_late(r)) {
		cli_errorf(EXIT_OK, "--record %s: %llu of %llu I/Os are out of issue order (each "
			   "outlived more than the recorder's window of later ones)", d->out.path,
			   (unsigned long long)iolab_recorder_late(r),
			   (unsigned long long)iolab_recorder_count(r));
	}
	iolab_recorder_free(r);
}

void record_dir_attach(struct record_dir *d)
{
	d->hooks = (struct iolab_record_points){begin_point, end_point, d};
	for (unsigned i = 0; i < d->ncfg; i++)
		d->cfg[i]->record_points = &d->hooks;
}

void record_dir_free(struct record_dir *d, bool refused)
{
	for (unsigned i = 0; d->path && i < d->n; i++)
		free(d->path[i]);
	free(d->path);
	if (refused && d->created)
		rmdir(d->dir);
	d->path = NULL;
	d->n = 0;
}
