/* model_datasheet.c: a whole drive model file from a datasheet's figures (model_datasheet.h;
 * docs/model-format.md "From a datasheet"): zones from the media rates and the capacity, the
 * HPL seek curve through the three seek times, skews from the head switch and the
 * track-to-track seek, and the documented defaults for what a datasheet leaves out. */
#include <errno.h>
#include <inttypes.h>
#include <math.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "iolab/model_datasheet.h"

#define BLOCK_BYTES 512
#define DEFAULT_SURFACES 4
#define DEFAULT_ZONES 20
#define MAX_SPT 100000          /* the model format's sectors_per_track limit */
#define MAX_CYLINDERS 10000000  /* the model format's cylinders limit */
#define MAX_SEGMENTS 16
#define MIN_SEGMENT_BYTES (128 * 1024)
/* Defaults: the median, after a read, of the six drives DiskSim 4.0 was validated against
 * (models/atlas10k, atlas_III, barracuda, cheetah4LP, cheetah9LP, ibm18es; 1997-1999). */
#define HEAD_SWITCH_MS 0.14     /* 0.03 .. 1.0 ms among them */
#define OVH_READ_HIT_MS 0.08
#define OVH_READ_MISS_MS 0.27
#define OVH_WRITE_HIT_MS 0.44
#define OVH_WRITE_MISS_MS 0.49
/* Seagate's datasheets give a write's average seek about 0.5 ms above a read's (Cheetah 15K.7:
 * 3.4 / 3.9 ms, models/sas15k.model). */
#define WRITE_SETTLE_MS 0.5

/* The layout the figures give. */
struct geometry {
	unsigned surfaces, zones;
	uint64_t blocks;
	uint32_t spt[100];           /* sectors per track of each zone, outer first */
	uint32_t cyls_per_zone, last_zone_cyls, cylinders;
	double interface_mb_s;
	unsigned segments;
	uint32_t segment_blocks;
};

/* Sectors per track that give rate MB/s at rpm: rate = spt x 512 B x rpm / 60. */
static double spt_of(double mb_s, double rpm)
{
	return mb_s * 1e6 * 60 / (BLOCK_BYTES * rpm);
}

static int required(const struct iolab_datasheet *d, struct iolab_err *err)
{
	static const char *const example[] = {"73.5G", "10000", "4.7ms", "0.6ms", "11ms", "57-36MB/s",
					      "8M", "64"};
	for (unsigned i = 0; i <= IOLAB_DS_QUEUE; i++)
		if (!d->given[i][0])
			return iolab_errf(err, EINVAL, "%s is required (the datasheet's figure, like %s %s)",
					  iolab_ds_option(i), iolab_ds_option(i), example[i]);
	if (d->track_seek_ms > d->avg_seek_ms)
		return iolab_errf(err, EINVAL, "--track-seek: %s is longer than --avg-seek %s: a "
				  "track-to-track seek is the shortest", d->given[IOLAB_DS_TRACK_SEEK],
				  d->given[IOLAB_DS_AVG_SEEK]);
	if (d->avg_seek_ms > d->full_seek_ms)
		return iolab_errf(err, EINVAL, "--full-seek: %s is shorter than --avg-seek %s: a "
				  "full-stroke seek is the longest", d->given[IOLAB_DS_FULL_SEEK],
				  d->given[IOLAB_DS_AVG_SEEK]);
	return 0;
}

/* The interface a drive of the media rate had: the first of ATA/100, SATA 1.5, 3 and 6 Gb/s
 * (their payload rates, MB/s) that is not slower than the outer media rate. */
static double default_interface(double outer_mb_s)
{
	static const double rates[] = {100, 150, 300, 600, 1200};
	for (unsigned i = 0; i < 4; i++)
		if (rates[i] >= outer_mb_s)
			return rates[i];
	return rates[4];
}

