/* layout.c: where a block lives on the platters, and how long the arm takes to get there.
 *
 * Mapping: zones are consecutive runs of cylinders with a fixed number of sectors per track.
 * Within a zone, physical sectors are numbered cylinder by cylinder, track by track; the first
 * `front_empty` hold no block, slipped sectors are skipped (each pushes the later blocks of the
 * zone, or of its sparing range, by one sector), spare areas sit at the end of the zone or of
 * every range, and a defective sector may be remapped to a spare. With serpentine mapping the
 * odd cylinders of a zone visit the surfaces in reverse order, so a cylinder switch keeps the
 * head. The angular position of a sector follows the skews: each track switch within a cylinder
 * moves sector 0 on by the track skew, each cylinder switch by the cylinder skew (the pattern
 * restarts at every zone), as DIXtrac-extracted layouts define them. A lookup also says how far
 * the blocks from there follow each other sector after sector on the track (up to the track's
 * end, a slipped sector, a range's spares, a remapped sector or the zone's end), so that
 * iolab_layout_next, and the read-ahead, go through such a run without further lookups.
 *
 * The sparing schemes other than none, zone and range are mapped by layout_sparing.c; a
 * table-driven layout (DiskSim's g4) by layout_g4.c.
 *
 * Seek: a measured curve is interpolated linearly (extrapolated beyond its last point); without
 * one, a + b·sqrt(d) for short seeks and c + e·d for long ones [Ruemmler and Wilkes 1994] is
 * fitted to the datasheet's single-cylinder, average and full-stroke figures. A head switch
 * overlaps a seek (the longer wins); writes add the settle time to any movement. The other seek
 * types DiskSim knows (HPL, Lee's curve, linear, constant) are computed by seek_curve.c.
 */
#include <errno.h>
#include <inttypes.h>
#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "sim/devices/layout.h"
#include "sim/devices/layout_g4.h"
#include "sim/devices/layout_sparing.h"

static uint64_t seek_table_ns(const struct iolab_disk_model *m, uint32_t d)
{
	const struct iolab_seek_point *s = m->seek;
	unsigned n = m->nseek, lo = 0, hi = n - 1;
	if (n == 1 || d <= s[0].dist)
		return (uint64_t)((double)s[0].ns * d / s[0].dist);
	if (d >= s[n - 1].dist)
		lo = n - 2, hi = n - 1;
	else
		while (hi - lo > 1) {
			unsigned mid = (lo + hi) / 2;
			if (s[mid].dist <= d)
				lo = mid;
			else
				hi = mid;
		}
	double f = (double)(d - s[lo].dist) / (double)(s[hi].dist - s[lo].dist);
	double v = (double)s[lo].ns + f * ((double)s[hi].ns - (double)s[lo].ns);
	return v > 0 ? (uint64_t)v : 0;
}

static double seek_formula(const struct iolab_disk_model *m, double d)
{
	return d < m->seek_boundary ? m->seek_a + m->seek_b * sqrt(d) : m->seek_c + m->seek_e * d;
}

uint64_t iolab_model_seek_ns(const struct iolab_disk_model *m, uint32_t dist, bool write)
{
	if (!dist && m->seek_type != IOLAB_SEEK_CONSTANT)
		return 0;
	double t = m->seek_type > IOLAB_SEEK_EXTRACTED ? iolab_seek_formula_ns(m, dist)
		   : m->nseek ? (double)seek_table_ns(m, dist) : seek_formula(m, dist);
	if (write && t > 0) /* a negative settle shortens it, to 0 at most */
		t += (double)m->write_settle_ns;
	return t > 0 ? (uint64_t)t : 0;
}

/* Mean of f(d) over two uniformly random cylinders (distance density 2(C-d)/C^2). */
static double mean_random_seek(const struct iolab_disk_model *m)
{
	double c = m->cylinders, acc = 0, wsum = 0;
	unsigned steps = 2000;
	for (unsigned i = 0; i < steps; i++) {
		double d = 1 + (c - 2) * (i + 0.5) / steps;
		double w = 2 * (c - d) / (c * c);
		acc += w * seek_formula(m, d);
		wsum += w;
	}
	return wsum > 0 ? acc / wsum * (1 - 1 / c) : 0;
}

/* Fits the two-piece curve through single (d=1) and full (d=C-1) with a smooth joint at the
 * boundary B, and picks B so that the mean over random cylinder pairs is the datasheet average. */
