/* probe.c: the measurements of `iolab probe` (probe.h; the method is docs/probe.md).
 *
 * Everything is read from completion times. The key fact: a one-block read that misses the
 * drive's cache completes a fixed time after its sector passed under the head, so its
 * completion time modulo the revolution is the sector's angle plus a constant, whatever the
 * moment it was issued. Hence:
 *  - the revolution: one block re-read after enough other reads to push it out of the cache
 *    completes a whole number of revolutions after its first read; the largest period that makes
 *    every such gap whole is the revolution;
 *  - sectors per track: reads stepping s blocks along a track complete s sector times apart
 *    (modulo the revolution); samples across the address space, and a bisection between samples
 *    that differ, give the zones; a window test on fresh tracks finds where tracks start;
 *  - skews and surfaces: reads one track apart complete a skew apart; the cylinder skew differs
 *    from the track skew, and the tracks between two cylinder skews are the surfaces;
 *  - positioning: the shortest latency V of a read issued as another completes is bisected over
 *    the target's angle (each read bounds V within one revolution: V <= latency < V + rev);
 *    V on the same track is the overheads, V across d cylinders adds the seek, V on the other
 *    track of the cylinder the head switch.
 * Reads are kept out of the cache by always going forward on a track by more than the drive
 * can read ahead, by using fresh tracks, and by far decoy reads where a hit must be told from a
 * miss (a miss then pays a long seek). */
#include <errno.h>
#include <math.h>
#include <stdlib.h>
#include <stdio.h>
#include <string.h>

#include "iolab/prng.h"
#include "iolab/probe.h"

struct pc {
	struct iolab_probe_backend *b;
	const struct iolab_probe_opts *o;
	struct iolab_probe_result *r;
	struct iolab_err *err;
	uint64_t rng, t0, budget;
	uint64_t t_ref;        /* a reference stamp for angles (track_angle()) */
	uint32_t b4k;          /* blocks in 4 KiB (at least 1) */
	double rev, tol, hit_thr;
	double spt_rel;        /* relative difference of two sectors-per-track figures that the
				* timing noise cannot tell apart (0: exact) */
	/* layout, once the zones are known */
	uint32_t zcyl[IOLAB_PROBE_MAX_ZONES + 1]; /* first cylinder of each zone; [nzones] = total */
	uint32_t tau[IOLAB_PROBE_MAX_ZONES];      /* track starts: lbn = first_lbn + tau + k*spt */
	uint64_t recent[512];  /* tracks used lately (cyl * surfaces + track) */
	unsigned nrecent;
	/* track starts found near places (spares between zones of equal spt and slips move
	 * them, so the zone's own phase does not hold far from its start) */
	uint64_t ts_at[256], ts_start[256];
	unsigned nts;
	uint64_t cs_at[256], cs_start[256]; /* the same for cylinder starts */
	uint32_t hit_off;      /* blocks past a read that are first held after idling (cache()) */
	bool behind;           /* the track just read is timed behind the read (behind()) */
	unsigned v_late;       /* reads of the last vmin() a revolution late (bounding V below) */
	unsigned ncs;
};

#define TRY(x) do { int rc_ = (x); if (rc_) return rc_; } while (0)

static uint64_t rnd(struct pc *c)
{
	return iolab_prng_mix(c->rng += IOLAB_PRNG_GOLDEN);
}

static uint64_t now(struct pc *c)
{
	return c->b->ops->now(c->b);
}

static double used(struct pc *c)
{
	return (double)(now(c) - c->t0) / (double)c->budget;
}

static void progress(struct pc *c, const char *stage)
{
	if (c->o->progress)
		c->o->progress(stage, used(c) < 1 ? used(c) : 1, c->o->ctx);
}

static void skip(struct pc *c, const char *what)
{
	size_t n = strlen(c->r->skipped);
	snprintf(c->r->skipped + n, sizeof(c->r->skipped) - n, "%s%s", n ? ", " : "", what);
}

/* One request; done and lat (either may be NULL) get its completion time and latency. */
static int io1(struct pc *c, uint64_t lbn, uint32_t n, bool write, uint64_t *done, double *lat)
{
	if (c->o->cancel && *c->o->cancel)
		return -ECANCELED;
	if (lbn + n > c->b->blocks)
		lbn = c->b->blocks - n;
	uint64_t t = now(c);
	struct iolab_probe_io io = {.lbn = lbn, .blocks = n, .write = write};
	TRY(c->b->ops->io(c->b, &io, 1, c->err));
	c->r->ios++;
	if (done)
		*done = io.t_done;
	if (lat)
		*lat = (double)(io.t_done - t);
	return 0;
}

static int rd(struct pc *c, uint64_t lbn, uint64_t *done, double *lat)
{
	return io1(c, lbn, 1, false, done, lat);
}

static uint64_t rand_lbn(struct pc *c, uint32_t align)
{
	uint64_t n = (c->b->blocks - align) / align;
	return (rnd(c) % (n ? n : 1)) * align;
}

/* A block about half the address space away from lbn. */
static uint64_t far_from(struct pc *c, uint64_t lbn)
{
	uint64_t half = c->b->blocks / 2, j = rnd(c) % (c->b->blocks / 64 + 1);
	return (lbn + half + j) % (c->b->blocks - 1);
}

static int cmp_dbl(const void *a, const void *b)
{
	double x = *(const double *)a, y = *(const double *)b;
	return x < y ? -1 : x > y;
}

static double median(double *v, unsigned n)
{
	qsort(v, n, sizeof(*v), cmp_dbl);
	return n ? v[n / 2] : 0;
}

/* (a - b) modulo the revolution, in [0, rev). */
static double phase(struct pc *c, uint64_t a, uint64_t b)
{
	double d = fmod((double)a - (double)b, c->rev);
	return d < 0 ? d + c->rev : d;
}

/* ---- profile: every device ------------------------------------------------------------ */

static int profile(struct pc *c)
{
	struct iolab_probe_result *r = c->r;
	enum { N = 64, QD = 32, BATCH = 4, SEQ = 16 };
	double lat[N], sum = 0;
	for (unsigned i = 0; i < N; i++) {
		TRY(io1(c, rand_lbn(c, c->b4k), c->b4k, false, NULL, &lat[i]));
		sum += lat[i];
	}
	r->iops_qd1 = 1e9 * N / sum;
	r->rand_lat_med_ns = median(lat, N);
	r->rand_lat_min_ns = lat[0];
	r->rand_lat_max_ns = lat[N - 1];
	struct iolab_probe_io ios[QD];
	uint64_t t = now(c);
	for (unsigned k = 0; k < BATCH; k++) {
		for (unsigned i = 0; i < QD; i++)
			ios[i] = (struct iolab_probe_io){.lbn = rand_lbn(c, c->b4k), .blocks = c->b4k};
		TRY(c->b->ops->io(c->b, ios, QD, c->err));
		r->ios += QD;
	}
	r->iops_qd32 = 1e9 * QD * BATCH / (double)(now(c) - t);
	uint32_t n64 = 65536 / c->b->block_bytes;
	r->nseq = IOLAB_PROBE_SEQ_POINTS;
	for (unsigned p = 0; p < r->nseq; p++) {
		uint64_t lbn = (uint64_t)((double)(c->b->blocks - (uint64_t)SEQ * n64) * (p + 0.5) /
					  r->nseq) / n64 * n64, first = 0, last = 0;
		for (unsigned i = 0; i < SEQ; i++)
			TRY(io1(c, lbn + (uint64_t)i * n64, n64, false, i ? &last : &first, NULL));
		r->seq_lbn[p] = lbn;
		r->seq_mbps[p] = (double)(SEQ - 1) * 65536 / (double)(last - first) * 1e3;
	}
	return 0;
}

/* ---- timing noise ---------------------------------------------------------------------- */

/* The lateness of stamps t[0..n), each some whole number of periods after the first plus its
 * delay, beyond their lower envelope: of the lines a + p * m (m whole) through two of them, p
 * near their median gap p0 (a stamp may miss a revolution, or several), the one that leaves
 * the least lateness in sum (noise only ever adds delay, so the quickest stamps lie on it; a
 * stamp early for a line is late by nearly a period for it). into[] gets the lateness. */
static void lateness(const uint64_t *t, unsigned n, double *into)
{
	double gap[64];
	unsigned ng = 0;
	for (unsigned i = 1; i < n && ng < 64; i++)
		gap[ng++] = (double)(t[i] - t[i - 1]);
	double p0 = median(gap, ng), best = INFINITY, a0 = (double)t[0], q0 = p0;
	for (unsigned i = 0; i < n && p0 > 0; i++)
		for (unsigned j = i + 1; j < n; j++) {
			double d = (double)(t[j] - t[i]), m = round(d / p0);
			if (m < 1)
				continue;
			double p = d / m, a = (double)t[i], sum = 0;
			for (unsigned k = 0; k < n && sum < best; k++) {
				double e = fmod((double)t[k] - a, p);
				e = e < 0 ? e + p : e;
				sum += e > p - 0.5 ? 0 : e;
			}
			if (sum < best)
				best = sum, a0 = a, q0 = p;
		}
	for (unsigned k = 0; k < n; k++) {
		double e = fmod((double)t[k] - a0, q0);
		e = e < 0 ? e + q0 : e;
		into[k] = e > q0 - 0.5 ? 0 : e;
	}
}

/* Back-to-back reads of one block: after the first, cache hits that take the same time on
 * the drive, so the spread of their latencies is the host's; or, on a drive that does not
 * serve them from its cache, a revolution each, completing at the same angle: then a late
 * stamp also shortens the next latency, and the lateness is that of the stamps beyond the
 * lower envelope of their line. The 90th percentile of the lateness becomes the noise, and the
 * tolerance between two stamps twice that (1 us at least, the resolution the exact simulated
 * drive is held to). Everything that compares times takes its tolerance from here; the
 * figures that come from many reads are refined with more of them when it is not 0. */
