/* ssd_model_file.c: SSD models in iolab's model file format (docs/model-format.md, "SSD
 * models"): reading a file whose first field is `device = ssd` into a drive record whose `ssd`
 * holds the flash figures (ssd_model.h), and writing one back so that reading it again gives
 * the same model. The syntax is the drive models' (`field = value`, units in the names, `#`
 * comments); the fields carry MQSim's parameter names in the docs (ssdconfig.xml). Every error
 * names the file, line and field. */
#include <errno.h>
#include <inttypes.h>
#include <math.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "iolab/parse.h"
#include "iolab/parse_number.h"
#include "iolab/textfile.h"
#include "iolab/utf8.h"
#include "sim/formats/ssd_model_file.h"

enum ftype {
	F_DEVICE, F_TEXT, F_ENUM, F_COUNT, F_BYTES, F_US, F_MS, F_NS, F_BOOL, F_FRACTION,
	F_MB_S,   /* a rate in MB/s (10^6 bytes), kept in bytes/s */
	F_REAL,   /* a plain number, kept by the reader in the parser (pcie_lane_gb_s) */
	F_ORDER,  /* allocation: a permutation of CWDP, or dynamic */
	F_MIB,    /* cache_mib: MiB, kept in bytes */
};

#define OFF(f) offsetof(struct iolab_ssd_model, f)
static const char *const iface_names[] = {"nvme", "sata", NULL};
static const char *const cell_names[] = {"slc", "mlc", "tlc", NULL};
static const char *const gc_names[] = {"greedy", "fifo", "cost-benefit", "rga", "random", NULL};

/* The fields, in the order the writer puts them. `max`: the largest value the reader takes
 * (counts, bytes). Aliases (another unit for a field) are not written. */
