/* engine_psync.c: synchronous pread/pwrite. Each I/O runs to completion inside submit(), so a
 * worker has one I/O in flight whatever --qd says (the run reports the depth reached). An I/O
 * interrupted before it moved a byte (EINTR) is issued again; one that moved fewer bytes than
 * asked is reported as it is (res), and the worker counts it as a short transfer. */
#include <errno.h>
#include <stdlib.h>
#include <unistd.h>

#include "iolab/engine.h"
#include "iolab/workload.h"

struct psync_state {
	const int *fds;
	unsigned count, cap;
	struct iolab_io *done[];
};

static int psync_init(struct iolab_engine *e, const struct iolab_engine_params *p, struct iolab_err *err)
{
	struct psync_state *s = calloc(1, sizeof(*s) + p->qd * sizeof(s->done[0]));
	if (!s)
		return iolab_errf(err, ENOMEM, "psync engine: out of memory");
	s->fds = p->fds;
	s->cap = p->qd;
	e->priv = s;
	return 0;
}

static int psync_submit(struct iolab_engine *e, struct iolab_io *const *ios, unsigned n)
{
	struct psync_state *s = e->priv;
	for (unsigned i = 0; i < n; i++) {
		struct iolab_io *io = ios[i];
		int fd = s->fds[io->target];
		ssize_t r;
		do /* EINTR: a signal came before any byte moved (a slow file); the I/O is still due */
			r = io->op == IOLAB_OP_READ ? pread(fd, io->buf, io->len, (off_t)io->off)
						    : pwrite(fd, io->buf, io->len, (off_t)io->off);
		while (r < 0 && errno == EINTR);
		io->res = r < 0 ? -errno : (int32_t)r; /* a short transfer is the worker's to count */
		s->done[s->count++] = io;
	}
	e->sub_seen += n; /* synchronous: complete when submit returns */
	e->sub_done += n;
	return (int)n;
}

static int psync_reap(struct iolab_engine *e, unsigned min, struct iolab_io **done, unsigned max)
{
	struct psync_state *s = e->priv;
	(void)min;
	unsigned n = s->count < max ? s->count : max;
	for (unsigned i = 0; i < n; i++)
		done[i] = s->done[--s->count];
	return (int)n;
}

static void psync_cleanup(struct iolab_engine *e)
{
	free(e->priv);
	e->priv = NULL;
}

const struct iolab_engine_ops iolab_engine_psync = {
	.name = "psync",
	.version = IOLAB_ENGINE_OPS_VERSION,
	.about = "pread/pwrite, one I/O at a time per worker",
	.flags = IOLAB_ENGINE_SYNC,
	.init = psync_init,
	.submit = psync_submit,
	.reap = psync_reap,
	.cleanup = psync_cleanup,
};
