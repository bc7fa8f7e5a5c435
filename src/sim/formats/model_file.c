/* model_file.c: iolab's drive-model text format (docs/model-format.md): reading, checking and
 * writing. Top-level `name = value` lines describe the drive; a [seek] section holds the measured
 * seek curve as "distance_cylinders time_ms" lines; each [zone] section describes one recording
 * zone, or one [g4] section holds a table-driven layout instead (layout_g4.c). Units are in the field names; every error names the file, line and field. A field may be
 * given once (slips and defects may take several lines). After reading, iolab_model_finish
 * (layout.c) derives the layout and the seek fit, and iolab_model_check (here) refuses figures
 * that contradict each other. */
#include <errno.h>
#include <inttypes.h>
#include <math.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <strings.h>

#include "iolab/disk_model.h"
#include "iolab/parse.h"
#include "iolab/parse_number.h"
#include "iolab/textfile.h"
#include "iolab/utf8.h"
#include "sim/devices/layout.h"
#include "sim/devices/layout_g4.h"
#include "sim/devices/layout_sparing.h"
#include "sim/formats/ssd_model_file.h"

enum msec { SEC_TOP, SEC_SEEK, SEC_ZONE, SEC_G4 };

/* Longest text fields, in bytes (docs/model-format.md). */
#define NAME_MAX_BYTES (sizeof(((struct iolab_disk_model *)0)->name) - 1)
#define ABOUT_MAX_BYTES (sizeof(((struct iolab_disk_model *)0)->about) - 1)

/* The fields that may be given once: the drive's, then a zone's (slips and defects may repeat). */
static const char *const top_names[] = {
	"name", "about", "block_bytes", "surfaces", "cylinders", "blocks", "mapping", "rpm",
	"seek_single_ms", "seek_average_ms", "seek_full_ms", "write_settle_ms", "head_switch_ms",
	"read_write_switch_ms",
	"bus_us_per_block", "overhead_read_hit_ms", "overhead_read_miss_ms", "overhead_write_hit_ms",
	"overhead_write_miss_ms", "cache_segments", "separate_write_segment", "readahead_track",
	"zero_latency_read", "read_joins_readahead", "zero_latency_write", "segment_blocks",
	"readahead_blocks", "readahead_over_request", "write_back", "write_segments",
	"read_hits_on_write_data", "queue_depth", "scheduler", "read_free_blocks",
	"seek_type", "seek_hpl", "seek_first_ten_ms", "seek_constant_ms", "access_time",
	"access_constant_ms", "overhead_completion_ms",
	"readahead", "readahead_min_blocks", "combine_writes", "prefetch_stop_in_sector",
	"readahead_on_idle_hit", "write_keeps_readahead", "sector_buffer", "never_disconnect", "hold_bus_read", "read_water_mark",
	"water_mark_of", "partial_hit_waits", "write_disconnect_if_seeking", "overhead_data_prep_ms",
	"overhead_reselect_ms", "overhead_read_disconnect_ms", "overhead_write_disconnect_ms",
	"min_write_delay_ms", "extra_write_disconnect_ms",
};
static const char *const zone_names[] = {
	"cylinders", "sectors_per_track", "track_skew_sectors", "cylinder_skew_sectors",
	"first_sector_offset", "front_empty_sectors", "sparing",
};
#define NTOP (sizeof(top_names) / sizeof(top_names[0]))

const char *iolab_model_field_at(unsigned i)
{
	return i < NTOP ? top_names[i] : NULL;
}
#define NZONE (sizeof(zone_names) / sizeof(zone_names[0]))

struct mparser {
	const char *name;
	unsigned line;
	enum msec sec;
	struct iolab_disk_model *m;
	struct iolab_err *err;
	unsigned zcap, scap;
	unsigned top_line[NTOP];   /* where each drive field was given (0: not given) */
	unsigned zone_line[NZONE]; /* the same for the current zone's fields */
};

static int ferr(struct mparser *p, const char *field, const char *fmt, const char *v)
{
	return iolab_errf(p->err, EINVAL, "%s:%u: field '%s': %s%s%s%s", p->name, p->line, field,
			  v ? "'" : "", v ? v : "", v ? "' " : "", fmt);
}

static int num(struct mparser *p, const char *field, const char *v, double min, double max, double *out)
{
	double x;
	int rc = iolab_parse_decimal(v, &x);
	if (rc == -EINVAL)
		return ferr(p, field, "is not a number", v);
	if (rc || x < min || x > max) {
		char why[96];
		snprintf(why, sizeof(why), "is out of range (%g..%g)", min, max);
		return ferr(p, field, why, v);
	}
	*out = x;
	return 0;
}

static int u32(struct mparser *p, const char *field, const char *v, double min, double max, uint32_t *out)
{
	double x;
	int rc = num(p, field, v, min, max, &x);
	if (!rc && x != floor(x))
		return ferr(p, field, "is not a whole number", v);
	if (!rc)
		*out = (uint32_t)x;
	return rc;
}

static int u64(struct mparser *p, const char *field, const char *v, double max, uint64_t *out)
{
	double x;
	int rc = num(p, field, v, 0, max, &x);
	if (!rc && x != floor(x))
		return ferr(p, field, "is not a whole number", v);
	if (!rc)
		*out = (uint64_t)x;
	return rc;
}

static int ms(struct mparser *p, const char *field, const char *v, uint64_t *ns)
{
	double x;
	int rc = num(p, field, v, 0, 1e6, &x);
	if (!rc)
		*ns = (uint64_t)llround(x * 1e6);
	return rc;
}

/* "a b": two times in ms; `what` names them for the message ("after a read, after a write"). */
static int ms_pair(struct mparser *p, const char *field, char *v, uint64_t out[2], const char *what)
{
	char *sv, *a = strtok_r(v, " \t", &sv), *b = strtok_r(NULL, " \t", &sv);
	if (!a || !b || strtok_r(NULL, " \t", &sv)) {
		char why[96];
		snprintf(why, sizeof(why), "needs two times in ms: %s", what);
		return ferr(p, field, why, NULL);
	}
	return ms(p, field, a, &out[0]) || ms(p, field, b, &out[1]) ? -EINVAL : 0;
}

#define AFTER_RW "after a read, after a write"

static int yesno(struct mparser *p, const char *field, const char *v, bool *out)
{
	if (iolab_parse_bool(field, v, out, NULL))
		return ferr(p, field, "is not yes or no", v);
	return 0;
}