static const struct field {
	const char *key;
	enum ftype type;
	size_t off;
	double max;
	const char *const *names; /* F_ENUM */
	bool alias;
} fields[] = {
	{"device", F_DEVICE, 0, 0, NULL, false},
	{"name", F_TEXT, 0, 0, NULL, false},
	{"about", F_TEXT, 0, 0, NULL, false},
	{"interface", F_ENUM, OFF(iface), 0, iface_names, false},
	{"queues", F_COUNT, OFF(queues), 1e6, NULL, false},
	{"queue_entries", F_COUNT, OFF(queue_entries), 1e6, NULL, false},
	{"interface_mb_s", F_MB_S, OFF(iface_rate), 0, NULL, false},
	{"pcie_lanes", F_COUNT, 0, 32, NULL, true},
	{"pcie_lane_gb_s", F_REAL, 0, 1000, NULL, true},
	{"command_us", F_US, OFF(command_ns), 0, NULL, false},
	{"cache_bytes", F_BYTES, OFF(cache_bytes), 1e15, NULL, false},
	{"cache_mib", F_MIB, OFF(cache_bytes), 1e9, NULL, true},
	{"cache_write_back", F_BOOL, OFF(cache_write_back), 0, NULL, false},
	{"cache_page_us", F_US, OFF(cache_page_ns), 0, NULL, false},
	{"read_ahead", F_BOOL, OFF(read_ahead), 0, NULL, false},
	{"channels", F_COUNT, OFF(channels), 1024, NULL, false},
	{"chips_per_channel", F_COUNT, OFF(chips_per_channel), 1024, NULL, false},
	{"dies_per_chip", F_COUNT, OFF(dies_per_chip), 64, NULL, false},
	{"planes_per_die", F_COUNT, OFF(planes_per_die), 64, NULL, false},
	{"blocks_per_plane", F_COUNT, OFF(blocks_per_plane), 1 << 24, NULL, false},
	{"pages_per_block", F_COUNT, OFF(pages_per_block), 1 << 20, NULL, false},
	{"page_bytes", F_COUNT, OFF(page_bytes), 1 << 24, NULL, false},
	{"cell", F_ENUM, OFF(cell), 0, cell_names, false},
	{"read_us", F_US, OFF(read_ns[0]), 0, NULL, false},
	{"read_csb_us", F_US, OFF(read_ns[1]), 0, NULL, false},
	{"read_msb_us", F_US, OFF(read_ns[2]), 0, NULL, false},
	{"program_us", F_US, OFF(program_ns[0]), 0, NULL, false},
	{"program_csb_us", F_US, OFF(program_ns[1]), 0, NULL, false},
	{"program_msb_us", F_US, OFF(program_ns[2]), 0, NULL, false},
	{"erase_ms", F_MS, OFF(erase_ns), 0, NULL, false},
	{"channel_mb_s", F_MB_S, OFF(channel_rate), 0, NULL, false},
	{"channel_mt_s", F_REAL, 0, 1e6, NULL, true},
	{"channel_width_bytes", F_COUNT, 0, 64, NULL, true},
	{"channel_command_ns", F_NS, OFF(channel_command_ns), 0, NULL, false},
	{"multiplane", F_BOOL, OFF(multiplane), 0, NULL, false},
	{"suspend_program", F_BOOL, OFF(suspend_program), 0, NULL, false},
	{"suspend_erase", F_BOOL, OFF(suspend_erase), 0, NULL, false},
	{"suspend_us", F_US, OFF(suspend_ns), 0, NULL, false},
	{"overprovisioning", F_FRACTION, OFF(overprovisioning), 0, NULL, false},
	{"allocation", F_ORDER, 0, 0, NULL, false},
	{"gc_policy", F_ENUM, OFF(gc_policy), 0, gc_names, false},
	{"rga_choices", F_COUNT, OFF(rga_choices), 1 << 24, NULL, false},
	{"gc_threshold", F_FRACTION, OFF(gc_threshold), 0, NULL, false},
	{"gc_background", F_FRACTION, OFF(gc_background), 0, NULL, false},
	{"gc_copyback", F_BOOL, OFF(gc_copyback), 0, NULL, false},
	{"ideal_mapping", F_BOOL, OFF(ideal_mapping), 0, NULL, false},
	{"cmt_bytes", F_BYTES, OFF(cmt_bytes), 1e15, NULL, false},
	{"cmt_entry_bytes", F_COUNT, OFF(cmt_entry_bytes), 64, NULL, false},
};
#undef OFF
#define NFIELDS (sizeof(fields) / sizeof(fields[0]))

/* Times in µs and ms are kept in ns; the largest one taken is about 11.6 days. */
#define MAX_TIME_NS 1e15

const char *iolab_ssd_field_at(unsigned i)
{
	return i < NFIELDS ? fields[i].key : NULL;
}

static int field_index(const char *key)
{
	for (unsigned i = 0; i < NFIELDS; i++)
		if (!strcmp(fields[i].key, key))
			return (int)i;
	return -1;
}

bool iolab_ssd_field(const char *key)
{
	return field_index(key) >= 0;
}

void iolab_ssd_model_defaults(struct iolab_ssd_model *s)
{
	memset(s, 0, sizeof(*s));
	s->iface = IOLAB_SSD_NVME;
	s->queues = 1;
	s->cache_write_back = true;
	s->cell = IOLAB_CELL_SLC;
	s->multiplane = true;
	s->overprovisioning = 0.07;  /* MQSim's Overprovisioning_Ratio in ssdconfig.xml */
	s->allocation = IOLAB_ALLOC_STATIC;
	memcpy(s->allocation_order, "CWDP", 5);
	s->gc_policy = IOLAB_GC_GREEDY;
	s->gc_threshold = 0.05;      /* MQSim's GC_Exec_Threshold */
	s->ideal_mapping = true;
	s->cmt_bytes = 2u << 20;     /* MQSim's CMT_Capacity */
}

struct sparser {
	const char *name;
	unsigned line;
	unsigned given[NFIELDS];   /* where each field was given (0: not given) */
	struct iolab_ssd_model *s;
	struct iolab_err *err;
	char mname[64], about[256];
	double lane_gb_s, channel_mt_s;
	uint32_t pcie_lanes, channel_width;
	const char *(*drive_field)(unsigned i);
};

