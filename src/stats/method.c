/* method.c: owns the statistics of the measurement method (method.h): the t quantiles behind a
 * repetition's confidence interval and the steady-state window rule. */
#include <math.h>

#include "iolab/method.h"

/* t(0.975, df) for df 1..29, from the NIST/SEMATECH e-Handbook of Statistical Methods,
 * section 1.3.6.7.2 "Critical Values of the Student's t Distribution" (upper 0.025 column). */
static const double t975[] = {
	12.706, 4.303, 3.182, 2.776, 2.571, 2.447, 2.365, 2.306, 2.262, 2.228,
	2.201, 2.179, 2.160, 2.145, 2.131, 2.120, 2.110, 2.101, 2.093, 2.086,
	2.080, 2.074, 2.069, 2.064, 2.060, 2.056, 2.052, 2.048, 2.045,
};

double iolab_t95(unsigned df)
{
	if (df < 1)
		return 0;
	if (df <= sizeof(t975) / sizeof(t975[0]))
		return t975[df - 1];
	return 1.960; /* the normal quantile */
}

double iolab_ci95(double sd, unsigned n)
{
	return n < 2 ? 0 : iolab_t95(n - 1) * sd / sqrt((double)n);
}

/* SNIA Solid State Performance Test Specification (PTS), steady state: within the measurement
 * window, max(y) - min(y) <= 20 % of the average, and the best linear fit's excursion across
 * the window <= 10 % of it. */
bool iolab_steady(const double *v, unsigned n)
{
	if (n < IOLAB_SS_WINDOW)
		return false;
	const double *w = v + n - IOLAB_SS_WINDOW;
	double lo = w[0], hi = w[0], sum = 0, xm = (IOLAB_SS_WINDOW - 1) / 2.0;
	for (unsigned i = 0; i < IOLAB_SS_WINDOW; i++) {
		lo = w[i] < lo ? w[i] : lo;
		hi = w[i] > hi ? w[i] : hi;
		sum += w[i];
	}
	double avg = sum / IOLAB_SS_WINDOW;
	if (!(avg > 0))
		return false;
	double sxy = 0, sxx = 0;
	for (unsigned i = 0; i < IOLAB_SS_WINDOW; i++) {
		sxy += (i - xm) * (w[i] - avg);
		sxx += (i - xm) * (i - xm);
	}
	double change = fabs(sxy / sxx) * (IOLAB_SS_WINDOW - 1);
	return hi - lo <= IOLAB_SS_RANGE * avg && change <= IOLAB_SS_SLOPE * avg;
}

unsigned iolab_steady_round(const double *v, unsigned n)
{
	for (unsigned r = IOLAB_SS_WINDOW; r <= n && r <= IOLAB_SS_MAX_ROUNDS; r++)
		if (iolab_steady(v, r))
			return r;
	return 0;
}
