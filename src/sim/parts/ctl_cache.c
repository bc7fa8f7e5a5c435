/* ctl_cache.c: a controller's cache of lines (ctl_cache.h): a hash from line number to line, the
 * clean list in LRU order, and a treap of the lines holding dirty blocks, ordered by address,
 * for the elevator order of destage. Lines are indices into one array, made as they are first
 * needed (the array and the hash grow by doubling); NIL ends every link. */
#include <errno.h>
#include <stdlib.h>

#include "sim/parts/ctl_cache.h"

#define NIL UINT32_MAX

/* Blocks [a, b) of a line as a mask (0 <= a < b <= 64). */
static uint64_t bits(uint64_t a, uint64_t b)
{
	return (b - a == 64 ? ~0ULL : (1ULL << (b - a)) - 1) << a;
}

/* The mask of the blocks of [lo, hi) in line t. FOR_LINES walks the lines of [lo, hi). */
static uint64_t range_mask(const struct ctl_cache *c, uint64_t t, uint64_t lo, uint64_t hi)
{
	uint64_t base = t * c->lb, a = lo > base ? lo - base : 0;
	uint64_t b = hi < base + c->lb ? hi - base : c->lb;
	return bits(a, b);
}

#define FOR_LINES(c, t, lo, hi) \
	for (uint64_t t = (lo) / (c)->lb; (hi) > (lo) && t <= ((hi) - 1) / (c)->lb; t++)

static uint32_t bucket_of(const struct ctl_cache *c, uint64_t tag)
{
	return (uint32_t)((tag * 0x9E3779B97F4A7C15ULL) >> 32) & c->mask;
}

static uint32_t find(const struct ctl_cache *c, uint64_t tag)
{
	uint32_t i = c->bucket[bucket_of(c, tag)];
	while (i != NIL && c->line[i].tag != tag)
		i = c->line[i].hnext;
	return i;
}

static void hash_remove(struct ctl_cache *c, uint32_t i)
{
	uint32_t *p = &c->bucket[bucket_of(c, c->line[i].tag)];
	while (*p != i)
		p = &c->line[*p].hnext;
	*p = c->line[i].hnext;
}

static void list_remove(struct ctl_cache *c, uint32_t i)
{
	struct ctl_line *l = &c->line[i];
	if (l->prev != NIL)
		c->line[l->prev].next = l->next;
	else
		c->mru = l->next;
	if (l->next != NIL)
		c->line[l->next].prev = l->prev;
	else
		c->lru = l->prev;
	l->clean = false;
	c->nclean--;
}

static void list_push_mru(struct ctl_cache *c, uint32_t i)
{
	struct ctl_line *l = &c->line[i];
	l->prev = NIL;
	l->next = c->mru;
	if (c->mru != NIL)
		c->line[c->mru].prev = i;
	else
		c->lru = i;
	c->mru = i;
	l->clean = true;
	c->nclean++;
}

static void to_mru(struct ctl_cache *c, uint32_t i)
{
	if (c->line[i].clean && c->mru != i) {
		list_remove(c, i);
		list_push_mru(c, i);
	}
}

/* The treap of dirty lines, by tag; a parent's priority is above its children's. */
static uint32_t rotate_right(struct ctl_cache *c, uint32_t x)
{
	uint32_t l = c->line[x].left;
	c->line[x].left = c->line[l].right;
	c->line[l].right = x;
	return l;
}

static uint32_t rotate_left(struct ctl_cache *c, uint32_t x)
{
	uint32_t r = c->line[x].right;
	c->line[x].right = c->line[r].left;
	c->line[r].left = x;
	return r;
}

static uint32_t treap_insert(struct ctl_cache *c, uint32_t root, uint32_t x)
{
	if (root == NIL) {
		c->line[x].left = c->line[x].right = NIL;
		return x;
	}
	struct ctl_line *r = &c->line[root];
	if (c->line[x].tag < r->tag) {
		r->left = treap_insert(c, r->left, x);
		if (c->line[r->left].prio > r->prio)
			return rotate_right(c, root);
	} else {
		r->right = treap_insert(c, r->right, x);
		if (c->line[r->right].prio > r->prio)
			return rotate_left(c, root);
	}
	return root;
}

