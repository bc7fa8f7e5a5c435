/* simdisk_fuse.c: a simulated drive as a file, in real time, for tests of the block-device path
 * of `iolab probe` (tests/test_probe_device.c). It mounts a FUSE file system holding one
 * read-only file, `disk`, of the model's capacity; each read is served by the drive model
 * (disk_sim.h) at the moment it arrives and answered when the model completes it, so a loop
 * device over the file has the model's seeks, rotation, zones and cache, seen through the
 * kernel's real block layer, FUSE and scheduler noise. The data is zeros. One request at a time
 * (FUSE single-threaded), so the drive sees queue depth 1.
 *
 *   simdisk_fuse MODEL MOUNTPOINT     (stays in the foreground until unmounted or signalled)
 */
#define FUSE_USE_VERSION 31
#include <errno.h>
#include <fuse.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/prctl.h>
#include <sys/stat.h>
#include <time.h>

#include "iolab/disk_model.h"
#include "iolab/disk_sim.h"
#include "iolab/error.h"

static struct iolab_disk_model model;
static struct iolab_disk *drive;
static uint64_t bytes;
static struct timespec t0;
static uint64_t last_ns; /* the model's arrivals must not go back in time */

static uint64_t since_start(void)
{
	struct timespec t;
	clock_gettime(CLOCK_MONOTONIC, &t);
	return (uint64_t)(t.tv_sec - t0.tv_sec) * 1000000000u + (uint64_t)t.tv_nsec -
	       (uint64_t)t0.tv_nsec;
}

/* Sleeps to within SPIN_NS of `ns`, then spins: a wake-up from sleep is late by tens of us,
 * which would add noise the drive does not have. */
#define SPIN_NS 200000u
static void sleep_until(uint64_t ns)
{
	if (ns > SPIN_NS) {
		uint64_t wake = ns - SPIN_NS;
		struct timespec at = {.tv_sec = t0.tv_sec + (time_t)(wake / 1000000000u),
				      .tv_nsec = t0.tv_nsec + (long)(wake % 1000000000u)};
		if (at.tv_nsec >= 1000000000) {
			at.tv_sec++;
			at.tv_nsec -= 1000000000;
		}
		while (clock_nanosleep(CLOCK_MONOTONIC, TIMER_ABSTIME, &at, NULL) == EINTR)
			;
	}
	while (since_start() < ns)
		;
}

static int fs_getattr(const char *path, struct stat *st, struct fuse_file_info *fi)
{
	(void)fi;
	memset(st, 0, sizeof(*st));
	if (!strcmp(path, "/")) {
		st->st_mode = S_IFDIR | 0755;
		st->st_nlink = 2;
		return 0;
	}
	if (strcmp(path, "/disk"))
		return -ENOENT;
	st->st_mode = S_IFREG | 0444;
	st->st_nlink = 1;
	st->st_size = (off_t)bytes;
	return 0;
}

static int fs_readdir(const char *path, void *buf, fuse_fill_dir_t fill, off_t off,
		      struct fuse_file_info *fi, enum fuse_readdir_flags flags)
{
	(void)off;
	(void)fi;
	(void)flags;
	if (strcmp(path, "/"))
		return -ENOENT;
	fill(buf, ".", NULL, 0, 0);
	fill(buf, "..", NULL, 0, 0);
	fill(buf, "disk", NULL, 0, 0);
	return 0;
}

static int fs_open(const char *path, struct fuse_file_info *fi)
{
	if (strcmp(path, "/disk"))
		return -ENOENT;
	if ((fi->flags & O_ACCMODE) != O_RDONLY)
		return -EROFS;
	fi->direct_io = 1; /* no page cache: every read reaches the drive */
	return 0;
}

static int fs_read(const char *path, char *buf, size_t size, off_t off, struct fuse_file_info *fi)
{
	(void)path;
	(void)fi;
	if ((uint64_t)off >= bytes)
		return 0;
	if (size > bytes - (uint64_t)off)
		size = (size_t)(bytes - (uint64_t)off);
	uint64_t bb = model.block_bytes;
	uint64_t first = (uint64_t)off / bb, last = ((uint64_t)off + size + bb - 1) / bb;
	uint64_t now = since_start();
	if (now < last_ns)
		now = last_ns;
	struct iolab_disk_req r = {.lbn = first, .blocks = (uint32_t)(last - first), .t_arrive = now};
	if (iolab_disk_submit(drive, &r) || iolab_disk_next(drive) != &r)
		return -EIO;
	last_ns = r.t_done;
	sleep_until(r.t_done);
	memset(buf, 0, size);
	return (int)size;
}

static const struct fuse_operations ops = {
	.getattr = fs_getattr,
	.readdir = fs_readdir,
	.open = fs_open,
	.read = fs_read,
};

int main(int argc, char **argv)
{
	if (argc != 3) {
		fprintf(stderr, "usage: simdisk_fuse MODEL MOUNTPOINT\n");
		return 2;
	}
	struct iolab_err err = {{0}};
	if (iolab_model_open(argv[1], &model, &err)) {
		fprintf(stderr, "simdisk_fuse: %s\n", err.msg);
		return 2;
	}
	bytes = model.blocks * model.block_bytes;
	drive = iolab_disk_new(&model);
	if (!drive)
		return 1;
	prctl(PR_SET_TIMERSLACK, 1UL); /* wake as close to the time asked as the kernel can */
	clock_gettime(CLOCK_MONOTONIC, &t0);
	char *fargv[] = {argv[0], "-f", "-s", "-o", "ro,default_permissions", argv[2], NULL};
	int rc = fuse_main(6, fargv, &ops, NULL);
	iolab_disk_free(drive);
	iolab_model_free(&model);
	return rc;
}
