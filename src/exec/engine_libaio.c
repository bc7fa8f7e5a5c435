/* engine_libaio.c: Linux native asynchronous I/O (io_submit / io_getevents through libaio).
 * Truly asynchronous only with O_DIRECT; buffered libaio runs synchronously inside io_submit. */
#include <errno.h>
#include <libaio.h>
#include <stdlib.h>
#include <string.h>

#include "iolab/engine.h"
#include "iolab/workload.h"

struct aio_state {
	io_context_t ctx;
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
	e->priv = s;
	return 0;
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
	unsigned done = 0;
	while (done < n) {
		int rc = io_submit(s->ctx, (long)(n - done), s->batch + done);
		if (rc == -EINTR)
			continue;
		if (rc <= 0)
			return done ? (int)done : rc ? rc : -EAGAIN;
		done += (unsigned)rc;
	}
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
