/* ssd_ftl.c: the FTL's page-level map and its writes (ssd_ftl.h): parameter checks, static
 * allocation (MQSim's Plane_Allocation_Scheme: the order's leftmost letter varies fastest), the
 * write path (invalidate the old copy, foreground GC while the plane is at its free-block
 * limit, program at the plane's host frontier), reads, TRIM, statistics and an audit of the whole
 * state for tests. Victim choice is in ssd_ftl_gc.c, preconditioning in ssd_ftl_fill.c.
 *
 * Free blocks are kept per plane in a FIFO: an erased block goes to the tail and is written again
 * only after every other free block, which spreads erases evenly over the blocks (dynamic wear
 * levelling by rotation; ssd_ftl_stats reports the spread). */
#include <errno.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mman.h>

#include "sim/devices/ssd_ftl_impl.h"
#include "iolab/ssd_model.h"

static struct ftl_div div_of(uint32_t d)
{
	struct ftl_div r = {.d = d, .shift = 0, .pow2 = (d & (d - 1)) == 0};
	while (r.pow2 && (1u << r.shift) < d)
		r.shift++;
	return r;
}

/* The plane of each stripe position lpa mod planes: the order's letters are digits of a mixed
 * radix number, the leftmost the least significant (CWDP: channel = lpa mod channels, ...). */
static int build_stripes(struct ssd_ftl *f, struct iolab_err *err)
{
	const struct ssd_ftl_params *p = &f->p;
	unsigned radix[4] = {p->channels, p->chips, p->dies, p->planes}; /* C, W, D, P */
	static const char letters[] = "CWDP";
	int letter[4];
	bool seen[4] = {false};
	if (strlen(p->order) != 4)
		return iolab_errf(err, EINVAL, "field 'order': '%s' is not a permutation of CWDP", p->order);
	for (int i = 0; i < 4; i++) {
		const char *at = strchr(letters, p->order[i] & ~0x20);
		if (!at || seen[at - letters])
			return iolab_errf(err, EINVAL, "field 'order': '%s' is not a permutation of CWDP",
					  p->order);
		letter[i] = (int)(at - letters);
		seen[letter[i]] = true;
	}
	for (uint32_t s = 0; s < f->nplanes; s++) {
		unsigned digit[4];
		uint32_t rest = s;
		for (int i = 0; i < 4; i++) {
			digit[letter[i]] = rest % radix[letter[i]];
			rest /= radix[letter[i]];
		}
		f->stripe_plane[s] = ((digit[0] * p->chips + digit[1]) * p->dies + digit[2]) * p->planes + digit[3];
	}
	return 0;
}

