/* parse.c: strict parsing of sizes, percentages, counts, durations and comma lists.
 * Nothing is guessed: a value that does not parse completely is an error naming the field. */
#include <ctype.h>
#include <errno.h>
#include <inttypes.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <strings.h>

#include "iolab/parse.h"
#include "iolab/parse_number.h"

static int bad(struct iolab_err *err, const char *field, const char *s, const char *why)
{
	return iolab_errf(err, EINVAL, "%s: '%s' %s", field, s, why);
}

/* Parses the leading unsigned decimal digits; returns the end or NULL on overflow/no digits. */
static const char *parse_digits(const char *s, uint64_t *v)
{
	uint64_t x = 0;
	const char *p = s;
	if (!isdigit((unsigned char)*p))
		return NULL;
	for (; isdigit((unsigned char)*p); p++) {
		unsigned d = (unsigned)(*p - '0');
		if (x > (UINT64_MAX - d) / 10)
			return NULL;
		x = x * 10 + d;
	}
	*v = x;
	return p;
}

/* The multiplier a size suffix stands for, and its length; 0 for an unknown suffix. "k" and
 * "KiB" are 1024, "kB" is 1000 (the SI and IEC conventions), and likewise m, g, t, p. */
static uint64_t size_unit(const char *p, size_t *len)
{
	static const char letters[] = "kmgtp";
	const char *l = *p ? strchr(letters, tolower((unsigned char)*p)) : NULL;
	if (!l) {
		*len = (*p == 'b' || *p == 'B') ? 1 : 0;
		return *p && !*len ? 0 : 1;
	}
	unsigned power = (unsigned)(l - letters) + 1;
	uint64_t base = 1024;
	*len = 1;
	if (p[1] == 'i' || p[1] == 'I') {
		if (p[2] != 'b' && p[2] != 'B')
			return 0;
		*len = 3;
	} else if (p[1] == 'b' || p[1] == 'B') {
		base = 1000;
		*len = 2;
	}
	uint64_t m = 1;
	while (power--)
		m *= base;
	return m;
}

int iolab_parse_size(const char *field, const char *s, uint64_t *out, struct iolab_err *err)
{
	static const char examples[] = "is not a size (examples: 4096, 4k, 64KiB, 1.5m, 2G, 500GB)";
	uint64_t whole, frac = 0, scale = 1;
	const char *p = parse_digits(s, &whole);
	if (!p)
		return bad(err, field, s, examples);
	if (*p == '.') { /* up to 18 decimals are exact; more are not a size anyone means */
		const char *q = ++p;
		for (; isdigit((unsigned char)*p); p++) {
			if (p - q >= 18)
				return bad(err, field, s, "has too many decimals");
			frac = frac * 10 + (uint64_t)(*p - '0');
			scale *= 10;
		}
		if (p == q)
			return bad(err, field, s, examples);
	}
	size_t len;
	uint64_t unit = size_unit(p, &len);
	if (!unit)
		return bad(err, field, s, "has an unknown size suffix (k, m, g, t are 1024-based, as "
			   "are KiB, MiB, GiB, TiB; kB, MB, GB, TB are 1000-based)");
	if (p[len])
		return bad(err, field, s, examples);
	unsigned __int128 v = (unsigned __int128)whole * unit;
	v += ((unsigned __int128)frac * unit + scale / 2) / scale; /* to the nearest byte */
	if (v > UINT64_MAX)
		return bad(err, field, s, "is too large");
	if (frac && unit == 1)
		return bad(err, field, s, "is not a whole number of bytes");
	*out = (uint64_t)v;
	return 0;
}

int iolab_parse_uint(const char *field, const char *s, uint64_t min, uint64_t max, uint64_t *out,
		     struct iolab_err *err)
{
	uint64_t v;
	const char *p = parse_digits(s, &v);
	if (!p || *p)
		return bad(err, field, s, "is not a whole number");
	if (v < min || v > max)
		return iolab_errf(err, EINVAL, "%s: %" PRIu64 " is out of range (%" PRIu64 "..%" PRIu64 ")",
				  field, v, min, max);
	*out = v;
	return 0;
}

int iolab_parse_pct(const char *field, const char *s, unsigned *out, struct iolab_err *err)
{
	uint64_t v;
	const char *p = parse_digits(s, &v);
	if (!p || (*p && strcmp(p, "%") != 0))
		return bad(err, field, s, "is not a percentage (a whole number 0..100)");
	if (v > 100)
		return bad(err, field, s, "is not a percentage (a whole number 0..100)");
	*out = (unsigned)v;
	return 0;
}

int iolab_parse_double(const char *field, const char *s, double min, double max, double *out,
		       struct iolab_err *err)
{
	double v;
	if (iolab_parse_decimal(s, &v))
		return bad(err, field, s, "is not a number");
	if (v < min || v > max)
		return iolab_errf(err, EINVAL, "%s: %s is out of range (%g..%g)", field, s, min, max);
	*out = v;
	return 0;
}