static int list(struct mparser *p, const char *field, char *v, uint64_t **arr, uint32_t *n)
{
	for (char *sv, *tok = strtok_r(v, " \t,[]", &sv); tok; tok = strtok_r(NULL, " \t,[]", &sv)) {
		uint64_t x;
		if (u64(p, field, tok, 1e15, &x))
			return -EINVAL;
		if (*n % 64 == 0) {
			uint64_t *na = realloc(*arr, (*n + 64) * sizeof(*na));
			if (!na)
				return iolab_errf(p->err, ENOMEM, "%s: out of memory", p->name);
			*arr = na;
		}
		(*arr)[(*n)++] = x;
	}
	return 0;
}

/* A text field: UTF-8 without control characters, at most max bytes (the value is not quoted in
 * the message: it may not be printable). */
static int text(struct mparser *p, const char *field, const char *v, size_t max, char *out)
{
	char why[96];
	if (iolab_text_check(v, max, why, sizeof(why)))
		return ferr(p, field, why, NULL);
	strcpy(out, v);
	return 0;
}

/* Refuses a field given twice (names: the fields that may be given once; lines: where each
 * was). A name not in the list is left to the field's reader. */
static int once(struct mparser *p, const char *const *names, size_t n, unsigned *lines, const char *k)
{
	for (size_t i = 0; i < n; i++) {
		if (strcmp(names[i], k))
			continue;
		if (lines[i]) {
			char why[64];
			snprintf(why, sizeof(why), "already given on line %u", lines[i]);
			return ferr(p, k, why, NULL);
		}
		lines[i] = p->line;
		return 0;
	}
	return 0;
}

/* "v v v": exactly n numbers min..max (commas allowed between them). */
static int numbers(struct mparser *p, const char *field, char *v, unsigned n, double min, double max,
		   double *out)
{
	unsigned got = 0;
	char *sv, *tok = strtok_r(v, " \t,", &sv);
	for (; tok && got < n; tok = strtok_r(NULL, " \t,", &sv))
		if (num(p, field, tok, min, max, &out[got++]))
			return -EINVAL;
	if (got != n || tok) {
		char why[64];
		snprintf(why, sizeof(why), "needs %u numbers, not %s", n, tok ? "more" : "fewer");
		return ferr(p, field, why, NULL);
	}
	return 0;
}

/* The seek-formula and access-time fields ("Seek formulas and access-time types" in
 * docs/model-format.md). Returns 1 for a field that is none of them. */
static int seek_field(struct mparser *p, const char *k, char *v)
{
	static const char *const types[] = {"", "extracted", "hpl", "hplplus10", "curve", "linear",
					    "constant"};
	static const char *const access[] = {"seek_rotation", "average_rotation", "constant"};
	struct iolab_disk_model *m = p->m;
	if (!strcmp(k, "seek_type")) {
		for (unsigned i = 1; i < sizeof(types) / sizeof(types[0]); i++)
			if (!strcmp(v, types[i])) {
				m->seek_type = (enum iolab_seek_type)i;
				return 0;
			}
		return ferr(p, k, "is not extracted, hpl, hplplus10, curve, linear or constant", v);
	}
	if (!strcmp(k, "access_time")) {
		for (unsigned i = 0; i < 3; i++)
			if (!strcmp(v, access[i])) {
				m->access = (enum iolab_access)i;
				return 0;
			}
		return ferr(p, k, "is not seek_rotation, average_rotation or constant", v);
	}
	if (!strcmp(k, "seek_hpl")) {
		if (numbers(p, k, v, 6, -1e7, 1e7, m->seek_hpl))
			return -EINVAL;
		const char *why = iolab_seek_hpl_invalid(m->seek_hpl);
		return why ? ferr(p, k, why, NULL) : 0;
	}
	if (!strcmp(k, "seek_first_ten_ms")) {
		double t[10];
		if (numbers(p, k, v, 10, 0, 1e6, t))
			return -EINVAL;
		for (int i = 0; i < 10; i++)
			m->seek_first_ten_ns[i] = (uint64_t)llround(t[i] * 1e6);
		return 0;
	}
	if (!strcmp(k, "seek_constant_ms"))
		return ms(p, k, v, &m->seek_const_ns);
	if (!strcmp(k, "access_constant_ms"))
		return ms(p, k, v, &m->access_const_ns);
	if (!strcmp(k, "overhead_completion_ms"))
		return ms_pair(p, k, v, m->ovh_complete, "a read's, a write's");
	return 1;
}

/* The yes/no fields that default to no and are written only when yes: the DiskSim cache and
 * interface-connection details ("Cache and buffer fields", "Disconnecting from the interface"). */
#define FLAG(f) {#f, offsetof(struct iolab_disk_model, f)}
static const struct {
	const char *key;
	size_t off;
} opt_flags[] = {
	FLAG(combine_writes), FLAG(prefetch_stop_in_sector), FLAG(readahead_on_idle_hit),
	FLAG(write_keeps_readahead), FLAG(sector_buffer), FLAG(never_disconnect),
	FLAG(hold_bus_read), FLAG(partial_hit_waits), FLAG(write_disconnect_if_seeking),
};
#undef FLAG

static bool *opt_flag(struct iolab_disk_model *m, unsigned i)
{
	return (bool *)((char *)m + opt_flags[i].off);
}

/* The cache and buffer fields of docs/model-format.md "Cache and buffer fields" (DiskSim 4.0
 * manual 3.4.5 pp19-20). Returns 1 if k is none of them. */
static int cache_field(struct mparser *p, const char *k, char *v)
{
	struct iolab_disk_model *m = p->m;
	if (!strcmp(k, "readahead")) {
		static const char *const modes[] = {"", "none", "track", "cylinder", "segment",
						    "next-track"};
		for (unsigned i = 1; i < sizeof(modes) / sizeof(modes[0]); i++)
			if (!strcmp(v, modes[i])) {
				m->readahead = (enum iolab_readahead)i;
				m->readahead_track = m->readahead == IOLAB_PF_NEXT_TRACK;
				return 0;
			}
		return ferr(p, k, "is not none, track, cylinder, segment or next-track", v);
	}
	if (!strcmp(k, "readahead_min_blocks"))
		return u32(p, k, v, 0, 1 << 24, &m->readahead_min_blocks);
	for (unsigned i = 0; i < sizeof(opt_flags) / sizeof(opt_flags[0]); i++)
		if (!strcmp(k, opt_flags[i].key))
			return yesno(p, k, v, opt_flag(m, i));
	return 1;
}

