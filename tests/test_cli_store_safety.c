/* test_cli_store_safety.c: the output rules (include/iolab/outfile.h) for the results store and
 * for the inputs a command reads indirectly, through the CLI.
 *
 * The store (--db) is an output like a report: a block device (blank, holding ext4, mounted, or
 * named through a symbolic link), a character device or a FIFO is refused with or without
 * --force, and the device keeps its superblock and gets no -wal/-shm/-journal beside it; an empty
 * name, the run's own scratch target, and a report naming the store are refused; `db export`
 * never replaces a device node or the store it reads, --force or not; a new store on a full file
 * system leaves nothing behind; a damaged store is refused before the run (exit 2, nothing
 * measured). Inputs read indirectly (a model a DiskSim file sources, a model a subsystem file
 * names) are never written over. Leftovers: SIGTERM during `trace convert` removes its temporary
 * file, and a `sim validate` whose --json cannot be written leaves no --requests file either. */
#include <errno.h>
#include <fcntl.h>
#include <limits.h>
#include <setjmp.h>
#include <signal.h>
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

#include "helpers.h"

static struct {
	char dir[256];
	char img[PATH_MAX];  /* the loop device's backing file: an ext4 file system */
	char dev[64];
	bool loop;
	char store[PATH_MAX]; /* a store holding one run */
	char trace[PATH_MAX];
	char diskspecs[PATH_MAX];
} g;

static void path_in(char *buf, size_t n, const char *name)
{
	snprintf(buf, n, "%s/%s", g.dir, name);
}

static int group_setup(void **state)
{
	(void)state;
	snprintf(g.dir, sizeof(g.dir), "%s", th_tmpdir());
	path_in(g.img, sizeof(g.img), "fs.img");
	th_make_file(g.img, 16u << 20);
	char cmd[PATH_MAX + 64];
	snprintf(cmd, sizeof(cmd), "mkfs.ext4 -q -F '%s' >/dev/null 2>&1", g.img);
	if (system(cmd) != 0)
		printf("SKIP: mkfs.ext4 is not available: the block-device cases are skipped\n");
	else if (!(g.loop = th_loop_attach(g.img, false, g.dev, sizeof(g.dev))))
		printf("SKIP: no loop device: the block-device cases are skipped\n");
	path_in(g.store, sizeof(g.store), "results.db");
	struct th_out o = th_iolab("run", "--engine", "null", "--time", "0.1", "--quiet", "--db",
				   g.store, NULL);
	int status = o.status;
	th_out_free(&o);
	th_data_path(g.trace, sizeof(g.trace), "disksim/atlas10k-2000.trace");
	th_data_path(g.diskspecs, sizeof(g.diskspecs), "disksim/atlas10k.diskspecs");
	return status == 0 ? 0 : -1;
}

static int group_teardown(void **state)
{
	(void)state;
	if (g.loop)
		th_loop_detach(g.dev);
	if (*g.dir)
		th_rmtree(g.dir);
	return 0;
}

/* True if the backing file still holds the ext4 superblock (magic 0xEF53 at byte 1080). */
static bool superblock_intact(void)
{
	int fd = open(g.img, O_RDONLY);
	unsigned char magic[2] = {0};
	bool ok = fd >= 0 && pread(fd, magic, 2, 1080) == 2;
	if (fd >= 0)
		close(fd);
	return ok && (magic[0] | magic[1] << 8) == 0xEF53;
}

/* Nothing SQLite leaves beside a database it wrote: path-wal, path-shm, path-journal. */
static void assert_no_sidecars(const char *path)
{
	const char *ends[] = {"-wal", "-shm", "-journal"};
	for (unsigned i = 0; i < 3; i++) {
		char p[PATH_MAX + 16];
		snprintf(p, sizeof(p), "%s%s", path, ends[i]);
		if (th_exists(p))
			fail_msg("%s was left behind", p);
	}
}

static void assert_kind(const char *path, mode_t kind)
{
	struct stat st;
	assert_int_equal(lstat(path, &st), 0);
	assert_int_equal(st.st_mode & S_IFMT, kind);
}

/* ---- the store is an output ---- */

