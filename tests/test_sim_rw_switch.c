/* test_sim_rw_switch.c: the switch between reading and writing on one track (disk.c move_ns,
 * model field read_write_switch_ms), against times worked out by hand.
 *
 * An MR head reads and writes with two elements a little apart across the track; the servo
 * puts the one in use on the track's centre, so going from writing to reading a track (or back)
 * moves the head by that offset and settles it (the "microjog"), the way a switch to another
 * head does. iolab charges read_write_switch_ms for it, the head switch time unless the model
 * gives another; 0 is DiskSim 4.0's drive, which has no such step. A seek or a head switch
 * covers it (the head settles on the new track with the element it needs).
 *
 * The drive is tests/data/zero-latency.model with in-order access: 10 ms a revolution, 100
 * sectors a track (0.1 ms a sector), no skews (block b on track b / 100 at sector b mod 100,
 * angle (b mod 100) / 100; tracks 0 and 1 are cylinder 0, tracks 2 and 3 cylinder 1), head
 * switch 0.5 ms, 1-cylinder seek 1 ms, write settle 0.5 ms, no cache (writes go to the media),
 * no overheads, no interface time: a request ends when its last sector has passed. The head is
 * at angle (t / 10 ms) mod 1; a new drive starts on track 0, last having read.
 */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <cmocka.h>

#include "helpers.h"
#include "iolab/disk_model.h"
#include "iolab/disk_sim.h"

#define US 1000ull    /* ns */
#define MS 1000000ull /* ns */

/* The test drive; rw_us >= 0 sets read_write_switch_ms in its file, -1 leaves it out. */
static void open_model(struct iolab_disk_model *m, long rw_us)
{
	char path[1024], *text, extra[64] = "";
	size_t len;
	th_data_path(path, sizeof(path), "zero-latency.model");
	text = th_read_file(path, &len);
	assert_non_null(text);
	if (rw_us >= 0)
		snprintf(extra, sizeof(extra), "read_write_switch_ms = %.3f\n", (double)rw_us / 1e3);
	char *at = strstr(text, "bus_us_per_block");
	assert_non_null(at);
	char *both = malloc(len + sizeof(extra));
	assert_non_null(both);
	snprintf(both, len + sizeof(extra), "%.*s%s%s", (int)(at - text), text, extra, at);
	struct iolab_err err;
	if (iolab_model_parse("zero-latency.model", both, m, &err)) {
		print_error("%s\n", err.msg);
		fail();
	}
	free(both);
	free(text);
	m->zero_latency_read = m->zero_latency_write = false;
}

/* Serves the requests (lbn, blocks, write, arrival) one after the other on one new drive and
 * returns the last one's service time (ns). */
struct rq {
	uint64_t lbn;
	uint32_t blocks;
	bool write;
	uint64_t at;
};

static uint64_t last_service(long rw_us, const struct rq *rq, unsigned n)
{
	struct iolab_disk_model m;
	open_model(&m, rw_us);
	struct iolab_disk *d = iolab_disk_new(&m);
	assert_non_null(d);
	uint64_t t = 0;
	for (unsigned i = 0; i < n; i++) {
		struct iolab_disk_req r = {.lbn = rq[i].lbn, .blocks = rq[i].blocks,
					   .write = rq[i].write, .t_arrive = rq[i].at};
		assert_int_equal(iolab_disk_submit(d, &r), 0);
		assert_ptr_equal(iolab_disk_next(d), &r);
		t = r.t_done - r.t_arrive;
	}
	iolab_disk_free(d);
	iolab_model_free(&m);
	return t;
}

/* Without the field the switch takes the head switch time; the file keeps a given value and
 * writes it back, and leaves it out when not given. */
