/* subsys_extent.h: volumes carved from shared drives (subsys_extent.c), for the file's reader,
 * the checks and the builder. iolab_subsys_member_blocks and iolab_subsys_member_offset are in
 * iolab/subsys.h. */
#ifndef IOLAB_SIM_SUBSYS_EXTENT_H
#define IOLAB_SIM_SUBSYS_EXTENT_H

#include <stdbool.h>

#include "iolab/subsys.h"

/* Places each volume whose offset was not given (offset_given[i] false) after the extents of
 * the volumes before it that share one of its drives, as a RAID controller places a new
 * logical drive after those on the array. References must be resolved. */
void iolab_subsys_place_volumes(struct iolab_subsys *s, const bool *offset_given);
/* Whether volumes a and b have a drive in common (its index in *drive). */
bool iolab_subsys_share_drive(const struct iolab_subsys *s, unsigned a, unsigned b, unsigned *drive);
/* 1 if volumes a and b overlap on a drive they share (its index in *drive), else 0. */
int iolab_subsys_overlap(const struct iolab_subsys *s, unsigned a, unsigned b, unsigned *drive);
/* How many volumes use drive d. */
unsigned iolab_subsys_drive_users(const struct iolab_subsys *s, unsigned d);

#endif
