/* validate.c: the validate-trace reader and the demerit figure (definitions in validate.h and
 * in the DiskSim validation notes). */
#include <errno.h>
#include <math.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "iolab/parse.h"
#include "iolab/parse_number.h"
#include "iolab/textfile.h"
#include "iolab/validate.h"

void iolab_vtrace_free(struct iolab_vtrace *t)
{
	free(t->req);
	memset(t, 0, sizeof(*t));
}

static int field_err(struct iolab_err *err, const char *name, size_t line, const char *field,
		     const char *v, const char *why)
{
	return iolab_errf(err, EINVAL, "%s:%zu: field '%s': '%s' %s", name, line, field, v, why);
}

/* A number >= 0 (iolab_parse_decimal: the rules of every iolab data file). */
static bool plain_number(const char *s, double *out)
{
	return iolab_parse_decimal(s, out) == 0 && *out >= 0;
}

int iolab_vtrace_parse_line(const char *name, size_t line, char *buf, struct iolab_vreq *req,
			    struct iolab_err *err)
{
	char *hash = strchr(buf, '#');
	if (hash)
		*hash = 0;
	char *col[7];
	unsigned n = 0;
	for (char *sv, *tok = strtok_r(buf, " \t\r,", &sv); tok; tok = strtok_r(NULL, " \t\r,", &sv))
		if (n < 7)
			col[n++] = tok;
	if (n == 0)
		return 0;
	if (n != 6)
		return iolab_errf(err, EINVAL, "%s:%zu: expected 6 fields (R|W Hit|Miss lbn blocks "
				  "service_us think_us), found %u", name, line, n);
	struct iolab_vreq r = {0};
	double lbn = 0, blocks = 0;
	if (strcmp(col[0], "R") && strcmp(col[0], "W"))
		return field_err(err, name, line, "type", col[0], "is not R or W");
	if (strcmp(col[1], "Hit") && strcmp(col[1], "Miss"))
		return field_err(err, name, line, "hit", col[1], "is not Hit or Miss");
	if (!plain_number(col[2], &lbn) || lbn != floor(lbn) || lbn > 1e15)
		return field_err(err, name, line, "lbn", col[2], "is not a block number");
	if (!plain_number(col[3], &blocks) || blocks != floor(blocks) || blocks < 1 ||
	    blocks > 1 << 20)
		return field_err(err, name, line, "blocks", col[3], "is not a block count (1..1048576)");
	if (!plain_number(col[4], &r.service_us))
		return field_err(err, name, line, "service_us", col[4], "is not a non-negative time");
	if (!plain_number(col[5], &r.think_us))
		return field_err(err, name, line, "think_us", col[5], "is not a non-negative time");
	r.write = col[0][0] == 'W';
	r.lbn = (uint64_t)lbn;
	r.blocks = (uint32_t)blocks;
	*req = r;
	return 1;
}

int iolab_vtrace_parse(const char *name, const char *text, struct iolab_vtrace *t, struct iolab_err *err)
{
	memset(t, 0, sizeof(*t));
	size_t cap = 0, line = 0;
	const char *at = text;
	while (*at) {
		const char *nl = strchr(at, '\n');
		size_t len = nl ? (size_t)(nl - at) : strlen(at);
		char buf[512];
		line++;
		if (len >= sizeof(buf)) {
			iolab_vtrace_free(t);
			return iolab_errf(err, EINVAL, "%s:%zu: line is too long", name, line);
		}
		memcpy(buf, at, len);
		buf[len] = 0;
		at += len + (nl ? 1 : 0);
		struct iolab_vreq r;
		int rc = iolab_vtrace_parse_line(name, line, buf, &r, err);
		if (rc == 0)
			continue;
		if (rc < 0) {
			iolab_vtrace_free(t);
			return rc;
		}
		if (t->n == cap) {
			cap = cap ? cap * 2 : 1024;
			struct iolab_vreq *nr = realloc(t->req, cap * sizeof(*nr));
			if (!nr) {
				iolab_vtrace_free(t);
				return iolab_errf(err, ENOMEM, "%s: out of memory", name);
			}
			t->req = nr;
		}
		t->req[t->n++] = r;
	}
	if (!t->n)
		return iolab_errf(err, EINVAL, "%s: no requests (a trace needs at least one measured "
				  "request)", name);
	/* The demerit is given as a share of the measured mean: it needs a mean above 0. */
	for (size_t i = 0; i < t->n; i++)
		if (t->req[i].service_us > 0)
			return 0;
	iolab_vtrace_free(t);
	return iolab_errf(err, EINVAL, "%s: field 'service_us': every measured service time is 0 "
			  "(the demerit is a share of the measured mean, which must be above 0)", name);
}

