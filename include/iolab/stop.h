/* stop.h: the process's request to stop (src/util/stop.c), set by signal handlers and read by
 * the runner, the workers and the cluster layer. */
#ifndef IOLAB_STOP_H
#define IOLAB_STOP_H

#include <signal.h>

/* Set from a signal handler, to the signal's number, to stop the run after the current point
 * (which is marked partial). SIGTERM also removes the scratch files the run created and, across
 * MPI ranks, ends the job (cluster.h): a handler that sees SIGTERM after another signal sets it
 * to SIGTERM. */
extern volatile sig_atomic_t iolab_stop_requested;

#endif
