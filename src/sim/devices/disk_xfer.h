/* disk_xfer.h: a read's data over the interface, block by block (disk_xfer.c). The drive holds
 * the interface while it has data to send; a read that must wait for the media lets go of it
 * and reconnects once the buffer holds its water mark, each step taking its overhead (DiskSim
 * 4.0 manual 3.4.5 pp16-24: Never disconnect, Hold bus entire read xfer, High (read) water mark,
 * Set watermark by reqsize, Data preparation, First/Other reselect and Read disconnect
 * overheads). With none of these set it sends each block as soon as it is buffered. */
#ifndef IOLAB_SIM_DISK_XFER_H
#define IOLAB_SIM_DISK_XFER_H

#include <stdbool.h>
#include <stdint.h>

#include "iolab/disk_model.h"

struct iolab_xfer {
	const struct iolab_disk_model *m;
	double bulk;       /* the interface's time a block */
	double bus;        /* the interface is free for the next block */
	double disc_end;   /* the last disconnection's processing is over */
	double pend_max;   /* the latest ready time of the blocks waiting for the reconnection */
	uint32_t n;        /* blocks of the request */
	uint32_t left;     /* ... not sent yet */
	uint32_t pend;     /* blocks buffered while disconnected */
	uint32_t need;     /* ... that make the drive reconnect */
	unsigned reselects;
	bool connected, prepared, after_write;
};

/* A read of n blocks whose command processing ends at t0; connected: the drive has data to send
 * at once (a cache hit) or never disconnects. after_write: the previous command was a write. */
void iolab_xfer_start(struct iolab_xfer *x, const struct iolab_disk_model *m, bool after_write,
		      uint32_t n, double t0, bool connected);
/* The next block of the request (in order) is in the buffer at `ready`. */
void iolab_xfer_block_slow(struct iolab_xfer *x, double ready);
static inline void iolab_xfer_block(struct iolab_xfer *x, double ready)
{
	if (x->connected && x->prepared && x->left && ready <= x->bus) { /* the common case */
		x->bus += x->bulk;
		x->left--;
		return;
	}
	iolab_xfer_block_slow(x, ready);
}
/* Blocks 0..k-1 of the request are in the buffer by `ready` (a cache hit's part). */
void iolab_xfer_blocks(struct iolab_xfer *x, uint32_t k, double ready);
/* The blocks a read of n blocks must have buffered to reconnect (at least 1, at most n). */
uint32_t iolab_xfer_water_mark(const struct iolab_disk_model *m, uint32_t n);
/* Every block handed in: when the last one has gone to the host. */
double iolab_xfer_end(const struct iolab_xfer *x);

#endif