static int layout(const struct iolab_datasheet *d, struct geometry *g, struct iolab_err *err)
{
	double so = spt_of(d->rate_outer_mb_s, d->rpm), si = spt_of(d->rate_inner_mb_s, d->rpm);
	if (so > MAX_SPT)
		return iolab_errf(err, EINVAL, "--media-rate: %.6g MB/s at %.6g rpm needs %.0f sectors a "
				  "track, more than a model holds (%u)", d->rate_outer_mb_s, d->rpm, so,
				  MAX_SPT);
	uint32_t spt_o = (uint32_t)llround(so), spt_i = (uint32_t)llround(si);
	if (spt_i < 1)
		return iolab_errf(err, EINVAL, "--media-rate: %.6g MB/s at %.6g rpm is less than one "
				  "sector a revolution", d->rate_inner_mb_s, d->rpm);
	g->surfaces = d->surfaces ? d->surfaces : DEFAULT_SURFACES;
	g->zones = d->zones ? d->zones : DEFAULT_ZONES;
	if (!d->zones && g->zones > spt_o - spt_i + 1) /* no two zones alike */
		g->zones = spt_o - spt_i + 1;
	g->blocks = (d->capacity_bytes + BLOCK_BYTES - 1) / BLOCK_BYTES;
	uint64_t per_cyl = 0; /* blocks of one cylinder of each zone */
	for (unsigned k = 0; k < g->zones; k++) {
		double f = g->zones > 1 ? (double)k / (g->zones - 1) : 0;
		g->spt[k] = (uint32_t)llround(spt_o - (double)(spt_o - spt_i) * f);
		per_cyl += (uint64_t)g->spt[k] * g->surfaces;
	}
	uint64_t cpz = g->blocks / per_cyl;
	uint64_t held = cpz * per_cyl, last_track = (uint64_t)g->spt[g->zones - 1] * g->surfaces;
	uint64_t extra = (g->blocks - held + last_track - 1) / last_track; /* round the last zone up */
	uint64_t cyls = cpz * g->zones + extra;
	if (cpz < 1 || cyls < 7)
		return iolab_errf(err, EINVAL, "--capacity: %s is too small for %u zone%s of %u surfaces "
				  "(every zone needs a cylinder, the seek curve 7): give fewer --zones or "
				  "--surfaces", d->given[IOLAB_DS_CAPACITY], g->zones, g->zones == 1 ? "" : "s",
				  g->surfaces);
	if (cyls > MAX_CYLINDERS)
		return iolab_errf(err, EINVAL, "--capacity: %s needs %" PRIu64 " cylinders on %u surfaces, "
				  "more than a model holds (%u): give more --surfaces",
				  d->given[IOLAB_DS_CAPACITY], cyls, g->surfaces, MAX_CYLINDERS);
	g->cyls_per_zone = (uint32_t)cpz;
	g->last_zone_cyls = (uint32_t)(cpz + extra);
	g->cylinders = (uint32_t)cyls;
	g->interface_mb_s = d->interface_mb_s > 0 ? d->interface_mb_s
						  : default_interface(d->rate_outer_mb_s);
	g->segments = 0;
	if (d->cache_bytes) {
		uint64_t segs = d->cache_bytes / MIN_SEGMENT_BYTES;
		g->segments = segs < 1 ? 1 : segs > MAX_SEGMENTS ? MAX_SEGMENTS : (unsigned)segs;
		g->segment_blocks = (uint32_t)(d->cache_bytes / g->segments / BLOCK_BYTES);
	}
	return 0;
}

int iolab_ds_seek_curve(const struct iolab_datasheet *d, uint32_t cylinders, double hpl[6],
			struct iolab_err *err)
{
	double s = d->track_seek_ms, a = d->avg_seek_ms, f = d->full_seek_ms;
	double full = (double)cylinders - 1, v1 = floor(full / 3 + 0.5);
	if (v1 < 2 || full <= v1)
		return iolab_errf(err, EINVAL, "--capacity: %u cylinders are too few for a seek curve",
				  cylinders);
	double b = (a - s) / (sqrt(v1) - 1), e = (f - a) / (full - v1);
	double base = s - b, c = a - e * v1;
	if (base < 0)
		return iolab_errf(err, EINVAL, "--track-seek: %.6g ms is too short for a square-root "
				  "curve that reaches --avg-seek %.6g ms at %.0f cylinders (it would start "
				  "below 0 ms)", s, a, v1);
	if (c < 0)
		return iolab_errf(err, EINVAL, "--full-seek: %.6g ms is more than about three times "
				  "--avg-seek %.6g ms: the straight part of the curve from the average to "
				  "the full stroke would start below 0 ms", f, a);
	hpl[0] = v1;
	hpl[1] = base;
	hpl[2] = b;
	hpl[3] = c;
	hpl[4] = e;
	hpl[5] = s;
	return 0;
}

