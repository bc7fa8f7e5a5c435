/* ssd_lru.c: the simulated SSD's LRU set of page numbers (ssd_lru.h). */
#include <errno.h>
#include <stdlib.h>
#include <string.h>

#include "sim/devices/ssd_lru.h"

static uint32_t bucket_of(const struct ssd_lru *l, uint64_t key)
{
	return (uint32_t)((key * 0x9E3779B97F4A7C15ull) >> 32) & l->mask;
}

int ssd_lru_init(struct ssd_lru *l, uint32_t cap)
{
	memset(l, 0, sizeof(*l));
	uint32_t nb = 1;
	while (nb < cap && nb < (1u << 31))
		nb <<= 1;
	l->cap = cap;
	l->mask = nb - 1;
	l->bucket = calloc(nb, sizeof(*l->bucket));
	l->key = calloc((size_t)cap + 1, sizeof(*l->key));
	l->chain = calloc((size_t)cap + 1, sizeof(*l->chain));
	l->newer = calloc((size_t)cap + 1, sizeof(*l->newer));
	l->older = calloc((size_t)cap + 1, sizeof(*l->older));
	if (!l->bucket || !l->key || !l->chain || !l->newer || !l->older) {
		ssd_lru_free(l);
		return -ENOMEM;
	}
	return 0;
}

void ssd_lru_free(struct ssd_lru *l)
{
	free(l->bucket);
	free(l->key);
	free(l->chain);
	free(l->newer);
	free(l->older);
	memset(l, 0, sizeof(*l));
}

static void unlink_order(struct ssd_lru *l, uint32_t s)
{
	if (l->newer[s])
		l->older[l->newer[s]] = l->older[s];
	else
		l->mru = l->older[s];
	if (l->older[s])
		l->newer[l->older[s]] = l->newer[s];
	else
		l->lru = l->newer[s];
}

static void push_mru(struct ssd_lru *l, uint32_t s)
{
	l->newer[s] = 0;
	l->older[s] = l->mru;
	if (l->mru)
		l->newer[l->mru] = s;
	l->mru = s;
	if (!l->lru)
		l->lru = s;
}

static uint32_t find(const struct ssd_lru *l, uint64_t key)
{
	uint32_t s = l->bucket[bucket_of(l, key)];
	while (s && l->key[s] != key)
		s = l->chain[s];
	return s;
}

bool ssd_lru_touch(struct ssd_lru *l, uint64_t key)
{
	uint32_t s = find(l, key);
	if (!s)
		return false;
	if (l->mru != s) {
		unlink_order(l, s);
		push_mru(l, s);
	}
	return true;
}

/* Takes slot s out of its hash chain. */
static void unlink_hash(struct ssd_lru *l, uint32_t s)
{
	uint32_t *p = &l->bucket[bucket_of(l, l->key[s])];
	while (*p != s)
		p = &l->chain[*p];
	*p = l->chain[s];
}

void ssd_lru_put(struct ssd_lru *l, uint64_t key)
{
	if (ssd_lru_touch(l, key))
		return;
	uint32_t s;
	if (l->n < l->cap) {
		s = ++l->n;
	} else {
		s = l->lru;
		unlink_order(l, s);
		unlink_hash(l, s);
	}
	l->key[s] = key;
	uint32_t b = bucket_of(l, key);
	l->chain[s] = l->bucket[b];
	l->bucket[b] = s;
	push_mru(l, s);
}

void ssd_lru_clear(struct ssd_lru *l)
{
	memset(l->bucket, 0, ((size_t)l->mask + 1) * sizeof(*l->bucket));
	l->n = l->mru = l->lru = 0;
}
