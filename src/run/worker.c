/* worker.c: one worker thread of a point, the loop that keeps its requests in flight.
 *
 * The loop: fill every free slot whose request is due (pacing.h: at once for --qd, when a client
 * has thought, when an open loop's arrival has come) with the generator's next request, stamp
 * the batch with one clock read and submit it; wait for a completion (every engine that can keep
 * several I/Os in flight, the null engine and the simulator included, is reaped one completion at
 * a time so each is replaced at once; a synchronous engine in whole batches); stamp the reaped
 * batch with one clock read and account each I/O. An I/O counts when it was submitted (for an
 * open loop: intended) after the ramp and completed before the end of the measured time; I/Os in
 * flight at the end are drained and dropped. This is the hot path: no allocation, no locks, one
 * clock read per batch each way (a paced load reads it once more per loop). Before a batch
 * leaves, its writes get fresh stamps in each 4 KiB (buffers.h: two stores each); with --verify
 * instead their verify headers and checksums, a journal's intents (synced: the one lock), and
 * each completion is checked (verify_run.h).
 *
 * A paced load with nothing due waits for the due time: a simulator moves its virtual clock
 * there (advance), a real engine sleeps when nothing is in flight and otherwise polls for
 * completions until then, so that each completion is stamped when it happens. An open loop's
 * latency runs from the intended arrival: the time a request waited for a slot (the cap, a
 * saturated device) or for the thread to wake counts, as it would for a user of the device.
 *
 * Requests come from one of two sources: the pattern generator, or a trace (iolab replay,
 * replay.c) read in order, closed (as fast as the slots allow) or timed (each at its recorded
 * time, paced as an open loop: PACE_TRACE); the point ends when the trace does. A timed replay
 * also keeps how late each request left (actual minus intended) and its latency from the
 * actual issue beside the one from the intended time.
 *
 * A loop runs one or more streams: a stream is one worker's generator, pacer and slots, counting
 * into that worker. A real engine's worker is its own thread with one stream. The simulator runs
 * every worker of a point in one thread as streams of one loop against the one simulated system
 * (its clock is virtual: the streams' requests enter it in time order, each completion goes back
 * to the stream whose slot it took). The runner may hand a loop an engine it keeps between runs
 * (ctl->kept: the simulated state carries over rounds and repeats); the loop then neither sets it
 * up nor cleans it, and reports what the engine did during this run only.
 */
#include <errno.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mman.h>
#include <sys/prctl.h>
#include <time.h>

#include "iolab/clock.h"
#include "iolab/trace_record.h"
#include "buffers.h"
#include "run_internal.h"
#include "verify_run.h"

#define NS_PER_S 1000000000ull
#define SERIES_PRESIZE_S 3600 /* the most seconds of series set up before the loop */

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

/* The loop's counters and clocks (one per stream). */
struct loop_clock {
	uint64_t mstart, end, budget;
	bool stopping;
	uint64_t t_stop; /* when the loop decided to stop: the end of the measured time */
};

/* One worker's requests: its generator (or trace), pacer and slots; its counts go to w. */
struct stream { /* what every request touches first, the generator's large tables last */
	struct worker *w;
	bool paced, open;  /* not a closed loop; an open loop (rate, timed trace) */
	bool writes;       /* its pattern writes: buffers are stamped before each write (buffers.h) */
	bool dry;          /* its trace is over: the I/Os in flight finish and count */
	struct iolab_io **freel; /* its free slots, nfree of them (of qd) */
	unsigned qd, nfree, inflight;
	uint64_t issued;   /* --bytes: bytes of the measured time done or in flight */
	struct loop_clock k;
	uint64_t next_sec;
	unsigned sec;
	struct pace pace;
	struct buf_fill fill;  /* what writes carry (buffers.h) */
	struct iolab_gen gen;
};

