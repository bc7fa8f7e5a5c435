/* trace_capture.h: `iolab trace record --device DEV`: the requests a live block device serves,
 * captured through the kernel's block tracepoints in tracefs (block_rq_issue and
 * block_rq_complete), in a private tracing instance filtered to the device, and written as a
 * trace (trace.h). Reading only: a mounted device is fine. tracefs works where blktrace's
 * debugfs interface does not (kernel lockdown).
 *
 * Completions are matched to issues by sector; records leave in issue order once complete. Events
 * the kernel's ring buffer dropped (its per-CPU overrun) are counted, not guessed at. */
#ifndef IOLAB_TRACE_CAPTURE_H
#define IOLAB_TRACE_CAPTURE_H

#include <signal.h>
#include <stdbool.h>
#include <stdint.h>

#include "iolab/error.h"
#include "iolab/trace.h"

/* One parsed tracepoint line. */
struct iolab_capture_event {
	bool complete;       /* block_rq_complete (else block_rq_issue) */
	unsigned major, minor;
	uint64_t ts_ns;      /* the trace clock's timestamp */
	uint64_t sector;     /* 512-byte sectors */
	uint32_t nr_sector;
	int op;              /* enum iolab_trace_op, or -1: a request that moves no data ('N') */
};

/* Parses one line of trace_pipe. Returns 1 and *ev for a block_rq_issue or block_rq_complete
 * line, 0 for any other line, -EINVAL for such a line it cannot read. */
int iolab_capture_parse_line(const char *line, struct iolab_capture_event *ev);

/* The kernel's dev_t for major:minor, as the tracepoints' dev field holds it (MKDEV). */
static inline uint32_t iolab_capture_kdev(unsigned major, unsigned minor)
{
	return (uint32_t)major << 20 | minor;
}

struct iolab_capture_stats {
	uint64_t issued, completed; /* events seen */
	uint64_t records;           /* records written */
	uint64_t unmatched;         /* completions without an issue seen (issued before the start) */
	uint64_t incomplete;        /* records written without a completion */
	uint64_t lost;              /* events the ring buffer dropped (per-CPU overrun + dropped) */
	uint64_t bad_lines;         /* lines that could not be read */
	double seconds;             /* captured time */
};

struct iolab_capture;

/* Finds tracefs, creates the instance instances/iolab-PID, filters both events to device (a
 * block device or a partition) and starts tracing; fills h (source, start, the device and its
 * size). Returns 0; -ENOENT (no tracefs, or a tracefs without the block events), -EACCES or
 * -EPERM (not root) or -ENOTBLK (not a block device), or another -errno, with err set; the
 * instance is removed on failure. */
int iolab_capture_start(const char *device, struct iolab_trace_header *h, struct iolab_capture **c,
			struct iolab_err *err);
/* Captures into w until time_ns have passed (0: no limit) or *stop is set, then drains what is
 * buffered. Returns 0, -ENODATA when no block event of the device was seen at all (nothing read
 * or wrote it, or the tracepoints did not fire: err says what to check), or -errno (a write
 * error) with err set. */
int iolab_capture_run(struct iolab_capture *c, struct iolab_trace_writer *w, uint64_t time_ns,
		      volatile sig_atomic_t *stop, struct iolab_err *err);
void iolab_capture_stats(const struct iolab_capture *c, struct iolab_capture_stats *s);
/* Stops tracing, removes the instance, frees c. */
void iolab_capture_end(struct iolab_capture *c);

#endif
