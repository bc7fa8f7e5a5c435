/* ssd_ftl.h: the flash translation layer of the simulated SSD, without time: a page-level map
 * from logical pages (LPAs) to flash pages, the blocks of every plane (free, open, full; valid
 * pages; erase counts), allocation of written pages to planes, garbage collection (victim
 * choice by policy, the pages it moves, the erases), TRIM, and preconditioning. dev_ssd.c puts
 * time on what it reports: which plane a page is read from or written to, and the GC work a
 * write or an idle die causes.
 *
 * Planes are numbered channel-major: plane index = ((channel x chips + chip) x dies + die) x
 * planes + plane, so die = index / planes and channel = die / (chips x dies). */
#ifndef IOLAB_SSD_FTL_H
#define IOLAB_SSD_FTL_H

#include <stdbool.h>
#include <stdint.h>

#include "iolab/error.h"

struct ssd_ftl;

struct ssd_ftl_params {
	unsigned channels, chips, dies, planes; /* chips per channel, dies per chip, planes per die */
	uint32_t blocks_per_plane, pages_per_block;
	uint64_t logical_pages;     /* fewer than the physical pages less the GC reserve */
	unsigned gc_policy;         /* enum iolab_gc_policy (ssd_model.h) */
	unsigned rga_choices;       /* IOLAB_GC_RGA's sample size */
	uint32_t gc_free_blocks;    /* a write first collects while its plane has this many free
				       blocks or fewer (at least 1: the frontier's next block) */
	unsigned allocation;        /* enum iolab_ssd_alloc */
	char order[5];              /* static allocation: a permutation of "CWDP", leftmost fastest */
	uint64_t seed;              /* of the random choices (RGA, random, preconditioning) */
};

/* The GC work done on one plane: valid pages moved (each one page read and one page program
 * on that plane's die) and blocks erased. */
struct ssd_gc_work {
	uint32_t moved, erased;
};

struct ssd_ftl_stats {
	uint64_t host_pages;        /* pages written by the host */
	uint64_t gc_pages;          /* pages moved by GC */
	uint64_t erases;
	uint64_t trims;             /* mapped pages TRIM made invalid */
	uint64_t victims;           /* blocks GC collected */
	uint64_t victim_valid;      /* valid pages they held, together */
	uint32_t erase_min, erase_max; /* erase counts over all blocks */
	double erase_mean;
	uint32_t free_min;          /* the fewest free blocks any plane had */
};

/* A new FTL of p, every page free and nothing mapped. Memory for the map grows with the pages
 * written. Returns 0, -EINVAL (err: "field 'NAME': ...") or -ENOMEM. */
int ssd_ftl_new(struct ssd_ftl **out, const struct ssd_ftl_params *p, struct iolab_err *err);
/* What ssd_ftl_new would refuse in p, without building it: 0 or -EINVAL (err as above). */
int ssd_ftl_check(const struct ssd_ftl_params *p, struct iolab_err *err);
void ssd_ftl_free(struct ssd_ftl *f);

/* The plane a read of lpa goes to, and the page's index in its block (for the cell's LSB/CSB/MSB
 * latency). A page never written (or trimmed) reads from the plane static allocation gives it,
 * as if the drive had been written once in order; *mapped says which. */
uint32_t ssd_ftl_read(const struct ssd_ftl *f, uint64_t lpa, uint32_t *page, bool *mapped);
/* The plane static allocation gives lpa. */
uint32_t ssd_ftl_static_plane(const struct ssd_ftl *f, uint64_t lpa);
/* Writes lpa (below logical_pages) to plane (UINT32_MAX: the plane allocation gives it; for
 * DYNAMIC the caller names the plane, else the static one is taken) and invalidates its old
 * copy. When the plane's free blocks are at the GC limit, GC collects victims on it first: their
 * work is added to *gc. Never fails. Returns the plane written; *page: the page's index in its
 * block. The plane is the one asked for unless that plane already holds all the valid pages GC
 * can keep room for (only a dynamic allocation that piles onto one plane gets there): then the
 * plane of lpa's old copy, else the plane holding the fewest valid pages. */
uint32_t ssd_ftl_write(struct ssd_ftl *f, uint64_t lpa, uint32_t plane, uint32_t *page,
		       struct ssd_gc_work *gc);
/* Background GC: collects one victim on plane if it has fewer than below free blocks. Returns
 * true and adds the work to *gc if it did. */
bool ssd_ftl_collect(struct ssd_ftl *f, uint32_t plane, uint32_t below, struct ssd_gc_work *gc);
/* TRIM: lpa no longer holds data; its flash page becomes invalid. */
void ssd_ftl_trim(struct ssd_ftl *f, uint64_t lpa);
uint32_t ssd_ftl_free_blocks(const struct ssd_ftl *f, uint32_t plane);
uint32_t ssd_ftl_planes(const struct ssd_ftl *f);

enum ssd_fill {
	SSD_FILL_SEQUENTIAL, /* every logical page written once, in order */
	SSD_FILL_STEADY,     /* then overwritten at random until GC is at its steady state (SNIA
				PTS's workload-independent preconditioning): built directly, each
				plane's blocks holding valid pages as the policy's steady state has
				them, not by replaying the writes */
};
/* Puts the FTL in the state after fill, from any state; counters start again from 0. Takes
 * seconds for a 1 TB model. Returns 0 or -ENOMEM. */
int ssd_ftl_precondition(struct ssd_ftl *f, enum ssd_fill fill);
void ssd_ftl_stats(const struct ssd_ftl *f, struct ssd_ftl_stats *out);

/* A check of the whole state, for tests: the map both ways, every block's valid count, every
 * plane's free queue, buckets and fill order. Fills *out; returns 0, or -EIO with err naming the
 * first inconsistency. Reads every page: slow on a large model. */
struct ssd_ftl_audit {
	uint64_t mapped;            /* logical pages mapped */
	uint64_t valid;             /* flash pages holding one */
	uint64_t written;           /* flash pages programmed since their block's last erase */
};
int ssd_ftl_audit(const struct ssd_ftl *f, struct ssd_ftl_audit *out, struct iolab_err *err);

#endif
