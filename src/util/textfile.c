/* textfile.c: opening an input that must be a regular file, whole-file reading of text inputs,
 * and line trimming. Only regular files are read: a FIFO would block until something writes to
 * it, a device may never end. A UTF-8 byte-order mark (which some editors write) is skipped. */
#include <ctype.h>
#include <errno.h>
#include <fcntl.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "iolab/outfile.h"
#include "iolab/parse.h"
#include "iolab/textfile.h"

int iolab_open_regular(const char *path, const char *what, struct iolab_err *err)
{
	iolab_input_note(path); /* never to be written over by an output (outfile.h) */
	/* O_NONBLOCK: opening a FIFO must not wait for a writer before it can be refused. */
	int fd = open(path, O_RDONLY | O_NONBLOCK | O_CLOEXEC);
	if (fd < 0)
		return iolab_errf(err, errno, "%s: %s", path, strerror(errno));
	struct stat st;
	if (fstat(fd, &st) < 0) {
		int e = errno;
		close(fd);
		return iolab_errf(err, e, "%s: %s", path, strerror(e));
	}
	if (!S_ISREG(st.st_mode)) {
		close(fd);
		return iolab_errf(err, EINVAL, "%s: is %s, not a regular file (%s)", path,
				  S_ISFIFO(st.st_mode) ? "a FIFO" : S_ISDIR(st.st_mode) ? "a directory"
				  : S_ISCHR(st.st_mode) || S_ISBLK(st.st_mode) ? "a device" : "a special file",
				  what);
	}
	fcntl(fd, F_SETFL, fcntl(fd, F_GETFL) & ~O_NONBLOCK);
	return fd;
}

int iolab_read_text(const char *path, size_t max, const char *what, char **text, struct iolab_err *err)
{
	char why[96];
	snprintf(why, sizeof(why), "%s is read whole", what);
	int fd = iolab_open_regular(path, why, err);
	if (fd < 0)
		return fd;
	FILE *f = fdopen(fd, "r");
	if (!f) {
		int e = errno;
		close(fd);
		return iolab_errf(err, e, "%s: %s", path, strerror(e));
	}
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
	char most[32];
	if (ferror(f))
		rc = iolab_errf(err, EIO, "%s: read error", path);
	else if (n > max)
		rc = iolab_errf(err, EFBIG, "%s: larger than %s, the most %s may be", path,
				iolab_fmt_size(max, most, sizeof(most)), what);
	if (!rc) {
		buf[n] = 0;
		if (strlen(buf) != n)
			rc = iolab_errf(err, EINVAL, "%s: holds a NUL byte (not %s)", path, what);
		else if (n >= 3 && !memcmp(buf, "\xef\xbb\xbf", 3))
			memmove(buf, buf + 3, n - 2); /* the byte-order mark, and the NUL after the text */
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
