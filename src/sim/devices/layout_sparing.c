/* layout_sparing.c: DiskSim 4.0's sparing schemes (manual B.4.2 p75, "Sparing scheme used";
 * diskmodel manual 1.4.2): what each is called in the model file, how many blocks a zone keeps
 * after its spares (and, for the "slip to the end" schemes, its slips), and the LBN-to-physical
 * mapping of the schemes layout.c does not do itself:
 *
 *   1 spare tracks   `spares` whole tracks at the end of the zone; slips and defects are track
 *                    numbers within the zone: a slipped track is skipped, a defective track is
 *                    replaced by its replacement track.
 *   2, 4             `spares` sectors at the end of every cylinder; 5, 6 at its front.
 *   3                `spares` sectors at the end of every track.
 *
 * For 2, 3 and 5 a slipped sector pushes the later blocks of its own cylinder (track) into that
 * cylinder's (track's) spares; for 4 and 6 the spares take no slips ("more spares are located at
 * the end of the disk"): a slip pushes every later block of the zone on by one data sector, so
 * blocks move into the next cylinder. The manual gives the schemes' meaning, not an algorithm;
 * the arithmetic follows DiskSim's layout_g1.c, except that for 5 and 6 the blocks of a cylinder
 * start after its front spares as the manual says (DiskSim's LBN-to-PBN code puts them at the
 * cylinder's start, its PBN-to-LBN code after the spares). The extra angular skew DiskSim adds
 * for each earlier slip with 2..6 is not modelled. Scheme 0 (no spares), 7, 8, 9 and 10 (9 whose
 * slips do not use the zone's spares) are mapped by layout.c; their capacity is here. */
#include <errno.h>
#include <inttypes.h>
#include <stdarg.h>
#include <stdio.h>
#include <string.h>

#include "sim/devices/phys.h"
#include "sim/devices/layout_sparing.h"

static const struct {
	enum iolab_sparing s;
	const char *name;
	unsigned args;
} schemes[] = {
	{IOLAB_SPARE_NONE, "none", 0},
	{IOLAB_SPARE_ZONE, "zone", 1},
	{IOLAB_SPARE_RANGE, "range", 2},
	{IOLAB_SPARE_OFF, "off", 0},
	{IOLAB_SPARE_TRACKS, "tracks", 1},
	{IOLAB_SPARE_CYL, "cylinder", 1},
	{IOLAB_SPARE_TRACK, "track", 1},
	{IOLAB_SPARE_CYL_SLIP_END, "cylinder-slip-end", 1},
	{IOLAB_SPARE_CYL_FRONT, "cylinder-front", 1},
	{IOLAB_SPARE_CYL_FRONT_SLIP_END, "cylinder-front-slip-end", 1},
	{IOLAB_SPARE_ZONE_SLIP_END, "zone-slip-end", 1},
};
#define NSCHEMES (sizeof(schemes) / sizeof(schemes[0]))

const char *iolab_sparing_name(enum iolab_sparing s)
{
	for (size_t i = 0; i < NSCHEMES; i++)
		if (schemes[i].s == s)
			return schemes[i].name;
	return "?";
}

unsigned iolab_sparing_args(enum iolab_sparing s)
{
	for (size_t i = 0; i < NSCHEMES; i++)
		if (schemes[i].s == s)
			return schemes[i].args;
	return 0;
}

int iolab_sparing_parse(const char *word, enum iolab_sparing *out)
{
	for (size_t i = 0; word && i < NSCHEMES; i++)
		if (!strcmp(schemes[i].name, word)) {
			*out = schemes[i].s;
			return 0;
		}
	return -EINVAL;
}

