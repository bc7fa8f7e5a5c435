/* datasheet_inputs.c: reading the figures of a drive's datasheet as `iolab model new` takes
 * them (model_datasheet.h): each option's units, its range, and the "# datasheet: --OPTION
 * VALUE" lines a model made from them carries, which `iolab model check` reads back. */
#include <errno.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <strings.h>

#include "iolab/model_datasheet.h"
#include "iolab/parse_number.h"

static const char *const options[IOLAB_DS_NINPUTS] = {
	"--capacity", "--rpm", "--avg-seek", "--track-seek", "--full-seek", "--media-rate",
	"--cache", "--queue", "--surfaces", "--zones", "--interface",
};

const char *iolab_ds_option(unsigned input)
{
	return input < IOLAB_DS_NINPUTS ? options[input] : NULL;
}

unsigned iolab_ds_input_of(const char *option)
{
	const char *o = option[0] == '-' && option[1] == '-' ? option + 2 : option;
	for (unsigned i = 0; i < IOLAB_DS_NINPUTS; i++)
		if (!strcmp(o, options[i] + 2))
			return i;
	return IOLAB_DS_NINPUTS;
}

struct unit {
	const char *name;
	double scale;
};

/* Capacity as drives are sold: decimal G, GB (IDEMA counts 10^9 bytes); binary with "iB". */
static const struct unit capacity_units[] = {
	{"B", 1}, {"K", 1e3}, {"KB", 1e3}, {"M", 1e6}, {"MB", 1e6}, {"G", 1e9}, {"GB", 1e9},
	{"T", 1e12}, {"TB", 1e12}, {"KiB", 1024.0}, {"MiB", 1048576.0}, {"GiB", 1073741824.0},
	{"TiB", 1099511627776.0}, {NULL, 0},
};
/* A buffer is memory, sized in powers of two: a datasheet's "8 MB buffer" is 8 MiB. */
static const struct unit cache_units[] = {
	{"B", 1}, {"K", 1024.0}, {"KB", 1024.0}, {"KiB", 1024.0}, {"M", 1048576.0},
	{"MB", 1048576.0}, {"MiB", 1048576.0}, {"G", 1073741824.0}, {"GB", 1073741824.0},
	{"GiB", 1073741824.0}, {NULL, 0},
};
static const struct unit time_units[] = {{"ms", 1}, {"us", 1e-3}, {"\xc2\xb5s", 1e-3}, {NULL, 0}};
static const struct unit rate_units[] = {{"MB/s", 1}, {"MiB/s", 1.048576}, {NULL, 0}};

/* Splits "4.7ms" into the number 4.7 and the unit "ms" (a blank between them allowed). */
static int number_unit(const char *opt, const char *s, double *v, const char **unit,
		       struct iolab_err *err)
{
	/* the number: the longest run of digits, signs, points and exponent letters (no unit starts
	   with an 'e', so "5e" is refused as a number, not read as 5 and a unit) */
	size_t n = strspn(s, "0123456789.+-eE");
	char num[64];
	if (!n || n >= sizeof(num))
		return iolab_errf(err, EINVAL, "%s: '%s' is not a number", opt, s);
	memcpy(num, s, n);
	num[n] = 0;
	if (iolab_parse_decimal(num, v))
		return iolab_errf(err, EINVAL, "%s: '%s' is not a number", opt, s);
	*unit = s + n + strspn(s + n, " ");
	return 0;
}

/* The factor of unit in table (case-insensitive for the decimal ones, exact with "iB"). */
static int unit_scale(const struct unit *table, const char *unit, double *scale)
{
	for (const struct unit *u = table; u->name; u++)
		if (strstr(u->name, "iB") ? !strcmp(unit, u->name) : !strcasecmp(unit, u->name)) {
			*scale = u->scale;
			return 0;
		}
	return -EINVAL;
}

static int with_unit(const char *opt, const char *s, const struct unit *table, const char *units,
		     double *out, struct iolab_err *err)
{
	const char *unit;
	double v, scale;
	if (number_unit(opt, s, &v, &unit, err))
		return -EINVAL;
	if (!*unit)
		return iolab_errf(err, EINVAL, "%s: '%s' needs a unit: %s", opt, s, units);
	if (unit_scale(table, unit, &scale))
		return iolab_errf(err, EINVAL, "%s: '%s': unknown unit '%s' (%s)", opt, s, unit, units);
	*out = v * scale;
	return 0;
}