/* "field = value" padded to the comment column, then the comment. */
static void field(FILE *f, const char *comment, const char *fmt, ...)
	__attribute__((format(printf, 3, 4)));
static void field(FILE *f, const char *comment, const char *fmt, ...)
{
	va_list ap;
	va_start(ap, fmt);
	int n = vfprintf(f, fmt, ap);
	va_end(ap);
	fprintf(f, "%*s# %s\n", n < 30 ? 30 - n : 1, "", comment);
}

/* "datasheet: --rpm 10000" for a figure given, else the assumption. */
static const char *origin(const struct iolab_datasheet *d, unsigned in, const char *assumed,
			  char *buf, size_t n)
{
	if (d->given[in][0])
		snprintf(buf, n, "datasheet: %s %s", iolab_ds_option(in), d->given[in]);
	else
		snprintf(buf, n, "ASSUMED: %s", assumed);
	return buf;
}

static void put_head(FILE *f, const struct iolab_datasheet *d, const struct geometry *g)
{
	char b[320];
	fprintf(f, "# iolab drive model (format: docs/model-format.md), made by 'iolab model new' from "
		"a datasheet.\n# Comments say where each figure comes from: 'datasheet:' the option and "
		"value given to\n# 'iolab model new' ('iolab model check' reads them back), 'ASSUMED:' "
		"what a datasheet\n# does not give and why, 'derived:' how it follows from the others.\n");
	char rates[40];
	snprintf(rates, sizeof(rates), d->rate_outer_mb_s > d->rate_inner_mb_s ? "%.4g-%.4g" : "%.4g",
		 d->rate_outer_mb_s, d->rate_inner_mb_s);
	fprintf(f, "name = %s\nabout = from a datasheet: %.1f GB, %.0f rpm, average seek %.3g ms, "
		"media %s MB/s (iolab model new)\n\n", d->name, d->capacity_bytes / 1e9, d->rpm,
		d->avg_seek_ms, rates);
	fprintf(f, "# geometry\n");
	field(f, "512-byte sectors, as the datasheets' LBA counts", "block_bytes = %d", BLOCK_BYTES);
	field(f, origin(d, IOLAB_DS_SURFACES, "two platters, a common build; a datasheet rarely says "
			"(sets the cylinder count and how often a transfer switches heads)", b, sizeof(b)),
	      "surfaces = %u", g->surfaces);
	field(f, "derived: the zones below", "cylinders = %u", g->cylinders);
	field(f, origin(d, IOLAB_DS_CAPACITY, "", b, sizeof(b)), "blocks = %" PRIu64, g->blocks);
	field(f, "ASSUMED: DiskSim's default (mapping scheme 0)", "mapping = cylinder");
}

