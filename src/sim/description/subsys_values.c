/* subsys_values.c: reading one key's text into its part's record by the key's parameter type
 * (sim_kinds.h), for the subsystem file's reader and iolab_subsys_set alike; and checking a
 * value against the key's range. References (other parts by name) and models need the
 * reader's state and are read there. Messages are "field 'KEY': what is wrong"; the caller
 * puts where before it. */
#include <ctype.h>
#include <errno.h>
#include <stdio.h>
#include <string.h>

#include "iolab/parse.h"
#include "iolab/subsys.h"
#include "sim/description/subsys_values.h"

/* A time with its unit ("20us", "1.5ms"; "0" alone): a bare number would be seconds, never
 * what a per-command overhead means. At most 1 s. */
static int read_time(const char *key, const char *val, uint64_t *ns, struct iolab_err *err)
{
	char f[64];
	size_t n = strlen(val);
	if (n && isdigit((unsigned char)val[n - 1]) && strcmp(val, "0"))
		return iolab_err_field(err, key, "'%.100s' needs a unit (20us, 1.5ms, 0.1s)", val);
	snprintf(f, sizeof(f), "field '%s'", key);
	int rc = iolab_parse_duration(f, val, ns, err);
	if (!rc && *ns > 1000000000u)
		return iolab_err_field(err, key, "'%.100s' is more than 1 s", val);
	return rc;
}

static int read_size(const char *key, const char *val, uint64_t *out, struct iolab_err *err)
{
	char f[64];
	snprintf(f, sizeof(f), "field '%s'", key);
	return iolab_parse_size(f, val, out, err);
}

/* A rate in bytes/s: a size, optionally followed by "/s" ("10M", "10MB/s"); more than 0. */
static int read_rate(const char *key, const char *val, uint64_t *out, struct iolab_err *err)
{
	char num[64];
	size_t n = strlen(val);
	if (n >= 2 && !strcmp(val + n - 2, "/s"))
		n -= 2;
	if (n >= sizeof(num))
		return iolab_err_field(err, key, "'%.100s' is not a rate (10M, 10MB/s)", val);
	memcpy(num, val, n);
	num[n] = 0;
	int rc = read_size(key, num, out, err);
	if (!rc && !*out)
		return iolab_err_field(err, key, "must be more than 0 bytes/s");
	return rc;
}

/* "N" or "N+M": 1-based positions in drives=, stored 0-based. */
static int read_failed(const char *val, int *failed, struct iolab_err *err)
{
	char a[32];
	const char *plus = strchr(val, '+');
	size_t len = plus ? (size_t)(plus - val) : strlen(val);
	if (len >= sizeof(a) || (plus && strchr(plus + 1, '+')))
		return iolab_err_field(err, "failed", "'%.100s' is not N or N+M (one or two failed drives, "
			    "1-based)", val);
	memcpy(a, val, len);
	a[len] = 0;
	uint64_t n[2] = {0, 0};
	int rc = iolab_parse_uint("field 'failed'", a, 1, IOLAB_SUBSYS_MAX, &n[0], err);
	if (!rc && plus)
		rc = iolab_parse_uint("field 'failed'", plus + 1, 1, IOLAB_SUBSYS_MAX, &n[1], err);
	if (rc)
		return rc;
	if (n[0] == n[1])
		return iolab_err_field(err, "failed", "'%s' names drive %u twice", val, (unsigned)n[0]);
	failed[0] = (int)n[0] - 1;
	failed[1] = (int)n[1] - 1;
	return 0;
}

int iolab_param_read(const struct iolab_param *k, const char *val, void *rec, struct iolab_err *err)
{
	char f[64];
	void *at = (char *)rec + k->off;
	bool on;
	int rc;
	snprintf(f, sizeof(f), "field '%s'", k->key);
	switch (k->type) {
	case IOLAB_PT_TIME: return read_time(k->key, val, at, err);
	case IOLAB_PT_SIZE: return read_size(k->key, val, at, err);
	case IOLAB_PT_SIZE_POS:
		rc = read_size(k->key, val, at, err);
		if (!rc && !*(uint64_t *)at)
			return iolab_err_field(err, k->key, "must be more than 0%s", k->hint ? k->hint : "");
		return rc;
	case IOLAB_PT_RATE: return read_rate(k->key, val, at, err);
	case IOLAB_PT_COUNT: return iolab_parse_uint(f, val, (uint64_t)k->min, (uint64_t)k->max, at, err);
	case IOLAB_PT_BOOL: return iolab_parse_bool(f, val, at, err);
	case IOLAB_PT_SWITCH:
		if (iolab_parse_bool(f, val, &on, err))
			return -EINVAL;
		*(int *)at = on;
		return 0;
	case IOLAB_PT_CHOICE: return k->choice(f, val, at, err) ? -EINVAL : 0;
	case IOLAB_PT_BUS:
	case IOLAB_PT_CHANNEL: return iolab_link_parse(f, val, k->type == IOLAB_PT_BUS, at, err);
	case IOLAB_PT_FAILED: return read_failed(val, at, err);
	case IOLAB_PT_CUSTOM: return k->custom(k, val, rec, err) ? -EINVAL : 0;
	default: return iolab_errf(err, EINVAL, "field '%s': not read here", k->key);
	}
}

/* The number a range applies to: the value in the key's unit. */
static bool range_value(const struct iolab_param *k, const void *rec, double *v)
{
	const void *at = (const char *)rec + k->off;
	switch (k->type) {
	case IOLAB_PT_TIME:
	case IOLAB_PT_SIZE:
	case IOLAB_PT_SIZE_POS:
	case IOLAB_PT_RATE:
	case IOLAB_PT_COUNT: *v = (double)*(const uint64_t *)at; return true;
	default: return false;
	}
}

int iolab_param_in_range(const struct iolab_param *k, const void *rec, const char *val,
			 struct iolab_err *err)
{
	double v;
	if ((k->min == 0 && k->max == 0) || !range_value(k, rec, &v))
		return 0;
	if (v >= k->min && v <= k->max)
		return 0;
	char range[80];
	iolab_param_range_text(k, range, sizeof(range));
	return iolab_err_field(err, k->key, "'%.100s' is outside %s", val, range);
}
