/* engine_io_uring.c: asynchronous I/O through io_uring (liburing). One ring per worker, sized
 * to the queue depth, with the targets' descriptors and the worker's buffers registered once so
 * each I/O is a fixed-file, fixed-buffer read or write. Where the kernel refuses registration
 * (memory lock limits), plain reads and writes are used instead.
 *
 * I/Os that complete during submission (buffered reads served from the page cache complete
 * inline) are counted where that can be seen without an extra system call: when completions
 * are already waiting, reap() submits without waiting for more, and the completions that appear
 * during that call are inline ones (with DEFER_TASKRUN the others are only posted when the
 * thread asks for completions). Submissions folded into a wait are not counted. */
#include <errno.h>
#include <liburing.h>
#include <stdlib.h>
#include <string.h>
#include <sys/uio.h>

#include "iolab/engine.h"
#include "iolab/workload.h"

struct uring_state {
	struct io_uring ring;
	const int *fds;
	bool fixed_files, fixed_bufs;
};

static int uring_init(struct iolab_engine *e, const struct iolab_engine_params *p, struct iolab_err *err)
{
	struct uring_state *s = calloc(1, sizeof(*s));
	if (!s)
		return iolab_errf(err, ENOMEM, "io_uring: out of memory");
	/* The ring is used by its creating thread only, so completion work can wait until the
	 * thread asks for completions (DEFER_TASKRUN, Linux 6.1); older kernels get less. */
	static const unsigned try_flags[] = {
		IORING_SETUP_SINGLE_ISSUER | IORING_SETUP_DEFER_TASKRUN,
		IORING_SETUP_COOP_TASKRUN,
		0,
	};
	int rc = -EINVAL;
	for (unsigned i = 0; i < 3 && rc == -EINVAL; i++) {
		struct io_uring_params up = {.flags = try_flags[i]};
		rc = io_uring_queue_init_params(p->qd, &s->ring, &up);
	}
	if (rc < 0) {
		free(s);
		return iolab_errf(err, -rc, "io_uring: cannot set up a ring of %u entries: %s", p->qd,
				  strerror(-rc));
	}
	s->fds = p->fds;
	s->fixed_files = io_uring_register_files(&s->ring, p->fds, p->nfds) == 0;
	struct iovec *iov = calloc(p->qd, sizeof(*iov));
	if (iov) {
		for (unsigned i = 0; i < p->qd; i++)
			iov[i] = (struct iovec){.iov_base = p->bufs[i], .iov_len = p->buf_size};
		s->fixed_bufs = io_uring_register_buffers(&s->ring, iov, p->qd) == 0;
		free(iov);
	}
	e->priv = s;
	return 0;
}

static void prep(struct uring_state *s, struct io_uring_sqe *sqe, struct iolab_io *io)
{
	int fd = s->fixed_files ? io->target : s->fds[io->target];
	bool rd = io->op == IOLAB_OP_READ;
	if (s->fixed_bufs) {
		if (rd)
			io_uring_prep_read_fixed(sqe, fd, io->buf, io->len, io->off, (int)io->slot);
		else
			io_uring_prep_write_fixed(sqe, fd, io->buf, io->len, io->off, (int)io->slot);
	} else if (rd) {
		io_uring_prep_read(sqe, fd, io->buf, io->len, io->off);
	} else {
		io_uring_prep_write(sqe, fd, io->buf, io->len, io->off);
	}
	if (s->fixed_files)
		sqe->flags |= IOSQE_FIXED_FILE;
	io_uring_sqe_set_data(sqe, io);
}

/* Queues the I/Os in the submission ring; the kernel gets them with the next reap, in the
 * same system call that waits for completions (one io_uring_enter per loop of the worker). */
static int uring_submit(struct iolab_engine *e, struct iolab_io *const *ios, unsigned n)
{
	struct uring_state *s = e->priv;
	for (unsigned i = 0; i < n; i++) {
		struct io_uring_sqe *sqe = io_uring_get_sqe(&s->ring);
		if (!sqe) /* cannot happen: the ring holds qd entries */
			return i ? (int)i : -EBUSY;
		prep(s, sqe, ios[i]);
	}
	return (int)n;
}

static unsigned take_cqes(struct uring_state *s, struct iolab_io **done, unsigned got, unsigned max)
{
	struct io_uring_cqe *cqe;
	unsigned head, seen = 0;
	io_uring_for_each_cqe(&s->ring, head, cqe) {
		if (got == max)
			break;
		struct iolab_io *io = io_uring_cqe_get_data(cqe);
		io->res = cqe->res;
		done[got++] = io;
		seen++;
	}
	io_uring_cq_advance(&s->ring, seen);
	return got;
}

static int uring_reap(struct iolab_engine *e, unsigned min, struct iolab_io **done, unsigned max)
{
	struct uring_state *s = e->priv;
	unsigned got = take_cqes(s, done, 0, max);
	if (!min && !got && !io_uring_sq_ready(&s->ring)) {
		/* A poll: completions whose work the kernel deferred (DEFER_TASKRUN) are posted
		 * only when the thread enters it. */
		io_uring_get_events(&s->ring);
		return (int)take_cqes(s, done, 0, max);
	}
	while (got < min || io_uring_sq_ready(&s->ring)) {
		/* Submits what is queued (EAGAIN/EBUSY/EINTR leave it queued for the next call)
		 * and, if still short of min, waits. */
		unsigned wait = got < min ? min - got : 0, before = io_uring_cq_ready(&s->ring);
		int rc = io_uring_submit_and_wait(&s->ring, wait);
		if (rc < 0 && rc != -EINTR && rc != -EAGAIN && rc != -EBUSY && rc != -ETIME)
			return got ? (int)got : rc;
		if (!wait && rc > 0) { /* a submission alone: what completed, completed inline */
			unsigned now = io_uring_cq_ready(&s->ring), grew = now > before ? now - before : 0;
			e->sub_seen += (unsigned)rc;
			e->sub_done += grew < (unsigned)rc ? grew : (unsigned)rc;
		}
		got = take_cqes(s, done, got, max);
		if (got >= min)
			break;
	}
	return (int)got;
}

static void uring_cleanup(struct iolab_engine *e)
{
	struct uring_state *s = e->priv;
	if (s) {
		io_uring_queue_exit(&s->ring);
		free(s);
	}
	e->priv = NULL;
}

const struct iolab_engine_ops iolab_engine_io_uring = {
	.name = "io_uring",
	.version = IOLAB_ENGINE_OPS_VERSION,
	.about = "asynchronous, io_uring with registered files and buffers",
	.init = uring_init,
	.submit = uring_submit,
	.reap = uring_reap,
	.cleanup = uring_cleanup,
};
