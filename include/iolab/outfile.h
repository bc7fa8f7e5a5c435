/* outfile.h: every file iolab writes that is not a measurement target (reports, request logs,
 * imported models) goes through this module, so one set of rules protects them all.
 *
 * Before a command does any work it checks all its output paths at once
 * (iolab_outputs_check): "-" means standard output, and at most one output may take it; a
 * directory, block or character device, FIFO or socket is refused; so is a path that is one of
 * the command's inputs or targets, two options naming the same file, and an existing file unless
 * the user gave --force. A missing directory or one iolab cannot write to is refused too.
 *
 * Writing (iolab_out_open / iolab_out_commit) goes to a temporary file in the same directory
 * that is renamed over the path only once everything was written and synced, so a failed or
 * interrupted write never leaves a truncated file, and write errors (a full disk) are reported.
 */
#ifndef IOLAB_OUTFILE_H
#define IOLAB_OUTFILE_H

#include <limits.h>
#include <stdbool.h>
#include <stdio.h>

#include "iolab/error.h"

/* One output of a command: the option that names it ("--json") and its path (NULL: not given). */
struct iolab_output {
	const char *option;
	const char *path;
};

/* Checks the n outputs of a command against the rules above. inputs[0..ninputs) are the paths the
 * command reads or measures (they need not exist). force allows replacing an existing regular
 * file. Returns 0, or -EINVAL/-EEXIST/-errno with one line in err naming the option and path. */
int iolab_outputs_check(const struct iolab_output *outs, unsigned n, const char *const *inputs,
			unsigned ninputs, bool force, struct iolab_err *err);

/* True if path means standard output. */
bool iolab_out_is_stdout(const char *path);

/* An output being written. */
struct iolab_out {
	FILE *f;                 /* write here */
	const char *path;
	bool to_stdout;
	char tmp[PATH_MAX];      /* the temporary file, renamed over path by commit */
};

/* Opens path for writing ("-": standard output). Returns 0 or -errno with err set. */
int iolab_out_open(struct iolab_out *o, const char *path, struct iolab_err *err);
/* Finishes the output: flushes, syncs and renames the temporary file into place. On any write
 * error the temporary file is removed and the path is left as it was. Returns 0 or -EIO (or
 * another -errno) with err naming the path and the reason. */
int iolab_out_commit(struct iolab_out *o, struct iolab_err *err);
/* Abandons an output: removes the temporary file (standard output is left as it is). */
void iolab_out_abort(struct iolab_out *o);

/* Opens path for an output written in place while the command runs (a journal, which must hold
 * what was done so far if iolab or the host stops): no temporary file, the file created or
 * emptied at once and its directory entry synced. path must have passed iolab_outputs_check
 * (standard output is refused here). Returns a descriptor open for writing, or -errno with err
 * naming the option and path. */
int iolab_out_open_in_place(const char *option, const char *path, struct iolab_err *err);

#endif
