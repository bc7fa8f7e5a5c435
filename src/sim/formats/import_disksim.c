/* import_disksim.c: DiskSim 4.0 drive specifications to iolab drive models (disksim_import.h).
 *
 * The file is read into a tree first (disksim_tree.c). The .diskspecs file holds
 * one `disksim_disk NAME { ... }` block (controller, cache, queue) whose "Model" parameter sources
 * the .model file: a `dm_disk NAME { ... }` block with the geometry, a dm_mech_g1 mechanical model
 * and a dm_layout_g1 layout with its zones. The mechanical model's "Full seek curve" names the
 * .seek file: "Seek distances measured: N", then N "distance, ms" lines (or "distance, ms,
 * stddev", as DIXtrac writes them), read when the "Seek type" is extracted; the other seek types
 * are formulas (seek_curve.c).
 * Every error is one line naming the file, the line and the DiskSim parameter. */
#include <ctype.h>
#include <errno.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <strings.h>

#include "iolab/disksim_import.h"
#include "iolab/parse_number.h"
#include "iolab/textfile.h"
#include "iolab/utf8.h"
#include "sim/formats/disksim_cache_fields.h"
#include "sim/formats/disksim_params.h"
#include "sim/formats/disksim_tree.h"
#include "sim/devices/layout_g4.h"

/* Reads a .seek file: "Seek distances measured: N", then N "distance, ms" lines, each with an
 * optional third column (a standard deviation, kept in the model, not simulated). */
static int read_seek(const char *path, struct iolab_disk_model *m, struct iolab_err *err)
{
	char *text;
	int rc = ds_slurp(path, &text, err);
	if (rc)
		return rc;
	unsigned line = 0, declared = 0, first_line = 0, zeros = 0;
	bool header = false;
	char *save, *l;
	for (char *at = text; (l = strsep(&at, "\n")) && !rc;) {
		line++;
		char *hash = strchr(l, '#');
		if (hash)
			*hash = 0;
		while (isspace((unsigned char)*l))
			l++;
		if (!*l)
			continue;
		if (!header) {
			const char *key = "Seek distances measured:";
			double n;
			char *v = l + strlen(key);
			while (*v == ' ' || *v == '\t')
				v++;
			char *e = v + strlen(v);
			while (e > v && isspace((unsigned char)e[-1]))
				*--e = 0;
			if (strncasecmp(l, key, strlen(key)))
				rc = iolab_errf(err, EINVAL, "%s:%u: field 'Seek distances measured': "
						"missing (the first line must be 'Seek distances "
						"measured: N')", path, line);
			else if (!ds_number(v, &n) || n < 1 || n > 1e6 || n != floor(n))
				rc = iolab_errf(err, EINVAL, "%s:%u: field 'Seek distances measured': '%s' "
						"is not a count 1..1000000", path, line, v);
			else {
				declared = (unsigned)n;
				first_line = line;
				header = true;
				m->seek = malloc(declared * sizeof(*m->seek));
				if (!m->seek)
					rc = ds_oom(err, path);
			}
			continue;
		}
		char *a = strtok_r(l, " \t,\r", &save), *b = strtok_r(NULL, " \t,\r", &save);
		char *c = strtok_r(NULL, " \t,\r", &save); /* DIXtrac's standard deviation */
		double d, t, sd = 0;
		if (!a || !b || strtok_r(NULL, " \t,\r", &save)) {
			rc = iolab_errf(err, EINVAL, "%s:%u: field 'seek': a line is 'distance, ms' or "
					"'distance, ms, stddev_ms'", path, line);
		} else if (c && (!ds_number(c, &sd) || sd < 0 || sd > 1e6)) {
			rc = iolab_errf(err, EINVAL, "%s:%u: field 'stddev': '%s' is not a time in ms "
					"0..1000000", path, line, c);
		} else if (m->nseek && !!c != m->seek_has_sd) {
			rc = iolab_errf(err, EINVAL, "%s:%u: field 'stddev': every line has a standard "
					"deviation, or none", path, line);
		} else if (!ds_number(a, &d) || d < 0 || d > 1e7 || d != floor(d)) {
			rc = iolab_errf(err, EINVAL, "%s:%u: field 'distance': '%s' is not a whole number "
					"of cylinders 0..10000000", path, line, a);
		} else if (!ds_number(b, &t) || t < 0 || t > 1e6) {
			rc = iolab_errf(err, EINVAL, "%s:%u: field 'time': '%s' is not a time in ms "
					"0..1000000", path, line, b);
		} else if (d == 0) { /* skipped: a seek of 0 cylinders takes no time */
			zeros++;
			if (t != 0)
				rc = iolab_errf(err, EINVAL, "%s:%u: field 'time': a seek of distance 0 "
						"takes no time, not '%s' ms", path, line, b);
		} else if (m->nseek + zeros == declared) {
			rc = iolab_errf(err, EINVAL, "%s:%u: field 'Seek distances measured': more "
					"lines than the %u declared on line %u", path, line, declared,
					first_line);
		} else if (m->nseek && d <= m->seek[m->nseek - 1].dist) {
			rc = iolab_errf(err, EINVAL, "%s:%u: field 'distance': '%s' is not larger than "
					"the previous distance (%u)", path, line, a,
					m->seek[m->nseek - 1].dist);
		} else {
			m->seek_has_sd = c != NULL;
			m->seek[m->nseek++] = (struct iolab_seek_point){(uint32_t)d, (uint64_t)llround(t * 1e6),
									(uint64_t)llround(sd * 1e6)};
		}
	}
	if (!rc && !header)
		rc = iolab_errf(err, EINVAL, "%s:%u: field 'Seek distances measured': missing (empty "
				"seek file)", path, line);
	if (!rc && m->nseek + zeros != declared)
		rc = iolab_errf(err, EINVAL, "%s:%u: field 'Seek distances measured': %u declared on "
				"line %u, %u found", path, line, declared, first_line, m->nseek + zeros);
	free(text);
	return rc;
}

