/* engine_fault.c: the fault engine (--fault, fault.h). It wraps a real engine and passes each
 * I/O through, but for the ones a rule strikes:
 *   eio, enospc, a vanished device: the I/O never reaches the inner engine; it completes at once
 *     with -EIO, -ENOSPC or the vanished errno, as an I/O the device refused;
 *   short: the I/O is done in full, and its completion reports half its bytes (whole 512-byte
 *     sectors), as a device that stopped partway does;
 *   delay: its completion is held back by the rule's time.
 * Every worker has its own instance; the rules' counts of I/Os, the vanished state and what was
 * injected are shared (struct iolab_fault_run), so @N means the Nth I/O of the point. A held
 * completion is handed on when due: while one is held and the inner engine has I/Os in flight,
 * reap() polls the inner engine every 100 us rather than blocking in it. */
#include <errno.h>
#include <stdlib.h>
#include <time.h>

#include "iolab/clock.h"
#include "iolab/fault.h"
#include "iolab/prng.h"
#include "iolab/workload.h"

#define NO_CUT UINT32_MAX

struct held {
	struct iolab_io *io;
	uint64_t due; /* ns, iolab_clock_ns() */
};

struct fault_state {
	struct iolab_engine inner;
	struct iolab_fault_run *run;
	unsigned qd;
	struct iolab_io **fwd;  /* a batch for the inner engine */
	struct iolab_io **got;  /* completions taken from it */
	uint32_t *cut;          /* per slot: the bytes its completion reports (NO_CUT: as done) */
	uint64_t *delay;        /* per slot: how late its completion is handed on */
	struct iolab_io **ready; /* a ring of completions to hand on now */
	unsigned ready_head, ready_n;
	struct held *held;      /* delayed completions, until due */
	unsigned nheld;
	unsigned inflight;      /* I/Os in the inner engine */
};

static void free_state(struct fault_state *s)
{
	if (!s)
		return;
	free(s->fwd);
	free(s->got);
	free(s->cut);
	free(s->delay);
	free(s->ready);
	free(s->held);
	free(s);
}

static int fault_init(struct iolab_engine *e, const struct iolab_engine_params *p, struct iolab_err *err)
{
	const struct iolab_fault_setup *fs = p->config;
	struct fault_state *s = calloc(1, sizeof(*s));
	if (s) {
		s->qd = p->qd;
		s->run = fs->run;
		s->fwd = calloc(p->qd, sizeof(*s->fwd));
		s->got = calloc(p->qd, sizeof(*s->got));
		s->cut = calloc(p->qd, sizeof(*s->cut));
		s->delay = calloc(p->qd, sizeof(*s->delay));
		s->ready = calloc(p->qd, sizeof(*s->ready));
		s->held = calloc(p->qd, sizeof(*s->held));
	}
	if (!s || !s->fwd || !s->got || !s->cut || !s->delay || !s->ready || !s->held) {
		free_state(s);
		return iolab_errf(err, ENOMEM, "fault engine: out of memory");
	}
	struct iolab_engine_params ip = *p;
	ip.config = fs->inner_config;
	s->inner.ops = fs->inner;
	int rc = fs->inner->init(&s->inner, &ip, err);
	if (rc) { /* the inner engine freed what it had set up */
		free_state(s);
		return rc;
	}
	e->priv = s;
	return 0;
}

/* A uniform draw in [0, 1) for the nth I/O of rule i under seed (splitmix64's finalizer). */
static double draw(uint64_t seed, unsigned i, uint64_t n)
{
	uint64_t z = iolab_prng_mix(seed ^ (i + 1) * IOLAB_PRNG_GOLDEN ^
				    n * UINT64_C(0xd1b54a32d192ed03));
	return (double)(z >> 11) * 0x1.0p-53;
}

static bool strikes(const struct iolab_fault_rule *r, uint64_t n, uint64_t seed, unsigned i)
{
	if (r->when == IOLAB_FAULT_CHANCE)
		return draw(seed, i, n) < r->chance;
	/* A vanishing is for good: an I/O numbered past it, that another worker judged before the
	 * vanishing was recorded, fails all the same. */
	if (r->kind == IOLAB_FAULT_VANISH)
		return n >= r->n;
	return r->when == IOLAB_FAULT_AT ? n == r->n : n % r->n == 0;
}

