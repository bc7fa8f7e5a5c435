/* engine_libaio.c: Linux native asynchronous I/O (io_submit / io_getevents through libaio).
 * Truly asynchronous only with O_DIRECT; buffered libaio runs synchronously inside io_submit.
 * Which of the two happened is measured, not assumed: the completion ring the kernel shares
 * with the process is read (without a system call) just before and just after io_submit, and
 * the events that appeared meanwhile are I/Os that completed during submission. */
#include <errno.h>
#include <libaio.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "iolab/engine.h"
#include "iolab/workload.h"

/* The head of the completion ring that io_setup maps into the process (struct aio_ring in the
 * kernel's fs/aio.c; libaio's io_getevents reads it the same way): events ready = tail - head. */
struct aio_ring_head {
	unsigned id, nr, head, tail, magic, compat_features, incompat_features, header_length;
};
#define AIO_RING_MAGIC 0xa10a10a1u

struct aio_state {
	io_context_t ctx;
	bool ring_readable;     /* the ring has the expected header: completions can be counted */
	const int *fds;
	unsigned qd;
	struct iocb *iocb;      /* one per slot */
	struct iocb **batch;    /* submit list */
	struct io_event *events;
};

static void aio_free(struct aio_state *s)
{
	free(s->iocb);
	free(s->batch);
	free(s->events);
	free(s);
}

static int aio_init(struct iolab_engine *e, const struct iolab_engine_params *p, struct iolab_err *err)
{
	struct aio_state *s = calloc(1, sizeof(*s));
	if (!s)
		return iolab_errf(err, ENOMEM, "libaio: out of memory");
	s->fds = p->fds;
	s->qd = p->qd;
	s->iocb = calloc(p->qd, sizeof(*s->iocb));
	s->batch = calloc(p->qd, sizeof(*s->batch));
	s->events = calloc(p->qd, sizeof(*s->events));
	if (!s->iocb || !s->batch || !s->events) {
		aio_free(s);
		return iolab_errf(err, ENOMEM, "libaio: out of memory");
	}
	int rc = io_setup((int)p->qd, &s->ctx);
	if (rc < 0) {
		aio_free(s);
		return iolab_errf(err, -rc, "libaio: io_setup(%u) failed: %s (see /proc/sys/fs/aio-max-nr)",
				  p->qd, strerror(-rc));
	}
	const struct aio_ring_head *r = (const void *)s->ctx;
	s->ring_readable = r->magic == AIO_RING_MAGIC && r->nr;
	e->priv = s;
	return 0;
}

/* Reads one number from a /proc file; false if it cannot. */
static bool read_proc_u64(const char *path, uint64_t *v)
{
	FILE *f = fopen(path, "re");
	if (!f)
		return false;
	unsigned long long n;
	bool ok = fscanf(f, "%llu", &n) == 1;
	fclose(f);
	*v = n;
	return ok;
}

bool iolab_libaio_budget(uint64_t *max_nr, uint64_t *in_use)
{
	return read_proc_u64("/proc/sys/fs/aio-max-nr", max_nr) &&
	       read_proc_u64("/proc/sys/fs/aio-nr", in_use);
}

static unsigned events_ready(const struct aio_state *s)
{
	const struct aio_ring_head *r = (const void *)s->ctx;
	unsigned head = __atomic_load_n(&r->head, __ATOMIC_ACQUIRE);
	unsigned tail = __atomic_load_n(&r->tail, __ATOMIC_ACQUIRE);
	return tail >= head ? tail - head : tail + r->nr - head;
}

static int aio_submit(struct iolab_engine *e, struct iolab_io *const *ios, unsigned n)
{
	struct aio_state *s = e->priv;
	for (unsigned i = 0; i < n; i++) {
		struct iolab_io *io = ios[i];
		struct iocb *cb = &s->iocb[io->slot];
		int fd = s->fds[io->target];
		if (io->op == IOLAB_OP_READ)
			io_prep_pread(cb, fd, io->buf, io->len, (long long)io->off);
		else
			io_prep_pwrite(cb, fd, io->buf, io->len, (long long)io->off);
		cb->data = io;
		s->batch[i] = cb;
	}
	/* Only this thread takes events off the ring, so it only grows during io_submit. */
	unsigned done = 0, before = s->ring_readable ? events_ready(s) : 0;
	int rc = 0;
	while (done < n) {
		rc = io_submit(s->ctx, (long)(n - done), s->batch + done);
		if (rc == -EINTR)
			continue;
		if (rc <= 0)
			break;
		done += (unsigned)rc;
	}
	if (s->ring_readable && done) {
		unsigned now = events_ready(s), grew = now > before ? now - before : 0;
		e->sub_seen += done;
		e->sub_done += grew < done ? grew : done;
	}
	if (done < n)
		return done ? (int)done : rc ? rc : -EAGAIN;
	return (int)n;
}

static int aio_reap(struct iolab_engine *e, unsigned min, struct iolab_io **done, unsigned max)
{
	struct aio_state *s = e->priv;
	if (max > s->qd)
		max = s->qd;
	int rc;
	do
		rc = io_getevents(s->ctx, (long)min, (long)max, s->events, NULL);
	while (rc == -EINTR);
	if (rc < 0)
		return rc;
	for (int i = 0; i < rc; i++) {
		struct iolab_io *io = s->events[i].data;
		long res = (long)s->events[i].res;
		io->res = (int32_t)res;
		done[i] = io;
	}
	return rc;
}

static void aio_cleanup(struct iolab_engine *e)
{
	struct aio_state *s = e->priv;
	if (s) {
		io_destroy(s->ctx);
		aio_free(s);
	}
	e->priv = NULL;
}

const struct iolab_engine_ops iolab_engine_libaio = {
	.name = "libaio",
	.version = IOLAB_ENGINE_OPS_VERSION,
	.about = "Linux native AIO (asynchronous with --direct)",
	.init = aio_init,
	.submit = aio_submit,
	.reap = aio_reap,
	.cleanup = aio_cleanup,
};
