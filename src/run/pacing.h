/* pacing.h: when a worker may issue its next request (pacing.c). Three load models:
 *  - closed loop (--qd N): a request as soon as a slot is free;
 *  - closed-loop clients (--clients N --think T): each client waits T (fixed, or drawn from an
 *    exponential distribution of mean T) after its request completed before it issues the next;
 *  - open loop (--rate R): requests arrive at R per second, evenly spaced or as a Poisson
 *    process, whatever the device does; one that finds no free slot is issued late, but its
 *    intended time stays its arrival time;
 *  - a timed trace (iolab replay --mode timed): an open loop whose arrivals are the trace's
 *    recorded issue times, set one at a time by the worker from its trace (pace_set_next).
 * The worker asks for the earliest due time, takes requests whose time has come into free slots,
 * and tells the pacer when one completed. Internal to src/run. */
#ifndef IOLAB_RUN_PACING_H
#define IOLAB_RUN_PACING_H

#include <stdbool.h>
#include <stdint.h>

#include "iolab/prng.h"

enum pace_kind { PACE_QD, PACE_CLIENTS, PACE_RATE, PACE_TRACE };

/* What a worker's load looks like. */
struct pace_params {
	enum pace_kind kind;
	uint64_t think_ns;   /* PACE_CLIENTS: think time (the mean if think_exp) */
	bool think_exp;
	double rate;         /* PACE_RATE: this worker's arrivals per second */
	bool poisson;        /* PACE_RATE: exponential gaps instead of even spacing */
	double phase;        /* PACE_RATE: the first arrival after t0, as a fraction of a gap
				(workers of one point are spread over a gap) */
	uint64_t seed;
};

struct pace {
	struct pace_params p;
	struct iolab_prng rng;
	uint64_t t0;
	uint64_t *heap;      /* PACE_CLIENTS: due times of the clients not in flight (a min-heap);
				otherwise requests given back (pace_untake), latest first */
	unsigned n, cap;
	double next_ns;      /* PACE_RATE: the next arrival, ns after t0 */
	double gap_ns;       /* PACE_RATE: the mean gap */
	uint64_t trace_due;  /* PACE_TRACE: the next request's intended time (UINT64_MAX: none) */
};

/* Sets up a pacer for a worker with slots request slots. Returns 0 or -ENOMEM. */
int pace_init(struct pace *pc, const struct pace_params *p, unsigned slots);
/* Starts the load at t0: every client ready at t0, the first arrival at t0 (plus the phase). */
void pace_start(struct pace *pc, uint64_t t0);
void pace_free(struct pace *pc);

/* The time the next request may be issued: 0 for a closed loop (at once), UINT64_MAX when every
 * client is in flight. */
uint64_t pace_due(const struct pace *pc);
/* Takes that request; returns its intended time (0 for a closed loop). */
uint64_t pace_take(struct pace *pc);
/* Gives back a request taken but not started (intended time t); several go back in the reverse
 * of the order they were taken. */
void pace_untake(struct pace *pc, uint64_t t);
/* A request completed at now: its client starts thinking. */
void pace_done(struct pace *pc, uint64_t now);
/* PACE_TRACE: the next request is intended rel_ns after t0 (UINT64_MAX: there is none). */
void pace_set_next(struct pace *pc, uint64_t rel_ns);

#endif
