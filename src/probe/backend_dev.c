/* backend_dev.c: the probe's real drive (probe.h): a block device (never a file: its blocks lie
 * where its file system put them) opened with O_DIRECT through the target rules of target.h
 * (writes need force; a mounted or busy device is refused). One request is a pread or pwrite
 * timed with clock_gettime(CLOCK_MONOTONIC); several at once go through an io_uring and each
 * completion is stamped as it is reaped. */
#include <errno.h>
#include <liburing.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <time.h>
#include <unistd.h>

#include "iolab/probe.h"
#include "iolab/target.h"

#define DEV_QD 64
#define DEV_BUF (1u << 20) /* the largest request, bytes */

struct dev_priv {
	struct iolab_target t;
	void *buf;            /* DEV_QD buffers of DEV_BUF */
	struct io_uring ring;
	bool ring_ok;
};

static uint64_t mono_ns(void)
{
	struct timespec ts;
	clock_gettime(CLOCK_MONOTONIC, &ts);
	return (uint64_t)ts.tv_sec * 1000000000ull + (uint64_t)ts.tv_nsec;
}

static int check_io(const struct iolab_probe_backend *b, const struct iolab_probe_io *io,
		    struct iolab_err *err)
{
	if (!io->blocks || io->lbn >= b->blocks || io->blocks > b->blocks - io->lbn ||
	    (uint64_t)io->blocks * b->block_bytes > DEV_BUF)
		return iolab_errf(err, EINVAL, "%s: request at block %llu of %u blocks is outside the "
				  "device or too large", b->desc, (unsigned long long)io->lbn, io->blocks);
	if (io->write && !b->can_write)
		return iolab_errf(err, EPERM, "%s: writing needs --write --force", b->desc);
	return 0;
}

static int dev_one(struct iolab_probe_backend *b, struct iolab_probe_io *io, struct iolab_err *err)
{
	struct dev_priv *s = b->priv;
	size_t len = (size_t)io->blocks * b->block_bytes;
	off_t off = (off_t)(io->lbn * b->block_bytes);
	ssize_t got;
	do /* EINTR: interrupted before a byte moved; the request is still due */
		got = io->write ? pwrite(s->t.fd, s->buf, len, off) : pread(s->t.fd, s->buf, len, off);
	while (got < 0 && errno == EINTR);
	io->t_done = mono_ns();
	if (got < 0)
		return iolab_errf(err, errno, "%s: %s at byte %lld: %s", b->desc,
				  io->write ? "pwrite" : "pread", (long long)off, strerror(errno));
	if ((size_t)got != len)
		return iolab_errf(err, EIO, "%s: short %s at byte %lld", b->desc,
				  io->write ? "write" : "read", (long long)off);
	return 0;
}

static int dev_many(struct iolab_probe_backend *b, struct iolab_probe_io *ios, unsigned n,
		    struct iolab_err *err)
{
	struct dev_priv *s = b->priv;
	for (unsigned i = 0; i < n; i++) {
		struct io_uring_sqe *sqe = io_uring_get_sqe(&s->ring);
		char *buf = (char *)s->buf + (size_t)i * DEV_BUF;
		size_t len = (size_t)ios[i].blocks * b->block_bytes;
		off_t off = (off_t)(ios[i].lbn * b->block_bytes);
		if (ios[i].write)
			io_uring_prep_write(sqe, s->t.fd, buf, (unsigned)len, (uint64_t)off);
		else
			io_uring_prep_read(sqe, s->t.fd, buf, (unsigned)len, (uint64_t)off);
		io_uring_sqe_set_data(sqe, &ios[i]);
	}
	int rc = io_uring_submit(&s->ring);
	if (rc < 0)
		return iolab_errf(err, -rc, "%s: io_uring_submit: %s", b->desc, strerror(-rc));
	int bad = 0;
	for (unsigned done = 0; done < n; done++) {
		struct io_uring_cqe *cqe;
		do /* io_uring_enter is not restarted after a signal (signal(7)) */
			rc = io_uring_wait_cqe(&s->ring, &cqe);
		while (rc == -EINTR);
		if (rc < 0)
			return iolab_errf(err, -rc, "%s: io_uring_wait_cqe: %s", b->desc, strerror(-rc));
		struct iolab_probe_io *io = io_uring_cqe_get_data(cqe);
		io->t_done = mono_ns();
		if (cqe->res != (int)(io->blocks * b->block_bytes) && !bad)
			bad = cqe->res < 0 ? -cqe->res : EIO;
		io_uring_cqe_seen(&s->ring, cqe);
	}
	if (bad)
		return iolab_errf(err, bad, "%s: a request of a batch of %u failed: %s", b->desc, n,
				  strerror(bad));
	return 0;
}

