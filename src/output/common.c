/* common.c: the percentile list shared by the output formats. */
#include "iolab/output.h"

const double iolab_pct_value[IOLAB_NPCT] = {1, 5, 10, 25, 50, 75, 90, 95, 99, 99.9, 99.99};
const char *const iolab_pct_key[IOLAB_NPCT] = {"p1",  "p5",  "p10", "p25",  "p50",   "p75",
					       "p90", "p95", "p99", "p99.9", "p99.99"};