/* ---------------------------------------------------------------------------------------- */
/* The model */


static int cmp_u64(const void *a, const void *b)
{
	uint64_t x = *(const uint64_t *)a, y = *(const uint64_t *)b;
	return x < y ? -1 : x > y;
}

/* "Skew units" of a zone (or, with zone NULL, of the layout): true for revolutions. */
static int skew_units(const struct dval *blk, bool dflt, bool *rev, struct iolab_err *err)
{
	const struct dparam *p = ds_find(blk, "Skew units");
	*rev = dflt;
	if (!p)
		return 0;
	if (p->v.kind != V_SCALAR || (strcasecmp(p->v.text, "sectors") && strcasecmp(p->v.text, "revolutions")))
		return ds_perr(p, "is not 'sectors' or 'revolutions'", err);
	*rev = !strcasecmp(p->v.text, "revolutions");
	return 0;
}

/* A skew or offset in the zone's skew units (manual B.4.2 p76), as whole sectors (rounded). */
static int get_skew(const struct dval *zb, const char *name, bool rev, uint32_t spt, uint32_t *out,
		    struct iolab_err *err)
{
	double x;
	if (!rev)
		return ds_get_rounded(zb, name, 100000, out, err);
	if (ds_get_num(zb, name, 0, 1000, &x, err))
		return -EINVAL;
	x *= spt;
	if (x > 100000)
		return ds_perr(ds_find(zb, name), "is out of range (over 100000 sectors)", err);
	*out = (uint32_t)llround(x);
	return 0;
}

/* DiskSim's "Sparing scheme used" (manual B.4.2 p75) to iolab's; -1: not a scheme. */
static int sparing_of(uint64_t scheme)
{
	static const enum iolab_sparing map[] = {
		IOLAB_SPARE_OFF, IOLAB_SPARE_TRACKS, IOLAB_SPARE_CYL, IOLAB_SPARE_TRACK,
		IOLAB_SPARE_CYL_SLIP_END, IOLAB_SPARE_CYL_FRONT, IOLAB_SPARE_CYL_FRONT_SLIP_END,
		IOLAB_SPARE_NONE, IOLAB_SPARE_RANGE, IOLAB_SPARE_ZONE, IOLAB_SPARE_ZONE_SLIP_END,
	};
	return scheme < sizeof(map) / sizeof(map[0]) ? (int)map[scheme] : -1;
}

static int import_zone(const struct dval *zb, int scheme, uint32_t rangesize, bool layout_rev,
		       struct iolab_zone *z, struct iolab_err *err)
{
	bool rev;
	if (ds_get_u32(zb, "First cylinder number", 0, 1e7, &z->first_cyl, err) ||
	    ds_get_u32(zb, "Last cylinder number", 0, 1e7, &z->last_cyl, err) ||
	    ds_get_u32(zb, "Blocks per track", 1, 100000, &z->spt, err) ||
	    skew_units(zb, layout_rev, &rev, err) ||
	    get_skew(zb, "Skew for track switch", rev, z->spt, &z->track_skew, err) ||
	    get_skew(zb, "Skew for cylinder switch", rev, z->spt, &z->cyl_skew, err) ||
	    get_skew(zb, "Offset of first block", rev, z->spt, &z->first_offset, err) ||
	    ds_get_u32(zb, "Empty space at zone front", 0, 1e9, &z->front_empty, err) ||
	    ds_get_u32(zb, "Number of spares", 0, 1e9, &z->spares, err) ||
	    ds_get_list(zb, "slips", &z->slips, &z->nslips, err) ||
	    ds_get_list(zb, "defects", &z->defects, &z->ndefects, err))
		return -EINVAL;
	if (z->nslips > 1)
		qsort(z->slips, z->nslips, sizeof(*z->slips), cmp_u64);
	if (z->ndefects % 2)
		return ds_perr(ds_find(zb, "defects"), "needs pairs: defect, replacement", err);
	z->sparing = (enum iolab_sparing)sparing_of((uint64_t)scheme);
	if (scheme == 7 && z->spares)
		return ds_perr(ds_find(zb, "Number of spares"), "must be 0 with sparing scheme 7 "
			    "(slip to the end of the disk, no spares)", err);
	if (scheme == 0 && z->spares)
		return ds_perr(ds_find(zb, "Number of spares"), "must be 0 with sparing scheme 0 (no spares)", err);
	if (scheme == 0 && (z->nslips || z->ndefects))
		return ds_perr(ds_find(zb, z->nslips ? "slips" : "defects"), "must be empty with sparing "
			    "scheme 0 (no spare sectors to slip or remap into)", err);
	if (scheme == 8)
		z->range = rangesize;
	return 0;
}

