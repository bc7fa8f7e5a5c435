/* subsys_build.h: a subsystem description built into components (subsys_build.c), for the sim
 * engine. */
#ifndef IOLAB_SUBSYS_BUILD_H
#define IOLAB_SUBSYS_BUILD_H

#include "iolab/sim_system.h"
#include "iolab/subsys.h"

struct part;

struct iolab_path {
	struct iolab_sim *sim;
	struct iolab_comp host;       /* the top */
	struct part *part;            /* every other part, n of them */
	unsigned n;
	struct iolab_comp **drive;    /* per device of the description */
	struct iolab_comp **member;   /* per device: what its volumes send to (its share part when
					 several volumes use it, else the device) */
	unsigned ndrive;
};

/* Builds s's path on sim, the host able to hold cap requests. Returns 0, or -EINVAL/-ENOMEM
 * with err saying what could not be built. */
int iolab_path_build(struct iolab_path *p, struct iolab_sim *sim, const struct iolab_subsys *s,
		     unsigned cap, struct iolab_err *err);
void iolab_path_free(struct iolab_path *p);
/* What each part did: host, host stripe, buses, controllers, volumes, channels, drives, into
 * out[0..max); returns how many parts there are (max 0: only the count). */
unsigned iolab_path_reports(const struct iolab_path *p, struct iolab_comp_report *out, unsigned max);

#endif
