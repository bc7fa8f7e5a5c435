/* outfile.c: the one place that decides whether iolab may write a path (the rules are in
 * include/iolab/outfile.h), the process's register of the files it reads and the outputs it has
 * claimed, and writing a whole output atomically. */
#include <errno.h>
#include <fcntl.h>
#include <libgen.h>
#include <pthread.h>
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

/* ---- the register: the files this process reads, and the outputs it has claimed ---- */

enum role { ROLE_INPUT, ROLE_OUTPUT };

struct known {
	unsigned role, kind;  /* kind: an output's enum iolab_out_kind */
	bool exists;          /* when noted: then dev and ino tell the file */
	dev_t dev;
	ino_t ino;
	char *canon;          /* its canonical path */
	char *option;         /* an output: the option that claimed it */
};

static struct {
	pthread_mutex_t lock;
	struct known *v;
	size_t n, cap;
} reg = {.lock = PTHREAD_MUTEX_INITIALIZER};

/* One file as the register compares it. */
struct ident {
	bool exists;
	int error;       /* why stat failed */
	struct stat st;
	char canon[PATH_MAX];
};

static void ident_of(const char *path, struct ident *id)
{
	id->exists = stat(path, &id->st) == 0;
	id->error = id->exists ? 0 : errno;
	canonical(path, id->canon, sizeof(id->canon));
}

/* One file: the same inode, or the same canonical path (a file still to be created, or one
 * replaced since it was noted, as an output renamed into place). */
static bool same(const struct known *k, const struct ident *id)
{
	if (k->exists && id->exists && k->dev == id->st.st_dev && k->ino == id->st.st_ino)
		return true;
	return !strcmp(k->canon, id->canon);
}

/* Adds a file to the register (the lock held). Out of memory: not noted. */
static void reg_add(unsigned role, const struct ident *id, const char *option, unsigned kind)
{
	if (reg.n == reg.cap) {
		size_t cap = reg.cap ? 2 * reg.cap : 16;
		struct known *v = realloc(reg.v, cap * sizeof(*v));
		if (!v)
			return;
		reg.v = v;
		reg.cap = cap;
	}
	struct known *k = &reg.v[reg.n];
	*k = (struct known){.role = role, .kind = kind, .exists = id->exists,
			    .dev = id->st.st_dev, .ino = id->st.st_ino, .canon = strdup(id->canon),
			    .option = option ? strdup(option) : NULL};
	if (k->canon && (!option || k->option))
		reg.n++;
	else {
		free(k->canon);
		free(k->option);
	}
}

/* The first entry of the register that is the file id with the given role (the lock held). */
static const struct known *reg_find(unsigned role, const struct ident *id)
{
	for (size_t i = 0; i < reg.n; i++)
		if (reg.v[i].role == role && same(&reg.v[i], id))
			return &reg.v[i];
	return NULL;
}

void iolab_input_note(const char *path)
{
	if (!path || !*path || iolab_out_is_stdout(path))
		return;
	struct ident id;
	ident_of(path, &id);
	pthread_mutex_lock(&reg.lock);
	if (!reg_find(ROLE_INPUT, &id))
		reg_add(ROLE_INPUT, &id, NULL, 0);
	pthread_mutex_unlock(&reg.lock);
}

/* ---- the rules ---- */

/* True if the regular file at path starts as a SQLite database does. */
static bool is_sqlite(const char *path)
{
	static const char magic[16] = "SQLite format 3";
	char head[16];
	int fd = open(path, O_RDONLY | O_NONBLOCK | O_CLOEXEC);
	if (fd < 0)
		return false;
	bool yes = read(fd, head, sizeof(head)) == (ssize_t)sizeof(head) && !memcmp(head, magic, 16);
	close(fd);
	return yes;
}

/* What the file system says of the path: a kind that is never written, an existing file a
 * whole output may replace only with force, a directory that cannot be written in. */
static int check_path(const struct iolab_output *o, const struct ident *id, bool force,
		      struct iolab_err *err)
{
	const char *p = o->path;
	if (id->exists) {
		const char *kind = kind_of(id->st.st_mode);
		if (kind)
			return iolab_errf(err, EINVAL, "%s %s: is %s; iolab writes its output only to "
					  "regular files", o->option, p, kind);
		if (o->kind == IOLAB_OUT_ADD)
			return 0;
		if (is_sqlite(p))
			return iolab_errf(err, EINVAL, "%s %s: holds a SQLite database (a results store?); "
					  "iolab does not replace one with its output", o->option, p);
		if (!force)
			return iolab_errf(err, EEXIST, "%s %s: exists; use --force to replace it",
					  o->option, p);
	} else if (id->error != ENOENT) {
		return iolab_errf(err, id->error, "%s %s: %s", o->option, p, strerror(id->error));
	} else if (o->kind == IOLAB_OUT_ADD) {
		return 0; /* the store makes its directory; its own errors say what fails */
	}
	char dir[PATH_MAX];
	dir_of(p, dir, sizeof(dir));
	if (access(dir, W_OK) != 0)
		return iolab_errf(err, errno, "%s %s: cannot write in %s: %s", o->option, p, dir,
				  strerror(errno));
	return 0;
}