struct loop_state {
	struct iolab_engine own;  /* the worker's engine, */
	struct iolab_engine *eng; /* or the one the runner keeps (ctl->kept) */
	struct engine_mark mark;  /* a kept engine's counts when the run began */
	struct stream *st;
	unsigned nst;
	struct iolab_io *slots;   /* every stream's, one after the other */
	unsigned nslots;
	uint32_t *owner;          /* per slot: its stream */
	void *arena;  /* the slots' buffers, one block */
	void **bufs;
	struct iolab_io **freel, **batch, **done;
	uint64_t *delay; /* per slot: how late its request was issued (paced loads) */
	uint64_t wake;   /* how late the kernel wakes the thread from a sleep (ns, a running mean) */
	uint64_t t0;     /* the loop's start, time 0 of --record */
	uint64_t last;   /* the last clock reading (a closed loop issues without one) */
	struct iolab_replay_src *src; /* iolab replay: the trace, else NULL (the generator) */
	bool timed;      /* a timed replay */
	bool *counted;   /* per slot: its I/O is in its stream's issued (every I/O after the first
			    counted one) */
	struct verify_worker *vw; /* --verify, --verify-only: this worker's part, else NULL */
};

static void free_state(struct worker *w, struct loop_state *s)
{
	struct iolab_engine *e = s->eng;
	if (e && e == &s->own) {
		if (e->ops->breakdown)
			e->ops->breakdown(e, &w->bd);
		if (e->ops->components && w->comp)
			w->ncomp = e->ops->components(e, w->comp, w->ncomp);
		w->sub_seen = e->sub_seen;
		w->sub_done = e->sub_done;
	} else if (e) { /* a kept engine: what it did since the run began */
		engine_since(e, &s->mark, w);
	}
	engine_mark_free(&s->mark);
	if (s->vw) {
		w->verify = s->vw->res;
		verify_worker_free(s->vw);
		free(s->vw);
	}
	if (e == &s->own && e->ops->cleanup)
		e->ops->cleanup(e);
	free(s->arena);
	free(s->bufs);
	free(s->slots);
	free(s->owner);
	free(s->freel);
	free(s->batch);
	free(s->done);
	free(s->delay);
	free(s->counted);
	iolab_replay_src_close(s->src);
	for (unsigned i = 0; s->st && i < s->nst; i++)
		pace_free(&s->st[i].pace);
	free(s->st);
}

/* The worker of stream i: this thread's own, or with one thread for the point, the i-th. */
static struct worker *worker_of(struct worker *w, unsigned i)
{
	return w->ctl->one_thread ? &w->ctl->workers[i] : w;
}

/* Stream i's generator (or trace), pacer and fill, counting into worker x. */
static int setup_stream(struct worker *w, struct loop_state *s, unsigned i, struct worker *x)
{
	struct point_ctl *c = w->ctl;
	const struct worker_load *ld = &c->load[x->index];
	struct stream *st = &s->st[i];
	st->w = x;
	st->qd = ld->qd;
	int rc = c->replay ? iolab_replay_src_open(c->replay, c->dest, c->scan, ld->qd, &s->src, &w->err)
		 : iolab_gen_init(&st->gen, ld->spec, c->dist, ld->regions, c->nregions, x->index,
				  c->nworkers, c->seed, &w->err);
	if (rc)
		return rc;
	if (c->split_regions) /* a slice each: its sequential stream starts at the slice's start */
		for (unsigned t = 0; !c->replay && t < c->nregions; t++)
			st->gen.cursor[t] = ld->regions[t].start;
	struct pace_params pp = ld->pace;
	pp.seed = (c->seed + x->index) ^ UINT64_C(0x7061636570616365); /* apart from the generator's */
	pp.phase = (double)x->index / c->nworkers;
	if (pace_init(&st->pace, &pp, ld->qd))
		return iolab_errf(&w->err, ENOMEM, "worker %u: out of memory", x->index + 1);
	st->paced = pp.kind != PACE_QD;
	st->open = pp.kind == PACE_RATE || pp.kind == PACE_TRACE;
	st->writes = iolab_spec_writes(ld->spec);
	buf_fill_init(&st->fill, c->buffer_pattern, c->buffer_pct, c->seed, x->index);
	return 0;
}