static int ferr(struct sparser *p, unsigned line, const char *field, const char *fmt, ...)
	__attribute__((format(printf, 4, 5)));

static int ferr(struct sparser *p, unsigned line, const char *field, const char *fmt, ...)
{
	char why[400];
	va_list ap;
	va_start(ap, fmt);
	vsnprintf(why, sizeof(why), fmt, ap);
	va_end(ap);
	return iolab_errf(p->err, EINVAL, "%s:%u: field '%s': %s", p->name, line, field, why);
}

static unsigned given(const struct sparser *p, const char *key)
{
	return p->given[field_index(key)];
}

/* A number min..max; whole: refuse a fraction. */
static int number(struct sparser *p, const char *k, const char *v, double min, double max,
		  bool whole, double *out)
{
	double x;
	int rc = iolab_parse_decimal(v, &x);
	if (rc == -EINVAL)
		return ferr(p, p->line, k, "'%.60s' is not a number", v);
	if (rc || x < min || x > max)
		return ferr(p, p->line, k, "'%.60s' is out of range (%g..%g)", v, min, max);
	if (whole && x != floor(x))
		return ferr(p, p->line, k, "'%.60s' is not a whole number", v);
	*out = x;
	return 0;
}

/* A fraction 0..1, or a percentage "7%" / "12.5 %". */
static int fraction(struct sparser *p, const char *k, char *v, double *out)
{
	size_t n = strlen(v);
	bool pct = n && v[n - 1] == '%';
	if (pct)
		v[n - 1] = 0;
	v = iolab_trim(v);
	double x;
	if (number(p, k, v, 0, pct ? 100 : 1, false, &x))
		return -EINVAL;
	*out = pct ? x / 100 : x;
	return 0;
}

static int set_field(struct sparser *p, const struct field *f, char *v)
{
	struct iolab_ssd_model *s = p->s;
	char *at = (char *)s + f->off;
	double x;
	char why[96];
	switch (f->type) {
	case F_DEVICE:
		if (strcmp(v, "ssd"))
			return ferr(p, p->line, f->key, "'%.60s' is not ssd", v);
		return 0;
	case F_TEXT:
		if (iolab_text_check(v, !strcmp(f->key, "name") ? sizeof(p->mname) - 1
				     : sizeof(p->about) - 1, why, sizeof(why)))
			return ferr(p, p->line, f->key, "%s", why);
		if (!strcmp(f->key, "name") && !*v)
			return ferr(p, p->line, f->key, "is empty (a model needs a name)");
		strcpy(!strcmp(f->key, "name") ? p->mname : p->about, v);
		return 0;
	case F_ENUM:
		for (unsigned i = 0; f->names[i]; i++)
			if (!strcmp(v, f->names[i])) {
				*(unsigned *)at = i;
				return 0;
			}
		if (f->names == gc_names)
			return ferr(p, p->line, f->key, "'%.60s' is not greedy, fifo, cost-benefit, rga "
				    "or random", v);
		return ferr(p, p->line, f->key, "'%.60s' is not %s", v, f->names == iface_names
			    ? "nvme or sata" : "slc, mlc or tlc");
	case F_COUNT:
		if (number(p, f->key, v, 0, f->max, true, &x))
			return -EINVAL;
		if (!strcmp(f->key, "pcie_lanes"))
			p->pcie_lanes = (uint32_t)x;
		else if (!strcmp(f->key, "channel_width_bytes"))
			p->channel_width = (uint32_t)x;
		else
			*(uint32_t *)at = (uint32_t)x;
		return 0;
	case F_BYTES:
		if (number(p, f->key, v, 0, f->max, true, &x))
			return -EINVAL;
		*(uint64_t *)at = (uint64_t)x;
		return 0;
	case F_MIB:
		if (number(p, f->key, v, 0, f->max, false, &x))
			return -EINVAL;
		if (x * 1048576 != floor(x * 1048576))
			return ferr(p, p->line, f->key, "'%.60s' is not a whole number of bytes", v);
		*(uint64_t *)at = (uint64_t)(x * 1048576);
		return 0;
	case F_US:
	case F_MS:
	case F_NS: {
		double scale = f->type == F_US ? 1e3 : f->type == F_MS ? 1e6 : 1;
		if (number(p, f->key, v, 0, MAX_TIME_NS / scale, f->type == F_NS, &x))
			return -EINVAL;
		*(uint64_t *)at = (uint64_t)llround(x * scale);
		return 0;
	}
	case F_MB_S:
		if (number(p, f->key, v, 0, 1e9, false, &x))
			return -EINVAL;
		*(uint64_t *)at = (uint64_t)llround(x * 1e6);
		return 0;
	case F_REAL:
		if (number(p, f->key, v, 0, f->max, false, &x))
			return -EINVAL;
		*(!strcmp(f->key, "pcie_lane_gb_s") ? &p->lane_gb_s : &p->channel_mt_s) = x;
		return 0;
	case F_BOOL:
		if (iolab_parse_bool(f->key, v, (bool *)at, NULL))
			return ferr(p, p->line, f->key, "'%.60s' is not yes or no", v);
		return 0;
	case F_FRACTION:
		return fraction(p, f->key, v, (double *)at);
	case F_ORDER:
		if (!strcmp(v, "dynamic")) {
			s->allocation = IOLAB_ALLOC_DYNAMIC;
			return 0;
		}
		if (!iolab_ssd_order_valid(v))
			return ferr(p, p->line, f->key, "'%.60s' is neither a permutation of CWDP (channel, "
				    "way, die, plane; the first varies fastest) nor dynamic", v);
		s->allocation = IOLAB_ALLOC_STATIC;
		memcpy(s->allocation_order, v, 5);
		return 0;
	}
	return 0;
}