/* Checks one output against the register and the file system, and claims it (the lock held). */
static int check_one(const struct iolab_output *o, bool force, struct iolab_err *err)
{
	if (!*o->path)
		return iolab_errf(err, EINVAL, "%s: needs a file name ('-' for standard output)", o->option);
	struct ident id;
	ident_of(o->path, &id);
	if (reg_find(ROLE_INPUT, &id))
		return iolab_errf(err, EINVAL, "%s %s: is an input of this command; refusing to write "
				  "over it", o->option, o->path);
	for (size_t i = 0; i < reg.n; i++) {
		const struct known *k = &reg.v[i];
		if (k->role != ROLE_OUTPUT || !same(k, &id))
			continue;
		if (!strcmp(k->option, o->option) && k->kind == o->kind)
			return 0; /* claimed already by this option */
		return iolab_errf(err, EINVAL, "%s and %s: both name %s", k->option, o->option, o->path);
	}
	int rc = check_path(o, &id, force, err);
	if (!rc)
		reg_add(ROLE_OUTPUT, &id, o->option, o->kind);
	return rc;
}

int iolab_outputs_check(const struct iolab_output *outs, unsigned n, const char *const *inputs,
			unsigned ninputs, bool force, struct iolab_err *err)
{
	for (unsigned i = 0; i < ninputs; i++)
		if (inputs[i])
			iolab_input_note(inputs[i]);
	const struct iolab_output *on_stdout = NULL;
	int rc = 0;
	pthread_mutex_lock(&reg.lock);
	for (unsigned i = 0; i < n && !rc; i++) {
		const struct iolab_output *o = &outs[i];
		if (!o->path)
			continue;
		if (!iolab_out_is_stdout(o->path))
			rc = check_one(o, force, err);
		else if (on_stdout)
			rc = iolab_errf(err, EINVAL, "%s - and %s -: only one output can go to standard "
					"output", on_stdout->option, o->option);
		else
			on_stdout = o;
	}
	pthread_mutex_unlock(&reg.lock);
	return rc;
}

/* ---- temporary files still to be renamed, for a signal handler ---- */

#define PENDING_MAX 32
static char *volatile pending[PENDING_MAX];

static void pending_add(char *tmp)
{
	for (unsigned i = 0; i < PENDING_MAX; i++) {
		char *none = NULL;
		if (__atomic_compare_exchange_n(&pending[i], &none, tmp, false, __ATOMIC_SEQ_CST,
						__ATOMIC_SEQ_CST))
			return;
	}
}

static void pending_drop(const char *tmp)
{
	for (unsigned i = 0; i < PENDING_MAX; i++)
		if (pending[i] == tmp)
			__atomic_store_n(&pending[i], NULL, __ATOMIC_SEQ_CST);
}

void iolab_out_remove_pending(void)
{
	for (unsigned i = 0; i < PENDING_MAX; i++) {
		char *t = __atomic_load_n(&pending[i], __ATOMIC_SEQ_CST);
		if (t)
			unlink(t);
	}
}

/* ---- writing an output ---- */

/* Checks that path, to be replaced, is claimed as such; if no check claimed it, checks it now
 * (without --force) under option. */
