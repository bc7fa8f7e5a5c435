/* test_load.c: the load models (src/run/pacing.c, the worker's waits, the simulator's advance):
 * closed-loop clients with think time (--clients, --think) and open-loop arrivals (--rate), on
 * the built-in Atlas 10K model in virtual time and on a real file with psync and io_uring.
 *
 * The expectations are the operational laws of queueing (Denning and Buzen, "The Operational
 * Analysis of Queueing Network Models", Computing Surveys 10(3), 1978): the interactive response
 * time law X = N / (R + Z) for N clients thinking Z, and the utilization law that an open loop
 * below the device's capacity is served at its arrival rate; and, for random arrivals, the
 * Pollaczek-Khinchine formula of the M/G/1 queue, whose mean wait grows with the variance of
 * the gaps between arrivals (even spacing has none), so that Poisson arrivals wait longer than
 * evenly spaced ones at the same rate. The Atlas 10K's random 4 KiB service time (about 9.3 ms:
 * 107 IOPS at QD 1) is measured here by --qd 1 itself, not assumed. */
#include <errno.h>
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <cmocka.h>
#include <jansson.h>

#include "helpers.h"
#include "iolab/disk_model.h"
#include "iolab/engine.h"
#include "iolab/run.h"
#include "iolab/workload.h"

/* The JSON document a command printed on standard output (--json -), after checking it exited
 * 0. */
static json_t *json_of(struct th_out *o)
{
	if (o->status != 0)
		print_error("exit %d\nstdout: %s\nstderr: %s\n", o->status, o->out, o->err);
	assert_int_equal(o->status, 0);
	json_error_t e;
	json_t *root = json_loads(o->out, 0, &e);
	if (!root)
		print_error("not JSON (line %d: %s):\n%s\n", e.line, e.text, o->out);
	assert_non_null(root);
	th_out_free(o);
	return root;
}

static json_t *point(json_t *root, size_t i)
{
	json_t *p = json_array_get(json_object_get(root, "points"), i);
	assert_non_null(p);
	return p;
}

static double num(json_t *o, const char *key)
{
	json_t *v = json_object_get(o, key);
	assert_true(json_is_number(v));
	return json_number_value(v);
}

static double mean_lat_us(json_t *p)
{
	return num(json_object_get(p, "lat_us"), "mean");
}

/* True if one of the point's warnings holds needle. */
static bool warned(json_t *p, const char *needle)
{
	json_t *w = json_object_get(p, "warnings"), *v;
	size_t i;
	json_array_foreach(w, i, v)
		if (strstr(json_string_value(v), needle))
			return true;
	return false;
}

/* Random 4 KiB reads on the Atlas 10K at QD 1 for seconds of virtual time: the service time S
 * (mean latency, us) and the rate. */
static void atlas_qd1(const char *seconds, double *s_us, double *iops)
{
	struct th_out o = th_iolab("sim", "--model", "atlas10k", "--bs", "4k", "--qd", "1", "--time",
				   seconds, "--quiet", "--json", "-", NULL);
	json_t *root = json_of(&o);
	*s_us = mean_lat_us(point(root, 0));
	*iops = num(point(root, 0), "iops");
	json_decref(root);
}

/* One client that never thinks is --qd 1: the same requests at the same instants, so the same
 * figures to the last digit. */
static void test_one_client_no_think_is_qd1(void **state)
{
	(void)state;
	struct th_out a = th_iolab("sim", "--model", "atlas10k", "--bs", "4k", "--qd", "1", "--time", "60",
				   "--quiet", "--json", "-", NULL);
	struct th_out b = th_iolab("sim", "--model", "atlas10k", "--bs", "4k", "--clients", "1", "--think",
				   "0", "--time", "60", "--quiet", "--json", "-", NULL);
	json_t *ra = json_of(&a), *rb = json_of(&b);
	json_t *pa = point(ra, 0), *pb = point(rb, 0);
	print_message("qd 1: %.4f IOPS, clients 1 think 0: %.4f IOPS\n", num(pa, "iops"), num(pb, "iops"));
	assert_true(num(pa, "iops") == num(pb, "iops"));
	assert_true(num(pa, "ios") == num(pb, "ios"));
	assert_true(mean_lat_us(pa) == mean_lat_us(pb));
	assert_int_equal(json_integer_value(json_object_get(pb, "clients")), 1);
	assert_true(json_is_null(json_object_get(pa, "clients")));
	json_decref(ra);
	json_decref(rb);
}

