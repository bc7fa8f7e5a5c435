/* target.c: opening files and block devices for a run, with the safety rules of target.h checked
 * on the descriptor the run uses, scratch-file creation, and the facts a result needs about
 * where the I/O went (tmpfs, the device's sysfs counters, the O_DIRECT alignment). */
#include <blkid.h>
#include <dirent.h>
#include <errno.h>
#include <fcntl.h>
#include <inttypes.h>
#include <linux/fs.h>
#include <linux/magic.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/ioctl.h>
#include <sys/stat.h>
#include <sys/statfs.h>
#include <sys/statvfs.h>
#include <sys/sysmacros.h>
#include <sys/xattr.h>
#include <unistd.h>

#include "iolab/parse.h"
#include "iolab/prng.h"
#include "iolab/target.h"

#define SCRATCH_XATTR "user.iolab.scratch"
#define SCRATCH_DEFAULT_BYTES (1ull << 30) /* a missing target without --size */

static bool is_scratch(int fd)
{
	char v[8];
	return fgetxattr(fd, SCRATCH_XATTR, v, sizeof(v)) > 0;
}

/* Tells o's caller what it should know (tell.note) or how far writing path got. */
static void tell(const struct iolab_target_opts *o, const char *path, const char *note, uint64_t done,
		 uint64_t total)
{
	if (o->tell)
		o->tell(&(struct iolab_target_news){.path = path, .note = note, .done = done,
						    .total = total}, o->tell_ctx);
}

/* Writes pseudo-random data from byte `from` up to `to`, then syncs and drops it from the page
 * cache, so that later reads find allocated, written blocks on the media. */
static int fill(int fd, const char *path, uint64_t from, uint64_t to, const struct iolab_target_opts *o,
		struct iolab_err *err)
{
	const size_t chunk = 1 << 20;
	uint64_t *buf = malloc(chunk);
	if (!buf)
		return iolab_errf(err, ENOMEM, "%s: out of memory", path);
	struct iolab_prng r;
	iolab_prng_seed(&r, 42);
	for (size_t i = 0; i < chunk / 8; i++)
		buf[i] = iolab_prng_next(&r);
	int last_pct = -1;
	for (uint64_t off = from; off < to;) {
		if (o->cancel && *o->cancel) {
			free(buf);
			return iolab_errf(err, EINTR, "%s: interrupted while creating the scratch file", path);
		}
		size_t n = to - off < chunk ? (size_t)(to - off) : chunk;
		ssize_t w = pwrite(fd, buf, n, (off_t)off);
		if (w < 0 && errno == EINTR)
			continue;
		if (w <= 0) {
			int e = w < 0 ? errno : EIO;
			free(buf);
			return iolab_errf(err, e, "%s: writing the scratch file at byte %" PRIu64 ": %s%s",
					  path, off, strerror(e), e == ENOSPC ? " (no space left)" : "");
		}
		off += (uint64_t)w;
		int pct = (int)(100 * (off - from) / (to - from));
		if (pct != last_pct) {
			tell(o, path, NULL, off - from, to - from);
			last_pct = pct;
		}
	}
	free(buf);
	if (fdatasync(fd) < 0)
		return iolab_errf(err, errno, "%s: fdatasync: %s", path, strerror(errno));
	posix_fadvise(fd, 0, 0, POSIX_FADV_DONTNEED);
	return 0;
}

static void set_stat_path(struct iolab_target *t, dev_t dev)
{
	snprintf(t->stat_path, sizeof(t->stat_path), "/sys/dev/block/%u:%u/stat", major(dev), minor(dev));
	if (access(t->stat_path, R_OK) != 0)
		t->stat_path[0] = 0;
}

