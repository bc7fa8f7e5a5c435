/* test_report.c: `iolab report` (docs/report.md) without a browser: the page is one file that
 * fetches nothing (no http:// or https:// reference outside the licence comments Chart.js ships,
 * no src or href attribute at all), keeps Chart.js's MIT notice, embeds the runs' documents as
 * JSON that parses back to exactly what `iolab db export --json` gives, escapes "</" and "<!--"
 * inside that script element (the HTML standard's restrictions for contents of script elements,
 * section 4.12.1.3: "</script" ends the element, "<!--" changes how the rest is parsed); an
 * unknown run is refused with exit 2 and writes nothing; an existing file is replaced only with
 * --force; the library embeds a comparison object when given one. */
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
#include "iolab/report.h"
#include "iolab/store.h"

static char db[512];

static void in_dir(char *buf, size_t n, const char *name)
{
	snprintf(buf, n, "%s/%s", th_dir, name);
}

static int setup(void **state)
{
	th_dir_setup(state);
	in_dir(db, sizeof(db), "results.db");
	struct th_out a = th_iolab("sim", "--model", "atlas10k", "--pattern", "rand-read", "--bs", "4k",
				   "--qd", "1,4", "--time", "1", "--db", db, "--label", "atlas", "--quiet", NULL);
	struct th_out b = th_iolab("sim", "--model", "barracuda", "--pattern", "file-server", "--time", "1",
				   "--db", db, "--label", "</script><!--x", "--quiet", NULL);
	struct th_out c = th_iolab("sim", "--model", "cheetah9LP", "--pattern", "rand-read", "--bs", "4k",
				   "--qd", "1,4", "--time", "1", "--db", db, "--label", "cheetah", "--quiet", NULL);
	int ok = a.status == 0 && b.status == 0 && c.status == 0;
	if (!ok)
		fprintf(stderr, "sim failed: %s%s%s", a.err, b.err, c.err);
	th_out_free(&a);
	th_out_free(&b);
	th_out_free(&c);
	return ok ? 0 : -1;
}

/* The report of runs 1 and 2 written to path. */
static char *report(const char *path)
{
	struct th_out o = th_iolab("report", "1", "</script><!--x", "-o", path, "--db", db, "--force", NULL);
	if (o.status)
		fprintf(stderr, "%s", o.err);
	assert_int_equal(o.status, 0);
	assert_string_equal(o.err, "");
	th_out_free(&o);
	return th_read_file(path, NULL);
}

/* html with every comment that starts "/ *!" (a licence comment kept by minifiers) removed. */
static char *without_licence_comments(const char *html)
{
	char *out = strdup(html), *w = out;
	assert_non_null(out);
	for (const char *p = html; *p;) {
		if (!strncmp(p, "/*!", 3)) {
			const char *end = strstr(p, "*/");
			assert_non_null(end);
			p = end + 2;
		} else {
			*w++ = *p++;
		}
	}
	*w = 0;
	return out;
}

static void test_self_contained(void **state)
{
	(void)state;
	char path[512];
	in_dir(path, sizeof(path), "page.html");
	char *html = report(path);
	assert_non_null(strstr(html, "<!DOCTYPE html>"));
	/* Chart.js's header comment with its licence, as Debian ships it */
	assert_non_null(strstr(html, "/*!\n * Chart.js v3."));
	assert_non_null(strstr(html, "Released under the MIT License"));
	char *rest = without_licence_comments(html);
	assert_null(strstr(rest, "http://"));
	assert_null(strstr(rest, "https://"));
	/* nothing loaded from elsewhere, not even a relative file */
	assert_null(strstr(rest, " src="));
	assert_null(strstr(rest, " href="));
	assert_null(strstr(rest, "<link"));
	assert_null(strstr(rest, "@import"));
	free(rest);
	free(html);
}

