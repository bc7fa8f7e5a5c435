/* scaleout.h: the runner's side of a run across MPI ranks (cluster.h, docs/scale-out.md).
 * Measuring, every rank runs every point on its own targets and rank 0 merges each point;
 * simulating, the points are spread over the ranks and gathered in order on rank 0. */
#ifndef IOLAB_SCALEOUT_H
#define IOLAB_SCALEOUT_H

#include <stdbool.h>

#include "iolab/run.h"

/* Why a point ends the run, in the order of precedence (one process looks for an I/O error
 * first, then a verify mismatch): across ranks the largest wins. */
enum scale_stop { SCALE_GO, SCALE_SHORT, SCALE_MISMATCH, SCALE_IO_FAILED };

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

/* The ranks stay in step (cluster.h: iolab_cluster_agree): each call below is collective when
 * every rank runs every point (a measurement across ranks), and returns at once alone or when
 * the points are spread. */

/* Every rank, after each run (repetition) of a point: rc, how this rank's went (0 or -errno,
 * err says why), becomes the first failed rank's on every rank, and *stop (this rank's run was
 * cut short) true on every rank if it is on any, so that the ranks run the same repetitions.
 * A lost job returns rc. */
int scale_run_agree(const struct iolab_config *c, int rc, bool *stop, struct iolab_err *err);
/* Every rank, after point p ran, *end saying whether it ends the run here: rank 0 gets each
 * rank's share in p->ranks and p becomes the job's figures, and *end becomes the ranks' largest
 * on every rank. Returns 0, or -ENOMEM on every rank (err says why). A lost job keeps this
 * rank's share, marked partial. */
int scale_point(const struct iolab_config *c, struct iolab_point *p, enum scale_stop *end,
		struct iolab_err *err);
/* Spread points, after each rank ran its own (rc: 0, or how its last one failed, err says
 * why): res->point[first ..) holds this rank's, k[i] the index in the sweep and stop[i] the enum
 * scale_stop of each; on rank 0 they become the whole sweep in order, cut after the first that
 * ends the run (res flags set as one process would). Returns 0, or on every rank the first
 * failed rank's rc (or -ENOMEM: rank 0 cannot hold the sweep), err saying why. */
int scale_collect(const struct iolab_config *c, struct iolab_results *res, unsigned first,
		  unsigned mine, const unsigned *k, const unsigned char *stop, unsigned npoints, int rc,
		  struct iolab_err *err);
/* Every rank, at the end of a run that did not fail: how it ended becomes the same on every
 * rank, so that the ranks go on to the next run of a job file, or stop, together: a spread
 * sweep's io_failed and short_point are rank 0's (the other ranks hold no points: their
 * short_point is an index into rank 0's), and res->interrupted is set on every rank if a stop
 * was requested on any. Alone: interrupted if a stop was requested. */
void scale_end(const struct iolab_config *c, struct iolab_results *res);

#endif
