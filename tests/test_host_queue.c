/* test_host_queue.c: the host's queue policies (host_queue.h) on hand-made request sets whose
 * right order follows from each policy's definition, and through `iolab sim`: on a drive that
 * takes one command at a time, sorting in the host (cscan, deadline) raises random-read IOPS at
 * QD 64 well above QD 1, while arrival order (none) gains nothing. */
#include <errno.h>
#include <limits.h>
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <string.h>

#include <cmocka.h>
#include <jansson.h>

#include "helpers.h"
#include "iolab/host_queue.h"

#define MAXR 64

struct set {
	struct iolab_disk_req r[MAXR];
	unsigned n;
};

static void add(struct set *s, uint64_t lbn, bool write, uint64_t t)
{
	s->r[s->n++] = (struct iolab_disk_req){.lbn = lbn, .blocks = 8, .write = write, .t_arrive = t};
}

/* Pushes every request of s, pops them all at time now and writes their lbns in pop order. */
static void order(enum iolab_host_sched sched, struct set *s, uint64_t pos, uint64_t now, uint64_t *out)
{
	struct iolab_host_queue q;
	assert_int_equal(iolab_hostq_init(&q, sched, MAXR), 0);
	q.pos = pos;
	for (unsigned i = 0; i < s->n; i++)
		iolab_hostq_push(&q, &s->r[i]);
	for (unsigned i = 0; i < s->n; i++) {
		struct iolab_disk_req *r = iolab_hostq_pop(&q, now);
		assert_non_null(r);
		out[i] = r->lbn;
	}
	assert_null(iolab_hostq_pop(&q, now));
	iolab_hostq_free(&q);
}

static void test_none_keeps_arrival_order(void **state)
{
	(void)state;
	struct set s = {0};
	uint64_t want[] = {500, 100, 900, 300}, got[4];
	for (unsigned i = 0; i < 4; i++)
		add(&s, want[i], false, i);
	order(IOLAB_HOST_NONE, &s, 0, 10, got);
	assert_memory_equal(got, want, sizeof(want));
}

/* From a head at block 400: up through the addresses at or above it, then one new sweep from
 * the lowest. */
static void test_cscan_sweeps_one_way(void **state)
{
	(void)state;
	struct set s = {0};
	uint64_t in[] = {500, 100, 900, 300, 420, 50}, got[6];
	for (unsigned i = 0; i < 6; i++)
		add(&s, in[i], i % 2, i);
	order(IOLAB_HOST_CSCAN, &s, 400, 10, got);
	uint64_t want[] = {420, 500, 900, 50, 100, 300};
	assert_memory_equal(got, want, sizeof(want));
}

/* Reads before writes, in address order from the head; after two read batches chosen while
 * writes waited, a write batch. */
static void test_deadline_prefers_reads_then_writes(void **state)
{
	(void)state;
	struct set s = {0};
	/* 40 reads (three batches of 16, 16 and 8) and 2 writes, all fresh. */
	for (unsigned i = 0; i < 40; i++)
		add(&s, 1000 + 10 * i, false, 0);
	add(&s, 5, true, 0);
	add(&s, 70, true, 0);
	uint64_t got[42];
	order(IOLAB_HOST_DEADLINE, &s, 0, 1000, got);
	for (unsigned i = 0; i < 32; i++) /* two read batches of 16, ascending */
		assert_int_equal(got[i], 1000 + 10 * i);
	assert_int_equal(got[32], 5); /* writes_starved = 2: now the writes */
	assert_int_equal(got[33], 70);
	for (unsigned i = 34; i < 42; i++)
		assert_int_equal(got[i], 1000 + 10 * (i - 2));
}

/* A read older than 500 ms starts the next batch, though the head is past it. */
static void test_deadline_serves_expired_first(void **state)
{
	(void)state;
	struct set s = {0};
	add(&s, 100, false, 0);            /* arrived at 0: expired at 600 ms */
	add(&s, 5000, false, 550000000);
	add(&s, 6000, false, 550000000);
	uint64_t got[3];
	order(IOLAB_HOST_DEADLINE, &s, 4000, 600000000, got);
	assert_int_equal(got[0], 100);
	/* Not expired (only 50 ms old): from the head in address order. */
	struct set t = {0};
	add(&t, 100, false, 0);
	add(&t, 5000, false, 0);
	order(IOLAB_HOST_DEADLINE, &t, 4000, 50000000, got);
	assert_int_equal(got[0], 5000);
	assert_int_equal(got[1], 100);
}