static int noise(struct pc *c)
{
	struct iolab_probe_result *r = c->r;
	enum { N = 41 };
	double lat[N];
	uint64_t x = rand_lbn(c, 1), t[N];
	TRY(rd(c, x, NULL, NULL));
	for (unsigned i = 0; i < N; i++)
		TRY(rd(c, x, &t[i], &lat[i]));
	double m[N];
	memcpy(m, lat, sizeof(m));
	if (median(m, N) >= c->hit_thr) {
		lateness(t, N, lat);
	} else {
		qsort(lat, N, sizeof(*lat), cmp_dbl);
		for (unsigned i = N; i-- > 0;)
			lat[i] -= lat[0];
	}
	qsort(lat, N, sizeof(*lat), cmp_dbl);
	r->noise_ns = lat[N * 9 / 10];
	c->tol = fmax(fmax(1000, (double)c->b->jitter_ns), 2 * r->noise_ns);
	return 0;
}

/* ---- rotation ------------------------------------------------------------------------ */

/* The most stamps t[0..n) that lie within w of one another modulo the period p: noise only
 * delays a stamp, so those on time gather at one phase and a late one falls outside. *from
 * gets that phase (after t[0]). */
static unsigned in_phase(const uint64_t *t, unsigned n, double p, double w, double *from)
{
	double ph[2 * 32];
	for (unsigned i = 0; i < n; i++)
		ph[i] = fmod((double)(t[i] - t[0]), p);
	qsort(ph, n, sizeof(*ph), cmp_dbl);
	for (unsigned i = 0; i < n; i++)
		ph[n + i] = ph[i] + p;
	unsigned best = 0;
	for (unsigned i = 0, j = 0; i < n; i++) {
		while (j < i + n && ph[j] <= ph[i] + w)
			j++;
		if (j - i > best)
			best = j - i, *from = ph[i];
	}
	return best;
}

/* The revolution from stamps t[0..n) (n <= 32) of one block's re-reads, each a whole number of
 * revolutions after the first plus its lateness: the period in [2, 20] ms (30000..3000 rpm) that
 * puts the most of them in phase within w. Candidates divide the time between an early stamp
 * and a late one by a whole number (a long span, so that one is precise to the noise over it);
 * the revolution's fractions put as many in phase and its multiples about half (a stamp's
 * revolution count is as often odd as even), so of the candidates within an eighth of the
 * most, the largest. At least half the stamps must be in phase, else w doubles (to 8 times the
 * tolerance at most: the noise of this stretch may exceed the one measured). The period is then
 * refined by least squares over the stamps in phase; *in gets their count, *resid the worst
 * residual. */
static bool find_rev(const uint64_t *t, unsigned n, double tol, double *rev, double *resid,
		     unsigned *in)
{
	if (n < 4 || n > 32)
		return false;
	for (double w = tol; w <= 8 * tol; w *= 2) {
		double top[33] = {0}, from = 0; /* top[s]: the largest period with s in phase */
		for (unsigned i = 0; i < n / 3 + 1; i++)
			for (unsigned j = n - 1 - n / 3; j < n; j++) {
				double d = (double)(t[j] - t[i]);
				for (double m = ceil(d / 20e6); m >= 1 && d / m >= 2e6; m++) {
					unsigned s = in_phase(t, n, d / m, w, &from);
					top[s] = fmax(top[s], d / m);
				}
			}
		unsigned most = n;
		while (most > 0 && top[most] == 0)
			most--;
		if (most < (n + 1) / 2)
			continue;
		double p = 0;
		for (unsigned s = most - most / 8; s <= most; s++)
			p = fmax(p, top[s]);
		*in = in_phase(t, n, p, w, &from);
		double m[32], x[32], mm = 0, xm = 0;
		unsigned k = 0;
		for (unsigned i = 0; i < n; i++) {
			double d = (double)(t[i] - t[0]) - from, q = floor(d / p + 0.5);
			if (d - q * p >= -0.5 && d - q * p <= w + 0.5)
				m[k] = q, x[k] = (double)(t[i] - t[0]), mm += q, xm += x[k], k++;
		}
		mm /= k, xm /= k;
		double sn = 0, sd = 0;
		for (unsigned i = 0; i < k; i++)
			sn += (m[i] - mm) * (x[i] - xm), sd += (m[i] - mm) * (m[i] - mm);
		if (sd <= 0)
			continue;
		*rev = sn / sd;
		*resid = 0;
		for (unsigned i = 0; i < k; i++)
			*resid = fmax(*resid, fabs(x[i] - xm - *rev * (m[i] - mm)));
		return true;
	}
	return false;
}

/* Reads x, then k fresh random blocks and a far decoy, then x again: true if that hit. */
static int evicted(struct pc *c, uint64_t x, unsigned k, uint64_t *done, bool *hit)
{
	for (unsigned i = 0; i < k; i++)
		TRY(rd(c, rand_lbn(c, 1), NULL, NULL));
	TRY(rd(c, far_from(c, x), NULL, NULL));
	double lat;
	TRY(rd(c, x, done, &lat));
	*hit = lat < c->hit_thr;
	return 0;
}

/* Re-reads of one random block, each after k + (0 or 1) others that evict it: t[0..*n) their
 * stamps, *hit if it stayed cached. */
static int rereads(struct pc *c, unsigned k, unsigned cycles, uint64_t *t, unsigned *n, bool *hit)
{
	uint64_t x = rand_lbn(c, 1);
	*hit = false;
	TRY(rd(c, x, &t[0], NULL));
	for (*n = 1; *n <= cycles && !*hit; (*n)++)
		TRY(evicted(c, x, k + (*n & 1), &t[*n], hit));
	return 0;
}

static int rotation(struct pc *c)
{
	struct iolab_probe_result *r = c->r;
	enum { CYCLES_MAX = 24 };
	unsigned CYCLES = c->tol > 1000 ? CYCLES_MAX : 12; /* more stamps when some may be late */
	uint64_t t[CYCLES_MAX + 1], t2[CYCLES_MAX + 1];
	unsigned k_hit = 0, k = 1, tries = 0;
	while (k <= 1024) {
		unsigned n, n2, in, in2;
		bool hit;
		double resid, from;
		TRY(rereads(c, k, CYCLES, t, &n, &hit));
		if (hit) {
			k_hit = k;
			k *= 2;
			continue;
		}
		if (!find_rev(t, n, c->tol, &c->rev, &resid, &in))
			break;
		if (c->tol > 1000 && tries < 3) {
			/* through noise a wrong period can gather one block's stamps by chance:
			 * another block's must be in phase with it too (half of them, within 4
			 * tolerances or an eighth of a revolution), or it is measured again */
			TRY(rereads(c, k, CYCLES, t2, &n2, &hit));
			in2 = hit ? n2 : in_phase(t2, n2, c->rev, fmin(4 * c->tol, c->rev / 8), &from);
			if (in2 < (n2 + 1) / 2) {
				tries++;
				continue;
			}
		}
		r->rev_ns = c->rev;
		r->rpm = 60e9 / c->rev;
		r->rev_samples = in;
		r->rev_resid_ns = resid;
		/* x stayed cached through k_hit + 1 other misses and left after k + 1: the
		 * segments lie between (a first guess; cache() narrows it) */
		r->segments = k_hit ? k_hit + 2 : 1;
		return 0;
	}
	r->rotating = false;
	snprintf(r->why_not, sizeof(r->why_not), "re-reads of one block after %u others do not "
		 "complete in phase with any period between 2 and 20 ms", k);
	return 0;
}

/* ---- sectors per track, zones --------------------------------------------------------- */

/* Sum over the points (x[i], u[i]) of their height above the lower envelope of slope p of
 * their run (run[i], runs consecutive): each run's line of slope p through its lowest point. */
static double above_envelope(const double *u, const double *x, const unsigned *run, unsigned n,
			     double p)
{
	double sum = 0;
	for (unsigned a = 0; a < n;) {
		unsigned b = a;
		double lo = INFINITY;
		for (; b < n && run[b] == run[a]; b++)
			lo = fmin(lo, u[b] - p * x[b]);
		for (unsigned i = a; i < b; i++)
			sum += u[i] - p * x[i] - lo;
		a = b;
	}
	return sum;
}

/* The common slope of runs of stamps u[] (phases added up along a run) at steps x[]: noise only
 * ever adds delay, so each run lies on or above a line through its quickest stamps; the slope
 * (within 2 % of p0) whose lines leave the least above them (convex in it: golden section). */
static double envelope_slope(const double *u, const double *x, const unsigned *run, unsigned n,
			     double p0)
{
	const double g = (sqrt(5) - 1) / 2;
	double a = 0.98 * p0, b = 1.02 * p0;
	double c1 = b - g * (b - a), c2 = a + g * (b - a);
	double f1 = above_envelope(u, x, run, n, c1), f2 = above_envelope(u, x, run, n, c2);
	for (unsigned it = 0; it < 80; it++) {
		if (f1 <= f2) {
			b = c2, c2 = c1, f2 = f1;
			c1 = b - g * (b - a);
			f1 = above_envelope(u, x, run, n, c1);
		} else {
			a = c1, c1 = c2, f1 = f2;
			c2 = a + g * (b - a);
			f2 = above_envelope(u, x, run, n, c2);
		}
	}
	return (a + b) / 2;
}