static void test_store_on_block_device(void **state)
{
	(void)state;
	if (!g.loop)
		skip();
	char link[PATH_MAX];
	path_in(link, sizeof(link), "store-link");
	assert_int_equal(symlink(g.dev, link), 0);
	const char *cmds[][2] = {{"run", "--engine"}, {"sim", "--model"}};
	const char *vals[] = {"null", "atlas10k"};
	for (unsigned i = 0; i < 2; i++) {
		struct th_out o = th_iolab(cmds[i][0], cmds[i][1], vals[i], "--time", "0.1", "--db",
					   g.dev, NULL);
		TH_EXPECT_EXIT(o, 2, "--db", g.dev, "block device");
		o = th_iolab(cmds[i][0], cmds[i][1], vals[i], "--time", "0.1", "--db", link, "--force", NULL);
		TH_EXPECT_EXIT(o, 2, "--db", link, "block device");
	}
	struct th_out o = th_iolab("replay", g.trace, "--format", "validate", "--model", "atlas10k",
				   "--db", g.dev, NULL);
	TH_EXPECT_EXIT(o, 2, "--db", g.dev, "block device");
	assert_true(superblock_intact());
	assert_no_sidecars(g.dev);
	assert_no_sidecars(link);
	unlink(link);
}

static void test_store_on_other_nodes(void **state)
{
	(void)state;
	char fifo[PATH_MAX];
	path_in(fifo, sizeof(fifo), "store-fifo");
	assert_int_equal(mkfifo(fifo, 0600), 0);
	struct th_out o = th_iolab("run", "--engine", "null", "--time", "0.1", "--db", "/dev/null", NULL);
	TH_EXPECT_EXIT(o, 2, "--db", "/dev/null", "character device");
	assert_no_sidecars("/dev/null");
	o = th_iolab("run", "--engine", "null", "--time", "0.1", "--db", fifo, NULL);
	TH_EXPECT_EXIT(o, 2, "--db", fifo, "FIFO");
	assert_no_sidecars(fifo);
	o = th_iolab("run", "--engine", "null", "--time", "0.1", "--db", "", NULL);
	TH_EXPECT_EXIT(o, 2, "--db", "file name");
	o = th_iolab("db", "list", "--db", fifo, NULL); /* reading one never waits for a writer */
	TH_EXPECT_EXIT(o, 2, fifo, "not a regular file");
	unlink(fifo);
}

static void test_store_on_scratch_target(void **state)
{
	(void)state;
	char img[PATH_MAX];
	path_in(img, sizeof(img), "scratch.img");
	struct th_out o = th_iolab("run", img, "--size", "1m", "--time", "0.1", "--db", img, NULL);
	TH_EXPECT_EXIT(o, 2, "--db", img, "input");
	assert_false(th_exists(img));
	assert_no_sidecars(img);
}

static void test_report_over_store(void **state)
{
	(void)state;
	struct th_out o = th_iolab("run", "--engine", "null", "--time", "0.1", "--db", g.store,
				   "--json", g.store, "--force", NULL);
	TH_EXPECT_EXIT(o, 2, "--db", "--json", "both name");
	o = th_iolab("db", "export", "1", "--db", g.store, "--json", g.store, "--force", NULL);
	TH_EXPECT_EXIT(o, 2, "--json", g.store, "input");
	/* a store the command does not name is not replaced by a report either */
	o = th_iolab("run", "--engine", "null", "--time", "0.1", "--no-db", "--json", g.store,
		     "--force", NULL);
	TH_EXPECT_EXIT(o, 2, "--json", g.store, "SQLite database");
	o = th_iolab("db", "list", "--db", g.store, NULL);
	assert_int_equal(o.status, 0);
	assert_int_equal(th_count_lines(o.out), 2); /* the heading and the one run */
	th_out_free(&o);
}

static void test_export_never_replaces_a_node(void **state)
{
	(void)state;
	char fifo[PATH_MAX];
	path_in(fifo, sizeof(fifo), "export-fifo");
	assert_int_equal(mkfifo(fifo, 0600), 0);
	const char *nodes[] = {fifo, "/dev/null", g.loop ? g.dev : NULL};
	const mode_t kinds[] = {S_IFIFO, S_IFCHR, S_IFBLK};
	for (unsigned i = 0; i < 3 && nodes[i]; i++) {
		struct th_out o = th_iolab("db", "export", "1", "--db", g.store, "--json", nodes[i],
					   "--force", NULL);
		TH_EXPECT_EXIT(o, 2, "--json", nodes[i]);
		assert_kind(nodes[i], kinds[i]);
	}
	if (g.loop)
		assert_true(superblock_intact());
	unlink(fifo);
}

