/* test_cli_outputs.c: the rules for every file iolab writes besides its targets
 * (include/iolab/outfile.h), through the CLI: `run --json/--csv`, `sim --json`, `sim validate
 * --json/--requests` and `model import-disksim -o`.
 *
 * Refused before anything runs, with exit 2 and one line naming the option and the path: a block
 * device (a loop device holding a mounted ext4 file system, whose superblock must survive), a
 * character device, a FIFO, a directory, a path that is a target or input of the command, two
 * outputs on standard output, and an existing file without --force. A write that fails (a full
 * tmpfs, /dev/full as standard output) exits 1 and leaves no truncated file and no temporary
 * file behind. */
#include <errno.h>
#include <fcntl.h>
#include <limits.h>
#include <setjmp.h>
#include <stdarg.h>
#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mount.h>
#include <sys/stat.h>
#include <sys/wait.h>
#include <time.h>
#include <unistd.h>

#include <cmocka.h>
#include <jansson.h>

#include "helpers.h"

static struct {
	char dir[256];
	char trace[PATH_MAX];
	char diskspecs[PATH_MAX];
	char small[512];      /* a 64 KiB tmpfs, to run out of space */
	bool small_mounted;
} g;

static int group_setup(void **state)
{
	(void)state;
	snprintf(g.dir, sizeof(g.dir), "%s", th_tmpdir());
	th_data_path(g.trace, sizeof(g.trace), "disksim/atlas10k-2000.trace");
	th_data_path(g.diskspecs, sizeof(g.diskspecs), "disksim/atlas10k.diskspecs");
	snprintf(g.small, sizeof(g.small), "%s/small", g.dir);
	if (mkdir(g.small, 0755) == 0 && mount("tmpfs", g.small, "tmpfs", 0, "size=64k") == 0)
		g.small_mounted = true;
	return 0;
}

static int group_teardown(void **state)
{
	(void)state;
	if (g.small_mounted)
		umount2(g.small, MNT_DETACH);
	if (*g.dir)
		th_rmtree(g.dir);
	return 0;
}

static void path_in(char *buf, size_t n, const char *name)
{
	snprintf(buf, n, "%s/%s", g.dir, name);
}

/* ---- refused before anything runs ---- */

static void test_device_outputs_refused(void **state)
{
	(void)state;
	struct th_out o = th_iolab("run", "--engine", "null", "--time", "0.1", "--json", "/dev/null", NULL);
	TH_EXPECT_EXIT(o, 2, "--json", "/dev/null", "character device");
	o = th_iolab("run", "--engine", "null", "--time", "0.1", "--csv", g.dir, NULL);
	TH_EXPECT_EXIT(o, 2, "--csv", g.dir, "directory");
	char fifo[PATH_MAX];
	path_in(fifo, sizeof(fifo), "fifo");
	assert_int_equal(mkfifo(fifo, 0600), 0);
	o = th_iolab("sim", "--model", "atlas10k", "--time", "1", "--json", fifo, NULL);
	TH_EXPECT_EXIT(o, 2, "--json", fifo, "FIFO");
	o = th_iolab("sim", "validate", "--model", "atlas10k", g.trace, "--requests", "/dev/zero", NULL);
	TH_EXPECT_EXIT(o, 2, "--requests", "/dev/zero", "character device");
	o = th_iolab("model", "import-disksim", g.diskspecs, "-o", "/dev/null", NULL);
	TH_EXPECT_EXIT(o, 2, "--output", "/dev/null", "character device");
	unlink(fifo);
}

/* A loop device over a file holding a mounted ext4 file system, named as the report: refused,
 * and the file system's superblock (magic 0xEF53 at byte 1080) is intact afterwards. */