/* Sectors per track from J reads s blocks apart from lbn: within a track they complete s
 * sector times apart. Steps within tol of the median are on one track (a track boundary adds a
 * skew, a late stamp spoils two steps); over each run of such steps the phases add up, and
 * only the stamps at its ends count, so the runs' total phase over their total blocks gives the
 * sector time with the noise of two stamps a run; through noise, the slope of the runs' common
 * lower envelope (envelope_slope()). */
static int steps(struct pc *c, uint64_t lbn, uint32_t s, unsigned J, double *spt, double *spread)
{
	double st[64], m2[64];
	unsigned n = 0;
	uint64_t prev = 0, done;
	if (J > 64)
		J = 64;
	for (unsigned j = 0; j < J && lbn + (uint64_t)j * s < c->b->blocks; j++) {
		TRY(rd(c, lbn + (uint64_t)j * s, &done, NULL));
		if (j)
			st[n++] = phase(c, done, prev);
		prev = done;
	}
	if (n < 3) {
		*spt = 0;
		return 0;
	}
	memcpy(m2, st, n * sizeof(*st));
	double m = median(m2, n), tol = fmax(c->tol, 0.01 * m), sum = 0;
	unsigned agree = 0;
	for (unsigned i = 0; i < n; i++)
		if (fabs(st[i] - m) <= tol) {
			agree++;
			sum += st[i];
		}
	*spt = sum > 0 ? (double)s * agree * c->rev / sum : 0;
	*spread = 1 - (double)agree / n;
	if (c->tol > 1000 && sum > 0) {
		/* through noise: the runs' lower envelope, whose slope the quickest stamps set */
		double u[64], x[64];
		unsigned run[64], np = 0, id = 0;
		u[0] = x[0] = 0, run[0] = 0, np = 1;
		for (unsigned i = 0; i < n; i++) {
			if (fabs(st[i] - m) <= tol) {
				u[np] = u[np - 1] + st[i], x[np] = x[np - 1] + 1;
			} else {
				u[np] = x[np] = 0;
				id++;
			}
			run[np++] = id;
		}
		double p = envelope_slope(u, x, run, np, sum / agree);
		*spt = p > 0 ? (double)s * c->rev / p : *spt;
	}
	return 0;
}

/* Sectors per track at lbn (hint: a likely value, or 0). */
static int spt_at(struct pc *c, uint64_t lbn, uint32_t hint, uint32_t *spt, double *spread)
{
	uint32_t s = hint ? (hint / 8 > 16 ? hint / 8 : 16) : 24;
	double est = hint, v = 0;
	*spt = 0;
	for (unsigned it = 0; it < 4; it++) {
		TRY(steps(c, lbn, s, c->spt_rel > 0 ? 40 : hint || it ? 14 : 10, &v, spread));
		lbn += (uint64_t)s * 15 + 64;
		if (lbn >= c->b->blocks)
			lbn = c->b->blocks / 2 + rnd(c) % (c->b->blocks / 4);
		if (v > 0 && est > 0 && fabs(v - est) <= 0.01 * v + 0.5)
			break;
		est = v;
		if (v > 0)
			s = v / 8 > 16 ? (uint32_t)(v / 8) : 16;
	}
	*spt = (uint32_t)lround(v);
	return 0;
}

static bool same_spt(struct pc *c, uint32_t a, uint32_t b)
{
	uint32_t d = a > b ? a - b : b - a;
	return d <= a * c->spt_rel;
}

static int add_zone(struct pc *c, uint64_t first, uint32_t spt, double spread)
{
	struct iolab_probe_result *r = c->r;
	if (r->nzones && same_spt(c, r->zone[r->nzones - 1].spt, spt))
		return 0;
	if (r->nzones == IOLAB_PROBE_MAX_ZONES)
		return iolab_errf(c->err, E2BIG, "%s: more than %d zones", c->b->desc,
				  IOLAB_PROBE_MAX_ZONES);
	r->zone[r->nzones++] = (struct iolab_probe_zone){.first_lbn = first, .spt = spt,
							 .spt_spread = spread};
	return 0;
}

static int track_start_in(struct pc *c, uint64_t x, uint32_t w, uint32_t spt, bool *yes);
static int track_offset(struct pc *c, uint64_t base, uint64_t end, uint32_t spt, uint32_t *off);

/* Does spt hold in zone z? A track start found (with it) mid-zone predicts the starts 64 and
 * 128 tracks on: a sector off moves them 64 and 128 sectors, out of the windows of 16 sectors
 * around them that are tested. */
static int spt_holds(struct pc *c, const struct iolab_probe_zone *z, uint32_t spt, bool *ok)
{
	uint64_t base = z->first_lbn + z->nblocks / 2, end = z->first_lbn + z->nblocks;
	uint32_t t;
	*ok = false;
	if (base + 160ull * spt >= end)
		return 0;
	TRY(track_offset(c, base, end, spt, &t));
	for (unsigned n = 64; n <= 128; n += 64) {
		TRY(track_start_in(c, base + t + (uint64_t)n * spt - 8, 16, spt, ok));
		if (!*ok)
			break;
	}
	return 0;
}

/* Through noise: zone i's sectors per track from the common lower envelope of runs of reads a
 * tenth of a track apart at 4 places across the zone (64 reads each): a sector more or less
 * moves a track start a sector a track, which the track-start tests and the layout's arithmetic
 * over 64 cylinders cannot bear. Kept if it is one figure with the first (same_spt()). */
static int refine_spt(struct pc *c, unsigned i)
{
	enum { K = 4, J = 64 };
	struct iolab_probe_zone *z = &c->r->zone[i];
	uint32_t s = z->spt / 10 > 1 ? z->spt / 10 : 1;
	double u[K * J], x[K * J], want = s * c->rev / z->spt, lim = fmax(c->tol, 0.01 * want);
	unsigned run[K * J], np = 0, id = 0;
	if (z->nblocks < (uint64_t)K * J * s * 2)
		return 0;
	for (unsigned q = 0; q < K; q++) {
		uint64_t lbn = z->first_lbn + z->nblocks * (2 * q + 1) / (2 * K), prev = 0, done;
		for (unsigned j = 0; j < J; j++, np++) {
			TRY(rd(c, lbn + (uint64_t)j * s, &done, NULL));
			double st = j ? phase(c, done, prev) : INFINITY;
			if (fabs(st - want) <= lim) {
				u[np] = u[np - 1] + st, x[np] = x[np - 1] + 1;
			} else {
				u[np] = x[np] = 0;
				id++;
			}
			run[np] = id;
			prev = done;
		}
	}
	double est = s * c->rev / envelope_slope(u, x, run, np, want);
	if (same_spt(c, (uint32_t)lround(est), z->spt))
		z->spt = (uint32_t)lround(est);
	/* the envelope's slope is good to about a 24th of the tolerance over the track: to a
	 * third of a sector while the tolerance is within 8 sectors; beyond, the figures around
	 * it, nearest first, are tried by the track starts they predict 64 and 128 tracks on (a
	 * drive whose track starts do not repeat so, spares in each cylinder, keeps the envelope's) */
	if (c->tol <= 8 * c->rev / est)
		return 0;
	for (unsigned k = 0; k < 5; k++) {
		long v = lround(est) + (k & 1 ? 1 : -1) * (long)((k + 1) / 2);
		bool ok;
		if (v < 2 || !same_spt(c, (uint32_t)v, (uint32_t)lround(est)))
			continue;
		TRY(spt_holds(c, z, (uint32_t)v, &ok));
		if (ok) {
			z->spt = (uint32_t)v;
			break;
		}
	}
	return 0;
}

/* Zones between lbn lo (spt a) and hi (spt b): bisection to a few tracks. */
static int boundary(struct pc *c, uint64_t lo, uint32_t a, uint64_t hi, uint32_t b, unsigned depth)
{
	uint32_t big = a > b ? a : b;
	while (hi - lo > 2ull * big && used(c) < 0.5) { /* past half the budget: the midpoint */
		uint64_t mid = lo + (hi - lo) / 2;
		uint32_t v;
		double sp;
		TRY(spt_at(c, mid, a, &v, &sp));
		if (same_spt(c, v, a)) {
			lo = mid;
		} else if (same_spt(c, v, b) || depth > 6 || !v) {
			hi = mid;
		} else { /* a third zone between them */
			TRY(boundary(c, lo, a, mid, v, depth + 1));
			return boundary(c, mid, v, hi, b, depth + 1);
		}
	}
	return add_zone(c, lo + (hi - lo) / 2, b, 0);
}

/* Window tests a track-start decision repeats (on fresh track pairs) and decides by majority:
 * 1 when exact; through noise a late first stamp also delays the second read's issue, which
 * may then come after the read-ahead passed its block (a hit, early): 3 votes while the
 * tolerance is below 4 sectors, 5 above. */
static unsigned window_votes(struct pc *c, uint32_t spt)
{
	if (c->tol <= 1000)
		return 1;
	return c->tol < 4 * c->rev / spt ? 3 : 5;
}

/* Is there a track start in (x, x + w] (on fresh tracks: x + 2v tracks for the v-th vote)? */
static int track_start_in(struct pc *c, uint64_t x, uint32_t w, uint32_t spt, bool *yes)
{
	unsigned V = window_votes(c, spt), y = 0, n = 0;
	double sec = c->rev / spt;
	for (unsigned v = 0; v < V && y <= V / 2 && n - y <= V / 2; v++) {
		uint64_t d0, d1, xv = x + 2ull * v * spt;
		TRY(rd(c, xv, &d0, NULL));
		TRY(rd(c, xv + w, &d1, NULL));
		double p = phase(c, d1, d0);
		y += fabs(p - w * sec) > fmax(c->tol, sec / 3);
		n++;
	}
	*yes = y > V / 2;
	return 0;
}

