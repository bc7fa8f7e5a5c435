/* generator.c: the request generator. Turns an access spec, an offset distribution and the
 * regions of the targets into a deterministic stream of requests.
 *
 * Per request: one 64-bit draw picks the spec line (by share) and read/write; a second picks
 * random or sequential, and random offsets take one more draw (uniform) or a few (skewed). Each
 * target keeps one sequential cursor per worker: a sequential request continues where the
 * previous request on that target ended, rounded up to the line's alignment, wrapping to the
 * region start at the end. Workers start their cursors spread evenly over the region so that
 * several sequential workers do not read the same blocks. Requests rotate over the targets.
 */
#include <errno.h>
#include <string.h>

#include "generator_internal.h"

static uint64_t align_up(uint64_t x, uint64_t a)
{
	return (x + a - 1) / a * a;
}

int iolab_gen_init(struct iolab_gen *g, const struct iolab_spec *spec, const struct iolab_dist *dist,
		   const struct iolab_region *regions, unsigned nregions, unsigned worker,
		   unsigned nworkers, uint64_t seed, struct iolab_err *err)
{
	int rc = iolab_spec_validate(spec, err);
	if (rc)
		return rc;
	if (nregions == 0 || nregions > IOLAB_GEN_TARGETS)
		return iolab_errf(err, EINVAL, "between 1 and %d targets are needed", IOLAB_GEN_TARGETS);
	if (nworkers == 0 || worker >= nworkers)
		return iolab_errf(err, EINVAL, "bad worker index");
	memset(g, 0, sizeof(*g));
	/* Distinct, reproducible stream per worker. */
	iolab_prng_seed(&g->rng, seed * 0x9e3779b97f4a7c15ull + worker + 1);
	g->nlines = spec->nlines;
	g->ntargets = nregions;
	g->copy = spec->copy;
	g->trimwrite = spec->trimwrite;
	memcpy(g->region, regions, nregions * sizeof(*regions));

	unsigned pct = 0;
	for (unsigned i = 0; i < spec->nlines; i++)
		for (unsigned j = 0; j < spec->line[i].share; j++)
			g->line_of[pct++] = (uint8_t)i;

	for (unsigned i = 0; i < spec->nlines; i++) {
		const struct iolab_spec_line *sl = &spec->line[i];
		struct iolab_gen_line *l = &g->line[i];
		/* trimwrite with a trim size: positions are trim-sized blocks, written in pieces */
		uint64_t size = g->trimwrite && spec->trim_size ? spec->trim_size : sl->size;
		if (size % sl->size)
			return iolab_errf(err, EINVAL, "pattern '%s': the trim size %llu is not a "
					  "multiple of the %llu-byte transfer", spec->name,
					  (unsigned long long)size, (unsigned long long)sl->size);
		l->len = (uint32_t)size;
		l->piece = (uint32_t)sl->size;
		l->align = size != sl->size ? size : sl->align ? sl->align : sl->size;
		l->read_thresh = (uint32_t)(((uint64_t)sl->read_pct << 32) / 100 - (sl->read_pct == 100));
		l->random_thresh =
			(uint32_t)(((uint64_t)sl->random_pct << 32) / 100 - (sl->random_pct == 100));
		for (unsigned t = 0; t < nregions; t++) {
			uint64_t start = regions[t].start, end = start + regions[t].len;
			if (g->copy && nregions == 1)
				end = start + regions[t].len / 2;
			uint64_t first = align_up(start, l->align);
			if (first > end || end - first < size)
				return iolab_errf(err, EINVAL,
						  "pattern '%s': region of target %u (%llu bytes) cannot hold "
						  "a %llu-byte transfer at alignment %llu",
						  spec->name, t + 1, (unsigned long long)(end - start),
						  (unsigned long long)size, (unsigned long long)l->align);
			l->first[t] = first;
			l->nblocks[t] = (end - first - size) / l->align + 1;
			iolab_skew_init(&l->skew[t], dist, l->nblocks[t]);
		}
	}
	for (unsigned t = 0; t < nregions; t++) {
		uint64_t span = g->copy && nregions == 1 ? regions[t].len / 2 : regions[t].len;
		g->cursor[t] = regions[t].start + (uint64_t)((unsigned __int128)span * worker / nworkers);
	}
	if (g->copy) {
		/* Destination: the second target, or the second half of the only region. */
		const struct iolab_gen_line *l = &g->line[0];
		if (nregions > 1) {
			g->copy_dst_target = 1;
			g->copy_dst_first = l->first[1];
			g->copy_dst_blocks = l->nblocks[1];
		} else {
			uint64_t end = regions[0].start + regions[0].len;
			uint64_t first = align_up(regions[0].start + regions[0].len / 2, l->align);
			if (first > end || end - first < l->len)
				return iolab_errf(err, EINVAL, "pattern '%s': region too small to copy "
						  "%u-byte blocks from its first half to its second", spec->name,
						  l->len);
			g->copy_dst_first = first;
			g->copy_dst_blocks = (end - first - l->len) / l->align + 1;
		}
	}
	return 0;
}

