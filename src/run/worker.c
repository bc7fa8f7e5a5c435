/* worker.c: one worker thread of a point, the closed loop that keeps `qd` I/Os in flight.
 *
 * The loop: fill every free slot with the generator's next request, stamp the batch with one
 * clock read and submit it; wait for a completion (every engine that can keep several I/Os in
 * flight, the null engine and the simulator included, is reaped one completion at a time so each
 * is replaced at once; a synchronous engine in whole batches); stamp the reaped batch with one
 * clock read and account each I/O. An I/O counts when it was submitted after the ramp and
 * completed before the end of the measured time; I/Os in flight at the end are drained and
 * dropped. This is the hot path: no allocation, no locks, one clock read per batch each way.
 */
#include <errno.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mman.h>

#include "iolab/clock.h"
#include "run_internal.h"

#define NS_PER_S 1000000000ull

/* The engine's clock: simulated for virtual-time engines, else the wall clock. */
static inline uint64_t now_of(struct iolab_engine *e)
{
	return e->ops->now ? e->ops->now(e) : iolab_clock_ns();
}

static int grow_series(struct worker *w)
{
	unsigned cap = w->sec_cap ? w->sec_cap * 2 : 16;
	uint64_t *a = realloc(w->sec_ios, cap * sizeof(*a));
	if (!a)
		return -ENOMEM;
	w->sec_ios = a;
	uint64_t *b = realloc(w->sec_bytes, cap * sizeof(*b));
	if (!b)
		return -ENOMEM;
	w->sec_bytes = b;
	memset(w->sec_ios + w->sec_cap, 0, (cap - w->sec_cap) * sizeof(*a));
	memset(w->sec_bytes + w->sec_cap, 0, (cap - w->sec_cap) * sizeof(*b));
	w->sec_cap = cap;
	return 0;
}

struct loop_state {
	struct iolab_engine eng;
	struct iolab_gen gen;
	struct iolab_io *slots;
	void *arena;  /* the qd buffers, one block */
	void **bufs;
	struct iolab_io **freel, **batch, **done;
};

static void free_state(struct worker *w, struct loop_state *s)
{
	if (s->eng.ops && s->eng.ops->breakdown)
		s->eng.ops->breakdown(&s->eng, &w->bd);
	if (s->eng.ops && s->eng.ops->components)
		w->ncomp = s->eng.ops->components(&s->eng, w->comp, IOLAB_COMP_MAX);
	w->sub_seen = s->eng.sub_seen;
	w->sub_done = s->eng.sub_done;
	if (s->eng.ops && s->eng.ops->cleanup)
		s->eng.ops->cleanup(&s->eng);
	free(s->arena);
	free(s->bufs);
	free(s->slots);
	free(s->freel);
	free(s->batch);
	free(s->done);
}

static int setup(struct worker *w, struct loop_state *s)
{
	struct point_ctl *c = w->ctl;
	unsigned qd = c->qd;
	int rc = iolab_gen_init(&s->gen, c->spec, c->dist, c->regions, c->nregions, w->index,
				c->nworkers, c->seed, &w->err);
	if (rc)
		return rc;
	size_t bsz = (iolab_spec_max_size(c->spec) + 4095) & ~(size_t)4095;
	s->slots = calloc(qd, sizeof(*s->slots));
	s->bufs = calloc(qd, sizeof(*s->bufs));
	s->freel = calloc(qd, sizeof(*s->freel));
	s->batch = calloc(qd, sizeof(*s->batch));
	s->done = calloc(qd, sizeof(*s->done));
	if (!s->slots || !s->bufs || !s->freel || !s->batch || !s->done)
		return iolab_errf(&w->err, ENOMEM, "worker %u: out of memory", w->index + 1);
	/* One block for all buffers: one allocation instead of qd (at 4096 x 4 KiB a worker's setup
	 * was mostly the allocator's), in huge pages where it is large enough, so that touching it
	 * takes one page fault per 2 MiB rather than per 4 KiB. */
	size_t total = (size_t)qd * bsz, huge = 2u << 20;
	if (posix_memalign(&s->arena, total >= huge ? huge : 4096, total))
		return iolab_errf(&w->err, ENOMEM, "worker %u: out of memory for buffers", w->index + 1);
	if (total >= huge)
		madvise(s->arena, total - total % huge, MADV_HUGEPAGE); /* a hint: failure is harmless */
	bool writes = iolab_spec_writes(c->spec);
	for (unsigned i = 0; i < qd; i++) {
		s->bufs[i] = (char *)s->arena + (size_t)i * bsz;
		if (writes) { /* non-zero, non-repeating data: writes are not compressed or deduplicated */
			struct iolab_prng r;
			iolab_prng_seed(&r, c->seed + i);
			for (size_t j = 0; j < bsz / 8; j++)
				((uint64_t *)s->bufs[i])[j] = iolab_prng_next(&r);
		} else { /* reads overwrite it: only fault the pages in before the clock starts */
			memset(s->bufs[i], 0, bsz);
		}
		s->slots[i].slot = i;
		s->slots[i].buf = s->bufs[i];
		s->freel[i] = &s->slots[i];
	}
	struct iolab_engine_params p = {
		.fds = c->fds, .nfds = c->nfds, .qd = qd, .bufs = s->bufs, .buf_size = bsz,
		.config = c->engine_config, .host = c->host, .volume = c->volume,
		.subsys = c->subsys,
	};
	s->eng.ops = c->engine;
	rc = c->engine->init(&s->eng, &p, &w->err);
	if (rc)
		s->eng.ops = NULL;
	if (!rc && c->time_ns && w->sec_cap < c->time_ns / NS_PER_S + 2)
		while (w->sec_cap < c->time_ns / NS_PER_S + 2)
			if ((rc = grow_series(w)))
				return iolab_errf(&w->err, ENOMEM, "out of memory");
	return rc;
}