/* A track start at base + t (t < spt), from window tests on the fresh tracks after base. */
static int track_offset(struct pc *c, uint64_t base, uint64_t end, uint32_t spt, uint32_t *off)
{
	long L = -1, n = spt; /* the start lies at base + (L, L + n] modulo spt */
	uint64_t stride = 2ull * window_votes(c, spt) * spt; /* the tracks one test uses */
	if (base < 16)
		base = 16; /* the first window starts before base */
	unsigned k = 0;
	while (n > 1) {
		long h = n / 2, from = h >= 16 ? L : L + h - 16;
		uint32_t w = h >= 16 ? (uint32_t)h : 16;
		uint64_t b = base + k++ * stride;
		if (b + stride >= end || k > 64)
			break;
		bool yes;
		TRY(track_start_in(c, (uint64_t)((long)b + from), w, spt, &yes));
		if (yes) {
			n = h;
		} else {
			L += h;
			n -= h;
		}
	}
	*off = (uint32_t)(((L + 1) % (long)spt + (long)spt) % (long)spt);
	return 0;
}

/* Where tracks start in zone i: lbn first_lbn + tau + k*spt. */
static int track_phase(struct pc *c, unsigned i)
{
	struct iolab_probe_zone *z = &c->r->zone[i];
	uint64_t base = z->first_lbn + 2ull * z->spt;
	uint32_t t;
	TRY(track_offset(c, base, z->first_lbn + z->nblocks, z->spt, &t));
	c->tau[i] = (uint32_t)((base + t - z->first_lbn) % z->spt);
	return 0;
}

static int zones(struct pc *c)
{
	struct iolab_probe_result *r = c->r;
	/* evenly spread samples, and one on the last tracks: the innermost zone may be cut short by
	 * the drive's capacity and hold fewer blocks than the samples' spacing */
	unsigned even = c->budget >= 60e9 ? 64 : c->budget >= 20e9 ? 40 : 24;
	unsigned N = even + (c->b->blocks > 8 * 4096);
	uint64_t lbn[65];
	uint32_t spt[65];
	double sp[65];
	for (unsigned i = 0; i < N; i++) {
		lbn[i] = i < even ? (uint64_t)((double)c->b->blocks * (i + 0.25) / even)
			 : c->b->blocks - 4096;
		TRY(spt_at(c, lbn[i], i ? spt[i - 1] : 0, &spt[i], &sp[i]));
		if (!spt[i] && i)
			spt[i] = spt[i - 1];
		progress(c, "zones");
	}
	r->nzones = 0;
	TRY(add_zone(c, 0, spt[0], sp[0]));
	for (unsigned i = 1; i < N; i++)
		if (!same_spt(c, spt[i], spt[i - 1]))
			TRY(boundary(c, lbn[i - 1], spt[i - 1], lbn[i], spt[i], 0));
	for (unsigned i = 0; i < r->nzones; i++) {
		uint64_t end = i + 1 < r->nzones ? r->zone[i + 1].first_lbn : c->b->blocks;
		r->zone[i].nblocks = end - r->zone[i].first_lbn;
	}
	for (unsigned i = 0; i < r->nzones && c->tol > 1000 && c->tol > 8 * c->rev / r->zone[i].spt &&
			    used(c) < 0.6; i++)
		TRY(refine_spt(c, i));
	/* snap each zone's start to where its tracks start */
	for (unsigned i = 0; i < r->nzones; i++) {
		struct iolab_probe_zone *z = &r->zone[i];
		if (z->nblocks < 12ull * z->spt || used(c) > 0.7) { /* small, or out of time */
			c->tau[i] = 0;
			continue;
		}
		TRY(track_phase(c, i));
		if (i) {
			uint64_t off = c->tau[i] <= z->spt / 2 ? c->tau[i] : 0;
			uint64_t back = c->tau[i] > z->spt / 2 ? z->spt - c->tau[i] : 0;
			z->first_lbn = z->first_lbn + off - back;
			c->tau[i] = 0;
		}
	}
	for (unsigned i = 0; i < r->nzones; i++) {
		uint64_t end = i + 1 < r->nzones ? r->zone[i + 1].first_lbn : c->b->blocks;
		r->zone[i].nblocks = end - r->zone[i].first_lbn;
	}
	return 0;
}

/* ---- skews and surfaces ---------------------------------------------------------------- */

static uint32_t circ(uint32_t a, uint32_t b, uint32_t m)
{
	uint32_t d = a > b ? a - b : b - a;
	return d < m - d ? d : m - d;
}

/* The angle at which block lbn passes (as the phase of its completion from the probe's first
 * stamp, c->t_ref). Through timing noise, R reads along its track (a tenth of a track apart,
 * forward: from spt/16 past a track start they stay on the track) each give it less their
 * sector times, and the earliest is taken: noise only ever adds delay. */
static int track_angle(struct pc *c, uint64_t lbn, uint32_t spt, double *ang)
{
	enum { RMAX = 8 };
	unsigned R = c->tol > 1000 ? RMAX : 1;
	uint32_t s = spt / 10 > 1 ? spt / 10 : 1;
	double sec = c->rev / spt, a0 = 0, d[RMAX], m[RMAX];
	for (unsigned k = 0; k < R; k++) {
		uint64_t done;
		TRY(rd(c, lbn + (uint64_t)k * s, &done, NULL));
		double u = phase(c, done, c->t_ref) - (double)k * s * sec;
		if (!k)
			a0 = u;
		d[k] = m[k] = remainder(u - a0, c->rev);
	}
	/* a read the read-ahead had already passed (after a late stamp) is early: far below the
	 * others, out of what the noise can do */
	double med = median(m, R), lo = INFINITY;
	for (unsigned k = 0; k < R; k++)
		if (d[k] >= med - c->tol && d[k] < lo)
			lo = d[k];
	*ang = fmod(a0 + lo + 2 * c->rev, c->rev);
	return 0;
}

/* Sectors by which two skews measured by track_angle() may differ and be one: 2 when exact;
 * through noise, what is left of the tolerance in the earliest of its reads (at least 2). */
static uint32_t skew_slack(struct pc *c, uint32_t spt)
{
	if (c->tol <= 1000)
		return 2;
	double w = ceil(c->tol / 8 / (c->rev / spt));
	return w > 2 ? (uint32_t)w : 2;
}

/* The median of the skews within w of v (circularly, around v). */
static uint32_t agreeing_median(const uint32_t *sk, unsigned n, uint32_t v, uint32_t w, uint32_t spt)
{
	double d[128];
	unsigned m = 0;
	for (unsigned a = 0; a < n && m < 128; a++)
		if (circ(sk[a], v, spt) <= w)
			d[m++] = remainder((double)sk[a] - v, spt);
	return (uint32_t)((lround(v + median(d, m)) % (long)spt + spt) % spt);
}

static int snap_track(struct pc *c, uint64_t lbn, uint64_t *start);

/* Through noise: the skew most of the steps beyond w of the track skew ts agree with (their
 * agreeing median), or ts if there are none. */
static uint32_t other_skew(const uint32_t *sk, unsigned n, uint32_t ts, uint32_t w, uint32_t spt)
{
	unsigned best = 0;
	uint32_t cs = ts;
	for (unsigned a = 0; a < n; a++) {
		if (circ(sk[a], ts, spt) <= w)
			continue;
		unsigned cnt = 0;
		for (unsigned b = 0; b < n; b++)
			cnt += circ(sk[b], ts, spt) > w && circ(sk[a], sk[b], spt) <= w;
		if (cnt > best)
			best = cnt, cs = sk[a];
	}
	return best ? agreeing_median(sk, n, cs, w, spt) : ts;
}

/* Through noise: the tracks between two cylinder skews (0: not seen), as the most frequent gap
 * between cylinder-like steps (the shorter of equally frequent ones): a late angle spoils the
 * two steps beside it and splits a gap in two unequal parts, and a spare track shifts the
 * steps after it, both of which move the median of the gaps but not their mode. A step is
 * cylinder-like when nearer the cylinder skew cs than the track skew ts, and within a third of
 * their distance (at least w) of cs. */
static unsigned skew_period(const uint32_t *sk, unsigned n, uint32_t ts, uint32_t cs, uint32_t w,
			    uint32_t spt)
{
	uint32_t gap = circ(ts, cs, spt), near = gap / 3 > w ? gap / 3 : w;
	unsigned cnt[129] = {0}, period = 0;
	int last = -1;
	if (gap <= w)
		return 0;
	for (unsigned a = 0; a < n && a < 128; a++) {
		uint32_t dc = circ(sk[a], cs, spt);
		if (dc > near || dc >= circ(sk[a], ts, spt))
			continue;
		if (last >= 0)
			cnt[a - (unsigned)last]++;
		last = (int)a;
	}
	for (unsigned g = 1; g <= 128; g++)
		if (cnt[g] > cnt[period])
			period = g;
	return period;
}

/* Skews in zone i from J reads one track apart; *period gets the tracks between two cylinder
 * skews (0: not seen). */
