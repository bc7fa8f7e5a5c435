/* sim_system.h: a simulated I/O path as components on one event queue.
 *
 * A component (host, drive; later bus, controller, channel, volume) accepts requests from the
 * part above it (submit), is told when a part below finished one (complete), and acts on events
 * it scheduled for itself (event). A part never calls another part's complete() directly:
 * finishing a request (iolab_sim_done) posts an event, so nothing re-enters. Each kind is one
 * file with a const ops table, like the engines.
 *
 * Order within one instant: ordinary events first, in the order they were posted; "late"
 * events (iolab_sim_at_late) after all of them, also after those posted while the instant is
 * processed, and after the load's new requests: a drive picks its next command only once
 * everything arriving at that instant has arrived. disk_sim.h says why that makes a drive
 * serve requests that arrive during another's service exactly.
 */
#ifndef IOLAB_SIM_SYSTEM_H
#define IOLAB_SIM_SYSTEM_H

#include <stdbool.h>
#include <stdint.h>

#include "iolab/disk_sim.h"
#include "iolab/engine.h"
#include "iolab/error.h"
#include "iolab/event_queue.h"
#include "iolab/subsys.h"

#define IOLAB_COMP_OPS_VERSION 4 /* 2: report; 3: breakdown; 4: parts, precondition */

struct iolab_comp;

/* A request travelling between components. */
struct iolab_sreq {
	struct iolab_disk_req d;  /* lbn, blocks, write; t_arrive: when it reached the part that
				     holds it; t_done; d.user: the load's tag */
	struct iolab_comp *from;  /* gets complete() when the part below has finished it; NULL:
				     the load above the system */
	struct iolab_sreq *parent; /* the request this one is a piece of, or NULL */
	unsigned pieces;           /* for the part that split it: pieces still in flight */
};

struct iolab_comp_ops {
	const char *kind;   /* "host", "drive", ... */
	unsigned version;   /* IOLAB_COMP_OPS_VERSION */
	/* r arrives now from above. Returns 0, or -EBUSY when the part cannot take it now (QUEUE
	 * FULL): the caller keeps r and offers it again once one of its requests completed. */
	int (*submit)(struct iolab_comp *c, struct iolab_sreq *r);
	/* True if submit would refuse a request now. May be NULL: never full. */
	bool (*full)(const struct iolab_comp *c);
	/* The part below finished r, which c had sent (r->from == c). May be NULL for a part with
	 * nothing below. */
	void (*complete)(struct iolab_comp *c, struct iolab_sreq *r);
	/* An event c scheduled for itself (iolab_sim_at) came due. May be NULL. */
	void (*event)(struct iolab_comp *c, unsigned what, void *arg);
	/* Frees c->priv. May be NULL. */
	void (*cleanup)(struct iolab_comp *c);
	/* What the part did so far, for the explanation (its name left empty: the builder names
	 * it). May be NULL for a part that is not reported (the bus crossing). */
	void (*report)(const struct iolab_comp *c, struct iolab_comp_report *out);
	/* A device (a part at the bottom of the path): adds where its commands spent their time
	 * to *b. May be NULL (a part above the devices, or a device that keeps no breakdown). */
	void (*breakdown)(const struct iolab_comp *c, struct iolab_breakdown *b);
	/* A device made of parts of its own (an SSD's flash channels and dies): writes up to max of
	 * their reports into out (names set: "ch0", "die3"; the builder puts the device's name
	 * before them) and returns how many it has. May be NULL: none. */
	unsigned (*parts)(const struct iolab_comp *c, struct iolab_comp_report *out, unsigned max);
	/* --precondition of a simulated device: puts it, before it gets any request, in the state
	 * of a device written whole and then at random until it is steady (SNIA PTS). Returns 0 or
	 * -ENOMEM. May be NULL: the device keeps no such state. */
	int (*precondition)(struct iolab_comp *c);
};

/* The registry of component kinds (components.c): every ops table, NULL after the last. */
const struct iolab_comp_ops *iolab_comp_kind_at(unsigned i);
/* Checks an ops table: a kind, this version, submit for a part in a request's path. Returns 0
 * or -EINVAL with err naming the kind and what is wrong. */
int iolab_comp_check(const struct iolab_comp_ops *ops, struct iolab_err *err);

struct iolab_sim;

