/* system.c: the event loop of a simulated I/O path (sim_system.h): scheduling a component's
 * events, passing finished requests up as events, and collecting the load's.
 *
 * Most events are for the current instant (a finished request going up, a drive's pick): they
 * go to two first-in first-out rings, ordinary and late, and only events for a later time go to
 * the heap. The order is the one sim_system.h promises: at each instant, ordinary events in the
 * order they were posted (the heap's, posted earlier, and the ring's, by sequence number), then
 * the late ones. */
#include <errno.h>
#include <stdlib.h>
#include <string.h>

#include "iolab/sim_system.h"

/* The kind of event that delivers a finished request to the part that sent it. */
#define EV_COMPLETE UINT32_MAX

struct iolab_sim_now {
	struct iolab_event *ev;
	unsigned head, n, cap;
};

static int ring_push(struct iolab_sim_now *r, struct iolab_event e)
{
	if (r->n == r->cap) {
		unsigned cap = r->cap ? r->cap * 2 : 16;
		struct iolab_event *ev = malloc(cap * sizeof(*ev));
		if (!ev)
			return -ENOMEM;
		for (unsigned i = 0; i < r->n; i++)
			ev[i] = r->ev[(r->head + i) % r->cap];
		free(r->ev);
		r->ev = ev;
		r->head = 0;
		r->cap = cap;
	}
	r->ev[(r->head + r->n++) % r->cap] = e;
	return 0;
}

static struct iolab_event ring_pop(struct iolab_sim_now *r)
{
	struct iolab_event e = r->ev[r->head];
	r->head = (r->head + 1) % r->cap;
	r->n--;
	return e;
}

int iolab_sim_init(struct iolab_sim *s, unsigned cap)
{
	memset(s, 0, sizeof(*s));
	iolab_evq_init(&s->evq);
	s->cap = cap ? cap : 1;
	s->done = calloc(s->cap, sizeof(*s->done));
	s->ring = calloc(2, sizeof(*s->ring));
	return s->done && s->ring ? 0 : -ENOMEM;
}

void iolab_sim_free(struct iolab_sim *s)
{
	iolab_evq_free(&s->evq);
	if (s->ring)
		for (int i = 0; i < 2; i++)
			free(s->ring[i].ev);
	free(s->ring);
	free(s->done);
	memset(s, 0, sizeof(*s));
}

static void post(struct iolab_sim *s, uint64_t t, bool late, void *target, unsigned what, void *data)
{
	int rc;
	if (t == s->now)
		rc = ring_push(&s->ring[late], (struct iolab_event){.time = t, .seq = s->evq.seq++,
					       .data = data, .target = target, .what = what});
	else
		rc = late ? iolab_evq_push_late(&s->evq, t, target, what, data)
			  : iolab_evq_push_to(&s->evq, t, target, what, data);
	if (rc && !s->error)
		s->error = -ENOMEM;
}

void iolab_sim_at(struct iolab_comp *c, uint64_t t, unsigned what, void *arg)
{
	post(c->sim, t, false, c, what, arg);
}

void iolab_sim_at_late(struct iolab_comp *c, uint64_t t, unsigned what, void *arg)
{
	post(c->sim, t, true, c, what, arg);
}

void iolab_sim_done(struct iolab_sim *s, struct iolab_sreq *r)
{
	if (!r->from) {
		if (s->ndone < s->cap)
			s->done[s->ndone++] = r;
		return;
	}
	post(s, s->now, false, r->from, EV_COMPLETE, r);
}

/* Takes the next event in the order of sim_system.h into *ev; false if there is none. */
static bool next_event(struct iolab_sim *s, struct iolab_event *ev)
{
	const struct iolab_event *top = iolab_evq_peek(&s->evq);
	bool heap_now = top && top->time == s->now && !(top->seq >> 63);
	struct iolab_sim_now *ord = &s->ring[0], *late = &s->ring[1];
	if (ord->n && !(heap_now && top->seq < ord->ev[ord->head].seq)) {
		*ev = ring_pop(ord);
		return true;
	}
	if (heap_now)
		return iolab_evq_pop(&s->evq, ev);
	if (late->n) { /* heap events for now that are late were posted earlier: they go first */
		if (top && top->time == s->now)
			return iolab_evq_pop(&s->evq, ev);
		*ev = ring_pop(late);
		return true;
	}
	return iolab_evq_pop(&s->evq, ev);
}

bool iolab_sim_step(struct iolab_sim *s)
{
	struct iolab_event ev;
	if (!next_event(s, &ev))
		return false;
	s->now = ev.time;
	struct iolab_comp *c = ev.target;
	if (ev.what == EV_COMPLETE)
		c->ops->complete(c, ev.data);
	else
		c->ops->event(c, ev.what, ev.data);
	return true;
}

/* The time of the next event: now while events of this instant wait, else the heap's earliest
 * (UINT64_MAX: none). */
static uint64_t next_time(const struct iolab_sim *s)
{
	if (s->ring[0].n || s->ring[1].n)
		return s->now;
	const struct iolab_event *top = iolab_evq_peek(&s->evq);
	return top ? top->time : UINT64_MAX;
}

uint64_t iolab_sim_advance(struct iolab_sim *s, uint64_t t)
{
	while (!s->ndone && !s->error && next_time(s) < t)
		iolab_sim_step(s);
	if (!s->ndone && !s->error && s->now < t)
		s->now = t;
	return s->now;
}

void iolab_comp_free(struct iolab_comp *c)
{
	if (c->ops && c->ops->cleanup)
		c->ops->cleanup(c);
	c->priv = NULL;
}
