/* ssd_ftl_fill.c: preconditioning (ssd_ftl_precondition): the FTL's state after a sequential
 * fill, or after a sequential fill and enough uniform random overwrites for GC to reach its steady
 * state, built directly in one pass over the map rather than by replaying the writes (as MQSim
 * does, ssd/FTL.cpp: a steady-state distribution of valid pages per block, then the map).
 *
 * Steady state. Under uniform random writes with LRW (FIFO) cleaning, a page written τ page
 * programs ago is still valid with probability e^{-τ/U'} for a plane holding U' logical pages, and
 * the blocks in use were filled at ages spread evenly over one cycle of the log; so a block's
 * valid fraction v has ln v uniform on [ln X, 0], X the fraction a block still holds when it is
 * cleaned. The mean of v over the blocks, (1 - X) / (-ln X), must be the plane's valid pages over
 * the pages of its full blocks; X is solved from that (bisection), which is Desnoyers' X = e^{-α(1
 * - X)} with α the plane's own ratio (Desnoyers, "Analytic modeling of SSD write performance",
 * SYSTOR 2012). Greedy's state converges to LRW's as pages per block grow (each block's valid count
 * is then close to its mean, so the oldest is also the emptiest), and this is used for every
 * policy: cost-benefit and RGA settle near it, and random GC, whose victim is any full block,
 * collects the mean valid fraction whatever the spread, so its WA is right from the first write.
 *
 * Layout per plane: blocks 0 .. K-1 full, oldest first (block i's valid pages are its first
 * pages), then the host's open block, partly written (all valid: the newest data), and GC's, as
 * full as GC's bursts leave it (gc_frontier_written), then gc_free_blocks + 1 free blocks, the
 * state GC leaves after a write. The plane's logical pages go
 * to its valid slots in the order of a Weyl sequence (k -> k x a mod n, a near n times the golden
 * ratio, coprime to n: a permutation that scatters neighbouring logical pages evenly over the
 * blocks, with an addition and a compare per page instead of a random draw). */
#include <errno.h>
#include <math.h>
#include <stdlib.h>

#include "iolab/ssd_model.h"
#include "sim/devices/ssd_ftl_impl.h"

static void fill_sequential(struct ssd_ftl *f)
{
	for (uint64_t lpa = 0; lpa < f->logical; lpa++) {
		struct ftl_plane *pl = &f->planes[ssd_ftl_static_plane(f, lpa)];
		frontier_program(f, pl, &pl->host_blk, &pl->host_next, lpa);
	}
}

/* X in (0, 1) with (1 - X) / (-ln X) = mean, mean in (0, 1). */
static double cleaned_fraction(double mean)
{
	double lo = 0, hi = 1;
	for (int i = 0; i < 100; i++) {
		double x = (lo + hi) / 2;
		if ((1 - x) / -log(x) < mean)
			lo = x;
		else
			hi = x;
	}
	return (lo + hi) / 2;
}

/* Valid pages of each of the k full blocks (oldest first), summing to s <= k x ppb. */
static void valid_counts(uint32_t *count, uint32_t k, uint32_t ppb, uint64_t s)
{
	if (k == 0)
		return;
	double mean = (double)s / ((double)k * ppb);
	double lnx = mean >= 1 ? 0 : mean <= 0 ? -1e9 : log(cleaned_fraction(mean));
	double sum = 0;
	for (uint32_t i = 0; i < k; i++)
		sum += exp(lnx * (1 - (i + 0.5) / k));
	double scale = sum > 0 ? (double)s / sum : 0, carry = 0;
	uint64_t given = 0;
	for (uint32_t i = 0; i < k; i++) {
		double want = exp(lnx * (1 - (i + 0.5) / k)) * scale + carry;
		double c = floor(want + 0.5);
		if (c < 0)
			c = 0;
		if (c > ppb)
			c = ppb;
		count[i] = (uint32_t)c;
		carry = want - c;
		given += count[i];
	}
	/* rounding and the cap leave a few pages over or short: from the newest blocks */
	for (uint32_t i = k; given < s && i-- > 0;)
		while (given < s && count[i] < ppb) {
			count[i]++;
			given++;
		}
	for (uint32_t i = k; given > s && i-- > 0;)
		while (given > s && count[i] > 0) {
			count[i]--;
			given--;
		}
}

