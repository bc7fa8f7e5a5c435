/* seek_curve.c: the seek-time formulas of DiskSim 4.0's dm_mech_g1 "Seek type" values other than
 * `extracted` (the measured table, interpolated in layout.c): hpl, hplplus10, curve, linear and
 * constant (DiskSim 4.0 Reference Manual, B.4.3 p77 and B.5 pp80-81; docs/model-format.md, "Seek
 * formulas and access-time types"). Distances are in cylinders, the result is a read seek in ns:
 * the write settle time is added by the caller. */
#include <math.h>
#include <stddef.h>

#include "iolab/disk_model.h"

/* HPL equation (manual B.5.2, after Ruemmler and Wilkes 1994): x = 1 takes V6 (unless V6 = -1);
 * otherwise V2 + V3·sqrt(x) below V1 cylinders and V4 + V5·x from V1 on. V2..V6 are ms. */
static double hpl_ms(const double v[6], double x, bool single_ok)
{
	if (x == 1 && single_ok && v[5] != -1)
		return v[5];
	return x < v[0] ? v[1] + v[2] * sqrt(x) : v[3] + v[4] * x;
}

/* Lee's equation (manual B.5.1, Lee and Katz 1993): a·sqrt(x-1) + b·(x-1) + c with
 * a = (-10 min + 15 avg - 5 max) / (3 sqrt(C)), b = (7 min - 15 avg + 8 max) / (3 C), c = min,
 * C the number of cylinders. */
static double lee_ns(const struct iolab_disk_model *m, double x)
{
	double mn = (double)m->seek_single_ns, avg = (double)m->seek_avg_ns;
	double mx = (double)m->seek_full_ns, c = m->cylinders;
	double a = (-10 * mn + 15 * avg - 5 * mx) / (3 * sqrt(c));
	double b = (7 * mn - 15 * avg + 8 * mx) / (3 * c);
	return a * sqrt(x - 1) + b * (x - 1) + mn;
}

/* Linear interpolation through (1, single), (C/3, average) and (C, full stroke): the manual
 * (B.4.3) names the three figures; the points are those of DiskSim's dm_mech_g1_seek_3pt_line. */
static double linear_ns(const struct iolab_disk_model *m, double x)
{
	double mn = (double)m->seek_single_ns, avg = (double)m->seek_avg_ns;
	double mx = (double)m->seek_full_ns, c = m->cylinders;
	if (x <= c / 3)
		return mn + 3 * (x - 1) / c * (avg - mn);
	return avg + (3 * x - c) / (2 * c) * (mx - avg);
}

double iolab_seek_formula_ns(const struct iolab_disk_model *m, uint32_t dist)
{
	double x = dist, t;
	switch (m->seek_type) {
	case IOLAB_SEEK_CONSTANT:
		return (double)m->seek_const_ns; /* manual B.4.3: a fixed per-request seek time */
	case IOLAB_SEEK_HPL:
		t = dist ? hpl_ms(m->seek_hpl, x, true) * 1e6 : 0;
		break;
	case IOLAB_SEEK_HPLPLUS10: /* manual B.4.3: First ten seek times for 1..10 cylinders */
		if (!dist)
			return 0;
		t = dist <= 10 ? (double)m->seek_first_ten_ns[dist - 1] : hpl_ms(m->seek_hpl, x, false) * 1e6;
		break;
	case IOLAB_SEEK_CURVE:
		t = dist ? lee_ns(m, x) : 0;
		break;
	case IOLAB_SEEK_LINEAR:
		t = dist ? linear_ns(m, x) : 0;
		break;
	default:
		return 0;
	}
	return t > 0 ? t : 0;
}

const char *iolab_seek_hpl_invalid(const double v[6])
{
	if (v[0] < 0 || v[0] != floor(v[0]) || v[0] > 1e7)
		return "V1 (cylinders) must be a whole number 0..10000000";
	for (int i = 1; i < 5; i++)
		if (v[i] < 0 || v[i] > 1e6)
			return i == 1 ? "V2 must be 0..1000000 ms" : i == 2 ? "V3 must be 0..1000000 ms"
			       : i == 3 ? "V4 must be 0..1000000 ms" : "V5 must be 0..1000000 ms";
	if ((v[5] < 0 && v[5] != -1) || v[5] > 1e6)
		return "V6 must be 0..1000000 ms or -1";
	return NULL;
}