/* Next sequential offset on target t for line l. */
static uint64_t next_seq(struct iolab_gen *g, const struct iolab_gen_line *l, unsigned t)
{
	uint64_t off = align_up(g->cursor[t], l->align);
	uint64_t last = l->first[t] + (l->nblocks[t] - 1) * l->align;
	if (off > last)
		off = l->first[t];
	g->cursor[t] = off + l->len;
	return off;
}

/* File copy: read a chunk of the source, then write it to the same block of the destination
 * (the second half of the one region, or the second target), then move on. */
static void next_copy(struct iolab_gen *g, struct iolab_req *r)
{
	const struct iolab_gen_line *l = &g->line[0];
	r->len = l->len;
	if (!g->copy_write) {
		r->off = next_seq(g, l, 0);
		r->target = 0;
		r->op = IOLAB_OP_READ;
		g->copy_block = (r->off - l->first[0]) / l->align;
	} else {
		r->target = (uint16_t)g->copy_dst_target;
		r->off = g->copy_dst_first + (g->copy_block % g->copy_dst_blocks) * l->align;
		r->op = IOLAB_OP_WRITE;
	}
	g->copy_write = !g->copy_write;
}

static void next_plain(struct iolab_gen *g, struct iolab_req *r, uint32_t *piece);

/* fio's trimwrite (io_u.c: a trim, then writes from its offset up to the next trim's): a block is
 * trimmed, then written in pieces of the transfer size (one piece: the same blocks); reads, if
 * the pattern has any, are of the transfer size at the block's start. */
void iolab_gen_next(struct iolab_gen *g, struct iolab_req *r)
{
	if (g->fill_left) {
		*r = (struct iolab_req){.off = g->fill_off, .len = g->fill_len, .op = IOLAB_OP_WRITE,
					.target = g->fill_target};
		g->fill_off += g->fill_len;
		g->fill_left--;
		return;
	}
	uint32_t piece = 0;
	next_plain(g, r, &piece);
	if (!g->trimwrite)
		return;
	if (r->op == IOLAB_OP_WRITE) {
		g->fill_off = r->off;
		g->fill_len = piece;
		g->fill_left = r->len / piece;
		g->fill_target = r->target;
		r->op = IOLAB_OP_TRIM;
	} else {
		r->len = piece;
	}
}

/* The next request of the spec; *piece: its line's transfer size. */
static void next_plain(struct iolab_gen *g, struct iolab_req *r, uint32_t *piece)
{
	if (g->copy) {
		next_copy(g, r);
		return;
	}
	uint64_t x = iolab_prng_next(&g->rng);
	const struct iolab_gen_line *l = &g->line[g->line_of[iolab_prng_below32(x, 100)]];
	unsigned t = g->next_target;
	if (++g->next_target == g->ntargets)
		g->next_target = 0;
	r->target = (uint16_t)t;
	r->len = l->len;
	*piece = l->piece;
	r->op = (uint32_t)x <= l->read_thresh && l->read_thresh ? IOLAB_OP_READ : IOLAB_OP_WRITE;
	uint32_t y = (uint32_t)(iolab_prng_next(&g->rng) >> 32);
	if (l->random_thresh && y <= l->random_thresh) {
		uint64_t b = iolab_skew_draw(&l->skew[t], &g->rng);
		r->off = l->first[t] + b * l->align;
		g->cursor[t] = r->off + l->len;
	} else {
		r->off = next_seq(g, l, t);
	}
}
