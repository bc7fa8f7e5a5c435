/* ssd_ftl_impl.h: the FTL's state, shared by its files (ssd_ftl.c: map, writes, TRIM, stats;
 * ssd_ftl_gc.c: victim choice and collection; ssd_ftl_fill.c: preconditioning), and the few
 * operations on blocks they all use. Not an interface: only the FTL's own files include it.
 *
 * Flash pages are numbered plane-major: ppn = (plane x blocks_per_plane + block) x
 * pages_per_block + page, so a block's global number is ppn / pages_per_block and its pages are
 * contiguous in p2l. */
#ifndef IOLAB_SSD_FTL_IMPL_H
#define IOLAB_SSD_FTL_IMPL_H

#include <stdint.h>

#include "iolab/prng.h"
#include "sim/devices/ssd_ftl.h"

#define FTL_NIL UINT32_MAX

enum ftl_block_state { BLK_FREE = 0, BLK_OPEN, BLK_FULL };

struct ftl_block {
	uint32_t valid;            /* pages holding a mapped logical page */
	uint32_t erases;
	uint32_t plane;
	uint32_t prev, next;       /* FULL: its plane's bucket of blocks with this valid count;
				      FREE: its plane's free queue */
	uint32_t older, newer;     /* FULL: its plane's blocks in the order they filled (FIFO) */
	uint64_t seq;              /* the FTL's page-program count at its last program */
	uint8_t state;             /* enum ftl_block_state */
};

struct ftl_plane {
	uint32_t free_head, free_tail, nfree; /* free blocks: a FIFO (erased blocks at its tail) */
	uint32_t host_blk, host_next;         /* host writes' open block and its next page */
	uint32_t gc_blk, gc_next;             /* GC's open block (moved pages) and its next page */
	uint32_t oldest, newest;              /* full blocks in the order they filled */
	uint32_t low;                         /* no bucket below this one holds a block */
	uint32_t *bucket;                     /* pages_per_block + 1 heads: full blocks by valid */
	uint64_t valid;                       /* pages of the plane holding mapped pages */
};

/* x / d and x % d by a shift and a mask when d is a power of two. */
struct ftl_div {
	uint32_t d, shift;
	bool pow2;
};

struct ssd_ftl {
	struct ssd_ftl_params p;
	uint32_t nplanes, ppb, bpp;       /* planes, pages per block, blocks per plane */
	uint64_t logical, physical;       /* pages */
	uint64_t room;                    /* most valid pages a plane may hold: GC can always free
					     a block (ssd_ftl_new) */
	struct ftl_div div_ppb, div_planes;
	/* The map from logical pages, in chunks of L2P_CHUNK: a chunk takes memory when a page of it
	 * is first written, so that a large drive written in a few places (or read where it was never
	 * written) costs little memory and few page faults; l2p_get and l2p_slot. */
	uint32_t *l2p_dir;                /* per chunk: 0 none yet, else its index in l2p_store + 1 */
	uint32_t *l2p_store;              /* the chunks, in the order they were first written; each
					     entry 0 unmapped, else ppn + 1 */
	uint64_t l2p_chunks, l2p_used;    /* chunks of the drive; chunks taken from l2p_store */
	uint32_t *p2l;                    /* per flash page: 0 invalid, else lpa + 1 */
	struct ftl_block *blocks;         /* nplanes x bpp */
	struct ftl_plane *planes;
	uint32_t *buckets;                /* nplanes x (ppb + 1) */
	uint32_t *stripe_plane;           /* lpa mod nplanes -> plane (static allocation) */
	uint64_t seq;                     /* pages programmed since the last ftl_reset */
	struct iolab_prng rng;
	struct ssd_ftl_stats st;
};

#define L2P_SHIFT 4
#define L2P_CHUNK (1u << L2P_SHIFT) /* 16 entries: 64 bytes, a cache line */

/* lpa's entry: 0 unmapped, else ppn + 1. lpa below logical. */
static inline uint32_t l2p_get(const struct ssd_ftl *f, uint64_t lpa)
{
	uint32_t c = f->l2p_dir[lpa >> L2P_SHIFT];
	return c ? f->l2p_store[((uint64_t)(c - 1) << L2P_SHIFT) | (lpa & (L2P_CHUNK - 1))] : 0;
}

/* lpa's entry to write: its chunk is taken from the store if it has none (the store's unused
 * chunks are zero: fresh memory, or cleared by ftl_reset). */
