/* clock.c: choice and calibration of the clock source (see clock.h). */
#include <pthread.h>
#include <stdio.h>
#include <string.h>

#include "iolab/clock.h"

struct iolab_clock iolab_clock;

static bool kernel_uses_tsc(void)
{
	FILE *f = fopen("/sys/devices/system/clocksource/clocksource0/current_clocksource", "r");
	if (!f)
		return false;
	char name[32] = "";
	bool yes = fgets(name, sizeof(name), f) && !strncmp(name, "tsc", 3) && name[3] == '\n';
	fclose(f);
	return yes;
}

/* True if the CPU flags say the TSC is invariant (constant rate, running in every power state)
 * and the kernel was told it is reliable (a hypervisor's guarantee that it is synchronised
 * across CPUs): KVM guests keep time with kvm-clock yet have such a TSC. */
static bool cpu_says_tsc_reliable(void)
{
	FILE *f = fopen("/proc/cpuinfo", "r");
	if (!f)
		return false;
	static char line[8192];
	bool found = false;
	while (!found && fgets(line, sizeof(line), f))
		found = !strncmp(line, "flags", 5);
	fclose(f);
	if (!found)
		return false;
	static const char *const need[] = {" constant_tsc", " nonstop_tsc", " tsc_reliable"};
	line[strcspn(line, "\n")] = ' ';
	for (unsigned i = 0; i < 3; i++) {
		char word[32];
		snprintf(word, sizeof(word), "%s ", need[i]);
		if (!strstr(line, word))
			return false;
	}
	return true;
}

static void calibrate(void)
{
#if defined(__x86_64__)
	if (!kernel_uses_tsc() && !cpu_says_tsc_reliable())
		return;
	uint64_t t0 = iolab_clock_mono_ns(), c0 = __rdtsc();
	struct timespec pause = {0, 20 * 1000 * 1000};
	nanosleep(&pause, NULL);
	uint64_t t1 = iolab_clock_mono_ns(), c1 = __rdtsc();
	if (c1 <= c0 || t1 <= t0)
		return;
	iolab_clock.mult = (uint64_t)(((unsigned __int128)(t1 - t0) << 32) / (c1 - c0));
	iolab_clock.base_tsc = c1;
	iolab_clock.base_ns = t1;
	iolab_clock.tsc = iolab_clock.mult != 0;
#endif
}

void iolab_clock_init(void)
{
	static pthread_once_t once = PTHREAD_ONCE_INIT;
	pthread_once(&once, calibrate);
}