static int import_layout(const struct dval *lay, struct iolab_disk_model *m, struct iolab_err *err)
{
	uint64_t mapping, scheme;
	uint32_t rangesize = 0;
	bool rev;
	if (ds_get_int(lay, "LBN-to-PBN mapping scheme", 0, 1e9, &mapping, err))
		return -EINVAL;
	if (mapping > 2)
		return ds_perr(ds_find(lay, "LBN-to-PBN mapping scheme"), "is not a mapping scheme (0: "
			    "cylinder, 1: serpentine, 2: serpentine by cylinder number)", err);
	m->cylinder_serpentine = mapping >= 1;
	m->serpentine_absolute = mapping == 2;
	if (ds_get_int(lay, "Sparing scheme used", 0, 1e9, &scheme, err) || skew_units(lay, false, &rev, err))
		return -EINVAL;
	if (sparing_of(scheme) < 0) {
		char why[128];
		snprintf(why, sizeof(why), "sparing scheme %llu is not one of DiskSim's 0..10",
			 (unsigned long long)scheme);
		return ds_perr(ds_find(lay, "Sparing scheme used"), why, err);
	}
	if (scheme == 8 && ds_get_u32(lay, "Rangesize for sparing", 1, 1e7, &rangesize, err))
		return -EINVAL;
	const struct dparam *zp = ds_find(lay, "Zones");
	if (!zp)
		return ds_missing(lay, "Zones", err);
	if (zp->v.kind != V_LIST || !zp->v.nitem)
		return ds_perr(zp, "must be a non-empty list of dm_layout_g1_zone blocks", err);
	m->zone = calloc(zp->v.nitem, sizeof(*m->zone));
	if (!m->zone)
		return ds_oom(err, zp->v.file);
	for (unsigned i = 0; i < zp->v.nitem; i++) {
		const struct dval *zb = &zp->v.item[i];
		if (zb->kind != V_BLOCK || !zb->text || strcasecmp(zb->text, "dm_layout_g1_zone"))
			return iolab_errf(err, EINVAL, "%s:%u: field 'Zones': item %u is not a "
					  "dm_layout_g1_zone block", zb->file, zb->line, i + 1);
		m->nzones++;
		if (import_zone(zb, (int)scheme, rangesize, rev, &m->zone[i], err))
			return -EINVAL;
	}
	return 0;
}

/* A list of exactly n numbers min..max ("First ten seek times = [ 1.0, ... ]"). */
static int get_floats(const struct dval *blk, const char *name, unsigned n, double min, double max,
		      double *out, struct iolab_err *err)
{
	const struct dparam *p = ds_find(blk, name);
	if (!p)
		return ds_missing(blk, name, err);
	if (p->v.kind != V_LIST)
		return ds_perr(p, "must be a list ('[ x, x, ... ]')", err);
	if (p->v.nitem != n)
		return iolab_errf(err, EINVAL, "%s:%u: field '%s': has %u values, needs %u", p->v.file,
				  p->line, p->name, p->v.nitem, n);
	for (unsigned i = 0; i < n; i++) {
		const struct dval *it = &p->v.item[i];
		if (it->kind != V_SCALAR || !ds_number(it->text, &out[i]) || out[i] < min || out[i] > max)
			return iolab_errf(err, EINVAL, "%s:%u: field '%s': item %u%s%s%s is not a number "
					  "%g..%g", it->file, it->line, p->name, i + 1,
					  it->kind == V_SCALAR ? " '" : "", it->kind == V_SCALAR ? it->text : "",
					  it->kind == V_SCALAR ? "'" : "", min, max);
	}
	return 0;
}

/* One DiskSim number as decimal text for layout_g4.c (hexadecimal made decimal). */
static const char *g4_word(const struct dval *it, char buf[32])
{
	double x;
	if (it->kind != V_SCALAR)
		return "(a list or block)";
	if (!strncasecmp(it->text, "0x", 2) || !strncasecmp(it->text, "-0x", 3))
		if (ds_number(it->text, &x)) {
			snprintf(buf, 32, "%.0f", x);
			return buf;
		}
	return it->text;
}

/* Passes `per` items of list l at a time (the g4 entries: 10 or 11) to iolab_g4_add. */
static int g4_items(const struct dparam *p, const struct dval *l, const char *what, unsigned per,
		    struct iolab_disk_model *m, unsigned node, struct iolab_err *err)
{
	for (unsigned i = 0; i < l->nitem;) {
		char buf[11][32], *w[11], why[240];
		unsigned n = per;
		if (!per) { /* an index entry: 8 (the manual's form), 10 (IDX) or 11 (TRACK) items */
			n = l->nitem - i >= 7 && l->item[i + 6].kind == V_SCALAR &&
			    strspn(l->item[i + 6].text, "TRACKIDXPtrackidxp") == strlen(l->item[i + 6].text) ? 8
			    : l->nitem - i >= 9 && l->item[i + 8].kind == V_SCALAR &&
			    !strcasecmp(l->item[i + 8].text, "TRACK") ? 11 : 10;
		}
		if (l->nitem - i < n)
			n = l->nitem - i;
		for (unsigned k = 0; k < n; k++)
			w[k] = (char *)g4_word(&l->item[i + k], buf[k]);
		int rc = iolab_g4_add(&m->g4, what, w, n, why, sizeof(why));
		if (rc) {
			const char *msg = !strncmp(why, "field '", 7) && strstr(why, "': ") ? strstr(why, "': ") + 3 : why;
			return iolab_errf(err, -rc, "%s:%u: field '%s': %s%u, item %u: %s", l->item[i].file,
					  l->item[i].line, p->name, per ? "" : "node ", per ? i / per + 1 : node,
					  i + 1, msg);
		}
		i += n;
	}
	return 0;
}