struct iolab_comp {
	const struct iolab_comp_ops *ops;
	struct iolab_sim *sim;
	struct iolab_comp *below; /* where it sends requests; NULL for a drive */
	void *priv;
};

struct iolab_sim_now;

struct iolab_sim {
	struct iolab_evq evq;     /* events of later instants */
	struct iolab_sim_now *ring; /* events of the current instant: [0] ordinary, [1] late */
	uint64_t now;             /* ns of virtual time: the time of the event being handled */
	struct iolab_sreq **done; /* finished requests of the load, not yet collected */
	unsigned ndone, cap;
	int error;                /* the first failure (-ENOMEM) of a part, or 0 */
};

/* An empty system able to hold cap finished requests of the load. Returns 0 or -ENOMEM. */
int iolab_sim_init(struct iolab_sim *s, unsigned cap);
void iolab_sim_free(struct iolab_sim *s);

/* Schedules c->ops->event(c, what, arg) at time t (>= now); the late form after everything
 * else at t. Failures (-ENOMEM) are kept in s->error. */
void iolab_sim_at(struct iolab_comp *c, uint64_t t, unsigned what, void *arg);
void iolab_sim_at_late(struct iolab_comp *c, uint64_t t, unsigned what, void *arg);
/* r is finished now: r->from gets complete() as an event of this instant, or, when r->from is
 * NULL, r joins the load's finished requests. */
void iolab_sim_done(struct iolab_sim *s, struct iolab_sreq *r);
/* Handles the earliest event. Returns false when there is none. */
bool iolab_sim_step(struct iolab_sim *s);
/* Handles the events before t until one of the load's requests is finished (at once if one is
 * waiting) and returns now, the time it finished; with none finished, sets now to t and returns
 * t. Events at t itself stay queued. */
uint64_t iolab_sim_advance(struct iolab_sim *s, uint64_t t);

/* The components of a single drive's path. */
extern const struct iolab_comp_ops iolab_comp_host;
extern const struct iolab_comp_ops iolab_comp_drive;

/* Host part: its queue policy and time per command. */
struct iolab_host_params;
int iolab_comp_host_init(struct iolab_comp *c, struct iolab_sim *s, struct iolab_comp *below,
			 const struct iolab_host_params *p, unsigned cap, uint32_t block_bytes);
/* Drive part: a drive of model m. */
int iolab_comp_drive_init(struct iolab_comp *c, struct iolab_sim *s, const struct iolab_disk_model *m);
const struct iolab_disk_stats *iolab_comp_drive_stats(const struct iolab_comp *c);
/* Puts the drive on a channel (a link component, below), before it gets any request. */
void iolab_comp_drive_attach(struct iolab_comp *c, struct iolab_comp *link);

/* Link part (comp_link.c): a bus or a channel of type t (subsys.h), a resource the parts that
 * move data over it use; it is in no request's path. init returns 0, -EINVAL (rate or
 * efficiency out of range) or -ENOMEM. */
struct iolab_link_type;
extern const struct iolab_comp_ops iolab_comp_link;
int iolab_comp_link_init(struct iolab_comp *c, struct iolab_sim *s, const struct iolab_link_type *t);
/* Time (ns) the link needs to move bytes. */
double iolab_comp_link_time(const struct iolab_comp *c, uint64_t bytes);
/* Places a transfer of bytes, ready at `ready` and ending at `end` if the link were free and
 * fast, and returns when it ends (>= end). Times in ns of virtual time. */
uint64_t iolab_comp_link_transfer(struct iolab_comp *c, double ready, double end, uint64_t bytes);
/* Exclusive links: true if `who` holds the link now (taking it if free); otherwise `who` waits
 * and gets event `what` (late, at the instant it is given the link). */
bool iolab_comp_link_exclusive(const struct iolab_comp *c);
bool iolab_comp_link_acquire(struct iolab_comp *c, struct iolab_comp *who, unsigned what);
void iolab_comp_link_release(struct iolab_comp *c, struct iolab_comp *who);
void iolab_comp_link_report(const struct iolab_comp *c, struct iolab_comp_report *out);

/* Crossing part (comp_crossing.c): above a controller, moves each request's data over the
 * buses bus[0..nbus) (the controller's own first) store-and-forward. */
extern const struct iolab_comp_ops iolab_comp_crossing;
int iolab_comp_crossing_init(struct iolab_comp *c, struct iolab_sim *s, struct iolab_comp *below,
			     struct iolab_comp *const *bus, unsigned nbus, uint32_t block_bytes);