/* The fields given in two forms, and the ones with defaults that follow from others. */
static int resolve(struct sparser *p)
{
	struct iolab_ssd_model *s = p->s;
	unsigned dev = given(p, "device");
	static const char *const pairs[][2] = {
		{"interface_mb_s", "pcie_lanes"}, {"interface_mb_s", "pcie_lane_gb_s"},
		{"channel_mb_s", "channel_mt_s"}, {"channel_mb_s", "channel_width_bytes"},
		{"cache_bytes", "cache_mib"},
	};
	for (unsigned i = 0; i < sizeof(pairs) / sizeof(pairs[0]); i++)
		if (given(p, pairs[i][0]) && given(p, pairs[i][1]))
			return ferr(p, given(p, pairs[i][1]), pairs[i][1], "not with '%s' (line %u), "
				    "which gives the same figure", pairs[i][0], given(p, pairs[i][0]));
	if ((given(p, "pcie_lanes") || given(p, "pcie_lane_gb_s")) && s->iface == IOLAB_SSD_SATA)
		return ferr(p, given(p, "pcie_lanes") ? given(p, "pcie_lanes") : given(p, "pcie_lane_gb_s"),
			    given(p, "pcie_lanes") ? "pcie_lanes" : "pcie_lane_gb_s",
			    "a PCIe figure for a SATA drive (interface_mb_s gives its link rate)");
	static const char *const need[] = {"name", "channels", "chips_per_channel", "dies_per_chip",
		"planes_per_die", "blocks_per_plane", "pages_per_block", "page_bytes", "read_us",
		"program_us", "erase_ms"};
	for (unsigned i = 0; i < sizeof(need) / sizeof(need[0]); i++)
		if (!given(p, need[i]))
			return ferr(p, dev, need[i], "missing (an SSD model gives it; docs/model-format.md, "
				    "\"SSD models\")");
	if (!given(p, "channel_mb_s") && !given(p, "channel_mt_s"))
		return ferr(p, dev, "channel_mb_s", "missing (the flash channel's rate: channel_mb_s, "
			    "or channel_mt_s and channel_width_bytes)");
	if (given(p, "channel_mt_s"))
		s->channel_rate = (uint64_t)llround(p->channel_mt_s * 1e6 *
						    (given(p, "channel_width_bytes") ? p->channel_width : 1));
	else if (given(p, "channel_width_bytes"))
		return ferr(p, given(p, "channel_width_bytes"), "channel_width_bytes", "needs "
			    "channel_mt_s (transfers per µs on that width)");
	if (!given(p, "interface_mb_s")) {
		if (s->iface == IOLAB_SSD_SATA)
			s->iface_rate = 600000000; /* SATA 3: 6 Gb/s, 8b/10b coded */
		else
			s->iface_rate = (uint64_t)llround((given(p, "pcie_lanes") ? p->pcie_lanes : 4) *
				(given(p, "pcie_lane_gb_s") ? p->lane_gb_s : 1.0) * 1e9);
	}
	if (!given(p, "queue_entries"))
		s->queue_entries = s->iface == IOLAB_SSD_SATA ? 32 : 1024;
	for (unsigned i = 1; i < 3; i++) { /* CSB and MSB pages: as the LSB unless given */
		if (!p->given[field_index("read_us") + i])
			s->read_ns[i] = s->read_ns[0];
		if (!p->given[field_index("program_us") + i])
			s->program_ns[i] = s->program_ns[0];
	}
	if (!given(p, "rga_choices")) /* MQSim: log2(Block_No_Per_Plane), GC_and_WL_Unit_Page_Level.cpp:21 */
		s->rga_choices = s->blocks_per_plane > 1 ? (unsigned)log2(s->blocks_per_plane) : 1;
	if (!given(p, "cmt_entry_bytes"))
		s->cmt_entry_bytes = iolab_ssd_mqsim_cmt_entry_bytes(s);
	return 0;
}