static void test_mounted_blockdev_as_report(void **state)
{
	(void)state;
	char img[PATH_MAX], mnt[PATH_MAX], dev[64], cmd[PATH_MAX + 64];
	path_in(img, sizeof(img), "fs.img");
	path_in(mnt, sizeof(mnt), "mnt");
	th_make_file(img, 16u << 20);
	snprintf(cmd, sizeof(cmd), "mkfs.ext4 -q -F '%s' >/dev/null 2>&1", img);
	if (system(cmd) != 0 || mkdir(mnt, 0755) != 0) {
		printf("SKIP: mkfs.ext4 is not available\n");
		skip();
	}
	if (!th_loop_attach(img, false, dev, sizeof(dev)))
		skip();
	if (mount(dev, mnt, "ext4", 0, NULL) != 0) {
		printf("SKIP: cannot mount %s: %s\n", dev, strerror(errno));
		th_loop_detach(dev);
		skip();
	}
	char target[PATH_MAX];
	path_in(target, sizeof(target), "target.img");
	struct th_out o = th_iolab("run", target, "--size", "1m", "--time", "0.2", "--json", dev, NULL);
	TH_EXPECT_EXIT(o, 2, "--json", dev, "block device");
	o = th_iolab("run", target, "--size", "1m", "--time", "0.2", "--csv", dev, "--force", NULL);
	TH_EXPECT_EXIT(o, 2, "--csv", dev, "block device");
	o = th_iolab("sim", "--model", "atlas10k", "--time", "1", "--json", dev, NULL);
	TH_EXPECT_EXIT(o, 2, "--json", dev, "block device");
	o = th_iolab("sim", "validate", "--model", "atlas10k", g.trace, "--requests", dev, NULL);
	TH_EXPECT_EXIT(o, 2, "--requests", dev, "block device");
	assert_false(th_exists(target)); /* refused before the scratch file was made */
	umount2(mnt, MNT_DETACH);
	th_loop_detach(dev);
	int fd = open(img, O_RDONLY);
	assert_true(fd >= 0);
	unsigned char magic[2];
	assert_int_equal(pread(fd, magic, 2, 1080), 2);
	close(fd);
	assert_int_equal(magic[0] | magic[1] << 8, 0xEF53);
}

static void test_target_as_output_refused(void **state)
{
	(void)state;
	char img[PATH_MAX], other[PATH_MAX];
	path_in(img, sizeof(img), "scratch.img");
	struct th_out o = th_iolab("run", img, "--size", "1m", "--time", "0.2", "--json", img, NULL);
	TH_EXPECT_EXIT(o, 2, "--json", img, "input");
	assert_false(th_exists(img));
	/* The same file spelled another way, once it exists. */
	o = th_iolab("run", img, "--size", "1m", "--time", "0.2", "--quiet", NULL);
	assert_int_equal(o.status, 0);
	th_out_free(&o);
	snprintf(other, sizeof(other), "%s/../%s/scratch.img", g.dir, strrchr(g.dir, '/') + 1);
	o = th_iolab("run", img, "--time", "0.2", "--csv", other, "--force", NULL);
	TH_EXPECT_EXIT(o, 2, "--csv", "input");
	struct stat st;
	assert_int_equal(stat(img, &st), 0);
	assert_int_equal(st.st_size, 1 << 20); /* still the scratch file, not a report */
	o = th_iolab("sim", "validate", "--model", "atlas10k", g.trace, "--json", g.trace, "--force", NULL);
	TH_EXPECT_EXIT(o, 2, "--json", "input");
	o = th_iolab("model", "import-disksim", g.diskspecs, "-o", g.diskspecs, "--force", NULL);
	TH_EXPECT_EXIT(o, 2, "--output", "input");
}

static void test_stdout_rules(void **state)
{
	(void)state;
	struct th_out o = th_iolab("run", "--engine", "null", "--time", "0.1", "--json", "-", "--csv", "-", NULL);
	TH_EXPECT_EXIT(o, 2, "--json -", "--csv -", "standard output");
	o = th_iolab("sim", "validate", "--model", "atlas10k", g.trace, "--json", "-", "--requests", "-", NULL);
	TH_EXPECT_EXIT(o, 2, "standard output");
	/* '-' is standard output for sim validate too: no file called '-' appears. */
	char here[PATH_MAX];
	assert_non_null(getcwd(here, sizeof(here)));
	assert_int_equal(chdir(g.dir), 0);
	o = th_iolab("sim", "validate", "--model", "atlas10k", g.trace, "--json", "-", NULL);
	assert_int_equal(o.status, 0);
	json_error_t e;
	json_t *j = json_loads(o.out, 0, &e);
	assert_non_null(j);
	assert_non_null(json_object_get(j, "demerit_pct"));
	json_decref(j);
	assert_non_null(strstr(o.err, "demerit")); /* the summary moved to stderr */
	th_out_free(&o);
	o = th_iolab("sim", "validate", "--model", "atlas10k", g.trace, "--requests", "-", NULL);
	assert_int_equal(o.status, 0);
	assert_int_equal(strncmp(o.out, "index,type,lbn", 14), 0);
	th_out_free(&o);
	assert_false(th_exists("-"));
	assert_int_equal(chdir(here), 0);
}

