/* trace_objects.h: a trace reader's and writer's state (trace_io.c drives them; the accessors
 * and line reader the formats use are in trace_access.c). */
#ifndef IOLAB_TRACE_OBJECTS_H
#define IOLAB_TRACE_OBJECTS_H

#include <limits.h>
#include <stdbool.h>
#include <stdint.h>
#include <stdio.h>

#include "iolab/trace.h"

struct iolab_trace_reader {
	FILE *f;
	bool own;             /* opened here (not standard input) */
	const struct iolab_trace_format *fmt;
	unsigned flags;
	uint64_t line;        /* text lines, or binary records, read so far */
	uint64_t skipped;
	bool opened;          /* read_open succeeded: read_close is due */
	void *priv;
	char name[PATH_MAX];
	char note[256];       /* the format's one warning ("" none): iolab_trace_note */
	struct iolab_trace_header h;
};

struct iolab_trace_writer {
	FILE *f;
	const struct iolab_trace_format *fmt;
	uint64_t n;           /* records written */
	bool opened;
	void *priv;
	struct iolab_trace_header h;
};

#endif
