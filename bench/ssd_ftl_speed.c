/* ssd_ftl_speed.c: how fast the SSD's flash translation layer (src/sim/devices/ssd_ftl.h) is,
 * without time or a device around it: builds an FTL of CAPACITY_GIB logical GiB in 16 KiB pages
 * (8 channels x 2 chips x 2 dies x 2 planes, 512 pages a block, as the built-in nvme-ssd;
 * SPARE_PCT spare as MQSim's Overprovisioning_Ratio, GC_PCT of each plane's blocks kept free as
 * its GC_Exec_Threshold), preconditions it SEQUENTIAL and then STEADY, then does WRITES uniform random single-page writes
 * under greedy GC, and prints one line:
 *
 *   ssd_ftl gib=G logical_pages=N sequential_s=S steady_s=S writes=W writes_per_s=X wa=A
 *
 * Built as build/bench/ssd_ftl_speed.
 *
 * Usage: ssd_ftl_speed [CAPACITY_GIB [SPARE_PCT [GC_PCT [WRITES]]]]
 *        (defaults 1024, 7, 0.1, 10000000; exit status 2 on bad input) */
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <time.h>

#include "iolab/prng.h"
#include "iolab/ssd_model.h"
#include "sim/devices/ssd_ftl.h"

static double seconds(void)
{
	struct timespec ts;
	clock_gettime(CLOCK_MONOTONIC, &ts);
	return (double)ts.tv_sec + (double)ts.tv_nsec / 1e9;
}

int main(int argc, char **argv)
{
	double gib = argc > 1 ? atof(argv[1]) : 1024, spare = argc > 2 ? atof(argv[2]) / 100 : 0.07;
	double gc_pct = argc > 3 ? atof(argv[3]) : 0.1;
	uint64_t writes = argc > 4 ? strtoull(argv[4], NULL, 10) : 10000000;
	if (argc > 5 || gib <= 0 || spare <= 0 || spare >= 1 || gc_pct < 0) {
		fprintf(stderr, "usage: ssd_ftl_speed [CAPACITY_GIB [SPARE_PCT [GC_PCT [WRITES]]]]\n");
		return 2;
	}
	struct ssd_ftl_params p = {
		.channels = 8, .chips = 2, .dies = 2, .planes = 2, .pages_per_block = 512,
		.logical_pages = (uint64_t)(gib * 65536), .gc_policy = IOLAB_GC_GREEDY,
		.allocation = IOLAB_ALLOC_STATIC, .order = "CWDP", .seed = 1,
	};
	unsigned planes = p.channels * p.chips * p.dies * p.planes;
	double physical = (double)p.logical_pages / (1 - spare);
	p.blocks_per_plane = (uint32_t)(physical / planes / p.pages_per_block + 1);
	p.gc_free_blocks = (uint32_t)(p.blocks_per_plane * gc_pct / 100);
	if (p.gc_free_blocks < 1)
		p.gc_free_blocks = 1;
	struct ssd_ftl *f;
	struct iolab_err err;
	if (ssd_ftl_new(&f, &p, &err)) {
		fprintf(stderr, "ssd_ftl_speed: %s\n", err.msg);
		return 2;
	}
	double t0 = seconds();
	if (ssd_ftl_precondition(f, SSD_FILL_SEQUENTIAL))
		return 1;
	double t1 = seconds();
	if (ssd_ftl_precondition(f, SSD_FILL_STEADY))
		return 1;
	double t2 = seconds();
	struct iolab_prng r;
	iolab_prng_seed(&r, 2);
	for (uint64_t i = 0; i < writes; i++) {
		struct ssd_gc_work gc = {0};
		uint32_t page;
		ssd_ftl_write(f, iolab_prng_below(&r, p.logical_pages), UINT32_MAX, &page, &gc);
	}
	double t3 = seconds();
	struct ssd_ftl_stats st;
	ssd_ftl_stats(f, &st);
	printf("ssd_ftl gib=%g logical_pages=%llu sequential_s=%.3f steady_s=%.3f writes=%llu "
	       "writes_per_s=%.0f wa=%.3f\n", gib, (unsigned long long)p.logical_pages, t1 - t0, t2 - t1,
	       (unsigned long long)writes, (double)writes / (t3 - t2),
	       st.host_pages ? (double)(st.host_pages + st.gc_pages) / (double)st.host_pages : 0);
	ssd_ftl_free(f);
	return 0;
}