bool iolab_blockdev_mounted(unsigned maj, unsigned min, char *mnt, unsigned mntsz)
{
	/* The device itself and its partitions (sysfs lists them as subdirectories with "dev"). */
	unsigned devs[65][2] = {{maj, min}};
	unsigned ndev = 1;
	char dir[96];
	snprintf(dir, sizeof(dir), "/sys/dev/block/%u:%u", maj, min);
	DIR *d = opendir(dir);
	if (d) {
		struct dirent *de;
		while ((de = readdir(d)) && ndev < 65) {
			char p[384];
			snprintf(p, sizeof(p), "%s/%s/dev", dir, de->d_name);
			FILE *f = fopen(p, "r");
			if (!f)
				continue;
			if (fscanf(f, "%u:%u", &devs[ndev][0], &devs[ndev][1]) == 2)
				ndev++;
			fclose(f);
		}
		closedir(d);
	}
	FILE *f = fopen("/proc/self/mountinfo", "r");
	if (!f)
		return false;
	char line[4096];
	bool found = false;
	while (!found && fgets(line, sizeof(line), f)) {
		unsigned a, b;
		char point[2048];
		if (sscanf(line, "%*u %*u %u:%u %*s %2047s", &a, &b, point) != 3)
			continue;
		for (unsigned i = 0; i < ndev; i++)
			if (devs[i][0] == a && devs[i][1] == b) {
				snprintf(mnt, mntsz, "%s", point);
				found = true;
			}
	}
	fclose(f);
	return found;
}

/* Refuses writes to the block device open at fd (path, rdev) that is mounted, or that carries
 * data without destroy_data: libblkid probes that very descriptor. */
static int blockdev_write_checks(int fd, const char *path, dev_t rdev,
				 const struct iolab_target_opts *o, struct iolab_err *err)
{
	char mnt[256];
	if (iolab_blockdev_mounted(major(rdev), minor(rdev), mnt, sizeof(mnt)))
		return iolab_errf(err, EBUSY, "%s: is mounted (at %s); iolab never writes to a mounted device",
				  path, mnt);
	if (o->destroy_data)
		return 0;
	blkid_probe pr = blkid_new_probe();
	if (!pr || blkid_probe_set_device(pr, fd, 0, 0)) {
		int e = errno ? errno : EIO;
		if (pr)
			blkid_free_probe(pr);
		return iolab_errf(err, EACCES, "%s: cannot probe for data (libblkid): %s", path,
				  strerror(e));
	}
	blkid_probe_enable_superblocks(pr, 1);
	blkid_probe_enable_partitions(pr, 1);
	int rc = blkid_do_safeprobe(pr);
	char what[128] = "a signature";
	const char *v;
	if (!blkid_probe_lookup_value(pr, "TYPE", &v, NULL))
		snprintf(what, sizeof(what), "a '%s' file system", v);
	else if (!blkid_probe_lookup_value(pr, "PTTYPE", &v, NULL))
		snprintf(what, sizeof(what), "a '%s' partition table", v);
	blkid_free_probe(pr); /* a descriptor given by blkid_probe_set_device stays open */
	if (rc == 0 || rc == -2)
		return iolab_errf(err, EPERM,
				  "%s: holds %s; writing over it needs --destroy-data as well as --force",
				  path, what);
	return 0;
}

/* Refuses to grow the file at path (now have bytes) to want bytes when its file system has not
 * the room: filling it would fill the file system instead of measuring anything. */
static int check_room(const char *path, uint64_t have, uint64_t want, struct iolab_err *err)
{
	char dir[PATH_MAX];
	snprintf(dir, sizeof(dir), "%s", path);
	char *slash = strrchr(dir, '/');
	if (!slash)
		snprintf(dir, sizeof(dir), ".");
	else
		slash[slash == dir] = 0;
	struct statvfs sv;
	if (statvfs(dir, &sv) < 0)
		return 0; /* cannot tell: the write itself reports ENOSPC */
	uint64_t room = (uint64_t)sv.f_bavail * sv.f_frsize;
	char w[32], r[32];
	if (want - have > room)
		return iolab_errf(err, ENOSPC, "%s: --size %s does not fit: its file system has %s free",
				  path, iolab_fmt_size(want, w, sizeof(w)), iolab_fmt_size(room, r, sizeof(r)));
	return 0;
}

static unsigned dio_align(int fd)
{
#ifdef STATX_DIOALIGN
	struct statx sx;
	if (statx(fd, "", AT_EMPTY_PATH, STATX_DIOALIGN, &sx) == 0 && (sx.stx_mask & STATX_DIOALIGN) &&
	    sx.stx_dio_offset_align)
		return sx.stx_dio_offset_align;
#endif
	(void)fd;
	return 512;
}

static int open_err(const char *path, const char *what, int e, struct iolab_err *err)
{
	if (e == EINVAL && strstr(what, "O_DIRECT"))
		return iolab_errf(err, e, "%s: the file system does not support O_DIRECT (use --buffered)", path);
	return iolab_errf(err, e, "%s: %s: %s", path, what, strerror(e));
}