/* Puts the line of the field a check refused ("field 'NAME': ...") before the message; a field
 * left to its default is named at the `device` line. */
static int check_at_lines(struct sparser *p)
{
	int rc = iolab_ssd_model_check(p->s, p->err);
	if (!rc)
		return 0;
	char field[64] = "";
	sscanf(p->err->msg, "field '%63[^']'", field);
	static const char *const alias[][2] = {
		{"channel_mb_s", "channel_mt_s"}, {"interface_mb_s", "pcie_lanes"},
		{"interface_mb_s", "pcie_lane_gb_s"}, {"cache_bytes", "cache_mib"},
	};
	int i = field_index(field);
	unsigned line = i >= 0 ? p->given[i] : 0;
	for (unsigned a = 0; !line && a < sizeof(alias) / sizeof(alias[0]); a++)
		if (!strcmp(field, alias[a][0]))
			line = given(p, alias[a][1]);
	iolab_err_prefix(p->err, "%s:%u", p->name, line ? line : given(p, "device"));
	return rc;
}

int iolab_ssd_model_adopt(struct iolab_disk_model *m, struct iolab_ssd_model *s, const char *name,
			  const char *about, struct iolab_err *err)
{
	memset(m, 0, sizeof(*m));
	int rc = iolab_ssd_model_check(s, err);
	if (rc) {
		free(s);
		return rc;
	}
	snprintf(m->name, sizeof(m->name), "%s", name);
	snprintf(m->about, sizeof(m->about), "%s", about);
	m->ssd = s;
	m->block_bytes = 512;
	m->blocks = iolab_ssd_logical_pages(s) * (s->page_bytes / 512);
	uint64_t qd = (uint64_t)s->queues * s->queue_entries;
	m->queue_depth = qd > UINT32_MAX ? UINT32_MAX : (unsigned)qd;
	return 0;
}