static void fit_seek(struct iolab_disk_model *m)
{
	double single = (double)m->seek_single_ns, full = (double)m->seek_full_ns;
	double C = m->cylinders, lo = 2, hi = C - 2, B = C / 3;
	for (int it = 0; it < 60; it++) {
		double rb = sqrt(B);
		double b = (full - single) / (rb - 1 + (C - 1 - B) / (2 * rb));
		m->seek_b = b;
		m->seek_a = single - b;
		m->seek_e = b / (2 * rb);
		m->seek_c = full - m->seek_e * (C - 1);
		m->seek_boundary = (uint32_t)B;
		if (!m->seek_avg_ns)
			break;
		/* A larger B keeps the concave sqrt part longer, which raises the mean. */
		if (mean_random_seek(m) < (double)m->seek_avg_ns)
			lo = B;
		else
			hi = B;
		B = (lo + hi) / 2;
	}
}

/* Checks zone i on its own and against the previous one. */
static int check_zone(const struct iolab_disk_model *m, unsigned i, struct iolab_err *err)
{
	const struct iolab_zone *z = &m->zone[i];
	if (!z->spt)
		return iolab_errf(err, EINVAL, "zone %u: field 'sectors_per_track': required", i + 1);
	if (z->last_cyl < z->first_cyl || z->last_cyl >= m->cylinders ||
	    (i && z->first_cyl <= m->zone[i - 1].last_cyl))
		return iolab_errf(err, EINVAL, "zone %u: field 'cylinders': %u..%u is not after the "
				  "previous zone and inside 0..%u", i + 1, z->first_cyl, z->last_cyl,
				  m->cylinders - 1);
	if (z->sparing == IOLAB_SPARE_RANGE && !z->range)
		return iolab_errf(err, EINVAL, "zone %u: field 'sparing': range needs cylinders", i + 1);
	for (uint32_t s = 1; s < z->nslips; s++)
		if (z->slips[s] <= z->slips[s - 1])
			return iolab_errf(err, EINVAL, "zone %u: field 'slips': not ascending at %" PRIu64,
					  i + 1, z->slips[s]);
	if (z->ndefects % 2)
		return iolab_errf(err, EINVAL, "zone %u: field 'defects': needs pairs (defect, "
				  "replacement)", i + 1);
	return 0;
}

int iolab_model_finish(struct iolab_disk_model *m, struct iolab_err *err)
{
	if (!m->rw_switch_given)
		m->rw_switch_ns = m->head_switch_ns;
	if (!m->surfaces || !m->cylinders || !m->blocks || m->rpm <= 0)
		return iolab_errf(err, EINVAL, "field '%s': required", !m->surfaces ? "surfaces"
				  : !m->cylinders ? "cylinders" : !m->blocks ? "blocks" : "rpm");
	uint64_t lbn = 0;
	int rc = 0;
	if (m->g4) { /* a table layout: its root entries are the zones */
		char why[sizeof(err->msg)];
		if ((rc = iolab_g4_finish(m, why, sizeof(why))))
			return iolab_errf(err, -rc, "%s", why);
		lbn = m->blocks;
	} else if (!m->nzones) {
		return iolab_errf(err, EINVAL, "no [zone] section: a model needs at least one zone");
	}
	for (unsigned i = 0; !m->g4 && i < m->nzones && !rc; i++) {
		struct iolab_zone *z = &m->zone[i];
		rc = check_zone(m, i, err);
		if (rc && z->line) { /* name the line where the zone is defined */
			char msg[sizeof(err->msg)];
			memcpy(msg, err->msg, sizeof(msg));
			iolab_errf(err, EINVAL, "line %u: %s", z->line, msg);
		}
		if (rc)
			return rc;
		z->first_lbn = lbn;
		z->nblocks = iolab_sparing_blocks(m, z);
		lbn += z->nblocks;
	}
	if (lbn < m->blocks)
		return iolab_errf(err, EINVAL, "field 'blocks': the zones hold %" PRIu64 " blocks, fewer "
				  "than %" PRIu64, lbn, m->blocks);
	if (m->seek_type == IOLAB_SEEK_EXTRACTED && !m->nseek)
		return iolab_errf(err, EINVAL, "field 'seek_type': 'extracted' needs a [seek] table");
	if (m->nseek == 0 && m->seek_type == IOLAB_SEEK_DEFAULT) {
		if (!m->seek_single_ns || !m->seek_full_ns || m->seek_full_ns < m->seek_single_ns)
			return iolab_errf(err, EINVAL, "field 'seek_single_ms'/'seek_full_ms': without a "
					  "[seek] table both are required (single <= full)");
		fit_seek(m);
	}
	if (m->segments && !m->segment_blocks)
		return iolab_errf(err, EINVAL, "field 'segment_blocks': required with cache_segments");
	if (!m->queue_depth)
		m->queue_depth = 1;
	m->rev_ns = (uint64_t)llround(60e9 / m->rpm);
	return 0;
}

