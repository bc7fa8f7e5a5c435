/* test_disksim_keys.c: the parameter names of a DiskSim 4.0 specification, through
 * `iolab model import-disksim`. A name DiskSim 4.0 itself rejects (not in its block's modspec)
 * is refused with one line naming file, line and key (exit 2); a name DiskSim accepts that
 * iolab does not model is accepted, with one note line for it (exit 0). The specifications are
 * the tiny test drive of tests/data/disksim-specs/cache-ctl.inc with one parameter added. */
#include <limits.h>
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <cmocka.h>

#include "helpers.h"

/* A specification in th_dir: the test drive with `extra` in its disksim_disk block (line 3),
 * and Scheduler's block holding `in_queue` (a parameter line, or ""). */
static void write_spec(const char *path, const char *extra)
{
	char inc[PATH_MAX];
	th_spec_path(inc, sizeof(inc), "cache-ctl.inc");
	FILE *f = fopen(path, "w");
	assert_non_null(f);
	fprintf(f, "disksim_disk keys {\n   source %s,\n   %s,\n   Enable caching in buffer = 1,\n"
		"   Buffer continuous read = 0,\n   Fast write level = 0\n}\n", inc, extra);
	assert_int_equal(fclose(f), 0);
}

static void test_unknown_key_refused(void **state)
{
	(void)state;
	char spec[PATH_MAX], out[PATH_MAX];
	snprintf(spec, sizeof(spec), "%s/bogus.diskspecs", th_dir);
	snprintf(out, sizeof(out), "%s/bogus.model", th_dir);
	write_spec(spec, "Read-ahead turbo = 1");
	struct th_out o = th_iolab("model", "import-disksim", spec, "-o", out, NULL);
	TH_EXPECT_EXIT(o, 2, "bogus.diskspecs:3", "'Read-ahead turbo'", "disksim_disk");
	assert_false(th_exists(out));
}

/* DiskSim 4.0 accepts these (src-disk.modspec); iolab does not model them. */
static void test_accepted_key_noted(void **state)
{
	(void)state;
	static const char *const keys[] = {"Print stats = 1", "Calc sector by sector = 1",
					   "Avg sectors per cylinder = 100"};
	for (unsigned i = 0; i < 3; i++) {
		char spec[PATH_MAX], out[PATH_MAX], name[64];
		snprintf(spec, sizeof(spec), "%s/ok%u.diskspecs", th_dir, i);
		snprintf(out, sizeof(out), "%s/ok%u.model", th_dir, i);
		write_spec(spec, keys[i]);
		struct th_out o = th_iolab("model", "import-disksim", spec, "-o", out, NULL);
		snprintf(name, sizeof(name), "'%.*s'", (int)(strchr(keys[i], '=') - keys[i] - 1), keys[i]);
		if (o.status || !strstr(o.err, name) || !strstr(o.err, "not modelled"))
			print_error("%s: exit %d\n%s", keys[i], o.status, o.err);
		assert_int_equal(o.status, 0);
		char where[160];
		snprintf(where, sizeof(where), "%s (ok%u.diskspecs:3)", name, i);
		assert_non_null(strstr(o.err, where));
		assert_non_null(strstr(o.err, "not modelled by iolab"));
		assert_int_equal(th_count_lines(o.err), 2); /* "wrote ...", and the note in one line */
		th_out_free(&o);
		assert_true(th_exists(out));
	}
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_unknown_key_refused),
		cmocka_unit_test(test_accepted_key_noted),
	};
	return cmocka_run_group_tests(tests, th_dir_setup, th_dir_teardown);
}
