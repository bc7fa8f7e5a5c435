/* method.h: measurement methodology: the confidence interval of a mean over repetitions
 * (Student's t) and the steady-state rule of the SNIA Solid State Performance Test
 * Specification (a window of the last rounds, its range and its least-squares slope). */
#ifndef IOLAB_METHOD_H
#define IOLAB_METHOD_H

#include <stdbool.h>

#define IOLAB_SS_WINDOW 5     /* rounds in the steady-state measurement window */
#define IOLAB_SS_MAX_ROUNDS 25 /* rounds after which the search stops */
#define IOLAB_SS_RANGE 0.20   /* most range of the window, a share of its average */
#define IOLAB_SS_SLOPE 0.10   /* most change of its least-squares line across it, likewise */

/* The two-sided 95 % quantile of Student's t with df degrees of freedom (df >= 1); the normal
 * 1.96 beyond 29. */
double iolab_t95(unsigned df);

/* Half-width of the 95 % confidence interval of the mean of n values with sample standard
 * deviation sd; 0 for n < 2. */
double iolab_ci95(double sd, unsigned n);

/* True if the last IOLAB_SS_WINDOW of v[0..n) meet the steady-state rule: their range is at
 * most IOLAB_SS_RANGE of their average and their least-squares line changes across the window
 * by at most IOLAB_SS_SLOPE of it. False with fewer values, or a non-positive average. */
bool iolab_steady(const double *v, unsigned n);

/* The round (1-based) after which a search over the rounds v[0..n) stops at steady state: the
 * first at which iolab_steady holds, within the first IOLAB_SS_MAX_ROUNDS; 0 if none. */
unsigned iolab_steady_round(const double *v, unsigned n);

#endif
