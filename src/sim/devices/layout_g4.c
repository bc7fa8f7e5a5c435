/* layout_g4.c: table-driven layouts, DiskSim 4.0's dm_layout_g4 (manual B.4.5 p80), the layout
 * DIXtrac extracts from post-2002 drives. A tree of index nodes covers the LBNs: the root (the
 * last node) splits them into entries, each a run of `runlen` LBNs made of instances of `len`
 * LBNs that repeat `cyllen` cylinders and `alen` revolutions apart; an instance's child is
 * another node or a track pattern (the sectors of one track the LBNs use). Slips shift the LBNs
 * before the lookup, remaps send runs of LBNs to other sectors.
 *
 * The manual lists 8 fields per entry (lbn, cyl, runlen, cylrunlen, len, cyllen, childtype,
 * child), which give no surface for a track child and no angles; the entries here are those
 * DiskSim 4.0 reads (its layout_g4_load.c): lbn, cyl, off, len, cyllen, alen, runlen, cylrunlen,
 * TRACK|IDX, child, and the head after a TRACK child. The lookup is DiskSim's ltop: a remapped
 * LBN lies at the remap's destination; otherwise l = lbn plus the slips at or before it (counted
 * again as l moves past more), then from the root: the entry holding l, instance q = (l - lbn) /
 * len (negated when cylrunlen < 0), cylinder += cyl + q·cyllen, angle += off + q·alen, l = (l -
 * lbn) mod len, down to a track: surface = head, sector = s0 + l, angle += l / spt.
 *
 * iolab's simulator works with zones of one track size: the root's entries become the model's
 * zones (derived, like DiskSim's g4_get_zone), and every track under one root entry must have
 * the same number of sectors. */
#include <errno.h>
#include <inttypes.h>
#include <math.h>
#include <stdarg.h>
#include <stdlib.h>
#include <string.h>
#include <strings.h>

#include "iolab/parse_number.h"
#include "sim/devices/phys.h"
#include "sim/devices/layout_g4.h"

#define G4_MAX_ITEMS 1000000u

static int why_f(char *why, size_t len, int rc, const char *fmt, ...) __attribute__((format(printf, 4, 5)));

static int why_f(char *why, size_t len, int rc, const char *fmt, ...)
{
	va_list ap;
	va_start(ap, fmt);
	vsnprintf(why, len, fmt, ap);
	va_end(ap);
	return -rc;
}

/* Word w as a number in min..max (whole if whole). */
static int word_num(const char *what, unsigned i, const char *w, double min, double max, bool whole,
		    double *out, char *why, size_t len)
{
	double x;
	if (iolab_parse_decimal(w, &x) || x < min || x > max || (whole && x != floor(x)))
		return why_f(why, len, EINVAL, "field '%s': item %u '%s' is not a %s %g..%g", what, i + 1,
			     w, whole ? "whole number" : "number", min, max);
	*out = x;
	return 0;
}

/* Grows *arr (of *n items of size sz) by one; returns the new item or NULL. */
static void *grow(void *arr_p, uint32_t *n, size_t sz)
{
	void **arr = arr_p;
	if (*n >= G4_MAX_ITEMS)
		return NULL;
	if ((*n & (*n - 1)) == 0) { /* 0, 1, 2, 4, ...: double */
		void *na = realloc(*arr, (*n ? *n * 2 : 1) * sz);
		if (!na)
			return NULL;
		*arr = na;
	}
	char *item = (char *)*arr + (size_t)(*n)++ * sz;
	memset(item, 0, sz);
	return item;
}

