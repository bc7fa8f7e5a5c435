/* layout.h: the simulator's view of a block's physical place (layout.c). */
#ifndef IOLAB_SIM_LAYOUT_H
#define IOLAB_SIM_LAYOUT_H

#include "iolab/disk_model.h"

struct iolab_phys {
	unsigned zone;
	uint32_t cyl, head, track; /* track: index within the cylinder in mapping order */
	uint32_t sector;
	double angle;     /* where the sector starts, in revolutions [0, 1) */
	double sector_ns; /* time one sector takes to pass under the head */
};

/* Physical place of lbn. Returns 0 or -ERANGE past the last block. */
int iolab_layout_map(const struct iolab_disk_model *m, uint64_t lbn, struct iolab_phys *p);

#endif
