/* outfile.h: the one gate every file iolab writes passes, besides its measurement targets:
 * reports (--json, --csv, report -o, db export), traces (--record, trace -o), models (probe -o,
 * model import-disksim -o), request logs, and the results store (--db). One set of rules
 * protects them all.
 *
 * The rules, checked before a command does any work (iolab_outputs_check) and again when an
 * output is opened:
 * - "-" means standard output, and at most one output may take it; an empty name is refused;
 * - a directory, block or character device, FIFO or socket is never written, whatever --force
 *   says (also through a symbolic link);
 * - an input of the command is never written: a path the command was given to read or measure,
 *   and every file this process has read (iolab_input_note: a job, model or subsystem file, a
 *   file one of those sources or names at any depth, a trace, the results store a report reads);
 * - two outputs never name one file (the results store is one of them);
 * - an output that replaces (a report) does so to an existing file only with --force, and never
 *   to a SQLite database (a results store); an output added to (the store) is opened as it is;
 * - a missing directory, or one iolab cannot write to, is refused.
 * --force thus means only "replace a regular file, my own earlier output".
 *
 * Writing a whole output (iolab_out_open / iolab_out_commit) goes to a temporary file in the same
 * directory that is renamed over the path only once everything was written and synced, so a failed
 * or interrupted write never leaves a truncated file, and write errors (a full disk) are reported.
 * The temporary files still open can be removed from a signal handler (iolab_out_remove_pending).
 */
#ifndef IOLAB_OUTFILE_H
#define IOLAB_OUTFILE_H

#include <limits.h>
#include <stdbool.h>
#include <stdio.h>

#include "iolab/error.h"

enum iolab_out_kind {
	IOLAB_OUT_REPLACE, /* replaces what is there, with --force (a report, trace, model, journal) */
	IOLAB_OUT_ADD,     /* added to where it is, an existing one kept (the results store) */
};

/* One output of a command: the option that names it ("--json"), its path (NULL: not given) and
 * its kind (enum iolab_out_kind). */
struct iolab_output {
	const char *option;
	const char *path;
	unsigned kind;
};

/* Notes that this process reads path: from now on no output may be written over it. Every
 * reader of a file calls it (the text reader, the trace reader, the results store); a path that
 * does not exist is noted by name. Thread-safe. */
void iolab_input_note(const char *path);

/* Checks the n outputs of a command against the rules above, and claims them: a later check or
 * open of one of them by its option finds it claimed. inputs[0..ninputs) are paths the command
 * reads or measures that may not have been read yet (a target still to be created; NULL entries
 * are skipped). force allows replacing an existing regular file. Returns 0, or -EINVAL/-EEXIST/
 * -errno with one line in err naming the option and path. */
int iolab_outputs_check(const struct iolab_output *outs, unsigned n, const char *const *inputs,
			unsigned ninputs, bool force, struct iolab_err *err);

/* True if path means standard output. */
bool iolab_out_is_stdout(const char *path);

/* A whole output being written. */
struct iolab_out {
	FILE *f;                 /* write here */
	const char *path;
	bool to_stdout;
	char tmp[PATH_MAX];      /* the temporary file, renamed over path by commit */
	char dest[PATH_MAX];     /* the file renamed over: path with its symbolic links resolved */
};

/* Opens path for writing ("-": standard output). A path no check has claimed is checked now,
 * without --force. Returns 0 or -errno with err set. */
int iolab_out_open(struct iolab_out *o, const char *path, struct iolab_err *err);
/* Finishes the output: flushes, syncs and renames the temporary file into place (after checking
 * once more that the path is still a regular file or missing). On any error the temporary file is
 * removed and the path is left as it was. Returns 0 or -EIO (or another -errno) with err naming
 * the path and the reason. */
int iolab_out_commit(struct iolab_out *o, struct iolab_err *err);
/* Commits the n outputs together: each is written and synced first, and only if all were is any
 * renamed into place; otherwise all are abandoned. Returns 0 or the first error (said in err). */
int iolab_outs_commit(struct iolab_out *const *o, unsigned n, struct iolab_err *err);
/* Abandons an output: removes the temporary file (standard output is left as it is). */
void iolab_out_abort(struct iolab_out *o);

/* Removes every temporary file of an output still open. Async-signal-safe: for a handler of a
 * signal that ends the process. */
void iolab_out_remove_pending(void);

/* Opens path for an output that replaces what is there but is written in place while the command
 * runs (a journal, which must hold what was done so far if iolab or the host stops): no temporary
 * file; the file is created, or emptied once it is known to be a regular file, and its directory
 * entry synced. A path no check has claimed is checked now, without --force; standard output is
 * refused. Returns a descriptor open for writing, or -errno with err naming the option and path. */
int iolab_out_open_in_place(const char *option, const char *path, struct iolab_err *err);

#endif
