/* workload.h: what to issue. Access specifications (IOMeter style), the built-in patterns,
 * offset distributions, and the request generator that turns them into a stream of requests.
 *
 * The generator knows nothing of engines, files or clocks: it yields (target, offset, length,
 * op) tuples, so the same stream can drive a real device or a simulated one.
 */
#ifndef IOLAB_WORKLOAD_H
#define IOLAB_WORKLOAD_H

#include <stdbool.h>
#include <stdint.h>

#include "iolab/error.h"
#include "iolab/prng.h"

/* IOLAB_OP_TRIM: the range's data is no longer needed (fio's ddir trim). Only the simulator
 * issues it; results count trims apart from reads and writes (dir[] holds those two). */
enum iolab_op { IOLAB_OP_READ = 0, IOLAB_OP_WRITE = 1, IOLAB_OP_TRIM = 2 };

#define IOLAB_SPEC_LINES 32
#define IOLAB_NAME_MAX 64

/* One line of an access specification. */
struct iolab_spec_line {
	uint64_t size;       /* transfer size, bytes */
	unsigned share;      /* % of the I/Os that use this line */
	unsigned read_pct;   /* % of this line's I/Os that are reads */
	unsigned random_pct; /* % that go to a random offset; the rest continue sequentially */
	uint64_t align;      /* offsets are multiples of this (bytes); 0 = the transfer size */
};

/* An access specification: a named list of lines whose shares sum to 100. */
struct iolab_spec {
	char name[IOLAB_NAME_MAX];
	const char *about; /* one-line description (built-ins only; may be NULL) */
	unsigned nlines;
	struct iolab_spec_line line[IOLAB_SPEC_LINES];
	bool copy; /* file-copy pattern: alternate reads of the region's first half with writes to
		      its second half, one worker, queue depth 1 */
	bool trimwrite; /* fio's rw=trimwrite / randtrimwrite: each write is preceded by a trim of
			   the same blocks (reads, if any, stay as they are) */
	uint64_t trim_size; /* trimwrite: bytes trimmed at a time (fio's third bs, --trim-bs), a
			       multiple of every line's size: a trim of trim_size, then writes of
			       the line's size filling it; 0: each write's own blocks */
};

/* The built-in patterns, in the order `iolab patterns` lists them. */
unsigned iolab_pattern_count(void);
const struct iolab_spec *iolab_pattern_at(unsigned i);
/* Returns the built-in pattern called name, or NULL. */
const struct iolab_spec *iolab_pattern_find(const char *name);

/* Checks there is at least one line, shares sum to 100, sizes and alignments are non-zero,
 * and percentages are at most 100. Returns 0 or -EINVAL naming the line and field. */
int iolab_spec_validate(const struct iolab_spec *spec, struct iolab_err *err);
/* Replaces the size mix with the single size bs (aligned to bs), keeping the mix's overall
 * read and random shares. */
void iolab_spec_set_bs(struct iolab_spec *spec, uint64_t bs);
/* Replaces every line's read percentage. */
void iolab_spec_set_read(struct iolab_spec *spec, unsigned read_pct);
/* True when some line has read_pct < 100 (the spec writes). */
bool iolab_spec_writes(const struct iolab_spec *spec);
bool iolab_spec_reads(const struct iolab_spec *spec);
uint64_t iolab_spec_max_size(const struct iolab_spec *spec);
/* Share of the I/Os that are reads, in % (share-weighted over the lines). */
double iolab_spec_read_share(const struct iolab_spec *spec);

/* Where random offsets fall inside the region. */
enum iolab_dist_kind {
	IOLAB_DIST_UNIFORM = 0,
	IOLAB_DIST_ZIPF,    /* zipf:theta, theta > 0, != 1 allowed */
	IOLAB_DIST_PARETO,  /* pareto:h, 0 < h < 1: share 1-h of I/Os hit share h of the region */
	IOLAB_DIST_HOTSPOT, /* hotspot:P/R: P % of I/Os hit the first R % of the region */
};

struct iolab_dist {
	enum iolab_dist_kind kind;
	double a, b; /* theta | h | P, R */
};

/* "uniform", "zipf:1.2", "pareto:0.2", "hotspot:90/10". */
int iolab_dist_parse(const char *field, const char *s, struct iolab_dist *d, struct iolab_err *err);
/* Writes the canonical spelling of d. */
const char *iolab_dist_name(const struct iolab_dist *d, char *buf, unsigned bufsz);

/* One region of one target that a worker addresses. */
struct iolab_region {
	uint64_t start, len; /* bytes */
};


/* A request produced by the generator. */
struct iolab_req {
	uint64_t off;
	uint32_t len;
	uint8_t op;      /* enum iolab_op */
	uint16_t target; /* index into the regions given to iolab_gen_init */
};

#define IOLAB_GEN_TARGETS 16

/* Sampler for a skewed choice among n items; see generator.c. */
struct iolab_skew {
	enum iolab_dist_kind kind;
	uint64_t n;
	double a, b, c, d, e; /* precomputed constants of the distribution */
	uint64_t mul, add;    /* rank-to-item permutation (spreads hot items over the region) */
};

/* Per-line precomputed constants. */
struct iolab_gen_line {
	uint32_t len;           /* the size positions are drawn in (trim_size, when set) */
	uint32_t piece;         /* the transfer size (len, unless trim_size) */
	uint32_t read_thresh;   /* read when (32-bit draw) < read_thresh */
	uint32_t random_thresh; /* random offset when draw < random_thresh */
	uint64_t align;
	uint64_t first[IOLAB_GEN_TARGETS];   /* first aligned offset in each region */
	uint64_t nblocks[IOLAB_GEN_TARGETS]; /* number of aligned positions in each region */
	struct iolab_skew skew[IOLAB_GEN_TARGETS];
};

struct iolab_gen {
	struct iolab_prng rng;
	unsigned nlines, ntargets, next_target;
	bool copy, copy_write;
	bool trimwrite;          /* spec->trimwrite: the block last trimmed, which the next */
	uint32_t fill_len, fill_left; /* fill_left writes of fill_len bytes fill */
	uint64_t fill_off;       /* from here on, */
	uint16_t fill_target;    /* on this target */
	uint8_t line_of[100]; /* percentile -> line index */
	struct iolab_region region[IOLAB_GEN_TARGETS];
	uint64_t cursor[IOLAB_GEN_TARGETS]; /* next sequential offset per target */
	/* copy pattern: where writes go, and the block the last read came from */
	unsigned copy_dst_target;
	uint64_t copy_dst_first, copy_dst_blocks, copy_block;
	struct iolab_gen_line line[IOLAB_SPEC_LINES];
};

/* Prepares a generator for worker `worker` of `nworkers` (sequential streams of different
 * workers start spread over the region). Regions must be able to hold the largest transfer.
 * Returns 0 or -EINVAL naming the problem. */
int iolab_gen_init(struct iolab_gen *g, const struct iolab_spec *spec, const struct iolab_dist *dist,
		   const struct iolab_region *regions, unsigned nregions, unsigned worker,
		   unsigned nworkers, uint64_t seed, struct iolab_err *err);

/* Produces the next request. */
void iolab_gen_next(struct iolab_gen *g, struct iolab_req *r);

#endif
