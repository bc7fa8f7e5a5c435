/* test_model_datasheet.c: drive models from datasheet figures (`iolab model new`) and what a
 * model predicts (`iolab model check`): the file made loads, holds the capacity, its seek curve
 * passes the three seek times and its outer and inner zones have the media rates given; bad
 * figures are refused naming their option; an existing output needs --force; check's figures
 * and the simulator running the model (docs/model-format.md, "From a datasheet"). */
#include <math.h>
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

/* The two drives of docs/model-format.md's examples. */
#define X15_ARGS "--capacity", "73.5G", "--rpm", "10000", "--avg-seek", "4.7ms", "--track-seek", \
	"0.6ms", "--full-seek", "11ms", "--media-rate", "57-36MB/s", "--cache", "8M", "--queue", "64"
#define WD1200_ARGS "--capacity", "120G", "--rpm", "7200", "--avg-seek", "8.9ms", "--track-seek", \
	"2ms", "--full-seek", "21ms", "--media-rate", "48-26MB/s", "--cache", "2M", "--queue", "1"

static void path_in_dir(char *buf, size_t n, const char *name)
{
	snprintf(buf, n, "%s/%s", th_dir, name);
}

/* Loads the model at path (fails the test with the loader's message). */
static void load(const char *path, struct iolab_disk_model *m)
{
	struct iolab_err err;
	if (iolab_model_load(path, m, &err))
		fail_msg("%s does not load: %s", path, err.msg);
}

static void expect_near(double got, double want, double rel, const char *what)
{
	if (fabs(got - want) > rel * want)
		fail_msg("%s: %.6g, not within %.1f%% of %.6g", what, got, rel * 100, want);
}

static double zone_mb_s(const struct iolab_disk_model *m, unsigned z)
{
	return m->zone[z].spt * (double)m->block_bytes * 1e3 / (double)m->rev_ns;
}

/* What the tests below ask of every model made from a datasheet. */
static void expect_model(const char *path, double capacity, double track_ms, double avg_ms,
			 double full_ms, double outer, double inner)
{
	struct iolab_disk_model m;
	load(path, &m);
	uint64_t want_blocks = (uint64_t)ceil(capacity / 512);
	assert_true(m.blocks >= want_blocks);
	uint64_t held = 0;
	for (unsigned z = 0; z < m.nzones; z++)
		held += m.zone[z].nblocks;
	assert_true(held >= want_blocks);
	assert_int_equal(m.zone[m.nzones - 1].last_cyl, m.cylinders - 1);
	/* the seek curve through (1, track), ((C-1)/3, average), (C-1, full) within 1 % */
	uint32_t full = m.cylinders - 1, third = (uint32_t)(full / 3.0 + 0.5);
	expect_near(iolab_model_seek_ns(&m, 1, false) / 1e6, track_ms, 0.01, "track-to-track seek");
	expect_near(iolab_model_seek_ns(&m, third, false) / 1e6, avg_ms, 0.01, "seek at 1/3 stroke");
	expect_near(iolab_model_seek_ns(&m, full, false) / 1e6, full_ms, 0.01, "full-stroke seek");
	/* rising all the way */
	uint64_t prev = 0;
	for (uint32_t d = 1; d <= full; d += 97) {
		uint64_t t = iolab_model_seek_ns(&m, d, false);
		assert_true(t >= prev);
		prev = t;
	}
	/* the media rates at the edges within 2 %, falling inwards */
	expect_near(zone_mb_s(&m, 0), outer, 0.02, "outer zone's media rate");
	expect_near(zone_mb_s(&m, m.nzones - 1), inner, 0.02, "inner zone's media rate");
	for (unsigned z = 1; z < m.nzones; z++)
		assert_true(m.zone[z].spt <= m.zone[z - 1].spt);
	iolab_model_free(&m);
}

static void test_new_models_load_and_meet_figures(void **state)
{
	(void)state;
	char x15[300], wd[300], rev[300];
	path_in_dir(x15, sizeof(x15), "x15.model");
	path_in_dir(wd, sizeof(wd), "wd1200.model");
	path_in_dir(rev, sizeof(rev), "rev.model");
	struct th_out o = th_iolab("model", "new", X15_ARGS, "-o", x15, NULL);
	TH_EXPECT_EXIT(o, 0, "wrote", "x15.model", "143554688 blocks");
	expect_model(x15, 73.5e9, 0.6, 4.7, 11, 57, 36);
	o = th_iolab("model", "new", WD1200_ARGS, "-o", wd, NULL);
	TH_EXPECT_EXIT(o, 0, "wrote", "wd1200.model");
	expect_model(wd, 120e9, 2, 8.9, 21, 48, 26);
	/* MIN-MAX as MAX-MIN, binary units, more surfaces, fewer zones */
	o = th_iolab("model", "new", "--capacity", "100GiB", "--rpm", "15000rpm", "--avg-seek", "3400us",
		     "--track-seek", "0.2ms", "--full-seek", "7ms", "--media-rate", "100-200MB/s",
		     "--cache", "16MiB", "--queue", "32", "--surfaces", "8", "--zones", "24", "-o", rev, NULL);
	TH_EXPECT_EXIT(o, 0, "wrote", "24 zones");
	expect_model(rev, 100.0 * (1u << 30), 0.2, 3.4, 7, 200, 100);
}