static int in_range(const char *opt, const char *s, double v, double lo, double hi, const char *what,
		    struct iolab_err *err)
{
	if (!(v >= lo && v <= hi))
		return iolab_errf(err, EINVAL, "%s: '%s' is out of range (%s)", opt, s, what);
	return 0;
}

static int bytes(const char *opt, const char *s, const struct unit *table, const char *units,
		 double lo, double hi, const char *range, uint64_t *out, struct iolab_err *err)
{
	double v;
	if (!strcmp(s, "0") && table == cache_units) {
		*out = 0;
		return 0;
	}
	if (with_unit(opt, s, table, units, &v, err) || in_range(opt, s, v, lo, hi, range, err))
		return -EINVAL;
	*out = (uint64_t)ceil(v);
	return 0;
}

static int seek(const char *opt, const char *s, double *ms, struct iolab_err *err)
{
	if (with_unit(opt, s, time_units, "ms or us", ms, err))
		return -EINVAL;
	return in_range(opt, s, *ms, 0.001, 1000, "1us..1000ms", err);
}

static int count(const char *opt, const char *s, unsigned lo, unsigned hi, unsigned *out,
		 struct iolab_err *err)
{
	char *end;
	errno = 0;
	unsigned long v = strtoul(s, &end, 10);
	if (!*s || *s < '0' || *s > '9' || *end || errno)
		return iolab_errf(err, EINVAL, "%s: '%s' is not a whole number", opt, s);
	if (v < lo || v > hi)
		return iolab_errf(err, EINVAL, "%s: '%s' is out of range (%u..%u)", opt, s, lo, hi);
	*out = (unsigned)v;
	return 0;
}

static int rate(const char *opt, const char *s, const char *unit_of_range, double *mb_s,
		struct iolab_err *err)
{
	const char *unit;
	double v, scale;
	if (number_unit(opt, s, &v, &unit, err))
		return -EINVAL;
	if (!*unit)
		unit = unit_of_range;
	if (!unit || !*unit)
		return iolab_errf(err, EINVAL, "%s: '%s' needs a unit: MB/s or MiB/s", opt, s);
	if (unit_scale(rate_units, unit, &scale))
		return iolab_errf(err, EINVAL, "%s: '%s': unknown unit '%s' (MB/s or MiB/s)", opt, s, unit);
	*mb_s = v * scale;
	return in_range(opt, s, *mb_s, 0.01, 100000, "0.01..100000 MB/s", err);
}

/* "57-36MB/s", "36-57MB/s", "57MB/s-36MB/s" or "50MB/s": the larger is the outer edge's. */
static int media_rate(struct iolab_datasheet *d, const char *opt, const char *s, struct iolab_err *err)
{
	const char *dash = *s ? strchr(s + 1, '-') : NULL;
	while (dash && (dash[-1] == 'e' || dash[-1] == 'E')) /* an exponent's sign */
		dash = strchr(dash + 1, '-');
	if (!dash) {
		if (rate(opt, s, NULL, &d->rate_outer_mb_s, err))
			return -EINVAL;
		d->rate_inner_mb_s = d->rate_outer_mb_s;
		return 0;
	}
	char first[64];
	size_t n = (size_t)(dash - s);
	double a, b;
	const char *unit2;
	if (n >= sizeof(first) || !dash[1] || strchr(dash + 1, '-'))
		return iolab_errf(err, EINVAL, "%s: '%s' is not a rate or a range of two (like 57-36MB/s)",
				  opt, s);
	memcpy(first, s, n);
	first[n] = 0;
	if (number_unit(opt, dash + 1, &b, &unit2, err) || rate(opt, dash + 1, NULL, &b, err) ||
	    rate(opt, first, unit2, &a, err))
		return -EINVAL;
	d->rate_outer_mb_s = a > b ? a : b;
	d->rate_inner_mb_s = a > b ? b : a;
	return 0;
}

