/* validate.h: judging a drive model against measurements. Reads DiskSim "validate" traces
 * (requests measured on a real drive with their service times, closed loop at depth 1 with think
 * times) and computes the demerit figure: the root-mean-square horizontal distance between the
 * measured and simulated response-time distributions. */
#ifndef IOLAB_VALIDATE_H
#define IOLAB_VALIDATE_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "iolab/error.h"

struct iolab_vreq {
	uint64_t lbn;
	uint32_t blocks;
	bool write;
	double service_us; /* measured */
	double think_us;   /* from this request's completion to the next one's issue */
};

struct iolab_vtrace {
	size_t n;
	struct iolab_vreq *req;
};

/* Parses "R|W Hit|Miss lbn nblocks service_us think_us" lines ('#' comments and blank lines
 * allowed; numbers as iolab_parse_decimal reads them). Refuses a trace without requests, or whose
 * measured service times are all 0 (the demerit is a share of the measured mean). Returns 0 or
 * -EINVAL with "name:line: field 'x': ..." (or "name: ...") in err. */
int iolab_vtrace_parse(const char *name, const char *text, struct iolab_vtrace *t, struct iolab_err *err);
/* One line of such a trace (buf, modified): 1 and *req, 0 for a blank or comment line, or -EINVAL
 * with "name:line: field 'x': ..." in err. iolab_vtrace_parse and the "validate" trace format
 * (src/trace/fmt_validate.c) both read lines with it. */
int iolab_vtrace_parse_line(const char *name, size_t line, char *buf, struct iolab_vreq *req,
			    struct iolab_err *err);
int iolab_vtrace_load(const char *path, struct iolab_vtrace *t, struct iolab_err *err);
void iolab_vtrace_free(struct iolab_vtrace *t);

/* Time at which the empirical CDF of the sorted values x[0..n) reaches p (0 < p <= 1), linear
 * between the steps (value i sits at probability (i+1)/n). */
double iolab_cdf_quantile(const double *sorted, size_t n, double p);

/* Demerit of sim against meas (n values each, any order; both are sorted in place): RMS over
 * p = 0.0001 .. 1 of the quantile differences, in the values' unit. */
double iolab_demerit(double *meas, double *sim, size_t n);

struct iolab_disk_model;
struct iolab_disk_stats;
/* Runs trace t on a new drive of model m as it was measured (closed loop, depth 1, think times)
 * and writes each request's simulated service time in µs to sim_us[0..t->n). st (may be NULL)
 * gets the drive's counters. Returns 0 or -EINVAL (a request beyond the model's capacity). */
int iolab_validate_run(const struct iolab_disk_model *m, const struct iolab_vtrace *t, double *sim_us,
		       struct iolab_disk_stats *st, struct iolab_err *err);

#endif
