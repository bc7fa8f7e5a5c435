/* cond.c: condition variables timed on CLOCK_MONOTONIC (cond.h). */
#include <errno.h>
#include <time.h>

#include "iolab/cond.h"

int iolab_condattr_monotonic(pthread_condattr_t *a)
{
	int rc = pthread_condattr_init(a);
	if (rc)
		return rc;
	rc = pthread_condattr_setclock(a, CLOCK_MONOTONIC);
	if (rc)
		pthread_condattr_destroy(a);
	return rc;
}

int iolab_cond_init(pthread_cond_t *c)
{
	pthread_condattr_t a;
	int rc = iolab_condattr_monotonic(&a);
	if (rc)
		return rc;
	rc = pthread_cond_init(c, &a);
	pthread_condattr_destroy(&a);
	return rc;
}

int iolab_cond_wait_ns(pthread_cond_t *c, pthread_mutex_t *m, uint64_t ns)
{
	if (ns > UINT64_C(1) << 62) /* far enough, and tv_sec cannot overflow */
		ns = UINT64_C(1) << 62;
	struct timespec ts;
	clock_gettime(CLOCK_MONOTONIC, &ts); /* the clock iolab_condattr_monotonic() set */
	ts.tv_sec += (time_t)(ns / 1000000000);
	ts.tv_nsec += (long)(ns % 1000000000);
	if (ts.tv_nsec >= 1000000000) {
		ts.tv_sec++;
		ts.tv_nsec -= 1000000000;
	}
	int rc = pthread_cond_timedwait(c, m, &ts);
	return rc == ETIMEDOUT ? ETIMEDOUT : 0;
}