/* One `field = value` line (comments and blanks already gone). */
static int line_field(struct sparser *p, char *l)
{
	if (*l == '[')
		return iolab_errf(p->err, EINVAL, "%s:%u: sections ('%.40s') belong to drive models, "
				  "not to an SSD model (device = ssd)", p->name, p->line, l);
	char *eq = strchr(l, '=');
	if (!eq)
		return iolab_errf(p->err, EINVAL, "%s:%u: expected 'field = value'", p->name, p->line);
	*eq = 0;
	char *k = iolab_trim(l), *v = iolab_trim(eq + 1);
	int i = field_index(k);
	if (i < 0) {
		for (unsigned d = 0; p->drive_field && p->drive_field(d); d++)
			if (!strcmp(p->drive_field(d), k))
				return ferr(p, p->line, k, "a drive field, not one of an SSD model (device "
					    "= ssd; docs/model-format.md, \"SSD models\")");
		return ferr(p, p->line, k, "unknown field of an SSD model (see docs/model-format.md, "
			    "\"SSD models\")");
	}
	if (p->given[i])
		return ferr(p, p->line, k, "already given on line %u", p->given[i]);
	p->given[i] = p->line;
	return set_field(p, &fields[i], v);
}

int iolab_ssd_model_parse(const char *name, const char *text, struct iolab_disk_model *m,
			  const char *(*drive_field)(unsigned i), struct iolab_err *err)
{
	memset(m, 0, sizeof(*m));
	struct sparser *p = calloc(1, sizeof(*p));
	struct iolab_ssd_model *s = malloc(sizeof(*s));
	if (!p || !s) {
		free(p);
		free(s);
		return iolab_errf(err, ENOMEM, "%s: out of memory", name);
	}
	iolab_ssd_model_defaults(s);
	*p = (struct sparser){.name = name, .s = s, .err = err, .drive_field = drive_field};
	int rc = 0;
	for (const char *at = text; *at && !rc;) {
		const char *line = at, *nl = strchr(at, '\n');
		size_t len = nl ? (size_t)(nl - at) : strlen(at);
		char buf[8192]; /* as a drive model's lines (docs/model-format.md, "Syntax") */
		p->line++;
		at += len + (nl ? 1 : 0);
		if (len >= sizeof(buf)) {
			rc = iolab_errf(err, EINVAL, "%s:%u: line is too long", name, p->line);
			break;
		}
		memcpy(buf, line, len);
		buf[len] = 0;
		char *hash = strchr(buf, '#');
		if (hash)
			*hash = 0;
		char *l = iolab_trim(buf);
		if (*l)
			rc = line_field(p, l);
	}
	if (!rc)
		rc = resolve(p);
	if (!rc)
		rc = check_at_lines(p);
	if (!rc)
		rc = iolab_ssd_model_adopt(m, s, p->mname, p->about, err);
	else
		free(s);
	free(p);
	return rc;
}

/* v / 10^decimals, exactly, without trailing zeros ("75", "40.986"). */
static void put_scaled(FILE *f, const char *key, uint64_t v, unsigned decimals)
{
	uint64_t div = 1;
	for (unsigned i = 0; i < decimals; i++)
		div *= 10;
	char frac[24];
	snprintf(frac, sizeof(frac), "%0*" PRIu64, (int)decimals, v % div);
	size_t n = strlen(frac);
	while (n && frac[n - 1] == '0')
		frac[--n] = 0;
	fprintf(f, "%s = %" PRIu64 "%s%s\n", key, v / div, n ? "." : "", frac);
}

/* The shortest decimal that reads back as x. */
static void put_real(FILE *f, const char *key, double x)
{
	char buf[40];
	for (int prec = 6; prec <= 17; prec++) {
		snprintf(buf, sizeof(buf), "%.*g", prec, x);
		if (strtod(buf, NULL) == x)
			break;
	}
	fprintf(f, "%s = %s\n", key, buf);
}

static const char *const group_before[][2] = {
	{"interface", "host interface"}, {"cache_bytes", "DRAM data cache"},
	{"channels", "flash array"}, {"overprovisioning", "flash translation layer"},
};