/* The interface connection fields (docs/model-format.md, "Disconnecting from the interface";
 * DiskSim 4.0 manual 3.4.5 pp16-24). Returns 1 if k is none of them. */
static int link_field(struct mparser *p, const char *k, char *v)
{
	struct iolab_disk_model *m = p->m;
	if (!strcmp(k, "read_water_mark"))
		return num(p, k, v, 0, 1, &m->read_water_mark);
	if (!strcmp(k, "water_mark_of")) {
		if (strcmp(v, "request") && strcmp(v, "segment"))
			return ferr(p, k, "is not request or segment", v);
		m->water_mark_by_request = !strcmp(v, "request");
		return 0;
	}
	if (!strcmp(k, "overhead_data_prep_ms"))
		return ms(p, k, v, &m->ovh_data_prep);
	if (!strcmp(k, "overhead_reselect_ms"))
		return ms_pair(p, k, v, m->ovh_reselect, "the first reconnection, later ones");
	if (!strcmp(k, "overhead_read_disconnect_ms"))
		return ms_pair(p, k, v, m->ovh_read_disconnect, AFTER_RW);
	if (!strcmp(k, "overhead_write_disconnect_ms"))
		return ms(p, k, v, &m->ovh_write_disconnect);
	if (!strcmp(k, "min_write_delay_ms"))
		return ms(p, k, v, &m->min_write_delay_ns);
	if (!strcmp(k, "extra_write_disconnect_ms")) {
		double t[5];
		if (numbers(p, k, v, 5, 0, 1e6, t))
			return -EINVAL;
		for (int i = 0; i < 5; i++)
			m->extradisc_ns[i] = (uint64_t)llround(t[i] * 1e6);
		m->extra_write_disconnect = true;
		return 0;
	}
	return 1;
}

/* Writes the optional flags that are yes and the interface connection fields that differ from
 * their defaults. */
static void put_link_fields(const struct iolab_disk_model *m, FILE *f)
{
	for (unsigned i = 0; i < sizeof(opt_flags) / sizeof(opt_flags[0]); i++)
		if (*(const bool *)((const char *)m + opt_flags[i].off))
			fprintf(f, "%s = yes\n", opt_flags[i].key);
	if (m->read_water_mark)
		fprintf(f, "read_water_mark = %.6g\n", m->read_water_mark);
	if (m->water_mark_by_request)
		fprintf(f, "water_mark_of = request\n");
	if (m->ovh_data_prep)
		fprintf(f, "overhead_data_prep_ms = %.6f\n", m->ovh_data_prep / 1e6);
	if (m->ovh_reselect[0] || m->ovh_reselect[1])
		fprintf(f, "overhead_reselect_ms = %.6f %.6f\n", m->ovh_reselect[0] / 1e6,
			m->ovh_reselect[1] / 1e6);
	if (m->ovh_read_disconnect[0] || m->ovh_read_disconnect[1])
		fprintf(f, "overhead_read_disconnect_ms = %.6f %.6f\n", m->ovh_read_disconnect[0] / 1e6,
			m->ovh_read_disconnect[1] / 1e6);
	if (m->ovh_write_disconnect)
		fprintf(f, "overhead_write_disconnect_ms = %.6f\n", m->ovh_write_disconnect / 1e6);
	if (m->min_write_delay_ns)
		fprintf(f, "min_write_delay_ms = %.6f\n", m->min_write_delay_ns / 1e6);
	if (m->extra_write_disconnect)
		fprintf(f, "extra_write_disconnect_ms = %.6f %.6f %.6f %.6f %.6f\n",
			m->extradisc_ns[0] / 1e6, m->extradisc_ns[1] / 1e6, m->extradisc_ns[2] / 1e6,
			m->extradisc_ns[3] / 1e6, m->extradisc_ns[4] / 1e6);
}

