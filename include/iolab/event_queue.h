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
	uint64_t seq;  /* push order: breaks ties */
	void *data;
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
/* Removes the earliest event into *e; false if the queue is empty. */
bool iolab_evq_pop(struct iolab_evq *q, struct iolab_event *e);

static inline size_t iolab_evq_size(const struct iolab_evq *q)
{
	return q->n;
}

#endif