static uint32_t treap_merge(struct ctl_cache *c, uint32_t a, uint32_t b)
{
	if (a == NIL)
		return b;
	if (b == NIL)
		return a;
	if (c->line[a].prio > c->line[b].prio) {
		c->line[a].right = treap_merge(c, c->line[a].right, b);
		return a;
	}
	c->line[b].left = treap_merge(c, a, c->line[b].left);
	return b;
}

static uint32_t treap_remove(struct ctl_cache *c, uint32_t root, uint64_t tag)
{
	if (root == NIL)
		return NIL;
	struct ctl_line *r = &c->line[root];
	if (tag == r->tag)
		return treap_merge(c, r->left, r->right);
	if (tag < r->tag)
		r->left = treap_remove(c, r->left, tag);
	else
		r->right = treap_remove(c, r->right, tag);
	return root;
}

/* The dirty line of the lowest tag >= tag, or NIL. */
static uint32_t treap_ceil(const struct ctl_cache *c, uint64_t tag)
{
	uint32_t best = NIL;
	for (uint32_t x = c->root; x != NIL;) {
		if (c->line[x].tag >= tag) {
			best = x;
			x = c->line[x].left;
		} else {
			x = c->line[x].right;
		}
	}
	return best;
}

static void set_dirty(struct ctl_cache *c, uint32_t i, uint64_t m)
{
	struct ctl_line *l = &c->line[i];
	bool was = l->dirty != 0;
	l->valid |= m;
	l->dirty |= m;
	if (l->clean)
		list_remove(c, i);
	if (!was)
		c->root = treap_insert(c, c->root, i);
}

static void clear_dirty(struct ctl_cache *c, uint32_t i, uint64_t m)
{
	struct ctl_line *l = &c->line[i];
	if (l->dirty && !(l->dirty &= ~m))
		c->root = treap_remove(c, c->root, l->tag);
}

/* Back on the clean list when nothing pins it. */
static void maybe_unpin(struct ctl_cache *c, uint32_t i)
{
	struct ctl_line *l = &c->line[i];
	if (!l->clean && !l->dirty && !l->flight)
		list_push_mru(c, i);
}

/* Lines not made yet: the cache's unused ones, ahead of every clean line for the taking. */
static uint64_t unmade(const struct ctl_cache *c)
{
	return c->n - c->made;
}

/* Buckets for `lines` lines: a power of two at least as many (at most 2^31). */
static uint32_t buckets_for(uint64_t lines)
{
	uint32_t nb = 1;
	while (nb < lines && nb < (1U << 31))
		nb <<= 1;
	return nb;
}

/* Doubles the hash when the lines made outgrow it: every line in use is hashed anew. */
static int grow_hash(struct ctl_cache *c)
{
	uint32_t nb = buckets_for(c->made);
	if (nb <= c->mask + 1)
		return 0;
	uint32_t *b = malloc((size_t)nb * sizeof(*b));
	if (!b)
		return -ENOMEM;
	free(c->bucket);
	c->bucket = b;
	c->mask = nb - 1;
	for (uint32_t i = 0; i < nb; i++)
		b[i] = NIL;
	for (uint32_t i = 0; i < c->made; i++)
		if (c->line[i].used) {
			uint32_t *h = &b[bucket_of(c, c->line[i].tag)];
			c->line[i].hnext = *h;
			*h = i;
		}
	return 0;
}

/* Makes the next line (unused, on the clean list at the LRU end, its treap priority the next
 * of a fixed sequence); NIL when out of memory. */
static uint32_t make_line(struct ctl_cache *c)
{
	if (c->made == c->cap) {
		uint64_t cap = c->cap ? (uint64_t)c->cap * 2 : 256;
		cap = cap < c->most ? cap : c->most;
		struct ctl_line *l = realloc(c->line, cap * sizeof(*l));
		if (!l)
			return NIL;
		c->line = l;
		c->cap = (uint32_t)cap;
	}
	uint32_t i = c->made;
	struct ctl_line *l = &c->line[i];
	*l = (struct ctl_line){.hnext = NIL, .prev = c->lru, .next = NIL, .left = NIL, .right = NIL};
	c->made++;
	if (grow_hash(c)) {
		c->made--;
		return NIL;
	}
	c->seed ^= c->seed << 13; /* xorshift64 */
	c->seed ^= c->seed >> 7;
	c->seed ^= c->seed << 17;
	l->prio = (uint32_t)(c->seed >> 32);
	if (c->lru != NIL)
		c->line[c->lru].next = i;
	else
		c->mru = i;
	c->lru = i;
	l->clean = true;
	c->nclean++;
	return i;
}

