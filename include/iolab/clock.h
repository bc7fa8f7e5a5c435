/* clock.h: wall-clock time for real runs, in nanoseconds since an arbitrary start
 * (CLOCK_MONOTONIC through the vDSO; a TSC-backed clocksource makes it a few ns). */
#ifndef IOLAB_CLOCK_H
#define IOLAB_CLOCK_H

#include <stdint.h>
#include <time.h>

static inline uint64_t iolab_clock_ns(void)
{
	struct timespec ts;
	clock_gettime(CLOCK_MONOTONIC, &ts);
	return (uint64_t)ts.tv_sec * 1000000000u + (uint64_t)ts.tv_nsec;
}

#endif