static int top_field(struct mparser *p, const char *k, char *v)
{
	struct iolab_disk_model *m = p->m;
	if (!strcmp(k, "name")) {
		if (!*v)
			return ferr(p, k, "is empty (a model needs a name)", NULL);
		return text(p, k, v, NAME_MAX_BYTES, m->name);
	}
	if (!strcmp(k, "about"))
		return text(p, k, v, ABOUT_MAX_BYTES, m->about);
	if (!strcmp(k, "device")) /* `device = disk`, the first field (iolab_model_device) */
		return 0;
	if (!strcmp(k, "block_bytes"))
		return u32(p, k, v, 512, 65536, &m->block_bytes);
	if (!strcmp(k, "surfaces"))
		return u32(p, k, v, 1, 256, &m->surfaces);
	if (!strcmp(k, "cylinders"))
		return u32(p, k, v, 1, 10000000, &m->cylinders);
	if (!strcmp(k, "blocks"))
		return u64(p, k, v, 1e15, &m->blocks);
	if (!strcmp(k, "mapping")) {
		if (strcmp(v, "cylinder") && strcmp(v, "serpentine") && strcmp(v, "serpentine-absolute"))
			return ferr(p, k, "is not 'cylinder', 'serpentine' or 'serpentine-absolute'", v);
		m->cylinder_serpentine = strcmp(v, "cylinder") != 0;
		m->serpentine_absolute = !strcmp(v, "serpentine-absolute");
		return 0;
	}
	if (!strcmp(k, "rpm"))
		return num(p, k, v, 1000, 30000, &m->rpm);
	if (!strcmp(k, "seek_single_ms"))
		return ms(p, k, v, &m->seek_single_ns);
	if (!strcmp(k, "seek_average_ms"))
		return ms(p, k, v, &m->seek_avg_ns);
	if (!strcmp(k, "seek_full_ms"))
		return ms(p, k, v, &m->seek_full_ns);
	if (!strcmp(k, "write_settle_ms")) { /* negative: writes settle faster (DiskSim accepts it) */
		double x;
		int rc = num(p, k, v, -1e6, 1e6, &x);
		if (!rc)
			m->write_settle_ns = llround(x * 1e6);
		return rc;
	}
	if (!strcmp(k, "head_switch_ms"))
		return ms(p, k, v, &m->head_switch_ns);
	if (!strcmp(k, "read_write_switch_ms")) {
		m->rw_switch_given = true;
		return ms(p, k, v, &m->rw_switch_ns);
	}
	if (!strcmp(k, "bus_us_per_block")) {
		double x;
		int rc = num(p, k, v, 0, 1e6, &x);
		if (!rc)
			m->bus_ns_per_block = (uint64_t)llround(x * 1e3);
		return rc;
	}
	if (!strcmp(k, "overhead_read_hit_ms"))
		return ms_pair(p, k, v, m->ovh_read_hit, AFTER_RW);
	if (!strcmp(k, "overhead_read_miss_ms"))
		return ms_pair(p, k, v, m->ovh_read_miss, AFTER_RW);
	if (!strcmp(k, "overhead_write_hit_ms"))
		return ms_pair(p, k, v, m->ovh_write_hit, AFTER_RW);
	if (!strcmp(k, "overhead_write_miss_ms"))
		return ms_pair(p, k, v, m->ovh_write_miss, AFTER_RW);
	if (!strcmp(k, "cache_segments"))
		return u32(p, k, v, 0, 1024, (uint32_t *)&m->segments);
	if (!strcmp(k, "separate_write_segment"))
		return yesno(p, k, v, &m->separate_write_segment);
	if (!strcmp(k, "readahead_track"))
		return yesno(p, k, v, &m->readahead_track);
	if (!strcmp(k, "zero_latency_read"))
		return yesno(p, k, v, &m->zero_latency_read);
	if (!strcmp(k, "read_joins_readahead"))
		return yesno(p, k, v, &m->read_joins_readahead);
	if (!strcmp(k, "zero_latency_write"))
		return yesno(p, k, v, &m->zero_latency_write);
	if (!strcmp(k, "read_free_blocks"))
		return yesno(p, k, v, &m->read_free_blocks);
	if (!strcmp(k, "segment_blocks"))
		return u32(p, k, v, 1, 1 << 24, &m->segment_blocks);
	if (!strcmp(k, "readahead_blocks"))
		return u32(p, k, v, 0, 1 << 24, &m->readahead_blocks);
	if (!strcmp(k, "readahead_over_request"))
		return yesno(p, k, v, &m->readahead_over_request);
	if (!strcmp(k, "write_back")) { /* sequential: DiskSim Fast write level 1 */
		m->write_back_sequential = !strcmp(v, "sequential");
		if (m->write_back_sequential)
			return m->write_back = true, 0;
		return yesno(p, k, v, &m->write_back);
	}
	if (!strcmp(k, "write_segments"))
		return u32(p, k, v, 0, 1024, (uint32_t *)&m->write_segments);
	if (!strcmp(k, "read_hits_on_write_data"))
		return yesno(p, k, v, &m->read_hits_on_write_data);
	if (!strcmp(k, "queue_depth"))
		return u32(p, k, v, 1, 256, (uint32_t *)&m->queue_depth);
	if (!strcmp(k, "scheduler")) {
		static const char *const names[] = {"fcfs", "sstf", "clook", "sptf"};
		for (unsigned i = 0; i < 4; i++)
			if (!strcmp(v, names[i])) {
				m->sched = (enum iolab_sched)i;
				return 0;
			}
		return ferr(p, k, "is not fcfs, sstf, clook or sptf", v);
	}
	int rc = seek_field(p, k, v);
	if (rc == 1)
		rc = cache_field(p, k, v);
	if (rc == 1)
		rc = link_field(p, k, v);
	if (rc == 1 && iolab_ssd_field(k))
		return ferr(p, k, "an SSD field in a drive model (an SSD model starts with 'device = "
			    "ssd')", NULL);
	return rc != 1 ? rc : ferr(p, k, "unknown field (see docs/model-format.md)", NULL);
}

static int zone_field(struct mparser *p, const char *k, char *v)
{
	struct iolab_zone *z = &p->m->zone[p->m->nzones - 1];
	if (!strcmp(k, "cylinders")) {
		char *sv, *a = strtok_r(v, " \t", &sv), *b = strtok_r(NULL, " \t", &sv);
		if (!a || !b || strtok_r(NULL, " \t", &sv))
			return ferr(p, k, "needs the first and last cylinder", NULL);
		return u32(p, k, a, 0, 1e7, &z->first_cyl) || u32(p, k, b, 0, 1e7, &z->last_cyl) ? -EINVAL : 0;
	}
	if (!strcmp(k, "sectors_per_track"))
		return u32(p, k, v, 1, 100000, &z->spt);
	if (!strcmp(k, "track_skew_sectors"))
		return u32(p, k, v, 0, 100000, &z->track_skew);
	if (!strcmp(k, "cylinder_skew_sectors"))
		return u32(p, k, v, 0, 100000, &z->cyl_skew);
	if (!strcmp(k, "first_sector_offset"))
		return u32(p, k, v, 0, 100000, &z->first_offset);
	if (!strcmp(k, "front_empty_sectors"))
		return u32(p, k, v, 0, 1e9, &z->front_empty);
	if (!strcmp(k, "sparing")) {
		static const char *const forms = "is 'none', 'off', 'zone S', 'zone-slip-end S', "
			"'range S CYLINDERS', 'tracks S', 'track S', 'cylinder S', 'cylinder-slip-end S', "
			"'cylinder-front S' or 'cylinder-front-slip-end S' (docs/model-format.md)";
		char *sv, *kind = strtok_r(v, " \t", &sv), *n = strtok_r(NULL, " \t", &sv);
		char *r = strtok_r(NULL, " \t", &sv);
		if (iolab_sparing_parse(kind, &z->sparing))
			return ferr(p, k, forms, kind);
		unsigned got = !!n + !!r;
		if (got != iolab_sparing_args(z->sparing) || strtok_r(NULL, " \t", &sv))
			return ferr(p, k, forms, NULL);
		if (n && u32(p, k, n, 0, 1e9, &z->spares))
			return -EINVAL;
		return r ? u32(p, k, r, 1, 1e7, &z->range) : 0;
	}
	if (!strcmp(k, "slips"))
		return list(p, k, v, &z->slips, &z->nslips);
	if (!strcmp(k, "defects"))
		return list(p, k, v, &z->defects, &z->ndefects);
	return ferr(p, k, "unknown zone field (see docs/model-format.md)", NULL);
}

/* A [g4] line: `tp`, `node`, `entry`, `slip` or `remap` and its numbers (layout_g4.c). */
static int g4_line(struct mparser *p, const char *k, char *v)
{
	char *w[16], *sv;
	unsigned n = 0;
	for (char *tok = strtok_r(v, " \t,", &sv); tok; tok = strtok_r(NULL, " \t,", &sv))
		if (n < 16)
			w[n++] = tok;
		else
			return ferr(p, k, "has more than 16 words", NULL);
	char why[200];
	int rc = iolab_g4_add(&p->m->g4, k, w, n, why, sizeof(why));
	if (rc)
		return iolab_errf(p->err, -rc, "%s:%u: %s", p->name, p->line, why);
	return 0;
}