/* With a think time Z long against the service time S, clients rarely meet at the drive, so N
 * clients complete N / (Z + S) requests per second (the interactive response time law with
 * R close to S). Z = 100 ms, S about 9.3 ms: within 3% for 1, 2 and 4 clients (4 clients keep
 * the drive 35% busy; the waits they cause lower the rate by about 1.5%). */
static void test_think_law(void **state)
{
	(void)state;
	double s_us, x1;
	atlas_qd1("120", &s_us, &x1);
	struct th_out o = th_iolab("sim", "--model", "atlas10k", "--bs", "4k", "--clients", "1,2,4",
				   "--think", "100ms", "--time", "400", "--quiet", "--json", "-", NULL);
	json_t *root = json_of(&o);
	static const unsigned n[] = {1, 2, 4};
	for (size_t i = 0; i < 3; i++) {
		json_t *p = point(root, i);
		double want = n[i] / (0.1 + s_us / 1e6), got = num(p, "iops");
		print_message("%u clients, think 100 ms, S %.0f us: %.3f IOPS, N/(Z+S) %.3f\n", n[i], s_us,
			      got, want);
		assert_true(got > 0.97 * want && got < 1.03 * want);
		assert_int_equal(json_integer_value(json_object_get(p, "clients")), n[i]);
		assert_true(num(p, "think_s") == 0.1);
		assert_string_equal(json_string_value(json_object_get(p, "think_dist")), "fixed");
		/* A client issues when its think time is over: in virtual time, exactly then. */
		assert_true(num(json_object_get(p, "issue_delay_us"), "max") == 0);
	}
	json_decref(root);
}

/* Throughput against clients: it rises in proportion while the drive is mostly idle, and
 * flattens at what the drive gives with a deep queue (the closed loop of --qd 128 without think
 * time, with the host sorting the queue: C-LOOK sweeps raise random reads from 107 to about 180
 * IOPS). Exponential think times, as the clients of a file-server benchmark. */
static void test_clients_curve(void **state)
{
	(void)state;
	struct th_out q = th_iolab("sim", "--model", "atlas10k", "--bs", "4k", "--host-scheduler", "cscan",
				   "--qd", "128", "--time", "300", "--quiet", "--json", "-", NULL);
	json_t *rq = json_of(&q);
	double sat = num(point(rq, 0), "iops");
	json_decref(rq);
	struct th_out o = th_iolab("sim", "--model", "atlas10k", "--bs", "4k", "--host-scheduler", "cscan",
				   "--clients", "1,2,4,8,16,32,64,128", "--think", "exp:100ms", "--time",
				   "300", "--quiet", "--json", "-", NULL);
	json_t *root = json_of(&o);
	double x[8];
	for (size_t i = 0; i < 8; i++) {
		x[i] = num(point(root, i), "iops");
		print_message("%u clients: %.1f IOPS (qd 128 without think time: %.1f)\n", 1u << i, x[i], sat);
		assert_string_equal(json_string_value(json_object_get(point(root, i), "think_dist")), "exp");
	}
	assert_true(x[1] > 1.85 * x[0] && x[2] > 1.85 * x[1]); /* proportional while idle */
	for (size_t i = 1; i < 8; i++)
		assert_true(x[i] > 0.98 * x[i - 1]); /* never falls */
	assert_true(x[7] < 1.15 * x[6]);               /* flat at the end */
	assert_true(x[7] > 0.9 * sat && x[7] < 1.05 * sat); /* at the drive's saturation */
	json_decref(root);
}

/* An open loop at 50 IOPS on a drive that serves about 107 at QD 1: every request is served at
 * once (evenly spaced 20 ms apart, longer than any service time), so the achieved rate is the
 * target and the mean latency the service time. */
static void test_rate_below_capacity(void **state)
{
	(void)state;
	double s_us, x1;
	atlas_qd1("120", &s_us, &x1);
	struct th_out o = th_iolab("sim", "--model", "atlas10k", "--bs", "4k", "--rate", "50", "--time",
				   "300", "--quiet", "--json", "-", NULL);
	json_t *root = json_of(&o);
	json_t *p = point(root, 0);
	double got = num(p, "iops"), lat = mean_lat_us(p);
	print_message("rate 50: %.2f IOPS, mean latency %.0f us (QD 1 service time %.0f us)\n", got, lat,
		      s_us);
	assert_true(got > 49.5 && got < 50.5);
	assert_true(lat > 0.9 * s_us && lat < 1.1 * s_us);
	assert_true(num(p, "target_iops") == 50);
	assert_string_equal(json_string_value(json_object_get(p, "arrivals")), "fixed");
	assert_int_equal(json_integer_value(json_object_get(p, "qd")), 1024); /* the default cap */
	assert_false(warned(p, "target rate not reached"));
	json_t *run = json_array_get(json_object_get(json_object_get(root, "config"), "runs"), 0);
	assert_true(json_number_value(json_array_get(json_object_get(run, "rate"), 0)) == 50);
	assert_string_equal(json_string_value(json_object_get(run, "arrivals")), "fixed");
	json_decref(root);
}