/* The engine's reports of a run: room for every part's, and a kept engine's counts now. */
static int setup_reports(struct worker *w, struct loop_state *s)
{
	const struct iolab_engine_ops *ops = w->ctl->engine;
	if (ops->components) { /* room for every part's report */
		w->ncomp = ops->components(s->eng, NULL, 0);
		if (w->ncomp && !(w->comp = calloc(w->ncomp, sizeof(*w->comp))))
			return iolab_errf(&w->err, ENOMEM, "worker %u: out of memory", w->index + 1);
	}
	if (s->eng != &s->own && engine_mark(s->eng, &s->mark))
		return iolab_errf(&w->err, ENOMEM, "worker %u: out of memory", w->index + 1);
	return 0;
}

static int setup(struct worker *w, struct loop_state *s)
{
	struct point_ctl *c = w->ctl;
	s->nst = c->one_thread ? c->nworkers : 1;
	if (!(s->st = calloc(s->nst, sizeof(*s->st))))
		return iolab_errf(&w->err, ENOMEM, "worker %u: out of memory", w->index + 1);
	size_t bsz = 0;
	for (unsigned i = 0; i < s->nst; i++) {
		struct worker *x = worker_of(w, i);
		const struct worker_load *ld = &c->load[x->index];
		int rc = setup_stream(w, s, i, x);
		if (rc)
			return rc;
		s->nslots += ld->qd;
		size_t b = (iolab_spec_max_size(ld->spec) + 4095) & ~(size_t)4095;
		bsz = b > bsz ? b : bsz;
	}
	s->timed = c->replay && c->replay->mode == IOLAB_REPLAY_TIMED;
	unsigned qd = s->nslots;
	s->slots = calloc(qd, sizeof(*s->slots));
	s->owner = calloc(qd, sizeof(*s->owner));
	s->bufs = calloc(qd, sizeof(*s->bufs));
	s->freel = calloc(qd, sizeof(*s->freel));
	s->batch = calloc(qd, sizeof(*s->batch));
	s->done = calloc(qd, sizeof(*s->done));
	s->delay = calloc(qd, sizeof(*s->delay));
	s->counted = calloc(qd, sizeof(*s->counted));
	if (!s->slots || !s->owner || !s->bufs || !s->freel || !s->batch || !s->done || !s->delay ||
	    !s->counted)
		return iolab_errf(&w->err, ENOMEM, "worker %u: out of memory", w->index + 1);
	/* One block for all buffers: one allocation instead of qd (at 4096 x 4 KiB a worker's setup
	 * was mostly the allocator's), in huge pages where it is large enough, so that touching it
	 * takes one page fault per 2 MiB rather than per 4 KiB. */
	/* A simulated device moves no data: its slots share one buffer (a timed replay at --qd 4096
	 * of a trace with 1 MiB requests would otherwise hold 4 GiB it never touches). */
	bool shared = (c->engine->flags & IOLAB_ENGINE_VIRTUAL) && !c->verify;
	size_t total = (shared ? 1 : (size_t)qd) * bsz, huge = 2u << 20;
	if (posix_memalign(&s->arena, total >= huge ? huge : 4096, total))
		return iolab_errf(&w->err, ENOMEM, "worker %u: out of memory for buffers", w->index + 1);
	if (total >= huge)
		madvise(s->arena, total - total % huge, MADV_HUGEPAGE); /* a hint: failure is harmless */
	if (c->verify && (!(s->vw = malloc(sizeof(*s->vw))) ||
			  verify_worker_init(s->vw, c->verify, qd, bsz)))
		return iolab_errf(&w->err, ENOMEM, "worker %u: out of memory for verification",
				  w->index + 1);
	for (unsigned i = 0, slot = 0; i < s->nst; i++) {
		struct stream *st = &s->st[i];
		st->freel = s->freel + slot;
		for (unsigned j = 0; j < st->qd; j++, slot++) {
			s->bufs[slot] = (char *)s->arena + (shared ? 0 : (size_t)slot * bsz);
			if (!shared || !slot) {
				if (st->writes) /* buffers.h: unique and incompressible by default */
					buf_fill_slot(&st->fill, s->bufs[slot], bsz, slot);
				else /* reads overwrite it: fault the pages in before the clock starts */
					memset(s->bufs[slot], 0, bsz);
			}
			s->slots[slot].slot = slot;
			s->slots[slot].buf = s->bufs[slot];
			s->owner[slot] = i;
			st->freel[j] = &s->slots[slot];
		}
		st->nfree = st->qd;
	}
	int rc = 0;
	if (c->kept) {
		s->eng = c->kept;
	} else {
		struct iolab_engine_params p = {
			.fds = c->fds, .nfds = c->nfds, .qd = qd, .bufs = s->bufs, .buf_size = bsz,
			.config = c->engine_config,
		};
		s->own.ops = c->engine;
		rc = c->engine->init(&s->own, &p, &w->err);
		if (rc)
			return rc;
		s->eng = &s->own;
	}
	if ((rc = setup_reports(w, s)))
		return rc;
	/* The per-second series, sized for --time so that the loop seldom grows it, but for an
	 * hour at most: a long --time (the runner checked its memory against the limit) grows it
	 * as the seconds pass, rather than holding the set-up (and a stop request) back. */
	uint64_t secs = c->time_ns ? c->time_ns / NS_PER_S + 2 : 0;
	secs = secs < SERIES_PRESIZE_S ? secs : SERIES_PRESIZE_S;
	for (unsigned i = 0; i < s->nst; i++) {
		struct worker *x = s->st[i].w;
		while (x->sec_cap < secs)
			if ((rc = grow_series(x)))
				return iolab_errf(&w->err, ENOMEM, "out of memory");
	}
	return rc;
}