static int seek_line(struct mparser *p, char *l)
{
	char *sv, *a = strtok_r(l, " \t,", &sv), *b = strtok_r(NULL, " \t,", &sv);
	char *c = strtok_r(NULL, " \t,", &sv);
	if (!a || !b || strtok_r(NULL, " \t,", &sv) || (b && !strcmp(b, "=")))
		return ferr(p, "seek", "a line is: distance_cylinders time_ms [stddev_ms]", NULL);
	struct iolab_disk_model *m = p->m;
	if (m->nseek == p->scap) {
		p->scap = p->scap ? p->scap * 2 : 64;
		struct iolab_seek_point *ns = realloc(m->seek, p->scap * sizeof(*ns));
		if (!ns)
			return iolab_errf(p->err, ENOMEM, "%s: out of memory", p->name);
		m->seek = ns;
	}
	struct iolab_seek_point *sp = &m->seek[m->nseek];
	sp->sd_ns = 0;
	if (u32(p, "distance", a, 1, 1e7, &sp->dist) || ms(p, "time_ms", b, &sp->ns) ||
	    (c && ms(p, "stddev_ms", c, &sp->sd_ns)))
		return -EINVAL;
	if (m->nseek && !!c != m->seek_has_sd)
		return ferr(p, "stddev_ms", "every line of [seek] has one, or none", NULL);
	m->seek_has_sd = c != NULL;
	if (m->nseek && sp->dist <= m->seek[m->nseek - 1].dist)
		return ferr(p, "distance", "is not larger than the previous distance", a);
	if (m->cylinders && sp->dist > m->cylinders - 1)
		return ferr(p, "distance", "is beyond the last cylinder (cylinders - 1)", a);
	m->nseek++;
	return 0;
}

/* ---------------------------------------------------------------------------------------- */
/* Figures that contradict each other. Read from a file (p set), a message starts with the file
 * and the line of the field (the drive's fields) or of the [zone] line; else it starts with the
 * field, like iolab_model_finish's. */

static int cerr(const struct mparser *p, unsigned line, struct iolab_err *err, const char *fmt, ...)
	__attribute__((format(printf, 4, 5)));

static int cerr(const struct mparser *p, unsigned line, struct iolab_err *err, const char *fmt, ...)
{
	char msg[sizeof(err->msg)];
	va_list ap;
	va_start(ap, fmt);
	vsnprintf(msg, sizeof(msg), fmt, ap);
	va_end(ap);
	if (p && line)
		return iolab_errf(err, EINVAL, "%s:%u: %s", p->name, line, msg);
	return iolab_errf(err, EINVAL, "%s", msg);
}

/* Line of drive field k in the file (0: not from a file, or not given). */
static unsigned top_line(const struct mparser *p, const char *k)
{
	for (size_t i = 0; p && i < NTOP; i++)
		if (!strcmp(top_names[i], k))
			return p->top_line[i];
	return 0;
}

static int check_text(const struct iolab_disk_model *m, const struct mparser *p, struct iolab_err *err)
{
	char why[96] = "is not terminated";
	if (!memchr(m->name, 0, sizeof(m->name)) ||
	    iolab_text_check(m->name, NAME_MAX_BYTES, why, sizeof(why)))
		return cerr(p, top_line(p, "name"), err, "field 'name': %s", why);
	strcpy(why, "is not terminated");
	if (!memchr(m->about, 0, sizeof(m->about)) ||
	    iolab_text_check(m->about, ABOUT_MAX_BYTES, why, sizeof(why)))
		return cerr(p, top_line(p, "about"), err, "field 'about': %s", why);
	return 0;
}

/* The datasheet figures: single <= average <= full (the average over random cylinder pairs of a
 * curve that starts at the single-cylinder time and ends at the full-stroke time lies between
 * them); a measured curve stops at the last cylinder. */
static int check_seek(const struct iolab_disk_model *m, const struct mparser *p, struct iolab_err *err)
{
	double single = m->seek_single_ns / 1e6, avg = m->seek_avg_ns / 1e6, full = m->seek_full_ns / 1e6;
	if (m->seek_single_ns && m->seek_full_ns && m->seek_single_ns > m->seek_full_ns)
		return cerr(p, top_line(p, "seek_single_ms"), err, "field 'seek_single_ms': %.6g ms is "
			    "longer than seek_full_ms (%.6g ms): a single-cylinder seek cannot take "
			    "longer than a full stroke", single, full);
	if (m->seek_avg_ns && m->seek_single_ns && m->seek_avg_ns < m->seek_single_ns)
		return cerr(p, top_line(p, "seek_average_ms"), err, "field 'seek_average_ms': %.6g ms is "
			    "below seek_single_ms (%.6g ms): the average seek cannot be shorter than "
			    "the single-cylinder seek", avg, single);
	if (m->seek_avg_ns && m->seek_full_ns && m->seek_avg_ns > m->seek_full_ns)
		return cerr(p, top_line(p, "seek_average_ms"), err, "field 'seek_average_ms': %.6g ms is "
			    "above seek_full_ms (%.6g ms): the average seek cannot be longer than a "
			    "full stroke", avg, full);
	if ((m->seek_type == IOLAB_SEEK_CURVE || m->seek_type == IOLAB_SEEK_LINEAR) &&
	    (!m->seek_single_ns || !m->seek_avg_ns || !m->seek_full_ns))
		return cerr(p, top_line(p, "seek_type"), err, "field '%s': required with seek_type = %s "
			    "(the formula goes through the single-cylinder, average and full-stroke "
			    "times)", !m->seek_single_ns ? "seek_single_ms" : !m->seek_avg_ns ?
			    "seek_average_ms" : "seek_full_ms",
			    m->seek_type == IOLAB_SEEK_CURVE ? "curve" : "linear");
	if (m->nseek && m->seek[m->nseek - 1].dist > m->cylinders - 1)
		return cerr(p, 0, err, "[seek]: field 'distance': %u is beyond the last cylinder (%u): "
			    "no seek is longer than cylinders - 1", m->seek[m->nseek - 1].dist,
			    m->cylinders - 1);
	return 0;
}