static int claimed(const char *option, const char *path, struct iolab_err *err)
{
	struct ident id;
	ident_of(path, &id);
	pthread_mutex_lock(&reg.lock);
	const struct known *claim = reg_find(ROLE_OUTPUT, &id);
	const struct iolab_output self = {claim ? claim->option : option, path, IOLAB_OUT_REPLACE};
	int rc = claim && claim->kind == IOLAB_OUT_REPLACE ? 0 : check_one(&self, false, err);
	pthread_mutex_unlock(&reg.lock);
	return rc;
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
	int rc = claimed("output", path, err);
	if (rc)
		return rc;
	char dir[PATH_MAX], copy[PATH_MAX];
	canonical(path, o->dest, sizeof(o->dest));
	dir_of(o->dest, dir, sizeof(dir));
	snprintf(copy, sizeof(copy), "%s", o->dest);
	if ((size_t)snprintf(o->tmp, sizeof(o->tmp), "%s/.%s.iolab-XXXXXX", dir, basename(copy)) >=
	    sizeof(o->tmp))
		return iolab_errf(err, ENAMETOOLONG, "%s: path too long", path);
	int fd = mkstemp(o->tmp);
	if (fd < 0) {
		int e = errno;
		o->tmp[0] = 0;
		return iolab_errf(err, e, "%s: cannot create a file in %s: %s", path, dir, strerror(e));
	}
	pending_add(o->tmp);
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

/* Standard output: flushed; what could not be written is dropped, not retried. */
static int flush_stdout(struct iolab_err *err)
{
	errno = 0;
	if (!fflush(stdout) && !ferror(stdout))
		return 0;
	int e = errno ? errno : EIO;
	__fpurge(stdout);
	clearerr(stdout);
	return iolab_errf(err, EIO, "standard output: write error: %s", strerror(e));
}

/* Writes out and syncs the temporary file, and closes it. */
static int finish(struct iolab_out *o, struct iolab_err *err)
{
	int e = 0;
	errno = 0;
	if (fflush(o->f) || ferror(o->f))
		e = errno ? errno : EIO;
	else if (fsync(fileno(o->f)))
		e = errno;
	if (fclose(o->f) && !e)
		e = errno ? errno : EIO;
	o->f = NULL;
	if (!e)
		return 0;
	iolab_out_abort(o);
	return iolab_errf(err, e == ENOSPC ? ENOSPC : EIO, "%s: write error: %s (nothing written)",
			  o->path, strerror(e));
}

/* Renames the finished temporary file over the path, if the path is still a regular file (or
 * missing) and no input: a device node put there meanwhile is never replaced. */
static int place(struct iolab_out *o, struct iolab_err *err)
{
	struct ident id;
	ident_of(o->dest, &id);
	const char *kind = id.exists ? kind_of(id.st.st_mode) : NULL;
	pthread_mutex_lock(&reg.lock);
	bool input = reg_find(ROLE_INPUT, &id) != NULL;
	pthread_mutex_unlock(&reg.lock);
	int rc = 0;
	if (kind || input)
		rc = iolab_errf(err, EINVAL, "%s: is %s now; nothing written", o->path,
				kind ? kind : "an input of this command");
	else if (rename(o->tmp, o->dest))
		rc = iolab_errf(err, errno, "%s: cannot put the output in place: %s (nothing written)",
				o->path, strerror(errno));
	if (rc) {
		iolab_out_abort(o);
		return rc;
	}
	pending_drop(o->tmp);
	o->tmp[0] = 0;
	return 0;
}

int iolab_out_commit(struct iolab_out *o, struct iolab_err *err)
{
	if (o->to_stdout)
		return flush_stdout(err);
	int rc = finish(o, err);
	return rc ? rc : place(o, err);
}

int iolab_outs_commit(struct iolab_out *const *o, unsigned n, struct iolab_err *err)
{
	int rc = 0;
	for (unsigned i = 0; i < n && !rc; i++)
		rc = o[i]->to_stdout ? flush_stdout(err) : finish(o[i], err);
	for (unsigned i = 0; i < n && !rc; i++)
		if (!o[i]->to_stdout)
			rc = place(o[i], err);
	for (unsigned i = 0; i < n; i++)
		if (rc)
			iolab_out_abort(o[i]);
	return rc;
}

void iolab_out_abort(struct iolab_out *o)
{
	if (o->f && !o->to_stdout)
		fclose(o->f);
	o->f = NULL;
	if (o->tmp[0]) {
		pending_drop(o->tmp);
		unlink(o->tmp);
	}
	o->tmp[0] = 0;
}

int iolab_out_open_in_place(const char *option, const char *path, struct iolab_err *err)
{
	if (iolab_out_is_stdout(path))
		return iolab_errf(err, EINVAL, "%s -: is written while the run goes on; give a file",
				  option);
	int rc = claimed(option, path, err);
	if (rc)
		return rc;
	/* no O_TRUNC: only a regular file is emptied; O_NONBLOCK: a FIFO put there since the check
	 * does not hang the open */
	int fd = open(path, O_WRONLY | O_CREAT | O_CLOEXEC | O_NONBLOCK, 0666);
	if (fd < 0)
		return iolab_errf(err, errno, "%s %s: %s", option, path, strerror(errno));
	struct stat st;
	if (fstat(fd, &st) < 0 || !S_ISREG(st.st_mode) || ftruncate(fd, 0) < 0) {
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
