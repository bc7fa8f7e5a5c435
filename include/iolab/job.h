/* job.h: job files, the text form of a set of runs.
 *
 *   # comments start with '#', anywhere on a line
 *   [global]                  options for every run that follows (name = value, as --name value)
 *   engine = io_uring
 *
 *   [pattern my-mix]          an access specification: one line per transfer size
 *   # size  share%  read%  random%  [align]
 *   4k      60      80     100
 *   64k     40      0      0        64k
 *
 *   [run small]               a run: options, applied over [global]
 *   target = scratch.img
 *   pattern = my-mix, rand-read
 *   qd = 1, 4, 16
 *
 * Every error names the file, the line and the field. Documented in docs/job-files.md.
 */
#ifndef IOLAB_JOB_H
#define IOLAB_JOB_H

#include "iolab/run.h"

#define IOLAB_JOB_RUNS 64

struct iolab_job {
	struct iolab_pattern_set patterns;
	/* `iolab sim`: the single drive its [global] names (model = NAME), "" for none: --model and
	 * --config override it (`drive =`, an array's drives, is an option of each run) */
	char model[256];
	unsigned nrun;
	struct iolab_config *run; /* nrun configurations, in file order */
};

/* Parses text (name is used in messages). An option given twice in one section, or with one it
 * excludes (time and bytes), is an error; so, when simulated (the job is for `iolab sim`), is
 * an option only real targets use (engine, size, ...). Returns 0 or -EINVAL with
 * "name:line: ..." in err. */
int iolab_job_parse(const char *name, const char *text, bool simulated, struct iolab_job *job,
		    struct iolab_err *err);
/* Reads and parses the file at path. */
int iolab_job_load(const char *path, bool simulated, struct iolab_job *job, struct iolab_err *err);
void iolab_job_free(struct iolab_job *job);

#endif