static int add_entry(struct iolab_g4 *g, char *const *w, unsigned n, char *why, size_t len)
{
	if (n == 8 && (!strcasecmp(w[6], "TRACK") || !strcasecmp(w[6], "TP") || !strcasecmp(w[6], "IDX")))
		return why_f(why, len, EINVAL, "field 'entry': 8 fields as the manual lists them give no "
			     "surface for a track child and no angles: write the 10 DiskSim 4.0 reads (lbn, "
			     "cyl, off, len, cyllen, alen, runlen, cylrunlen, TRACK|IDX, child) and the "
			     "head after TRACK");
	if (n < 10 || n > 11)
		return why_f(why, len, EINVAL, "field 'entry': %u fields; an entry is lbn cyl off len "
			     "cyllen alen runlen cylrunlen TRACK|IDX child [head]", n);
	if (!g->nnode)
		return why_f(why, len, EINVAL, "field 'entry': no index node started ('node = 0' first)");
	bool track = !strcasecmp(w[8], "TRACK") || !strcasecmp(w[8], "TP");
	if (!track && strcasecmp(w[8], "IDX"))
		return why_f(why, len, EINVAL, "field 'entry': item 9 '%s' is not TRACK or IDX", w[8]);
	if (track != (n == 11))
		return why_f(why, len, EINVAL, "field 'entry': %s", track ? "a TRACK child needs its head "
			     "(11 fields)" : "an IDX child has 10 fields");
	double v[11];
	static const double lo[] = {0, -1e7, -1e6, 1, 0, -1e6, 1, -1e7}, hi[] = {1e15, 1e7, 1e6, 1e15, 1e7, 1e6, 1e15, 1e7};
	for (unsigned i = 0; i < 8; i++)
		if (word_num("entry", i, w[i], lo[i], hi[i], i != 2 && i != 5, &v[i], why, len))
			return -EINVAL;
	if (word_num("entry", 9, w[9], 0, G4_MAX_ITEMS, true, &v[9], why, len) ||
	    (track && word_num("entry", 10, w[10], 0, 255, true, &v[10], why, len)))
		return -EINVAL;
	struct iolab_g4_node *nd = &g->node[g->nnode - 1];
	struct iolab_g4_ent *e = grow(&nd->e, &nd->n, sizeof(*e));
	if (!e)
		return why_f(why, len, ENOMEM, "field 'entry': out of memory or more than %u", G4_MAX_ITEMS);
	*e = (struct iolab_g4_ent){.lbn = (int64_t)v[0], .cyl = (int64_t)v[1], .off = v[2],
				   .len = (int64_t)v[3], .cyllen = (int64_t)v[4], .alen = v[5],
				   .runlen = (int64_t)v[6], .cylrunlen = (int64_t)v[7], .track = track,
				   .child = (uint32_t)v[9], .head = track ? (uint32_t)v[10] : 0};
	return 0;
}

int iolab_g4_add(struct iolab_g4 **gp, const char *what, char *const *w, unsigned n, char *why,
		 size_t len)
{
	if (!*gp && !(*gp = calloc(1, sizeof(**gp))))
		return why_f(why, len, ENOMEM, "out of memory");
	struct iolab_g4 *g = *gp;
	double v[6];
	if (!strcmp(what, "entry"))
		return add_entry(g, w, n, why, len);
	if (!strcmp(what, "node")) {
		if (n != 1 || word_num("node", 0, w[0], g->nnode, g->nnode, true, v, why, len))
			return why_f(why, len, EINVAL, "field 'node': the next node's number, %u", g->nnode);
		if (!grow(&g->node, &g->nnode, sizeof(*g->node)))
			return why_f(why, len, ENOMEM, "field 'node': out of memory or too many");
		return 0;
	}
	if (!strcmp(what, "tp")) {
		if (n != 3)
			return why_f(why, len, EINVAL, "field 'tp': needs 3 numbers: first sector, last "
				     "sector, sectors per track");
		for (unsigned i = 0; i < 3; i++)
			if (word_num("tp", i, w[i], i == 2, 100000, true, &v[i], why, len))
				return -EINVAL;
		if (v[0] > v[1] || v[1] >= v[2])
			return why_f(why, len, EINVAL, "field 'tp': sectors %s..%s are not within a track "
				     "of %s", w[0], w[1], w[2]);
		struct iolab_g4_tp *t = grow(&g->tp, &g->ntp, sizeof(*t));
		if (!t)
			return why_f(why, len, ENOMEM, "field 'tp': out of memory or too many");
		*t = (struct iolab_g4_tp){(uint32_t)v[0], (uint32_t)v[1], (uint32_t)v[2]};
		return 0;
	}
	if (!strcmp(what, "slip")) {
		if (n != 2)
			return why_f(why, len, EINVAL, "field 'slip': needs 2 numbers: lbn, count");
		if (word_num("slip", 0, w[0], 0, 1e15, true, &v[0], why, len) ||
		    word_num("slip", 1, w[1], 1, 1e9, true, &v[1], why, len))
			return -EINVAL;
		uint64_t cum = g->nslip ? g->slip[g->nslip - 1].cum : 0;
		if (g->nslip && v[0] <= g->slip[g->nslip - 1].lbn)
			return why_f(why, len, EINVAL, "field 'slip': lbn %s is not after the previous "
				     "slip's", w[0]);
		struct iolab_g4_slip *s = grow(&g->slip, &g->nslip, sizeof(*s));
		if (!s)
			return why_f(why, len, ENOMEM, "field 'slip': out of memory or too many");
		*s = (struct iolab_g4_slip){(uint64_t)v[0], (uint64_t)v[1], cum + (uint64_t)v[1]};
		return 0;
	}
	if (!strcmp(what, "remap")) {
		static const double hi[] = {1e15, 100000, 1e7, 255, 100000, 100000};
		if (n != 6)
			return why_f(why, len, EINVAL, "field 'remap': needs 6 numbers: lbn, len, cylinder, "
				     "head, sector, sectors per track");
		for (unsigned i = 0; i < 6; i++)
			if (word_num("remap", i, w[i], i == 1 || i == 5, hi[i], true, &v[i], why, len))
				return -EINVAL;
		if (v[4] + v[1] > v[5])
			return why_f(why, len, EINVAL, "field 'remap': sectors %s.. (%s of them) pass the "
				     "end of a track of %s", w[4], w[1], w[5]);
		struct iolab_g4_remap *r = grow(&g->remap, &g->nremap, sizeof(*r));
		if (!r)
			return why_f(why, len, ENOMEM, "field 'remap': out of memory or too many");
		*r = (struct iolab_g4_remap){(uint64_t)v[0], (uint64_t)v[1], (uint32_t)v[2],
					     (uint32_t)v[3], (uint32_t)v[4], (uint32_t)v[5]};
		return 0;
	}
	return why_f(why, len, EINVAL, "field '%s': unknown [g4] field (tp, node, entry, slip, remap)", what);
}