/* Number of slips i in s[from..to) with s[i] - (i - from) <= x: how many slipped sectors lie
 * at or before physical position x + count (the slips are ascending and distinct). */
static uint32_t slips_before(const uint64_t *s, uint32_t from, uint32_t to, uint64_t base, uint64_t x)
{
	uint32_t lo = from, hi = to; /* first index with s[i] - base - (i - from) > x */
	while (lo < hi) {
		uint32_t mid = lo + (hi - lo) / 2;
		if (s[mid] - base - (mid - from) <= x)
			lo = mid + 1;
		else
			hi = mid;
	}
	return lo - from;
}

int iolab_layout_map(const struct iolab_disk_model *m, uint64_t lbn, struct iolab_phys *p)
{
	if (m->g4)
		return iolab_g4_map(m, lbn, p);
	unsigned lo = iolab_layout_zone_of(m, lbn);
	const struct iolab_zone *z = &m->zone[lo];
	if (lbn >= z->first_lbn + z->nblocks)
		return -ERANGE;
	uint64_t spc = (uint64_t)z->spt * m->surfaces; /* sectors per cylinder */
	uint64_t x = lbn - z->first_lbn, pbn;
	uint64_t run = z->first_lbn + z->nblocks - lbn; /* blocks left in the zone */
	if (z->sparing == IOLAB_SPARE_RANGE) {
		uint64_t rsz = spc * z->range, per = rsz - z->spares;
		x += z->front_empty;
		uint64_t r = x / per, within = x % per, base = r * rsz;
		uint32_t a = iolab_lower_bound(z->slips, z->nslips, base);
		uint32_t b = iolab_lower_bound(z->slips, z->nslips, base + rsz);
		pbn = base + within + slips_before(z->slips, a, b, base, within);
		if (per - within < run) /* the range's spare sectors follow */
			run = per - within;
	} else if (iolab_sparing_own(z->sparing)) {
		uint64_t r;
		pbn = iolab_sparing_pbn(m, z, x + z->front_empty, &r);
		if (r < run)
			run = r;
	} else {
		x += z->front_empty;
		pbn = x + slips_before(z->slips, 0, z->nslips, 0, x);
	}
	bool remapped = false, tracks = z->sparing == IOLAB_SPARE_TRACKS; /* defects: tracks */
	for (uint32_t i = 0; !tracks && i + 1 < z->ndefects; i += 2) {
		if (z->defects[i] == z->defects[i + 1])
			continue; /* not remapped */
		if (z->defects[i] == pbn) {
			pbn = z->defects[i + 1];
			remapped = true;
			break;
		}
		if (z->defects[i] > pbn && z->defects[i] - pbn < run) /* a later block is elsewhere */
			run = z->defects[i] - pbn;
	}
	uint64_t c = pbn / spc, t = (pbn % spc) / z->spt;
	p->lbn = lbn;
	p->pbn = pbn;
	uint32_t k = iolab_lower_bound(z->slips, z->nslips, pbn + 1);
	p->next_slip = k < z->nslips && !tracks ? z->slips[k] : UINT64_MAX;
	if (p->next_slip - pbn < run)
		run = p->next_slip - pbn;
	if (z->spt - pbn % z->spt < run) /* the track ends */
		run = z->spt - pbn % z->spt;
	p->run_end = lbn + (remapped ? 1 : run);
	p->zone = lo;
	p->cyl = (uint32_t)(z->first_cyl + c);
	p->track = (uint32_t)t;
	/* serpentine: odd cylinders of the zone (mapping scheme 2: odd cylinder numbers) reversed */
	uint64_t odd = m->serpentine_absolute ? (z->first_cyl + c) & 1 : c & 1;
	p->head = m->cylinder_serpentine && odd ? m->surfaces - 1 - (uint32_t)t : (uint32_t)t;
	p->sector = (uint32_t)(pbn % z->spt);
	/* Angle of the sector's start, in revolutions. */
	uint64_t steps = t * z->track_skew + (uint64_t)(m->surfaces - 1) * c * z->track_skew +
			 c * z->cyl_skew + p->sector + z->first_offset;
	p->angle = (double)(steps % z->spt) / z->spt;
	p->sector_ns = (double)m->rev_ns / z->spt;
	return 0;
}

int iolab_layout_next(const struct iolab_disk_model *m, struct iolab_phys *p)
{
	const struct iolab_zone *z = &m->zone[p->zone];
	uint64_t lbn = p->lbn + 1;
	if (lbn >= p->run_end || m->g4) /* a table's angles are sums of fractions: look them up */
		return iolab_layout_map(m, lbn, p);
	p->lbn = lbn;
	p->pbn++;
	p->sector++;
	p->angle += 1.0 / z->spt;
	if (p->angle >= 1)
		p->angle -= 1;
	return 0;
}
