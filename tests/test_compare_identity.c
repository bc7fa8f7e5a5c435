/* test_compare_identity.c: what compare matches points by (docs/compare.md): the drive-review
 * method of docs/compare.md ("Patterns against a trace") through the binary on simulated drives
 * (copies of models/sas15k.model and models/atlas10k.model as x15.model and m.model): IOMeter
 * patterns at several queue depths, a trace recorded from one and replayed; points[].workload in
 * the JSON; the replay against the pattern runs by default (nothing matched: exit 1) and
 * --by qd (the trace's point beside each pattern's, with a gain); an unknown --by field; a
 * 4-drive volume against a run sweeping 4, 8 and 12 drives (one row); a label several runs
 * share standing for all of them; `report --ref --by` embedding that one comparison, and without
 * --ref a real run and a simulation not grouped; trace names shortened from the middle. */
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
#include "iolab/short_names.h"

static char db[512];

/* Runs a shell line in th_dir with $DB the store; asserts its exit status. */
#define SH(want, ...) assert_int_equal(th_sh("cd '%s' && DB='%s' && " __VA_ARGS__), want)

static int setup(void **state)
{
	th_dir_setup(state);
	snprintf(db, sizeof(db), "%s/runs.db", th_dir);
	const char *src = getenv("IOLAB_SRC");
	assert_non_null(src);
	assert_int_equal(th_sh("cp '%s/models/sas15k.model' '%s/x15.model' && cp '%s/models/atlas10k.model' "
			       "'%s/m.model'", src, th_dir, src, th_dir), 0);
	/* the review: X15 and M with IOMeter patterns, a trace recorded on X15, replayed on M */
	SH(0, "$B sim --db $DB --model x15.model --pattern file-server,web-server --qd 1,4 --time 1 "
	   "--label 'X15 IOMeter' --quiet >/dev/null", th_dir, db);
	SH(0, "$B sim --db $DB --model m.model --pattern file-server,web-server --qd 1,4 --time 1 "
	   "--label 'M IOMeter' --quiet >/dev/null", th_dir, db);
	SH(0, "$B sim --no-db --model x15.model --pattern file-server --qd 1 --time 2 "
	   "--record fs-qd1.iot --quiet >/dev/null", th_dir, db);
	/* M is smaller than X15: the trace's offsets are scaled onto it */
	SH(0, "$B replay fs-qd1.iot --db $DB --model m.model --qd 1,4 --scale --label 'M trace' "
	   "--json trace.json --quiet >/dev/null", th_dir, db);
	return 0;
}

/* `iolab compare ARGS --db db --json -` through the shell: its exit status is want; the result. */
static json_t *compare_json(int want, const char *args)
{
	char out[600];
	snprintf(out, sizeof(out), "%s/cmp.json", th_dir);
	SH(want, "$B compare %s --db $DB --json - > cmp.json", th_dir, db, args);
	return th_load_json(out);
}

static void test_workload_in_points(void **state)
{
	(void)state;
	char path[600];
	snprintf(path, sizeof(path), "%s/trace.json", th_dir);
	json_t *doc = th_load_json(path);
	assert_non_null(doc);
	const json_t *w = json_object_get(json_array_get(json_object_get(doc, "points"), 0), "workload");
	assert_string_equal(json_string_value(json_object_get(w, "kind")), "trace");
	assert_true(json_is_null(json_object_get(w, "pattern")));
	json_decref(doc);
	SH(0, "$B sim --no-db --model m.model --pattern web-server --qd 1 --time 1 --json p.json --quiet "
	   ">/dev/null", th_dir, db);
	snprintf(path, sizeof(path), "%s/p.json", th_dir);
	doc = th_load_json(path);
	w = json_object_get(json_array_get(json_object_get(doc, "points"), 0), "workload");
	assert_string_equal(json_string_value(json_object_get(w, "kind")), "pattern");
	assert_string_equal(json_string_value(json_object_get(w, "pattern")), "web-server");
	json_decref(doc);
	/* a job's [worker] sections: its workers' patterns */
	SH(0, "$B sim --no-db --job \"$IOLAB_SRC/examples/iometer-mix.job\" --time 1 --json j.json --quiet "
	   ">/dev/null", th_dir, db);
	snprintf(path, sizeof(path), "%s/j.json", th_dir);
	doc = th_load_json(path);
	w = json_object_get(json_array_get(json_object_get(doc, "points"), 0), "workload");
	assert_string_equal(json_string_value(json_object_get(w, "kind")), "job");
	assert_string_equal(json_string_value(json_array_get(json_object_get(w, "specs"), 1)), "seq-read");
	json_decref(doc);
}