/* "Seek type" and the parameters it needs (DiskSim 4.0 manual B.4.3 p77, B.5 pp80-81). The
 * single-cylinder and full-stroke times are read whenever given (required for extracted, curve
 * and linear). Returns 1 for an unknown type. */
static int import_seek_type(const struct dval *mech, const char *type, struct iolab_disk_model *m,
			    struct iolab_err *err)
{
	static const char *const names[] = {"extracted", "hpl", "hplplus10", "curve", "linear", "constant"};
	int t = -1;
	for (int i = 0; i < 6; i++)
		if (!strcasecmp(type, names[i]))
			t = i;
	if (t < 0)
		return 1;
	m->seek_type = t == 0 ? IOLAB_SEEK_DEFAULT : (enum iolab_seek_type)(IOLAB_SEEK_EXTRACTED + t);
	bool three = t == 0 || t == 3 || t == 4; /* extracted (consistency checks), curve, linear */
	const char *figs[2] = {"Single cylinder seek time", "Full strobe seek time"};
	uint64_t *dst[2] = {&m->seek_single_ns, &m->seek_full_ns};
	for (int i = 0; i < 2; i++)
		if ((three || ds_find(mech, figs[i])) && ds_get_ms(mech, figs[i], dst[i], err))
			return -EINVAL;
	if ((t == 3 || t == 4) && ds_get_ms(mech, "Average seek time", &m->seek_avg_ns, err))
		return -EINVAL;
	if (t == 5)
		return ds_get_ms(mech, "Constant seek time", &m->seek_const_ns, err);
	if (t == 1 || t == 2) {
		if (get_floats(mech, "HPL seek equation values", 6, -1e7, 1e7, m->seek_hpl, err))
			return -EINVAL;
		const char *why = iolab_seek_hpl_invalid(m->seek_hpl);
		if (why)
			return ds_perr(ds_find(mech, "HPL seek equation values"), why, err);
	}
	if (t == 2) {
		double ten[10];
		if (get_floats(mech, "First ten seek times", 10, 0, 1e6, ten, err))
			return -EINVAL;
		for (int i = 0; i < 10; i++)
			m->seek_first_ten_ns[i] = (uint64_t)llround(ten[i] * 1e6);
	}
	return 0;
}

/* dm_layout_g4 (manual B.4.5 p80): TP, IDX, Slips, Remaps, all lists. */
static int import_g4(const struct dval *lay, struct iolab_disk_model *m, struct iolab_err *err)
{
	static const char *const names[] = {"TP", "IDX", "Slips", "Remaps"};
	static const char *const what[] = {"tp", "node", "slip", "remap"};
	static const unsigned per[] = {3, 0, 2, 6};
	for (unsigned f = 0; f < 4; f++) {
		const struct dparam *p = ds_find(lay, names[f]);
		if (!p)
			return ds_missing(lay, names[f], err);
		if (p->v.kind != V_LIST)
			return ds_perr(p, "must be a list ('[ n, n, ... ]')", err);
		if (f != 1) {
			if (p->v.nitem % per[f])
				return ds_perr(p, f == 0 ? "needs triples: first sector, last sector, sectors per "
					    "track" : f == 2 ? "needs pairs: lbn, count" : "needs 6-tuples: lbn, "
					    "len, cylinder, head, sector, sectors per track", err);
			if (g4_items(p, &p->v, what[f], per[f], m, 0, err))
				return -EINVAL;
			continue;
		}
		for (unsigned i = 0; i < p->v.nitem; i++) {
			const struct dval *node = &p->v.item[i];
			char num[16], why[240], *w[1] = {num};
			if (node->kind != V_LIST)
				return iolab_errf(err, EINVAL, "%s:%u: field 'IDX': item %u is not a list of "
						  "index entries", node->file, node->line, i + 1);
			snprintf(num, sizeof(num), "%u", i);
			if (iolab_g4_add(&m->g4, "node", w, 1, why, sizeof(why)))
				return iolab_errf(err, ENOMEM, "%s: %s", node->file, why);
			if (g4_items(p, node, "entry", 0, m, i, err))
				return -EINVAL;
		}
	}
	return 0;
}

/* "Access time type" (manual B.4.3 p77): trackSwitchPlusRotation, averageRotation, or constant
 * with "Constant access time". */