static void note_error(struct worker *w, int res)
{
	struct point_ctl *c = w->ctl;
	int e = res < 0 ? -res : EIO; /* a short transfer counts as EIO */
	int zero = 0;
	atomic_compare_exchange_strong(&c->first_error, &zero, e);
	if (!c->on_error_continue)
		atomic_store(&c->stop, true);
}

static void run_loop(struct worker *w, struct loop_state *s)
{
	struct point_ctl *c = w->ctl;
	const struct iolab_engine_ops *ops = c->engine;
	unsigned qd = c->qd, nfree = qd, inflight = 0;
	/* An asynchronous engine gets a new I/O for each completion at once, so the device's
	 * queue never drains by a batch (measured: batching 32 cost about 7% on a fast device).
	 * The null engine is reaped the same way, so that it measures the loop the real engines
	 * run (reaped in batches of qd, its QD 32 figure was 4.6 times the one-at-a-time figure,
	 * 69 M against 15 M I/Os per second on the machine of docs/benchmarks.md); only a
	 * synchronous engine, whose I/Os are finished when submit returns, gives whole batches. */
	unsigned reap_max = ops->flags & IOLAB_ENGINE_SYNC ? qd : 1;
	uint64_t t0 = ops->now ? now_of(&s->eng) : c->t0, mstart = t0 + c->ramp_ns;
	uint64_t end = c->time_ns ? mstart + c->time_ns : UINT64_MAX;
	uint64_t budget = c->bytes_per_worker ? c->bytes_per_worker : UINT64_MAX;
	uint64_t next_sec = mstart + NS_PER_S, completions = 0;
	unsigned sec = 0;
	bool stopping = false;
	uint64_t t_stop = 0; /* when the loop decided to stop: the end of the measured time */

	for (;;) {
		unsigned n = 0;
		while (!stopping && nfree) {
			struct iolab_io *io = s->freel[--nfree];
			struct iolab_req r;
			iolab_gen_next(&s->gen, &r);
			io->off = r.off;
			io->len = r.len;
			io->op = r.op;
			io->target = r.target;
			s->batch[n++] = io;
		}
		if (n) {
			uint64_t now = now_of(&s->eng);
			for (unsigned i = 0; i < n; i++)
				s->batch[i]->t_submit = now;
			int rc = ops->submit(&s->eng, s->batch, n);
			unsigned started = rc > 0 ? (unsigned)rc : 0;
			for (unsigned i = started; i < n; i++) /* not started: slots come back */
				s->freel[nfree++] = s->batch[i];
			inflight += started;
			if (rc < 0) {
				note_error(w, rc);
				stopping = true;
			}
		}
		if (!inflight)
			break;
		int got = ops->reap(&s->eng, 1, s->done, reap_max);
		uint64_t now = now_of(&s->eng);
		if (got < 0) {
			note_error(w, got);
			break; /* the engine is broken: in-flight slots are abandoned with it */
		}
		for (int i = 0; i < got; i++) {
			struct iolab_io *io = s->done[i];
			s->freel[nfree++] = io;
			if (io->res != (int32_t)io->len) {
				w->dir[io->op].errors++;
				note_error(w, io->res);
				continue;
			}
			if (io->t_submit < mstart || now > end)
				continue;
			struct iolab_dir_result *d = &w->dir[io->op];
			d->ios++;
			d->bytes += io->len;
			iolab_hist_add(&d->lat, now - io->t_submit);
			while (now >= next_sec) {
				next_sec += NS_PER_S;
				if (++sec >= w->sec_cap && grow_series(w))
					sec--; /* keep counting into the last second on ENOMEM */
			}
			w->sec_ios[sec]++;
			w->sec_bytes[sec] += io->len;
		}
		inflight -= (unsigned)got;
		completions += (unsigned)got;
		atomic_store_explicit(&w->progress, completions, memory_order_relaxed);
		if (!t_stop && (stopping || now >= end || w->dir[0].bytes + w->dir[1].bytes >= budget ||
				atomic_load_explicit(&c->stop, memory_order_relaxed))) {
			stopping = true;
			t_stop = now < end ? now : end;
		}
	}
	if (!t_stop) /* left on an engine failure */
		t_stop = now_of(&s->eng);
	w->span_ns = t_stop > mstart ? t_stop - mstart : 0;
	w->nsec = sec + 1;
}

void *iolab_worker_main(void *arg)
{
	struct worker *w = arg;
	struct loop_state s = {0};
	iolab_hist_reset(&w->dir[0].lat);
	iolab_hist_reset(&w->dir[1].lat);
	if (!w->sec_cap && grow_series(w))
		w->rc = iolab_errf(&w->err, ENOMEM, "out of memory");
	if (!w->rc)
		w->rc = setup(w, &s);
	struct point_ctl *c = w->ctl;
	pthread_mutex_lock(&c->lock);
	c->ready++;
	pthread_cond_broadcast(&c->cond);
	while (!c->go)
		pthread_cond_wait(&c->cond, &c->lock);
	pthread_mutex_unlock(&c->lock);
	if (!w->rc && !atomic_load(&w->ctl->stop))
		run_loop(w, &s);
	free_state(w, &s);
	atomic_store(&w->finished, true);
	return NULL;
}