/* Beyond capacity (400 IOPS offered, about 107 served), requests queue without end: the achieved
 * rate is the drive's, a warning says the target was not reached, and since latency counts from
 * each request's intended arrival, the mean grows with the length of the run (a backlog growing
 * by about 290 requests per second), far above the service time. */
static void test_rate_beyond_capacity(void **state)
{
	(void)state;
	double s_us, x1;
	atlas_qd1("120", &s_us, &x1);
	double lat[2];
	static const char *const secs[] = {"10", "20"};
	for (int i = 0; i < 2; i++) {
		struct th_out o = th_iolab("sim", "--model", "atlas10k", "--bs", "4k", "--rate", "400", "--time",
					   secs[i], "--quiet", "--json", "-", NULL);
		json_t *root = json_of(&o);
		json_t *p = point(root, 0);
		lat[i] = mean_lat_us(p);
		print_message("rate 400 for %s s: %.1f IOPS, mean latency %.0f us\n", secs[i], num(p, "iops"),
			      lat[i]);
		assert_true(num(p, "iops") < 0.95 * 400);
		assert_true(num(p, "iops") > 0.9 * x1); /* the drive stays busy */
		assert_true(warned(p, "target rate not reached"));
		assert_true(lat[i] > 50 * s_us);
		json_decref(root);
	}
	assert_true(lat[1] > 1.6 * lat[0]);
}

/* At the same rate below capacity (80 IOPS: the drive about 75% busy), Poisson arrivals come in
 * bursts that queue, evenly spaced ones hardly ever (Pollaczek-Khinchine: the wait grows with the
 * variance of the gaps). Both achieve their rate. */
static void test_poisson_waits_longer(void **state)
{
	(void)state;
	struct th_out a = th_iolab("sim", "--model", "atlas10k", "--bs", "4k", "--rate", "80", "--time",
				   "600", "--quiet", "--json", "-", NULL);
	struct th_out b = th_iolab("sim", "--model", "atlas10k", "--bs", "4k", "--rate", "poisson:80",
				   "--time", "600", "--quiet", "--json", "-", NULL);
	json_t *ra = json_of(&a), *rb = json_of(&b);
	json_t *pa = point(ra, 0), *pb = point(rb, 0);
	print_message("rate 80: fixed %.2f IOPS, mean %.0f us; poisson %.2f IOPS, mean %.0f us\n",
		      num(pa, "iops"), mean_lat_us(pa), num(pb, "iops"), mean_lat_us(pb));
	assert_true(num(pa, "iops") > 79 && num(pa, "iops") < 81);
	assert_true(num(pb, "iops") > 76 && num(pb, "iops") < 84);
	assert_true(mean_lat_us(pb) > 1.5 * mean_lat_us(pa));
	assert_string_equal(json_string_value(json_object_get(pb, "arrivals")), "poisson");
	json_decref(ra);
	json_decref(rb);
}

/* The table names the load: a "clients" or "rate/s" column instead of "qd". */
static void test_table_label(void **state)
{
	(void)state;
	struct th_out o = th_iolab("sim", "--model", "atlas10k", "--clients", "3", "--think", "10ms",
				   "--time", "5", "--quiet", NULL);
	assert_int_equal(o.status, 0);
	assert_non_null(strstr(o.out, " clients "));
	assert_null(strstr(o.out, " qd "));
	th_out_free(&o);
	o = th_iolab("sim", "--model", "atlas10k", "--rate", "poisson:20", "--time", "5", "--quiet", NULL);
	assert_int_equal(o.status, 0);
	assert_non_null(strstr(o.out, " rate/s "));
	assert_non_null(strstr(o.out, " poisson:20 "));
	th_out_free(&o);
}

/* The engine op: advance moves the simulator's clock to an instant when nothing finishes before
 * it, and stops at a completion that comes first. */