static void test_trace_against_patterns(void **state)
{
	(void)state;
	/* by default the trace's points have no pattern: nothing is in every run, exit 1 */
	json_t *res = compare_json(1, "'M IOMeter' 'M trace' --gain --ref 'X15 IOMeter'");
	assert_non_null(res);
	assert_int_equal(json_array_size(json_object_get(res, "points")), 0);
	assert_int_equal(json_array_size(json_object_get(res, "unmatched")), 10);
	json_decref(res);
	SH(1, "{ $B compare --db $DB 'M IOMeter' 'M trace' --gain --ref 'X15 IOMeter' > t.txt; st=$?; "
	   "grep -q 'no point is in every run' t.txt && exit $st; }", th_dir, db);

	/* --by qd: the trace's qd 1 point beside file-server qd 1 and web-server qd 1 */
	res = compare_json(0, "--ref 'X15 IOMeter' --gain 'M IOMeter' 'M trace' --by qd");
	assert_non_null(res);
	const json_t *points = json_object_get(res, "points");
	assert_int_equal(json_array_size(points), 4);
	assert_string_equal(json_string_value(json_array_get(json_object_get(res, "by"), 0)), "qd");
	assert_int_equal(json_array_size(json_object_get(res, "unmatched")), 0);
	size_t i;
	const json_t *p;
	int fs_qd1 = 0, ws_qd1 = 0;
	json_array_foreach(points, i, p) {
		const char *name = json_string_value(json_object_get(p, "name"));
		fs_qd1 += !strcmp(name, "file-server read 80% qd 1");
		ws_qd1 += !strcmp(name, "web-server read 100% qd 1");
		/* the gain is the trace's % of X15 minus the patterns' */
		const json_t *v = json_object_get(p, "values");
		double a = json_number_value(json_object_get(json_object_get(json_array_get(v, 1), "pct"), "iops"));
		double b = json_number_value(json_object_get(json_object_get(json_array_get(v, 2), "pct"), "iops"));
		double g = json_number_value(json_object_get(json_object_get(p, "gain"), "iops"));
		assert_true(fabs(g - (b - a)) < 1e-9);
	}
	assert_int_equal(fs_qd1, 1);
	assert_int_equal(ws_qd1, 1);
	json_decref(res);
}

static void test_unknown_by_field(void **state)
{
	(void)state;
	struct th_out o = th_iolab("compare", "M IOMeter", "M trace", "--by", "qd,speed", "--db", db, NULL);
	TH_EXPECT_EXIT(o, 2, "--by", "'speed'");
}

static void test_volume_not_left_open(void **state)
{
	(void)state;
	SH(0, "$B sim --db $DB --array raid5:4 --drive atlas10k --pattern rand-read --bs 4k --qd 4 --time 1 "
	   "--label v4 --quiet >/dev/null && $B sim --db $DB --array raid5:4,8,12 --drive atlas10k --pattern "
	   "rand-read --bs 4k --qd 4 --time 1 --label v4-12 --quiet >/dev/null", th_dir, db);
	json_t *res = compare_json(0, "v4 v4-12");
	assert_non_null(res);
	const json_t *points = json_object_get(res, "points");
	assert_int_equal(json_array_size(points), 1);
	const json_t *vol = json_object_get(json_object_get(json_array_get(points, 0), "key"), "volume");
	assert_int_equal(json_integer_value(json_object_get(vol, "drives")), 4);
	assert_int_equal(json_array_size(json_object_get(res, "unmatched")), 2);
	json_decref(res);
}

static void test_label_group(void **state)
{
	(void)state;
	/* two runs share the label "M parts": one group, its points pooled */
	SH(0, "$B sim --db $DB --model m.model --pattern file-server --qd 1 --time 1 --label 'M parts' "
	   "--quiet >/dev/null && $B sim --db $DB --model m.model --pattern web-server --qd 1 --time 1 "
	   "--label 'M parts' --quiet >/dev/null", th_dir, db);
	json_t *res = compare_json(0, "'X15 IOMeter' 'M parts'");
	assert_non_null(res);
	assert_int_equal(json_array_size(json_object_get(res, "points")), 2);
	const json_t *run = json_array_get(json_object_get(res, "runs"), 1);
	assert_int_equal(json_array_size(json_object_get(run, "ids")), 2);
	/* each value of the group remembers its run */
	const json_t *v0 = json_array_get(json_object_get(json_array_get(json_object_get(res, "points"), 0), "values"), 1);
	const json_t *v1 = json_array_get(json_object_get(json_array_get(json_object_get(res, "points"), 1), "values"), 1);
	assert_true(json_is_integer(json_object_get(v0, "run_id")));
	assert_true(json_integer_value(json_object_get(v0, "run_id")) != json_integer_value(json_object_get(v1, "run_id")));
	json_decref(res);
	/* a group's price */
	res = compare_json(0, "'X15 IOMeter' 'M parts' --price 'M parts=80'");
	assert_non_null(res);
	assert_true(json_number_value(json_object_get(json_array_get(json_object_get(res, "runs"), 1), "price_usd")) == 80);
	json_decref(res);
	/* the patterns against the trace, groups on both sides of the gain */
	res = compare_json(0, "--ref 'X15 IOMeter' --gain 'M IOMeter,M parts' 'M trace' --by qd");
	assert_non_null(res);
	assert_int_equal(json_array_size(json_object_get(json_array_get(json_object_get(res, "runs"), 1), "ids")), 3);
	json_decref(res);
}