/* Counts a failure: io (NULL: the engine's, or the trace's) ended with res at now. On error stop,
 * the point stops; on continue, it stops when every I/O has failed for IOLAB_GIVE_UP_NS (a device
 * that vanished would otherwise fail I/Os as fast as they can be issued, to the end of --time, or
 * forever under --bytes). */
static void note_error(struct worker *w, const struct iolab_io *io, int res, uint64_t now)
{
	struct point_ctl *c = w->ctl;
	iolab_errors_note(&w->errors, io, res, now);
	int e = res < 0 ? -res : EIO; /* a short transfer counts as EIO */
	int zero = 0;
	atomic_compare_exchange_strong(&c->first_error, &zero, e);
	if (!c->on_error_continue) {
		atomic_store(&c->stop, true);
	} else if (io && !c->engine->now &&
		   now >= atomic_load_explicit(&c->last_ok, memory_order_relaxed) + IOLAB_GIVE_UP_NS) {
		w->errors.gave_up = true;
		atomic_store(&c->stop, true);
	}
}

/* A successful I/O at now: moves the point's last_ok on, at most once a millisecond from each
 * worker, so that the hot path reads only the worker's own mark (the give-up test reads last_ok
 * for real engines only: a simulator's clock is not the wall clock). */
static inline void note_ok(struct worker *w, uint64_t now)
{
	if (now >= w->ok_mark) {
		w->ok_mark = now + 1000000;
		atomic_store_explicit(&w->ctl->last_ok, now, memory_order_relaxed);
	}
}

/* Sleeps until the wall clock reads t. The kernel wakes a sleeper late (about 90 us on a KVM
 * guest, timer slack set to 1 us), so the sleep ends early by twice the lateness seen so far
 * (*wake, a running mean of the wake-ups, each counted up to 200 us: a longer one is the thread
 * preempted, not the timer) and the rest is spun: requests leave on time for a few % of a CPU
 * at hundreds of requests per second, more at thousands. */
static void sleep_until(uint64_t t, uint64_t *wake)
{
	uint64_t now = iolab_clock_ns(), margin = 2 * *wake + 10000;
	if (t > now + margin) {
		uint64_t d = t - now - margin;
		struct timespec ts = {(time_t)(d / NS_PER_S), (long)(d % NS_PER_S)};
		clock_nanosleep(CLOCK_MONOTONIC, 0, &ts, NULL);
		uint64_t woke = iolab_clock_ns(), want = now + d, late = woke > want ? woke - want : 0;
		*wake = (*wake * 7 + (late < 200000 ? late : 200000)) / 8;
	}
	while (iolab_clock_ns() < t)
		;
}

