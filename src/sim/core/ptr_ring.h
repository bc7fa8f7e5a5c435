/* ptr_ring.h: a growing first-in first-out queue of pointers, for the parts of a simulated path
 * that hold requests (or waiting parts) in arrival order. Zero-initialised is empty. */
#ifndef IOLAB_PTR_RING_H
#define IOLAB_PTR_RING_H

#include <errno.h>
#include <stdlib.h>

struct ptr_ring {
	void **p;
	unsigned head, n, cap;
};

/* Appends x. Returns 0 or -ENOMEM (the ring is unchanged). */
static inline int ptr_ring_push(struct ptr_ring *r, void *x)
{
	if (r->n == r->cap) {
		unsigned cap = r->cap ? r->cap * 2 : 16;
		void **p = malloc(cap * sizeof(*p));
		if (!p)
			return -ENOMEM;
		for (unsigned i = 0; i < r->n; i++)
			p[i] = r->p[(r->head + i) % r->cap];
		free(r->p);
		r->p = p;
		r->head = 0;
		r->cap = cap;
	}
	r->p[(r->head + r->n++) % r->cap] = x;
	return 0;
}

/* Removes and returns the oldest; the ring must not be empty. */
static inline void *ptr_ring_pop(struct ptr_ring *r)
{
	void *x = r->p[r->head];
	r->head = (r->head + 1) % r->cap;
	r->n--;
	return x;
}

static inline void ptr_ring_free(struct ptr_ring *r)
{
	free(r->p);
	*r = (struct ptr_ring){0};
}

#endif
