/* ssd_lru.h: a set of at most cap logical page numbers in least-recently-used order, for the
 * simulated SSD's DRAM data cache (the pages it holds) and its cached mapping table (the map
 * entries it holds). Lookups and insertions are O(1): a hash of chains over the slots, and a
 * list of the slots from the most to the least recently used. Memory: 20 bytes a slot and 4 a
 * bucket, allocated whole when it is made (calloc: pages the OS gives as they are touched). */
#ifndef IOLAB_SSD_LRU_H
#define IOLAB_SSD_LRU_H

#include <stdbool.h>
#include <stdint.h>

struct ssd_lru {
	uint32_t cap, n;
	uint32_t mask;       /* buckets - 1 */
	uint32_t *bucket;    /* first slot of each chain, 1-based; 0: empty */
	uint64_t *key;       /* slots 1..cap */
	uint32_t *chain;     /* next slot of the same bucket */
	uint32_t *newer, *older;
	uint32_t mru, lru;   /* 0: none */
};

/* An empty set of at most cap keys (cap > 0). Returns 0 or -ENOMEM. */
int ssd_lru_init(struct ssd_lru *l, uint32_t cap);
void ssd_lru_free(struct ssd_lru *l);
/* True if key is in the set; it becomes the most recently used. */
bool ssd_lru_touch(struct ssd_lru *l, uint64_t key);
/* Puts key in the set as the most recently used, the least recently used one leaving when the
 * set is full. */
void ssd_lru_put(struct ssd_lru *l, uint64_t key);
/* Empties the set. */
void ssd_lru_clear(struct ssd_lru *l);

#endif