static void test_names(void **state)
{
	(void)state;
	struct iolab_err err;
	enum iolab_host_sched h;
	for (unsigned i = 0; i < IOLAB_HOST_NSCHED; i++) {
		assert_int_equal(iolab_host_sched_parse("f", iolab_host_sched_name(i), &h, &err), 0);
		assert_int_equal(h, i);
	}
	assert_int_equal(iolab_host_sched_parse("--host-scheduler", "elevator", &h, &err), -EINVAL);
	assert_non_null(strstr(err.msg, "elevator"));
	struct th_out o = th_iolab("sim", "--model", "barracuda", "--host-scheduler", "noop", NULL);
	TH_EXPECT_EXIT(o, 2, "--host-scheduler", "noop");
	o = th_iolab("run", "--engine", "null", "--host-scheduler", "cscan", NULL);
	TH_EXPECT_EXIT(o, 2, "--host-scheduler", "simulated drive");
}

static double iops_of(json_t *points, size_t i)
{
	return json_number_value(json_object_get(json_array_get(points, i), "iops"));
}

/* The Barracuda takes one command at a time (queue_depth 1 in its DiskSim specification), so
 * only the host can reorder. Random 4 KiB reads: at QD 1 every policy serves the same stream;
 * at QD 64, none still serves it in arrival order (the same IOPS, within the noise of ~2000
 * requests), while cscan picks the nearest address ahead and cuts the mean seek: drives of this
 * kind gain about 1.6x from QD 1 to 64 through the host's sorting. */
static void test_sorting_host_lifts_a_non_queuing_drive(void **state)
{
	(void)state;
	char json[PATH_MAX];
	snprintf(json, sizeof(json), "%s/host.json", th_dir);
	struct th_out o = th_iolab("sim", "--model", "barracuda", "--host-scheduler", "none,cscan,deadline",
				   "--pattern", "rand-read", "--bs", "4k", "--qd", "1,64", "--time", "30",
				   "--quiet", "--json", json, NULL);
	assert_int_equal(o.status, 0);
	th_out_free(&o);
	json_t *root = th_load_json(json);
	assert_non_null(root);
	json_t *pts = json_object_get(root, "points");
	assert_int_equal(json_array_size(pts), 6);
	const char *want[] = {"none", "none", "cscan", "cscan", "deadline", "deadline"};
	for (size_t i = 0; i < 6; i++)
		assert_string_equal(json_string_value(json_object_get(json_array_get(pts, i),
								      "host_scheduler")), want[i]);
	double none1 = iops_of(pts, 0), none64 = iops_of(pts, 1), cscan1 = iops_of(pts, 2),
	       cscan64 = iops_of(pts, 3), dl64 = iops_of(pts, 5);
	print_message("barracuda 4k random reads: none %.1f -> %.1f, cscan %.1f -> %.1f, deadline "
		      "-> %.1f IOPS (QD 1 -> 64)\n", none1, none64, cscan1, cscan64, dl64);
	assert_true(none64 < 1.05 * none1 && none64 > 0.95 * none1);
	assert_true(cscan64 > 1.3 * cscan1);
	assert_true(dl64 > 1.2 * none64);
	json_t *bd = json_object_get(json_array_get(pts, 3), "breakdown_us");
	assert_true(json_number_value(json_object_get(bd, "host")) > 0); /* the wait is the host's */
	json_decref(root);
}

/* --host-overhead delays every command by that much before the drive sees it: at QD 1 the mean
 * latency grows by about that time (the drive then meets each sector at another rotational
 * position, so not exactly: within 30% of 1 ms), and the breakdown's host column is the 1 ms. */
static void test_host_overhead(void **state)
{
	(void)state;
	double mean[2], host = 0;
	const char *ovh[2] = {"0", "1ms"};
	for (int i = 0; i < 2; i++) {
		char json[PATH_MAX];
		snprintf(json, sizeof(json), "%s/ovh%d.json", th_dir, i);
		struct th_out o = th_iolab("sim", "--model", "atlas10k", "--host-overhead", ovh[i], "--bs",
					   "4k", "--time", "30", "--quiet", "--json", json, NULL);
		assert_int_equal(o.status, 0);
		th_out_free(&o);
		json_t *root = th_load_json(json);
		assert_non_null(root);
		json_t *p = json_array_get(json_object_get(root, "points"), 0);
		mean[i] = json_number_value(json_object_get(json_object_get(p, "lat_us"), "mean"));
		if (i)
			host = json_number_value(json_object_get(json_object_get(p, "breakdown_us"), "host"));
		json_decref(root);
	}
	print_message("atlas10k QD 1: mean %.1f us, with 1 ms host overhead %.1f us (host %.1f us)\n",
		      mean[0], mean[1], host);
	assert_true(mean[1] - mean[0] > 700 && mean[1] - mean[0] < 1300);
	assert_true(host > 999 && host < 1001);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_none_keeps_arrival_order),
		cmocka_unit_test(test_cscan_sweeps_one_way),
		cmocka_unit_test(test_deadline_prefers_reads_then_writes),
		cmocka_unit_test(test_deadline_serves_expired_first),
		cmocka_unit_test(test_names),
		cmocka_unit_test(test_sorting_host_lifts_a_non_queuing_drive),
		cmocka_unit_test(test_host_overhead),
	};
	return cmocka_run_group_tests(tests, th_dir_setup, th_dir_teardown);
}