static void test_existing_output_needs_force(void **state)
{
	(void)state;
	char f[PATH_MAX];
	path_in(f, sizeof(f), "old.json");
	FILE *old = fopen(f, "w");
	assert_non_null(old);
	fputs("precious\n", old);
	fclose(old);
	struct th_out o = th_iolab("run", "--engine", "null", "--time", "0.1", "--json", f, NULL);
	TH_EXPECT_EXIT(o, 2, "--json", f, "--force");
	o = th_iolab("sim", "validate", "--model", "atlas10k", g.trace, "--requests", f, NULL);
	TH_EXPECT_EXIT(o, 2, "--requests", f, "--force");
	o = th_iolab("run", "--engine", "null", "--time", "0.1", "--json", f, "--force", NULL);
	assert_int_equal(o.status, 0);
	th_out_free(&o);
	json_t *j = th_load_json(f);
	assert_non_null(j);
	json_decref(j);
	assert_int_equal(th_count_entries(g.dir, ".iolab-"), 0); /* no temporary file left */
}

/* ---- write errors ---- */

static void test_full_disk(void **state)
{
	(void)state;
	if (!g.small_mounted) {
		printf("SKIP: cannot mount a small tmpfs (needs root)\n");
		skip();
	}
	char f[PATH_MAX];
	snprintf(f, sizeof(f), "%s/requests.csv", g.small);
	struct th_out o = th_iolab("sim", "validate", "--model", "atlas10k", g.trace, "--requests", f, NULL);
	TH_EXPECT_EXIT(o, 1, f, "No space left");
	assert_false(th_exists(f));
	assert_int_equal(th_count_entries(g.small, ".iolab-"), 0);
	snprintf(f, sizeof(f), "%s/report.json", g.small);
	/* 80 points: a report of well over 64 KiB (a byte count per point, not a time, so that a
	 * busy machine cannot cut a point short). */
	o = th_iolab("run", "--engine", "null", "--bytes", "1m", "--qd", "1,2,3,4,5,6,7,8,9,10,11,12,"
		     "13,14,15,16", "--bs", "512,1k,2k,4k,8k", "--json", f, NULL);
	assert_int_equal(o.status, 1);
	assert_non_null(strstr(o.err, "No space left"));
	th_out_free(&o);
	assert_false(th_exists(f));
}

static void test_stdout_write_error(void **state)
{
	(void)state;
	assert_int_equal(th_sh("\"$B\" run --engine null --time 0.1 --json - >/dev/full 2>/dev/null"), 1);
	assert_int_equal(th_sh("\"$B\" run --engine null --time 0.1 >/dev/full 2>/dev/null"), 1);
	assert_int_equal(th_sh("\"$B\" sim validate --model atlas10k '%s' >/dev/full 2>/dev/null", g.trace), 1);
	assert_int_equal(th_sh("\"$B\" model show atlas10k --json >/dev/full 2>/dev/null"), 1);
	/* One message, not one per layer that noticed. */
	char err[PATH_MAX];
	path_in(err, sizeof(err), "stderr.txt");
	th_sh("\"$B\" run --engine null --time 0.1 --csv - >/dev/full 2>'%s'", err);
	FILE *f = fopen(err, "r");
	assert_non_null(f);
	char buf[4096];
	size_t n = fread(buf, 1, sizeof(buf) - 1, f);
	fclose(f);
	buf[n] = 0;
	assert_int_equal(th_count_lines(buf), 1);
	assert_non_null(strstr(buf, "standard output"));
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_device_outputs_refused),
		cmocka_unit_test(test_mounted_blockdev_as_report),
		cmocka_unit_test(test_target_as_output_refused),
		cmocka_unit_test(test_stdout_rules),
		cmocka_unit_test(test_existing_output_needs_force),
		cmocka_unit_test(test_full_disk),
		cmocka_unit_test(test_stdout_write_error),
	};
	return cmocka_run_group_tests(tests, group_setup, group_teardown);
}
