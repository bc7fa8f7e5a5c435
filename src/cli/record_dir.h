/* record_dir.h: --record DIR/ on run, sim and replay: a trace per point in a directory, each
 * named from its point (run.h: iolab_config_point_name), made unique (record_dir.c). */
#ifndef IOLAB_CLI_RECORD_DIR_H
#define IOLAB_CLI_RECORD_DIR_H

#include <stdbool.h>

#include "iolab/outfile.h"
#include "iolab/run.h"

struct record_dir {
	const char *dir;
	const char *source;       /* the command line, for each trace's header */
	char **path;              /* every point's trace, in run order (malloc'd) */
	unsigned n;
	struct iolab_config **cfg;
	unsigned ncfg;
	bool created;             /* the directory was made by this run */
	int status;               /* EXIT_FAILED once a trace could not be written */
	struct iolab_out out;     /* the current point's */
	struct iolab_record_points hooks;
};

/* --record names a directory: it ends in '/' or is one. */
bool record_is_dir(const char *path);
/* Names the trace of every point of cfg[0..ncfg) in dir and makes dir if missing (the
 * directory's parents too). Returns 0 or an exit status (said). */
int record_dir_plan(struct record_dir *d, const char *dir, const char *source,
		    struct iolab_config **cfg, unsigned ncfg);
/* The outputs for iolab_outputs_check, into outs (d->n of them). */
void record_dir_outputs(const struct record_dir *d, struct iolab_output *outs);
/* Points every configuration's recording at d. */
void record_dir_attach(struct record_dir *d);
/* Frees d; refused (nothing ran), the directory made is removed again. */
void record_dir_free(struct record_dir *d, bool refused);

#endif