static void test_field(void **state)
{
	(void)state;
	struct iolab_disk_model m;
	open_model(&m, -1);
	assert_int_equal(m.rw_switch_ns, 500 * US);
	char buf[8192];
	FILE *f = fmemopen(buf, sizeof(buf), "w");
	assert_non_null(f);
	assert_int_equal(iolab_model_write(&m, f), 0);
	fclose(f);
	assert_null(strstr(buf, "read_write_switch_ms"));
	iolab_model_free(&m);

	open_model(&m, 150);
	assert_int_equal(m.rw_switch_ns, 150 * US);
	f = fmemopen(buf, sizeof(buf), "w");
	assert_non_null(f);
	assert_int_equal(iolab_model_write(&m, f), 0);
	fclose(f);
	assert_non_null(strstr(buf, "read_write_switch_ms = 0.150000\n"));
	iolab_model_free(&m);

	/* an imported DiskSim drive takes its head switch time (Atlas 10K: 0.176 ms) */
	struct iolab_err err;
	assert_int_equal(iolab_model_open("atlas10k", &m, &err), 0);
	assert_int_equal(m.rw_switch_ns, m.head_switch_ns);
	assert_int_equal(m.rw_switch_ns, 176 * US);
	iolab_model_free(&m);
}

/* Blocks 0..9 written at 0 on a new drive (the head last read track 0, at angle 0):
 *   switch 0.5 ms + write settle 0.5 ms: lands at 1.0 ms, angle 0.1, sector 0 has passed:
 *   wait 9 ms, write 1 ms: 11 ms. DiskSim's drive (switch 0): sector 0 starts at once, 1 ms. */
static void test_write_after_read(void **state)
{
	(void)state;
	const struct rq w = {0, 10, true, 0};
	assert_int_equal(last_service(-1, &w, 1), 11 * MS);
	assert_int_equal(last_service(0, &w, 1), 1 * MS);
}

/* After that write, blocks 2..11 read at 20 ms (angle 0, the write element on track 0):
 *   switch 0.5 ms: at 20.5 ms, angle 0.05, sector 2 (angle 0.02) has passed: wait 9.7 ms,
 *   read 1 ms: 11.2 ms. With read_write_switch_ms = 0.15: at 20.15 ms, angle 0.015: wait
 *   0.05 ms, read 1 ms: 1.2 ms. DiskSim's drive: wait 0.2 ms, read 1 ms: 1.2 ms.
 * The same read after a read of blocks 0..9 has no switch: 1.2 ms. */
static void test_read_after_write(void **state)
{
	(void)state;
	const struct rq wr[] = {{0, 10, true, 0}, {2, 10, false, 20 * MS}};
	assert_int_equal(last_service(-1, wr, 2), 11200 * US);
	assert_int_equal(last_service(150, wr, 2), 1200 * US);
	assert_int_equal(last_service(0, wr, 2), 1200 * US);
	const struct rq rr[] = {{0, 10, false, 0}, {2, 10, false, 20 * MS}};
	assert_int_equal(last_service(-1, rr, 2), 1200 * US);
}

/* After that write, block 212 (cylinder 1, surface 0, sector 12) read at 20 ms: the 1 ms seek
 * covers the switch: at 21 ms, angle 0.1: wait 0.2 ms, read 0.1 ms: 1.3 ms (a switch added to
 * the seek would land at 21.5 ms, past sector 12, and take 10.8 ms). Block 112 (cylinder 0,
 * surface 1): the head switch covers it: at 20.5 ms, angle 0.05: wait 0.7 ms, read 0.1 ms:
 * 1.3 ms. */
static void test_seek_covers_switch(void **state)
{
	(void)state;
	const struct rq other_cyl[] = {{0, 10, true, 0}, {212, 1, false, 20 * MS}};
	assert_int_equal(last_service(-1, other_cyl, 2), 1300 * US);
	const struct rq other_head[] = {{0, 10, true, 0}, {112, 1, false, 20 * MS}};
	assert_int_equal(last_service(-1, other_head, 2), 1300 * US);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_field),
		cmocka_unit_test(test_write_after_read),
		cmocka_unit_test(test_read_after_write),
		cmocka_unit_test(test_seek_covers_switch),
	};
	return cmocka_run_group_tests(tests, NULL, NULL);
}
