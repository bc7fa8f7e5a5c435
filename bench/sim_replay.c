/* sim_replay.c: how fast the simulator replays a DiskSim validate trace, without process start,
 * model loading or trace parsing: loads the model and the trace once, then replays the trace
 * REPS times back to back in this process with iolab_validate_run (each replay on a new drive,
 * as `iolab sim validate` does) and prints one line:
 *
 *   MODEL TRACE requests=N reps=R wall_s=S requests_per_s=X demerit_pct=D hash=H
 *
 * demerit_pct is the figure `iolab sim validate` prints (to 17 digits) and hash an FNV-1a hash of
 * every simulated service time of the last replay, so that two builds can be compared bit for
 * bit. Built as build/bench/sim_replay; bench/sim-validate-speed.sh runs it.
 *
 * Usage: sim_replay MODEL TRACE [REPS]   (REPS default 50; exit status 2 on bad input) */
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#include "iolab/disk_model.h"
#include "iolab/disk_sim.h"
#include "iolab/validate.h"

static double seconds(void)
{
	struct timespec ts;
	clock_gettime(CLOCK_MONOTONIC, &ts);
	return (double)ts.tv_sec + (double)ts.tv_nsec / 1e9;
}

static uint64_t fnv1a(const double *v, size_t n)
{
	uint64_t h = 14695981039346656037ull;
	const unsigned char *c = (const unsigned char *)v;
	for (size_t i = 0; i < n * sizeof(*v); i++) {
		h ^= c[i];
		h *= 1099511628211ull;
	}
	return h;
}

int main(int argc, char **argv)
{
	if (argc < 3 || argc > 4) {
		fprintf(stderr, "usage: sim_replay MODEL TRACE [REPS]\n");
		return 2;
	}
	long reps = argc > 3 ? strtol(argv[3], NULL, 10) : 50;
	if (reps < 1 || reps > 1000000) {
		fprintf(stderr, "sim_replay: REPS must be 1..1000000\n");
		return 2;
	}
	struct iolab_err err;
	struct iolab_disk_model m;
	struct iolab_vtrace t;
	if (iolab_model_open(argv[1], &m, &err)) {
		fprintf(stderr, "sim_replay: %s\n", err.msg);
		return 2;
	}
	if (iolab_vtrace_load(argv[2], &t, &err)) {
		fprintf(stderr, "sim_replay: %s\n", err.msg);
		iolab_model_free(&m);
		return 2;
	}
	double *sim = malloc(t.n * sizeof(*sim)), *meas = malloc(t.n * sizeof(*meas));
	int status = 0;
	if (!sim || !meas) {
		fprintf(stderr, "sim_replay: out of memory\n");
		status = 2;
		goto out;
	}
	double t0 = seconds();
	for (long r = 0; r < reps && !status; r++)
		if (iolab_validate_run(&m, &t, sim, NULL, &err)) {
			fprintf(stderr, "sim_replay: %s\n", err.msg);
			status = 2;
		}
	double wall = seconds() - t0;
	if (status)
		goto out;
	uint64_t hash = fnv1a(sim, t.n);
	double ms = 0;
	for (size_t i = 0; i < t.n; i++) {
		meas[i] = t.req[i].service_us;
		ms += meas[i];
	}
	ms /= (double)t.n;
	double dem = iolab_demerit(meas, sim, t.n);
	printf("%s %s requests=%zu reps=%ld wall_s=%.4f requests_per_s=%.0f demerit_pct=%.17g "
	       "hash=%016llx\n", m.name, argv[2], t.n, reps, wall, (double)t.n * (double)reps / wall,
	       100 * dem / ms, (unsigned long long)hash);
out:
	free(sim);
	free(meas);
	iolab_vtrace_free(&t);
	iolab_model_free(&m);
	return status;
}