static void put_mechanics(FILE *f, const struct iolab_datasheet *d, const struct geometry *g,
			  const double hpl[6])
{
	char b[320];
	double head_switch = HEAD_SWITCH_MS < d->track_seek_ms ? HEAD_SWITCH_MS : d->track_seek_ms;
	fprintf(f, "\n# mechanics\n");
	field(f, origin(d, IOLAB_DS_RPM, "", b, sizeof(b)), "rpm = %.6g", d->rpm);
	field(f, origin(d, IOLAB_DS_TRACK_SEEK, "", b, sizeof(b)), "seek_single_ms = %.6g",
	      d->track_seek_ms);
	field(f, origin(d, IOLAB_DS_AVG_SEEK, "", b, sizeof(b)), "seek_average_ms = %.6g",
	      d->avg_seek_ms);
	field(f, origin(d, IOLAB_DS_FULL_SEEK, "", b, sizeof(b)), "seek_full_ms = %.6g",
	      d->full_seek_ms);
	fprintf(f, "# derived: the seek curve, DiskSim's HPL equation (manual B.5.2): V2 + V3 sqrt(x) "
		"below V1\n# cylinders, V4 + V5 x from V1 on, V6 for one cylinder; through the three "
		"times above at\n# x = 1, x = V1 = (cylinders - 1) / 3 (the mean distance of random "
		"seeks over the whole\n# stroke, where datasheets quote the average) and x = cylinders "
		"- 1 = %u.\n", g->cylinders - 1);
	fprintf(f, "seek_type = hpl\nseek_hpl = %.0f %.9g %.9g %.9g %.9g %.9g\n", hpl[0], hpl[1], hpl[2],
		hpl[3], hpl[4], hpl[5]);
	field(f, "ASSUMED: Seagate's datasheets give a write's average seek 0.5 ms above a read's",
	      "write_settle_ms = %.6g", WRITE_SETTLE_MS);
	snprintf(b, sizeof(b), "ASSUMED: the median of DiskSim's six validated drives (models/), "
		 "at most the track-to-track seek");
	field(f, b, "head_switch_ms = %.6g", head_switch);
}

static void put_controller(FILE *f, const struct iolab_datasheet *d, const struct geometry *g)
{
	char b[320];
	fprintf(f, "\n# controller: overheads after a read, after a write\n");
	char why[160];
	snprintf(why, sizeof(why), "%.6g MB/s, the first of ATA/100, SATA 1.5, 3, 6 Gb/s (100, 150, "
		 "300, 600 MB/s) not slower than the outer media rate", g->interface_mb_s);
	field(f, origin(d, IOLAB_DS_INTERFACE, why, b, sizeof(b)), "bus_us_per_block = %.6g",
	      BLOCK_BYTES / g->interface_mb_s);
	fprintf(f, "# ASSUMED: the overheads are the medians (after a read) of DiskSim's six validated "
		"drives\n# of 1997-1999 (models/atlas10k, atlas_III, barracuda, cheetah4LP, cheetah9LP, "
		"ibm18es)\n");
	fprintf(f, "overhead_read_hit_ms = %.2f %.2f\n", OVH_READ_HIT_MS, OVH_READ_HIT_MS);
	fprintf(f, "overhead_read_miss_ms = %.2f %.2f\n", OVH_READ_MISS_MS, OVH_READ_MISS_MS);
	fprintf(f, "overhead_write_hit_ms = %.2f %.2f\n", OVH_WRITE_HIT_MS, OVH_WRITE_HIT_MS);
	fprintf(f, "overhead_write_miss_ms = %.2f %.2f\n", OVH_WRITE_MISS_MS, OVH_WRITE_MISS_MS);
}

static void put_cache(FILE *f, const struct iolab_datasheet *d, const struct geometry *g)
{
	char b[320];
	fprintf(f, "\n# cache\n# %s\n", origin(d, IOLAB_DS_CACHE, "", b, sizeof(b)));
	if (!g->segments) {
		fprintf(f, "cache_segments = 0\n");
		return;
	}
	field(f, "ASSUMED: up to 16 segments of at least 128 KiB (DiskSim's validated drives have 3-10)",
	      "cache_segments = %u", g->segments);
	field(f, "derived: the buffer split into the segments", "segment_blocks = %u", g->segment_blocks);
	field(f, "ASSUMED", "separate_write_segment = no");
	field(f, "ASSUMED: a read miss reads ahead a segment's worth", "readahead_blocks = %u",
	      g->segment_blocks);
	field(f, "ASSUMED", "readahead_track = no");
	field(f, "ASSUMED", "readahead_over_request = no");
	field(f, "ASSUMED: as the Atlas 10K of DiskSim's validation", "zero_latency_read = yes");
	field(f, "ASSUMED", "zero_latency_write = yes");
	field(f, "ASSUMED: as the Atlas 10K", "read_free_blocks = yes");
	field(f, "ASSUMED: write cache enabled, as ATA drives ship", "write_back = yes");
	field(f, "ASSUMED: a quarter of the segments", "write_segments = %u",
	      g->segments / 4 ? g->segments / 4 : 1);
	field(f, "ASSUMED", "read_hits_on_write_data = yes");
}