/* A line for tag: one not made yet if there is one (the unused lines are the LRU end), else
 * taken from the LRU end of the clean list; NIL if every line is pinned (or out of memory). */
static uint32_t alloc_line(struct ctl_cache *c, uint64_t tag)
{
	uint32_t i = c->made < c->most ? make_line(c) : c->lru;
	if (i == NIL && c->made < c->most)
		c->nomem = true;
	if (i == NIL)
		return NIL;
	struct ctl_line *l = &c->line[i];
	if (l->used)
		hash_remove(c, i);
	l->tag = tag;
	l->valid = l->dirty = l->flight = 0;
	l->used = true;
	uint32_t *b = &c->bucket[bucket_of(c, tag)];
	l->hnext = *b;
	*b = i;
	to_mru(c, i);
	return i;
}

uint64_t ctl_cache_max_bytes(uint64_t n, uint32_t lb, uint64_t blocks)
{
	uint64_t cover = blocks / lb + (blocks % lb != 0), most = n < cover ? n : cover;
	return most * sizeof(struct ctl_line) + (uint64_t)buckets_for(most) * sizeof(uint32_t);
}

int ctl_cache_init(struct ctl_cache *c, uint64_t n, uint32_t lb, uint64_t blocks)
{
	uint64_t cover = blocks / lb + (blocks % lb != 0), most = n < cover ? n : cover;
	if (most >= NIL)
		return -E2BIG;
	*c = (struct ctl_cache){.n = n, .most = (uint32_t)most, .lb = lb, .mru = NIL, .lru = NIL,
				.root = NIL, .seed = 0x2545F4914F6CDD1DULL};
	c->bucket = malloc(sizeof(*c->bucket));
	if (!c->bucket)
		return -ENOMEM;
	c->bucket[0] = NIL;
	return 0;
}

void ctl_cache_free(struct ctl_cache *c)
{
	free(c->line);
	free(c->bucket);
	c->line = NULL;
	c->bucket = NULL;
}

bool ctl_cache_lookup(const struct ctl_cache *c, uint64_t lo, uint64_t hi, uint64_t *first, uint64_t *last)
{
	bool all = true;
	FOR_LINES(c, t, lo, hi) {
		uint32_t i = find(c, t);
		uint64_t miss = range_mask(c, t, lo, hi) & ~(i == NIL ? 0 : c->line[i].valid);
		if (!miss)
			continue;
		if (all)
			*first = t * c->lb + (uint64_t)__builtin_ctzll(miss);
		*last = t * c->lb + 63 - (uint64_t)__builtin_clzll(miss);
		all = false;
	}
	return all;
}

void ctl_cache_touch(struct ctl_cache *c, uint64_t lo, uint64_t hi)
{
	FOR_LINES(c, t, lo, hi) {
		uint32_t i = find(c, t);
		if (i != NIL)
			to_mru(c, i);
	}
}

void ctl_cache_fill(struct ctl_cache *c, uint64_t lo, uint64_t hi)
{
	FOR_LINES(c, t, lo, hi) {
		uint32_t i = find(c, t);
		if (i == NIL && (i = alloc_line(c, t)) == NIL)
			continue;
		c->line[i].valid |= range_mask(c, t, lo, hi);
		to_mru(c, i);
	}
}

bool ctl_cache_room(const struct ctl_cache *c, uint64_t lo, uint64_t hi)
{
	uint64_t absent = 0, clean = 0;
	FOR_LINES(c, t, lo, hi) {
		uint32_t i = find(c, t);
		if (i == NIL)
			absent++;
		else if (c->line[i].clean)
			clean++;
	}
	return absent <= c->nclean + unmade(c) - clean;
}