static int import_access_type(const struct dval *mech, struct iolab_disk_model *m, struct iolab_err *err)
{
	const char *a;
	if (ds_get_word(mech, "Access time type", &a, err))
		return -EINVAL;
	if (!strcasecmp(a, "trackSwitchPlusRotation"))
		m->access = IOLAB_ACCESS_MECHANICS;
	else if (!strcasecmp(a, "averageRotation"))
		m->access = IOLAB_ACCESS_AVG_ROTATION;
	else if (!strcasecmp(a, "constant"))
		m->access = IOLAB_ACCESS_CONSTANT;
	else
		return ds_perr(ds_find(mech, "Access time type"), "is not trackSwitchPlusRotation, "
			    "averageRotation or constant", err);
	return m->access == IOLAB_ACCESS_CONSTANT ?
	       ds_get_ms(mech, "Constant access time", &m->access_const_ns, err) : 0;
}

static int import_mech(const struct dval *mech, const char *model_path, struct iolab_disk_model *m,
		       struct iolab_err *err)
{
	const char *type, *curve;
	double settle;
	if (ds_get_word(mech, "Seek type", &type, err))
		return -EINVAL;
	int rc = import_seek_type(mech, type, m, err);
	if (rc == 1)
		return ds_perr(ds_find(mech, "Seek type"), "is not a DiskSim seek type (extracted, hpl, "
			    "hplplus10, curve, linear, constant)", err);
	/* Add. write settling delay may be negative: DiskSim does not bound it (writes settle
	 * faster); the positioning never goes below 0 (disk.c). */
	if (rc || ds_get_num(mech, "Add. write settling delay", -1e6, 1e6, &settle, err) ||
	    ds_get_ms(mech, "Head switch time", &m->head_switch_ns, err) ||
	    ds_get_num(mech, "Rotation speed (in rpms)", 1000, 30000, &m->rpm, err) ||
	    import_access_type(mech, m, err))
		return -EINVAL;
	m->write_settle_ns = llround(settle * 1e6);
	if (m->seek_type != IOLAB_SEEK_DEFAULT)
		return 0;
	if (ds_get_word(mech, "Full seek curve", &curve, err))
		return -EINVAL;
	char *seek_path = ds_sibling(model_path, curve);
	if (!seek_path)
		return ds_oom(err, model_path);
	rc = read_seek(seek_path, m, err);
	if (rc == -ENOENT || rc == -EACCES || rc == -EISDIR) /* name the parameter that led there */
		iolab_err_prefix(err, "%s:%u: field 'Full seek curve'", mech->file, ds_find(mech, "Full seek curve")->line);
	free(seek_path);
	return rc;
}

/* dm_disk block of the .model file. */
static int import_model(const struct dval *disk, const char *model_path, struct iolab_disk_model *m,
			struct iolab_err *err)
{
	const struct dval *mech = NULL, *lay = NULL;
	if (ds_get_u32(disk, "Number of data surfaces", 1, 256, &m->surfaces, err) ||
	    ds_get_u32(disk, "Number of cylinders", 1, 1e7, &m->cylinders, err) ||
	    ds_get_int(disk, "Block count", 1, 1e15, &m->blocks, err) ||
	    ds_get_block(disk, "Mechanical Model", "dm_mech_g1", &mech, err) ||
	    ds_get_block(disk, "Layout Model", NULL, &lay, err))
		return -EINVAL;
	if (import_mech(mech, model_path, m, err))
		return -EINVAL;
	const char *type = lay->text ? lay->text : "(a block without type)";
	if (!strcasecmp(type, "dm_layout_g1"))
		return import_layout(lay, m, err);
	if (!strcasecmp(type, "dm_layout_g4"))
		return import_g4(lay, m, err);
	if (!strcasecmp(type, "dm_layout_g2"))
		return ds_perr(ds_find(disk, "Layout Model"), "'dm_layout_g2' is not supported: the manual "
			    "(B.4.4 p79) names its 'Layout Map File' but gives no format for it", err);
	char why[160];
	snprintf(why, sizeof(why), "'%s' is not supported (dm_layout_g1 or dm_layout_g4)", type);
	return ds_perr(ds_find(disk, "Layout Model"), why, err);
}

/* Overhead in ms "after read" and "after write", scaled and with the per-request overhead. */
static int get_ovh(const struct dval *d, const char *what, double scale, double per_req,
		   uint64_t out[2], struct iolab_err *err)
{
	static const char *const after[2] = {"after read", "after write"};
	for (int i = 0; i < 2; i++) {
		char name[96];
		double x;
		snprintf(name, sizeof(name), "%s over. %s", what, after[i]);
		if (ds_get_num(d, name, 0, 1e6, &x, err))
			return -EINVAL;
		x = x * scale + per_req;
		if (x > 1e6)
			return ds_perr(ds_find(d, name), "is out of range once scaled (over 1000000 ms)", err);
		out[i] = (uint64_t)llround(x * 1e6);
	}
	return 0;
}

/* An optional overhead in ms (absent: 0), scaled like every processing overhead. */
static int get_opt_ms(const struct dval *d, const char *name, double scale, uint64_t *ns,
		      struct iolab_err *err)
{
	const struct dparam *p = ds_find(d, name);
	double x = 0;
	if (p && ds_value_num(p, 0, 1e6, &x, err))
		return -EINVAL;
	*ns = (uint64_t)llround(x * scale * 1e6);
	return 0;
}

/* An optional 0/1 parameter (absent: dflt). */
static int get_opt_flag(const struct dval *d, const char *name, bool dflt, bool *out,
			struct iolab_err *err)
{
	*out = dflt;
	return ds_find(d, name) ? ds_get_flag(d, name, out, err) : 0;
}