/* Polls a real engine for completions until the wall clock reads t; returns how many it got
 * (0: t came first), or -errno. */
static int poll_until(struct loop_state *s, uint64_t t, unsigned max)
{
	for (;;) {
		int got = s->eng->ops->reap(s->eng, 0, s->done, max);
		if (got || iolab_clock_ns() >= t)
			return got;
	}
}

/* Decides at time now whether the stream is over: its time, its bytes, a stop request. */
static void decide_stop(struct stream *st, uint64_t now)
{
	struct loop_clock *k = &st->k;
	struct worker *w = st->w;
	if (k->stopping || now >= k->end || w->dir[0].bytes + w->dir[1].bytes >= k->budget ||
	    atomic_load_explicit(&w->ctl->stop, memory_order_relaxed)) {
		k->stopping = true;
		k->t_stop = now < k->end ? now : k->end;
	}
}

static inline void check_stop(struct stream *st, uint64_t now)
{
	if (!st->k.t_stop) /* the common case, kept inline: still running */
		decide_stop(st, now);
}

/* Fills io with the trace's next request; false at its end (or a read error: noted). A timed
 * replay's pacer learns when the one after is due. */
static bool replay_fill(struct stream *st, struct loop_state *s, struct iolab_io *io)
{
	struct iolab_replay_req q;
	int rc = iolab_replay_src_next(s->src, &q, &st->w->err);
	if (rc <= 0) {
		if (rc < 0)
			note_error(st->w, NULL, rc, 0);
		return false;
	}
	io->off = q.off;
	io->len = q.len;
	io->op = q.op;
	io->target = q.target;
	if (s->timed)
		pace_set_next(&st->pace, iolab_replay_src_peek(s->src));
	return true;
}

/* Gives a request not started back to the trace (intended: its intended time, 0 if closed). */
static void replay_unget(struct stream *st, struct loop_state *s, const struct iolab_io *io,
			 uint64_t intended)
{
	struct iolab_replay_req q = {.t_ns = s->timed ? intended - st->pace.t0 : 0, .off = io->off,
				     .len = io->len, .op = io->op, .target = io->target};
	iolab_replay_src_unget(s->src, &q);
}

/* Before a batch leaves: each write's data gets fresh stamps (buffers.h), or with --verify its
 * headers and checksums, and each read a snapshot of what its blocks hold (verify_run.h); the
 * journal then holds the writes' intents durably. Returns 0 or -errno (the journal failed). */
static inline int prepare_batch(struct stream *st, struct loop_state *s, unsigned n)
{
	if (!s->vw && !st->writes)
		return 0;
	for (unsigned i = 0; i < n; i++) {
		struct iolab_io *io = s->batch[i];
		if (s->vw)
			verify_issue(s->vw, io);
		else if (io->op == IOLAB_OP_WRITE)
			buf_stamp(&st->fill, io->buf, io->len);
	}
	return s->vw ? verify_commit(s->vw) : 0;
}

/* The bytes io moves, as --bytes counts them: a trim moves none. */
static inline uint32_t bytes_moved(const struct iolab_io *io)
{
	return io->op == IOLAB_OP_TRIM ? 0 : io->len;
}

/* Fills the stream's free slots whose requests are due at now, stamps and submits them. Returns
 * how many started; sets *failed on an engine error, st->dry when a trace has no more requests. */
