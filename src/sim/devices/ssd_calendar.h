/* ssd_calendar.h: the busy times of one resource of the simulated SSD that carries one transfer
 * at a time (a flash channel, the host interface), as the intervals reserved on it from now on,
 * so that a transfer whose data is ready earlier than one placed before it can use the idle
 * time before that one (reservations are made in the order commands arrive, not the order
 * their data is ready). Touching intervals are merged: a saturated resource is one interval. */
#ifndef IOLAB_SSD_CALENDAR_H
#define IOLAB_SSD_CALENDAR_H

#include <stdbool.h>
#include <stdint.h>

struct ssd_calendar {
	uint64_t *start, *end; /* sorted, disjoint; [head, head + n) of cap (a ring) */
	uint32_t head, n, cap;
	uint64_t last_end;     /* the end of the latest interval (0: none yet) */
	bool *nomem;           /* set when an interval could not be kept (it went after the last);
				  NULL: nobody is told */
};

/* Places x ns at the earliest time >= t at which the resource is idle for x, intervals ending
 * at or before now forgotten, and returns its start. When memory runs out it is placed after
 * the last interval and *nomem is set. */
uint64_t ssd_calendar_place(struct ssd_calendar *c, uint64_t now, uint64_t t, uint64_t x);
/* The reserved time after t of the intervals it holds (those ending after the last place's now):
 * what a report at t clips from the resource's busy time, the work reserved ahead of the clock. */
uint64_t ssd_calendar_after(const struct ssd_calendar *c, uint64_t t);
void ssd_calendar_free(struct ssd_calendar *c);

#endif