/* Disconnecting from the interface and the overheads around it (manual 3.4.5 pp16-24;
 * docs/model-format.md, "Disconnecting from the interface"), with the extra write disconnect
 * observed in one SCSI drive (p23). */
static int get_link(const struct dval *d, double scale, struct iolab_disk_model *m,
		    struct iolab_err *err)
{
	bool immed;
	const struct dparam *wm = ds_find(d, "High (read) water mark");
	if (get_opt_ms(d, "Data preparation overhead", scale, &m->ovh_data_prep, err) ||
	    get_opt_ms(d, "First reselect overhead", scale, &m->ovh_reselect[0], err) ||
	    get_opt_ms(d, "Other reselect overhead", scale, &m->ovh_reselect[1], err) ||
	    get_opt_ms(d, "Read disconnect afterread", scale, &m->ovh_read_disconnect[0], err) ||
	    get_opt_ms(d, "Read disconnect afterwrite", scale, &m->ovh_read_disconnect[1], err) ||
	    get_opt_ms(d, "Write disconnect overhead", scale, &m->ovh_write_disconnect, err) ||
	    get_opt_ms(d, "Minimum seek delay", 1, &m->min_write_delay_ns, err) ||
	    get_opt_flag(d, "Never disconnect", false, &m->never_disconnect, err) ||
	    get_opt_flag(d, "Hold bus entire read xfer", false, &m->hold_bus_read, err) ||
	    get_opt_flag(d, "Set watermark by reqsize", false, &m->water_mark_by_request, err) ||
	    get_opt_flag(d, "Immed transfer partial hit", true, &immed, err) ||
	    get_opt_flag(d, "Disconnect write if seek", false, &m->write_disconnect_if_seeking, err) ||
	    get_opt_flag(d, "Extra write disconnect", false, &m->extra_write_disconnect, err) ||
	    get_opt_ms(d, "Extradisc command overhead", scale, &m->extradisc_ns[0], err) ||
	    get_opt_ms(d, "Extradisc disconnect overhead", scale, &m->extradisc_ns[1], err) ||
	    get_opt_ms(d, "Extradisc inter-disconnect delay", 1, &m->extradisc_ns[2], err) ||
	    get_opt_ms(d, "Extradisc 2nd disconnect overhead", scale, &m->extradisc_ns[3], err) ||
	    get_opt_ms(d, "Extradisc seek delta", 1, &m->extradisc_ns[4], err) ||
	    (wm && ds_value_num(wm, 0, 1, &m->read_water_mark, err)))
		return -EINVAL;
	m->partial_hit_waits = !immed;
	if (!m->extra_write_disconnect)
		memset(m->extradisc_ns, 0, sizeof(m->extradisc_ns)); /* used only with it */
	return 0;
}

/* A 0/1 parameter that DiskSim's source also takes as 2 (Enable caching in buffer, Immediate
 * buffer read/write): the manual (3.4.5 pp19, 24) defines only "whether or not". */
static int get_flag01(const struct dval *d, const char *name, bool *out, struct iolab_err *err)
{
	const struct dparam *p = ds_find(d, name);
	double x;
	if (p && p->v.kind == V_SCALAR && ds_number(p->v.text, &x) && x == 2)
		return ds_perr(p, "is not supported: the DiskSim 4.0 manual (3.4.5) defines only 0 and 1, "
			    "and gives 2 no meaning iolab could model", err);
	return ds_get_flag(d, name, out, err);
}

/* The cache and buffer parameters iolab does not model: accepted at the value that matches
 * iolab's drive (or absent), refused otherwise (disksim_cache_fields.c). */
static int check_neutral(const struct dval *d, const struct iolab_disk_model *m,
			 struct iolab_err *err)
{
	for (unsigned i = 0; i < iolab_ds_nneutral; i++) {
		const struct iolab_ds_neutral *f = &iolab_ds_neutral[i];
		const struct dparam *p = ds_find(d, f->name);
		double x;
		if (!p)
			continue;
		if (ds_value_num(p, -1e9, 1e9, &x, err))
			return -EINVAL;
		if (x < f->lo || x > (m->queue_depth == 1 ? f->hi_alone : f->hi))
			return ds_perr(p, f->why, err);
	}
	return 0;
}

/* The prefetch mode and write-back level (DiskSim 4.0 manual 3.4.5 pp19-20). */
static int get_cache_modes(const struct dval *d, struct iolab_disk_model *m, struct iolab_err *err)
{
	uint32_t cont, fast;
	bool stop_pf, direct;
	/* absent (iolab's specs before these were read): 0 */
	if (ds_get_u32(d, "Buffer continuous read", 0, 4, &cont, err) ||
	    ds_get_u32(d, "Fast write level", 0, 2, &fast, err) ||
	    (ds_find(d, "Minimum read-ahead (blks)") &&
	     ds_get_u32(d, "Minimum read-ahead (blks)", 0, 1 << 24, &m->readahead_min_blocks, err)) ||
	    (ds_find(d, "Combine seq writes") && ds_get_flag(d, "Combine seq writes", &m->combine_writes, err)) ||
	    (ds_find(d, "Read-ahead on idle hit") &&
	     ds_get_flag(d, "Read-ahead on idle hit", &m->readahead_on_idle_hit, err)) ||
	    get_opt_flag(d, "Write hit stop prefetch", true, &stop_pf, err) ||
	    get_opt_flag(d, "Read directly to buffer", true, &direct, err) ||
	    (ds_find(d, "Stop prefetch in sector") &&
	     ds_get_flag(d, "Stop prefetch in sector", &m->prefetch_stop_in_sector, err)))
		return -EINVAL;
	m->readahead = (enum iolab_readahead)(IOLAB_PF_NONE + cont);
	m->readahead_track = cont == 4;
	if (cont == 4) /* uncapped, as DiskSim 4.0 runs it (docs/model-format.md, "Cache and
			  buffer fields") */
		m->readahead = IOLAB_PF_LEGACY;
	if (!cont)
		m->readahead_min_blocks = 0;
	/* Level 1 is imported like 2: docs/model-format.md, "Cache and buffer fields". */
	m->write_back = fast != 0;
	m->write_keeps_readahead = !stop_pf;
	m->sector_buffer = !direct;
	return 0;
}

