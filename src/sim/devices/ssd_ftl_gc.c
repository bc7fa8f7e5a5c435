/* ssd_ftl_gc.c: garbage collection on one plane: the victim each policy (ssd_model.h, enum
 * iolab_gc_policy) picks among the plane's full blocks, and its collection: every valid page moved
 * to the plane's GC frontier (an open block of its own, apart from the host's, as MQSim keeps
 * separate write frontiers for user and GC data: Flash_Block_Manager_Base.cpp), then the block
 * erased and put at the tail of the free queue.
 *
 * A block with no invalid page is never collected (it would cost a block's programs and free
 * nothing; MQSim skips such victims too). Greedy finds the fewest-valid block through buckets of
 * full blocks by valid count, each an intrusive doubly linked list, with the lowest bucket that
 * may hold one as a hint (raised only here, lowered on every invalidation): O(1) amortised. */
#include "sim/devices/ssd_ftl_impl.h"
#include "iolab/ssd_model.h"

/* Random draws of a full block with an invalid page before falling back to greedy (blocks that
 * are all valid or not full are drawn again; in steady state nearly every draw is taken). */
#define RANDOM_TRIES 32

static uint32_t victim_greedy(struct ssd_ftl *f, struct ftl_plane *pl)
{
	while (pl->low < f->ppb && pl->bucket[pl->low] == FTL_NIL)
		pl->low++;
	return pl->low < f->ppb ? pl->bucket[pl->low] : FTL_NIL;
}

/* Desnoyers' LRW: the block that filled longest ago (the first with an invalid page). */
static uint32_t victim_fifo(struct ssd_ftl *f, struct ftl_plane *pl)
{
	for (uint32_t blk = pl->oldest; blk != FTL_NIL; blk = f->blocks[blk].newer)
		if (f->blocks[blk].valid < f->ppb)
			return blk;
	return FTL_NIL;
}

/* The most (1 - u) x age / 2u, u the block's valid fraction, age the programs since its last one:
 * Rosenblum & Ousterhout's cost-benefit cleaning ("The design and implementation of a
 * log-structured file system", SOSP 1991) with a flash block's cost, 2u (read and program what is
 * valid; no segment read), as Kawaguchi, Nishioka & Motoda use it ("A flash-memory based file
 * system", USENIX 1995). A block with no valid page costs nothing and is taken at once. */
static uint32_t victim_cost_benefit(struct ssd_ftl *f, struct ftl_plane *pl, uint32_t plane)
{
	if (pl->bucket[0] != FTL_NIL)
		return pl->bucket[0];
	uint32_t best = FTL_NIL;
	double best_score = -1;
	const struct ftl_block *b = &f->blocks[(uint64_t)plane * f->bpp];
	for (uint32_t i = 0; i < f->bpp; i++) {
		if (b[i].state != BLK_FULL || b[i].valid == f->ppb)
			continue;
		double score = (double)(f->ppb - b[i].valid) * (double)(f->seq - b[i].seq) / b[i].valid;
		if (score > best_score) {
			best_score = score;
			best = plane * f->bpp + i;
		}
	}
	return best;
}

/* A full block of plane holding an invalid page, drawn at random (blocks that are not are drawn
 * again, RANDOM_TRIES times at most); FTL_NIL if none was found. */
static uint32_t random_victim(struct ssd_ftl *f, uint32_t plane)
{
	for (unsigned tries = 0; tries < RANDOM_TRIES; tries++) {
		uint32_t blk = plane * f->bpp + iolab_prng_below32(iolab_prng_next(&f->rng), f->bpp);
		if (f->blocks[blk].state == BLK_FULL && f->blocks[blk].valid < f->ppb)
			return blk;
	}
	return FTL_NIL;
}

/* Van Houdt's d-choices ("A mean field model for a class of garbage collection algorithms in
 * flash-based solid state drives", SIGMETRICS 2013; MQSim's RGA): the fewest valid of
 * rga_choices random full blocks. */
static uint32_t victim_rga(struct ssd_ftl *f, uint32_t plane)
{
	uint32_t best = FTL_NIL;
	for (unsigned i = 0; i < f->p.rga_choices; i++) {
		uint32_t blk = random_victim(f, plane);
		if (blk == FTL_NIL)
			break;
		if (best == FTL_NIL || f->blocks[blk].valid < f->blocks[best].valid)
			best = blk;
	}
	return best;
}

static uint32_t pick_victim(struct ssd_ftl *f, uint32_t plane)
{
	struct ftl_plane *pl = &f->planes[plane];
	uint32_t blk = FTL_NIL;
	switch (f->p.gc_policy) {
	case IOLAB_GC_FIFO:
		blk = victim_fifo(f, pl);
		break;
	case IOLAB_GC_COST_BENEFIT:
		blk = victim_cost_benefit(f, pl, plane);
		break;
	case IOLAB_GC_RGA:
		blk = victim_rga(f, plane);
		break;
	case IOLAB_GC_RANDOM:
		blk = random_victim(f, plane);
		break;
	default:
		break;
	}
	return blk != FTL_NIL ? blk : victim_greedy(f, pl);
}

bool ftl_gc_one(struct ssd_ftl *f, uint32_t plane, struct ssd_gc_work *gc)
{
	uint32_t blk = pick_victim(f, plane);
	if (blk == FTL_NIL)
		return false;
	struct ftl_plane *pl = &f->planes[plane];
	struct ftl_block *b = &f->blocks[blk];
	bucket_remove(f, pl, blk);
	if (b->older != FTL_NIL)
		f->blocks[b->older].newer = b->newer;
	else
		pl->oldest = b->newer;
	if (b->newer != FTL_NIL)
		f->blocks[b->newer].older = b->older;
	else
		pl->newest = b->older;
	uint32_t moved = b->valid;
	uint32_t *page = &f->p2l[(uint64_t)blk * f->ppb];
	for (uint32_t i = 0, left = moved; left; i++) {
		if (!page[i])
			continue;
		uint32_t lpa = page[i] - 1;
		page[i] = 0;
		pl->valid--;
		frontier_program(f, pl, &pl->gc_blk, &pl->gc_next, lpa);
		left--;
	}
	b->erases++;
	block_free(f, pl, blk);
	f->st.gc_pages += moved;
	f->st.erases++;
	f->st.victims++;
	f->st.victim_valid += moved;
	gc->moved += moved;
	gc->erased++;
	return true;
}