static void test_report_ref_by(void **state)
{
	(void)state;
	SH(0, "$B report --db $DB --ref 'X15 IOMeter' --by qd 'X15 IOMeter' 'M IOMeter' 'M trace' -o review.html",
	   th_dir, db);
	char path[600];
	snprintf(path, sizeof(path), "%s/review.html", th_dir);
	char *html = th_read_file(path, NULL);
	assert_non_null(strstr(html, "\"by\":[\"qd\"]"));
	assert_non_null(strstr(html, "web-server read 100% qd 4"));
	free(html);
	struct th_out o = th_iolab("report", "--db", db, "--ref", "v4", "M IOMeter", "M trace", "-o", "-", NULL);
	TH_EXPECT_EXIT(o, 2, "--ref", "not one of the runs");
}

/* The review of docs/compare.md as a user types it, in a directory of its own and the test's
 * own store ($XDG_DATA_HOME, helpers.h): the trace recorded into traces/ and replayed from it on
 * the smaller drive (its offsets fitted to it). */
static void test_review_commands(void **state)
{
	(void)state;
	SH(0, "mkdir -p review && cd review && cp ../x15.model ../m.model . && "
	   "$B sim --model x15.model --pattern file-server,web-server --qd 1,4,16,64 --label 'X15 IOMeter' "
	   ">/dev/null && "
	   "$B sim --model m.model --pattern file-server,web-server --qd 1,4,16,64 --label 'M IOMeter' >/dev/null && "
	   "$B sim --model x15.model --pattern file-server --qd 1 --time 600 --record traces/ >/dev/null && "
	   "$B replay traces/ --model m.model --qd 1,4,16,64 --label 'M trace' >/dev/null 2>&1 && "
	   "$B compare --ref 'X15 IOMeter' --gain 'M IOMeter' 'M trace' --by qd > compare.txt && "
	   "$B report --ref 'X15 IOMeter' --by qd 'X15 IOMeter' 'M IOMeter' 'M trace' -o review.html && "
	   "$B model new --capacity 120G --rpm 7200 --avg-seek 8.9ms --track-seek 2ms --full-seek 21ms "
	   "--media-rate 48-26MB/s --cache 2M --queue 1 -o wd1200.model 2>/dev/null", th_dir, db);
	char path[600];
	snprintf(path, sizeof(path), "%s/review/compare.txt", th_dir);
	char *text = th_read_file(path, NULL);
	/* a row per pattern and queue depth, each with a gain */
	assert_non_null(strstr(text, "file-server read 80% qd 64"));
	assert_non_null(strstr(text, "web-server read 100% qd 16"));
	assert_int_equal(th_count_lines(text) - 1 - 4 /* overall */, 1 + 8);
	assert_non_null(strstr(text, " pp\n"));
	free(text);
}

/* Without --ref, report compares only runs of one kind: a run on the null engine (real targets'
 * side) and a simulation of the same points are not grouped; with --by they are. */
static void test_report_kinds_apart(void **state)
{
	(void)state;
	SH(0, "$B run --db $DB --engine null --pattern rand-read --bs 4k --qd 1 --time 1 --label real "
	   ">/dev/null && $B sim --db $DB --model atlas10k --pattern rand-read --bs 4k --qd 1 --time 1 "
	   "--label simd >/dev/null", th_dir, db);
	SH(0, "$B report --db $DB real simd -o kinds.html && ! grep -q '\"comparison\":' kinds.html",
	   th_dir, db);
	SH(0, "$B report --db $DB real simd --by qd -o kinds-by.html && grep -q '\"comparison\":' "
	   "kinds-by.html", th_dir, db);
}

/* Trace names in tables: shortened from the middle, kept apart, numbered when alike in full. */
static void test_short_names(void **state)
{
	(void)state;
	json_t *names = json_pack("{ss ss ss ss}", "xxh64:1", "server-trace-monday-0000001-part-a.iot",
				  "xxh64:2", "server-trace-monday-0000001-part-b.iot", "xxh64:3", "a.iot",
				  "xxh64:4", "a.iot");
	assert_int_equal(iolab_short_names_json(names, 24), 0);
	const char *a = json_string_value(json_object_get(names, "xxh64:1")),
		   *b = json_string_value(json_object_get(names, "xxh64:2"));
	assert_true(strcmp(a, b) != 0);
	assert_true(strlen(a) < strlen("server-trace-monday-0000001-part-a.iot"));
	assert_true(strstr(a, "\u2026") != NULL);
	assert_string_equal(json_string_value(json_object_get(names, "xxh64:3")), "a.iot #1");
	assert_string_equal(json_string_value(json_object_get(names, "xxh64:4")), "a.iot #2");
	json_decref(names);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_workload_in_points),
		cmocka_unit_test(test_trace_against_patterns),
		cmocka_unit_test(test_unknown_by_field),
		cmocka_unit_test(test_volume_not_left_open),
		cmocka_unit_test(test_label_group),
		cmocka_unit_test(test_report_ref_by),
		cmocka_unit_test(test_report_kinds_apart),
		cmocka_unit_test(test_review_commands),
		cmocka_unit_test(test_short_names),
	};
	return cmocka_run_group_tests(tests, setup, th_dir_teardown);
}
