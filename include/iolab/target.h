/* target.h: opening what a run reads and writes (files and block devices), safely.
 *
 * The rules: reads are always allowed. Writing to an existing file that iolab did not create
 * (it marks its scratch files with the extended attribute user.iolab.scratch) or to any block
 * device needs `force`; a block device that is mounted or held by another user (md, LVM, a
 * mounted partition) is always refused for writes; one that carries a partition table or a file
 * system signature (libblkid) also needs `destroy_data`. A missing file is created as a scratch
 * file of `size` bytes and fully written, so reads reach the media and not holes.
 *
 * Every check is made on the descriptor that the run then reads and writes, never on the path
 * again: the type, device and inode with fstat, the scratch mark with fgetxattr, a device's
 * signatures with libblkid on that descriptor. A path swapped for another file or a symbolic
 * link between a check and the I/O (a race anyone who can write its directory could try) so
 * cannot get writes that its own checks would refuse. The path is looked at once before the
 * open, so that nothing but a regular file or a block device is ever opened (opening a
 * character device can act: opening /dev/watchdog starts the watchdog, the kernel's
 * Documentation/watchdog/watchdog-api.rst); the descriptor must then be that very
 * file (device and inode), or the target is refused. A path that was not itself a symbolic link
 * is opened with O_NOFOLLOW, and every open is O_NONBLOCK until the descriptor is known to be a
 * regular file or block device (a FIFO put in the path's place would block it). A scratch file is
 * created with O_CREAT | O_EXCL | O_NOFOLLOW and used through that descriptor to the end.
 *
 * `size` only creates or grows a scratch file: given for a block device, or smaller than an
 * existing file, it is refused (it would be silently ignored).
 */
#ifndef IOLAB_TARGET_H
#define IOLAB_TARGET_H

#include <limits.h>
#include <signal.h>
#include <stdbool.h>
#include <stdint.h>
#include <sys/types.h>

#include "iolab/error.h"

/* What opening a target tells its caller instead of printing (iolab_target_opts.tell). */
struct iolab_target_news {
	const char *path;
	const char *note;     /* once, a line for the person: a missing target is made a scratch
				 file of the default size; NULL when done and total count */
	uint64_t done, total; /* bytes of a scratch file written so far, of all: at every 1 % and
				 at the end */
};

struct iolab_target_opts {
	uint64_t size;     /* size of a scratch file to create or extend (0: 1 GiB if missing) */
	bool write;        /* the run writes */
	bool force;        /* writing to an existing file / block device is allowed */
	bool destroy_data; /* writing over a partition table or file system is allowed */
	bool direct;       /* open with O_DIRECT */
	const volatile sig_atomic_t *cancel; /* non-zero stops filling a scratch file (may be NULL) */
	void (*tell)(const struct iolab_target_news *news, void *ctx); /* may be NULL */
	void *tell_ctx;
};

struct iolab_target {
	char path[PATH_MAX];
	int fd;
	bool blockdev;
	bool created;      /* iolab created (or extended) it as a scratch file in this run */
	bool fresh;        /* the file did not exist before this run: discarding removes it */
	bool tmpfs;        /* lives in memory (tmpfs/ramfs): O_DIRECT is not direct there */
	bool direct;
	uint64_t size;     /* bytes */
	unsigned lbs;      /* logical block size: the alignment O_DIRECT needs */
	char stat_path[96]; /* sysfs block statistics of the device holding it, or "" */
	dev_t dev;         /* the file's device and inode (fstat of fd) */
	ino_t ino;
};

/* Opens (creating if need be) the target at path. A scratch file larger than the free space of
 * its file system is refused before anything is written. Returns 0, or -errno with one line in
 * err: -EINVAL/-EPERM/-EBUSY/-ENOSPC for refusals, the open/create error otherwise. */
int iolab_target_open(struct iolab_target *t, const char *path, const struct iolab_target_opts *o,
		      struct iolab_err *err);
void iolab_target_close(struct iolab_target *t);
/* Closes t and removes the file if this run created it (a refused or terminated run leaves no
 * scratch file behind), provided its path still names that file. */
void iolab_target_discard(struct iolab_target *t);

/* Drops the target's pages from the page cache, so that buffered reads next find it cold (as
 * fio's invalidate does before a job): dirty pages are written back first, then a block device
 * is flushed with BLKFLSBUF (falling back to POSIX_FADV_DONTNEED where that is not permitted)
 * and a file with POSIX_FADV_DONTNEED. Returns 0, or -errno with err naming the path and call. */
int iolab_target_invalidate(const struct iolab_target *t, struct iolab_err *err);

/* True if the block device (major:minor) or a partition of it is mounted; mnt gets the mount
 * point. */
bool iolab_blockdev_mounted(unsigned major, unsigned minor, char *mnt, unsigned mntsz);

/* Device counters from a sysfs stat file. */
struct iolab_diskstat {
	uint64_t ios;       /* reads + writes completed */
	uint64_t reads, writes;           /* completed, each way */
	uint64_t read_bytes, write_bytes; /* transferred, each way */
	uint64_t io_ticks;  /* ms the device had I/O in flight */
	uint64_t queue_ms;  /* weighted ms (sum of in-flight time) */
};
int iolab_diskstat_read(const char *stat_path, struct iolab_diskstat *d);

/* Bytes of memory available to the page cache (MemAvailable), or 0 if unknown. */
uint64_t iolab_mem_available(void);

#endif
