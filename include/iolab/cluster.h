/* cluster.h: one run across many processes, on MPI (docs/scale-out.md).
 *
 * Started by mpirun (Open MPI), iolab is one rank of a job: every rank measures its own targets
 * and rank 0 gathers, merges and reports; a simulation sweep spreads its points over the ranks.
 * Started alone, or built without MPI, there is one rank and every call here is a no-op that
 * keeps today's behaviour. Ranks are assumed to run the same binary on the same architecture:
 * what they exchange is plain C structs, as bytes. */
#ifndef IOLAB_CLUSTER_H
#define IOLAB_CLUSTER_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "iolab/error.h"

#define IOLAB_HOST_MAX 64

/* Joins the MPI job when mpirun started this process (its environment says so); returns 0, or
 * -ENOTSUP (err says why) when it did and iolab was built without MPI, or -ENOMEM on every rank
 * when rank 0 has no room for the job's tables (the job is then left). The library prints
 * nothing on any rank; the CLI silences every rank but 0, which speaks for the job. */
int iolab_cluster_start(int *argc, char ***argv, struct iolab_err *err);
/* Leaves the job (MPI_Finalize); nothing alone. A lost job (below) is left without it: its
 * ranks are not all there to finalize together, and mpirun ends the rest. */
void iolab_cluster_end(void);

bool iolab_cluster_active(void);   /* more than one rank */
unsigned iolab_cluster_rank(void);  /* 0 alone */
unsigned iolab_cluster_size(void);  /* 1 alone */
const char *iolab_cluster_host(void); /* this rank's host name */
/* The host name and the clock offset (its CLOCK_REALTIME minus rank 0's, measured at the start
 * by the quickest of 16 round trips, in ns; *err_ns, if not NULL, its bound) of rank r; on rank
 * 0 only. */
const char *iolab_cluster_host_of(unsigned r);
double iolab_cluster_offset_ns(unsigned r, double *err_ns);

/* Every rank reports how a step went: rc (0 or -errno) and, if not 0, msg. Returns 0 on every
 * rank if all succeeded; otherwise, on every rank, the rc of the lowest-numbered rank that failed,
 * with err "host H (rank R): msg" (msg may be err->msg). Collective: every rank must call it,
 * the same number of times. This is how the ranks stay in step: a step that can fail on one rank
 * (a target it cannot open, a check it refuses, no memory) is followed by an agreement before
 * the next collective, so that no rank leaves while the others wait for it.
 * Returns rc (or -ECANCELED) at once if the job was lost. */
int iolab_cluster_agree(int rc, const char *msg, struct iolab_err *err);
/* The collectives below, and iolab_cluster_agree, wait unless the job is being ended meanwhile:
 * iolab_stop_requested == SIGTERM, which mpirun sends every rank when one died or when it is
 * itself interrupted. The collective is then given up, the job is lost, and every later one
 * returns at once. SIGINT on one rank only stops its run: it waits for the others in the next
 * collective (they come, their points being bounded), and the ranks then stop together. */
bool iolab_cluster_lost(void);
/* A barrier: the ranks leave it together. False if the job was lost. */
bool iolab_cluster_barrier(void);
/* True on every rank if flag is true on any (true if the job was lost). */
bool iolab_cluster_any(bool flag);
/* The largest of the ranks' v, on every rank (v if the job was lost). */
unsigned iolab_cluster_max(unsigned v);
/* Rank 0's n bytes at buf, on every rank (n at most INT_MAX). False if the job was lost. */
bool iolab_cluster_bcast(void *buf, size_t n);
/* Gathers n bytes (the same n on every rank, at most INT_MAX) from every rank into all
 * (size() * n bytes, rank order) on rank 0. False if the job was lost (all then undefined). */
bool iolab_cluster_gather(const void *mine, size_t n, void *all);
/* Gathers a variable number of bytes from every rank on rank 0: *all (malloc'd, rank order) and
 * len[r] per rank. Sizes are size_t throughout: what a rank sends goes in pieces of at most
 * iolab_cluster_set_piece_max() bytes (MPI counts are ints). Returns 0; -ENOMEM on every rank if
 * rank 0 cannot hold the whole (or its size does not fit a size_t: iolab_cluster_layout);
 * -ECANCELED if the job was lost. */
int iolab_cluster_gatherv(const void *mine, size_t n, void **all, size_t *len);

/* Where rank 0 puts each rank's bytes in a gatherv of len[0 .. n): offset[r] (if offset is not
 * NULL) and, in *total, the sum. Returns 0, or -EOVERFLOW if the sum does not fit a size_t. */
int iolab_cluster_layout(const uint64_t *len, unsigned n, size_t *offset, size_t *total);

/* The largest piece a gatherv sends in one message: IOLAB_CLUSTER_PIECE_MAX by default; bytes 0
 * restores it, and values are kept within 1 .. INT_MAX. Returns the one before. Every rank must
 * use the same (tests set a small one to send many pieces). */
#define IOLAB_CLUSTER_PIECE_MAX (1u << 30)
size_t iolab_cluster_set_piece_max(size_t bytes);

#endif