/* The pages GC's open block holds at steady state, n logical pages on the plane's k full blocks.
 * GC runs when the host takes a block and collects until a block is gained: v victims of about
 * m valid pages each move m v pages onto its frontier, which takes a block each time it fills, so
 * the burst stops at the first v with (ppb - m) v greater than the frontier's start g, and leaves
 * it at g + m v - ppb (v - 1) = ppb - r, r = (ppb - m) v - g in (0, ppb - m]. Between bursts the
 * frontier rests there: nearly full, not anywhere in its block. (A frontier drawn at random would
 * make the first burst after preconditioning shorter by half a block's worth of victims on
 * average: a run of a few blocks a plane would see WA too low.) m is the valid pages of a victim:
 * the fraction X of a cleaned block (cleaned_fraction) for the policies that pick the emptiest
 * or the oldest, the mean of the full blocks for random GC. */
static uint64_t gc_frontier_written(struct ssd_ftl *f, uint64_t n, uint32_t k)
{
	uint32_t ppb = f->ppb;
	double mean = k ? (double)n / ((double)k * ppb) : 1;
	double victim = mean >= 1 ? 1 : f->p.gc_policy == IOLAB_GC_RANDOM ? mean : cleaned_fraction(mean);
	uint32_t m = (uint32_t)(victim * ppb + 0.5);
	uint32_t span = m < ppb ? ppb - m : 1; /* r's values */
	return ppb - 1 - iolab_prng_below32(iolab_prng_next(&f->rng), span);
}

/* One plane: stripe is the position of its logical pages (stripe + k x planes, k < n). */
static void fill_steady_plane(struct ssd_ftl *f, uint32_t plane, uint32_t stripe, uint32_t *count)
{
	struct ftl_plane *pl = &f->planes[plane];
	uint64_t n = f->logical > stripe ? (f->logical - stripe - 1) / f->nplanes + 1 : 0;
	uint32_t ppb = f->ppb, k = f->bpp - f->p.gc_free_blocks - 3;
	uint64_t host = iolab_prng_below32(iolab_prng_next(&f->rng), ppb);
	uint64_t gcw = gc_frontier_written(f, n, k);
	/* the open blocks hold what the full blocks cannot (less than a block: ssd_ftl_new's room),
	 * and no more than the plane's pages */
	uint64_t over = n > (uint64_t)k * ppb ? n - (uint64_t)k * ppb : 0;
	if (host + gcw < over)
		host = over - gcw;
	if (host + gcw > n) {
		host = host < n ? host : n;
		gcw = n - host;
	}
	valid_counts(count, k, ppb, n - host - gcw);

	uint64_t step = n > 1 ? (uint64_t)((double)n * 0.6180339887498949) : 1, at = 0;
	while (n > 1 && iolab_gcd64(step, n) != 1)
		step++;
	if (n)
		at = iolab_prng_below(&f->rng, n);
	uint32_t base = plane * f->bpp;
	/* pages programmed per block, for the fill order: a block's seq is its last program */
	for (uint32_t b = 0; b < k + 2; b++) {
		uint32_t blk = base + b, written, valid;
		struct ftl_block *bk = &f->blocks[blk];
		/* out of the free queue: the blocks are taken in order from its head */
		block_take(f, pl);
		if (b < k) {
			written = ppb;
			valid = count[b];
		} else {
			written = valid = (uint32_t)(b == k ? host : gcw);
		}
		uint32_t *slot = &f->p2l[(uint64_t)blk * ppb];
		for (uint32_t i = 0; i < valid; i++) {
			uint64_t lpa = stripe + at * f->nplanes;
			slot[i] = (uint32_t)lpa + 1;
			f->l2p_store[lpa] = (uint32_t)((uint64_t)blk * ppb + i + 1); /* flat: ftl_reset */
			at += step;
			if (at >= n)
				at -= n;
		}
		bk->valid = valid;
		f->seq += written;
		bk->seq = f->seq;
		pl->valid += valid;
		if (b < k) {
			block_close(f, pl, blk);
		} else if (b == k) {
			pl->host_blk = blk;
			pl->host_next = written;
		} else {
			pl->gc_blk = blk;
			pl->gc_next = written;
		}
	}
}

static int fill_steady(struct ssd_ftl *f)
{
	uint32_t *count = malloc(sizeof *count * f->bpp);
	if (!count)
		return -ENOMEM;
	for (uint32_t s = 0; s < f->nplanes; s++)
		fill_steady_plane(f, f->stripe_plane[s], s, count);
	free(count);
	return 0;
}

int ssd_ftl_precondition(struct ssd_ftl *f, enum ssd_fill fill)
{
	ftl_reset(f, true);
	if (fill == SSD_FILL_SEQUENTIAL)
		fill_sequential(f);
	else if (fill_steady(f))
		return -ENOMEM;
	uint32_t free_min = f->bpp;
	for (uint32_t i = 0; i < f->nplanes; i++)
		if (f->planes[i].nfree < free_min)
			free_min = f->planes[i].nfree;
	f->st = (struct ssd_ftl_stats){.free_min = free_min};
	return 0;
}