/* The JSON text inside <script type="application/json" id="iolab-data">, parsed. */
static json_t *embedded(const char *html)
{
	const char *open = "<script type=\"application/json\" id=\"iolab-data\">";
	const char *start = strstr(html, open);
	assert_non_null(start);
	start += strlen(open);
	const char *end = strstr(start, "</script>");
	assert_non_null(end);
	json_error_t je;
	json_t *d = json_loadb(start, (size_t)(end - start), 0, &je);
	if (!d)
		fail_msg("the embedded data does not parse: line %d: %s", je.line, je.text);
	return d;
}

static json_t *exported(const char *key)
{
	char path[512];
	in_dir(path, sizeof(path), "export.json");
	struct th_out o = th_iolab("db", "export", key, "--json", path, "--force", "--db", db, NULL);
	assert_int_equal(o.status, 0);
	th_out_free(&o);
	json_t *d = th_load_json(path);
	assert_non_null(d);
	return d;
}

static void test_data_embedded(void **state)
{
	(void)state;
	char path[512];
	in_dir(path, sizeof(path), "data.html");
	char *html = report(path);
	json_t *d = embedded(html);
	json_t *runs = json_object_get(d, "runs");
	assert_int_equal(json_array_size(runs), 2);
	json_t *r0 = json_array_get(runs, 0), *r1 = json_array_get(runs, 1);
	assert_int_equal(json_integer_value(json_object_get(r0, "id")), 1);
	assert_string_equal(json_string_value(json_object_get(r0, "label")), "atlas");
	assert_string_equal(json_string_value(json_object_get(r1, "label")), "</script><!--x");
	json_t *e0 = exported("1"), *e1 = exported("2");
	assert_true(json_equal(json_object_get(r0, "doc"), e0));
	assert_true(json_equal(json_object_get(r1, "doc"), e1));
	assert_int_equal(json_array_size(json_object_get(json_object_get(r0, "doc"), "points")), 2);
	assert_null(json_object_get(d, "comparison")); /* the two runs share no point */
	/* the label's "</script><!--" never reaches the page as such */
	assert_null(strstr(html, "</script><!--"));
	assert_non_null(strstr(html, "<\\/script>\\u003c!--x"));
	json_decref(e0);
	json_decref(e1);
	json_decref(d);
	free(html);
}

static void test_unknown_run(void **state)
{
	(void)state;
	char path[512];
	in_dir(path, sizeof(path), "unknown.html");
	struct th_out o = th_iolab("report", "1", "nope", "-o", path, "--db", db, NULL);
	TH_EXPECT_EXIT(o, 2, "report", "nope");
	assert_false(th_exists(path));
	o = th_iolab("report", "99", "-o", path, "--db", db, NULL);
	TH_EXPECT_EXIT(o, 2, "99");
	assert_false(th_exists(path));
}

static void test_existing_needs_force(void **state)
{
	(void)state;
	char path[512];
	in_dir(path, sizeof(path), "existing.html");
	FILE *f = fopen(path, "w");
	assert_non_null(f);
	fputs("keep me\n", f);
	fclose(f);
	struct th_out o = th_iolab("report", "1", "-o", path, "--db", db, NULL);
	TH_EXPECT_EXIT(o, 2, "-o", path, "--force");
	char *text = th_read_file(path, NULL);
	assert_string_equal(text, "keep me\n");
	free(text);
	o = th_iolab("report", "1", "-o", path, "--db", db, "--force", NULL);
	assert_int_equal(o.status, 0);
	th_out_free(&o);
	text = th_read_file(path, NULL);
	assert_non_null(strstr(text, "id=\"iolab-data\""));
	free(text);
}