/* Each figure marked where it comes from; the queue and cache as given. */
static void test_new_marks_and_queue(void **state)
{
	(void)state;
	char path[300];
	path_in_dir(path, sizeof(path), "wd-marks.model");
	struct th_out o = th_iolab("model", "new", WD1200_ARGS, "-o", path, NULL);
	TH_EXPECT_EXIT(o, 0, "wrote");
	char *text = th_read_file(path, NULL);
	static const char *const marks[] = {"# datasheet: --capacity 120G", "# datasheet: --rpm 7200",
		"# datasheet: --avg-seek 8.9ms", "# datasheet: --track-seek 2ms",
		"# datasheet: --full-seek 21ms", "# datasheet: --media-rate 48-26MB/s",
		"# datasheet: --cache 2M", "# datasheet: --queue 1", "surfaces = 4 ", "seek_type = hpl"};
	for (unsigned i = 0; i < sizeof(marks) / sizeof(marks[0]); i++)
		if (!strstr(text, marks[i]))
			fail_msg("the model lacks '%s'", marks[i]);
	/* every drive field says where it comes from: on its line, or in the comment that opens its
	   paragraph (the seek curve, the overheads) */
	bool paragraph_comment = false;
	for (const char *l = text; *l && strncmp(l, "[zone]", 6);) {
		const char *end = strchr(l, '\n');
		size_t len = end ? (size_t)(end - l) : strlen(l);
		if (!len)
			paragraph_comment = false;
		else if (*l == '#')
			paragraph_comment = true;
		else if (strncmp(l, "name =", 6) && strncmp(l, "about =", 7) && !memchr(l, '#', len) &&
			 !paragraph_comment)
			fail_msg("a field without its origin: %.*s", (int)len, l);
		l += len + (end != NULL);
	}
	free(text);
	struct iolab_disk_model m;
	load(path, &m);
	assert_int_equal(m.queue_depth, 1);
	assert_int_equal(m.sched, IOLAB_SCHED_FCFS);
	assert_int_equal((uint64_t)m.segments * m.segment_blocks * m.block_bytes, 2u << 20);
	iolab_model_free(&m);
	o = th_iolab("model", "new", X15_ARGS, "--cache", "0", "-o", path, "--force", NULL);
	TH_EXPECT_EXIT(o, 2, "--cache given twice");
	o = th_iolab("model", "new", "--capacity", "73.5G", "--rpm", "10000", "--avg-seek", "4.7ms",
		     "--track-seek", "0.6ms", "--full-seek", "11ms", "--media-rate", "57-36MB/s",
		     "--cache", "0", "--queue", "64", "-o", path, "--force", NULL);
	TH_EXPECT_EXIT(o, 0, "wrote");
	load(path, &m);
	assert_int_equal(m.queue_depth, 64);
	assert_int_equal(m.sched, IOLAB_SCHED_SPTF);
	assert_int_equal(m.segments, 0);
	iolab_model_free(&m);
}