void iolab_g4_free(struct iolab_g4 *g)
{
	if (!g)
		return;
	for (uint32_t i = 0; i < g->nnode; i++)
		free(g->node[i].e);
	free(g->node);
	free(g->tp);
	free(g->slip);
	free(g->remap);
	free(g);
}

/* The sectors per track of every track under node i (0: they differ); nodes before i done. */
static uint32_t node_spt(const struct iolab_g4 *g, const uint32_t *done, uint32_t i)
{
	uint32_t spt = 0;
	for (uint32_t k = 0; k < g->node[i].n; k++) {
		const struct iolab_g4_ent *e = &g->node[i].e[k];
		uint32_t s = e->track ? g->tp[e->child].spt : done[e->child];
		if (!s || (spt && s != spt))
			return 0;
		spt = s;
	}
	return spt;
}

/* Slips before logical offset l. */
static uint64_t slips_below(const struct iolab_g4 *g, uint64_t l)
{
	uint64_t c = 0;
	for (uint32_t i = 0; i < g->nslip && g->slip[i].lbn < l; i++)
		c = g->slip[i].cum;
	return c;
}

static int check_nodes(const struct iolab_disk_model *m, uint32_t *spt, char *why, size_t len)
{
	const struct iolab_g4 *g = m->g4;
	for (uint32_t i = 0; i < g->nnode; i++) {
		if (!g->node[i].n)
			return why_f(why, len, EINVAL, "[g4]: field 'node': node %u has no entries", i);
		for (uint32_t k = 0; k < g->node[i].n; k++) {
			const struct iolab_g4_ent *e = &g->node[i].e[k];
			if (e->track ? e->child >= g->ntp : e->child >= i)
				return why_f(why, len, EINVAL, "[g4]: field 'entry': node %u entry %u: child "
					     "%u is not a %s", i, k + 1, e->child, e->track ?
					     "track pattern ('tp' line)" : "node before this one");
			if (e->track && e->head >= m->surfaces)
				return why_f(why, len, EINVAL, "[g4]: field 'entry': node %u entry %u: head "
					     "%u is not below surfaces (%u)", i, k + 1, e->head, m->surfaces);
		}
		spt[i] = node_spt(g, spt, i);
	}
	for (uint32_t i = 0; i < g->nremap; i++)
		if (g->remap[i].cyl >= m->cylinders || g->remap[i].head >= m->surfaces)
			return why_f(why, len, EINVAL, "[g4]: field 'remap': remap %u goes to cylinder %u, "
				     "head %u: not on the disk", i + 1, g->remap[i].cyl, g->remap[i].head);
	return 0;
}