/* What happens to one I/O. */
struct verdict {
	int fail;       /* errno it fails with before reaching the device, or 0 */
	uint32_t cut;   /* the bytes its completion reports, or NO_CUT */
	uint64_t delay; /* ns */
};

static void count(struct iolab_fault_run *run, unsigned kind)
{
	atomic_fetch_add_explicit(&run->injected[kind], 1, memory_order_relaxed);
}

/* Runs io past every rule (each counts the I/Os of its direction, in plan order) and records
 * what it injects: a failure alone when one strikes, else a cut and a delay. */
static struct verdict judge(struct fault_state *s, const struct iolab_io *io)
{
	struct iolab_fault_run *run = s->run;
	int gone = atomic_load_explicit(&run->vanished, memory_order_relaxed);
	if (gone) {
		count(run, IOLAB_FAULT_VANISH);
		return (struct verdict){.fail = gone, .cut = NO_CUT};
	}
	struct verdict v = {.cut = NO_CUT};
	int failed_by = -1; /* the kind of the rule that fails it */
	bool cut = false, late = false;
	const struct iolab_fault_plan *plan = run->plan;
	for (unsigned i = 0; i < plan->n; i++) {
		const struct iolab_fault_rule *r = &plan->rule[i];
		if (!(r->ops & 1u << io->op))
			continue;
		uint64_t n = atomic_fetch_add_explicit(&run->seen[i], 1, memory_order_relaxed) + 1;
		if (failed_by >= 0 || !strikes(r, n, run->seed, i))
			continue;
		if (r->kind == IOLAB_FAULT_SHORT) {
			v.cut = io->len / 2 / 512 * 512;
			cut = true;
		} else if (r->kind == IOLAB_FAULT_DELAY) {
			v.delay += r->delay_ns;
			late = true;
		} else {
			failed_by = r->kind;
			v.fail = r->kind == IOLAB_FAULT_EIO ? EIO : r->kind == IOLAB_FAULT_ENOSPC ? ENOSPC
				 : r->vanish_errno;
			if (r->kind == IOLAB_FAULT_VANISH)
				atomic_store(&run->vanished, r->vanish_errno);
		}
	}
	if (failed_by >= 0) { /* the failure is what it met: a cut or delay of it is moot */
		count(run, (unsigned)failed_by);
		return (struct verdict){.fail = v.fail, .cut = NO_CUT};
	}
	if (cut)
		count(run, IOLAB_FAULT_SHORT);
	if (late)
		count(run, IOLAB_FAULT_DELAY);
	return v;
}

static void push_ready(struct fault_state *s, struct iolab_io *io)
{
	unsigned at = s->ready_head + s->ready_n++;
	s->ready[at >= s->qd ? at - s->qd : at] = io;
}

/* Gives the first m I/Os of s->fwd to the inner engine; returns how many it started, or -errno
 * if it started none. */
static int forward(struct fault_state *s, unsigned m)
{
	if (!m)
		return 0;
	int rc = s->inner.ops->submit(&s->inner, s->fwd, m);
	if (rc > 0)
		s->inflight += (unsigned)rc;
	return rc;
}

static int fault_submit(struct iolab_engine *e, struct iolab_io *const *ios, unsigned n)
{
	struct fault_state *s = e->priv;
	unsigned started = 0, m = 0;
	int rc = 0;
	bool stopped = false; /* the inner engine took less than it was given */
	for (unsigned i = 0; i < n; i++) {
		struct iolab_io *io = ios[i];
		struct verdict v = judge(s, io);
		if (!v.fail) {
			s->cut[io->slot] = v.cut;
			s->delay[io->slot] = v.delay;
			s->fwd[m++] = io;
			continue;
		}
		/* the I/Os before it go first, so that what starts is a prefix of ios */
		rc = forward(s, m);
		if (rc > 0)
			started += (unsigned)rc;
		if ((stopped = rc != (int)m))
			break;
		m = 0;
		io->res = -v.fail;
		push_ready(s, io);
		started++;
	}
	if (!stopped && (rc = forward(s, m)) > 0)
		started += (unsigned)rc;
	e->sub_seen = s->inner.sub_seen;
	e->sub_done = s->inner.sub_done;
	return started || !n ? (int)started : rc < 0 ? rc : -EAGAIN;
}