int ssd_ftl_check(const struct ssd_ftl_params *p, struct iolab_err *err)
{
	static const char *const names[4] = {"channels", "chips", "dies", "planes"};
	const unsigned counts[4] = {p->channels, p->chips, p->dies, p->planes};
	uint64_t planes = 1;
	for (int i = 0; i < 4; i++) {
		if (counts[i] == 0)
			return iolab_errf(err, EINVAL, "field '%s': must be at least 1", names[i]);
		planes *= counts[i];
		if (planes > UINT32_MAX)
			return iolab_errf(err, EINVAL, "field '%s': more than %u planes in all", names[i],
					  UINT32_MAX);
	}
	if (p->pages_per_block == 0)
		return iolab_errf(err, EINVAL, "field 'pages_per_block': must be at least 1");
	if (p->gc_free_blocks == 0)
		return iolab_errf(err, EINVAL, "field 'gc_free_blocks': must be at least 1 (the block "
				  "GC writes the pages it moves to)");
	if (p->blocks_per_plane < (uint64_t)p->gc_free_blocks + 3)
		return iolab_errf(err, EINVAL, "field 'blocks_per_plane': %u leaves no room for GC: at "
				  "least gc_free_blocks + 3 = %llu (the free reserve, the host's and GC's "
				  "open blocks, one block of data)", p->blocks_per_plane,
				  (unsigned long long)p->gc_free_blocks + 3);
	/* planes and blocks_per_plane are below 2^32: their product fits, and then so does x pages */
	uint64_t blocks = planes * p->blocks_per_plane;
	if (blocks >= UINT32_MAX || blocks * p->pages_per_block >= UINT32_MAX)
		return iolab_errf(err, EINVAL, "field 'blocks_per_plane': %llu blocks of %u pages in all, "
				  "the map holds fewer than 2^32 pages", (unsigned long long)blocks,
				  p->pages_per_block);
	if (p->logical_pages == 0)
		return iolab_errf(err, EINVAL, "field 'logical_pages': must be at least 1");
	/* GC on a plane can always free a block while its valid pages fit in the blocks that are
	 * neither the free reserve nor the two open blocks, less one page (ssd_ftl_write). */
	uint64_t room = ((uint64_t)p->blocks_per_plane - p->gc_free_blocks - 2) * p->pages_per_block - 1;
	uint64_t share = (p->logical_pages + planes - 1) / planes;
	if (share > room)
		return iolab_errf(err, EINVAL, "field 'logical_pages': %llu is more than the physical "
				  "pages less the GC reserve allow: at most %llu per plane ((blocks_per_plane "
				  "- gc_free_blocks - 2) x pages_per_block - 1), %llu in all",
				  (unsigned long long)p->logical_pages, (unsigned long long)room,
				  (unsigned long long)(room * planes));
	if (p->gc_policy > IOLAB_GC_RANDOM)
		return iolab_errf(err, EINVAL, "field 'gc_policy': %u is not a GC policy", p->gc_policy);
	if (p->gc_policy == IOLAB_GC_RGA && p->rga_choices == 0)
		return iolab_errf(err, EINVAL, "field 'rga_choices': must be at least 1");
	if (p->allocation > IOLAB_ALLOC_DYNAMIC)
		return iolab_errf(err, EINVAL, "field 'allocation': %u is not an allocation", p->allocation);
	return 0;
}

/* The kernel is asked for huge pages for a map about to be written whole, or filled from its
 * start as the logical map's chunks are (a 1 TB model's map is 256 MB: 65,536 page faults on
 * 4 KiB pages, 128 on 2 MiB ones). Advice: its failure changes nothing. */
static void advise_huge(void *map, uint64_t bytes)
{
	uintptr_t huge = UINT64_C(2) << 20;
	uintptr_t from = ((uintptr_t)map + huge - 1) & ~(huge - 1);
	uintptr_t to = ((uintptr_t)map + bytes) & ~(huge - 1);
	if (to > from)
		madvise((void *)from, to - from, MADV_HUGEPAGE);
}

void ftl_reset(struct ssd_ftl *f, bool dense)
{
	if (f->l2p_used) { /* chunks were taken since the map was last clear */
		memset(f->l2p_dir, 0, f->l2p_chunks * sizeof *f->l2p_dir);
		memset(f->l2p_store, 0, f->l2p_used * L2P_CHUNK * sizeof *f->l2p_store);
		f->l2p_used = 0;
	}
	if (f->seq) /* pages were programmed since the map was last clear */
		memset(f->p2l, 0, f->physical * sizeof *f->p2l);
	if (dense) { /* every chunk is about to be taken: in order, so the store is a flat map */
		advise_huge(f->p2l, f->physical * sizeof *f->p2l);
		for (uint64_t c = 0; c < f->l2p_chunks; c++)
			f->l2p_dir[c] = (uint32_t)c + 1;
		f->l2p_used = f->l2p_chunks;
	}
	for (uint32_t i = 0; i < f->nplanes; i++) {
		struct ftl_plane *pl = &f->planes[i];
		*pl = (struct ftl_plane){
			.free_head = FTL_NIL, .free_tail = FTL_NIL, .host_blk = FTL_NIL, .gc_blk = FTL_NIL,
			.oldest = FTL_NIL, .newest = FTL_NIL, .low = f->ppb + 1,
			.bucket = &f->buckets[(uint64_t)i * (f->ppb + 1)],
		};
		for (uint32_t v = 0; v <= f->ppb; v++)
			pl->bucket[v] = FTL_NIL;
		for (uint32_t b = 0; b < f->bpp; b++) {
			uint32_t blk = i * f->bpp + b;
			f->blocks[blk] = (struct ftl_block){.plane = i};
			block_free(f, pl, blk);
		}
	}
	f->seq = 0;
	memset(&f->st, 0, sizeof f->st);
	f->st.free_min = f->bpp;
}

