/* cond.h: condition variables whose timed waits run on CLOCK_MONOTONIC.
 *
 * pthread_cond_timedwait() takes an absolute deadline on the condition's clock, CLOCK_REALTIME
 * unless pthread_condattr_setclock(3) chose another. The wall clock steps (NTP, `date -s`, a
 * virtual machine resumed): a deadline on it then ends a wait early or makes it last until the
 * clock has caught up again, hours maybe. CLOCK_MONOTONIC does not step (clock_gettime(2)), so
 * every timed wait in iolab initialises its condition with iolab_cond_init() and waits with
 * iolab_cond_wait_ns(), which take the deadline on that clock.
 */
#ifndef IOLAB_COND_H
#define IOLAB_COND_H

#include <pthread.h>
#include <stdint.h>

/* Initialises a (pthread_condattr_init) for conditions that time their waits on CLOCK_MONOTONIC;
 * returns 0 or the error number (the caller destroys a on success). */
int iolab_condattr_monotonic(pthread_condattr_t *a);

/* Initialises c with such attributes; returns 0 or the error number. */
int iolab_cond_init(pthread_cond_t *c);

/* Waits on c (m locked by the caller) until signalled or ns nanoseconds have passed on
 * CLOCK_MONOTONIC; returns 0, or ETIMEDOUT. c must come from iolab_cond_init(). A wake-up may be
 * spurious, as with any condition: the caller tests what it waits for again. */
int iolab_cond_wait_ns(pthread_cond_t *c, pthread_mutex_t *m, uint64_t ns);

#endif