/* One bad figure at a time: exit 2, one line naming the option, no file. */
static void test_new_bad_inputs(void **state)
{
	(void)state;
	static const struct {
		const char *opt, *value, *needle;
	} bad[] = {
		{"--capacity", "73.5", "needs a unit"},
		{"--capacity", "73.5X", "unknown unit 'X'"},
		{"--capacity", "-5G", "out of range"},
		{"--capacity", "2MB", "too small"},
		{"--rpm", "100", "out of range (1000..30000)"},
		{"--rpm", "7200x", "unknown unit"},
		{"--avg-seek", "4.7", "needs a unit: ms or us"},
		{"--avg-seek", "4.7s", "unknown unit 's'"},
		{"--avg-seek", "fast", "is not a number"},
		{"--avg-seek", "30ms", "shorter than --avg-seek"},
		{"--track-seek", "5ms", "longer than --avg-seek"},
		{"--full-seek", "40ms", "more than about three times --avg-seek"},
		{"--media-rate", "57-36", "needs a unit: MB/s"},
		{"--media-rate", "1-2-3MB/s", "not a rate or a range"},
		{"--media-rate", "", "not a number"},
		{"--media-rate", "0MB/s", "out of range"},
		{"--cache", "8", "needs a unit"},
		{"--cache", "1k", "out of range"},
		{"--queue", "0", "out of range (1..256)"},
		{"--queue", "64x", "not a whole number"},
		{"--surfaces", "0", "out of range"},
		{"--zones", "101", "out of range (1..100)"},
		{"--interface", "fast", "not a number"},
		{"--name", "a b", "--name"},
	};
	static const char *const good[][2] = {
		{"--capacity", "73.5G"}, {"--rpm", "10000"}, {"--avg-seek", "4.7ms"},
		{"--track-seek", "0.6ms"}, {"--full-seek", "11ms"}, {"--media-rate", "57-36MB/s"},
		{"--cache", "8M"}, {"--queue", "64"},
	};
	char path[300];
	path_in_dir(path, sizeof(path), "bad.model");
	for (unsigned b = 0; b < sizeof(bad) / sizeof(bad[0]); b++) {
		const char *v[8];
		for (unsigned g = 0; g < 8; g++)
			v[g] = strcmp(good[g][0], bad[b].opt) ? good[g][1] : bad[b].value;
		bool extra = true;
		for (unsigned g = 0; g < 8; g++)
			extra = extra && strcmp(good[g][0], bad[b].opt);
		/* an option outside the eight goes last; the eight take their (bad) values */
		struct th_out o = th_iolab("model", "new", good[0][0], v[0], good[1][0], v[1], good[2][0],
					   v[2], good[3][0], v[3], good[4][0], v[4], good[5][0], v[5],
					   good[6][0], v[6], good[7][0], v[7], "-o", path,
					   extra ? bad[b].opt : "--force", extra ? bad[b].value : NULL, NULL);
		print_message("%s '%s'\n", bad[b].opt, bad[b].value);
		TH_EXPECT_EXIT(o, 2, bad[b].opt, bad[b].needle);
		assert_false(th_exists(path));
	}
	/* a missing figure is named */
	struct th_out o = th_iolab("model", "new", "--capacity", "73.5G", "--rpm", "10000", "-o", path, NULL);
	TH_EXPECT_EXIT(o, 2, "--avg-seek is required");
	assert_false(th_exists(path));
}

static void test_new_existing_output_needs_force(void **state)
{
	(void)state;
	char path[300];
	path_in_dir(path, sizeof(path), "exists.model");
	th_write_text(path, "mine\n");
	struct th_out o = th_iolab("model", "new", X15_ARGS, "-o", path, NULL);
	TH_EXPECT_EXIT(o, 2, "--output", "exists", "--force");
	char *text = th_read_file(path, NULL);
	assert_string_equal(text, "mine\n");
	free(text);
	o = th_iolab("model", "new", X15_ARGS, "-o", path, "--force", NULL);
	TH_EXPECT_EXIT(o, 0, "wrote");
	expect_model(path, 73.5e9, 0.6, 4.7, 11, 57, 36);
}

static json_t *check_json(const char *model)
{
	struct th_out o = th_iolab("model", "check", model, "--json", NULL);
	if (o.status)
		fail_msg("model check %s: exit %d: %s", model, o.status, o.err);
	json_error_t je;
	json_t *root = json_loads(o.out, 0, &je);
	if (!root)
		fail_msg("model check %s --json: %s", model, je.text);
	th_out_free(&o);
	return root;
}

static double jnum(json_t *root, const char *obj, const char *key)
{
	json_t *v = json_object_get(json_object_get(root, obj), key);
	if (!json_is_number(v))
		fail_msg("%s.%s is not a number", obj, key);
	return json_number_value(v);
}

/* model check: the datasheet's figures beside the model's; random reads as a 7200 rpm drive
 * with an 8.9 ms average seek does them: 1000 / (8.9 + 4.17 + overheads) ms, about 75 IOPS. */
