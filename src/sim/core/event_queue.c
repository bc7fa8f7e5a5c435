/* event_queue.c: the 4-ary min-heap of event_queue.h, ordered by (time, seq); a late event's
 * seq has its top bit set, which puts it after every ordinary event of its time. */
#include <errno.h>
#include <stdlib.h>

#include "iolab/event_queue.h"

static inline bool before(const struct iolab_event *a, const struct iolab_event *b)
{
	return a->time < b->time || (a->time == b->time && a->seq < b->seq);
}

void iolab_evq_init(struct iolab_evq *q)
{
	q->heap = NULL;
	q->n = q->cap = 0;
	q->seq = 0;
}

void iolab_evq_free(struct iolab_evq *q)
{
	free(q->heap);
	iolab_evq_init(q);
}

#define LATE (UINT64_C(1) << 63)

static inline int push(struct iolab_evq *q, struct iolab_event e)
{
	if (q->n == q->cap) {
		size_t cap = q->cap ? q->cap * 2 : 64;
		struct iolab_event *h = realloc(q->heap, cap * sizeof(*h));
		if (!h)
			return -ENOMEM;
		q->heap = h;
		q->cap = cap;
	}
	size_t i = q->n++;
	while (i > 0) { /* sift up */
		size_t parent = (i - 1) / 4;
		if (!before(&e, &q->heap[parent]))
			break;
		q->heap[i] = q->heap[parent];
		i = parent;
	}
	q->heap[i] = e;
	return 0;
}

int iolab_evq_push(struct iolab_evq *q, uint64_t time, void *data)
{
	return push(q, (struct iolab_event){.time = time, .seq = q->seq++, .data = data});
}

int iolab_evq_push_to(struct iolab_evq *q, uint64_t time, void *target, unsigned what, void *data)
{
	return push(q, (struct iolab_event){.time = time, .seq = q->seq++, .data = data,
					    .target = target, .what = what});
}

int iolab_evq_push_late(struct iolab_evq *q, uint64_t time, void *target, unsigned what, void *data)
{
	return push(q, (struct iolab_event){.time = time, .seq = LATE | q->seq++, .data = data,
					    .target = target, .what = what});
}


bool iolab_evq_pop(struct iolab_evq *q, struct iolab_event *out)
{
	if (!q->n)
		return false;
	*out = q->heap[0];
	struct iolab_event last = q->heap[--q->n];
	size_t i = 0, n = q->n;
	for (;;) { /* sift the last element down from the root */
		size_t c = 4 * i + 1, best = c;
		if (c >= n)
			break;
		size_t end = c + 4 < n ? c + 4 : n;
		for (size_t k = c + 1; k < end; k++)
			if (before(&q->heap[k], &q->heap[best]))
				best = k;
		if (!before(&q->heap[best], &last))
			break;
		q->heap[i] = q->heap[best];
		i = best;
	}
	if (n)
		q->heap[i] = last;
	return true;
}