void ctl_cache_write(struct ctl_cache *c, uint64_t lo, uint64_t hi)
{
	/* The lines present first: pinned, they cannot be taken for the absent ones. */
	FOR_LINES(c, t, lo, hi) {
		uint32_t i = find(c, t);
		if (i != NIL)
			set_dirty(c, i, range_mask(c, t, lo, hi));
	}
	FOR_LINES(c, t, lo, hi) {
		if (find(c, t) != NIL)
			continue;
		uint32_t i = alloc_line(c, t);
		if (i != NIL)
			set_dirty(c, i, range_mask(c, t, lo, hi));
	}
}

void ctl_cache_undirty(struct ctl_cache *c, uint64_t lo, uint64_t hi)
{
	FOR_LINES(c, t, lo, hi) {
		uint32_t i = find(c, t);
		if (i != NIL) {
			clear_dirty(c, i, range_mask(c, t, lo, hi));
			maybe_unpin(c, i);
		}
	}
}

void ctl_cache_discard(struct ctl_cache *c, uint64_t lo, uint64_t hi)
{
	FOR_LINES(c, t, lo, hi) {
		uint32_t i = find(c, t);
		if (i != NIL) {
			uint64_t m = range_mask(c, t, lo, hi);
			clear_dirty(c, i, m);
			c->line[i].valid &= ~m | c->line[i].flight;
			maybe_unpin(c, i);
		}
	}
}

/* The first dirty block not in flight in lines from tag `from`'s line on (at or after block
 * from in that line), up to line `upto`; UINT64_MAX if none. */
static uint64_t first_eligible(const struct ctl_cache *c, uint64_t from, uint64_t upto)
{
	uint64_t t0 = from / c->lb;
	for (uint32_t x = treap_ceil(c, t0); x != NIL && c->line[x].tag <= upto;
	     x = treap_ceil(c, c->line[x].tag + 1)) {
		const struct ctl_line *l = &c->line[x];
		uint64_t e = l->dirty & ~l->flight;
		if (l->tag == t0 && from % c->lb)
			e &= ~bits(0, from % c->lb);
		if (e)
			return l->tag * c->lb + (uint64_t)__builtin_ctzll(e);
	}
	return UINT64_MAX;
}

bool ctl_cache_destage(struct ctl_cache *c, uint64_t from, uint64_t limit, uint64_t *lo, uint64_t *hi)
{
	uint64_t start = first_eligible(c, from, UINT64_MAX);
	if (start == UINT64_MAX)
		start = first_eligible(c, 0, from / c->lb);
	if (start == UINT64_MAX)
		return false;
	uint64_t cap = (start / limit + 1) * limit, b = start;
	for (uint32_t i = find(c, start / c->lb); i != NIL && b < cap;) {
		struct ctl_line *l = &c->line[i];
		uint64_t off = b - l->tag * c->lb, e = (l->dirty & ~l->flight) >> off;
		uint64_t len = ~e ? (uint64_t)__builtin_ctzll(~e) : 64 - off;
		if (len > c->lb - off)
			len = c->lb - off;
		if (b + len > cap)
			len = cap - b;
		if (!len)
			break;
		uint64_t m = bits(off, off + len);
		l->flight |= m;
		clear_dirty(c, i, m);
		b += len;
		if (off + len < c->lb) /* the run ends inside this line */
			break;
		i = find(c, l->tag + 1);
	}
	*lo = start;
	*hi = b;
	return true;
}

void ctl_cache_destaged(struct ctl_cache *c, uint64_t lo, uint64_t hi)
{
	FOR_LINES(c, t, lo, hi) {
		uint32_t i = find(c, t);
		if (i != NIL) {
			c->line[i].flight &= ~range_mask(c, t, lo, hi);
			maybe_unpin(c, i);
		}
	}
}

uint32_t ctl_cache_pinned(const struct ctl_cache *c)
{
	return c->made - c->nclean;
}

uint64_t ctl_cache_dirty_blocks(const struct ctl_cache *c)
{
	uint64_t n = 0;
	for (uint32_t i = 0; i < c->made; i++)
		n += (uint64_t)__builtin_popcountll(c->line[i].dirty | c->line[i].flight);
	return n;
}