static void put_queue(FILE *f, const struct iolab_datasheet *d)
{
	char b[320];
	fprintf(f, "\n# command queue\n");
	field(f, origin(d, IOLAB_DS_QUEUE, "", b, sizeof(b)), "queue_depth = %u", d->queue);
	if (d->queue > 1)
		field(f, "ASSUMED: a queuing drive orders by positioning time", "scheduler = sptf");
	else
		field(f, "no command queuing", "scheduler = fcfs");
}

static void put_zones(FILE *f, const struct iolab_datasheet *d, const struct geometry *g)
{
	char b[320];
	double rev_ms = 60e3 / d->rpm;
	double head_switch = HEAD_SWITCH_MS < d->track_seek_ms ? HEAD_SWITCH_MS : d->track_seek_ms;
	fprintf(f, "\n# zones\n# %s\n", origin(d, IOLAB_DS_MEDIA_RATE, "", b, sizeof(b)));
	fprintf(f, "# %s\n", origin(d, IOLAB_DS_ZONES, "20 zones (drives of the era had 15-30)", b,
				    sizeof(b)));
	fprintf(f, "# derived: at constant linear density sectors per track grow with the radius and "
		"so does the\n# media rate (spt x 512 B x rpm / 60); the zones' sectors per track step "
		"evenly from the\n# outer rate's to the inner rate's over zones of %u cylinders (the "
		"last one rounded up to\n# hold the capacity). Skews: the sectors that pass during a head "
		"switch (track skew) and\n# during a track-to-track seek (cylinder skew), rounded up.\n",
		g->cyls_per_zone);
	uint32_t first = 0;
	for (unsigned k = 0; k < g->zones; k++) {
		uint32_t n = k + 1 < g->zones ? g->cyls_per_zone : g->last_zone_cyls;
		double sector_ms = rev_ms / g->spt[k];
		uint32_t tskew = (uint32_t)ceil(head_switch / sector_ms - 1e-9);
		uint32_t cskew = (uint32_t)ceil(d->track_seek_ms / sector_ms - 1e-9);
		fprintf(f, "\n[zone]\ncylinders = %u %u\n", first, first + n - 1);
		snprintf(b, sizeof(b), "%.2f MB/s", g->spt[k] * (double)BLOCK_BYTES * d->rpm / 60 / 1e6);
		field(f, b, "sectors_per_track = %u", g->spt[k]);
		fprintf(f, "track_skew_sectors = %u\ncylinder_skew_sectors = %u\nsparing = none\n",
			tskew % g->spt[k], cskew % g->spt[k]);
		first += n;
	}
}

int iolab_ds_model_text(const struct iolab_datasheet *d, char **text, struct iolab_err *err)
{
	struct geometry g = {0};
	double hpl[6];
	*text = NULL;
	if (required(d, err) || layout(d, &g, err) || iolab_ds_seek_curve(d, g.cylinders, hpl, err))
		return -EINVAL;
	if (!d->name[0])
		return iolab_errf(err, EINVAL, "the model needs a name");
	size_t len;
	FILE *f = open_memstream(text, &len);
	if (!f)
		return iolab_errf(err, ENOMEM, "out of memory");
	put_head(f, d, &g);
	put_mechanics(f, d, &g, hpl);
	put_controller(f, d, &g);
	put_cache(f, d, &g);
	put_queue(f, d);
	put_zones(f, d, &g);
	if (fclose(f) || !*text) {
		free(*text);
		*text = NULL;
		return iolab_errf(err, ENOMEM, "out of memory");
	}
	return 0;
}
