/* host_queue.h: the operating system's queue in front of a simulated device. The host keeps the
 * requests the device has not accepted yet (a drive takes only as many commands as its tag
 * limit: one for drives without command queuing) and picks which one to send next when the
 * device has room. That choice is where a host gains throughput from depth on a drive that
 * cannot reorder by itself.
 *
 * Policies:
 *   none      arrival order (Linux "none" on a single queue);
 *   cscan     sorted by block address, served in one-way sweeps: the lowest address at or above
 *             the last one sent, wrapping to the lowest (Windows' port drivers keep a busy
 *             device's queue sorted by block address this way);
 *   deadline  Linux's mq-deadline: reads and writes each sorted by address and in arrival
 *             order; batches of up to 16 requests in address order; reads preferred, but writes
 *             are served after reads were chosen over them twice; a batch starts from the
 *             oldest request when it has waited past its expiry (reads 500 ms, writes 5 s)
 *             (block/mq-deadline.c defaults: fifo_batch 16, writes_starved 2, read_expire
 *             HZ/2, write_expire 5*HZ).
 */
#ifndef IOLAB_HOST_QUEUE_H
#define IOLAB_HOST_QUEUE_H

#include <stdbool.h>
#include <stdint.h>

#include "iolab/disk_sim.h"
#include "iolab/error.h"

enum iolab_host_sched { IOLAB_HOST_NONE, IOLAB_HOST_CSCAN, IOLAB_HOST_DEADLINE, IOLAB_HOST_NSCHED };

/* The policy called name ("none", "cscan", "deadline"): 0 and *out set, or -EINVAL with err
 * naming field and value. */
int iolab_host_sched_parse(const char *field, const char *name, enum iolab_host_sched *out,
			   struct iolab_err *err);
const char *iolab_host_sched_name(enum iolab_host_sched s);

struct iolab_host_queue {
	enum iolab_host_sched sched;
	unsigned n, cap;
	struct iolab_disk_req **req; /* the held requests, in arrival order */
	uint64_t pos;                /* the block after the last request sent */
	bool last_write;             /* deadline: direction of the current batch */
	unsigned batch, starved;     /* deadline: requests sent in this batch; read batches chosen
					while writes waited */
};

/* Sets up q with room for cap requests (it grows). Returns 0 or -ENOMEM. */
int iolab_hostq_init(struct iolab_host_queue *q, enum iolab_host_sched sched, unsigned cap);
void iolab_hostq_free(struct iolab_host_queue *q);
/* Holds r. Returns 0 or -ENOMEM (r is not held). */
int iolab_hostq_push(struct iolab_host_queue *q, struct iolab_disk_req *r);
/* Removes and returns the request the policy sends next at virtual time now, or NULL if none
 * is held. */
struct iolab_disk_req *iolab_hostq_pop(struct iolab_host_queue *q, uint64_t now);

#endif