static int dev_io(struct iolab_probe_backend *b, struct iolab_probe_io *ios, unsigned n,
		  struct iolab_err *err)
{
	struct dev_priv *s = b->priv;
	for (unsigned i = 0; i < n; i++) {
		int rc = check_io(b, &ios[i], err);
		if (rc)
			return rc;
	}
	if (n == 1 || !s->ring_ok) {
		for (unsigned i = 0; i < n; i++) {
			int rc = dev_one(b, &ios[i], err);
			if (rc)
				return rc;
		}
		return 0;
	}
	for (unsigned i = 0; i < n; i += DEV_QD) {
		int rc = dev_many(b, ios + i, n - i < DEV_QD ? n - i : DEV_QD, err);
		if (rc)
			return rc;
	}
	return 0;
}

static uint64_t dev_now(struct iolab_probe_backend *b)
{
	(void)b;
	return mono_ns();
}

static void dev_idle(struct iolab_probe_backend *b, uint64_t ns)
{
	(void)b;
	struct timespec ts = {.tv_sec = (time_t)(ns / 1000000000ull), .tv_nsec = (long)(ns % 1000000000ull)};
	while (nanosleep(&ts, &ts) && errno == EINTR)
		;
}

static void dev_close(struct iolab_probe_backend *b)
{
	struct dev_priv *s = b->priv;
	if (!s)
		return;
	if (s->ring_ok)
		io_uring_queue_exit(&s->ring);
	iolab_target_close(&s->t);
	free(s->buf);
	free(s);
	b->priv = NULL;
}

static const struct iolab_probe_backend_ops dev_ops = {
	.version = IOLAB_PROBE_BACKEND_VERSION,
	.name = "device",
	.io = dev_io,
	.now = dev_now,
	.idle = dev_idle,
	.close = dev_close,
};

int iolab_probe_backend_dev(struct iolab_probe_backend *b, const char *path, bool write,
			    bool force, struct iolab_err *err)
{
	struct stat st;
	if (stat(path, &st)) /* probing measures what is there: never a new scratch file */
		return iolab_errf(err, errno, "%s: %s", path, strerror(errno));
	/* A file's blocks lie where its file system put them, so the latencies of its offsets
	 * show no drive's geometry: a verdict on one would be about the file system. */
	if (!S_ISBLK(st.st_mode))
		return iolab_errf(err, EINVAL, "%s: is %s, not a block device: probe measures a drive "
				  "through its device (for a file, a loop device over it: losetup -f "
				  "--show FILE)", path, S_ISREG(st.st_mode) ? "a regular file"
				  : S_ISDIR(st.st_mode) ? "a directory" : "a special file");
	struct dev_priv *s = calloc(1, sizeof(*s));
	if (!s)
		return iolab_errf(err, ENOMEM, "%s: out of memory", path);
	struct iolab_target_opts o = {.write = write, .force = force, .direct = true};
	int rc = iolab_target_open(&s->t, path, &o, err);
	if (rc) {
		free(s);
		return rc;
	}
	if (s->t.created) { /* removed between stat and open */
		iolab_target_discard(&s->t);
		free(s);
		return iolab_errf(err, ENOENT, "%s: no such device or file", path);
	}
	unsigned lbs = s->t.lbs ? s->t.lbs : 512;
	if (posix_memalign(&s->buf, 4096, (size_t)DEV_QD * DEV_BUF)) {
		iolab_target_close(&s->t);
		free(s);
		return iolab_errf(err, ENOMEM, "%s: out of memory for the buffers", path);
	}
	memset(s->buf, 0, (size_t)DEV_QD * DEV_BUF);
	s->ring_ok = io_uring_queue_init(DEV_QD, &s->ring, 0) == 0;
	*b = (struct iolab_probe_backend){.ops = &dev_ops, .blocks = s->t.size / lbs,
					  .block_bytes = lbs, .can_write = write,
					  .jitter_ns = 1000, .priv = s};
	snprintf(b->desc, sizeof(b->desc), "%s", path);
	if (b->blocks < 4096) {
		unsigned long long nb = (unsigned long long)b->blocks;
		dev_close(b);
		return iolab_errf(err, EINVAL, "%s: %llu blocks is too small to probe", path, nb);
	}
	return 0;
}
