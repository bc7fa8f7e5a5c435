/* event_queue.c: the 4-ary min-heap of event_queue.h, ordered by (time, seq). */
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

int iolab_evq_push(struct iolab_evq *q, uint64_t time, void *data)
{
	if (q->n == q->cap) {
		size_t cap = q->cap ? q->cap * 2 : 64;
		struct iolab_event *h = realloc(q->heap, cap * sizeof(*h));
		if (!h)
			return -ENOMEM;
		q->heap = h;
		q->cap = cap;
	}
	struct iolab_event e = {.time = time, .seq = q->seq++, .data = data};
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