static void test_store_on_full_file_system(void **state)
{
	(void)state;
	char small[PATH_MAX], fill[PATH_MAX + 8], db[PATH_MAX + 8];
	path_in(small, sizeof(small), "small");
	assert_int_equal(mkdir(small, 0755), 0);
	if (mount("tmpfs", small, "tmpfs", 0, "size=16k") != 0) {
		printf("SKIP: cannot mount a small tmpfs: %s\n", strerror(errno));
		skip();
	}
	snprintf(fill, sizeof(fill), "%s/fill", small);
	snprintf(db, sizeof(db), "%s/new.db", small);
	int fd = open(fill, O_WRONLY | O_CREAT, 0644);
	char block[4096] = {0};
	while (fd >= 0 && write(fd, block, sizeof(block)) > 0)
		;
	if (fd >= 0)
		close(fd);
	struct th_out o = th_iolab("run", "--engine", "null", "--time", "0.1", "--db", db, NULL);
	TH_EXPECT_EXIT(o, 2, db, "full");
	unsigned left = th_count_entries(small, "");
	umount2(small, MNT_DETACH);
	assert_int_equal(left, 1); /* the filler */
}

static void test_damaged_store_refused_before_the_run(void **state)
{
	(void)state;
	char db[PATH_MAX];
	path_in(db, sizeof(db), "damaged.db");
	for (int i = 0; i < 3; i++) {
		struct th_out o = th_iolab("run", "--engine", "null", "--time", "0.05", "--quiet",
					   "--db", db, NULL);
		assert_int_equal(o.status, 0);
		th_out_free(&o);
	}
	int fd = open(db, O_WRONLY);
	assert_true(fd >= 0);
	char junk[4096];
	memset(junk, 0xa5, sizeof(junk));
	assert_int_equal(pwrite(fd, junk, sizeof(junk), 2 * 4096), (ssize_t)sizeof(junk));
	close(fd);
	/* exit 2 and nothing on standard output: the run never started */
	struct th_out o = th_iolab("run", "--engine", "null", "--time", "0.1", "--db", db, NULL);
	TH_EXPECT_EXIT(o, 2, db, "damaged");
	o = th_iolab("db", "list", "--db", db, NULL);
	TH_EXPECT_EXIT(o, 2, db, "damaged");
}

/* ---- inputs read indirectly ---- */

static void test_indirect_inputs(void **state)
{
	(void)state;
	char specs[PATH_MAX], model[PATH_MAX];
	path_in(specs, sizeof(specs), "atlas10k.diskspecs");
	path_in(model, sizeof(model), "atlas10k.model");
	/* the specification with the files it sources beside it */
	assert_int_equal(th_sh("cd \"$(dirname '%s')\" && cp atlas10k.diskspecs atlas10k.model "
			       "atlas10k.seek '%s'", g.diskspecs, g.dir), 0);
	size_t before_len, after_len;
	char *before = th_read_file(model, &before_len);
	/* the specification sources the .model file: it is an input, --force or not */
	struct th_out o = th_iolab("model", "import-disksim", specs, "-o", model, "--force", NULL);
	TH_EXPECT_EXIT(o, 2, "--output", model, "input");
	/* a subsystem file naming a model */
	char mine[PATH_MAX], conf[PATH_MAX];
	path_in(mine, sizeof(mine), "mine.model");
	path_in(conf, sizeof(conf), "two-deep.conf");
	o = th_iolab("model", "import-disksim", specs, "-o", mine, NULL);
	assert_int_equal(o.status, 0);
	th_out_free(&o);
	FILE *f = fopen(conf, "w");
	assert_non_null(f);
	fprintf(f, "drive d1 model=%s\nvolume v level=raid0 stripe=64k drives=d1\n", mine);
	fclose(f);
	size_t mine_len, mine_after;
	char *mine_before = th_read_file(mine, &mine_len);
	o = th_iolab("sim", "--config", conf, "--time", "0.5", "--json", mine, "--force", NULL);
	TH_EXPECT_EXIT(o, 2, "--json", mine, "input");
	o = th_iolab("sim", "--config", conf, "--time", "0.5", "--db", mine, NULL);
	TH_EXPECT_EXIT(o, 2, "--db", mine, "input");
	char *after = th_read_file(model, &after_len), *mine_now = th_read_file(mine, &mine_after);
	assert_true(before_len == after_len && !memcmp(before, after, before_len));
	assert_true(mine_len == mine_after && !memcmp(mine_before, mine_now, mine_len));
	free(before);
	free(after);
	free(mine_before);
	free(mine_now);
}