static int skews(struct pc *c, unsigned i, unsigned J, unsigned *period)
{
	struct iolab_probe_zone *z = &c->r->zone[i];
	uint32_t sk[128];
	unsigned n = 0;
	*period = 0;
	if (J > 128)
		J = 128;
	if (z->nblocks < (uint64_t)(J + 4) * z->spt)
		J = (unsigned)(z->nblocks / z->spt) > 4 ? (unsigned)(z->nblocks / z->spt) - 3 : 0;
	if (J < 4)
		return 0;
	uint64_t lbn = z->first_lbn + z->nblocks / 3;
	double sec = c->rev / z->spt, prev = 0, ang;
	if (c->tol > 1000) {
		/* the reads of each track_angle() on one track: a read past the track's end is a
		 * skew late, and which side of it the earliest falls on would change from track
		 * to track (a spurious cylinder skew) */
		TRY(snap_track(c, lbn, &lbn));
		lbn += z->spt / 16;
	}
	for (unsigned j = 0; j < J; j++) {
		TRY(track_angle(c, lbn + (uint64_t)j * z->spt, z->spt, &ang));
		if (j) {
			double p = fmod(ang - prev + 2 * c->rev, c->rev);
			sk[n++] = (uint32_t)(lround(p / sec) % z->spt);
		}
		prev = ang;
	}
	/* the track skew: the value most steps agree with (within a sector; through noise, within
	 * what the noise left in an earliest-of-R angle, and the median of those) */
	uint32_t w = skew_slack(c, z->spt), w1 = c->tol > 1000 ? w : 1;
	unsigned best = 0;
	uint32_t ts = sk[0];
	for (unsigned a = 0; a < n; a++) {
		unsigned cnt = 0;
		for (unsigned b2 = 0; b2 < n; b2++)
			cnt += circ(sk[a], sk[b2], z->spt) <= w1;
		if (cnt > best)
			best = cnt, ts = sk[a];
	}
	if (c->tol > 1000)
		ts = agreeing_median(sk, n, ts, w1, z->spt);
	z->track_skew = ts;
	z->cyl_skew = ts;
	z->skew_measured = true;
	if (c->tol > 1000) {
		z->cyl_skew = other_skew(sk, n, ts, w, z->spt);
		*period = skew_period(sk, n, ts, z->cyl_skew, w, z->spt);
		return 0;
	}
	int last = -1;
	unsigned gaps[128], ng = 0;
	for (unsigned a = 0; a < n; a++) {
		if (circ(sk[a], ts, z->spt) <= w)
			continue;
		z->cyl_skew = c->tol > 1000 ? agreeing_median(sk, n, sk[a], w, z->spt) : sk[a];
		if (last >= 0)
			gaps[ng++] = a - (unsigned)last;
		last = (int)a;
	}
	if (ng) {
		double g[128];
		for (unsigned a = 0; a < ng; a++)
			g[a] = gaps[a];
		*period = (unsigned)median(g, ng);
	}
	return 0;
}

static int layout(struct pc *c)
{
	struct iolab_probe_result *r = c->r;
	unsigned period = 0;
	TRY(skews(c, 0, 50, &period));
	r->surfaces = period ? period : 1;
	r->surfaces_measured = period > 0;
	for (unsigned i = 1; i < r->nzones; i++) {
		unsigned p;
		if (used(c) > 0.75 && r->surfaces_measured) {
			skip(c, "skews of the zones after the listed ones");
			break;
		}
		TRY(skews(c, i, 2 * r->surfaces + 3, &p));
		if (!r->surfaces_measured && p) {
			r->surfaces = p;
			r->surfaces_measured = true;
		}
		progress(c, "skews");
	}
	uint32_t cyl = 0;
	for (unsigned i = 0; i < r->nzones; i++) {
		c->zcyl[i] = cyl;
		uint64_t per = (uint64_t)r->zone[i].spt * r->surfaces;
		cyl += (uint32_t)((r->zone[i].nblocks + c->tau[i] + per - 1) / per);
	}
	c->zcyl[r->nzones] = cyl;
	return 0;
}

static unsigned zone_of_cyl(struct pc *c, uint32_t cyl)
{
	unsigned i = 0;
	while (i + 1 < c->r->nzones && c->zcyl[i + 1] <= cyl)
		i++;
	return i;
}

static unsigned zone_of_lbn(struct pc *c, uint64_t lbn)
{
	unsigned i = 0;
	while (i + 1 < c->r->nzones && c->r->zone[i + 1].first_lbn <= lbn)
		i++;
	return i;
}

/* The track start nearest lbn: from a start found within 64 cylinders before it (found and
 * kept if there is none). */
static int snap_track(struct pc *c, uint64_t lbn, uint64_t *start)
{
	unsigned zi = zone_of_lbn(c, lbn);
	const struct iolab_probe_zone *z = &c->r->zone[zi];
	uint64_t span = 64ull * z->spt * c->r->surfaces, s0 = UINT64_MAX;
	for (unsigned i = 0; i < c->nts && s0 == UINT64_MAX; i++)
		if (c->ts_at[i] <= lbn && lbn - c->ts_at[i] < span &&
		    zone_of_lbn(c, c->ts_at[i]) == zi)
			s0 = c->ts_start[i];
	if (s0 == UINT64_MAX) {
		uint64_t base = lbn > z->first_lbn + 40ull * z->spt ? lbn - 40ull * z->spt : z->first_lbn;
		uint32_t t;
		TRY(track_offset(c, base, z->first_lbn + z->nblocks, z->spt, &t));
		s0 = base + t;
		c->ts_at[c->nts % 256] = base;
		c->ts_start[c->nts % 256] = s0;
		c->nts++;
	}
	uint64_t k = lbn >= s0 ? (lbn - s0 + z->spt / 2) / z->spt : 0;
	*start = s0 + k * z->spt;
	if (*start + z->spt > c->b->blocks)
		*start -= z->spt;
	return 0;
}

/* Through noise: the first cylinder start at or after track start t0, from the skews between
 * the angles (track_angle(), the earliest of its reads) of the tracks from t0 on, told apart
 * within skew_slack() as skews() tells them. t0 where the two skews cannot be told apart. */
static int cyl_step(struct pc *c, const struct iolab_probe_zone *z, uint64_t t0, uint64_t *s0)
{
	uint32_t w = skew_slack(c, z->spt);
	double sec = c->rev / z->spt, prev = 0, ang;
	*s0 = t0;
	if (circ(z->track_skew, z->cyl_skew, z->spt) <= 2 * w || c->r->surfaces < 2)
		return 0;
	for (unsigned k = 0; k <= c->r->surfaces + 1; k++) {
		uint64_t t = t0 + k * (uint64_t)z->spt;
		if (t + z->spt > c->b->blocks)
			break;
		TRY(track_angle(c, t + z->spt / 16, z->spt, &ang));
		uint32_t sk = (uint32_t)(lround(fmod(ang - prev + 2 * c->rev, c->rev) / sec) % z->spt);
		prev = ang;
		if (k && circ(sk, z->cyl_skew, z->spt) <= w && circ(sk, z->track_skew, z->spt) > w) {
			*s0 = t;
			break;
		}
	}
	return 0;
}

/* The first block of the cylinder nearest lbn: a track start, then the tracks after it one by
 * one until the step that shows the cylinder skew (kept for 64 cylinders on). Without a
 * cylinder skew distinct from the track skew, the nearest track start. */
static int snap_cyl(struct pc *c, uint64_t lbn, uint64_t *start)
{
	unsigned zi = zone_of_lbn(c, lbn);
	const struct iolab_probe_zone *z = &c->r->zone[zi];
	uint64_t per = (uint64_t)z->spt * c->r->surfaces, span = 64 * per, s0 = UINT64_MAX;
	for (unsigned i = 0; i < c->ncs && s0 == UINT64_MAX; i++)
		if (c->cs_at[i] <= lbn && lbn - c->cs_at[i] < span && zone_of_lbn(c, c->cs_at[i]) == zi)
			s0 = c->cs_start[i];
	if (s0 == UINT64_MAX) {
		uint64_t base = lbn > z->first_lbn + 3 * per ? lbn - 3 * per : z->first_lbn, t0, prev = 0, done;
		TRY(snap_track(c, base, &t0));
		s0 = t0;
		if (c->tol > 1000) {
			TRY(cyl_step(c, z, t0, &s0));
		} else if (circ(z->track_skew, z->cyl_skew, z->spt) > 2 && c->r->surfaces > 1) {
			double sec = c->rev / z->spt;
			for (unsigned k = 0; k <= c->r->surfaces + 1; k++) {
				if (t0 + (k + 1ull) * z->spt > c->b->blocks)
					break;
				TRY(rd(c, t0 + k * (uint64_t)z->spt + z->spt / 3, &done, NULL));
				uint32_t sk = k ? (uint32_t)(lround(phase(c, done, prev) / sec) % z->spt) : 0;
				prev = done;
				if (k && circ(sk, z->cyl_skew, z->spt) <= 2 && circ(sk, z->track_skew, z->spt) > 2) {
					s0 = t0 + k * (uint64_t)z->spt;
					break;
				}
			}
		}
		c->cs_at[c->ncs % 256] = base;
		c->cs_start[c->ncs % 256] = s0;
		c->ncs++;
	}
	uint64_t k = lbn >= s0 ? (lbn - s0 + per / 2) / per : 0;
	*start = s0 + k * per;
	if (*start + per > c->b->blocks)
		*start -= per;
	return 0;
}

/* First block of track h of cylinder cyl (by the probed layout). */
static uint64_t track_lbn(struct pc *c, uint32_t cyl, uint32_t h)
{
	unsigned i = zone_of_cyl(c, cyl);
	const struct iolab_probe_zone *z = &c->r->zone[i];
	uint64_t l = z->first_lbn + c->tau[i] +
		     ((uint64_t)(cyl - c->zcyl[i]) * c->r->surfaces + h) * z->spt;
	if (l + z->spt > z->first_lbn + z->nblocks)
		l = z->first_lbn + z->nblocks > 2ull * z->spt ? z->first_lbn + z->nblocks - 2ull * z->spt
							     : z->first_lbn;
	return l;
}