/* Opens path, which stat() found to be *st (a regular file or a block device), and makes sure
 * the descriptor is that very file: the same device, inode, type (and device number), in *fst.
 * O_NOFOLLOW unless path itself was a symbolic link (link), O_NONBLOCK until the descriptor is
 * checked (a FIFO put in the path's place would block the open; the caller's final_flags() clears
 * it). Returns the descriptor, or -errno with err said (EBUSY: the caller says it better). */
static int open_same(const char *path, int flags, const struct stat *st, bool link,
		     struct stat *fst, struct iolab_err *err)
{
	int fd = open(path, flags | O_CLOEXEC | O_NONBLOCK | (link ? 0 : O_NOFOLLOW));
	if (fd < 0) {
		int e = errno;
		if (e == ELOOP && !link)
			return iolab_errf(err, e, "%s: became a symbolic link while being opened; not "
					  "used", path);
		return open_err(path, "open", e, err);
	}
	if (fstat(fd, fst) < 0 || fst->st_dev != st->st_dev || fst->st_ino != st->st_ino ||
	    (fst->st_mode & S_IFMT) != (st->st_mode & S_IFMT) || fst->st_rdev != st->st_rdev) {
		close(fd);
		return iolab_errf(err, EAGAIN, "%s: another file took its place while it was being "
				  "opened; not used", path);
	}
	return fd;
}

/* The descriptor's flags for the run: blocking, and O_DIRECT if direct (set here, after the
 * checks and the filling, which read and write through the page cache). */
static int final_flags(int fd, const char *path, bool direct, struct iolab_err *err)
{
	int fl = fcntl(fd, F_GETFL);
	if (fl < 0 || fcntl(fd, F_SETFL, (fl & ~O_NONBLOCK) | (direct ? O_DIRECT : 0)) < 0)
		return open_err(path, direct ? "open (O_DIRECT)" : "fcntl", errno, err);
	return 0;
}

/* Fails the open of t with rc: closes it, and removes a scratch file it created. */
static int fail_open(struct iolab_target *t, int rc)
{
	iolab_target_discard(t);
	return rc;
}

/* The facts of the regular file open at t->fd (fst its fstat), size bytes long, after final
 * flags. */
static int finish_file(struct iolab_target *t, const struct stat *fst, uint64_t size, bool direct,
		       struct iolab_err *err)
{
	int rc = final_flags(t->fd, t->path, direct, err);
	if (rc)
		return fail_open(t, rc);
	t->size = size;
	t->lbs = dio_align(t->fd);
	struct statfs sf;
	if (fstatfs(t->fd, &sf) == 0)
		t->tmpfs = sf.f_type == TMPFS_MAGIC || sf.f_type == RAMFS_MAGIC;
	set_stat_path(t, fst->st_dev);
	return 0;
}

/* A missing path: a scratch file, created (never through a link: O_EXCL | O_NOFOLLOW), marked,
 * filled and used through the one descriptor. */
static int create_scratch(struct iolab_target *t, const char *path, const struct iolab_target_opts *o,
			  struct iolab_err *err)
{
	/* A missing /dev/... is a mistyped device, never a file to make. */
	if (!o->size && !strncmp(path, "/dev/", 5))
		return iolab_errf(err, ENOENT, "%s: no such device (give --size to create a "
				  "scratch file there)", path);
	uint64_t size = o->size ? o->size : SCRATCH_DEFAULT_BYTES;
	if (!o->size)
		tell(o, path, "does not exist: creating a scratch file of 1 GiB (--size chooses its size)",
		     0, 0);
	int rc = check_room(path, 0, size, err);
	if (rc)
		return rc;
	int fd = open(path, O_RDWR | O_CREAT | O_EXCL | O_NOFOLLOW | O_CLOEXEC, 0644);
	if (fd < 0)
		return open_err(path, "create", errno, err);
	struct stat fst;
	t->fd = fd;
	t->created = t->fresh = true;
	if (fstat(fd, &fst) < 0)
		return fail_open(t, open_err(path, "fstat", errno, err));
	t->dev = fst.st_dev;
	t->ino = fst.st_ino;
	fsetxattr(fd, SCRATCH_XATTR, "1", 1, 0); /* best effort: without it, --force next time */
	if ((rc = fill(fd, path, 0, size, o, err)))
		return fail_open(t, rc);
	return finish_file(t, &fst, size, o->direct, err);
}

