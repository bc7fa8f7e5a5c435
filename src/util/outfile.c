/* outfile.c: the one place that decides whether iolab may write a path, and writes it
 * atomically (rules in include/iolab/outfile.h). */
#include <errno.h>
#include <fcntl.h>
#include <libgen.h>
#include <stdio_ext.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "iolab/outfile.h"

bool iolab_out_is_stdout(const char *path)
{
	return path && !strcmp(path, "-");
}

static const char *kind_of(mode_t m)
{
	return S_ISDIR(m) ? "a directory" : S_ISBLK(m) ? "a block device" : S_ISCHR(m) ? "a character device"
	       : S_ISFIFO(m) ? "a FIFO" : S_ISSOCK(m) ? "a socket" : NULL;
}

/* The directory part of path, into buf. */
static void dir_of(const char *path, char *buf, size_t n)
{
	char copy[PATH_MAX];
	snprintf(copy, sizeof(copy), "%s", path);
	snprintf(buf, n, "%s", dirname(copy));
}

/* An absolute form of path that two spellings of one file share, also when it does not exist
 * yet: the real path of the file, or of its directory followed by its name. */
static void canonical(const char *path, char *buf, size_t n)
{
	char real[PATH_MAX], dir[PATH_MAX], copy[PATH_MAX];
	if (realpath(path, real)) {
		snprintf(buf, n, "%s", real);
		return;
	}
	dir_of(path, dir, sizeof(dir));
	snprintf(copy, sizeof(copy), "%s", path);
	if (!realpath(dir, real) || snprintf(buf, n, "%s/%s", real, basename(copy)) >= (int)n)
		snprintf(buf, n, "%s", path);
}

/* True if a and b are one file: the same inode when both exist, the same canonical path when
 * neither does (a scratch file still to be created and a report). */
static bool same_file(const char *a, const char *b)
{
	struct stat sa, sb;
	bool ea = stat(a, &sa) == 0, eb = stat(b, &sb) == 0;
	if (ea && eb)
		return sa.st_dev == sb.st_dev && sa.st_ino == sb.st_ino;
	if (ea || eb)
		return false;
	char ca[PATH_MAX], cb[PATH_MAX];
	canonical(a, ca, sizeof(ca));
	canonical(b, cb, sizeof(cb));
	return !strcmp(ca, cb);
}

static int check_one(const struct iolab_output *o, const char *const *inputs, unsigned ninputs,
		     bool force, struct iolab_err *err)
{
	const char *p = o->path;
	if (!*p)
		return iolab_errf(err, EINVAL, "%s: needs a file name ('-' for standard output)", o->option);
	for (unsigned i = 0; i < ninputs; i++)
		if (inputs[i] && same_file(p, inputs[i]))
			return iolab_errf(err, EINVAL, "%s %s: is an input of this command; refusing to "
					  "write over it", o->option, p);
	struct stat st;
	if (stat(p, &st) == 0) {
		const char *kind = kind_of(st.st_mode);
		if (kind)
			return iolab_errf(err, EINVAL, "%s %s: is %s; iolab writes its output only to "
					  "regular files", o->option, p, kind);
		if (!force)
			return iolab_errf(err, EEXIST, "%s %s: exists; use --force to replace it",
					  o->option, p);
	} else if (errno != ENOENT) {
		return iolab_errf(err, errno, "%s %s: %s", o->option, p, strerror(errno));
	}
	char dir[PATH_MAX];
	dir_of(p, dir, sizeof(dir));
	if (access(dir, W_OK) != 0)
		return iolab_errf(err, errno, "%s %s: cannot write in %s: %s", o->option, p, dir,
				  strerror(errno));
	return 0;
}

int iolab_outputs_check(const struct iolab_output *outs, unsigned n, const char *const *inputs,
			unsigned ninputs, bool force, struct iolab_err *err)
{
	const struct iolab_output *on_stdout = NULL;
	for (unsigned i = 0; i < n; i++) {
		const struct iolab_output *o = &outs[i];
		if (!o->path)
			continue;
		if (iolab_out_is_stdout(o->path)) {
			if (on_stdout)
				return iolab_errf(err, EINVAL, "%s - and %s -: only one output can go to "
						  "standard output", on_stdout->option, o->option);
			on_stdout = o;
			continue;
		}
		int rc = check_one(o, inputs, ninputs, force, err);
		if (rc)
			return rc;
		for (unsigned j = 0; j < i; j++)
			if (outs[j].path && !iolab_out_is_stdout(outs[j].path) && same_file(outs[j].path, o->path))
				return iolab_errf(err, EINVAL, "%s and %s: both name %s", outs[j].option,
						  o->option, o->path);
	}
	return 0;
}