/* A track of cylinder cyl not used lately (h preferred), marked used. */
static uint32_t fresh_track(struct pc *c, uint32_t cyl, uint32_t h)
{
	unsigned S = c->r->surfaces;
	for (unsigned k = 0; k < S; k++) {
		uint32_t t = (h + k) % S;
		uint64_t id = (uint64_t)cyl * S + t;
		bool seen = false;
		unsigned m = c->nrecent < 96 ? c->nrecent : 96;
		for (unsigned i = 0; i < m && !seen; i++)
			seen = c->recent[i] == id;
		if (!seen) {
			c->recent[c->nrecent++ % 96] = id;
			return t;
		}
	}
	return h % S;
}

/* ---- positioning: the shortest latency V ----------------------------------------------- */

/* On a drive whose reads join its read-ahead, a target after the read on its track comes from
 * the read-ahead: the track just read is timed with the target behind the read instead. The
 * block y = a - 1 is read (its angle is the reference), then a, which joins y's read-ahead and
 * leaves the arm reading ahead on the track, m sectors before its end; the target, `target` ns
 * of angle after a, then lies near the track's start: behind the read-ahead, and (unless y
 * waited almost a revolution for its sector) before the blocks y read while waiting. */
static int behind(struct pc *c, uint64_t rlbn, uint32_t spt, double target, uint64_t *a,
		  uint64_t *dr, uint64_t *da)
{
	double sec = c->rev / spt;
	uint32_t k = (uint32_t)ceil(target / sec), m = k / 2 > 2 ? k / 2 : 2;
	if (c->tol > 1000) /* the target's command comes a late stamp later: the read-ahead must
			     * still be on the track then (m = k/2 put sas15k's overheads 45 us high) */
		m = 3 * k / 4 > 2 ? 3 * k / 4 : 2;
	if (m + 8 > spt)
		m = spt / 2;
	*a = rlbn + spt - 1 - m;
	uint64_t dy;
	TRY(rd(c, *a - 1, &dy, NULL));
	*dr = dy - (uint64_t)llround((double)(*a - 1 - rlbn) * sec);
	return rd(c, *a, da, NULL);
}

/* The least of a target's n latencies l[] (n > 1: repeated through noise), but not one far
 * earlier (modulo the revolution: one read may make its first pass and another not) than the
 * others' median, out of what the noise can do: a cache hit whose angle passed within the
 * tolerance (sas15k: a 65696-cylinder seek timed at 1 us). */
static double group_least(struct pc *c, const double *l, unsigned n)
{
	double m[8], lo = INFINITY;
	if (n == 1)
		return l[0];
	for (unsigned k = 0; k < n; k++)
		m[k] = fmod(l[k], c->rev);
	double med = median(m, n);
	for (unsigned k = 0; k < n; k++)
		if (fmod(l[k], c->rev) >= med - c->tol && l[k] < lo)
			lo = l[k];
	return lo;
}

/* V for a one-block read issued as a read on cylinder ct + d completes, the target on
 * cylinder ct (d = 0: dh tracks before the read's track of the same cylinder; d = 0 and dh =
 * 0: the track just read, the target after the read), with `probes` reads bisecting the
 * target's angle. ct is picked in [lo_cyl, hi_cyl]. On another track the target lies at a lower
 * address than the read before it, because a drive reads ahead forward: a target ahead of the
 * read may be taken from the read-ahead (a hit, or a read that joins it and pays neither the
 * miss overhead nor the positioning: a read-ahead over more than a track, or one that crossed
 * onto the next track, made a head switch look 0.56 ms too long). A target whose completion
 * is not at its predicted angle (a cache hit, or a track boundary between it and its reference)
 * bounds nothing and is not counted. */
static int vmin(struct pc *c, uint32_t lo_cyl, uint32_t hi_cyl, uint32_t d, uint32_t dh,
		unsigned probes, double *v, double *spread)
{
	double lo = 0, hi = INFINITY;
	c->v_late = 0;
	/* through noise a stamp is late by some d >= 0, which the next read's issue shares: a read
	 * at its first pass still bounds V from above (latency = angle + d' - d >= V + d'), but
	 * one a revolution late bounds it from below only to within d' (its own lateness). So each
	 * target is read R times (window_votes(): more as the noise grows against a sector) and
	 * decided by the minimum: its least latency, less a revolution, bounds V from below (the
	 * least d' of R), and a target any of whose reads made its first pass bounds it above;
	 * the bisection stops at a sector */
	unsigned S = c->r->surfaces, good = 0, R = 1, rep = 0;
	double tgt = 0, gl[8];
	if (c->tol > 1000)
		R = window_votes(c, c->r->zone[zone_of_cyl(c, lo_cyl)].spt);
	for (unsigned i = 0; i < 3 * probes * R && good < probes; i++) {
		uint32_t ct = lo_cyl + (uint32_t)(rnd(c) % (hi_cyl - lo_cyl + 1)), ca = ct + d;
		uint32_t ht = fresh_track(c, ct, (uint32_t)(rnd(c) % S)), ha = ht;
		if (!d && dh) { /* the read dh tracks after the target, on the same cylinder */
			if (ht + dh >= S)
				ht = S - 1 - dh;
			ha = ht + dh;
		} else if (d) {
			ha = fresh_track(c, ca, ht);
		}
		uint64_t a, rlbn, dr, da, db, cylt, cyla;
		uint32_t sptt = c->r->zone[zone_of_cyl(c, ct)].spt;
		TRY(snap_cyl(c, track_lbn(c, ct, 0), &cylt));
		if (d < 64 && zone_of_cyl(c, ca) == zone_of_cyl(c, ct))
			cyla = cylt + (uint64_t)d * sptt * S; /* nearby: counted from the same start */
		else
			TRY(snap_cyl(c, track_lbn(c, ca, 0), &cyla));
		rlbn = cylt + (uint64_t)ht * sptt;
		uint32_t spt = c->r->zone[zone_of_lbn(c, rlbn)].spt;
		double sec = c->rev / spt;
		if (d || dh) {
			a = cyla + (uint64_t)ha * c->r->zone[zone_of_lbn(c, cyla)].spt + spt / 2;
			TRY(rd(c, rlbn, &dr, NULL));
			TRY(rd(c, a, &da, NULL));
		} else if (!c->behind) {
			a = rlbn;
			TRY(rd(c, a, &da, NULL));
			dr = da;
		} else { /* see behind() */
			TRY(behind(c, rlbn, spt, rep ? tgt : isinf(hi) ? (double)(rnd(c) % 1000) / 1000 * c->rev :
				   (lo + hi) / 2, &a, &dr, &da));
		}
		if (!rep) /* a target's repeats read the same angle */
			tgt = isinf(hi) ? (double)(rnd(c) % 1000) / 1000 * c->rev : (lo + hi) / 2;
		double target = tgt;
		double x = fmod((double)da + target - (double)dr, c->rev);
		if (x < 0)
			x += c->rev;
		uint32_t j = (uint32_t)ceil(x / sec - 1e-9), jmin = 2, jmax = spt > 16 ? spt - 8 : spt - 1;
		if (!d && !dh && c->behind)
			jmax = (uint32_t)(a - rlbn) - 2; /* behind the read */
		if (j < jmin)
			j = jmin;
		if (j > jmax)
			j = jmax;
		TRY(rd(c, rlbn + j, &db, NULL));
		double lat = (double)db - (double)da, p = phase(c, db, dr), want = j * sec;
		if (fabs(p - want) > fmax(c->tol, sec / 3) && fabs(fabs(p - want) - c->rev) > fmax(c->tol, sec / 3))
			continue;
		/* through noise a cache hit (the target's track was read just before: its read-ahead)
		 * may pass the angle test; off the track V exceeds the on-track V (r->base_ns) */
		if (R > 1 && (d || dh) && lat < c->r->base_ns)
			continue;
		c->v_late += lat > c->rev;
		gl[rep] = lat;
		if (++rep < R)
			continue;
		double glo = group_least(c, gl, R);
		if (glo < hi)
			hi = glo;
		if (glo - c->rev > lo)
			lo = glo - c->rev;
		good++;
		rep = 0;
		if (R > 1 && hi - lo <= sec)
			break; /* through noise, no closer than a sector */
	}
	if (isinf(hi))
		return iolab_errf(c->err, EIO, "%s: no read behaved as a cache miss at its predicted "
				  "angle: cannot time positioning", c->b->desc);
	*v = R > 1 && lo > hi ? hi : (lo + hi) / 2;
	*spread = fabs(hi - lo);
	return 0;
}

/* Seek distances: about three an octave up to the last cylinder a zone-0 start can reach. */
static int cmp_seek_dist(const void *a, const void *b)
{
	uint32_t x = ((const struct iolab_probe_seek *)a)->dist;
	uint32_t y = ((const struct iolab_probe_seek *)b)->dist;
	return x < y ? -1 : x > y;
}

static unsigned seek_dists(uint32_t maxd, uint32_t *d, unsigned cap)
{
	unsigned n = 0;
	double x = 1;
	while (n < cap && (uint32_t)x <= maxd) {
		uint32_t v = (uint32_t)x;
		if (!n || v > d[n - 1])
			d[n++] = v;
		x = x < 8 ? x + 1 : x * 1.26;
	}
	if (n && d[n - 1] < maxd && n < cap)
		d[n++] = maxd;
	return n;
}

/* a + b*sqrt(d) below the boundary, c + e*d above: least squares for each boundary among
 * the table's distances, the best kept. */
