/* trace_internal.h: helpers the trace format modules share (text line reading with the
 * framework's line counter, strict numbers, name escaping). Not part of the public API
 * (include/iolab/trace.h); format modules under src/trace/ include it as "trace/trace_internal.h". */
#ifndef IOLAB_TRACE_INTERNAL_H
#define IOLAB_TRACE_INTERNAL_H

#include <stddef.h>
#include <stdint.h>
#include <stdio.h>

#include "iolab/trace.h"

/* The longest text line a reader accepts (bytes, without the newline). */
#define IOLAB_TRACE_LINE_MAX 4096

/* Reads the next line of f into buf (n bytes, at least 2) without its '\n' (and a '\r' before
 * it), and counts it in the reader's line counter. Returns 1, 0 at the end of the file, or
 * -EINVAL (a line longer than n - 1 bytes, which is skipped whole, or a NUL byte: the message
 * names the line) or -EIO (a read error). */
int iolab_trace_getline(struct iolab_trace_reader *r, FILE *f, char *buf, size_t n,
			struct iolab_err *err);

/* A decimal unsigned integer that is the whole of s (no sign, no space, no overflow).
 * Returns 0 or -EINVAL with "field 'F': 'S' is not a number" in err. */
int iolab_trace_parse_u64(const char *field, const char *s, uint64_t *v, struct iolab_err *err);

/* The name of an op ("read", "write", "trim", "flush"), or "?" */
const char *iolab_trace_op_name(unsigned op);
/* The op that name spells (the names above), or -1. */
int iolab_trace_op_parse(const char *name);

/* Writes s to f with every byte below 0x20, 0x7f and '\\' as \xHH, so a name is one line. */
void iolab_trace_put_escaped(FILE *f, const char *s);
/* Undoes iolab_trace_put_escaped from s into out (n bytes). Returns 0, or -EINVAL for a bad
 * escape or a result longer than n - 1. */
int iolab_trace_unescape(const char *s, char *out, size_t n);

#endif