int iolab_ssd_model_write(const struct iolab_disk_model *m, FILE *f)
{
	const struct iolab_ssd_model *s = m->ssd;
	fprintf(f, "# iolab SSD model (format: docs/model-format.md, \"SSD models\")\n");
	fprintf(f, "device = ssd\nname = %s\nabout = %s\n", m->name, m->about);
	for (unsigned i = 3; i < NFIELDS; i++) {
		const struct field *fd = &fields[i];
		const char *at = (const char *)s + fd->off;
		for (unsigned g = 0; g < sizeof(group_before) / sizeof(group_before[0]); g++)
			if (!strcmp(group_before[g][0], fd->key))
				fprintf(f, "\n# %s\n", group_before[g][1]);
		if (fd->alias)
			continue;
		/* the CSB and MSB times only where they differ from the LSB page's */
		if ((at == (const char *)&s->read_ns[1] || at == (const char *)&s->read_ns[2]) &&
		    *(const uint64_t *)at == s->read_ns[0])
			continue;
		if ((at == (const char *)&s->program_ns[1] || at == (const char *)&s->program_ns[2]) &&
		    *(const uint64_t *)at == s->program_ns[0])
			continue;
		switch (fd->type) {
		case F_ENUM:
			fprintf(f, "%s = %s\n", fd->key, fd->names[*(const unsigned *)at]);
			break;
		case F_COUNT:
			fprintf(f, "%s = %" PRIu32 "\n", fd->key, *(const uint32_t *)at);
			break;
		case F_BYTES:
			if (at == (const char *)&s->cache_bytes && s->cache_bytes % 1048576 == 0)
				fprintf(f, "cache_mib = %" PRIu64 "\n", s->cache_bytes / 1048576);
			else
				fprintf(f, "%s = %" PRIu64 "\n", fd->key, *(const uint64_t *)at);
			break;
		case F_US:
			put_scaled(f, fd->key, *(const uint64_t *)at, 3);
			break;
		case F_MS:
			put_scaled(f, fd->key, *(const uint64_t *)at, 6);
			break;
		case F_NS:
			fprintf(f, "%s = %" PRIu64 "\n", fd->key, *(const uint64_t *)at);
			break;
		case F_MB_S:
			put_scaled(f, fd->key, *(const uint64_t *)at, 6);
			break;
		case F_BOOL:
			fprintf(f, "%s = %s\n", fd->key, *(const bool *)at ? "yes" : "no");
			break;
		case F_FRACTION:
			put_real(f, fd->key, *(const double *)at);
			break;
		case F_ORDER:
			fprintf(f, "%s = %s\n", fd->key, s->allocation == IOLAB_ALLOC_DYNAMIC ? "dynamic"
				: s->allocation_order);
			break;
		default:
			break;
		}
	}
	return ferror(f) ? -EIO : 0;
}

int iolab_model_device(const char *name, const char *text, struct iolab_err *err)
{
	unsigned line = 0, first = 0; /* the line of the first field */
	bool first_is_device = false;
	int kind = 0;
	for (const char *at = text; *at;) {
		const char *nl = strchr(at, '\n');
		size_t len = nl ? (size_t)(nl - at) : strlen(at);
		line++;
		char buf[128];
		size_t n = len < sizeof(buf) - 1 ? len : sizeof(buf) - 1;
		memcpy(buf, at, n);
		buf[n] = 0;
		at += len + (nl ? 1 : 0);
		char *hash = strchr(buf, '#');
		if (hash)
			*hash = 0;
		char *l = iolab_trim(buf), *eq = strchr(l, '=');
		if (!*l)
			continue;
		if (eq)
			*eq = 0;
		bool device = eq && !strcmp(iolab_trim(l), "device");
		if (!first) {
			first = line;
			first_is_device = device;
			if (!device)
				continue;
			char *v = iolab_trim(eq + 1);
			if (!strcmp(v, "ssd"))
				kind = 1;
			else if (strcmp(v, "disk"))
				return iolab_errf(err, EINVAL, "%s:%u: field 'device': '%.40s' is not disk or "
						  "ssd", name, line, v);
		} else if (device && first_is_device) {
			return iolab_errf(err, EINVAL, "%s:%u: field 'device': already given on line %u",
					  name, line, first);
		} else if (device) {
			return iolab_errf(err, EINVAL, "%s:%u: field 'device': must be the first field "
					  "(line %u is)", name, line, first);
		}
	}
	return kind;
}