static void fit_seek(struct iolab_probe_result *r)
{
	double best = INFINITY;
	for (unsigned k = 2; k + 2 <= r->nseek; k++) {
		double p[2][2] = {{0}}, q[2] = {0}, s[2][2] = {{0}}, t[2] = {0};
		for (unsigned i = 0; i < r->nseek; i++) {
			double d = r->seek[i].dist, y = r->seek[i].ns;
			double f = i < k ? sqrt(d) : d;
			double (*m)[2] = i < k ? p : s;
			double *w = i < k ? q : t;
			m[0][0] += 1, m[0][1] += f, m[1][1] += f * f, w[0] += y, w[1] += f * y;
		}
		double dp = p[0][0] * p[1][1] - p[0][1] * p[0][1];
		double ds = s[0][0] * s[1][1] - s[0][1] * s[0][1];
		if (fabs(dp) < 1e-12 || fabs(ds) < 1e-12)
			continue;
		double b = (p[0][0] * q[1] - p[0][1] * q[0]) / dp, a = (q[0] - b * p[0][1]) / p[0][0];
		double e = (s[0][0] * t[1] - s[0][1] * t[0]) / ds, cc = (t[0] - e * s[0][1]) / s[0][0];
		double err = 0;
		for (unsigned i = 0; i < r->nseek; i++) {
			double d = r->seek[i].dist;
			double f = i < k ? a + b * sqrt(d) : cc + e * d;
			double rel = (f - r->seek[i].ns) / r->seek[i].ns;
			err += rel * rel;
		}
		err = sqrt(err / r->nseek);
		if (err < best) {
			best = err;
			r->seek_a = a, r->seek_b = b, r->seek_c = cc, r->seek_e = e;
			r->seek_boundary = r->seek[k].dist;
		}
	}
	r->seek_fit_rms = isinf(best) ? 0 : best;
}

static int positioning(struct pc *c)
{
	struct iolab_probe_result *r = c->r;
	uint32_t z0 = c->zcyl[1 < r->nzones ? 1 : r->nzones] - 1, total = c->zcyl[r->nzones];
	double sp, sec0 = c->rev / r->zone[0].spt;
	z0 = z0 > 2 ? z0 - 1 : z0;
	uint32_t c0 = z0 > 80 ? z0 / 2 - 32 : 0, c1 = z0 > 80 ? z0 / 2 + 32 : z0;
	TRY(vmin(c, c0, c1, 0, 0, 14, &r->base_ns, &sp));
	/* reads that join the read-ahead make a target after the read a join, not a miss: time it
	 * behind the read, which needs the read-ahead to stay on the track while the read's block
	 * goes to the host (a block's interface time is at most what the best sequential rate
	 * gives); it is tried where a target after the read did not time as a miss */
	double bus_max = 0;
	for (unsigned i = 0; i < r->nseq; i++)
		bus_max = fmax(bus_max, r->seq_mbps[i]);
	bus_max = bus_max > 0 ? c->b->block_bytes / bus_max * 1e3 : INFINITY;
	double lim = 2 * sec0 + c->tol;
	/* through noise the tolerance hides an open bisection: no read a revolution late (or as
	 * few as one target's repeats, which late stamps can make) says that no target was
	 * passed, as a miss's would have been for half the angles */
	unsigned spikes = c->tol > 1000 ? window_votes(c, r->zone[0].spt) : 0;
	bool open = sp > lim || (c->tol > 1000 && c->v_late <= spikes);
	if (r->read_joins && open && r->base_ns > bus_max + 4 * sec0) {
		/* the bisection did not close (the latencies do not follow the angle as misses'
		 * do): time behind the read, kept if that closes */
		double v2, sp2;
		c->behind = true;
		TRY(vmin(c, c0, c1, 0, 0, 14, &v2, &sp2));
		if (sp2 <= lim && (c->tol <= 1000 || c->v_late > spikes))
			r->base_ns = v2;
	}
	double base = r->base_ns - sec0; /* overheads: V without the target's sector time */
	if (r->surfaces > 1) {
		double v;
		TRY(vmin(c, c0, c1, 0, 1, 14, &v, &sp));
		r->head_switch_ns = fmax(0, v - sec0 - base);
		r->head_switch_measured = true;
	}
	progress(c, "seek");
	uint32_t d[IOLAB_PROBE_MAX_SEEK];
	uint32_t maxd = total > 66 ? total - 1 - 64 : total - 1;
	unsigned nd = seek_dists(maxd, d, IOLAB_PROBE_MAX_SEEK);
	r->nseek = 0;
	/* Every fourth distance and the longest first, whatever the budget, so that the curve
	 * spans the stroke; then the others while the budget lasts. */
	for (int pass = 0; pass < 2; pass++) {
		for (unsigned i = 0; i < nd; i++) {
			bool coarse = i % 4 == 0 || i == nd - 1;
			if (coarse != (pass == 0))
				continue;
			if (pass == 1 && used(c) > 0.9) {
				skip(c, "seek curve: only the distances listed");
				break;
			}
			uint32_t hi_c = total - 1 - d[i] < z0 ? total - 1 - d[i] : z0;
			uint32_t lo_c = hi_c > 64 ? hi_c - 64 : 0;
			double v;
			int rc = vmin(c, lo_c, hi_c, d[i], 0, 14, &v, &sp);
			if (rc == -EIO)
				continue; /* no usable read at this distance: the table goes without it */
			if (rc)
				return rc;
			/* the target's sector time depends on its zone: out with the overheads */
			uint32_t zc = zone_of_cyl(c, lo_c);
			double s = v - c->rev / r->zone[zc].spt - base;
			r->seek[r->nseek++] = (struct iolab_probe_seek){
				.dist = d[i], .ns = s > 1000 ? s : 1000, .spread_ns = sp};
			progress(c, "seek");
		}
	}
	qsort(r->seek, r->nseek, sizeof(r->seek[0]), cmp_seek_dist);
	/* A seek does not take less time than a shorter one: a point below half of what a shorter
	 * distance took is a read the noise or the cache made early, and goes. */
	unsigned kept = 0;
	double most = 0;
	for (unsigned i = 0; i < r->nseek; i++) {
		if (r->seek[i].ns < most / 2)
			continue;
		most = fmax(most, r->seek[i].ns);
		r->seek[kept++] = r->seek[i];
	}
	r->nseek = kept;
	fit_seek(r);
	return 0;
}

/* ---- controller and cache --------------------------------------------------------------- */

/* Reads of n blocks just after a block read 40 revolutions ago (from the first block its
 * segment holds then, cache()): cache hits, which take the hit overhead plus n interface
 * transfers. */
static int interface(struct pc *c)
{
	struct iolab_probe_result *r = c->r;
	double lat[2];
	uint32_t n[2] = {1, 16};
	/* through noise, the quickest of 9: noise only ever adds delay to a hit */
	unsigned T = c->tol > 1000 ? 9 : 3;
	for (unsigned k = 0; k < 2; k++) {
		double l[9];
		for (unsigned t = 0; t < T; t++) {
			uint32_t cyl = (uint32_t)(rnd(c) % c->zcyl[r->nzones]);
			uint64_t x = track_lbn(c, cyl, fresh_track(c, cyl, 0));
			TRY(rd(c, x, NULL, NULL));
			c->b->ops->idle(c->b, (uint64_t)(40 * c->rev));
			TRY(io1(c, x + (c->hit_off ? c->hit_off : 1), n[k], false, NULL, &l[t]));
		}
		lat[k] = T > 3 ? (qsort(l, T, sizeof(*l), cmp_dbl), l[0]) : median(l, 3);
	}
	double bulk = (lat[1] - lat[0]) / (n[1] - n[0]);
	if (lat[1] < c->hit_thr && bulk > 0) {
		r->bus_ns_per_block = bulk;
		r->ovh_hit_ns = fmax(0, lat[0] - bulk);
		r->bus_measured = true;
	} else { /* no hits: take the sequential rate as the interface's */
		double best = 0;
		for (unsigned i = 0; i < r->nseq; i++)
			best = fmax(best, r->seq_mbps[i]);
		r->bus_ns_per_block = best > 0 ? c->b->block_bytes / best * 1e3 : 0;
		r->ovh_hit_ns = 0;
	}
	/* V on the track = miss overhead + waiting for the read-ahead to stop (half a sector,
	 * assumed) + one sector + one transfer */
	double sec0 = c->rev / r->zone[0].spt;
	r->ovh_miss_ns = fmax(0, r->base_ns - sec0 - sec0 / 2 - r->bus_ns_per_block);
	return 0;
}

/* Is block y a cache hit now? A far decoy first, so that a miss pays a long seek. */
static int is_hit(struct pc *c, uint64_t y, bool *hit)
{
	double lat;
	TRY(rd(c, far_from(c, y), NULL, NULL));
	TRY(rd(c, y, NULL, &lat));
	*hit = lat < c->hit_thr;
	return 0;
}

/* After a read at a fresh track's start (pos 0) or middle (pos 1) and 40 revolutions of idling,
 * is the block off blocks past it a hit? */
static int ra_hit(struct pc *c, unsigned pos, uint32_t off, bool *hit)
{
	uint32_t cyl = (uint32_t)(rnd(c) % c->zcyl[c->r->nzones]);
	uint64_t x = track_lbn(c, cyl, fresh_track(c, cyl, 0)) + pos * c->r->zone[zone_of_cyl(c, cyl)].spt / 2;
	*hit = false;
	if (x + off >= c->b->blocks)
		return 0;
	TRY(rd(c, x, NULL, NULL));
	c->b->ops->idle(c->b, (uint64_t)(40 * c->rev));
	return is_hit(c, x + off, hit);
}

/* Narrows a hit at offset *hit and a miss at offset miss (either side) to neighbours: *hit
 * ends next to the boundary between them. */