static unsigned issue(struct stream *st, struct loop_state *s, uint64_t now, bool *failed)
{
	struct worker *w = st->w;
	struct loop_clock *k = &st->k;
	struct pace *pc = &st->pace;
	bool paced = st->paced;
	/* --bytes: no more I/Os once those done and in flight in the measured time make them all, so
	 * that exactly that many bytes are transferred (fio's io_size); one that fails gives its
	 * bytes back to be done again (io_done) */
	bool counting = k->budget != UINT64_MAX && (paced ? now : s->last) >= k->mstart;
	uint64_t batch_bytes = 0;
	unsigned n = 0;
	while (st->nfree && (!paced || pace_due(pc) <= now)) { /* a closed loop's are due at once */
		if (counting && st->issued + batch_bytes >= k->budget)
			break;
		struct iolab_io *io = st->freel[st->nfree - 1];
		io->t_submit = paced ? pace_take(pc) : 0; /* the intended time, for now */
		if (s->src) {
			if (!replay_fill(st, s, io)) {
				st->dry = true;
				break;
			}
		} else {
			struct iolab_req r;
			iolab_gen_next(&st->gen, &r);
			io->off = r.off;
			io->len = r.len;
			io->op = r.op;
			io->target = r.target;
		}
		--st->nfree;
		s->batch[n++] = io;
		batch_bytes += bytes_moved(io);
	}
	if (s->timed && pace_due(pc) == UINT64_MAX)
		st->dry = true;
	if (!n)
		return 0;
	int rc = prepare_batch(st, s, n);
	uint64_t t = now_of(s->eng);
	bool counts = k->budget != UINT64_MAX && t >= k->mstart;
	if (counts) {
		st->issued += batch_bytes;
		for (unsigned i = 0; i < n; i++)
			s->counted[s->batch[i]->slot] = true;
	}
	for (unsigned i = 0; i < n; i++) {
		struct iolab_io *io = s->batch[i];
		if (paced)
			s->delay[io->slot] = t > io->t_submit ? t - io->t_submit : 0;
		if (!st->open) /* an open loop's latency runs from the intended arrival */
			io->t_submit = t;
		if (w->ctl->record)
			iolab_recorder_issue(w->ctl->record, w->index, io, t - s->t0);
	}
	if (!rc)
		rc = s->eng->ops->submit(s->eng, s->batch, n);
	unsigned started = rc > 0 ? (unsigned)rc : 0;
	for (unsigned i = n; i-- > started;) { /* not started: slots and their turns come back */
		struct iolab_io *io = s->batch[i];
		st->freel[st->nfree++] = io;
		st->issued -= counts ? bytes_moved(io) : 0;
		if (s->vw)
			verify_unissue(s->vw, io);
		if (s->src)
			replay_unget(st, s, io, paced ? t - s->delay[io->slot] : 0);
		if (paced)
			pace_untake(pc, t - s->delay[io->slot]);
	}
	if (rc < 0) {
		note_error(w, NULL, rc, t);
		*failed = true;
	}
	return started;
}

/* Waits until until (the next due time, or the end) unless a completion comes first. Returns
 * how many completions are in s->done (0: until came), or -errno. */
static int wait_due(struct loop_state *s, uint64_t until, unsigned inflight, unsigned reap_max)
{
	const struct iolab_engine_ops *ops = s->eng->ops;
	if (ops->advance) /* virtual time: before until, a finished request is waiting */
		return ops->advance(s->eng, until) < until ? ops->reap(s->eng, 1, s->done, reap_max) : 0;
	uint64_t chunk = iolab_clock_ns() + NS_PER_S / 20; /* a stop request is seen within it */
	if (until > chunk)
		until = chunk;
	if (inflight)
		return poll_until(s, until, reap_max);
	sleep_until(until, &s->wake);
	return 0;
}

/* Accounts one completed I/O of stream st at now. */
static inline void account(struct stream *st, struct loop_state *s, struct iolab_io *io, uint64_t now)
{
	struct worker *w = st->w;
	struct loop_clock *k = &st->k;
	if (io->res != (int32_t)io->len) { /* an error, or a short transfer (io_errors.c) */
		w->dir[io->op == IOLAB_OP_READ ? IOLAB_OP_READ : IOLAB_OP_WRITE].errors++;
		note_error(w, io, io->res, now);
		return;
	}
	note_ok(w, now);
	if (io->t_submit < k->mstart || now > k->end)
		return;
	if (io->op == IOLAB_OP_TRIM) { /* counted apart: no data moves, so no IOPS or bytes */
		w->trims++;
		return;
	}
	struct iolab_dir_result *d = &w->dir[io->op];
	d->ios++;
	d->bytes += io->len;
	iolab_hist_add(&d->lat, now - io->t_submit);
	if (st->paced) {
		double late = (double)s->delay[io->slot];
		w->delay_n++;
		w->delay_sum_ns += late;
		if (late > w->delay_max_ns)
			w->delay_max_ns = late;
		if (s->timed) {
			iolab_hist_add(&w->issue_err, s->delay[io->slot]);
			iolab_hist_add(&w->lat_issued, now - io->t_submit - s->delay[io->slot]);
		}
	}
	while (now >= st->next_sec) {
		st->next_sec += NS_PER_S;
		if (++st->sec >= w->sec_cap && grow_series(w))
			--st->sec; /* keep counting into the last second on ENOMEM */
	}
	w->sec_ios[st->sec]++;
	w->sec_bytes[st->sec] += io->len;
}

