/* ds_load.h: the load of a whole DiskSim simulation (`iolab sim --disksim`): the requests its
 * synthetic generator (disksim_synthio: processes, open or closed, DiskSim's distributions) or a
 * trace in one of DiskSim's trace formats issues, in virtual time. The runner (ds_run.c) asks the
 * load for its next request, submits it to the simulated system at its time, and tells the load
 * when each request completes (a closed process issues its next request only then).
 *
 * Requests are in DiskSim's terms: a device number (the trace's devno, or a synthetic
 * generator's device; the runner maps it to its logical device or disk) and 512-byte blocks. */
#ifndef IOLAB_DS_LOAD_H
#define IOLAB_DS_LOAD_H

#include <stdbool.h>
#include <stdint.h>

#include "iolab/error.h"

struct dval;
struct ds_load;

struct ds_req {
	uint64_t t_ns;   /* when it is issued, ns of virtual time from the start */
	unsigned devno;  /* DiskSim's device number */
	uint64_t blkno;  /* first 512-byte block on that device */
	uint32_t blocks; /* more than 0 */
	bool write;
	uint64_t tag;    /* the load's own: given back to ds_load_complete */
};

/* The synthetic load of the disksim_synthio block synthio (its generators' disksim_synthgen
 * blocks inside), seeded with seed (disksim_global's Init Seed). Parameter errors are one line
 * "file:line: field 'NAME': ...". Returns 0, -EINVAL or -ENOMEM. */
int ds_load_synthio(const struct dval *synthio, uint64_t seed, struct ds_load **out,
		    struct iolab_err *err);

/* A trace of format (DiskSim's trace format names: "ascii", "validate", ...; ds_load_formats)
 * read from path, its times multiplied by time_scale (disksim_iosim's "I/O trace time scale";
 * 1.0 when absent). Errors name the file and line. Returns 0, -EINVAL or -ENOMEM. */
int ds_load_trace(const char *format, const char *path, double time_scale, struct ds_load **out,
		  struct iolab_err *err);
/* The trace formats ds_load_trace reads, comma-separated. */
const char *ds_load_formats(void);

/* The next request the load issues if no request completes before its time: 1 with *r filled;
 * 0 when it issues nothing until one of its requests completes (every closed process waits);
 * -1 when it is finished (no more requests, ever). Calling it twice without ds_load_take gives
 * the same request. */
int ds_load_peek(struct ds_load *l, struct ds_req *r);
/* Issues the request ds_load_peek gave. */
void ds_load_take(struct ds_load *l);
/* The request tagged tag completed at now_ns. */
void ds_load_complete(struct ds_load *l, uint64_t tag, uint64_t now_ns);
/* One line per thing of the load iolab maps to its nearest behaviour instead of modelling it
 * ("field 'Probability of time-limited': treated as time-critical"), n of them; NULL if none. */
const char *const *ds_load_notes(const struct ds_load *l, unsigned *n);
void ds_load_free(struct ds_load *l);

#endif