int ssd_ftl_new(struct ssd_ftl **out, const struct ssd_ftl_params *p, struct iolab_err *err)
{
	*out = NULL;
	int rc = ssd_ftl_check(p, err);
	if (rc)
		return rc;
	struct ssd_ftl *f = calloc(1, sizeof *f);
	if (!f)
		return iolab_errf(err, ENOMEM, "out of memory");
	f->p = *p;
	f->p.order[sizeof f->p.order - 1] = '\0';
	f->nplanes = p->channels * p->chips * p->dies * p->planes;
	f->ppb = p->pages_per_block;
	f->bpp = p->blocks_per_plane;
	f->logical = p->logical_pages;
	f->physical = (uint64_t)f->nplanes * f->bpp * f->ppb;
	f->room = ((uint64_t)f->bpp - p->gc_free_blocks - 2) * f->ppb - 1;
	f->div_ppb = div_of(f->ppb);
	f->div_planes = div_of(f->nplanes);
	iolab_prng_seed(&f->rng, p->seed);
	f->blocks = calloc((uint64_t)f->nplanes * f->bpp, sizeof *f->blocks);
	f->planes = calloc(f->nplanes, sizeof *f->planes);
	f->buckets = calloc((uint64_t)f->nplanes * (f->ppb + 1), sizeof *f->buckets);
	f->stripe_plane = calloc(f->nplanes, sizeof *f->stripe_plane);
	if (!f->blocks || !f->planes || !f->buckets || !f->stripe_plane) {
		ssd_ftl_free(f);
		return iolab_errf(err, ENOMEM, "out of memory");
	}
	advise_huge(f->blocks, (uint64_t)f->nplanes * f->bpp * sizeof *f->blocks); /* ftl_reset fills it */
	/* calloc of a large size maps fresh pages: the maps cost memory as they are written */
	f->l2p_chunks = (f->logical + L2P_CHUNK - 1) / L2P_CHUNK;
	f->l2p_dir = calloc(f->l2p_chunks, sizeof *f->l2p_dir);
	f->l2p_store = calloc(f->l2p_chunks * L2P_CHUNK, sizeof *f->l2p_store);
	f->p2l = calloc(f->physical, sizeof *f->p2l);
	if (f->l2p_dir && f->l2p_store) {
		advise_huge(f->l2p_dir, f->l2p_chunks * sizeof *f->l2p_dir);
		advise_huge(f->l2p_store, f->l2p_chunks * L2P_CHUNK * sizeof *f->l2p_store);
	}
	if (!f->l2p_dir || !f->l2p_store || !f->p2l)
		rc = iolab_errf(err, ENOMEM, "out of memory for the map of %llu logical pages",
				(unsigned long long)f->logical);
	else
		rc = build_stripes(f, err);
	if (rc) {
		ssd_ftl_free(f);
		return rc;
	}
	ftl_reset(f, false);
	*out = f;
	return 0;
}

void ssd_ftl_free(struct ssd_ftl *f)
{
	if (!f)
		return;
	free(f->l2p_dir);
	free(f->l2p_store);
	free(f->p2l);
	free(f->blocks);
	free(f->planes);
	free(f->buckets);
	free(f->stripe_plane);
	free(f);
}

uint32_t ssd_ftl_static_plane(const struct ssd_ftl *f, uint64_t lpa)
{
	return f->stripe_plane[ftl_mod(&f->div_planes, lpa)];
}