static void test_sim_advance(void **state)
{
	(void)state;
	struct iolab_disk_model m;
	struct iolab_err err;
	assert_int_equal(iolab_model_open("atlas10k", &m, &err), 0);
	const struct iolab_engine_ops *ops = &iolab_engine_sim;
	assert_int_equal(iolab_engine_check(ops, &err), 0);
	assert_non_null(ops->advance);
	static char buf[4096];
	void *bufs[1] = {buf};
	struct iolab_engine_params p = {.qd = 1, .bufs = bufs, .buf_size = sizeof(buf), .config = &(struct iolab_sim_engine_config){.model = &m}};
	struct iolab_engine e = {.ops = ops};
	assert_int_equal(ops->init(&e, &p, &err), 0);
	assert_int_equal(ops->advance(&e, 5000000), 5000000); /* idle: straight there */
	assert_int_equal(ops->now(&e), 5000000);
	struct iolab_io io = {.off = 123456 * 4096ull, .len = 4096, .op = IOLAB_OP_READ, .buf = buf};
	struct iolab_io *ios[1] = {&io}, *done[1];
	assert_int_equal(ops->submit(&e, ios, 1), 1);
	uint64_t t = ops->advance(&e, 10000000000ull); /* the read finishes long before 10 s */
	print_message("a read submitted at 5 ms finished at %.3f ms\n", (double)t / 1e6);
	assert_true(t > 5000000 && t < 100000000);
	assert_int_equal(ops->advance(&e, 20000000000ull), t); /* it waits to be reaped: no move */
	assert_int_equal(ops->reap(&e, 1, done, 1), 1);
	assert_ptr_equal(done[0], &io);
	assert_int_equal(io.res, 4096);
	assert_int_equal(ops->now(&e), t);
	assert_int_equal(ops->advance(&e, 20000000000ull), 20000000000ull);
	ops->cleanup(&e);
	iolab_model_free(&m);
}

/* A virtual-time engine without advance cannot wait for a think time or an arrival: a run that
 * needs it is refused before it starts, naming the engine; a closed loop still runs on it. */
static void test_no_advance_refused(void **state)
{
	(void)state;
	struct iolab_engine_ops ops = iolab_engine_sim;
	ops.name = "sim-without-advance";
	ops.advance = NULL;
	struct iolab_err err;
	assert_int_equal(iolab_engine_check(&ops, &err), 0); /* the hook is optional */
	struct iolab_config c;
	iolab_config_init(&c);
	c.engine = &ops;
	assert_int_equal(iolab_config_set(&c, "rate", "10", &err), 0);
	struct iolab_results res = {0};
	assert_int_equal(iolab_run(&c, &res, NULL, NULL, &err), -EINVAL);
	print_message("%s\n", err.msg);
	assert_non_null(strstr(err.msg, "sim-without-advance"));
	assert_non_null(strstr(err.msg, "--rate"));
	assert_int_equal(res.n, 0);
	iolab_results_free(&res);
}

/* Two clients thinking 5 ms on file: true if they achieve 2 / (Z + R + D) within 10 % and D, how
 * late requests left, stays below 1 ms. */
static bool clients_hold(const char *file, const char *engine)
{
	struct th_out o = th_iolab("run", file, "--engine", engine, "--bs", "4k", "--clients", "2",
				   "--think", "5ms", "--time", "1", "--quiet", "--json", "-", NULL);
	json_t *root = json_of(&o);
	json_t *p = point(root, 0), *d = json_object_get(p, "issue_delay_us");
	double r = mean_lat_us(p) / 1e6, late = num(d, "mean") / 1e6, want = 2 / (0.005 + r + late);
	double iops = num(p, "iops");
	print_message("%s, 2 clients thinking 5 ms: %.1f IOPS, mean latency %.0f us, issued late by "
		      "%.1f us on average: 2/(Z+R+D) %.1f, 2/(Z+R) %.1f\n", engine, iops, r * 1e6,
		      late * 1e6, want, 2 / (0.005 + r));
	json_decref(root);
	return iops > 0.9 * want && iops < 1.1 * want && late < 0.001;
}

/* A real file: an open loop at 200 IOPS for 1 s achieves 200 (within 10%); two clients thinking
 * Z = 5 ms achieve N / (Z + R + D), R their mean latency and D how late a request left after its
 * think time (the thread's wake-up; under psync also the other client's I/O), within 10%, and D
 * stays a small part of the cycle (below 1 ms), so that is also about N / (Z + R). */