/* Where zone z's spare sectors, slips and defects are: inside the zone, at most one slip per
 * spare sector (a slip pushes the later blocks on by one into the spares), and every block
 * mapped within the zone's cylinders. Runs after iolab_model_finish (zones in order, slips
 * ascending, nblocks derived). */
static int check_zone_sectors(const struct iolab_disk_model *m, unsigned i, const struct mparser *p,
			      struct iolab_err *err)
{
	const struct iolab_zone *z = &m->zone[i];
	unsigned line = p ? z->line : 0, zn = i + 1;
	uint64_t cyls = (uint64_t)z->last_cyl - z->first_cyl + 1;
	uint64_t spc = (uint64_t)z->spt * m->surfaces, phys = cyls * spc;
	char why[200];
	if (m->g4) /* derived from the table's root entries (layout_g4.c checked them) */
		return 0;
	if (iolab_sparing_check(m, z, why, sizeof(why)))
		return cerr(p, line, err, "zone %u: %s", zn, why);
	if (z->front_empty >= phys)
		return cerr(p, line, err, "zone %u: field 'front_empty_sectors': %u is not below the "
			    "zone's %" PRIu64 " sectors", zn, z->front_empty, phys);
	if (z->sparing == IOLAB_SPARE_ZONE && (uint64_t)z->spares + z->front_empty >= phys)
		return cerr(p, line, err, "zone %u: field 'sparing': %u spare sectors (and %u "
			    "front_empty_sectors) leave no room for blocks in the zone's %" PRIu64
			    " sectors", zn, z->spares, z->front_empty, phys);
	if (z->sparing == IOLAB_SPARE_RANGE && z->spares >= z->range * spc)
		return cerr(p, line, err, "zone %u: field 'sparing': %u spare sectors in every range of "
			    "%u cylinders leave no room for blocks (a range has %" PRIu64 " sectors)",
			    zn, z->spares, z->range, z->range * spc);
	if (z->nslips && z->slips[z->nslips - 1] >= phys)
		return cerr(p, line, err, "zone %u: field 'slips': sector %" PRIu64 " is outside the "
			    "zone (its sectors are 0..%" PRIu64 ")", zn, z->slips[z->nslips - 1], phys - 1);
	if (z->nslips && z->slips[0] < z->front_empty && z->sparing != IOLAB_SPARE_TRACKS)
		return cerr(p, line, err, "zone %u: field 'slips': sector %" PRIu64 " is in the zone's "
			    "front_empty_sectors (0..%u), which hold no blocks", zn, z->slips[0],
			    z->front_empty - 1);
	if (z->sparing == IOLAB_SPARE_ZONE && z->nslips > z->spares)
		return cerr(p, line, err, "zone %u: field 'slips': %u slipped sectors, more than the "
			    "zone's %u spare sectors", zn, z->nslips, z->spares);
	if (z->sparing == IOLAB_SPARE_RANGE) {
		uint64_t rsz = z->range * spc;
		for (uint32_t a = 0, b; a < z->nslips; a = b) {
			uint64_t r = z->slips[a] / rsz;
			for (b = a; b < z->nslips && z->slips[b] / rsz == r; b++)
				;
			if (b - a > z->spares)
				return cerr(p, line, err, "zone %u: field 'slips': %u slipped sectors in the "
					    "sparing range of cylinders %" PRIu64 "..%" PRIu64 ", more than "
					    "its %u spare sectors", zn, b - a, z->first_cyl + r * z->range,
					    z->first_cyl + (r + 1) * z->range - 1, z->spares);
		}
	}
	for (uint32_t d = 0; d < z->ndefects; d++)
		if (z->defects[d] >= phys)
			return cerr(p, line, err, "zone %u: field 'defects': sector %" PRIu64 " is outside "
				    "the zone (its sectors are 0..%" PRIu64 ")", zn, z->defects[d], phys - 1);
	if (!z->nblocks)
		return cerr(p, line, err, "zone %u: field 'sparing': the zone holds no blocks (its "
			    "spares, slips and front_empty_sectors take all %" PRIu64 " sectors)", zn, phys);
	/* What the rules above do not cover (a last, partial sparing range larger than the room a
	 * range has for blocks): the zone's last block must still map into the zone. */
	struct iolab_phys ph;
	uint64_t last = z->first_lbn + z->nblocks - 1;
	if (iolab_layout_map(m, last, &ph) || ph.zone != i || ph.cyl > z->last_cyl)
		return cerr(p, line, err, "zone %u: field 'sparing': the zone's last block (LBN %" PRIu64
			    ") falls past its last cylinder %u: its spares, slips and front_empty_sectors "
			    "do not fit its cylinders", zn, last, z->last_cyl);
	return 0;
}

/* In a file: the fields the seek type and access-time type need are given. */
static int check_formula_fields(const struct iolab_disk_model *m, const struct mparser *p,
				struct iolab_err *err)
{
	const char *need = NULL, *by = NULL;
	enum iolab_seek_type t = m->seek_type;
	if ((t == IOLAB_SEEK_HPL || t == IOLAB_SEEK_HPLPLUS10) && !top_line(p, "seek_hpl"))
		need = "seek_hpl", by = "seek_type";
	else if (t == IOLAB_SEEK_HPLPLUS10 && !top_line(p, "seek_first_ten_ms"))
		need = "seek_first_ten_ms", by = "seek_type";
	else if (t == IOLAB_SEEK_CONSTANT && !top_line(p, "seek_constant_ms"))
		need = "seek_constant_ms", by = "seek_type";
	else if (m->access == IOLAB_ACCESS_CONSTANT && !top_line(p, "access_constant_ms"))
		need = "access_constant_ms", by = "access_time";
	if (!need)
		return 0;
	return cerr(p, top_line(p, by), err, "field '%s': missing (%s on this line needs it)", need, by);
}

/* In a file: `readahead` replaces `readahead_track`; the two together would contradict. */
static int check_readahead_fields(const struct mparser *p, struct iolab_err *err)
{
	if (!top_line(p, "readahead") || !top_line(p, "readahead_track"))
		return 0;
	return cerr(p, top_line(p, "readahead_track"), err, "field 'readahead_track': not with "
		    "'readahead' (line %u), which says the whole read-ahead mode",
		    top_line(p, "readahead"));
}

/* The checks that need nothing iolab_model_finish derives (p may be NULL). */
static int check_figures(const struct iolab_disk_model *m, const struct mparser *p, struct iolab_err *err)
{
	int rc = check_text(m, p, err);
	if (!rc && p)
		rc = check_formula_fields(m, p, err);
	if (!rc && p)
		rc = check_readahead_fields(p, err);
	return rc ? rc : check_seek(m, p, err);
}