static int open_blockdev(struct iolab_target *t, const char *path, const struct stat *st, bool link,
			 const struct iolab_target_opts *o, struct iolab_err *err)
{
	t->blockdev = true;
	char sz[32];
	if (o->size)
		return iolab_errf(err, EINVAL, "%s: is a block device: --size %s makes a scratch file, "
				  "and a device has its own size (--length SIZE uses part of it)", path,
				  iolab_fmt_size(o->size, sz, sizeof(sz)));
	if (o->write && !o->force)
		return iolab_errf(err, EPERM,
				  "%s: is a block device; writing to it destroys its data and needs --force",
				  path);
	struct stat fst;
	int fd = open_same(path, o->write ? O_RDWR | O_EXCL : O_RDONLY, st, link, &fst, err);
	if (fd == -EBUSY) { /* O_EXCL: a mount, md, LVM or another program holds it */
		char mnt[256];
		if (iolab_blockdev_mounted(major(st->st_rdev), minor(st->st_rdev), mnt, sizeof(mnt)))
			return iolab_errf(err, EBUSY, "%s: is mounted (at %s); iolab never writes to a "
					  "mounted device", path, mnt);
		return iolab_errf(err, EBUSY, "%s: is in use (mounted, or held by md/LVM/another "
				  "program); refusing to write", path);
	}
	if (fd < 0)
		return fd;
	t->fd = fd;
	t->dev = fst.st_dev;
	t->ino = fst.st_ino;
	int rc = o->write ? blockdev_write_checks(fd, path, fst.st_rdev, o, err) : 0;
	if (!rc)
		rc = final_flags(fd, path, o->direct, err);
	if (rc)
		return fail_open(t, rc);
	int lbs = 512;
	ioctl(fd, BLKSSZGET, &lbs);
	t->lbs = (unsigned)lbs;
	if (ioctl(fd, BLKGETSIZE64, &t->size) < 0)
		return fail_open(t, open_err(path, "BLKGETSIZE64", errno, err));
	set_stat_path(t, fst.st_rdev);
	return 0;
}

/* Grows iolab's scratch file open at fd (have bytes) to want bytes, through a descriptor that
 * may write: fd itself, or the same file opened again through /proc/self/fd (never the path). */
static int grow_scratch(int fd, const char *path, uint64_t have, uint64_t want, bool writable,
			const struct iolab_target_opts *o, struct iolab_err *err)
{
	int rc = check_room(path, have, want, err);
	if (rc)
		return rc;
	int wfd = fd;
	if (!writable) {
		char self[64];
		snprintf(self, sizeof(self), "/proc/self/fd/%d", fd);
		if ((wfd = open(self, O_RDWR | O_CLOEXEC)) < 0)
			return open_err(path, "open for growing", errno, err);
	}
	rc = fill(wfd, path, have, want, o, err);
	if (wfd != fd)
		close(wfd);
	return rc;
}

static int open_file(struct iolab_target *t, const char *path, const struct stat *st, bool link,
		     const struct iolab_target_opts *o, struct iolab_err *err)
{
	struct stat fst;
	int fd = open_same(path, o->write ? O_RDWR : O_RDONLY, st, link, &fst, err);
	if (fd < 0)
		return fd;
	t->fd = fd;
	t->dev = fst.st_dev;
	t->ino = fst.st_ino;
	bool ours = is_scratch(fd);
	if (o->write && !ours && !o->force)
		return fail_open(t, iolab_errf(err, EPERM, "%s: exists and was not created by iolab; "
					       "writing to it needs --force", path));
	uint64_t size = (uint64_t)fst.st_size;
	char sz[32], have[32];
	if (o->size && o->size < size)
		return fail_open(t, iolab_errf(err, EINVAL, "%s: exists and is %s, larger than --size "
					       "%s: --size only creates or grows a scratch file (--length "
					       "SIZE uses part of it)", path,
					       iolab_fmt_size(size, have, sizeof(have)),
					       iolab_fmt_size(o->size, sz, sizeof(sz))));
	if (o->size > size) {
		if (!ours)
			return fail_open(t, iolab_errf(err, EINVAL, "%s: is %s, smaller than --size %s, "
						       "and iolab did not create it: it is never grown",
						       path, iolab_fmt_size(size, have, sizeof(have)),
						       iolab_fmt_size(o->size, sz, sizeof(sz))));
		int rc = grow_scratch(fd, path, size, o->size, o->write, o, err);
		if (rc)
			return fail_open(t, rc);
		t->created = true;
		size = o->size;
	}
	return finish_file(t, &fst, size, o->direct, err);
}

