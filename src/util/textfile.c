/* textfile.c: whole-file reading of text inputs, and line trimming. */
#include <ctype.h>
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "iolab/textfile.h"

int iolab_read_text(const char *path, size_t max, const char *what, char **text, struct iolab_err *err)
{
	FILE *f = fopen(path, "r");
	if (!f)
		return iolab_errf(err, errno, "%s: %s", path, strerror(errno));
	size_t cap = 0, n = 0;
	char *buf = NULL;
	int rc = 0;
	for (;;) {
		if (n + 1 >= cap) {
			size_t ncap = cap ? cap * 2 : 16384;
			char *nb = realloc(buf, ncap);
			if (!nb) {
				rc = iolab_errf(err, ENOMEM, "%s: out of memory", path);
				goto out;
			}
			buf = nb;
			cap = ncap;
		}
		size_t r = fread(buf + n, 1, cap - n - 1, f);
		n += r;
		if (r == 0 || n > max)
			break;
	}
	if (ferror(f))
		rc = iolab_errf(err, EIO, "%s: read error", path);
	else if (n > max)
		rc = iolab_errf(err, EFBIG, "%s: larger than %zu MiB", path, max >> 20);
	if (!rc) {
		buf[n] = 0;
		if (strlen(buf) != n)
			rc = iolab_errf(err, EINVAL, "%s: holds a NUL byte (not %s)", path, what);
	}
out:
	fclose(f);
	if (rc)
		free(buf);
	else
		*text = buf;
	return rc;
}

char *iolab_trim(char *s)
{
	while (isspace((unsigned char)*s))
		s++;
	char *e = s + strlen(s);
	while (e > s && isspace((unsigned char)e[-1]))
		*--e = 0;
	return s;
}