uint32_t ssd_ftl_read(const struct ssd_ftl *f, uint64_t lpa, uint32_t *page, bool *mapped)
{
	uint32_t m = lpa < f->logical ? l2p_get(f, lpa) : 0;
	*mapped = m != 0;
	if (!m) {
		*page = (uint32_t)ftl_mod(&f->div_ppb, ftl_div(&f->div_planes, lpa));
		return ssd_ftl_static_plane(f, lpa);
	}
	uint32_t ppn = m - 1;
	*page = (uint32_t)ftl_mod(&f->div_ppb, ppn);
	return f->blocks[ftl_div(&f->div_ppb, ppn)].plane;
}

/* The flash page ppn holds its logical page no more. Returns its plane. */
static uint32_t invalidate(struct ssd_ftl *f, uint32_t ppn)
{
	struct ftl_block *b = &f->blocks[ftl_div(&f->div_ppb, ppn)];
	struct ftl_plane *pl = &f->planes[b->plane];
	f->p2l[ppn] = 0;
	pl->valid--;
	if (b->state == BLK_FULL) {
		uint32_t blk = (uint32_t)(b - f->blocks);
		bucket_remove(f, pl, blk);
		b->valid--;
		bucket_insert(f, pl, blk);
	} else {
		b->valid--;
	}
	return b->plane;
}

/* A plane that can take one more valid page without leaving GC stuck: the caller's, else the
 * plane of lpa's old copy (its valid pages do not grow), else the plane with the fewest. */
static uint32_t plane_with_room(const struct ssd_ftl *f, uint32_t plane, uint32_t old_plane)
{
	if (plane == old_plane || f->planes[plane].valid < f->room)
		return plane;
	if (old_plane != FTL_NIL)
		return old_plane;
	uint32_t best = 0;
	for (uint32_t i = 1; i < f->nplanes; i++)
		if (f->planes[i].valid < f->planes[best].valid)
			best = i;
	return best;
}

uint32_t ssd_ftl_write(struct ssd_ftl *f, uint64_t lpa, uint32_t plane, uint32_t *page,
		       struct ssd_gc_work *gc)
{
	if (plane >= f->nplanes)
		plane = ssd_ftl_static_plane(f, lpa);
	uint32_t old = l2p_get(f, lpa);
	plane = plane_with_room(f, plane, old ? invalidate(f, old - 1) : FTL_NIL);
	struct ftl_plane *pl = &f->planes[plane];
	while (pl->nfree <= f->p.gc_free_blocks && ftl_gc_one(f, plane, gc))
		;
	uint32_t ppn = frontier_program(f, pl, &pl->host_blk, &pl->host_next, lpa);
	f->st.host_pages++;
	*page = (uint32_t)ftl_mod(&f->div_ppb, ppn);
	return plane;
}

bool ssd_ftl_collect(struct ssd_ftl *f, uint32_t plane, uint32_t below, struct ssd_gc_work *gc)
{
	if (plane >= f->nplanes || f->planes[plane].nfree >= below)
		return false;
	return ftl_gc_one(f, plane, gc);
}

void ssd_ftl_trim(struct ssd_ftl *f, uint64_t lpa)
{
	uint32_t m = lpa < f->logical ? l2p_get(f, lpa) : 0;
	if (!m)
		return;
	invalidate(f, m - 1);
	*l2p_slot(f, lpa) = 0;
	f->st.trims++;
}

uint32_t ssd_ftl_free_blocks(const struct ssd_ftl *f, uint32_t plane)
{
	return plane < f->nplanes ? f->planes[plane].nfree : 0;
}

uint32_t ssd_ftl_planes(const struct ssd_ftl *f)
{
	return f->nplanes;
}

void ssd_ftl_stats(const struct ssd_ftl *f, struct ssd_ftl_stats *out)
{
	*out = f->st;
	uint64_t nblocks = (uint64_t)f->nplanes * f->bpp, sum = 0;
	out->erase_min = UINT32_MAX;
	out->erase_max = 0;
	for (uint64_t i = 0; i < nblocks; i++) {
		uint32_t e = f->blocks[i].erases;
		sum += e;
		if (e < out->erase_min)
			out->erase_min = e;
		if (e > out->erase_max)
			out->erase_max = e;
	}
	out->erase_mean = (double)sum / (double)nblocks;
}

