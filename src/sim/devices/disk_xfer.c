/* disk_xfer.c: a read's data over the interface (disk_xfer.h). While connected, block k goes
 * once it is buffered and the previous one has gone. When the next block is not buffered yet
 * the drive lets go of the interface (unless it holds it for the whole read), and reconnects once
 * it has buffered the water mark's worth of what is left of the request (at least one block):
 * after its disconnection's processing and then the reselection overhead, the first or a later
 * one. The data preparation overhead comes once, before the first block goes. */
#include "sim/devices/disk_xfer.h"

#include <math.h>

/* Sends the k blocks waiting, the interface being free at x->bus. */
static void send(struct iolab_xfer *x, uint32_t k)
{
	if (!x->prepared) {
		x->bus += (double)x->m->ovh_data_prep;
		x->prepared = true;
	}
	x->bus += (double)k * x->bulk;
	x->left -= k;
}

/* Lets go of the interface at `at`; it reconnects for the water mark of the request or of a
 * segment, or what is left of the request if less (and at least one block). */
static void disconnect(struct iolab_xfer *x, double at)
{
	const struct iolab_disk_model *m = x->m;
	x->connected = false;
	x->disc_end = at + (double)m->ovh_read_disconnect[x->after_write];
	x->pend = 0;
	x->pend_max = at;
	uint32_t need = iolab_xfer_water_mark(m, x->n);
	x->need = need < x->left ? need : x->left;
}

uint32_t iolab_xfer_water_mark(const struct iolab_disk_model *m, uint32_t n)
{
	double of = m->water_mark_by_request ? (double)n : (double)m->segment_blocks;
	double need = ceil(m->read_water_mark * of - 1e-9);
	return need < 1 ? 1 : need > (double)n ? n : (uint32_t)need;
}

void iolab_xfer_start(struct iolab_xfer *x, const struct iolab_disk_model *m, bool after_write,
		      uint32_t n, double t0, bool connected)
{
	*x = (struct iolab_xfer){.m = m, .bulk = (double)m->bus_ns_per_block, .bus = t0, .n = n,
				 .left = n, .connected = true, .after_write = after_write};
	if (!connected && !m->never_disconnect && n)
		disconnect(x, t0);
}

void iolab_xfer_blocks(struct iolab_xfer *x, uint32_t k, double ready)
{
	for (; k && x->left; k--)
		iolab_xfer_block(x, ready);
}

void iolab_xfer_block_slow(struct iolab_xfer *x, double ready)
{
	const struct iolab_disk_model *m = x->m;
	if (!x->left)
		return;
	if (x->connected) {
		double at = x->bus + (x->prepared ? 0 : (double)m->ovh_data_prep);
		if (ready <= at || m->hold_bus_read || m->never_disconnect) {
			/* the data preparation overlaps the wait for the media */
			x->bus = ready > at ? ready : at;
			x->prepared = true;
			send(x, 1);
			return;
		}
		disconnect(x, x->bus);
	}
	x->pend++;
	if (ready > x->pend_max)
		x->pend_max = ready;
	if (x->pend < x->need)
		return;
	double t = (x->pend_max > x->disc_end ? x->pend_max : x->disc_end) +
		   (double)m->ovh_reselect[x->reselects ? 1 : 0];
	x->reselects++;
	if (t > x->bus)
		x->bus = t;
	x->connected = true;
	send(x, x->pend);
	x->pend = 0;
}

double iolab_xfer_end(const struct iolab_xfer *x)
{
	return x->bus;
}