/* disksim_disk block of the .diskspecs file: controller, cache, queue. */
static int import_specs(const struct dval *d, struct iolab_disk_model *m, struct iolab_err *err)
{
	double scale, per_req, bus;
	if (ds_get_num(d, "Per-request overhead time", 0, 1e6, &per_req, err) ||
	    ds_get_num(d, "Time scale for overheads", 0, 1e3, &scale, err) ||
	    ds_get_num(d, "Bulk sector transfer time", 0, 1e3, &bus, err) ||
	    get_ovh(d, "Read hit", scale, per_req, m->ovh_read_hit, err) ||
	    get_ovh(d, "Read miss", scale, per_req, m->ovh_read_miss, err) ||
	    get_ovh(d, "Write hit", scale, per_req, m->ovh_write_hit, err) ||
	    get_ovh(d, "Write miss", scale, per_req, m->ovh_write_miss, err))
		return -EINVAL;
	m->bus_ns_per_block = (uint64_t)llround(bus * 1e6);
	/* Completion overheads (manual 3.4.5 p17): just before the completion message, in parallel
	 * with background media work; scaled like every processing overhead. */
	if (get_opt_ms(d, "Read completion overhead", scale, &m->ovh_complete[0], err) ||
	    get_opt_ms(d, "Write completion overhead", scale, &m->ovh_complete[1], err) ||
	    get_link(d, scale, m, err))
		return -EINVAL;

	/* cache */
	bool enable, imm_read, any_free, imm_write;
	uint32_t segments;
	if (get_flag01(d, "Enable caching in buffer", &enable, err) ||
	    ds_get_u32(d, "Number of buffer segments", 0, 1024, &segments, err) ||
	    ds_get_u32(d, "Segment size (in blks)", 0, 1 << 24, &m->segment_blocks, err) ||
	    ds_get_flag(d, "Use separate write segment", &m->separate_write_segment, err) ||
	    ds_get_u32(d, "Maximum read-ahead (blks)", 0, 1 << 24, &m->readahead_blocks, err) ||
	    ds_get_flag(d, "Read-ahead over requested", &m->readahead_over_request, err) ||
	    get_flag01(d, "Immediate buffer read", &imm_read, err) ||
	    ds_get_flag(d, "Read any free blocks", &any_free, err) ||
	    get_flag01(d, "Immediate buffer write", &imm_write, err) ||
	    get_cache_modes(d, m, err) ||
	    ds_get_u32(d, "Maximum number of write segments", 0, 1024, &m->write_segments, err) ||
	    ds_get_flag(d, "Allow read hits on write data", &m->read_hits_on_write_data, err) ||
	    ds_get_flag(d, "Allow almost read hits", &m->read_joins_readahead, err))
		return -EINVAL;
	m->segments = enable ? segments : 0;
	if (m->segments && !m->segment_blocks)
		return ds_perr(ds_find(d, "Segment size (in blks)"), "must be at least 1 with caching on", err);
	if (!m->segment_blocks)
		m->segment_blocks = 1; /* no cache: the size does not matter, but the format wants >= 1 */
	m->zero_latency_read = imm_read;
	m->read_free_blocks = any_free;
	m->zero_latency_write = imm_write;

	/* queue */
	uint32_t qlen;
	uint64_t policy;
	const struct dval *sched;
	if (ds_get_u32(d, "Max queue length", 0, 256, &qlen, err) ||
	    ds_get_block(d, "Scheduler", "disksim_ioqueue", &sched, err) ||
	    ds_get_int(sched, "Scheduling policy", 0, 1e9, &policy, err))
		return -EINVAL;
	m->queue_depth = qlen ? qlen : 1;
	/* DiskSim 4.0 disksim_ioqueue.h: 1 FCFS, 3 CYCLE_LBN and 6 CYCLE_CYL (one direction, then
	 * back to the lowest: C-LOOK), 4 SSTF_LBN and 7 SSTF_CYL (nearest first), 8 SPTF_OPT. */
	switch (policy) {
	case 1: m->sched = IOLAB_SCHED_FCFS; break;
	case 3:
	case 6: m->sched = IOLAB_SCHED_CLOOK; break;
	case 4:
	case 7: m->sched = IOLAB_SCHED_SSTF; break;
	case 8: m->sched = IOLAB_SCHED_SPTF; break;
	default: {
		char why[160];
		snprintf(why, sizeof(why), "scheduling policy %llu not supported (1 FCFS, 3/6 C-LOOK, "
			 "4/7 SSTF, 8 SPTF)", (unsigned long long)policy);
		return ds_perr(ds_find(sched, "Scheduling policy"), why, err);
	}
	}
	/* the fields iolab does not model, some of which act only with a second command */
	return check_neutral(d, m, err);
}

