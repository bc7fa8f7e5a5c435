/* disk_sim.h: a simulated mechanical drive in virtual time (disk.c). Requests go in with their
 * arrival time; the drive serves commands one at a time in the order its scheduler picks among
 * the commands it has accepted (queue_depth), and each comes out with its completion time.
 * Counters say where the time went (seek, rotation, media, interface, overheads, cache hits). */
#ifndef IOLAB_DISK_SIM_H
#define IOLAB_DISK_SIM_H

#include <stdbool.h>
#include <stdint.h>

#include "iolab/disk_model.h"

struct iolab_disk_req {
	uint64_t lbn;
	uint32_t blocks;
	bool write;
	bool trim; /* a TRIM (NVMe Dataset Management deallocate, ATA DATA SET MANAGEMENT): the
		      blocks' data is no longer needed; no data moves (write is false) */
	uint64_t t_arrive, t_done; /* ns of virtual time */
	void *user;
};

/* Totals over the requests completed so far (ns unless named). */
struct iolab_disk_stats {
	uint64_t reads, writes, read_hits, read_partial_hits, write_waits;
	double overhead_ns, queue_ns, seek_ns, rotate_ns, media_ns, bus_ns;
	uint64_t seeks;
};

struct iolab_disk;

/* Creates a drive for model m (which must outlive it). Returns NULL on ENOMEM. */
struct iolab_disk *iolab_disk_new(const struct iolab_disk_model *m);
void iolab_disk_free(struct iolab_disk *d);

/* Hands r to the drive at its r->t_arrive, which is not earlier than any earlier arrival. It may
 * be earlier than a completion already returned (it arrived while that command was in service),
 * provided every request arriving by the time the drive was free to pick that command had been
 * handed over before iolab_disk_next picked it: an event loop that hands arrivals over in time
 * order meets this, and the drive then serves exactly as if it had known of r from the start
 * (test_sim_disk.c checks it). The drive keeps the pointer until it returns r. Returns 0, or -EBUSY when the drive already holds the model's queue_depth
 * commands waiting (SCSI QUEUE FULL): r is not taken, and the host keeps it and hands it over
 * again, before any later request, once iolab_disk_next has returned a command. */
int iolab_disk_submit(struct iolab_disk *d, struct iolab_disk_req *r);
/* True if the drive would refuse a request now (QUEUE FULL). */
bool iolab_disk_full(const struct iolab_disk *d);
/* Serves until the next request completes and returns it (t_done set), or NULL if none is
 * outstanding. */
struct iolab_disk_req *iolab_disk_next(struct iolab_disk *d);
/* The drive cannot start another command before t (it is holding the channel, or waiting for
 * it): its controller is busy until then. */
void iolab_disk_hold(struct iolab_disk *d, uint64_t t);
/* Requests submitted and not yet served (a served one is returned at once). */
unsigned iolab_disk_outstanding(const struct iolab_disk *d);
const struct iolab_disk_stats *iolab_disk_stats(const struct iolab_disk *d);

#endif
