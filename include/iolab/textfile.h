/* textfile.h: opening an input that must be a regular file, reading a text input (job file,
 * model, trace) whole, and trimming its lines. */
#ifndef IOLAB_TEXTFILE_H
#define IOLAB_TEXTFILE_H

#include <stddef.h>

#include "iolab/error.h"

/* Opens path for reading, without waiting: a FIFO (which would block until a writer came), a
 * directory or a device is refused with "PATH: is a FIFO, not a regular file (WHY)". Returns
 * the descriptor (blocking, close-on-exec) or -errno with err set. */
int iolab_open_regular(const char *path, const char *why, struct iolab_err *err);

/* Reads the file at path into a new NUL-terminated string (*text, to free()). Fails with a
 * message naming the path if it cannot be read, is larger than max bytes, or holds a NUL byte
 * (what = "a job file", "a trace", ... for that message). Returns 0 or -errno. */
int iolab_read_text(const char *path, size_t max, const char *what, char **text, struct iolab_err *err);

/* Strips leading and trailing white space in place; returns the start. */
char *iolab_trim(char *s);

#endif
