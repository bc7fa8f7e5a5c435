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
 * -ENOTSUP (err says why) when it did and iolab was built without MPI. Ranks other than 0 then
 * print nothing: rank 0 speaks for the job. */
int iolab_cluster_start(int *argc, char ***argv, struct iolab_err *err);
/* Leaves the job (MPI_Finalize); nothing alone. */
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

/* Every rank reports how its preparation went: rc (0 or -errno) and, if not 0, msg. Returns 0
 * on every rank if all succeeded; otherwise the first failed rank's rc on every rank, with err
 * "host H (rank R): msg". Collective: every rank must call it. */
int iolab_cluster_agree(int rc, const char *msg, struct iolab_err *err);
/* The collectives below wait unless the run is stopped meanwhile (iolab_stop_requested: SIGINT,
 * or the SIGTERM with which mpirun ends a job one of whose ranks died): the collective is then
 * given up, the job is lost, and every later one returns at once. */
bool iolab_cluster_lost(void);
/* A barrier: the ranks leave it together. False if the job was lost. */
bool iolab_cluster_barrier(void);
/* True on every rank if flag is true on any (true if the job was lost). */
bool iolab_cluster_any(bool flag);
/* Gathers n bytes from every rank into all (size() * n bytes, rank order) on rank 0. False if
 * the job was lost (all then undefined). */
bool iolab_cluster_gather(const void *mine, size_t n, void *all);
/* Gathers a variable number of bytes from every rank on rank 0: *all (malloc'd, rank order) and
 * len[r] per rank. Returns 0, -ENOMEM (on rank 0) or -ECANCELED (the job was lost). */
int iolab_cluster_gatherv(const void *mine, size_t n, void **all, size_t *len);

#endif