static void test_check_figures(void **state)
{
	(void)state;
	char wd[300];
	path_in_dir(wd, sizeof(wd), "wd-check.model");
	struct th_out o = th_iolab("model", "new", WD1200_ARGS, "-o", wd, NULL);
	TH_EXPECT_EXIT(o, 0, "wrote");
	json_t *r = check_json(wd);
	assert_true(json_is_true(json_object_get(r, "from_datasheet")));
	assert_true(jnum(r, "input", "seek_average_ms") == 8.9);
	assert_true(jnum(r, "input", "media_outer_mb_s") == 48);
	assert_true(jnum(r, "input", "capacity_bytes") == 120e9);
	expect_near(jnum(r, "model", "seek_third_ms"), 8.9, 0.01, "check: seek at 1/3");
	expect_near(jnum(r, "model", "seek_track_ms"), 2, 0.01, "check: track seek");
	expect_near(jnum(r, "model", "seek_full_ms"), 21, 0.01, "check: full seek");
	expect_near(jnum(r, "model", "rotational_latency_ms"), 30e3 / 7200, 0.001, "check: latency");
	expect_near(jnum(r, "model", "media_outer_mb_s"), 48, 0.02, "check: outer rate");
	expect_near(jnum(r, "model", "media_inner_mb_s"), 26, 0.02, "check: inner rate");
	assert_true(jnum(r, "model", "sustained_outer_mb_s") < jnum(r, "model", "media_outer_mb_s"));
	assert_true(jnum(r, "model", "capacity_bytes") >= 120e9);
	double random_ms = jnum(r, "model", "seek_random_ms");
	assert_true(random_ms > 2 && random_ms < 21);
	double iops = jnum(r, "model", "random_read_4k_qd1_iops");
	print_message("wd1200 model: %.1f random 4 KiB reads a second at QD 1\n", iops);
	assert_true(iops > 65 && iops < 85);
	assert_int_equal((int)jnum(r, "model", "random_reads"), 3000);
	json_decref(r);

	/* text: the same figures, the inputs beside them */
	o = th_iolab("model", "check", wd, NULL);
	assert_int_equal(o.status, 0);
	assert_non_null(strstr(o.out, "8.900 ms at 1/3 stroke"));
	assert_non_null(strstr(o.out, "48.00 MB/s"));
	assert_non_null(strstr(o.out, "IOPS"));
	th_out_free(&o);

	/* a built-in model: its own datasheet fields are the inputs; no capacity input */
	r = check_json("sata7200");
	assert_true(json_is_false(json_object_get(r, "from_datasheet")));
	assert_true(jnum(r, "input", "seek_average_ms") == 8.5);
	assert_true(json_is_null(json_object_get(json_object_get(r, "input"), "capacity_bytes")));
	expect_near(jnum(r, "model", "seek_random_ms"), 8.5, 0.01, "sata7200: mean random seek");
	json_decref(r);

	/* an SSD has no mechanics; a '# datasheet:' line that does not read is named */
	o = th_iolab("model", "check", "nvme-ssd", NULL);
	TH_EXPECT_EXIT(o, 2, "model check", "SSD");
	char *text = th_read_file(wd, NULL);
	char *at = strstr(text, "--avg-seek 8.9ms");
	assert_non_null(at);
	memcpy(at, "--avg-seek 8.9xs", 16);
	char bad[300];
	path_in_dir(bad, sizeof(bad), "wd-bad.model");
	th_write_text(bad, text);
	free(text);
	o = th_iolab("model", "check", bad, NULL);
	TH_EXPECT_EXIT(o, 2, "wd-bad.model", "line 18", "--avg-seek", "unknown unit 'xs'");
}

/* The model runs in the simulator with a plausible random-read rate. */
static void test_sim_runs_the_model(void **state)
{
	(void)state;
	char wd[300], json[300];
	path_in_dir(wd, sizeof(wd), "wd-sim.model");
	path_in_dir(json, sizeof(json), "wd-sim.json");
	struct th_out o = th_iolab("model", "new", WD1200_ARGS, "-o", wd, NULL);
	TH_EXPECT_EXIT(o, 0, "wrote");
	o = th_iolab("sim", "--model", wd, "--pattern", "rand-read", "--qd", "1", "--json", json, NULL);
	if (o.status)
		fail_msg("sim: exit %d: %s", o.status, o.err);
	th_out_free(&o);
	json_t *root = th_load_json(json);
	assert_non_null(root);
	double iops = json_number_value(json_object_get(json_array_get(json_object_get(root, "points"),
									0), "iops"));
	print_message("sim --model wd1200.model --pattern rand-read --qd 1: %.1f IOPS\n", iops);
	assert_true(iops > 65 && iops < 85);
	json_decref(root);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_new_models_load_and_meet_figures),
		cmocka_unit_test(test_new_marks_and_queue),
		cmocka_unit_test(test_new_bad_inputs),
		cmocka_unit_test(test_new_existing_output_needs_force),
		cmocka_unit_test(test_check_figures),
		cmocka_unit_test(test_sim_runs_the_model),
	};
	return cmocka_run_group_tests(tests, th_dir_setup, th_dir_teardown);
}
