/* engine_sim.c: the simulator as an engine. Requests from the generator go to a simulated
 * drive (disk.c) at the engine's virtual time; the drive's completions become events in the
 * engine's event queue, and reap() advances virtual time to the earliest one. (One drive has one
 * completion pending at a time; the queue is what several devices will share.) Byte offsets
 * become blocks of the model's block size. When the drive's queue is full (QUEUE FULL) the
 * host queue (host_queue.c) holds the requests and, each time the drive has served one, sends
 * the one its policy picks (--host-scheduler: none keeps arrival order). A held request reaches
 * the drive when the host sends it, plus the host's time per command (--host-overhead); both
 * are counted apart from the drive's own queue. */
#include <errno.h>
#include <stdlib.h>

#include "iolab/disk_sim.h"
#include "iolab/engine.h"
#include "iolab/event_queue.h"
#include "iolab/host_queue.h"
#include "iolab/workload.h"

struct sim_state {
	struct iolab_disk *disk;
	const struct iolab_disk_model *m;
	struct iolab_disk_req *req; /* one per slot */
	struct iolab_evq events;    /* completions, by virtual time */
	uint64_t now;
	struct iolab_host_queue host; /* what the full drive refused */
	uint64_t host_overhead;       /* per command, before the drive sees it */
	double host_ns;               /* time requests waited in the host queue */
};

static int sim_init(struct iolab_engine *e, const struct iolab_engine_params *p, struct iolab_err *err)
{
	const struct iolab_disk_model *m = p->config;
	if (!m)
		return iolab_errf(err, EINVAL, "sim engine: no drive model given (use 'iolab sim --model')");
	struct sim_state *s = calloc(1, sizeof(*s));
	if (!s)
		return iolab_errf(err, ENOMEM, "sim engine: out of memory");
	s->m = m;
	s->disk = iolab_disk_new(m);
	s->req = calloc(p->qd, sizeof(*s->req));
	if (!s->disk || !s->req || iolab_hostq_init(&s->host, p->host.sched, p->qd)) {
		iolab_disk_free(s->disk);
		free(s->req);
		iolab_hostq_free(&s->host);
		free(s);
		return iolab_errf(err, ENOMEM, "sim engine: out of memory");
	}
	iolab_evq_init(&s->events);
	s->host_overhead = p->host.overhead_ns;
	e->priv = s;
	return 0;
}

/* Sends held requests, as the host's policy picks them at time now, while the drive has room. */
static int send_held(struct sim_state *s, uint64_t now)
{
	while (s->host.n && !iolab_disk_full(s->disk)) {
		struct iolab_disk_req *r = iolab_hostq_pop(&s->host, now);
		s->host_ns += (double)(now - r->t_arrive) + (double)s->host_overhead;
		r->t_arrive = now + s->host_overhead;
		int rc = iolab_disk_submit(s->disk, r);
		if (rc)
			return rc;
	}
	return 0;
}

/* Hands r to the drive, or holds it in the host queue. At most qd requests are in flight, so
 * the host queue never overflows. */
static int hand(struct sim_state *s, struct iolab_disk_req *r)
{
	if (!s->host.n && !iolab_disk_full(s->disk)) {
		s->host_ns += (double)s->host_overhead;
		r->t_arrive += s->host_overhead;
		return iolab_disk_submit(s->disk, r);
	}
	iolab_hostq_push(&s->host, r);
	return 0;
}

static int sim_submit(struct iolab_engine *e, struct iolab_io *const *ios, unsigned n)
{
	struct sim_state *s = e->priv;
	uint32_t bb = s->m->block_bytes;
	for (unsigned i = 0; i < n; i++) {
		struct iolab_io *io = ios[i];
		struct iolab_disk_req *r = &s->req[io->slot];
		r->lbn = io->off / bb;
		r->blocks = (io->len + bb - 1) / bb;
		r->write = io->op == IOLAB_OP_WRITE;
		r->t_arrive = s->now;
		r->user = io;
		int rc = hand(s, r);
		if (rc)
			return i ? (int)i : rc;
	}
	e->sub_seen += n; /* none completes before virtual time moves on in reap() */
	return (int)n;
}

static int sim_reap(struct iolab_engine *e, unsigned min, struct iolab_io **done, unsigned max)
{
	struct sim_state *s = e->priv;
	unsigned got = 0;
	while (got < max && (got < min || got == 0)) {
		if (!iolab_evq_size(&s->events)) {
			struct iolab_disk_req *r = iolab_disk_next(s->disk);
			if (!r)
				break;
			int rc = send_held(s, r->t_done); /* the drive has room again */
			if (!rc && iolab_evq_push(&s->events, r->t_done, r))
				rc = -ENOMEM;
			if (rc)
				return got ? (int)got : rc;
		}
		struct iolab_event ev;
		iolab_evq_pop(&s->events, &ev);
		struct iolab_disk_req *r = ev.data;
		s->now = ev.time;
		struct iolab_io *io = r->user;
		io->res = (int32_t)io->len;
		done[got++] = io;
	}
	return (int)got;
}

static uint64_t sim_now(struct iolab_engine *e)
{
	return ((struct sim_state *)e->priv)->now;
}

static void sim_breakdown(struct iolab_engine *e, struct iolab_breakdown *b)
{
	const struct iolab_disk_stats *st = iolab_disk_stats(((struct sim_state *)e->priv)->disk);
	b->host_ns += ((struct sim_state *)e->priv)->host_ns;
	b->overhead_ns += st->overhead_ns;
	b->queue_ns += st->queue_ns;
	b->seek_ns += st->seek_ns;
	b->rotate_ns += st->rotate_ns;
	b->media_ns += st->media_ns;
	b->bus_ns += st->bus_ns;
	b->ios += st->reads + st->writes;
	b->reads += st->reads;
	b->read_hits += st->read_hits;
	b->read_partial_hits += st->read_partial_hits;
}

static unsigned sim_device_depth(const void *config)
{
	const struct iolab_disk_model *m = config;
	return m ? m->queue_depth : 0;
}

static void sim_cleanup(struct iolab_engine *e)
{
	struct sim_state *s = e->priv;
	if (s) {
		iolab_disk_free(s->disk);
		iolab_evq_free(&s->events);
		free(s->req);
		iolab_hostq_free(&s->host);
		free(s);
	}
	e->priv = NULL;
}

const struct iolab_engine_ops iolab_engine_sim = {
	.name = "sim",
	.version = IOLAB_ENGINE_OPS_VERSION,
	.about = "simulated drive in virtual time (iolab sim --model NAME)",
	.flags = IOLAB_ENGINE_VIRTUAL,
	.init = sim_init,
	.submit = sim_submit,
	.reap = sim_reap,
	.cleanup = sim_cleanup,
	.now = sim_now,
	.breakdown = sim_breakdown,
	.device_depth = sim_device_depth,
};
