/* test_sim_workers.c: workers in the simulator and simulated state that carries over, through the
 * binary ($IOLAB_BIN). N sequential readers of a RAID 0 are N streams that interleave at the
 * drives (each its own position: per-stream MB/s falls as they multiply, and the drives' read-ahead
 * hits fall with it); --workers with --rate in sim is one usage error naming both; a job file's
 * [worker] sections run each worker's own access spec and load in one point, reported per worker
 * (workers[], and rows under the table), their errors name file, line and field, and their
 * largest worker counts against the memory limit; --worker-region split gives each worker its own slice; a write-back RAID 5's
 * steady state (rounds continue the system: the controller cache stays full) is the continuous
 * run's long-term rate, not the empty-cache burst, unless --fresh-state; repeats continue the state
 * too. Virtual time: the file runs in about a second in the Release build. */
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

static void expect_status(const struct th_out *o, int status)
{
	if (o->status != status)
		print_error("exit %d, expected %d\nstdout: %s\nstderr: %s\n", o->status, status, o->out,
			    o->err);
	assert_int_equal(o->status, status);
}

static double num(json_t *o, const char *key)
{
	json_t *v = json_object_get(o, key);
	assert_non_null(v);
	return json_number_value(v);
}

static json_t *point(json_t *root, size_t i)
{
	json_t *p = json_array_get(json_object_get(root, "points"), i);
	assert_non_null(p);
	return p;
}

/* The RAID 5 of four atlas10k with a 64 MiB write-back cache under 4 KiB random writes at QD 16,
 * with the extra arguments, into json. */
static void raid5_write_back(const char *json, const char *a, const char *b, const char *c,
			     const char *d, const char *e)
{
	struct th_out o = th_iolab("sim", "--array", "raid5:4", "--drive", "atlas10k", "--cache", "64M",
				   "--write-policy", "write-back", "--pattern", "rand-write", "--bs", "4k",
				   "--qd", "16", "--quiet", "--no-db", "--force", "--json", json, a, b, c, d, e,
				   NULL);
	expect_status(&o, 0);
	th_out_free(&o);
}

static void test_sequential_streams_interleave(void **state)
{
	(void)state;
	char json[300];
	snprintf(json, sizeof(json), "%s/streams.json", th_dir);
	struct th_out o = th_iolab("sim", "--array", "raid0:4", "--stripe", "64k", "--drive", "atlas10k",
				   "--pattern", "seq-read", "--bs", "64k", "--workers", "1,4,16", "--qd",
				   "1", "--time", "20", "--quiet", "--no-db", "--json", json, NULL);
	expect_status(&o, 0);
	th_out_free(&o);
	json_t *root = th_load_json(json);
	assert_non_null(root);
	assert_int_equal(json_array_size(json_object_get(root, "points")), 3);
	static const unsigned workers[] = {1, 4, 16};
	double per_stream[3], hits[3];
	for (size_t i = 0; i < 3; i++) {
		json_t *p = point(root, i);
		json_t *pw = json_object_get(p, "workers");
		assert_int_equal(num(p, "worker_count"), workers[i]);
		assert_int_equal(json_array_size(pw), workers[i]);
		double sum = 0, ios = 0;
		for (size_t k = 0; k < workers[i]; k++) {
			json_t *w = json_array_get(pw, k);
			assert_string_equal(json_string_value(json_object_get(w, "pattern")), "seq-read");
			assert_true(num(w, "ios") > 0); /* every stream was served */
			sum += num(w, "mb_per_s");
			ios += num(w, "ios");
		}
		assert_true(ios == num(p, "ios")); /* the workers' shares make the point */
		per_stream[i] = sum / workers[i];
		hits[i] = num(json_object_get(p, "breakdown_us"), "read_hit_pct");
		/* all the workers' requests in flight at once: one each */
		assert_true(num(p, "qd_reached") > 0.95 * workers[i]);
	}
	/* More streams moving the heads between them: each gets less, and read-ahead serves less. */
	assert_true(per_stream[1] < 0.9 * per_stream[0]);
	assert_true(per_stream[2] < 0.5 * per_stream[1]);
	assert_true(hits[2] < hits[1] && hits[1] < hits[0]);
	json_decref(root);
}

static void test_workers_with_rate_refused(void **state)
{
	(void)state;
	struct th_out o = th_iolab("sim", "--model", "atlas10k", "--workers", "4", "--rate", "100",
				   "--time", "1", "--quiet", "--no-db", NULL);
	TH_EXPECT_EXIT(o, 2, "--workers 4 with --rate", "all requests together");
}