/* Across MPI ranks: takes the start of the measured time once the runner has set it. */
static void sync_clock(const struct point_ctl *c, struct stream *st)
{
	uint64_t m = atomic_load_explicit(&c->mstart, memory_order_acquire);
	if (!m)
		return;
	st->k.mstart = m;
	st->k.end = c->time_ns ? m + c->time_ns : UINT64_MAX;
	st->next_sec = m + NS_PER_S;
}

/* Starts stream st's clocks and pacer at t0. */
static void start_stream(const struct point_ctl *c, struct loop_state *s, struct stream *st,
			 uint64_t t0)
{
	/* across MPI ranks the measured time starts when the runner says (sync_clock()) */
	st->k = (struct loop_clock){.mstart = c->sync_start ? UINT64_MAX : t0 + c->ramp_ns};
	st->k.end = c->time_ns && !c->sync_start ? st->k.mstart + c->time_ns : UINT64_MAX;
	st->k.budget = c->bytes_per_worker ? c->bytes_per_worker : UINT64_MAX;
	st->next_sec = c->sync_start ? UINT64_MAX : st->k.mstart + NS_PER_S;
	pace_start(&st->pace, t0);
	if (s->timed)
		pace_set_next(&st->pace, iolab_replay_src_peek(s->src));
}

/* Hands the got completions in s->done back to their streams at now. */
static void take_completions(struct worker *w, struct loop_state *s, int got, uint64_t now)
{
	struct point_ctl *c = w->ctl;
	for (int i = 0; i < got; i++) {
		struct iolab_io *io = s->done[i];
		struct stream *st = &s->st[s->owner[io->slot]];
		st->freel[st->nfree++] = io;
		st->inflight--;
		if (io->res != (int32_t)io->len && s->counted[io->slot])
			st->issued -= bytes_moved(io); /* failed: --bytes still wants its bytes */
		if (s->vw && verify_complete(s->vw, io) && !c->on_error_continue)
			atomic_store(&c->stop, true); /* a mismatch stops the point */
		if (st->paced)
			pace_done(&st->pace, now);
		if (c->record)
			iolab_recorder_done(c->record, st->w->index, io, now - s->t0);
		account(st, s, io, now);
	}
}

