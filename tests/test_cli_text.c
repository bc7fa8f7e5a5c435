/* test_cli_text.c: text from outside iolab (file names, labels, trace target names) that is not
 * clean UTF-8. A --label with a newline, a control character or bytes that are not UTF-8 (it
 * would break `db list`) is refused, as are an empty and an all-digit one; an error message
 * shows such bytes of a file name, and an escape sequence, as \xNN instead of sending them to
 * the terminal; a target named with the bytes 0xff 0xfe survives into the JSON (which parses,
 * and holds the name escaped) and the results store (`db list` shows it), and so does a trace's
 * target name in `trace info --json`. */
#include <limits.h>
#include <setjmp.h>
#include <stdarg.h>
#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <string.h>

#include <cmocka.h>
#include <jansson.h>

#include "helpers.h"

static void path_in(char *buf, size_t n, const char *name)
{
	snprintf(buf, n, "%s/%s", th_dir, name);
}

static void test_label_must_be_text(void **state)
{
	(void)state;
	static const char *const bad[] = {"two\nlines", "tab\there", "esc\x1b[2J", "bad\xff",
					  "half\xc3", ""};
	for (unsigned i = 0; i < sizeof(bad) / sizeof(bad[0]); i++) {
		struct th_out o = th_iolab("run", "--engine", "null", "--time", "0.1", "--label", bad[i],
					   NULL);
		TH_EXPECT_EXIT(o, 2, "--label");
	}
	struct th_out o = th_iolab("run", "--engine", "null", "--time", "0.1", "--label", "1234", NULL);
	TH_EXPECT_EXIT(o, 2, "--label '1234'", "run id");
	o = th_iolab("db", "list", NULL); /* nothing was run, so nothing was saved */
	assert_null(strstr(o.out, "--label"));
	assert_int_equal(th_count_lines(o.out), 0);
	th_out_free(&o);
	o = th_iolab("run", "--engine", "null", "--time", "0.1", "--quiet", "--label", "disk ü 2",
		     NULL);
	assert_int_equal(o.status, 0);
	th_out_free(&o);
}

/* A missing job file whose name holds an invalid byte and an escape sequence (ESC [ 3 1 m, red). */
static void test_message_escapes_bytes(void **state)
{
	(void)state;
	char job[PATH_MAX];
	path_in(job, sizeof(job), "bad\xff\x1b[31m.job");
	struct th_out o = th_iolab("run", "--job", job, NULL);
	assert_null(strchr(o.err, '\x1b'));
	assert_null(strchr(o.err, '\xff'));
	TH_EXPECT_EXIT(o, 2, "bad\\xff\\x1b[31m.job", "No such file");
}

static json_t *load_json(const char *path)
{
	json_t *j = th_load_json(path);
	assert_non_null(j);
	return j;
}

static void test_target_not_utf8_survives(void **state)
{
	(void)state;
	char target[PATH_MAX], json[PATH_MAX], escaped[PATH_MAX];
	path_in(target, sizeof(target), "disk\xff\xfe.img");
	path_in(escaped, sizeof(escaped), "disk\\xff\\xfe.img");
	path_in(json, sizeof(json), "run.json");
	struct th_out o = th_iolab("run", target, "--size", "1m", "--time", "0.1", "--quiet", "--json",
				   json, "--label", "odd-name", NULL);
	assert_int_equal(o.status, 0);
	th_out_free(&o);
	json_t *root = load_json(json);
	json_t *targets = json_object_get(json_array_get(json_object_get(json_object_get(root,
		"config"), "runs"), 0), "targets");
	assert_int_equal(json_array_size(targets), 1);
	assert_string_equal(json_string_value(json_array_get(targets, 0)), escaped);
	json_t *dev = json_array_get(json_object_get(root, "devices"), 0);
	assert_non_null(dev);
	assert_string_equal(json_string_value(json_object_get(dev, "target")), escaped);
	json_decref(root);
	o = th_iolab("db", "list", NULL);
	assert_int_equal(o.status, 0);
	assert_non_null(strstr(o.out, "odd-name"));
	assert_non_null(strstr(o.out, "disk\\xff\\xfe.img"));
	assert_null(strchr(o.out, '\xff'));
	th_out_free(&o);
}

/* fio's iolog names its files; one whose name is not UTF-8 keeps it, escaped, in trace info. */
static void test_trace_target_not_utf8(void **state)
{
	(void)state;
	char log[PATH_MAX], json[PATH_MAX];
	path_in(log, sizeof(log), "odd.log");
	path_in(json, sizeof(json), "odd.json");
	FILE *f = fopen(log, "w");
	assert_non_null(f);
	fputs("fio version 2 iolog\n/dev/sd\xff add\n/dev/sd\xff open\n/dev/sd\xff read 0 4096\n"
	      "/dev/sd\xff close\n", f);
	assert_int_equal(fclose(f), 0);
	struct th_out o = th_iolab("trace", "info", log, "--format", "fio-iolog", "--json", json, NULL);
	assert_int_equal(o.status, 0);
	th_out_free(&o);
	json_t *root = load_json(json);
	json_t *t = json_array_get(json_object_get(root, "targets"), 0);
	assert_string_equal(json_string_value(json_object_get(t, "name")), "/dev/sd\\xff");
	json_decref(root);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_label_must_be_text),
		cmocka_unit_test(test_message_escapes_bytes),
		cmocka_unit_test(test_target_not_utf8_survives),
		cmocka_unit_test(test_trace_target_not_utf8),
	};
	return cmocka_run_group_tests(tests, th_dir_setup, th_dir_teardown);
}