/* The continuous run's long-term rate, after a ramp that fills the controller cache. */
static double long_term_iops(void)
{
	char json[300];
	snprintf(json, sizeof(json), "%s/long.json", th_dir);
	raid5_write_back(json, "--ramp", "60", "--time", "60", NULL);
	json_t *root = th_load_json(json);
	assert_non_null(root);
	double iops = num(point(root, 0), "iops");
	json_decref(root);
	return iops;
}

static void test_steady_state_after_cache_fills(void **state)
{
	(void)state;
	double lt = long_term_iops();
	char json[300];
	snprintf(json, sizeof(json), "%s/steady.json", th_dir);
	raid5_write_back(json, "--time", "5", "--steady-state", "iops", NULL);
	json_t *root = th_load_json(json);
	assert_non_null(root);
	json_t *p = point(root, 0);
	assert_true(json_is_true(json_object_get(json_object_get(p, "steady_state"), "reached")));
	double steady = num(p, "iops");
	if (steady < 0.75 * lt || steady > 1.25 * lt)
		print_error("steady %.1f IOPS, continuous run's long-term %.1f\n", steady, lt);
	assert_true(steady > 0.75 * lt && steady < 1.25 * lt);
	json_decref(root);

	/* --fresh-state: every round starts with an empty cache, so its steady state is the burst */
	raid5_write_back(json, "--time", "5", "--steady-state", "iops", "--fresh-state");
	root = th_load_json(json);
	assert_non_null(root);
	p = point(root, 0);
	assert_true(num(p, "iops") > 5 * lt);
	json_t *run0 = json_array_get(json_object_get(json_object_get(root, "config"), "runs"), 0);
	assert_true(json_is_true(json_object_get(run0, "fresh_state")));
	json_decref(root);
}

static void test_repeats_continue_the_state(void **state)
{
	(void)state;
	char json[300];
	snprintf(json, sizeof(json), "%s/repeat.json", th_dir);
	/* the first repetition fills the empty cache, the second continues with it full */
	raid5_write_back(json, "--time", "5", "--repeat", "2", NULL);
	json_t *root = th_load_json(json);
	assert_non_null(root);
	json_t *sp = json_object_get(json_object_get(point(root, 0), "repeat"), "iops");
	assert_true(num(sp, "max") > 3 * num(sp, "min"));
	json_decref(root);
	raid5_write_back(json, "--time", "5", "--repeat", "2", "--fresh-state");
	root = th_load_json(json);
	assert_non_null(root);
	sp = json_object_get(json_object_get(point(root, 0), "repeat"), "iops");
	assert_true(num(sp, "max") < 1.2 * num(sp, "min"));
	json_decref(root);
}

static void test_worker_sections(void **state)
{
	(void)state;
	char job[300], json[300];
	th_data_path(job, sizeof(job), "../../examples/iometer-mix.job");
	snprintf(json, sizeof(json), "%s/mix.json", th_dir);
	struct th_out o = th_iolab("sim", "--job", job, "--time", "5", "--ramp", "0", "--quiet",
				   "--no-db", "--json", json, NULL);
	expect_status(&o, 0);
	th_out_free(&o);
	json_t *root = th_load_json(json);
	assert_non_null(root);
	assert_int_equal(json_array_size(json_object_get(root, "points")), 1); /* one point */
	json_t *p = point(root, 0);
	json_t *pw = json_object_get(p, "workers");
	assert_int_equal(json_array_size(pw), 2);
	static const char *const name[] = {"file-server", "streaming"};
	static const char *const pattern[] = {"file-server", "seq-read"};
	static const int qd[] = {4, 1};
	double ios = 0;
	for (size_t k = 0; k < 2; k++) {
		json_t *w = json_array_get(pw, k);
		assert_string_equal(json_string_value(json_object_get(w, "name")), name[k]);
		assert_string_equal(json_string_value(json_object_get(w, "pattern")), pattern[k]);
		assert_int_equal(num(w, "qd"), qd[k]);
		assert_true(num(w, "iops") > 10);
		ios += num(w, "ios");
	}
	assert_true(ios == num(p, "ios"));
	/* both at once: five requests in flight */
	assert_true(num(p, "qd_reached") > 4.5);
	assert_string_equal(json_string_value(json_object_get(p, "pattern")), "file-server+seq-read");
	json_decref(root);
	/* the table: a row per worker under it */
	o = th_iolab("sim", "--job", job, "--time", "1", "--no-db", NULL);
	expect_status(&o, 0);
	assert_non_null(strstr(o.out, "per worker"));
	assert_non_null(strstr(o.out, "  1 streaming        seq-read             1 "));
	th_out_free(&o);
}

