/* clock.h: wall-clock time for real runs, in nanoseconds since an arbitrary start.
 *
 * Where the kernel itself keeps time with the TSC (its clocksource is "tsc", which it selects
 * only when the counter is constant-rate and synchronised across CPUs), or where the CPU flags
 * say the TSC is invariant (constant_tsc, nonstop_tsc) and reliable (tsc_reliable: a
 * hypervisor's word, as on KVM guests that keep time with kvm-clock), iolab reads the TSC
 * directly and scales it by a factor calibrated against CLOCK_MONOTONIC: about 11 ns a read
 * instead of 27 through the vDSO on a KVM guest, which matters at millions of I/Os per second
 * (fio also times with an invariant TSC). Elsewhere it uses CLOCK_MONOTONIC. Call
 * iolab_clock_init() once before timing anything.
 */
#ifndef IOLAB_CLOCK_H
#define IOLAB_CLOCK_H

#include <stdbool.h>
#include <stdint.h>
#include <time.h>
#if defined(__x86_64__)
#include <x86intrin.h>
#endif

struct iolab_clock {
	bool tsc;
	uint64_t base_tsc, base_ns;
	uint64_t mult; /* ns per tick, fixed point 32.32 */
};
extern struct iolab_clock iolab_clock;

/* Chooses the source and calibrates the TSC (about 20 ms, once per process). */
void iolab_clock_init(void);

static inline uint64_t iolab_clock_mono_ns(void)
{
	struct timespec ts;
	clock_gettime(CLOCK_MONOTONIC, &ts);
	return (uint64_t)ts.tv_sec * 1000000000u + (uint64_t)ts.tv_nsec;
}

static inline uint64_t iolab_clock_ns(void)
{
#if defined(__x86_64__)
	if (iolab_clock.tsc) {
		uint64_t d = __rdtsc() - iolab_clock.base_tsc;
		return iolab_clock.base_ns + (uint64_t)(((unsigned __int128)d * iolab_clock.mult) >> 32);
	}
#endif
	return iolab_clock_mono_ns();
}

#endif