/* m->name: the file's stem, with characters other than letters, digits, '.', '_' and '-' made '_'. */
static void set_name(struct iolab_disk_model *m, const char *path)
{
	const char *base = strrchr(path, '/');
	base = base ? base + 1 : path;
	size_t len = strlen(base);
	const char *dot = strrchr(base, '.');
	if (dot && dot != base)
		len = (size_t)(dot - base);
	if (len >= sizeof(m->name))
		len = sizeof(m->name) - 1;
	for (size_t i = 0; i < len; i++) {
		char c = base[i];
		m->name[i] = isalnum((unsigned char)c) || c == '.' || c == '_' || c == '-' ? c : '_';
	}
	m->name[len] = 0;
	if (!len)
		snprintf(m->name, sizeof(m->name), "disk");
}

/* The about line: DiskSim's name for the drive, made clean text (it ends up on an `about = `
 * line): '#', control characters and bytes that are not UTF-8 become '_'; cut at a character. */
static void set_about(struct iolab_disk_model *m, const char *dname)
{
	char clean[128];
	size_t n = 0;
	for (const char *s = dname ? dname : "?"; *s;) {
		uint32_t cp;
		size_t len = iolab_utf8_char(s, &cp);
		bool keep = len && !iolab_is_control(cp) && cp != '#';
		size_t put = keep ? len : 1;
		if (n + put > sizeof(clean) - 1)
			break;
		if (keep)
			memcpy(clean + n, s, len);
		else
			clean[n] = '_';
		n += put;
		s += len ? len : 1;
	}
	clean[n] = 0;
	snprintf(m->about, sizeof(m->about), "%s: imported from a DiskSim 4.0 disk "
		 "specification", clean);
}

/* DiskSim 4.0 does not use a dm_layout_g1 disk's Block count (manual B.4.1 p73: "not used
 * directly"): its layout replaces it with what the zones hold (layout_g1_load.c), so the drive
 * holds exactly the zones' blocks. */
static int zones_capacity(struct iolab_disk_model *m, struct iolab_err *err)
{
	m->blocks = 1;
	int rc = iolab_model_finish(m, err);
	if (!rc) {
		const struct iolab_zone *z = &m->zone[m->nzones - 1];
		m->blocks = z->first_lbn + z->nblocks;
	}
	return rc;
}

int iolab_import_disksim(const char *diskspecs_path, struct iolab_disk_model *m, struct iolab_err *err)
{
	return iolab_import_disksim_notes(diskspecs_path, m, NULL, NULL, err);
}

int iolab_import_disksim_notes(const char *diskspecs_path, struct iolab_disk_model *m,
			       iolab_import_note_fn note, void *ctx, struct iolab_err *err)
{
	memset(m, 0, sizeof(*m));
	struct dval top;
	struct ds_sources src;
	const struct dval *disk = NULL;
	int rc = ds_tree_load(diskspecs_path, &top, &src, err);
	if (rc)
		return rc;
	if (!(disk = ds_top_block(&top, "disksim_disk")))
		rc = iolab_errf(err, EINVAL, "%s:1: field 'disksim_disk': missing (no 'disksim_disk "
				"NAME { ... }' block)", diskspecs_path);
	if (!rc)
		rc = ds_import_disk(disk, diskspecs_path, m, err);
	if (!rc && note)
		ds_note_unread(disk, note, ctx);
	ds_tree_free(&top, &src);
	return rc;
}

int ds_import_disk(const struct dval *disk, const char *name_path, struct iolab_disk_model *m,
		   struct iolab_err *err)
{
	memset(m, 0, sizeof(*m));
	char *model_path = NULL;
	const struct dval *mblk = NULL;
	int rc = ds_check_names(disk, err);
	if (!rc) { /* `Model = source X.model` has become the block X.model holds */
		const struct dparam *mp = ds_find(disk, "Model");
		if (!mp)
			rc = ds_missing(disk, "Model", err);
		else if (mp->v.kind != V_BLOCK || !mp->v.text || strcasecmp(mp->v.text, "dm_disk"))
			rc = ds_perr(mp, "must be 'source FILE.model' or a dm_disk block", err);
		else if (!(model_path = strdup((mblk = &mp->v)->file)))
			rc = ds_oom(err, name_path);
	}
	if (!rc) {
		set_name(m, name_path);
		set_about(m, disk->bname);
		m->block_bytes = 512;
		rc = import_model(mblk, model_path, m, err);
	}
	if (!rc)
		rc = import_specs(disk, m, err);
	if (!rc && (((!m->g4 && (rc = zones_capacity(m, err)))) ||
		    (rc = iolab_model_finish(m, err)) || (rc = iolab_model_check(m, err))))
		iolab_err_prefix(err, "%s", model_path); /* the layout and mechanics come from there */
	if (rc)
		iolab_model_free(m);
	free(model_path);
	return rc;
}