int iolab_target_open(struct iolab_target *t, const char *path, const struct iolab_target_opts *o,
		      struct iolab_err *err)
{
	memset(t, 0, sizeof(*t));
	t->fd = -1;
	if (strlen(path) >= sizeof(t->path))
		return iolab_errf(err, ENAMETOOLONG, "%s: path too long", path);
	snprintf(t->path, sizeof(t->path), "%s", path);
	t->direct = o->direct;
	struct stat st, lst;
	if (stat(path, &st) < 0) {
		if (errno != ENOENT)
			return open_err(path, "stat", errno, err);
		return create_scratch(t, path, o, err);
	}
	bool link = lstat(path, &lst) == 0 && S_ISLNK(lst.st_mode);
	if (S_ISBLK(st.st_mode))
		return open_blockdev(t, path, &st, link, o, err);
	if (S_ISREG(st.st_mode))
		return open_file(t, path, &st, link, o, err);
	return iolab_errf(err, EINVAL, "%s: is neither a regular file nor a block device", path);
}

int iolab_target_invalidate(const struct iolab_target *t, struct iolab_err *err)
{
	if (t->fd < 0)
		return 0;
	if (t->blockdev && ioctl(t->fd, BLKFLSBUF, 0) == 0)
		return 0; /* written back and dropped */
	if (t->blockdev && errno != EPERM && errno != EACCES && errno != ENOTTY)
		return iolab_errf(err, errno, "%s: BLKFLSBUF: %s", t->path, strerror(errno));
	if (fdatasync(t->fd) < 0 && errno != EINVAL) /* EINVAL: nothing to sync on this file */
		return iolab_errf(err, errno, "%s: fdatasync: %s", t->path, strerror(errno));
	int rc = posix_fadvise(t->fd, 0, 0, POSIX_FADV_DONTNEED); /* returns the error itself */
	if (rc)
		return iolab_errf(err, rc, "%s: posix_fadvise(DONTNEED): %s", t->path, strerror(rc));
	return 0;
}

void iolab_target_close(struct iolab_target *t)
{
	if (t->fd >= 0)
		close(t->fd);
	t->fd = -1;
}

void iolab_target_discard(struct iolab_target *t)
{
	struct stat st;
	if (t->fresh && lstat(t->path, &st) == 0 && st.st_dev == t->dev && st.st_ino == t->ino)
		unlink(t->path); /* the path still names the file this run made */
	t->fresh = false;
	iolab_target_close(t);
}

int iolab_diskstat_read(const char *stat_path, struct iolab_diskstat *d)
{
	FILE *f = fopen(stat_path, "r");
	if (!f)
		return -errno;
	uint64_t v[11] = {0};
	int n = fscanf(f, "%" SCNu64 " %" SCNu64 " %" SCNu64 " %" SCNu64 " %" SCNu64 " %" SCNu64
			  " %" SCNu64 " %" SCNu64 " %" SCNu64 " %" SCNu64 " %" SCNu64,
		       &v[0], &v[1], &v[2], &v[3], &v[4], &v[5], &v[6], &v[7], &v[8], &v[9], &v[10]);
	fclose(f);
	if (n != 11)
		return -EINVAL;
	d->ios = v[0] + v[4];
	d->reads = v[0];
	d->writes = v[4];
	d->read_bytes = v[2] * 512; /* the stat file counts 512-byte sectors whatever the device's */
	d->write_bytes = v[6] * 512;
	d->io_ticks = v[9];
	d->queue_ms = v[10];
	return 0;
}

uint64_t iolab_mem_available(void)
{
	FILE *f = fopen("/proc/meminfo", "r");
	if (!f)
		return 0;
	char line[256];
	uint64_t kb = 0;
	while (fgets(line, sizeof(line), f))
		if (sscanf(line, "MemAvailable: %" SCNu64, &kb) == 1)
			break;
	fclose(f);
	return kb * 1024;
}
