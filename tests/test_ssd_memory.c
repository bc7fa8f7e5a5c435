/* test_ssd_memory.c: a simulated SSD takes memory for the parts of its map the load touches,
 * not for its capacity.
 *
 * Covered: random reads of a fresh 1 TB nvme-ssd (61 M logical pages: a flat map of 4 bytes a
 * page would be 244 MB, and random reads touch a 4 KiB page of it each until it is all in) run
 * in a few tens of MiB: the map's directory is only read (the kernel's zero page), its chunks
 * are taken when a page is first written (the peak resident size of the run, from the kernel's
 * accounting of the children: one child, so its own): under 64 MiB (160 MiB with
 * AddressSanitizer); with a flat map it was 181 MiB (and more with AddressSanitizer). */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>

#include <cmocka.h>

#include "helpers.h"

static void test_fresh_ssd_reads_take_no_map(void **state)
{
	(void)state;
	struct th_out o = th_iolab("sim", "--model", "nvme-ssd", "--pattern", "rand-read", "--bs", "4k",
				   "--qd", "32", "--time", "0.2", "--no-db", "--quiet", NULL);
	assert_int_equal(o.status, 0);
	th_out_free(&o);
	/* 0.2 s of reads at 366K IOPS: 73K reads, over 45K of the flat map's 60K pages (180 MB);
	 * the blocks' records are 6 MB */
	th_expect_children_rss(64 * 1024, 160 * 1024);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_fresh_ssd_reads_take_no_map),
	};
	return cmocka_run_group_tests(tests, th_dir_setup, th_dir_teardown);
}
