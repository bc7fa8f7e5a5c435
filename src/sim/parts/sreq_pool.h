/* sreq_pool.h: a pool of fixed-size records that begin with a struct iolab_sreq (the requests a
 * part sends below on behalf of the requests it took), reused through a free list and freed
 * all at once at cleanup, so that none is lost with requests still under way when a run ends.
 * Used by the share and concat parts (comp_share.c, comp_concat.c). */
#ifndef IOLAB_SIM_SREQ_POOL_H
#define IOLAB_SIM_SREQ_POOL_H

#include <stdlib.h>
#include <string.h>

#include "iolab/sim_system.h"

struct sreq_pool {
	size_t size;   /* bytes of one record (at least a struct iolab_sreq) */
	void **all;    /* every record allocated */
	unsigned n, cap;
	void **free;   /* the records not in use */
	unsigned nfree;
};

/* A record of pool->size bytes, zeroed; NULL when out of memory. */
static inline void *sreq_pool_get(struct sreq_pool *p)
{
	void *r;
	if (p->nfree) {
		r = p->free[--p->nfree];
	} else {
		if (p->n == p->cap) {
			unsigned cap = p->cap ? 2 * p->cap : 32;
			void **all = realloc(p->all, cap * sizeof(*all));
			void **fr = all ? realloc(p->free, cap * sizeof(*fr)) : NULL;
			if (all)
				p->all = all;
			if (!fr)
				return NULL;
			p->free = fr;
			p->cap = cap;
		}
		if (!(r = malloc(p->size)))
			return NULL;
		p->all[p->n++] = r;
	}
	return memset(r, 0, p->size);
}

static inline void sreq_pool_put(struct sreq_pool *p, void *r)
{
	p->free[p->nfree++] = r; /* room: free holds no more than all */
}

static inline void sreq_pool_free(struct sreq_pool *p)
{
	for (unsigned i = 0; i < p->n; i++)
		free(p->all[i]);
	free(p->all);
	free(p->free);
	*p = (struct sreq_pool){0};
}

#endif