int iolab_out_open(struct iolab_out *o, const char *path, struct iolab_err *err)
{
	memset(o, 0, sizeof(*o));
	o->path = path;
	if (iolab_out_is_stdout(path)) {
		o->to_stdout = true;
		o->f = stdout;
		return 0;
	}
	char dir[PATH_MAX], copy[PATH_MAX];
	dir_of(path, dir, sizeof(dir));
	snprintf(copy, sizeof(copy), "%s", path);
	if ((size_t)snprintf(o->tmp, sizeof(o->tmp), "%s/.%s.iolab-XXXXXX", dir, basename(copy)) >=
	    sizeof(o->tmp))
		return iolab_errf(err, ENAMETOOLONG, "%s: path too long", path);
	int fd = mkstemp(o->tmp);
	if (fd < 0) {
		int e = errno;
		o->tmp[0] = 0;
		return iolab_errf(err, e, "%s: cannot create a file in %s: %s", path, dir, strerror(e));
	}
	mode_t mask = umask(0);
	umask(mask);
	fchmod(fd, 0666 & ~mask); /* as open(O_CREAT) would have made it, not mkstemp's 0600 */
	o->f = fdopen(fd, "w");
	if (!o->f) {
		int e = errno;
		close(fd);
		iolab_out_abort(o);
		return iolab_errf(err, e, "%s: %s", path, strerror(e));
	}
	return 0;
}

int iolab_out_commit(struct iolab_out *o, struct iolab_err *err)
{
	if (o->to_stdout) {
		errno = 0;
		if (!fflush(stdout) && !ferror(stdout))
			return 0;
		int e = errno ? errno : EIO;
		__fpurge(stdout); /* said here: what could not be written is dropped, not retried */
		clearerr(stdout);
		return iolab_errf(err, EIO, "standard output: write error: %s", strerror(e));
	}
	int e = 0;
	errno = 0;
	if (fflush(o->f) || ferror(o->f))
		e = errno ? errno : EIO;
	else if (fsync(fileno(o->f)))
		e = errno;
	if (fclose(o->f) && !e)
		e = errno ? errno : EIO;
	o->f = NULL;
	if (!e && rename(o->tmp, o->path))
		e = errno;
	if (e) {
		iolab_out_abort(o);
		return iolab_errf(err, e == ENOSPC ? ENOSPC : EIO, "%s: write error: %s (nothing written)",
				  o->path, strerror(e));
	}
	o->tmp[0] = 0;
	return 0;
}

void iolab_out_abort(struct iolab_out *o)
{
	if (o->f && !o->to_stdout)
		fclose(o->f);
	o->f = NULL;
	if (o->tmp[0])
		unlink(o->tmp);
	o->tmp[0] = 0;
}

int iolab_out_open_in_place(const char *option, const char *path, struct iolab_err *err)
{
	if (iolab_out_is_stdout(path))
		return iolab_errf(err, EINVAL, "%s -: is written while the run goes on; give a file",
				  option);
	/* O_NONBLOCK: a FIFO put there since the check does not hang the open */
	int fd = open(path, O_WRONLY | O_CREAT | O_TRUNC | O_CLOEXEC | O_NONBLOCK, 0666);
	if (fd < 0)
		return iolab_errf(err, errno, "%s %s: %s", option, path, strerror(errno));
	struct stat st;
	if (fstat(fd, &st) < 0 || !S_ISREG(st.st_mode)) {
		close(fd);
		return iolab_errf(err, EINVAL, "%s %s: is not a regular file", option, path);
	}
	char dir[PATH_MAX];
	dir_of(path, dir, sizeof(dir));
	int dfd = open(dir, O_RDONLY | O_DIRECTORY | O_CLOEXEC);
	if (dfd >= 0) { /* the new name survives a crash */
		fsync(dfd);
		close(dfd);
	}
	return fd;
}