/* The checks that need the derived layout. */
static int check_zones(const struct iolab_disk_model *m, const struct mparser *p, struct iolab_err *err)
{
	int rc = 0;
	for (unsigned i = 0; i < m->nzones && !rc; i++)
		rc = check_zone_sectors(m, i, p, err);
	return rc;
}

int iolab_model_check(const struct iolab_disk_model *m, struct iolab_err *err)
{
	int rc = check_figures(m, NULL, err);
	return rc ? rc : check_zones(m, NULL, err);
}

int iolab_model_parse(const char *name, const char *text, struct iolab_disk_model *m, struct iolab_err *err)
{
	memset(m, 0, sizeof(*m));
	int device = iolab_model_device(name, text, err);
	if (device)
		return device < 0 ? device : iolab_ssd_model_parse(name, text, m, iolab_model_field_at,
								   err);
	m->block_bytes = 512;
	m->queue_depth = 1;
	m->read_joins_readahead = true;
	struct mparser p = {.name = name, .m = m, .err = err};
	int rc = 0;
	for (const char *at = text; *at && !rc;) {
		const char *nl = strchr(at, '\n');
		size_t len = nl ? (size_t)(nl - at) : strlen(at);
		char buf[8192];
		p.line++;
		if (len >= sizeof(buf)) {
			rc = iolab_errf(err, EINVAL, "%s:%u: line is too long", name, p.line);
			break;
		}
		memcpy(buf, at, len);
		buf[len] = 0;
		at += len + (nl ? 1 : 0);
		char *hash = strchr(buf, '#');
		if (hash)
			*hash = 0;
		char *l = iolab_trim(buf);
		if (!*l)
			continue;
		if (*l == '[') {
			if (!strcmp(l, "[seek]")) {
				if (m->nseek)
					rc = iolab_errf(err, EINVAL, "%s:%u: a second [seek] section", name, p.line);
				p.sec = SEC_SEEK;
			} else if (!strcmp(l, "[g4]")) {
				if (p.sec == SEC_G4 || m->g4)
					rc = iolab_errf(err, EINVAL, "%s:%u: a second [g4] section", name, p.line);
				p.sec = SEC_G4;
			} else if (!strcmp(l, "[zone]")) {
				if (m->nzones == p.zcap) {
					p.zcap = p.zcap ? p.zcap * 2 : 16;
					struct iolab_zone *nz = realloc(m->zone, p.zcap * sizeof(*nz));
					if (!nz) {
						rc = iolab_errf(err, ENOMEM, "%s: out of memory", name);
						break;
					}
					m->zone = nz;
				}
				memset(&m->zone[m->nzones], 0, sizeof(struct iolab_zone));
				m->zone[m->nzones++].line = p.line;
				memset(p.zone_line, 0, sizeof(p.zone_line));
				p.sec = SEC_ZONE;
			} else {
				rc = iolab_errf(err, EINVAL, "%s:%u: unknown section '%s' ([seek], [zone] or [g4])",
						name, p.line, l);
			}
			continue;
		}
		if (p.sec == SEC_SEEK) {
			rc = seek_line(&p, l);
			continue;
		}
		char *eq = strchr(l, '=');
		if (!eq) {
			rc = iolab_errf(err, EINVAL, "%s:%u: expected 'field = value'", name, p.line);
			break;
		}
		*eq = 0;
		char *k = iolab_trim(l), *v = iolab_trim(eq + 1);
		if (p.sec == SEC_G4) {
			rc = g4_line(&p, k, v);
			continue;
		}
		if (p.sec == SEC_TOP)
			rc = once(&p, top_names, NTOP, p.top_line, k);
		else
			rc = once(&p, zone_names, NZONE, p.zone_line, k);
		if (!rc)
			rc = p.sec == SEC_TOP ? top_field(&p, k, v) : zone_field(&p, k, v);
	}
	if (!rc)
		rc = check_figures(m, &p, err);
	if (!rc)
		rc = iolab_model_finish(m, err);
	if (!rc)
		rc = check_zones(m, &p, err);
	if (rc) {
		if (strncmp(err->msg, name, strlen(name)))
			iolab_err_prefix(err, "%s", name);
		iolab_model_free(m);
	}
	return rc;
}

int iolab_model_load(const char *path, struct iolab_disk_model *m, struct iolab_err *err)
{
	char *text;
	int rc = iolab_read_text(path, 4u << 20, "a model file", &text, err);
	if (rc)
		return rc;
	rc = iolab_model_parse(path, text, m, err);
	free(text);
	return rc;
}

void iolab_model_free(struct iolab_disk_model *m)
{
	for (unsigned i = 0; i < m->nzones; i++) {
		free(m->zone[i].slips);
		free(m->zone[i].defects);
	}
	free(m->zone);
	free(m->seek);
	iolab_g4_free(m->g4);
	free(m->ssd);
	memset(m, 0, sizeof(*m));
}

static void put_list(FILE *f, const char *key, const uint64_t *v, uint32_t n)
{
	for (uint32_t i = 0; i < n; i += 10) {
		fprintf(f, "%s =", key);
		for (uint32_t j = i; j < n && j < i + 10; j++)
			fprintf(f, " %" PRIu64, v[j]);
		fputc('\n', f);
	}
}

/* The seek type and access-time type, when they are not the default ones. */
static void put_seek_formula(const struct iolab_disk_model *m, FILE *f)
{
	static const char *const types[] = {"", "extracted", "hpl", "hplplus10", "curve", "linear",
					    "constant"};
	static const char *const access[] = {"seek_rotation", "average_rotation", "constant"};
	if (m->seek_type)
		fprintf(f, "seek_type = %s\n", types[m->seek_type]);
	if (m->seek_type == IOLAB_SEEK_HPL || m->seek_type == IOLAB_SEEK_HPLPLUS10)
		fprintf(f, "seek_hpl = %.0f %.6f %.6f %.6f %.6f %.6f\n", m->seek_hpl[0], m->seek_hpl[1],
			m->seek_hpl[2], m->seek_hpl[3], m->seek_hpl[4], m->seek_hpl[5]);
	if (m->seek_type == IOLAB_SEEK_HPLPLUS10) {
		fprintf(f, "seek_first_ten_ms =");
		for (int i = 0; i < 10; i++)
			fprintf(f, " %.6f", m->seek_first_ten_ns[i] / 1e6);
		fputc('\n', f);
	}
	if (m->seek_type == IOLAB_SEEK_CONSTANT)
		fprintf(f, "seek_constant_ms = %.6f\n", m->seek_const_ns / 1e6);
	if (m->access)
		fprintf(f, "access_time = %s\n", access[m->access]);
	if (m->access == IOLAB_ACCESS_CONSTANT)
		fprintf(f, "access_constant_ms = %.6f\n", m->access_const_ns / 1e6);
}