static int ra_bisect(struct pc *c, unsigned pos, uint32_t *hit, uint32_t miss)
{
	while (*hit > miss ? *hit - miss > 1 : miss - *hit > 1) {
		uint32_t m = *hit > miss ? miss + (*hit - miss) / 2 : *hit + (miss - *hit) / 2;
		bool h;
		TRY(ra_hit(c, pos, m, &h));
		if (h)
			*hit = m;
		else
			miss = m;
	}
	return 0;
}

/* The blocks past a read that its segment holds after idling: offsets [*lo, *hi] (both 0: none).
 * The read-ahead fills a segment as a ring: when it reads further than the segment holds, only
 * its last segment_blocks remain, so the first block after the read may miss while later ones
 * hit. A miss at offset 1 is followed by a scan in steps of 32 blocks over two tracks. */
static int readahead_window(struct pc *c, unsigned pos, uint32_t *lo, uint32_t *hi)
{
	uint32_t spt = c->r->zone[0].spt, a = 0, b = 1, miss = 0;
	bool hit;
	*lo = *hi = 0;
	TRY(ra_hit(c, pos, 1, &hit));
	if (!hit) {
		for (a = 33; a < 2 * spt + 64 && !hit; a += 32)
			TRY(ra_hit(c, pos, a, &hit));
		if (!hit)
			return 0;
		a -= 32;
		miss = a > 32 ? a - 32 : 1;
		uint32_t h = a;
		TRY(ra_bisect(c, pos, &h, miss)); /* the first hit */
		*lo = h;
		b = a + 1;
	} else {
		a = *lo = 1;
		b = 2;
	}
	hit = true;
	while (hit && b < (1u << 22)) { /* doubling to the first miss */
		TRY(ra_hit(c, pos, b, &hit));
		if (hit)
			a = b, b = 2 * b - *lo + 1;
	}
	TRY(ra_bisect(c, pos, &a, b)); /* the last hit */
	*hi = a;
	return 0;
}

/* Does a read of the blocks the read-ahead is about to read wait for them (a stream goes on at
 * the media rate), or stop it and pay a revolution? A block read after a far decoy, then at
 * once the n blocks after it: joined, they come n sectors later; stopped, a revolution later. */
static int joins(struct pc *c)
{
	struct iolab_probe_result *r = c->r;
	double lat[3];
	for (unsigned t = 0; t < 3; t++) {
		uint32_t cyl = (uint32_t)(rnd(c) % c->zcyl[r->nzones]);
		uint32_t spt = r->zone[zone_of_cyl(c, cyl)].spt, n = spt / 16 > 2 ? spt / 16 : 2;
		uint64_t x = track_lbn(c, cyl, fresh_track(c, cyl, 0)) + spt / 4;
		TRY(rd(c, far_from(c, x), NULL, NULL));
		TRY(rd(c, x, NULL, NULL));
		TRY(io1(c, x + 1, n, false, NULL, &lat[t]));
		lat[t] -= n * c->rev / spt;
	}
	r->read_joins = median(lat, 3) < c->rev / 2;
	r->read_joins_measured = true;
	return 0;
}

static int cache(struct pc *c)
{
	struct iolab_probe_result *r = c->r;
	/* segments: the fewest other misses that push a block out */
	unsigned lo = r->segments > 1 ? r->segments - 2 : 0, hi = r->segments ? 2 * r->segments : 2;
	while (hi - lo > 1) { /* a hit after lo others, a miss after hi (of k: k random + decoy) */
		unsigned mid = (lo + hi) / 2;
		uint64_t x = rand_lbn(c, 1), done;
		bool hit;
		/* the block after x, read ahead while idling: a drive that drops what it has
		 * delivered (read-ahead over the request) still holds it */
		TRY(rd(c, x, NULL, NULL));
		c->b->ops->idle(c->b, (uint64_t)c->rev);
		TRY(evicted(c, x + 1, mid, &done, &hit));
		if (hit)
			lo = mid;
		else
			hi = mid;
	}
	r->segments = hi + 1;
	r->segments_measured = true;
	progress(c, "cache");
	/* read-ahead: how far past a read its segment holds while the drive idles */
	uint32_t ext[2], low[2];
	for (unsigned pos = 0; pos < 2; pos++)
		TRY(readahead_window(c, pos, &low[pos], &ext[pos]));
	/* from a track's start the read-ahead reached ext[0]; from its middle ext[1]: ending
	 * at the same place on the track means it reads to the track's end */
	uint32_t half = r->zone[0].spt / 2;
	r->readahead_track = ext[0] + 1 < 2 * r->zone[0].spt && ext[1] + half + 2 >= ext[0] &&
			     ext[1] + half <= ext[0] + 2;
	r->readahead_blocks = ext[0];
	r->readahead_measured = true;
	r->segment_blocks = ext[0] >= low[0] ? ext[0] - low[0] + 1 : 0;
	c->hit_off = low[0];
	/* zero latency: blocks just before a read, passed while waiting for it, kept */
	r->zero_latency_read = false;
	for (unsigned t = 0; t < 3 && !r->zero_latency_read; t++) {
		uint32_t cyl = (uint32_t)(rnd(c) % c->zcyl[r->nzones]);
		uint32_t spt = r->zone[zone_of_cyl(c, cyl)].spt;
		uint64_t x = track_lbn(c, cyl, fresh_track(c, cyl, 0)) + spt - 4;
		bool hit;
		TRY(rd(c, far_from(c, x), NULL, NULL));
		TRY(rd(c, x, NULL, NULL));
		TRY(is_hit(c, x - spt / 4, &hit));
		r->zero_latency_read = hit;
	}
	return 0;
}

static int writes(struct pc *c)
{
	struct iolab_probe_result *r = c->r;
	double lat[9];
	for (unsigned i = 0; i < 9; i++) {
		uint64_t x = rand_lbn(c, 1);
		/* the block's own contents go back: the backend writes what it just read */
		TRY(io1(c, x, 1, false, NULL, NULL));
		TRY(rd(c, far_from(c, x), NULL, NULL));
		TRY(io1(c, x, 1, true, NULL, &lat[i]));
	}
	r->write_lat_med_ns = median(lat, 9);
	r->write_back = r->write_lat_med_ns < c->hit_thr;
	r->ovh_write_ns = fmax(0, r->write_lat_med_ns - (r->write_back ? r->bus_ns_per_block : 0));
	r->write_measured = true;
	return 0;
}

int iolab_probe_run(struct iolab_probe_backend *b, const struct iolab_probe_opts *opts,
		    struct iolab_probe_result *r, struct iolab_err *err)
{
	memset(r, 0, sizeof(*r));
	struct pc *c = calloc(1, sizeof(*c));
	if (!c)
		return iolab_errf(err, ENOMEM, "probe: out of memory");
	*c = (struct pc){.b = b, .o = opts, .r = r, .err = err, .rng = opts->seed ^ 0x5eed,
			 .t0 = b->ops->now(b), .budget = (uint64_t)((opts->time_s > 0 ? opts->time_s : 120) * 1e9),
			 .b4k = 4096 / b->block_bytes ? 4096 / b->block_bytes : 1,
			 .tol = b->jitter_ns > 1000 ? (double)b->jitter_ns : 1000};
	/* (noise() sets the tolerance from the measured noise) */
	int rc = 0;
	if (opts->write && !b->can_write) {
		rc = iolab_errf(err, EPERM, "%s: write tests need a device opened for writing", b->desc);
		goto out;
	}
	progress(c, "profile");
	if ((rc = profile(c)))
		goto out;
	r->rotating = true;
	if (r->rand_lat_med_ns < 1e6) {
		r->rotating = false;
		snprintf(r->why_not, sizeof(r->why_not), "4 KiB random reads take %.0f us (median): "
			 "no seek or rotational latency", r->rand_lat_med_ns / 1e3);
		goto out;
	}
	c->hit_thr = 0.25 * r->rand_lat_med_ns;
	if ((rc = noise(c)))
		goto out;
	progress(c, "rotation");
	if ((rc = rotation(c)) || !r->rotating)
		goto out;
	/* the steps' phase over a revolution or so, within a run of stamps' noise; the runs'
	 * lower envelope (steps()) holds it to half that (at tol / rev, sas15k's three outer
	 * zones, 3.4 % apart, were one at a tolerance of 138 us) */
	c->spt_rel = c->tol > 1000 ? c->tol / c->rev / 2 : 0;
	progress(c, "zones");
	if ((rc = zones(c)) || (rc = layout(c)))
		goto out;
	progress(c, "seek");
	if ((rc = joins(c)) || (rc = positioning(c)))
		goto out;
	progress(c, "cache");
	if (used(c) < 0.95) {
		if ((rc = cache(c)))
			goto out;
	} else {
		skip(c, "cache segments and read-ahead");
	}
	if ((rc = interface(c)))
		goto out;
	r->queuing = r->iops_qd32 > 1.25 * r->iops_qd1;
	for (unsigned i = 0; i < r->nzones && used(c) < 0.98; i++) {
		struct iolab_probe_zone *z = &r->zone[i];
		uint32_t n64 = 65536 / b->block_bytes;
		uint64_t x = z->first_lbn + z->nblocks / 2, first = 0, last = 0;
		if (z->nblocks < 40ull * n64)
			continue;
		for (unsigned k = 0; k < 16 && !rc; k++)
			rc = io1(c, x + (uint64_t)k * n64, n64, false, k ? &last : &first, NULL);
		if (rc)
			goto out;
		z->seq_mbps = 15.0 * 65536 / (double)(last - first) * 1e3;
	}
	if (opts->write && (rc = writes(c)))
		goto out;
	progress(c, "done");
out:
	r->elapsed_ns = (double)(b->ops->now(b) - c->t0);
	free(c);
	return rc;
}
