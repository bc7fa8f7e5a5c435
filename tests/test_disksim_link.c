/* test_disksim_link.c: a drive letting go of the interface and reconnecting (disk_xfer.c,
 * disk.c), from the DiskSim 4.0 manual 3.4.5 pp16-24: Never disconnect, Hold bus entire read
 * xfer, High (read) water mark with Set watermark by reqsize, Immed transfer partial hit, Data
 * preparation, First/Other reselect, Read disconnect and Write disconnect overheads, Disconnect
 * write if seek, Minimum seek delay and Extra write disconnect with its Extradisc values.
 *
 *  - the transfer rule on its own, with blocks buffered at 1, 2, 3 and 4 ms and 0.1 ms a block
 *    on the interface, each figure worked out by hand in its comment;
 *  - the importer's mapping (tests/data/disksim-specs/link.diskspecs) and the model file;
 *  - through the drive: the extra time each setting adds to the same requests.
 */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <string.h>

#include <cmocka.h>

#include "helpers.h"
#include "iolab/disk_model.h"
#include "iolab/disk_sim.h"
#include "iolab/disksim_import.h"
#include "sim/devices/disk_xfer.h"

#define US 1000.0 /* ns */

/* A read of 4 blocks buffered at 1, 2, 3, 4 ms (or all at 0: a hit), command over at 0. */
static double xfer4(const struct iolab_disk_model *m, bool hit, bool after_write)
{
	struct iolab_xfer x;
	iolab_xfer_start(&x, m, after_write, 4, 0, hit);
	for (int k = 0; k < 4; k++)
		iolab_xfer_block(&x, hit ? 0 : (k + 1) * 1000 * US);
	return iolab_xfer_end(&x) / US;
}

static struct iolab_disk_model plain(void)
{
	struct iolab_disk_model m = {.bus_ns_per_block = 100000, .segment_blocks = 4};
	return m;
}

static void test_transfer_rule(void **state)
{
	(void)state;
	struct iolab_disk_model m = plain();
	/* each block as soon as it is buffered: the last at 4000 + 100 */
	assert_int_equal(xfer4(&m, false, false), 4100);
	/* first reselect 300 us: block 0 at 1300..1400; then disconnected until each next block,
	 * reselecting in 50 us: the last goes at 4050..4150 */
	m.ovh_reselect[0] = 300000;
	m.ovh_reselect[1] = 50000;
	assert_int_equal(xfer4(&m, false, false), 4150);
	/* holding the interface once reconnected: no later reselection */
	m.hold_bus_read = true;
	assert_int_equal(xfer4(&m, false, false), 4100);
	m.hold_bus_read = false;
	/* never disconnecting: no reselection at all */
	m.never_disconnect = true;
	assert_int_equal(xfer4(&m, false, false), 4100);
	m.never_disconnect = false;
	/* water mark 1.0 of the request: reconnect when all 4 are in, 4000 + 300, then 4 x 100 */
	m.read_water_mark = 1;
	m.water_mark_by_request = true;
	assert_int_equal(xfer4(&m, false, false), 4700);
	/* water mark 0.5 of a 4-block segment: 2 blocks; 2000 + 300 + 200 = 2500, then disconnected
	 * for blocks 2 and 3: 4000 + 50 + 200 = 4250 */
	m.read_water_mark = 0.5;
	m.water_mark_by_request = false;
	assert_int_equal(xfer4(&m, false, false), 4250);
	m.read_water_mark = 0;
	m.ovh_reselect[0] = m.ovh_reselect[1] = 0;
	/* data preparation 200 us before the first block of a hit: 200 + 4 x 100 */
	m.ovh_data_prep = 200000;
	assert_int_equal(xfer4(&m, true, false), 600);
	m.ovh_data_prep = 0;
	/* read disconnect 1500 us after a read: disconnected at 0 until 1500, block 0 1500..1600;
	 * block 1 (2000) not in at 1600: until 3100, block 1 3100..3200, block 2 (3000) at once
	 * 3200..3300; block 3 (4000): until 3300 + 1500, 4800..4900. After a write: none. */
	m.ovh_read_disconnect[0] = 1500000;
	assert_int_equal(xfer4(&m, false, false), 4900);
	assert_int_equal(xfer4(&m, false, true), 4100);
}

