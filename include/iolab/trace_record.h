/* trace_record.h: --record FILE on `iolab run` and `iolab sim`: every I/O the workers issue, with
 * its issue and completion times, operation, offset, length and target, written as a trace
 * (trace.h) in issue order.
 *
 * Workers are threads: each has its own lane (no lock on the hot path) where completed I/Os wait
 * in a small heap (2 x qd + 64 records) until no earlier one of that worker can still complete;
 * the lane spills them in issue order to a temporary file. When the point ends, the lanes are
 * merged by issue time through one trace writer. Memory stays bounded whatever the run's length;
 * the temporary files hold the records until then. An I/O that outlives more than the heap's
 * worth of later ones is written late, out of issue order: counted (iolab_recorder_late).
 */
#ifndef IOLAB_TRACE_RECORD_H
#define IOLAB_TRACE_RECORD_H

#include <stdint.h>
#include <stdio.h>

#include "iolab/error.h"
#include "iolab/trace.h"

struct iolab_recorder;
struct iolab_io;

/* A recorder writing format fmt (NULL: iot) to f (from iolab_out_open) with source (the command
 * line) in its header. Returns 0 or -errno with err set. */
int iolab_recorder_new(struct iolab_recorder **r, FILE *f, const struct iolab_trace_format *fmt,
		       const char *source, struct iolab_err *err);
/* Before the point's workers start: its targets (names and sizes in bytes), its workers and
 * their queue depth, and the wall-clock time (ns since the epoch) of time 0 of the records.
 * Returns 0 or -errno with err set. */
int iolab_recorder_begin(struct iolab_recorder *r, const char *const *names, const uint64_t *sizes,
			 unsigned ntargets, unsigned nworkers, unsigned qd, uint64_t start_unix_ns,
			 struct iolab_err *err);
/* From worker w's thread: io was submitted at t (ns since the point's start) ... */
void iolab_recorder_issue(struct iolab_recorder *r, unsigned w, const struct iolab_io *io, uint64_t t);
/* ... and completed at t. */
void iolab_recorder_done(struct iolab_recorder *r, unsigned w, const struct iolab_io *io, uint64_t t);
/* After the workers stopped: merges the lanes into the trace and finishes it (f stays open for
 * the caller to commit). Returns 0 or -errno with err set (a lane's write error included). */
int iolab_recorder_end(struct iolab_recorder *r, struct iolab_err *err);
/* Records written, and of those the ones written out of issue order. */
uint64_t iolab_recorder_count(const struct iolab_recorder *r);
uint64_t iolab_recorder_late(const struct iolab_recorder *r);
void iolab_recorder_free(struct iolab_recorder *r);

#endif
