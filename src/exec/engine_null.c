/* engine_null.c: an engine that does no I/O. Every request completes at once with its full
 * length, so a run measures iolab's own per-I/O cost (generation, bookkeeping, statistics). */
#include <errno.h>
#include <stdlib.h>

#include "iolab/engine.h"

struct null_state {
	unsigned head, count, cap;
	struct iolab_io *done[];
};

static int null_init(struct iolab_engine *e, const struct iolab_engine_params *p, struct iolab_err *err)
{
	struct null_state *s = calloc(1, sizeof(*s) + p->qd * sizeof(s->done[0]));
	if (!s)
		return iolab_errf(err, ENOMEM, "null engine: out of memory");
	s->cap = p->qd;
	e->priv = s;
	return 0;
}

static int null_submit(struct iolab_engine *e, struct iolab_io *const *ios, unsigned n)
{
	struct null_state *s = e->priv;
	for (unsigned i = 0; i < n; i++) {
		ios[i]->res = (int32_t)ios[i]->len;
		unsigned at = s->head + s->count++;
		s->done[at >= s->cap ? at - s->cap : at] = ios[i];
	}
	e->sub_seen += n; /* every I/O is complete when submit returns */
	e->sub_done += n;
	return (int)n;
}

static int null_reap(struct iolab_engine *e, unsigned min, struct iolab_io **done, unsigned max)
{
	struct null_state *s = e->priv;
	(void)min;
	unsigned n = s->count < max ? s->count : max;
	for (unsigned i = 0; i < n; i++) {
		done[i] = s->done[s->head];
		if (++s->head == s->cap)
			s->head = 0;
	}
	s->count -= n;
	return (int)n;
}

static void null_cleanup(struct iolab_engine *e)
{
	free(e->priv);
	e->priv = NULL;
}

const struct iolab_engine_ops iolab_engine_null = {
	.name = "null",
	.version = IOLAB_ENGINE_OPS_VERSION,
	.about = "no I/O: measures iolab's own overhead",
	.flags = IOLAB_ENGINE_NO_IO,
	.init = null_init,
	.submit = null_submit,
	.reap = null_reap,
	.cleanup = null_cleanup,
};