static void test_import(void **state)
{
	(void)state;
	struct iolab_disk_model m, b;
	struct iolab_err err = {{0}};
	th_import_spec("link.diskspecs", &m);
	assert_false(m.never_disconnect);
	assert_true(m.hold_bus_read);
	assert_true(m.read_water_mark == 0.5);
	assert_true(m.water_mark_by_request);
	assert_true(m.partial_hit_waits); /* Immed transfer partial hit = 0 */
	assert_true(m.write_disconnect_if_seeking);
	assert_int_equal(m.ovh_data_prep, 20000);
	assert_int_equal(m.ovh_reselect[0], 300000);
	assert_int_equal(m.ovh_reselect[1], 50000);
	assert_int_equal(m.ovh_read_disconnect[0], 40000);
	assert_int_equal(m.ovh_read_disconnect[1], 60000);
	assert_int_equal(m.ovh_write_disconnect, 70000);
	assert_int_equal(m.min_write_delay_ns, 2500000);
	assert_true(m.extra_write_disconnect);
	assert_int_equal(m.extradisc_ns[0], 500000);
	assert_int_equal(m.extradisc_ns[2], 200000);
	assert_int_equal(m.extradisc_ns[4], 10000);
	/* the model file keeps them */
	char buf[16384];
	FILE *f = fmemopen(buf, sizeof(buf), "w");
	assert_int_equal(iolab_model_write(&m, f), 0);
	fclose(f);
	assert_non_null(strstr(buf, "overhead_reselect_ms = 0.300000 0.050000\n"));
	assert_int_equal(iolab_model_parse("rt.model", buf, &b, &err), 0);
	assert_true(b.hold_bus_read && b.water_mark_by_request && b.partial_hit_waits &&
		    b.write_disconnect_if_seeking && !b.never_disconnect);
	assert_true(b.read_water_mark == 0.5);
	assert_int_equal(b.ovh_data_prep, m.ovh_data_prep);
	assert_int_equal(b.ovh_reselect[1], m.ovh_reselect[1]);
	assert_int_equal(b.ovh_read_disconnect[1], m.ovh_read_disconnect[1]);
	assert_int_equal(b.ovh_write_disconnect, m.ovh_write_disconnect);
	assert_int_equal(b.min_write_delay_ns, m.min_write_delay_ns);
	assert_true(b.extra_write_disconnect);
	assert_memory_equal(b.extradisc_ns, m.extradisc_ns, sizeof(m.extradisc_ns));
	iolab_model_free(&b);
	iolab_model_free(&m);
}

/* Serves one request at `at` (ns) on d; returns its service time in us. */
static double serve(struct iolab_disk *d, uint64_t lbn, uint32_t n, bool write, uint64_t at)
{
	struct iolab_disk_req r = {.lbn = lbn, .blocks = n, .write = write, .t_arrive = at};
	assert_int_equal(iolab_disk_submit(d, &r), 0);
	assert_ptr_equal(iolab_disk_next(d), &r);
	return (double)(r.t_done - r.t_arrive) / US;
}

/* The same requests on a fresh drive of m: a 4-block read miss at LBN 40 at 0, a hit on 40..41 at
 * 1 s, a 4-block read at 40 (partial hit: 40..43 are cached, ask 40..45) at 2 s, a write-through
 * at LBN 100 at 3 s. */