int iolab_ds_set(struct iolab_datasheet *d, unsigned input, const char *s, struct iolab_err *err)
{
	const char *opt = iolab_ds_option(input);
	int rc;
	if (!opt)
		return iolab_errf(err, EINVAL, "no such datasheet input");
	if (strlen(s) >= sizeof(d->given[0]))
		return iolab_errf(err, EINVAL, "%s: '%.40s...' is too long", opt, s);
	switch (input) {
	case IOLAB_DS_CAPACITY:
		rc = bytes(opt, s, capacity_units, "G, GB (10^9 bytes), GiB, T, TB, TiB, M, MB, MiB",
			   1e6, 512e15, "1MB..512PB", &d->capacity_bytes, err);
		break;
	case IOLAB_DS_RPM: {
		const char *unit;
		rc = number_unit(opt, s, &d->rpm, &unit, err);
		if (!rc && *unit && strcasecmp(unit, "rpm"))
			rc = iolab_errf(err, EINVAL, "%s: '%s': unknown unit '%s' (rpm, or none)", opt, s, unit);
		if (!rc)
			rc = in_range(opt, s, d->rpm, 1000, 30000, "1000..30000", err);
		break;
	}
	case IOLAB_DS_AVG_SEEK: rc = seek(opt, s, &d->avg_seek_ms, err); break;
	case IOLAB_DS_TRACK_SEEK: rc = seek(opt, s, &d->track_seek_ms, err); break;
	case IOLAB_DS_FULL_SEEK: rc = seek(opt, s, &d->full_seek_ms, err); break;
	case IOLAB_DS_MEDIA_RATE: rc = media_rate(d, opt, s, err); break;
	case IOLAB_DS_CACHE:
		rc = bytes(opt, s, cache_units, "K, M, G (powers of two), KiB, MiB, GiB, or 0 for none",
			   4096, 1073741824.0, "0, or 4KiB..1GiB", &d->cache_bytes, err);
		break;
	case IOLAB_DS_QUEUE: rc = count(opt, s, 1, 256, &d->queue, err); break;
	case IOLAB_DS_SURFACES: rc = count(opt, s, 1, 256, &d->surfaces, err); break;
	case IOLAB_DS_ZONES: rc = count(opt, s, 1, 100, &d->zones, err); break;
	default: /* IOLAB_DS_INTERFACE */
		rc = rate(opt, s, NULL, &d->interface_mb_s, err);
		break;
	}
	if (!rc)
		snprintf(d->given[input], sizeof(d->given[input]), "%s", s);
	return rc;
}

int iolab_ds_from_model_text(const char *text, struct iolab_datasheet *d, struct iolab_err *err)
{
	static const char mark[] = "# datasheet: ";
	int found = 0;
	unsigned line = 1;
	for (const char *l = text; *l; line++) {
		const char *end = strchr(l, '\n');
		size_t len = end ? (size_t)(end - l) : strlen(l);
		const char *m = memmem(l, len, mark, sizeof(mark) - 1);
		if (m) {
			char opt[32], val[64];
			const char *p = m + sizeof(mark) - 1, *sp = memchr(p, ' ', len - (size_t)(p - l));
			size_t on = sp ? (size_t)(sp - p) : 0, vn = sp ? len - (size_t)(sp + 1 - l) : 0;
			while (vn && (sp[vn] == ' ' || sp[vn] == '\r'))
				vn--;
			unsigned in = IOLAB_DS_NINPUTS;
			if (sp && on < sizeof(opt) && vn < sizeof(val)) {
				memcpy(opt, p, on);
				opt[on] = 0;
				memcpy(val, sp + 1, vn);
				val[vn] = 0;
				in = iolab_ds_input_of(opt);
			}
			if (in == IOLAB_DS_NINPUTS)
				return iolab_errf(err, EINVAL, "line %u: '# datasheet:' names no input of "
						  "'iolab model new'", line);
			if (iolab_ds_set(d, in, val, err)) {
				iolab_err_prefix(err, "line %u", line);
				return -EINVAL;
			}
			found++;
		}
		l = end ? end + 1 : l + len;
	}
	return found;
}
