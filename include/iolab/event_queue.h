/* event_queue.h: the simulator's clock: a priority queue of timed events in integer
 * nanoseconds. A 4-ary heap keeps push and pop O(log n) with few cache misses, so millions of
 * pending events stay cheap; events at the same time come out in the order they were pushed,
 * which keeps every simulation deterministic. */
#ifndef IOLAB_EVENT_QUEUE_H
#define IOLAB_EVENT_QUEUE_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

struct iolab_event {
	uint64_t time; /* ns of virtual time */
	uint64_t seq;  /* push order: breaks ties (the top bit set: after every other event of its
			  time, see iolab_evq_push_late) */
	void *data;
	void *target;  /* who handles it (the simulator's component), or NULL */
	unsigned what; /* the target's own kind of event */
};

struct iolab_evq {
	struct iolab_event *heap;
	size_t n, cap;
	uint64_t seq;
};

/* An empty queue (no allocation until the first push). */
void iolab_evq_init(struct iolab_evq *q);
void iolab_evq_free(struct iolab_evq *q);
/* Adds an event. Returns 0 or -ENOMEM. */
int iolab_evq_push(struct iolab_evq *q, uint64_t time, void *data);
/* Adds an event for target, of the target's kind what. Returns 0 or -ENOMEM. */
int iolab_evq_push_to(struct iolab_evq *q, uint64_t time, void *target, unsigned what, void *data);
/* The same for an event that must come after every other event of its time, also those pushed
 * later (a drive picks its next command only once everything arriving at that instant has
 * arrived). Late events of one time keep their push order. */
int iolab_evq_push_late(struct iolab_evq *q, uint64_t time, void *target, unsigned what, void *data);
/* The earliest event, without removing it; NULL if the queue is empty. */
static inline const struct iolab_event *iolab_evq_peek(const struct iolab_evq *q)
{
	return q->n ? &q->heap[0] : NULL;
}
/* Removes the earliest event into *e; false if the queue is empty. */
bool iolab_evq_pop(struct iolab_evq *q, struct iolab_event *e);

static inline size_t iolab_evq_size(const struct iolab_evq *q)
{
	return q->n;
}

#endif