int iolab_model_write(const struct iolab_disk_model *m, FILE *f)
{
	static const char *const sched[] = {"fcfs", "sstf", "clook", "sptf"};
	static const char *const ra_modes[] = {"", "none", "track", "cylinder", "segment", "next-track"};
	if (m->ssd)
		return iolab_ssd_model_write(m, f);
	fprintf(f, "# iolab drive model (format: docs/model-format.md)\n");
	fprintf(f, "name = %s\nabout = %s\n\n", m->name, m->about);
	fprintf(f, "# geometry\nblock_bytes = %u\nsurfaces = %u\ncylinders = %u\nblocks = %" PRIu64
		   "\nmapping = %s\n\n", m->block_bytes, m->surfaces, m->cylinders, m->blocks,
		!m->cylinder_serpentine ? "cylinder" : m->serpentine_absolute ? "serpentine-absolute"
		: "serpentine");
	fprintf(f, "# mechanics\nrpm = %.6g\nseek_single_ms = %.6f\n", m->rpm, m->seek_single_ns / 1e6);
	if (m->seek_avg_ns)
		fprintf(f, "seek_average_ms = %.6f\n", m->seek_avg_ns / 1e6);
	fprintf(f, "seek_full_ms = %.6f\nwrite_settle_ms = %.6f\nhead_switch_ms = %.6f\n",
		m->seek_full_ns / 1e6, m->write_settle_ns / 1e6, m->head_switch_ns / 1e6);
	if (m->rw_switch_given)
		fprintf(f, "read_write_switch_ms = %.6f\n", m->rw_switch_ns / 1e6);
	put_seek_formula(m, f);
	fputc('\n', f);
	fprintf(f, "# controller: overheads after a read, after a write\nbus_us_per_block = %.3f\n",
		m->bus_ns_per_block / 1e3);
	fprintf(f, "overhead_read_hit_ms = %.6f %.6f\n", m->ovh_read_hit[0] / 1e6, m->ovh_read_hit[1] / 1e6);
	fprintf(f, "overhead_read_miss_ms = %.6f %.6f\n", m->ovh_read_miss[0] / 1e6, m->ovh_read_miss[1] / 1e6);
	fprintf(f, "overhead_write_hit_ms = %.6f %.6f\n", m->ovh_write_hit[0] / 1e6, m->ovh_write_hit[1] / 1e6);
	fprintf(f, "overhead_write_miss_ms = %.6f %.6f\n", m->ovh_write_miss[0] / 1e6,
		m->ovh_write_miss[1] / 1e6);
	if (m->ovh_complete[0] || m->ovh_complete[1])
		fprintf(f, "overhead_completion_ms = %.6f %.6f\n", m->ovh_complete[0] / 1e6,
			m->ovh_complete[1] / 1e6);
	fputc('\n', f);
	fprintf(f, "# cache\ncache_segments = %u\nsegment_blocks = %u\nseparate_write_segment = %s\n"
		   "readahead_blocks = %u\n%s%s\nreadahead_over_request = %s\n"
		   "zero_latency_read = %s\nzero_latency_write = %s\nread_free_blocks = %s\n"
		   "read_joins_readahead = %s\n"
		   "write_back = %s\n"
		   "write_segments = %u\nread_hits_on_write_data = %s\n",
		m->segments, m->segment_blocks, m->separate_write_segment ? "yes" : "no",
		m->readahead_blocks, m->readahead ? "readahead = " : "readahead_track = ",
		m->readahead ? ra_modes[m->readahead] : m->readahead_track ? "yes" : "no",
		m->readahead_over_request ? "yes" : "no", m->zero_latency_read ? "yes" : "no",
		m->zero_latency_write ? "yes" : "no", m->read_free_blocks ? "yes" : "no",
		m->read_joins_readahead ? "yes" : "no",
		m->write_back_sequential ? "sequential" : m->write_back ? "yes" : "no",
		m->write_segments, m->read_hits_on_write_data ? "yes" : "no");
	if (m->readahead_min_blocks)
		fprintf(f, "readahead_min_blocks = %u\n", m->readahead_min_blocks);
	put_link_fields(m, f);
	fputc('\n', f);
	fprintf(f, "# command queue\nqueue_depth = %u\nscheduler = %s\n", m->queue_depth, sched[m->sched]);
	if (m->nseek) {
		fprintf(f, "\n[seek]\n# distance_cylinders time_ms%s\n", m->seek_has_sd ? " stddev_ms" : "");
		for (unsigned i = 0; i < m->nseek; i++) {
			fprintf(f, "%u %.5f", m->seek[i].dist, m->seek[i].ns / 1e6);
			if (m->seek_has_sd)
				fprintf(f, " %.5f", m->seek[i].sd_ns / 1e6);
			fputc('\n', f);
		}
	}
	if (m->g4)
		iolab_g4_write(m->g4, f);
	for (unsigned i = 0; !m->g4 && i < m->nzones; i++) {
		const struct iolab_zone *z = &m->zone[i];
		fprintf(f, "\n[zone]\ncylinders = %u %u\nsectors_per_track = %u\ntrack_skew_sectors = %u\n"
			   "cylinder_skew_sectors = %u\n",
			z->first_cyl, z->last_cyl, z->spt, z->track_skew, z->cyl_skew);
		if (z->first_offset)
			fprintf(f, "first_sector_offset = %u\n", z->first_offset);
		if (z->front_empty)
			fprintf(f, "front_empty_sectors = %u\n", z->front_empty);
		unsigned args = iolab_sparing_args(z->sparing);
		fprintf(f, "sparing = %s", iolab_sparing_name(z->sparing));
		if (args)
			fprintf(f, " %u", z->spares);
		if (args > 1)
			fprintf(f, " %u", z->range);
		fputc('\n', f);
		put_list(f, "slips", z->slips, z->nslips);
		put_list(f, "defects", z->defects, z->ndefects);
	}
	return ferror(f) ? -EIO : 0;
}