static inline uint32_t *l2p_slot(struct ssd_ftl *f, uint64_t lpa)
{
	uint32_t *c = &f->l2p_dir[lpa >> L2P_SHIFT];
	if (!*c)
		*c = (uint32_t)++f->l2p_used;
	return &f->l2p_store[((uint64_t)(*c - 1) << L2P_SHIFT) | (lpa & (L2P_CHUNK - 1))];
}

static inline uint64_t ftl_div(const struct ftl_div *d, uint64_t x)
{
	return d->pow2 ? x >> d->shift : x / d->d;
}

static inline uint64_t ftl_mod(const struct ftl_div *d, uint64_t x)
{
	return d->pow2 ? x & (d->d - 1) : x % d->d;
}

static inline void bucket_insert(struct ssd_ftl *f, struct ftl_plane *pl, uint32_t blk)
{
	struct ftl_block *b = &f->blocks[blk];
	uint32_t head = pl->bucket[b->valid];
	b->prev = FTL_NIL;
	b->next = head;
	if (head != FTL_NIL)
		f->blocks[head].prev = blk;
	pl->bucket[b->valid] = blk;
	if (b->valid < pl->low)
		pl->low = b->valid;
}

static inline void bucket_remove(struct ssd_ftl *f, struct ftl_plane *pl, uint32_t blk)
{
	struct ftl_block *b = &f->blocks[blk];
	if (b->prev != FTL_NIL)
		f->blocks[b->prev].next = b->next;
	else
		pl->bucket[b->valid] = b->next;
	if (b->next != FTL_NIL)
		f->blocks[b->next].prev = b->prev;
}

/* A full block joins its bucket and the tail of the fill order. */
static inline void block_close(struct ssd_ftl *f, struct ftl_plane *pl, uint32_t blk)
{
	struct ftl_block *b = &f->blocks[blk];
	b->state = BLK_FULL;
	bucket_insert(f, pl, blk);
	b->older = pl->newest;
	b->newer = FTL_NIL;
	if (pl->newest != FTL_NIL)
		f->blocks[pl->newest].newer = blk;
	else
		pl->oldest = blk;
	pl->newest = blk;
}

/* The head of the plane's free queue, opened for writing. The caller has made sure there is one. */
static inline uint32_t block_take(struct ssd_ftl *f, struct ftl_plane *pl)
{
	uint32_t blk = pl->free_head;
	struct ftl_block *b = &f->blocks[blk];
	pl->free_head = b->next;
	if (pl->free_head == FTL_NIL)
		pl->free_tail = FTL_NIL;
	pl->nfree--;
	if (pl->nfree < f->st.free_min)
		f->st.free_min = pl->nfree;
	b->state = BLK_OPEN;
	b->valid = 0;
	return blk;
}

static inline void block_free(struct ssd_ftl *f, struct ftl_plane *pl, uint32_t blk)
{
	struct ftl_block *b = &f->blocks[blk];
	b->state = BLK_FREE;
	b->valid = 0;
	b->next = FTL_NIL;
	if (pl->free_tail != FTL_NIL)
		f->blocks[pl->free_tail].next = blk;
	else
		pl->free_head = blk;
	pl->free_tail = blk;
	pl->nfree++;
}

/* Programs lpa into the next page of an open block (*blk, *next; a new one from the free queue
 * when there is none) and maps it there; closes the block when it is full. Returns the ppn. */
static inline uint32_t frontier_program(struct ssd_ftl *f, struct ftl_plane *pl, uint32_t *blk,
					uint32_t *next, uint64_t lpa)
{
	if (*blk == FTL_NIL) {
		*blk = block_take(f, pl);
		*next = 0;
	}
	struct ftl_block *b = &f->blocks[*blk];
	uint32_t ppn = *blk * f->ppb + *next;
	f->p2l[ppn] = (uint32_t)lpa + 1;
	*l2p_slot(f, lpa) = ppn + 1;
	b->valid++;
	b->seq = ++f->seq;
	pl->valid++;
	if (++*next == f->ppb) {
		block_close(f, pl, *blk);
		*blk = FTL_NIL;
	}
	return ppn;
}

/* Every block free and never erased, nothing mapped, counters at 0 (ssd_ftl.c). The maps are
 * zeroed in place if anything was programmed since they were last clear (cheaper than freeing
 * them and faulting fresh pages in again); dense: they are about to be filled whole, and the
 * logical map's chunks are all taken in order (chunk c the store's c-th: l2p_store[lpa] is lpa's
 * entry, which preconditioning writes directly). */
void ftl_reset(struct ssd_ftl *f, bool dense);
/* Collects one victim of plane (ssd_ftl_gc.c): false when no full block holds an invalid page. */
bool ftl_gc_one(struct ssd_ftl *f, uint32_t plane, struct ssd_gc_work *gc);

#endif