static void test_usage(void **state)
{
	(void)state;
	char path[512];
	in_dir(path, sizeof(path), "usage.html");
	struct th_out o = th_iolab("report", "1", "--db", db, NULL);
	TH_EXPECT_EXIT(o, 2, "-o FILE");
	o = th_iolab("report", "-o", path, "--db", db, NULL);
	TH_EXPECT_EXIT(o, 2, "ids or labels");
	o = th_iolab("report", "1", "atlas", "-o", path, "--db", db, NULL);
	TH_EXPECT_EXIT(o, 2, "named twice");
	o = th_iolab("report", "1", "-o", db, "--db", db, "--force", NULL); /* never over the store */
	TH_EXPECT_EXIT(o, 2, db);
	assert_false(th_exists(path));
	o = th_iolab("report", "--help", NULL);
	assert_int_equal(o.status, 0);
	assert_non_null(strstr(o.out, "usage: iolab report"));
	th_out_free(&o);
}

/* The title is escaped into <title>; a comparison object given to the library is embedded. */
static void test_library_title_and_comparison(void **state)
{
	(void)state;
	struct iolab_store *s;
	struct iolab_err err;
	assert_int_equal(iolab_store_open_read(&s, db, &err), 0);
	struct iolab_store_doc doc;
	assert_int_equal(iolab_store_load(s, "atlas", &doc, &err), 0);
	char fixture[512];
	th_data_path(fixture, sizeof(fixture), "report/comparison.json");
	json_t *cmp = th_load_json(fixture);
	assert_non_null(cmp);
	struct iolab_report_run run = {.id = doc.id, .label = doc.label, .doc = doc.doc};
	struct iolab_html_report r = {.title = "a <b> & \"c\"", .runs = &run, .nruns = 1, .comparison = cmp};
	char *text = NULL;
	size_t len = 0;
	FILE *f = open_memstream(&text, &len);
	assert_non_null(f);
	assert_int_equal(iolab_report_write(f, &r, &err), 0);
	fclose(f);
	assert_non_null(strstr(text, "<title>a &lt;b&gt; &amp; &quot;c&quot;</title>"));
	json_t *d = embedded(text);
	assert_true(json_equal(json_object_get(d, "comparison"), cmp));
	assert_string_equal(json_string_value(json_object_get(d, "title")), "a <b> & \"c\"");
	json_decref(d);
	free(text);
	json_decref(cmp);
	iolab_store_doc_free(&doc);
	iolab_store_close(s);
}

/* Runs are compared in groups that share points, each as % of its first run: of atlas (rand-read
 * 4k, qd 1 and 4), the file-server run and cheetah (as atlas), atlas and cheetah are one group
 * and the file-server run is left alone. */
static void test_comparison_groups(void **state)
{
	(void)state;
	char path[512];
	in_dir(path, sizeof(path), "groups.html");
	struct th_out o = th_iolab("report", "atlas", "2", "cheetah", "-o", path, "--db", db, "--force",
				   NULL);
	assert_int_equal(o.status, 0);
	th_out_free(&o);
	char *html = th_read_file(path, NULL);
	json_t *d = embedded(html);
	json_t *cmps = json_object_get(d, "comparison");
	assert_int_equal(json_array_size(cmps), 1);
	json_t *cmp = json_array_get(cmps, 0), *runs = json_object_get(cmp, "runs");
	assert_string_equal(json_string_value(json_object_get(cmp, "mode")), "ref");
	assert_int_equal(json_array_size(runs), 2);
	assert_int_equal(json_integer_value(json_object_get(json_array_get(runs, 0), "id")), 1);
	assert_int_equal(json_integer_value(json_object_get(json_array_get(runs, 1), "id")), 3);
	assert_int_equal(json_array_size(json_object_get(cmp, "points")), 2);
	assert_int_equal(json_array_size(json_object_get(cmp, "unmatched")), 0);
	json_decref(d);
	free(html);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_self_contained),
		cmocka_unit_test(test_data_embedded),
		cmocka_unit_test(test_unknown_run),
		cmocka_unit_test(test_existing_needs_force),
		cmocka_unit_test(test_usage),
		cmocka_unit_test(test_library_title_and_comparison),
		cmocka_unit_test(test_comparison_groups),
	};
	return cmocka_run_group_tests(tests, setup, th_dir_teardown);
}