int iolab_parse_duration(const char *field, const char *s, uint64_t *ns, struct iolab_err *err)
{
	char *end;
	/* Plain decimals only: digits with at most one '.', then the unit. */
	const char *q = s;
	unsigned dots = 0, digits = 0;
	for (; isdigit((unsigned char)*q) || *q == '.'; q++)
		*q == '.' ? dots++ : digits++;
	if (!digits || dots > 1)
		return bad(err, field, s, "is not a duration (examples: 30, 1.5s, 500ms, 2m)");
	errno = 0;
	double v = strtod(s, &end);
	if (end != q)
		return bad(err, field, s, "is not a duration (examples: 30, 1.5s, 500ms, 2m)");
	double unit = 1e9;
	if (!strcmp(end, "") || !strcmp(end, "s"))
		unit = 1e9;
	else if (!strcmp(end, "ms"))
		unit = 1e6;
	else if (!strcmp(end, "us"))
		unit = 1e3;
	else if (!strcmp(end, "m") || !strcmp(end, "min"))
		unit = 60e9;
	else if (!strcmp(end, "h"))
		unit = 3600e9;
	else
		return bad(err, field, s, "is not a duration (examples: 30, 1.5s, 500ms, 2m)");
	if (errno || !isfinite(v) || v < 0 || v * unit > 1e18)
		return bad(err, field, s, "is not a usable duration");
	*ns = (uint64_t)llround(v * unit);
	return 0;
}

int iolab_parse_bool(const char *field, const char *s, bool *out, struct iolab_err *err)
{
	static const char *yes[] = {"1", "true", "yes", "on"}, *no[] = {"0", "false", "no", "off"};
	for (unsigned i = 0; i < 4; i++) {
		if (!strcasecmp(s, yes[i]))
			return *out = true, 0;
		if (!strcasecmp(s, no[i]))
			return *out = false, 0;
	}
	return bad(err, field, s, "is not a yes/no value");
}

int iolab_split_list(const char *field, const char *s, char *buf, size_t bufsz, char **items,
		     unsigned max, struct iolab_err *err)
{
	size_t n = strlen(s);
	if (n + 1 > bufsz)
		return bad(err, field, s, "is too long");
	memcpy(buf, s, n + 1);
	unsigned count = 0;
	char *p = buf;
	for (;;) {
		char *comma = strchr(p, ',');
		if (comma)
			*comma = 0;
		while (isspace((unsigned char)*p))
			p++;
		char *e = p + strlen(p);
		while (e > p && isspace((unsigned char)e[-1]))
			*--e = 0;
		if (!*p)
			return bad(err, field, s, "has an empty item");
		if (count == max)
			return iolab_errf(err, EINVAL, "%s: '%s' has more than %u items", field, s, max);
		items[count++] = p;
		if (!comma)
			break;
		p = comma + 1;
	}
	return (int)count;
}

const char *iolab_fmt_size(uint64_t b, char *buf, size_t bufsz)
{
	static const char suffix[] = " kmgtp";
	unsigned exact = 0, unit = 0;
	uint64_t v = b;
	while (v >= 1024 && v % 1024 == 0 && exact < 5) {
		v /= 1024;
		exact++;
	}
	char text[48];
	snprintf(text, sizeof(text), "%" PRIu64 "%.*s", v, exact ? 1 : 0, &suffix[exact]);
	if (v >= 10000) { /* the largest unit, with the fewest decimals (3 at most) that read back
			     as b, else rounded to three significant digits and marked '~' */
		while (unit < 5 && b >> (10 * (unit + 1)))
			unit++;
		long double x = (long double)b / (long double)(UINT64_C(1) << (10 * unit));
		int round = x < 10 ? 2 : x < 100 ? 1 : 0;
		long double scale = round == 2 ? 100 : round == 1 ? 10 : 1;
		uint64_t back;
		snprintf(text, sizeof(text), "~%.*Lf%c", round, x, suffix[unit]);
		if (iolab_parse_size("", text + 1, &back, NULL)) /* rounded up past 2^64 */
			snprintf(text, sizeof(text), "~%.*Lf%c", round, floorl(x * scale) / scale,
				 suffix[unit]);
		for (int d = 1; d <= 3; d++) {
			char t[48];
			uint64_t back;
			snprintf(t, sizeof(t), "%.*Lf%c", d, x, suffix[unit]);
			if (!iolab_parse_size("", t, &back, NULL) && back == b) {
				snprintf(text, sizeof(text), "%s", t);
				break;
			}
		}
	}
	snprintf(buf, bufsz, "%s", text);
	return buf;
}