/* One zone per root entry. */
static int root_zones(struct iolab_disk_model *m, const uint32_t *spt, char *why, size_t len)
{
	const struct iolab_g4 *g = m->g4;
	const struct iolab_g4_node *root = &g->node[g->nnode - 1];
	m->zone = calloc(root->n, sizeof(*m->zone));
	if (!m->zone)
		return why_f(why, len, ENOMEM, "out of memory");
	m->nzones = root->n;
	for (uint32_t k = 0; k < root->n; k++) {
		const struct iolab_g4_ent *e = &root->e[k];
		struct iolab_zone *z = &m->zone[k];
		int64_t a = e->cyl, b = e->cyl + (e->cylrunlen > 0 ? e->cylrunlen - 1 : e->cylrunlen < 0 ? e->cylrunlen + 1 : 0);
		if (a > b) {
			int64_t t = a;
			a = b;
			b = t;
		}
		uint32_t s = e->track ? g->tp[e->child].spt : spt[e->child];
		if (a < 0 || b >= m->cylinders)
			return why_f(why, len, EINVAL, "[g4]: field 'entry': root entry %u covers cylinders "
				     "%" PRId64 "..%" PRId64 ", not within 0..%u", k + 1, a, b, m->cylinders - 1);
		if (!s)
			return why_f(why, len, EINVAL, "[g4]: field 'tp': root entry %u holds tracks of "
				     "different sizes; iolab needs one track size per root entry (zone)", k + 1);
		if (k && e->lbn < root->e[k - 1].lbn + root->e[k - 1].runlen)
			return why_f(why, len, EINVAL, "[g4]: field 'entry': root entry %u starts at lbn "
				     "%" PRId64 ", inside the previous one", k + 1, e->lbn);
		uint64_t first = (uint64_t)e->lbn - slips_below(g, (uint64_t)e->lbn);
		z->first_cyl = (uint32_t)a;
		z->last_cyl = (uint32_t)b;
		z->spt = s;
		z->sparing = IOLAB_SPARE_NONE;
		z->g4_root = k;
		z->first_lbn = first < m->blocks ? first : m->blocks;
	}
	for (uint32_t k = 0; k < root->n; k++) {
		uint64_t end = k + 1 < root->n ? m->zone[k + 1].first_lbn : m->blocks;
		m->zone[k].nblocks = end > m->zone[k].first_lbn ? end - m->zone[k].first_lbn : 0;
	}
	return 0;
}

int iolab_g4_finish(struct iolab_disk_model *m, char *why, size_t len)
{
	const struct iolab_g4 *g = m->g4;
	if (m->nzones)
		return why_f(why, len, EINVAL, "[g4]: a table layout takes no [zone] sections (its root "
			     "entries are the zones)");
	if (!g->nnode || !g->ntp)
		return why_f(why, len, EINVAL, "[g4]: field '%s': missing (a table needs track patterns "
			     "and index nodes)", g->ntp ? "node" : "tp");
	uint32_t *spt = calloc(g->nnode, sizeof(*spt));
	if (!spt)
		return why_f(why, len, ENOMEM, "out of memory");
	int rc = check_nodes(m, spt, why, len);
	if (!rc)
		rc = root_zones(m, spt, why, len);
	free(spt);
	/* the simulator times an I/O on an unmapped block at the last block's place: it must map */
	struct iolab_phys p;
	for (int i = 0; !rc && i < 2; i++) {
		uint64_t lbn = i ? m->blocks - 1 : 0;
		if (iolab_g4_map(m, lbn, &p))
			rc = why_f(why, len, EINVAL, "[g4]: field 'blocks': LBN %" PRIu64 " is not covered "
				   "by the table or lies off the disk", lbn);
	}
	return rc;
}

static int place(const struct iolab_disk_model *m, struct iolab_phys *p, uint64_t lbn, int64_t cyl,
		 uint32_t head, uint32_t sector, uint32_t spt, double angle, uint64_t run)
{
	if (cyl < 0 || cyl >= m->cylinders || head >= m->surfaces || sector >= spt)
		return -ERANGE;
	if (m->blocks - lbn < run)
		run = m->blocks - lbn;
	p->lbn = lbn;
	p->pbn = sector;
	p->next_slip = UINT64_MAX;
	p->run_end = lbn + (spt == m->zone[p->zone].spt ? run : 1);
	p->cyl = (uint32_t)cyl;
	p->head = p->track = head;
	p->sector = sector;
	p->angle = angle - floor(angle);
	if (p->angle >= 1)
		p->angle = 0;
	p->sector_ns = (double)m->rev_ns / spt;
	return 0;
}

