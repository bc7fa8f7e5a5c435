/* pacing.c: the load models of pacing.h. Clients are interchangeable, so only their due times
 * are kept, in a binary min-heap (one entry per client not in flight; with a fixed think time
 * they come out in completion order). Open-loop arrivals are generated one at a time from the
 * rate: arrival k of an even stream is at t0 + (phase + k) x gap, of a Poisson stream after
 * exponential gaps of mean gap (-ln U x gap, U uniform in (0, 1]), kept in double nanoseconds so
 * that no rounding accumulates. Random draws use their own generator, seeded apart from the
 * request generator's, so that the requests are the same whatever the pacing. */
#include <errno.h>
#include <math.h>
#include <stdlib.h>

#include "pacing.h"

static void heap_push(struct pace *pc, uint64_t t)
{
	unsigned i = pc->n++;
	while (i && pc->heap[(i - 1) / 2] > t) {
		pc->heap[i] = pc->heap[(i - 1) / 2];
		i = (i - 1) / 2;
	}
	pc->heap[i] = t;
}

static uint64_t heap_pop(struct pace *pc)
{
	uint64_t top = pc->heap[0], last = pc->heap[--pc->n];
	unsigned i = 0;
	for (;;) {
		unsigned c = 2 * i + 1;
		if (c >= pc->n)
			break;
		if (c + 1 < pc->n && pc->heap[c + 1] < pc->heap[c])
			c++;
		if (pc->heap[c] >= last)
			break;
		pc->heap[i] = pc->heap[c];
		i = c;
	}
	if (pc->n)
		pc->heap[i] = last;
	return top;
}

/* An exponential draw of the given mean. */
static double exp_draw(struct pace *pc, double mean)
{
	return -log(1.0 - iolab_prng_unit(&pc->rng)) * mean;
}

int pace_init(struct pace *pc, const struct pace_params *p, unsigned slots)
{
	*pc = (struct pace){.p = *p, .cap = slots};
	iolab_prng_seed(&pc->rng, p->seed);
	if (p->kind == PACE_RATE)
		pc->gap_ns = 1e9 / p->rate;
	if (p->kind == PACE_QD)
		return 0;
	pc->heap = calloc(slots ? slots : 1, sizeof(*pc->heap));
	return pc->heap ? 0 : -ENOMEM;
}

void pace_start(struct pace *pc, uint64_t t0)
{
	pc->t0 = t0;
	pc->n = 0;
	if (pc->p.kind == PACE_CLIENTS)
		for (unsigned i = 0; i < pc->cap; i++)
			heap_push(pc, t0);
	pc->next_ns = pc->p.poisson ? 0 : pc->p.phase * pc->gap_ns;
	pc->trace_due = UINT64_MAX;
}

void pace_free(struct pace *pc)
{
	free(pc->heap);
	pc->heap = NULL;
}

uint64_t pace_due(const struct pace *pc)
{
	switch (pc->p.kind) {
	case PACE_CLIENTS:
		return pc->n ? pc->heap[0] : UINT64_MAX;
	case PACE_RATE:
		return pc->n ? pc->heap[pc->n - 1] : pc->t0 + (uint64_t)pc->next_ns;
	case PACE_TRACE:
		return pc->trace_due;
	default:
		return 0;
	}
}

uint64_t pace_take(struct pace *pc)
{
	switch (pc->p.kind) {
	case PACE_CLIENTS:
		return heap_pop(pc);
	case PACE_RATE:
		if (pc->n)
			return pc->heap[--pc->n];
		uint64_t t = pc->t0 + (uint64_t)pc->next_ns;
		pc->next_ns += pc->p.poisson ? exp_draw(pc, pc->gap_ns) : pc->gap_ns;
		return t;
	case PACE_TRACE:
		return pc->trace_due;
	default:
		return 0;
	}
}

void pace_untake(struct pace *pc, uint64_t t)
{
	if (pc->p.kind == PACE_CLIENTS)
		heap_push(pc, t);
	else if (pc->p.kind == PACE_RATE && pc->n < pc->cap)
		pc->heap[pc->n++] = t; /* given back latest first: the last is the earliest */
	else if (pc->p.kind == PACE_TRACE)
		pc->trace_due = t;
}

void pace_set_next(struct pace *pc, uint64_t rel_ns)
{
	pc->trace_due = rel_ns == UINT64_MAX ? UINT64_MAX : pc->t0 + rel_ns;
}

void pace_done(struct pace *pc, uint64_t now)
{
	if (pc->p.kind != PACE_CLIENTS)
		return;
	uint64_t think = pc->p.think_exp ? (uint64_t)llround(exp_draw(pc, (double)pc->p.think_ns))
					 : pc->p.think_ns;
	heap_push(pc, now + think);
}