uint64_t iolab_sparing_blocks(const struct iolab_disk_model *m, const struct iolab_zone *z)
{
	uint64_t cyls = (uint64_t)z->last_cyl - z->first_cyl + 1;
	uint64_t phys = cyls * z->spt * m->surfaces, sp = z->spares;
	uint64_t lost = z->front_empty;
	switch (z->sparing) {
	case IOLAB_SPARE_NONE: lost += z->nslips; break;
	case IOLAB_SPARE_ZONE: lost += sp; break;
	case IOLAB_SPARE_RANGE: lost += z->range ? sp * (cyls / z->range) : 0; break;
	case IOLAB_SPARE_OFF: break;
	case IOLAB_SPARE_TRACKS: lost += sp * z->spt; break;
	case IOLAB_SPARE_CYL:
	case IOLAB_SPARE_CYL_FRONT: lost += sp * cyls; break;
	case IOLAB_SPARE_TRACK: lost += sp * cyls * m->surfaces; break;
	case IOLAB_SPARE_CYL_SLIP_END:
	case IOLAB_SPARE_CYL_FRONT_SLIP_END: lost += sp * cyls + z->nslips; break;
	case IOLAB_SPARE_ZONE_SLIP_END: lost += sp + z->nslips; break;
	}
	return phys > lost ? phys - lost : 0;
}

bool iolab_sparing_own(enum iolab_sparing s)
{
	return s == IOLAB_SPARE_TRACKS || s == IOLAB_SPARE_CYL || s == IOLAB_SPARE_TRACK ||
	       s == IOLAB_SPARE_CYL_SLIP_END || s == IOLAB_SPARE_CYL_FRONT ||
	       s == IOLAB_SPARE_CYL_FRONT_SLIP_END;
}

/* The data area of the per-track and per-cylinder schemes: the zone is cut into units (tracks or
 * cylinders) of `unit` sectors; sectors front .. front + len - 1 of each hold blocks. local: a
 * slip pushes blocks within its unit only (into the unit's spares). */
struct units {
	uint64_t unit, len, front;
	bool local;
};

static void units_of(const struct iolab_disk_model *m, const struct iolab_zone *z, struct units *u)
{
	uint64_t spc = (uint64_t)z->spt * m->surfaces;
	bool track = z->sparing == IOLAB_SPARE_TRACK;
	bool front = z->sparing == IOLAB_SPARE_CYL_FRONT || z->sparing == IOLAB_SPARE_CYL_FRONT_SLIP_END;
	u->unit = track ? z->spt : spc;
	u->len = u->unit > z->spares ? u->unit - z->spares : 1;
	u->front = front ? z->spares : 0;
	u->local = z->sparing != IOLAB_SPARE_CYL_SLIP_END && z->sparing != IOLAB_SPARE_CYL_FRONT_SLIP_END;
}

/* Data-area index of physical sector p (p in a data area). */
static uint64_t slot_of(const struct units *u, uint64_t p)
{
	uint64_t in = p % u->unit;
	return p / u->unit * u->len + (in > u->front ? in - u->front : 0);
}

/* Slips in s[from..to) that lie at or before data position y once the earlier ones have pushed
 * it on: the number of i with pos(s[i]) - (i - from) <= y (pos rises with i). */
static uint32_t pushed_by(const struct units *u, const uint64_t *s, uint32_t from, uint32_t to,
			  uint64_t base, bool slots, uint64_t y)
{
	uint32_t lo = from, hi = to;
	while (lo < hi) {
		uint32_t mid = lo + (hi - lo) / 2;
		uint64_t pos = slots ? slot_of(u, s[mid]) : s[mid] - base;
		if (pos - (mid - from) <= y)
			lo = mid + 1;
		else
			hi = mid;
	}
	return lo - from;
}

/* Spare tracks (scheme 1): slipped tracks are skipped, a defective track goes to its
 * replacement. */
static uint64_t tracks_pbn(const struct iolab_zone *z, uint64_t x, uint64_t *run)
{
	struct units u = {.unit = 1, .len = 1};
	uint64_t t = x / z->spt;
	t += pushed_by(&u, z->slips, 0, z->nslips, 0, false, t);
	for (uint32_t i = 0; i + 1 < z->ndefects; i += 2)
		if (z->defects[i] == t && z->defects[i + 1] != t) {
			t = z->defects[i + 1];
			break;
		}
	*run = z->spt - x % z->spt;
	return t * z->spt + x % z->spt;
}

