/* layout.h: the simulator's view of a block's physical place (layout.c). */
#ifndef IOLAB_SIM_LAYOUT_H
#define IOLAB_SIM_LAYOUT_H

#include "sim/devices/phys.h"

/* Physical place of lbn. Returns 0 or -ERANGE past the last block. */
int iolab_layout_map(const struct iolab_disk_model *m, uint64_t lbn, struct iolab_phys *p);

/* Moves p (a result of iolab_layout_map) to the next block: in O(1) within p's run (run_end),
 * else by a full lookup. Returns 0 or -ERANGE. */
int iolab_layout_next(const struct iolab_disk_model *m, struct iolab_phys *p);

#endif
