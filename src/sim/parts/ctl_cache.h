/* ctl_cache.h: a controller's cache (ctl_cache.c), private to comp_controller.c.
 *
 * The cache holds blocks of the device below in lines of a fixed number of blocks (at most 64),
 * each line with three masks over its blocks: valid (the cache holds the block), dirty (written
 * by the host, not yet on the device below; dirty implies valid) and flight (a destage write of
 * the block is in flight below). A line with dirty or flight blocks is pinned: it cannot be
 * evicted. The others, and the lines never used, form the clean list in LRU order, from which
 * new lines are taken. The lines with dirty blocks are also kept ordered by address (a treap)
 * so that destage can walk them in elevator order. Ranges are [lo, hi) in blocks. */
#ifndef IOLAB_CTL_CACHE_H
#define IOLAB_CTL_CACHE_H

#include <stdbool.h>
#include <stdint.h>

struct ctl_line {
	uint64_t tag;                  /* line number: first block / line blocks */
	uint64_t valid, dirty, flight; /* masks of the line's blocks */
	uint32_t hnext;                /* next in its hash bucket */
	uint32_t prev, next;           /* the clean list (prev: towards MRU) */
	uint32_t left, right, prio;    /* the dirty treap */
	bool used;                     /* holds a tag (in the hash) */
	bool clean;                    /* on the clean list */
};

/* Lines are made as they are first needed, so the memory follows what the load touches, not
 * the cache's size: a line never used costs nothing. Behaviour is as if all n lines existed
 * from the start, the unused ones at the LRU end of the clean list (taken first, in order). */
struct ctl_cache {
	struct ctl_line *line;
	uint64_t n;          /* lines: the cache's size */
	uint32_t most;       /* lines that can ever be made: n, or fewer when fewer cover the
				device below */
	uint32_t made, cap;  /* lines made so far, and room for them in line[] */
	bool nomem;          /* a line could not be made (out of memory) */
	uint32_t lb;         /* blocks per line, 1..64 */
	uint32_t *bucket;
	uint32_t mask;       /* buckets - 1 */
	uint32_t mru, lru;   /* ends of the clean list */
	uint32_t nclean;     /* lines on it */
	uint32_t root;       /* of the dirty treap */
	uint64_t seed;       /* the treap's priorities: a fixed sequence, runs repeat exactly */
};

/* n lines of lb blocks each, over a device of `blocks` blocks (UINT64_MAX: not known). Returns
 * 0, -E2BIG when more lines than 32-bit indices reach could be needed, or -ENOMEM. */
int ctl_cache_init(struct ctl_cache *c, uint64_t n, uint32_t lb, uint64_t blocks);
/* The most memory the cache of n lines of lb blocks over `blocks` blocks can take, in bytes. */
uint64_t ctl_cache_max_bytes(uint64_t n, uint32_t lb, uint64_t blocks);
void ctl_cache_free(struct ctl_cache *c);

/* True if every block of [lo, hi) is valid. Otherwise *first and *last get the first and the
 * last block that is not. */
bool ctl_cache_lookup(const struct ctl_cache *c, uint64_t lo, uint64_t hi, uint64_t *first, uint64_t *last);
/* Moves the present lines of [lo, hi) that are not pinned to the MRU end. */
void ctl_cache_touch(struct ctl_cache *c, uint64_t lo, uint64_t hi);
/* Makes [lo, hi) valid (data read from below, or written through), taking lines from the LRU
 * end as needed; a line that cannot be had (every line pinned) is left out. Dirty blocks stay
 * dirty. */
void ctl_cache_fill(struct ctl_cache *c, uint64_t lo, uint64_t hi);
/* True if a write of [lo, hi) can be taken now: the lines it needs that are absent are no more
 * than the clean lines not of the range. */
bool ctl_cache_room(const struct ctl_cache *c, uint64_t lo, uint64_t hi);
/* Marks [lo, hi) valid and dirty (ctl_cache_room must have said yes). */
void ctl_cache_write(struct ctl_cache *c, uint64_t lo, uint64_t hi);
/* Forgets that [lo, hi) is dirty (a newer write goes around the cache); it stays valid. */
void ctl_cache_undirty(struct ctl_cache *c, uint64_t lo, uint64_t hi);
/* A trim of [lo, hi): the cache no longer holds those blocks, dirty or not (a destage already in
 * flight goes on). */
void ctl_cache_discard(struct ctl_cache *c, uint64_t lo, uint64_t hi);
/* The next destage write in elevator order: the first dirty block at or after block from that
 * is not in flight (wrapping to the lowest), extended over the following dirty blocks not in
 * flight, across lines, up to a multiple of limit blocks. Marks them in flight and not dirty.
 * Returns false if there is no such block. */
bool ctl_cache_destage(struct ctl_cache *c, uint64_t from, uint64_t limit, uint64_t *lo, uint64_t *hi);
/* A destage write of [lo, hi) is done: its blocks are no longer in flight; a line with neither
 * dirty nor flight blocks joins the clean list at the MRU end. */
void ctl_cache_destaged(struct ctl_cache *c, uint64_t lo, uint64_t hi);
/* Lines pinned (dirty or flight blocks), and blocks dirty or in flight. */
uint32_t ctl_cache_pinned(const struct ctl_cache *c);
uint64_t ctl_cache_dirty_blocks(const struct ctl_cache *c);

#endif