int iolab_vtrace_load(const char *path, struct iolab_vtrace *t, struct iolab_err *err)
{
	char *text;
	int rc = iolab_read_text(path, 256u << 20, "a text trace", &text, err);
	if (rc)
		return rc;
	rc = iolab_vtrace_parse(path, text, t, err);
	free(text);
	return rc;
}

double iolab_cdf_quantile(const double *x, size_t n, double p)
{
	double pos = p * (double)n; /* value i reaches probability (i+1)/n */
	if (pos <= 1)
		return x[0];
	if (pos >= (double)n)
		return x[n - 1];
	size_t i = (size_t)floor(pos); /* between x[i-1] at i/n and x[i] at (i+1)/n */
	double f = pos - (double)i;
	return x[i - 1] + f * (x[i] - x[i - 1]);
}

/* The bits of x as an unsigned key in the order of the doubles (NaN aside): negative numbers
 * have all bits flipped, the others only the sign bit. */
static uint64_t order_key(double x)
{
	uint64_t b;
	memcpy(&b, &x, sizeof(b));
	return b >> 63 ? ~b : b | (1ull << 63);
}

/* Sorts v[0..n) ascending: a least-significant-digit radix sort on order_key, 8 passes of one
 * byte. The demerit sorts two arrays of a trace's length on every validation, where qsort's
 * comparison calls were an eighth of the whole command's time; this is linear. Returns 0, or
 * -ENOMEM with v left as it was. */
static int radix_sort(double *v, size_t n)
{
	uint64_t *a = malloc(n * sizeof(*a)), *b = malloc(n * sizeof(*b));
	if (!a || !b) {
		free(a);
		free(b);
		return -ENOMEM;
	}
	for (size_t i = 0; i < n; i++)
		a[i] = order_key(v[i]);
	for (unsigned shift = 0; shift < 64; shift += 8) {
		size_t count[257] = {0};
		for (size_t i = 0; i < n; i++)
			count[((a[i] >> shift) & 0xff) + 1]++;
		if (count[((a[0] >> shift) & 0xff) + 1] == n)
			continue; /* every key has this byte: the pass would change nothing */
		for (unsigned d = 1; d < 257; d++)
			count[d] += count[d - 1];
		for (size_t i = 0; i < n; i++)
			b[count[(a[i] >> shift) & 0xff]++] = a[i];
		uint64_t *t = a;
		a = b;
		b = t;
	}
	for (size_t i = 0; i < n; i++) {
		uint64_t k = a[i] >> 63 ? a[i] & ~(1ull << 63) : ~a[i];
		memcpy(&v[i], &k, sizeof(k));
	}
	free(a);
	free(b);
	return 0;
}

static int cmp_double(const void *a, const void *b)
{
	double x = *(const double *)a, y = *(const double *)b;
	return (x > y) - (x < y);
}

static void sort_doubles(double *v, size_t n)
{
	if (n && radix_sort(v, n))
		qsort(v, n, sizeof(double), cmp_double);
}

double iolab_demerit(double *meas, double *sim, size_t n)
{
	sort_doubles(meas, n);
	sort_doubles(sim, n);
	double acc = 0;
	for (unsigned k = 1; k <= 10000; k++) {
		double p = k / 10000.0;
		double d = iolab_cdf_quantile(meas, n, p) - iolab_cdf_quantile(sim, n, p);
		acc += d * d;
	}
	return sqrt(acc / 10000.0);
}