uint64_t iolab_sparing_pbn(const struct iolab_disk_model *m, const struct iolab_zone *z, uint64_t x,
			   uint64_t *run)
{
	if (z->sparing == IOLAB_SPARE_TRACKS)
		return tracks_pbn(z, x, run);
	struct units u;
	units_of(m, z, &u);
	uint64_t p;
	if (u.local) {
		uint64_t n = x / u.len, s = x % u.len, base = n * u.unit + u.front;
		uint32_t a = iolab_lower_bound(z->slips, z->nslips, base);
		uint32_t b = iolab_lower_bound(z->slips, z->nslips, n * u.unit + u.unit);
		s += pushed_by(&u, z->slips, a, b, base, false, s);
		p = base + s;
		*run = s < u.len ? u.len - s : 1; /* past the data area: in the unit's spares */
	} else {
		uint64_t y = x + pushed_by(&u, z->slips, 0, z->nslips, 0, true, x);
		p = y / u.len * u.unit + u.front + y % u.len;
		*run = u.len - y % u.len;
	}
	uint32_t k = iolab_lower_bound(z->slips, z->nslips, p + 1);
	if (k < z->nslips && z->slips[k] - p < *run)
		*run = z->slips[k] - p;
	return p;
}

static int why_f(char *why, size_t len, const char *fmt, ...) __attribute__((format(printf, 3, 4)));

static int why_f(char *why, size_t len, const char *fmt, ...)
{
	va_list ap;
	va_start(ap, fmt);
	vsnprintf(why, len, fmt, ap);
	va_end(ap);
	return -EINVAL;
}

static int check_tracks(const struct iolab_disk_model *m, const struct iolab_zone *z, char *why,
			size_t len)
{
	uint64_t tracks = ((uint64_t)z->last_cyl - z->first_cyl + 1) * m->surfaces;
	if (z->spares >= tracks)
		return why_f(why, len, "field 'sparing': %u spare tracks leave no room for blocks (the "
			     "zone has %" PRIu64 " tracks)", z->spares, tracks);
	if (z->nslips > z->spares)
		return why_f(why, len, "field 'slips': %u slipped tracks, more than the zone's %u spare "
			     "tracks", z->nslips, z->spares);
	for (uint32_t i = 0; i < z->nslips; i++)
		if (z->slips[i] >= tracks)
			return why_f(why, len, "field 'slips': track %" PRIu64 " is outside the zone (its "
				     "tracks are 0..%" PRIu64 ")", z->slips[i], tracks - 1);
	for (uint32_t i = 0; i < z->ndefects; i++)
		if (z->defects[i] >= tracks)
			return why_f(why, len, "field 'defects': track %" PRIu64 " is outside the zone "
				     "(its tracks are 0..%" PRIu64 ")", z->defects[i], tracks - 1);
	return 0;
}

int iolab_sparing_check(const struct iolab_disk_model *m, const struct iolab_zone *z, char *why,
			size_t len)
{
	if (z->sparing == IOLAB_SPARE_OFF && (z->nslips || z->ndefects))
		return why_f(why, len, "field '%s': sparing 'off' has no spare sectors to slip or remap "
			     "into", z->nslips ? "slips" : "defects");
	if (z->sparing == IOLAB_SPARE_TRACKS)
		return check_tracks(m, z, why, len);
	if (!iolab_sparing_own(z->sparing))
		return 0;
	struct units u;
	units_of(m, z, &u);
	const char *unit = z->sparing == IOLAB_SPARE_TRACK ? "track" : "cylinder";
	if (z->spares >= u.unit)
		return why_f(why, len, "field 'sparing': %u spare sectors in every %s leave no room for "
			     "blocks (a %s has %" PRIu64 " sectors)", z->spares, unit, unit, u.unit);
	for (uint32_t a = 0, b; a < z->nslips; a = b) {
		uint64_t n = z->slips[a] / u.unit;
		for (b = a; b < z->nslips && z->slips[b] / u.unit == n; b++) {
			uint64_t in = z->slips[b] % u.unit;
			if (in < u.front || in >= u.front + u.len)
				return why_f(why, len, "field 'slips': sector %" PRIu64 " is a spare sector "
					     "(sectors %" PRIu64 "..%" PRIu64 " of each %s hold blocks)",
					     z->slips[b], u.front, u.front + u.len - 1, unit);
		}
		if (u.local && b - a > z->spares)
			return why_f(why, len, "field 'slips': %u slipped sectors in %s %" PRIu64 " of the "
				     "zone, more than its %u spare sectors", b - a, unit, n, z->spares);
	}
	return 0;
}