static void run_loop(struct worker *w, struct loop_state *s)
{
	struct point_ctl *c = w->ctl;
	const struct iolab_engine_ops *ops = c->engine;
	/* An asynchronous engine gets a new I/O for each completion at once, so the device's
	 * queue never drains by a batch (measured: batching 32 cost about 7% on a fast device).
	 * The null engine is reaped the same way, so that it measures the loop the real engines
	 * run (reaped in batches of qd, its QD 32 figure was 4.6 times the one-at-a-time figure,
	 * 69 M against 15 M I/Os per second on the machine of docs/benchmarks.md); only a
	 * synchronous engine, whose I/Os are finished when submit returns, gives whole batches. */
	unsigned reap_max = ops->flags & IOLAB_ENGINE_SYNC ? s->nslots : 1;
	uint64_t t0 = ops->now ? now_of(s->eng) : c->t0;
	bool paced = false; /* some stream is: the loop reads the clock before issuing */
	for (unsigned i = 0; i < s->nst; i++) {
		start_stream(c, s, &s->st[i], t0);
		paced |= s->st[i].paced;
	}
	s->t0 = t0;
	s->wake = 50000;
	if (paced && !ops->now) /* wake-ups on time: the kernel's default slack is 50 us */
		prctl(PR_SET_TIMERSLACK, 1000UL, 0, 0, 0);

	unsigned inflight = 0;
	uint64_t completions = 0;
	for (;;) {
		uint64_t now = paced ? now_of(s->eng) : 0;
		bool waiting = false; /* a paced stream with room: its next request is due later */
		uint64_t until = UINT64_MAX;
		for (unsigned i = 0; i < s->nst; i++) {
			struct stream *st = &s->st[i];
			if (st->k.mstart == UINT64_MAX && c->sync_start)
				sync_clock(c, st);
			if (st->k.stopping || st->dry)
				continue;
			bool failed = false;
			unsigned n = issue(st, s, now, &failed);
			st->inflight += n;
			inflight += n;
			if (st->inflight > st->w->inflight_max)
				st->w->inflight_max = st->inflight;
			st->k.stopping |= failed;
			if (st->paced && !st->k.stopping && !st->dry && st->nfree) {
				uint64_t due = pace_due(&st->pace);
				due = due < st->k.end ? due : st->k.end;
				until = due < until ? due : until;
				waiting = true;
			}
		}
		int got;
		if (waiting) {
			got = wait_due(s, until, inflight, reap_max);
			if (got == 0) {
				uint64_t t = now_of(s->eng);
				for (unsigned i = 0; i < s->nst; i++)
					check_stop(&s->st[i], t);
				continue;
			}
		} else {
			if (!inflight)
				break;
			got = ops->reap(s->eng, 1, s->done, reap_max);
		}
		now = s->last = now_of(s->eng);
		if (got < 0) {
			note_error(w, NULL, got, now);
			break; /* the engine is broken: in-flight slots are abandoned with it */
		}
		take_completions(w, s, got, now);
		inflight -= (unsigned)got;
		completions += (unsigned)got;
		atomic_store_explicit(&w->progress, completions, memory_order_relaxed);
		for (unsigned i = 0; i < s->nst; i++)
			check_stop(&s->st[i], now);
	}
	int rc = s->vw ? verify_worker_end(s->vw) : 0; /* its last journal records */
	if (rc)
		note_error(w, NULL, rc, now_of(s->eng));
	for (unsigned i = 0; i < s->nst; i++) {
		struct stream *st = &s->st[i];
		struct loop_clock *k = &st->k;
		if (!k->t_stop) /* left on an engine failure, or after the trace's last completion */
			k->t_stop = now_of(s->eng);
		st->w->span_ns = k->t_stop > k->mstart ? k->t_stop - k->mstart : 0;
		st->w->nsec = st->sec + 1;
	}
}

void *iolab_worker_main(void *arg)
{
	struct worker *w = arg;
	struct point_ctl *c = w->ctl;
	struct loop_state s = {0};
	unsigned n = c->one_thread ? c->nworkers : 1;
	for (unsigned i = 0; i < n; i++) {
		struct worker *x = worker_of(w, i);
		iolab_hist_reset(&x->dir[0].lat);
		iolab_hist_reset(&x->dir[1].lat);
		iolab_hist_reset(&x->issue_err);
		iolab_hist_reset(&x->lat_issued);
		if (!w->rc && !x->sec_cap && grow_series(x))
			w->rc = iolab_errf(&w->err, ENOMEM, "out of memory");
	}
	if (!w->rc)
		w->rc = setup(w, &s);
	pthread_mutex_lock(&c->lock);
	c->ready++;
	pthread_cond_broadcast(&c->cond);
	while (!c->go)
		pthread_cond_wait(&c->cond, &c->lock);
	pthread_mutex_unlock(&c->lock);
	if (!w->rc && !atomic_load(&w->ctl->stop))
		run_loop(w, &s);
	free_state(w, &s);
	pthread_mutex_lock(&c->lock); /* the runner waits on cond for the last one */
	atomic_store(&w->finished, true);
	pthread_cond_broadcast(&c->cond);
	pthread_mutex_unlock(&c->lock);
	return NULL;
}