int iolab_g4_map(const struct iolab_disk_model *m, uint64_t lbn, struct iolab_phys *p)
{
	const struct iolab_g4 *g = m->g4;
	if (lbn >= m->blocks)
		return -ERANGE;
	uint64_t run = UINT64_MAX;
	for (uint32_t i = 0; i < g->nremap; i++) {
		const struct iolab_g4_remap *r = &g->remap[i];
		if (r->lbn <= lbn && lbn - r->lbn < r->len) {
			p->zone = iolab_layout_zone_of(m, lbn);
			uint32_t s = r->sector + (uint32_t)(lbn - r->lbn);
			return place(m, p, lbn, r->cyl, r->head, s, r->spt, (double)s / r->spt,
				     r->len - (lbn - r->lbn));
		}
		if (r->lbn > lbn && r->lbn - lbn < run)
			run = r->lbn - lbn;
	}
	/* slips: every slip at or before l moves l on; l moves, so count again */
	uint32_t i = 0;
	uint64_t l = lbn;
	while (i < g->nslip && g->slip[i].lbn <= l)
		l = lbn + g->slip[i++].cum;
	if (i < g->nslip && g->slip[i].lbn - l < run)
		run = g->slip[i].lbn - l;
	const struct iolab_g4_node *nd = &g->node[g->nnode - 1];
	int64_t cyl = 0, rel = (int64_t)l;
	double angle = 0;
	for (unsigned depth = 0; depth <= g->nnode; depth++) {
		const struct iolab_g4_ent *e = NULL;
		for (uint32_t k = 0; k < nd->n && !e; k++)
			if (nd->e[k].lbn <= rel && rel - nd->e[k].lbn < nd->e[k].runlen) {
				e = &nd->e[k];
				if (!depth)
					p->zone = k;
			}
		if (!e)
			return -ERANGE;
		int64_t off = rel - e->lbn, q = off / e->len, qs = e->cylrunlen < 0 ? -q : q;
		if (q > 1000000000 || cyl > 1000000000000 || cyl < -1000000000000)
			return -ERANGE; /* far off any disk (and q·cyllen stays in range) */
		rel = off % e->len;
		cyl += e->cyl + qs * e->cyllen;
		angle += e->off + (double)qs * e->alen;
		if ((uint64_t)(e->len - rel) < run)
			run = (uint64_t)(e->len - rel);
		if ((uint64_t)(e->runlen - off) < run)
			run = (uint64_t)(e->runlen - off);
		if (!e->track) {
			nd = &g->node[e->child];
			continue;
		}
		const struct iolab_g4_tp *t = &g->tp[e->child];
		if (rel > (int64_t)(t->sn - t->s0))
			return -ERANGE;
		uint32_t s = t->s0 + (uint32_t)rel;
		if (t->sn - s + 1 < run)
			run = t->sn - s + 1;
		return place(m, p, lbn, cyl, e->head, s, t->spt, angle + (double)rel / t->spt, run);
	}
	return -ERANGE;
}

static void put_num(FILE *f, const char *sep, double x)
{
	fprintf(f, "%s%.15g", sep, x); /* DiskSim writes few digits */
}

void iolab_g4_write(const struct iolab_g4 *g, FILE *f)
{
	fprintf(f, "\n[g4]\n# tp = first_sector last_sector sectors_per_track\n");
	for (uint32_t i = 0; i < g->ntp; i++)
		fprintf(f, "tp = %u %u %u\n", g->tp[i].s0, g->tp[i].sn, g->tp[i].spt);
	fprintf(f, "# entry = lbn cyl off len cyllen alen runlen cylrunlen TRACK|IDX child [head]\n");
	for (uint32_t i = 0; i < g->nnode; i++) {
		fprintf(f, "node = %u\n", i);
		for (uint32_t k = 0; k < g->node[i].n; k++) {
			const struct iolab_g4_ent *e = &g->node[i].e[k];
			fprintf(f, "entry = %" PRId64 " %" PRId64, e->lbn, e->cyl);
			put_num(f, " ", e->off);
			fprintf(f, " %" PRId64 " %" PRId64, e->len, e->cyllen);
			put_num(f, " ", e->alen);
			fprintf(f, " %" PRId64 " %" PRId64 " %s %u", e->runlen, e->cylrunlen,
				e->track ? "TRACK" : "IDX", e->child);
			if (e->track)
				fprintf(f, " %u", e->head);
			fputc('\n', f);
		}
	}
	for (uint32_t i = 0; i < g->nslip; i++)
		fprintf(f, "slip = %" PRIu64 " %" PRIu64 "\n", g->slip[i].lbn, g->slip[i].count);
	for (uint32_t i = 0; i < g->nremap; i++)
		fprintf(f, "remap = %" PRIu64 " %" PRIu64 " %u %u %u %u\n", g->remap[i].lbn,
			g->remap[i].len, g->remap[i].cyl, g->remap[i].head, g->remap[i].sector,
			g->remap[i].spt);
}