/* ---- leftovers ---- */

static void test_convert_sigterm_leaves_nothing(void **state)
{
	(void)state;
	char big[PATH_MAX], out[PATH_MAX];
	path_in(big, sizeof(big), "big.disksim");
	path_in(out, sizeof(out), "big.txt");
	FILE *f = fopen(big, "w");
	assert_non_null(f);
	for (unsigned i = 0; i < 2000000; i++)
		fprintf(f, "%.1f 0 %u 8 %u\n", i * 0.1, (i * 7919u) % 1000000u * 8, i & 1);
	fclose(f);
	pid_t pid = fork();
	assert_true(pid >= 0);
	if (pid == 0) {
		int null = open("/dev/null", O_WRONLY);
		dup2(null, 2);
		execl(getenv("IOLAB_BIN"), "iolab", "trace", "convert", big, "--format", "disksim",
		      "--to", "iot-text", "-o", out, (char *)NULL);
		_exit(127);
	}
	/* wait for its temporary file, then stop it */
	bool seen = false;
	for (int i = 0; i < 2000 && !seen; i++) {
		seen = th_count_entries(g.dir, ".big.txt.iolab-") > 0;
		if (!seen)
			usleep(5000);
	}
	kill(pid, SIGTERM);
	int status;
	assert_int_equal(waitpid(pid, &status, 0), pid);
	assert_true(seen);
	assert_true(WIFSIGNALED(status) && WTERMSIG(status) == SIGTERM);
	assert_int_equal(th_count_entries(g.dir, ".big.txt.iolab-"), 0);
	assert_false(th_exists(out));
	unlink(big);
}

static void test_validate_outputs_together(void **state)
{
	(void)state;
	char small[PATH_MAX], json[2 * PATH_MAX], req[PATH_MAX];
	path_in(small, sizeof(small), "tiny");
	path_in(req, sizeof(req), "requests.csv");
	assert_int_equal(mkdir(small, 0755), 0);
	if (mount("tmpfs", small, "tmpfs", 0, "size=4k") != 0) {
		printf("SKIP: cannot mount a small tmpfs: %s\n", strerror(errno));
		skip();
	}
	snprintf(json, sizeof(json), "%s/cdf.json", small);
	/* the JSON (two 100-point CDFs) does not fit in 4 KiB: neither output is written */
	struct th_out o = th_iolab("sim", "validate", "--model", "atlas10k", g.trace, "--requests",
				   req, "--json", json, NULL);
	int status = o.status;
	bool said = o.err && strstr(o.err, "No space left");
	th_out_free(&o);
	unsigned left = th_count_entries(small, ".iolab-");
	umount2(small, MNT_DETACH);
	assert_int_equal(status, 1);
	assert_true(said);
	assert_false(th_exists(req));
	assert_int_equal(left, 0);
	assert_int_equal(th_count_entries(g.dir, ".requests.csv.iolab-"), 0);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_store_on_block_device),
		cmocka_unit_test(test_store_on_other_nodes),
		cmocka_unit_test(test_store_on_scratch_target),
		cmocka_unit_test(test_report_over_store),
		cmocka_unit_test(test_export_never_replaces_a_node),
		cmocka_unit_test(test_store_on_full_file_system),
		cmocka_unit_test(test_damaged_store_refused_before_the_run),
		cmocka_unit_test(test_indirect_inputs),
		cmocka_unit_test(test_convert_sigterm_leaves_nothing),
		cmocka_unit_test(test_validate_outputs_together),
	};
	return cmocka_run_group_tests(tests, group_setup, group_teardown);
}
