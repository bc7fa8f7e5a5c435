/* readahead.h: how far the drive reads ahead after a read (readahead.c). */
#ifndef IOLAB_SIM_READAHEAD_H
#define IOLAB_SIM_READAHEAD_H

#include "iolab/disk_model.h"

/* The block after the last one the read-ahead may read after the read [lbn, lbn + n), whose
 * segment begins at seg_start, by m->readahead (not IOLAB_PF_LEGACY), capped at
 * m->readahead_blocks past the read's end and at the disk's end. */
uint64_t iolab_readahead_limit(const struct iolab_disk_model *m, uint64_t lbn, uint32_t n,
			       uint64_t seg_start);

/* The read-ahead that must be done before the arm serves another command: up to this block
 * (end + readahead_min_blocks, at most limit); end when there is no minimum. */
uint64_t iolab_readahead_floor(const struct iolab_disk_model *m, uint64_t end, uint64_t limit);

#endif
