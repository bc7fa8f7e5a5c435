/* comp_share.h: the parts that let several volumes live on one set of drives (logical drives
 * carved from one array, as RAID controllers and Linux md partitions make them):
 *   share  (comp_share.c) in front of a drive that more than one volume uses: one queue for
 *          all of them, so the volumes contend for the spindle in the order their commands
 *          come, as the drive's own queue would take them;
 *   concat (comp_concat.c) the volumes of one controller (or the groups of the host) end to
 *          end in one address space, so that a load aimed at one volume reaches it by its
 *          address and a controller's cache serves them all (Linux md's "linear" level). */
#ifndef IOLAB_SIM_COMP_SHARE_H
#define IOLAB_SIM_COMP_SHARE_H

#include "iolab/sim_system.h"

/* A share above below (a drive, kept and freed by the caller). It takes every request (never
 * full); what the drive refuses (QUEUE FULL) waits in its queue, sent in the order sched (an
 * enum iolab_host_sched) picks whenever one of the drive's commands completes. Returns 0 or
 * -ENOMEM. */
extern const struct iolab_comp_ops iolab_comp_share;
int iolab_comp_share_init(struct iolab_comp *c, struct iolab_sim *s, struct iolab_comp *below,
			  unsigned sched);

/* A concatenation of n parts (1..64; kept and freed by the caller), part k holding blocks[k]
 * blocks, after those of parts 0..k-1. A request is cut at the parts' boundaries; it takes
 * every request (never full) and holds what a full part refuses until that part completes
 * one, sent in the order sched (an enum iolab_host_sched, the host's) picks. Returns 0,
 * -EINVAL (n out of range, a part of no blocks) or -ENOMEM. */
extern const struct iolab_comp_ops iolab_comp_concat;
int iolab_comp_concat_init(struct iolab_comp *c, struct iolab_sim *s, struct iolab_comp *const *parts,
			   const uint64_t *blocks, unsigned n, unsigned sched);

#endif