/* Volume part (comp_volume.c): RAID 0, 1, 10, 4, 5 or 6 over n members (drives, or other parts
 * with the same contract; built, owned and freed by the caller), each giving member_blocks of
 * block_bytes, with a stripe unit of unit_blocks (all but RAID 1), failed members failed[0],
 * failed[1] (0-based; -1: none) and a rebuild at rebuild_bytes_s (0: none). Returns 0, -EINVAL
 * (a member count or failed members the level's row of the RAID table does not allow,
 * sim/parts/raid_levels.h; level none; unit 0; a rebuild without a failed member) or -ENOMEM. */
extern const struct iolab_comp_ops iolab_comp_volume;
int iolab_comp_volume_init(struct iolab_comp *c, struct iolab_sim *s, struct iolab_comp *const *members,
			   unsigned n, uint64_t member_blocks, uint32_t block_bytes,
			   enum iolab_raid_level level, uint64_t unit_blocks, const int failed[2],
			   uint64_t rebuild_bytes_s);
/* The order in which pieces waiting for a member that is full (QUEUE FULL) are sent to it: an
 * enum iolab_host_sched, the host's policy (default: arrival order). */
void iolab_comp_volume_set_order(struct iolab_comp *c, unsigned sched);
/* Its members' blocks start at member block `blocks` (0 by default): a volume carved from an
 * array that holds others (subsystem files' offset=). Set before it gets any request. */
void iolab_comp_volume_set_offset(struct iolab_comp *c, uint64_t blocks);
/* Its members, for reports: *members gets the array, the count is returned. */
unsigned iolab_comp_volume_members(const struct iolab_comp *c, struct iolab_comp *const **members);

/* What a part did so far (its name left empty: the owner names it). */
void iolab_comp_host_report(const struct iolab_comp *c, struct iolab_comp_report *out);
void iolab_comp_volume_report(const struct iolab_comp *c, struct iolab_comp_report *out);
void iolab_comp_drive_report(const struct iolab_comp *c, struct iolab_comp_report *out);

/* Frees c's state (c->ops->cleanup). */
void iolab_comp_free(struct iolab_comp *c);

/* Controller part (comp_controller.c): a processor's time per command and a cache with
 * read-ahead and write-through or write-back with destage, above one volume or drive (below,
 * which the caller keeps and frees) of blocks blocks of block_bytes; unit_blocks is the volume's
 * stripe unit (0: a single drive): the default read-ahead, and the destage limit. The cache's
 * memory grows with the lines the load touches (at most iolab_ctl_cache_max_bytes). Returns 0,
 * -EINVAL (no below, no blocks, a cache smaller than one 4 KiB line), -E2BIG (more lines in use
 * than 32-bit indices reach) or -ENOMEM. */
struct iolab_ctl_params;
extern const struct iolab_comp_ops iolab_comp_controller;
int iolab_comp_controller_init(struct iolab_comp *c, struct iolab_sim *s, struct iolab_comp *below,
			       const struct iolab_ctl_params *p, uint64_t blocks, uint32_t block_bytes,
			       uint64_t unit_blocks);
/* The data blocks of one stripe row of the volume below (RAID 5: (n - 1) x unit; RAID 0: n x
 * unit): destage writes are then whole rows where the dirty data allows, cut at row boundaries
 * (default: the stripe unit). */
void iolab_comp_controller_set_row(struct iolab_comp *c, uint64_t row_blocks);
void iolab_comp_controller_report(const struct iolab_comp *c, struct iolab_comp_report *out);
/* Bytes written by the host into the cache that are not yet on the part below (dirty, or being
 * destaged). */
uint64_t iolab_comp_controller_dirty_bytes(const struct iolab_comp *c);
/* The most memory the simulator can take for the cache of p above blocks blocks of block_bytes:
 * its line records for the lines that can be in use (no more than cover the blocks below). */
uint64_t iolab_ctl_cache_max_bytes(const struct iolab_ctl_params *p, uint64_t blocks,
				   uint32_t block_bytes);
/* What the controller will not do as asked ("write-back without a battery: acting as
 * write-through", ...), for the engine to print as a warning; NULL: nothing. */
const char *iolab_ctl_warning(const struct iolab_ctl_params *p);

#endif
