/* test_outfile.c: the output gate (include/iolab/outfile.h) through its own interface: inputs
 * noted by any spelling (a hard link, a symbolic link, a relative path), claims by option, a
 * path that turns into a device node between the check and the commit, writing through a
 * symbolic link, and the temporary files a signal handler removes. */
#include <errno.h>
#include <limits.h>
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include <cmocka.h>

#include "helpers.h"
#include "iolab/outfile.h"

static void path_in(char *buf, size_t n, const char *name)
{
	snprintf(buf, n, "%s/%s", th_dir, name);
}

static void test_input_by_any_name(void **state)
{
	(void)state;
	char in[PATH_MAX], hard[PATH_MAX], soft[PATH_MAX], here[PATH_MAX];
	path_in(in, sizeof(in), "model.in");
	path_in(hard, sizeof(hard), "hard.link");
	path_in(soft, sizeof(soft), "soft.link");
	th_write_text(in, "x\n");
	assert_int_equal(link(in, hard), 0);
	assert_int_equal(symlink(in, soft), 0);
	iolab_input_note(in);
	struct iolab_err err;
	const char *names[] = {in, hard, soft, "model.in"};
	assert_non_null(getcwd(here, sizeof(here)));
	assert_int_equal(chdir(th_dir), 0);
	for (unsigned i = 0; i < 4; i++) {
		const struct iolab_output o = {"--json", names[i], IOLAB_OUT_REPLACE};
		assert_int_equal(iolab_outputs_check(&o, 1, NULL, 0, true, &err), -EINVAL);
		assert_non_null(strstr(err.msg, "input"));
	}
	assert_int_equal(chdir(here), 0);
	/* a file not yet made, given as an input, is matched by name once it exists too */
	char later[PATH_MAX];
	path_in(later, sizeof(later), "later.img");
	const char *inputs[] = {later};
	const struct iolab_output none = {"--csv", NULL, IOLAB_OUT_REPLACE};
	assert_int_equal(iolab_outputs_check(&none, 1, inputs, 1, false, &err), 0);
	th_write_text(later, "made\n");
	const struct iolab_output o = {"--csv", later, IOLAB_OUT_REPLACE};
	assert_int_equal(iolab_outputs_check(&o, 1, NULL, 0, true, &err), -EINVAL);
}

static void test_claims(void **state)
{
	(void)state;
	char out[PATH_MAX];
	path_in(out, sizeof(out), "claimed.json");
	struct iolab_err err;
	const struct iolab_output a = {"--json", out, IOLAB_OUT_REPLACE};
	assert_int_equal(iolab_outputs_check(&a, 1, NULL, 0, false, &err), 0);
	assert_int_equal(iolab_outputs_check(&a, 1, NULL, 0, false, &err), 0); /* the same claim */
	const struct iolab_output b = {"--csv", out, IOLAB_OUT_REPLACE};
	assert_int_equal(iolab_outputs_check(&b, 1, NULL, 0, true, &err), -EINVAL);
	assert_non_null(strstr(err.msg, "both name"));
	const struct iolab_output store = {"--json", out, IOLAB_OUT_ADD};
	assert_int_equal(iolab_outputs_check(&store, 1, NULL, 0, true, &err), -EINVAL);
	/* an output no check claimed is checked when it is opened, without --force */
	char other[PATH_MAX];
	path_in(other, sizeof(other), "unclaimed.txt");
	th_write_text(other, "keep\n");
	struct iolab_out w;
	assert_int_equal(iolab_out_open(&w, other, &err), -EEXIST);
	assert_int_equal(th_count_entries(th_dir, ".iolab-"), 0);
}

static void test_node_put_in_place_meanwhile(void **state)
{
	(void)state;
	char out[PATH_MAX];
	path_in(out, sizeof(out), "became-a-fifo");
	struct iolab_err err;
	const struct iolab_output o = {"--json", out, IOLAB_OUT_REPLACE};
	assert_int_equal(iolab_outputs_check(&o, 1, NULL, 0, false, &err), 0);
	struct iolab_out w;
	assert_int_equal(iolab_out_open(&w, out, &err), 0);
	fputs("{}\n", w.f);
	assert_int_equal(mkfifo(out, 0600), 0);
	assert_int_equal(iolab_out_commit(&w, &err), -EINVAL);
	assert_non_null(strstr(err.msg, "FIFO"));
	struct stat st;
	assert_int_equal(lstat(out, &st), 0);
	assert_true(S_ISFIFO(st.st_mode));
	assert_int_equal(th_count_entries(th_dir, ".iolab-"), 0);
	unlink(out);
}

static void test_through_a_symbolic_link(void **state)
{
	(void)state;
	char real[PATH_MAX], link_path[PATH_MAX];
	path_in(real, sizeof(real), "real.csv");
	path_in(link_path, sizeof(link_path), "link.csv");
	th_write_text(real, "old\n");
	assert_int_equal(symlink(real, link_path), 0);
	struct iolab_err err;
	const struct iolab_output o = {"--csv", link_path, IOLAB_OUT_REPLACE};
	assert_int_equal(iolab_outputs_check(&o, 1, NULL, 0, true, &err), 0);
	struct iolab_out w;
	assert_int_equal(iolab_out_open(&w, link_path, &err), 0);
	fputs("new\n", w.f);
	assert_int_equal(iolab_out_commit(&w, &err), 0);
	struct stat st;
	assert_int_equal(lstat(link_path, &st), 0);
	assert_true(S_ISLNK(st.st_mode)); /* the link stays; the file it names is replaced */
	char *text = th_read_file(real, NULL);
	assert_string_equal(text, "new\n");
	free(text);
}

static void test_pending_removed(void **state)
{
	(void)state;
	char a[PATH_MAX], b[PATH_MAX];
	path_in(a, sizeof(a), "pending-a");
	path_in(b, sizeof(b), "pending-b");
	struct iolab_err err;
	const struct iolab_output o[] = {{"-o", a, IOLAB_OUT_REPLACE}, {"--json", b, IOLAB_OUT_REPLACE}};
	assert_int_equal(iolab_outputs_check(o, 2, NULL, 0, false, &err), 0);
	struct iolab_out wa, wb;
	assert_int_equal(iolab_out_open(&wa, a, &err), 0);
	assert_int_equal(iolab_out_open(&wb, b, &err), 0);
	assert_int_equal(th_count_entries(th_dir, ".iolab-"), 2);
	iolab_out_remove_pending(); /* as a handler of SIGTERM does */
	assert_int_equal(th_count_entries(th_dir, ".iolab-"), 0);
	iolab_out_abort(&wa);
	iolab_out_abort(&wb);
	assert_false(th_exists(a));
	assert_false(th_exists(b));
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_input_by_any_name),
		cmocka_unit_test(test_claims),
		cmocka_unit_test(test_node_put_in_place_meanwhile),
		cmocka_unit_test(test_through_a_symbolic_link),
		cmocka_unit_test(test_pending_removed),
	};
	return cmocka_run_group_tests(tests, th_dir_setup, th_dir_teardown);
}
