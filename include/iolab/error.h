/* error.h: how libiolab reports failures.
 *
 * Functions that can fail return 0 (or a count) on success and a negative errno on failure, and
 * never set errno. Where a person must read the reason, the caller passes a struct iolab_err and
 * the function writes one line into it naming the option, file, line and field involved, like
 * "job.txt:12: field 'qd': '4x' is not a number". The CLI prints that line and exits 2.
 */
#ifndef IOLAB_ERROR_H
#define IOLAB_ERROR_H

#include <stddef.h>

struct iolab_err {
	char msg[512];
};

/* Formats msg into err (err may be NULL) and returns -code (code is a positive errno). */
int iolab_errf(struct iolab_err *err, int code, const char *fmt, ...)
	__attribute__((format(printf, 3, 4)));

/* "field 'FIELD': " and the formatted message into err; returns -EINVAL. */
int iolab_err_field(struct iolab_err *err, const char *field, const char *fmt, ...)
	__attribute__((format(printf, 3, 4)));

/* Prefixes err->msg with "prefix: " (used to add a file:line to a field error). */
void iolab_err_prefix(struct iolab_err *err, const char *fmt, ...) __attribute__((format(printf, 2, 3)));

#endif