static void real_file(const char *engine)
{
	char file[512];
	snprintf(file, sizeof(file), "%s/load-%s.img", th_dir, engine);
	struct th_out o = th_iolab("run", file, "--size", "64m", "--engine", engine, "--bs", "4k", "--rate",
				   "200", "--time", "1", "--quiet", "--json", "-", NULL);
	json_t *root = json_of(&o);
	json_t *p = point(root, 0);
	json_t *d = json_object_get(p, "issue_delay_us");
	print_message("%s, rate 200: %.1f IOPS, mean latency %.0f us, issued late by %.1f us on average "
		      "(at most %.0f us)\n", engine, num(p, "iops"), mean_lat_us(p), num(d, "mean"),
		      num(d, "max"));
	assert_true(num(p, "iops") > 180 && num(p, "iops") < 220);
	json_decref(root);
	/* Wake-up delays are the machine's: a loaded 2-core machine can make one run late, so the
	 * closed loop is measured up to three times and must hold once. */
	bool ok = false;
	for (int attempt = 0; attempt < 3 && !ok; attempt++)
		ok = clients_hold(file, engine);
	assert_true(ok);
}

static void test_real_psync(void **state)
{
	(void)state;
	real_file("psync");
}

static void test_real_io_uring(void **state)
{
	(void)state;
	real_file("io_uring");
}

/* Bad values and contradictions: exit 2, one line naming the option. */
static void test_refusals(void **state)
{
	(void)state;
	struct th_out o = th_iolab("sim", "--model", "atlas10k", "--rate", "0", NULL);
	TH_EXPECT_EXIT(o, 2, "--rate", "'0'");
	o = th_iolab("run", "--engine", "null", "--rate", "-5", NULL);
	TH_EXPECT_EXIT(o, 2, "--rate", "'-5'");
	o = th_iolab("sim", "--model", "atlas10k", "--clients", "2", "--think", "-1", NULL);
	TH_EXPECT_EXIT(o, 2, "--think", "'-1'");
	o = th_iolab("sim", "--model", "atlas10k", "--clients", "0", NULL);
	TH_EXPECT_EXIT(o, 2, "--clients", "0");
	o = th_iolab("run", "--engine", "null", "--clients", "2", "--qd", "4", NULL);
	TH_EXPECT_EXIT(o, 2, "--clients", "--qd", "together");
	o = th_iolab("sim", "--model", "atlas10k", "--clients", "2", "--rate", "10", NULL);
	TH_EXPECT_EXIT(o, 2, "--clients", "--rate", "together");
	o = th_iolab("sim", "--model", "atlas10k", "--think", "5ms", NULL);
	TH_EXPECT_EXIT(o, 2, "--think", "--clients");
	o = th_iolab("sim", "--model", "atlas10k", "--rate", "10", "--qd", "1,2", NULL);
	TH_EXPECT_EXIT(o, 2, "--qd", "--rate");
	o = th_iolab("sim", "--model", "atlas10k", "--rate", "uniform:10", NULL);
	TH_EXPECT_EXIT(o, 2, "--rate", "poisson");
	o = th_iolab("sim", "--model", "atlas10k", "--clients", "1", "--think", "normal:5ms", NULL);
	TH_EXPECT_EXIT(o, 2, "--think", "exp");
	char job[512];
	snprintf(job, sizeof(job), "%s/both.job", th_dir);
	FILE *f = fopen(job, "w");
	assert_non_null(f);
	fputs("[run a]\nqd = 2\nclients = 2\n", f);
	assert_int_equal(fclose(f), 0);
	o = th_iolab("sim", "--model", "atlas10k", "--job", job, NULL);
	TH_EXPECT_EXIT(o, 2, "both.job:3", "'clients'", "'qd'");
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_one_client_no_think_is_qd1),
		cmocka_unit_test(test_think_law),
		cmocka_unit_test(test_clients_curve),
		cmocka_unit_test(test_rate_below_capacity),
		cmocka_unit_test(test_rate_beyond_capacity),
		cmocka_unit_test(test_poisson_waits_longer),
		cmocka_unit_test(test_table_label),
		cmocka_unit_test(test_sim_advance),
		cmocka_unit_test(test_no_advance_refused),
		cmocka_unit_test(test_real_psync),
		cmocka_unit_test(test_real_io_uring),
		cmocka_unit_test(test_refusals),
	};
	return cmocka_run_group_tests(tests, th_dir_setup, th_dir_teardown);
}
