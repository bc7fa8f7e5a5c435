/* replay_traces.h: the trace files of `iolab replay`'s arguments (replay_traces.c). */
#ifndef IOLAB_CLI_REPLAY_TRACES_H
#define IOLAB_CLI_REPLAY_TRACES_H

#include <stdbool.h>

struct replay_traces {
	char **path; /* malloc'd, each malloc'd */
	unsigned n;
};

/* Each argument a trace file, or a directory: its trace files, sorted by name (*.iot, or with
 * any_format (--format given) every regular file not starting with '.'). Returns 0 or an exit
 * status (said). */
int replay_traces_list(char **args, unsigned nargs, bool any_format, struct replay_traces *t);
void replay_traces_free(struct replay_traces *t);

#endif
