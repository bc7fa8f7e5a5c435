/* distribution.c: where random offsets fall. Parses "uniform", "zipf:θ", "pareto:h" and
 * "hotspot:P/R", and samples them in O(1) per draw whatever the region size.
 *
 * Zipf uses rejection-inversion sampling (Hörmann and Derflinger, "Rejection-inversion to
 * generate variates from monotone discrete distributions", 1996): no table over the n blocks,
 * so a terabyte device costs the same as a megabyte file. Pareto maps a uniform u to
 * n·u^(ln h / ln(1-h)), which puts a share 1-h of the draws on the first share h of the blocks.
 * Zipf and Pareto ranks are spread over the region by a fixed affine permutation, so the hot
 * blocks are not one contiguous run that read-ahead would serve; hotspot keeps its hot area
 * contiguous at the start of the region, as its definition says.
 */
#include <errno.h>
#include <math.h>
#include <stdio.h>
#include <string.h>

#include "generator_internal.h"
#include "iolab/parse.h"

int iolab_dist_parse(const char *field, const char *s, struct iolab_dist *d, struct iolab_err *err)
{
	memset(d, 0, sizeof(*d));
	if (!strcmp(s, "uniform"))
		return 0;
	const char *colon = strchr(s, ':');
	if (!colon)
		goto bad;
	size_t n = (size_t)(colon - s);
	const char *arg = colon + 1;
	if (n == 4 && !strncmp(s, "zipf", 4)) {
		d->kind = IOLAB_DIST_ZIPF;
		return iolab_parse_double(field, arg, 0.01, 100, &d->a, err);
	}
	if (n == 6 && !strncmp(s, "pareto", 6)) {
		d->kind = IOLAB_DIST_PARETO;
		int rc = iolab_parse_double(field, arg, 0, 1, &d->a, err);
		if (!rc && (d->a <= 0 || d->a >= 1))
			return iolab_errf(err, EINVAL, "%s: pareto:h needs 0 < h < 1", field);
		return rc;
	}
	if (n == 7 && !strncmp(s, "hotspot", 7)) {
		char pbuf[32];
		const char *slash = strchr(arg, '/');
		if (!slash || (size_t)(slash - arg) >= sizeof(pbuf))
			return iolab_errf(err, EINVAL, "%s: '%s' should be hotspot:P/R (e.g. hotspot:90/10)",
					  field, s);
		memcpy(pbuf, arg, (size_t)(slash - arg));
		pbuf[slash - arg] = 0;
		d->kind = IOLAB_DIST_HOTSPOT;
		if (iolab_parse_double(field, pbuf, 0, 100, &d->a, err) ||
		    iolab_parse_double(field, slash + 1, 0, 100, &d->b, err))
			return -EINVAL;
		if (d->b <= 0 || d->b >= 100)
			return iolab_errf(err, EINVAL, "%s: hotspot region R must be between 0 and 100 %%",
					  field);
		return 0;
	}
bad:
	return iolab_errf(err, EINVAL,
			  "%s: '%s' is not a distribution (uniform, zipf:1.2, pareto:0.2, hotspot:90/10)",
			  field, s);
}

const char *iolab_dist_name(const struct iolab_dist *d, char *buf, unsigned bufsz)
{
	switch (d->kind) {
	case IOLAB_DIST_ZIPF: snprintf(buf, bufsz, "zipf:%g", d->a); break;
	case IOLAB_DIST_PARETO: snprintf(buf, bufsz, "pareto:%g", d->a); break;
	case IOLAB_DIST_HOTSPOT: snprintf(buf, bufsz, "hotspot:%g/%g", d->a, d->b); break;
	default: snprintf(buf, bufsz, "uniform"); break;
	}
	return buf;
}

/* log1p(x)/x and expm1(x)/x, accurate near 0. */
static double helper1(double x)
{
	return fabs(x) > 1e-8 ? log1p(x) / x : 1 - x * (0.5 - x * (1.0 / 3 - 0.25 * x));
}

static double helper2(double x)
{
	return fabs(x) > 1e-8 ? expm1(x) / x : 1 + x * 0.5 * (1 + x / 3 * (1 + 0.25 * x));
}

/* Zipf with exponent s: h(x) = x^-s and its integral H, and H's inverse. */
static double zipf_h(double s, double x)
{
	return exp(-s * log(x));
}

static double zipf_H(double s, double x)
{
	double lx = log(x);
	return helper2((1 - s) * lx) * lx;
}

static double zipf_Hinv(double s, double x)
{
	double t = x * (1 - s);
	if (t < -1)
		t = -1;
	return exp(helper1(t) * x);
}

void iolab_skew_init(struct iolab_skew *k, const struct iolab_dist *d, uint64_t n)
{
	memset(k, 0, sizeof(*k));
	k->kind = d->kind;
	k->n = n;
	switch (d->kind) {
	case IOLAB_DIST_ZIPF: {
		double s = d->a;
		k->a = s;
		k->b = zipf_H(s, 1.5) - 1;          /* H(x1) */
		k->c = zipf_H(s, (double)n + 0.5); /* H(n) */
		k->d = 2 - zipf_Hinv(s, zipf_H(s, 2.5) - zipf_h(s, 2));
		break;
	}
	case IOLAB_DIST_PARETO:
		k->a = log(d->a) / log(1 - d->a);
		break;
	case IOLAB_DIST_HOTSPOT:
		k->a = d->a / 100;                         /* probability of the hot area */
		k->e = (double)n * d->b / 100;             /* blocks in the hot area */
		if (k->e < 1)
			k->e = 1;
		break;
	default:
		break;
	}
	/* Affine permutation of [0, n): multiplier coprime with n. */
	k->mul = n > 1 ? (0x9e3779b97f4a7c15ull % n) | 1 : 1;
	while (n > 1 && iolab_gcd64(k->mul, n) != 1)
		k->mul += 2;
	k->add = n > 1 ? 0x632be59bd9b4e019ull % n : 0;
}

static uint64_t permute(const struct iolab_skew *k, uint64_t rank)
{
	return (uint64_t)(((unsigned __int128)rank * k->mul + k->add) % k->n);
}

uint64_t iolab_skew_draw(const struct iolab_skew *k, struct iolab_prng *rng)
{
	uint64_t n = k->n;
	switch (k->kind) {
	case IOLAB_DIST_ZIPF:
		for (;;) {
			double u = k->c + iolab_prng_unit(rng) * (k->b - k->c);
			double x = zipf_Hinv(k->a, u);
			double kx = floor(x + 0.5);
			if (kx < 1)
				kx = 1;
			else if (kx > (double)n)
				kx = (double)n;
			if (kx - x <= k->d || u >= zipf_H(k->a, kx + 0.5) - zipf_h(k->a, kx))
				return permute(k, (uint64_t)kx - 1);
		}
	case IOLAB_DIST_PARETO: {
		double v = (double)n * pow(iolab_prng_unit(rng), k->a);
		uint64_t r = v >= (double)n ? n - 1 : (uint64_t)v;
		return permute(k, r);
	}
	case IOLAB_DIST_HOTSPOT: {
		uint64_t hot = (uint64_t)k->e;
		if (hot >= n)
			return iolab_prng_below(rng, n);
		if (iolab_prng_unit(rng) < k->a)
			return iolab_prng_below(rng, hot);
		return hot + iolab_prng_below(rng, n - hot);
	}
	default:
		return iolab_prng_below(rng, n);
	}
}
