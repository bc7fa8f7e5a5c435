/* fuzz_common.h: what the parser fuzz targets share: the input as a C string, and the rule that
 * every parse error is one line naming the file. */
#ifndef IOLAB_FUZZ_COMMON_H
#define IOLAB_FUZZ_COMMON_H

#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include "iolab/error.h"

/* The fuzzer's bytes as a NUL-terminated string (free() it), or NULL. */
static inline char *fuzz_text(const uint8_t *data, size_t size)
{
	char *text = malloc(size + 1);
	if (text) {
		memcpy(text, data, size);
		text[size] = 0;
	}
	return text;
}

/* Aborts (a finding) unless err is a terminated message that starts with the file name. */
static inline void fuzz_check_error(const struct iolab_err *err, const char *file)
{
	if (!memchr(err->msg, 0, sizeof(err->msg)) || strncmp(err->msg, file, strlen(file)) != 0)
		abort();
}

#endif
