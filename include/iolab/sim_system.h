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

#define IOLAB_COMP_OPS_VERSION 1

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
};

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

/* Volume part (comp_volume.c): RAID 0, 1 or 5 over n drives of model m, with a stripe unit of
 * unit_blocks (RAID 0 and 5), and drive failed (0-based; -1: none) failed. Returns 0, -EINVAL
 * (n not 1..64, or below 3 for RAID 5; unit 0; another level; a failed drive on RAID 0 or out of
 * range) or -ENOMEM. */
extern const struct iolab_comp_ops iolab_comp_volume;
int iolab_comp_volume_init(struct iolab_comp *c, struct iolab_sim *s, const struct iolab_disk_model *m,
			   enum iolab_raid_level level, unsigned n, uint64_t unit_blocks, int failed);
/* Its drives: *drives gets the array, the count is returned. */
unsigned iolab_comp_volume_drives(const struct iolab_comp *c, const struct iolab_comp **drives);

/* What a part did so far (its name left empty: the owner names it). */
void iolab_comp_host_report(const struct iolab_comp *c, struct iolab_comp_report *out);
void iolab_comp_volume_report(const struct iolab_comp *c, struct iolab_comp_report *out);
void iolab_comp_drive_report(const struct iolab_comp *c, struct iolab_comp_report *out);

/* Frees c's state (c->ops->cleanup). */
void iolab_comp_free(struct iolab_comp *c);

#endif