static void test_worker_section_errors(void **state)
{
	(void)state;
	char job[300];
	snprintf(job, sizeof(job), "%s/bad.job", th_dir);
	th_write_text(job, "[global]\ndrive = atlas10k\n[run r]\narray = raid0:2\n[worker a]\n"
			   "pattern = seq-read\ntime = 5s\n");
	struct th_out o = th_iolab("sim", "--job", job, "--quiet", "--no-db", NULL);
	TH_EXPECT_EXIT(o, 2, "bad.job:7", "field 'time'", "not a worker's");
	th_write_text(job, "[worker a]\nqd = 2\n[run r]\n");
	o = th_iolab("sim", "--model", "atlas10k", "--job", job, "--quiet", "--no-db", NULL);
	TH_EXPECT_EXIT(o, 2, "bad.job:1", "belongs to a [run]");
	th_write_text(job, "[run r]\n[worker a]\nqd = 2, 4\n");
	o = th_iolab("sim", "--model", "atlas10k", "--job", job, "--quiet", "--no-db", NULL);
	TH_EXPECT_EXIT(o, 2, "bad.job:2", "worker 'a'", "field 'qd'", "one value");
	th_write_text(job, "[run r]\n[worker a]\nqd = 2\n");
	o = th_iolab("sim", "--model", "atlas10k", "--job", job, "--workers", "2", "--quiet",
		     "--no-db", NULL);
	TH_EXPECT_EXIT(o, 2, "--workers", "[worker] sections");
	/* a worker's own qd and size count against the memory limit before anything runs */
	th_write_text(job, "[run r]\n[worker a]\nqd = 4096\nbs = 1g\n[worker b]\n");
	o = th_iolab("sim", "--model", "atlas10k", "--job", job, "--quiet", "--no-db", NULL);
	TH_EXPECT_EXIT(o, 2, "point 1 needs", "queue depth 4096 x 1g");
}

static void test_worker_region_split(void **state)
{
	(void)state;
	char trace[300], text[300];
	snprintf(trace, sizeof(trace), "%s/split.iot", th_dir);
	snprintf(text, sizeof(text), "%s/split.txt", th_dir);
	struct th_out o = th_iolab("sim", "--model", "atlas10k", "--pattern", "rand-read", "--bs", "4k",
				   "--workers", "8", "--worker-region", "split", "--qd", "1", "--time",
				   "0.2", "--record", trace, "--quiet", "--no-db", NULL);
	expect_status(&o, 0);
	th_out_free(&o);
	o = th_iolab("trace", "convert", trace, "--to", "iot-text", "-o", text, NULL);
	expect_status(&o, 0);
	th_out_free(&o);
	char *t = th_read_file(text, NULL);
	unsigned long long capacity = 0;
	const char *tg = strstr(t, "# target: 0 ");
	assert_non_null(tg);
	assert_int_equal(sscanf(tg, "# target: 0 %llu", &capacity), 1);
	/* the eight requests issued at time 0, one per worker: each in its own eighth */
	bool seen[8] = {false};
	unsigned n = 0;
	for (char *line = strtok(t, "\n"); line; line = strtok(NULL, "\n")) {
		unsigned long long issue, done, off, len;
		unsigned target;
		char op[8];
		if (*line == '#' || sscanf(line, "%llu %llu %7s %u %llu %llu", &issue, &done, op,
					   &target, &off, &len) != 6 || issue != 0)
			continue;
		unsigned eighth = (unsigned)(off / (capacity / 8));
		assert_true(eighth < 8);
		assert_false(seen[eighth]);
		seen[eighth] = true;
		n++;
	}
	assert_int_equal(n, 8);
	free(t);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_sequential_streams_interleave),
		cmocka_unit_test(test_workers_with_rate_refused),
		cmocka_unit_test(test_steady_state_after_cache_fills),
		cmocka_unit_test(test_repeats_continue_the_state),
		cmocka_unit_test(test_worker_sections),
		cmocka_unit_test(test_worker_section_errors),
		cmocka_unit_test(test_worker_region_split),
	};
	return cmocka_run_group_tests(tests, th_dir_setup, th_dir_teardown);
}