/* Takes what the inner engine has finished (waiting for min of them) into the ready ring or,
 * delayed, the held list; returns the count or -errno. */
static int take_inner(struct fault_state *s, unsigned min)
{
	if (!s->inflight)
		return 0;
	int rc = s->inner.ops->reap(&s->inner, min, s->got, s->qd);
	if (rc <= 0)
		return rc;
	uint64_t now = iolab_clock_ns();
	for (int i = 0; i < rc; i++) {
		struct iolab_io *io = s->got[i];
		s->inflight--;
		uint32_t cut = s->cut[io->slot];
		if (cut != NO_CUT && io->res == (int32_t)io->len)
			io->res = (int32_t)cut;
		if (s->delay[io->slot])
			s->held[s->nheld++] = (struct held){io, now + s->delay[io->slot]};
		else
			push_ready(s, io);
	}
	return rc;
}

/* Moves the ready completions, then the held ones due at now, into done[got..max). */
static unsigned hand_on(struct fault_state *s, struct iolab_io **done, unsigned got, unsigned max,
			uint64_t *earliest)
{
	for (; got < max && s->ready_n; s->ready_n--) {
		done[got++] = s->ready[s->ready_head];
		if (++s->ready_head == s->qd)
			s->ready_head = 0;
	}
	uint64_t now = s->nheld ? iolab_clock_ns() : 0;
	*earliest = UINT64_MAX;
	for (unsigned i = 0; i < s->nheld;) {
		if (s->held[i].due <= now && got < max) {
			done[got++] = s->held[i].io;
			s->held[i] = s->held[--s->nheld];
			continue;
		}
		if (s->held[i].due < *earliest)
			*earliest = s->held[i].due;
		i++;
	}
	return got;
}

static void pause_ns(uint64_t ns)
{
	struct timespec ts = {(time_t)(ns / 1000000000u), (long)(ns % 1000000000u)};
	nanosleep(&ts, NULL); /* an early wake-up (EINTR) only makes the next look sooner */
}

static int fault_reap(struct iolab_engine *e, unsigned min, struct iolab_io **done, unsigned max)
{
	struct fault_state *s = e->priv;
	unsigned got = 0;
	int rc = 0;
	for (;;) {
		rc = take_inner(s, 0);
		uint64_t earliest;
		got = hand_on(s, done, got, max, &earliest);
		if (rc < 0 || got >= min || got == max)
			break;
		if (!s->nheld) { /* only the inner engine's I/Os to wait for */
			if (!s->inflight)
				break;
			if ((rc = take_inner(s, 1)) < 0)
				break;
			continue;
		}
		uint64_t now = iolab_clock_ns(), wait = earliest > now ? earliest - now : 0;
		pause_ns(s->inflight && wait > 100000 ? 100000 : wait);
	}
	e->sub_seen = s->inner.sub_seen;
	e->sub_done = s->inner.sub_done;
	return got ? (int)got : rc < 0 ? rc : 0;
}

static void fault_cleanup(struct iolab_engine *e)
{
	struct fault_state *s = e->priv;
	if (s && s->inner.ops->cleanup)
		s->inner.ops->cleanup(&s->inner);
	free_state(s);
	e->priv = NULL;
}

void iolab_fault_engine(const struct iolab_engine_ops *inner, struct iolab_engine_ops *ops)
{
	*ops = (struct iolab_engine_ops){
		.name = inner->name,
		.version = IOLAB_ENGINE_OPS_VERSION,
		.about = inner->about,
		.flags = inner->flags & (IOLAB_ENGINE_NO_IO | IOLAB_ENGINE_SYNC),
		.init = fault_init,
		.submit = fault_submit,
		.reap = fault_reap,
		.cleanup = fault_cleanup,
		.device_depth = inner->device_depth,
	};
}