static int audit_fail(struct iolab_err *err, const char *what, uint64_t at)
{
	return iolab_errf(err, EIO, "FTL audit: %s (at %llu)", what, (unsigned long long)at);
}

int ssd_ftl_audit(const struct ssd_ftl *f, struct ssd_ftl_audit *out, struct iolab_err *err)
{
	memset(out, 0, sizeof *out);
	for (uint64_t l = 0; l < f->logical; l++) {
		uint32_t m = l2p_get(f, l);
		if (!m)
			continue;
		out->mapped++;
		if (m - 1 >= f->physical || f->p2l[m - 1] != l + 1)
			return audit_fail(err, "a mapped logical page's flash page does not map back", l);
	}
	for (uint32_t i = 0; i < f->nplanes; i++) {
		const struct ftl_plane *pl = &f->planes[i];
		uint64_t plane_valid = 0;
		uint32_t nfree = 0, nfull = 0, in_buckets = 0, in_order = 0;
		for (uint32_t b = 0; b < f->bpp; b++) {
			uint32_t blk = i * f->bpp + b;
			const struct ftl_block *bk = &f->blocks[blk];
			uint32_t valid = 0, written;
			for (uint32_t pg = 0; pg < f->ppb; pg++) {
				uint32_t l = f->p2l[(uint64_t)blk * f->ppb + pg];
				if (l && (l - 1 >= f->logical || l2p_get(f, l - 1) != (uint64_t)blk * f->ppb + pg + 1))
					return audit_fail(err, "a flash page's logical page maps elsewhere", blk);
				valid += l != 0;
			}
			if (valid != bk->valid)
				return audit_fail(err, "a block's valid count is not its mapped pages", blk);
			if (bk->plane != i)
				return audit_fail(err, "a block names another plane", blk);
			if (bk->state == BLK_FREE) {
				nfree++;
				written = 0;
				if (valid)
					return audit_fail(err, "a free block holds valid pages", blk);
			} else if (bk->state == BLK_FULL) {
				nfull++;
				written = f->ppb;
			} else if (blk == pl->host_blk) {
				written = pl->host_next;
			} else if (blk == pl->gc_blk) {
				written = pl->gc_next;
			} else {
				return audit_fail(err, "an open block is neither frontier of its plane", blk);
			}
			out->written += written;
			plane_valid += valid;
		}
		out->valid += plane_valid;
		if (plane_valid != pl->valid)
			return audit_fail(err, "a plane's valid count is not its blocks' sum", i);
		uint32_t n = 0;
		for (uint32_t blk = pl->free_head; blk != FTL_NIL; blk = f->blocks[blk].next)
			if (f->blocks[blk].state != BLK_FREE || ++n > f->bpp)
				return audit_fail(err, "a plane's free queue holds a block not free", i);
		if (n != nfree || n != pl->nfree)
			return audit_fail(err, "a plane's free count is not its free blocks", i);
		for (uint32_t v = 0; v <= f->ppb; v++)
			for (uint32_t blk = pl->bucket[v]; blk != FTL_NIL; blk = f->blocks[blk].next) {
				if (f->blocks[blk].state != BLK_FULL || f->blocks[blk].valid != v || v < pl->low)
					return audit_fail(err, "a plane's bucket holds a block of another count", i);
				if (++in_buckets > f->bpp)
					return audit_fail(err, "a plane's bucket lists loop", i);
			}
		for (uint32_t blk = pl->oldest; blk != FTL_NIL; blk = f->blocks[blk].newer)
			if (f->blocks[blk].state != BLK_FULL || ++in_order > f->bpp)
				return audit_fail(err, "a plane's fill order holds a block not full", i);
		if (in_buckets != nfull || in_order != nfull)
			return audit_fail(err, "a plane's full blocks are not all in its lists", i);
	}
	if (out->valid != out->mapped)
		return audit_fail(err, "valid flash pages are not the mapped logical pages", out->valid);
	return 0;
}