static void run(const struct iolab_disk_model *m, double t[4])
{
	struct iolab_disk *d = iolab_disk_new(m);
	assert_non_null(d);
	t[0] = serve(d, 40, 4, false, 0);
	t[1] = serve(d, 40, 2, false, 1000000000);
	t[2] = serve(d, 40, 6, false, 2000000000);
	t[3] = serve(d, 100, 4, true, 3000000000);
	iolab_disk_free(d);
}

static void test_through_the_drive(void **state)
{
	(void)state;
	struct iolab_disk_model m;
	th_import_spec("link.diskspecs", &m);
	struct iolab_disk_model z = m; /* the same drive holding the interface, no overheads */
	z.never_disconnect = false;
	z.hold_bus_read = false;
	z.read_water_mark = 0;
	z.partial_hit_waits = false;
	z.write_disconnect_if_seeking = false;
	z.ovh_data_prep = z.ovh_reselect[0] = z.ovh_reselect[1] = 0;
	z.ovh_read_disconnect[0] = z.ovh_read_disconnect[1] = z.ovh_write_disconnect = 0;
	z.min_write_delay_ns = 0;
	z.extra_write_disconnect = false;
	double base[4], t[4];
	run(&z, base);
	/* a miss: the sectors pass every 1 ms, the interface takes 0.1 ms a block */
	struct iolab_disk_model a = z;
	a.ovh_reselect[0] = 300000;
	a.ovh_reselect[1] = 50000;
	run(&a, t);
	assert_true(t[0] - base[0] > 49.999 && t[0] - base[0] < 50.001); /* the last reselect */
	assert_true(t[1] == base[1]);                                    /* a hit stays connected */
	/* data preparation: once per command, before its first block */
	a = z;
	a.ovh_data_prep = 20000;
	run(&a, t);
	assert_true(t[1] - base[1] > 19.999 && t[1] - base[1] < 20.001);
	assert_true(t[3] >= base[3]); /* the write's data 20 us later: within the media time */
	/* a partial hit waiting for the water mark (the whole request): its 4 cached blocks go only
	 * after the last 2 are read, reselecting first: the last block goes 300 us + 6 x 100 us
	 * after it is read, instead of 100 us */
	a = z;
	a.partial_hit_waits = true;
	a.read_water_mark = 1;
	a.water_mark_by_request = true;
	a.ovh_reselect[0] = 300000;
	run(&a, t);
	assert_true(t[2] - base[2] > 799.999 && t[2] - base[2] < 800.001);
	/* a write-through whose data is in while the arm still seeks (LBN 100 is 3 cylinders
	 * away): it disconnects (70 us, within the media time) and reselects (300 us) to report */
	a = z;
	a.write_disconnect_if_seeking = true;
	a.ovh_write_disconnect = 70000;
	a.ovh_reselect[0] = 300000;
	run(&a, t);
	assert_true(t[3] - base[3] > 299.999 && t[3] - base[3] < 300.001);
	/* the minimum seek delay holds a nonsequential write off the media for 50 ms */
	a = z;
	a.min_write_delay_ns = 50000000;
	run(&a, t);
	assert_true(t[3] >= 50000 + 200);
	assert_true(base[3] < 50000);
	/* the extra write disconnect, on a write into the cache (done when its data is in): its
	 * own command overhead 0.5 ms instead of the write's 0.2, then disconnection 0.1, delay 0.2
	 * and reselection 0.3 before the data: 0.9 ms later */
	z.write_back = true;
	run(&z, base);
	a = z;
	a.extra_write_disconnect = true;
	a.extradisc_ns[0] = 500000;
	a.extradisc_ns[1] = 100000;
	a.extradisc_ns[2] = 200000;
	a.ovh_reselect[0] = 300000;
	run(&a, t);
	assert_true(t[3] - base[3] > 899.999 && t[3] - base[3] < 900.001);
	iolab_model_free(&m);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_transfer_rule),
		cmocka_unit_test(test_import),
		cmocka_unit_test(test_through_the_drive),
	};
	return cmocka_run_group_tests(tests, th_dir_setup, th_dir_teardown);
}
