/* error.c: formatting of one-line error messages into struct iolab_err. */
#include <errno.h>
#include <stdarg.h>
#include <stdio.h>
#include <string.h>

#include "iolab/error.h"

int iolab_errf(struct iolab_err *err, int code, const char *fmt, ...)
{
	if (err) {
		va_list ap;
		va_start(ap, fmt);
		vsnprintf(err->msg, sizeof(err->msg), fmt, ap);
		va_end(ap);
	}
	return -code;
}

int iolab_err_field(struct iolab_err *err, const char *field, const char *fmt, ...)
{
	char msg[sizeof(err->msg)];
	va_list ap;
	va_start(ap, fmt);
	vsnprintf(msg, sizeof(msg), fmt, ap);
	va_end(ap);
	return iolab_errf(err, EINVAL, "field '%s': %s", field, msg);
}

void iolab_err_prefix(struct iolab_err *err, const char *fmt, ...)
{
	if (!err)
		return;
	char prefix[256], old[sizeof(err->msg)];
	va_list ap;
	va_start(ap, fmt);
	vsnprintf(prefix, sizeof(prefix), fmt, ap);
	va_end(ap);
	memcpy(old, err->msg, sizeof(old));
	size_t n = strlen(prefix);
	if (n + 2 >= sizeof(err->msg))
		n = sizeof(err->msg) - 3;
	memcpy(err->msg, prefix, n);
	memcpy(err->msg + n, ": ", 2);
	size_t room = sizeof(err->msg) - n - 3;
	size_t m = strnlen(old, room);
	memcpy(err->msg + n + 2, old, m);
	err->msg[n + 2 + m] = 0;
}
