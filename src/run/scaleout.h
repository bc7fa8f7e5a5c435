/* scaleout.h: the runner's side of a run across MPI ranks (cluster.h, docs/scale-out.md).
 * Measuring, every rank runs every point on its own targets and rank 0 merges each point;
 * simulating, the points are spread over the ranks and gathered in order on rank 0. */
#ifndef IOLAB_SCALEOUT_H
#define IOLAB_SCALEOUT_H

#include <stdbool.h>

#include "iolab/run.h"

/* Why a point ends the run: nothing, an I/O error, or no steady state (too short). */
enum scale_stop { SCALE_GO, SCALE_IO_FAILED, SCALE_SHORT };

/* True if c's points are spread over the ranks (a simulation), false if every rank runs them
 * all (a measurement) or there is one rank. */
bool scale_spread(const struct iolab_config *c);
/* Spread points: true if point k of the sweep is this rank's. The ranks take the points in
 * turns, going back and forth (0 1 2 3 3 2 1 0 0 1 ...): a sweep's cost usually grows along its
 * innermost list (the queue depth), and each rank then gets as many dear points as cheap ones. */
bool scale_mine(unsigned k);
/* --split: this rank's slice of a target's region, on a 1 MiB boundary (4 KiB for a region
 * under 1 MiB a rank); the last rank also takes what is left. */
void scale_split(const struct iolab_config *c, struct iolab_region *r);
/* Every rank, after point p ran (stop: whether it ends the run here): rank 0 gets each rank's
 * share in p->ranks and p becomes the job's figures. Returns true on every rank if the point
 * ends the run on any. */
bool scale_point(const struct iolab_config *c, struct iolab_point *p, bool stop);
/* Spread points, after each rank ran its own: res->point[first ..) holds this rank's, k[i] the
 * index in the sweep and stop[i] the enum scale_stop of each; on rank 0 they become the whole
 * sweep in order, cut after the first that ends the run (res flags set as one process would).
 * Returns 0 or -ENOMEM. */
int scale_collect(const struct iolab_config *c, struct iolab_results *res, unsigned first,
		  unsigned mine, const unsigned *k, const unsigned char *stop, unsigned npoints);

#endif
