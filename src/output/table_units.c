/* table_units.c: latencies as the tables print them: scaled per value to the unit that keeps
 * them short (us below a millisecond, ms below a second, else s) and followed by that unit, so
 * that 44474.0 us reads "44.5 ms". The JSON and CSV keep microseconds. */
#include <stdio.h>

#include "output_common.h"

const char *table_lat(double us, char *buf, size_t n)
{
	double v = us;
	const char *unit = "us";
	if (us >= 1e6) {
		v = us / 1e6;
		unit = "s";
	} else if (us >= 999.95) { /* 999.96 us is "1.00 ms", not "1000.0 us" */
		v = us / 1e3;
		unit = "ms";
	}
	int dec = unit[0] == 'u' ? 1 : v < 9.995 ? 2 : v < 99.95 ? 1 : v < 999.5 ? 1 : 0;
	snprintf(buf, n, "%.*f %s", dec, v, unit);
	return buf;
}
