/* test_cli_safety.c: iolab's write-safety rules, through the CLI (target.h has the rules).
 *
 * Files: writing to an existing file iolab did not create is refused (exit 2, the message
 * points to --force) and allowed with --force; a scratch file iolab created (--size) may be
 * written again without --force; reads never need --force.
 * Block devices (a loop device over a 64 MiB file): a write needs --force; one carrying a
 * partition table or a file system also needs --destroy-data; a mounted one is never written, whatever the flags, while
 * reading it is allowed. The group teardown unmounts, detaches and removes everything, also
 * when a test fails half-way. */
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
#include <time.h>
#include <unistd.h>

#include <cmocka.h>

#include "helpers.h"

#define FILE_SIZE (16u << 20)
#define DEV_SIZE (64u << 20)

static struct {
	char dir[256];
	char plain[PATH_MAX];   /* an existing file of zeros iolab did not create */
	char scratch[PATH_MAX]; /* created by iolab with --size */
	char backing[PATH_MAX]; /* the loop device's backing file */
	char mnt[PATH_MAX];
	char dev[64];
	bool loop, mounted;
} g;

static int group_setup(void **state)
{
	(void)state;
	snprintf(g.dir, sizeof(g.dir), "%s", th_tmpdir());
	snprintf(g.plain, sizeof(g.plain), "%s/plain.img", g.dir);
	snprintf(g.scratch, sizeof(g.scratch), "%s/scratch.img", g.dir);
	snprintf(g.backing, sizeof(g.backing), "%s/loop-backing.img", g.dir);
	snprintf(g.mnt, sizeof(g.mnt), "%s/mnt", g.dir);
	th_make_file(g.plain, FILE_SIZE);
	th_make_file(g.backing, DEV_SIZE);
	if (mkdir(g.mnt, 0755) != 0) {
		perror(g.mnt);
		return -1;
	}
	g.loop = th_loop_attach(g.backing, false, g.dev, sizeof(g.dev));
	if (!g.loop)
		printf("SKIP: no loop device: the block-device tests are skipped\n");
	return 0;
}

static void sleep_ms(long ms)
{
	struct timespec ts = {ms / 1000, (ms % 1000) * 1000000};
	nanosleep(&ts, NULL);
}

/* Runs a shell command, retrying for up to ~4 s: an io_uring instance is torn down
 * asynchronously after iolab exits, so the device can stay claimed for a short while. */
static int sh_retry(const char *cmd)
{
	int rc = -1;
	for (int i = 0; i < 40 && rc != 0; i++) {
		if (i)
			sleep_ms(100);
		rc = system(cmd);
	}
	return rc;
}

static void unmount_dev(void)
{
	if (!g.mounted)
		return;
	for (int i = 0; i < 40; i++) {
		if (umount(g.mnt) == 0 || errno == EINVAL) {
			g.mounted = false;
			return;
		}
		sleep_ms(100);
	}
	if (umount2(g.mnt, MNT_DETACH) == 0)
		g.mounted = false;
	else
		fprintf(stderr, "warning: could not unmount %s: %s\n", g.mnt, strerror(errno));
}

static int group_teardown(void **state)
{
	(void)state;
	unmount_dev();
	if (g.loop) {
		/* Let a just-exited iolab's io_uring release the device first. */
		char cmd[128];
		snprintf(cmd, sizeof(cmd), "losetup -d '%s' 2>/dev/null", g.dev);
		if (sh_retry(cmd) != 0)
			th_loop_detach(g.dev); /* says why */
		g.loop = false;
	}
	if (*g.dir)
		th_rmtree(g.dir);
	return 0;
}

static void need_loop(void)
{
	if (!g.loop) {
		printf("SKIP: no loop device (needs root and loop support)\n");
		skip();
	}
}

/* Expects a completed run: status 0 and the results table on stdout; shows the output
 * otherwise. Frees o. */
static void expect_ok_(int line, struct th_out *o)
{
	bool ok = o->status == 0 && strstr(o->out, "IOPS");
	if (!ok)
		print_error("case at line %d: status %d (want 0 and a results table)\n--- stderr:\n%s"
			    "--- stdout:\n%s---\n", line, o->status, o->err, o->out);
	th_out_free(o);
	if (!ok)
		fail_msg("the run did not complete (see above)");
}
#define EXPECT_OK(o) expect_ok_(__LINE__, &(o))

/* Expects a refusal: status 2, one line on stderr holding every needle, nothing on stdout.
 * Frees o. */
static void expect_refused_(int line, struct th_out *o, const char *const *needles)
{
	unsigned lines = 0;
	for (const char *c = o->err; *c; c++)
		lines += *c == '\n';
	const char *missing = NULL;
	for (const char *const *n = needles; *n && !missing; n++)
		if (!strstr(o->err, *n))
			missing = *n;
	bool ok = o->status == 2 && lines == 1 && !*o->out && !missing;
	if (!ok)
		print_error("case at line %d: status %d (want 2), %u stderr line(s) (want 1)%s%s%s\n"
			    "--- stderr:\n%s--- stdout:\n%s---\n",
			    line, o->status, lines, missing ? ", missing '" : "", missing ? missing : "",
			    missing ? "'" : "", o->err, o->out);
	th_out_free(o);
	if (!ok)
		fail_msg("not refused as expected (see above)");
}
#define EXPECT_REFUSED(o, ...) \
	expect_refused_(__LINE__, &(o), (const char *const[]){__VA_ARGS__, NULL})

/* ---- files ---- */

static void test_file_write_needs_force(void **state)
{
	(void)state;
	struct th_out o = th_iolab("run", "--pattern", "rand-write", "--time", "0.3", g.plain, NULL);
	EXPECT_REFUSED(o, g.plain, "--force");
	/* A sweep with any writing point is refused before anything runs. */
	o = th_iolab("run", "--pattern", "rand-read,rand-rw", "--time", "0.3", g.plain, NULL);
	EXPECT_REFUSED(o, g.plain, "--force");
	o = th_iolab("run", "--read", "0", "--time", "0.3", g.plain, NULL);
	EXPECT_REFUSED(o, g.plain, "--force");
	/* --precondition writes the whole target: the same permission as a write pattern. */
	o = th_iolab("run", "--precondition", "--time", "0.3", g.plain, NULL);
	EXPECT_REFUSED(o, g.plain, "--force");
	assert_true(th_zeros(g.plain, FILE_SIZE)); /* untouched */
}

static void test_file_write_with_force(void **state)
{
	(void)state;
	struct th_out o = th_iolab("run", "--pattern", "rand-write", "--time", "0.3", "--force",
				   g.plain, NULL);
	EXPECT_OK(o);
	assert_false(th_zeros(g.plain, FILE_SIZE)); /* it really wrote */
	struct stat st;
	assert_int_equal(stat(g.plain, &st), 0);
	assert_int_equal(st.st_size, FILE_SIZE);
	/* --force is remembered for nothing: the next write still needs it. */
	o = th_iolab("run", "--pattern", "rand-write", "--time", "0.3", g.plain, NULL);
	EXPECT_REFUSED(o, g.plain, "--force");
}

static void test_scratch_file_rewritable(void **state)
{
	(void)state;
	struct th_out o = th_iolab("run", "--pattern", "rand-write", "--time", "0.3", "--size", "16m",
				   g.scratch, NULL);
	EXPECT_OK(o);
	struct stat st;
	assert_int_equal(stat(g.scratch, &st), 0);
	assert_int_equal(st.st_size, 16u << 20);
	/* Again, without --force and without --size: iolab made it. */
	o = th_iolab("run", "--pattern", "rand-write", "--time", "0.3", g.scratch, NULL);
	EXPECT_OK(o);
	o = th_iolab("run", "--pattern", "rand-rw", "--time", "0.3", "--size", "16m", g.scratch, NULL);
	EXPECT_OK(o);
}

/* --precondition on a fresh 16 MiB scratch file: two sequential passes, 32 MiB written (the
 * SNIA PTS workload-independent preconditioning: twice the capacity in 128 KiB sequential
 * writes), before a read point; the JSON config records it and the file is no longer zeros. */
static void test_precondition(void **state)
{
	(void)state;
	char file[300], json[300];
	snprintf(file, sizeof(file), "%s/pc.img", g.dir);
	snprintf(json, sizeof(json), "%s/pc.json", g.dir);
	struct th_out o = th_iolab("run", "--precondition", "--size", "16m", "--time", "0.3", "--json",
				   json, file, NULL);
	assert_int_equal(o.status, 0);
	assert_non_null(strstr(o.err, "precondition: 32 of 32 MiB written"));
	th_out_free(&o);
	assert_false(th_zeros(file, 16u << 20));
	FILE *f = fopen(json, "r");
	assert_non_null(f);
	char text[65536];
	size_t n = fread(text, 1, sizeof(text) - 1, f);
	fclose(f);
	text[n] = 0;
	assert_non_null(strstr(text, "\"precondition_bytes\": 33554432"));
	assert_non_null(strstr(text, "\"precondition\": true"));
}

static void test_file_read_without_force(void **state)
{
	(void)state;
	struct th_out o = th_iolab("run", "--pattern", "rand-read", "--time", "0.3", g.plain, NULL);
	EXPECT_OK(o);
	o = th_iolab("run", "--pattern", "seq-read", "--time", "0.3", "--buffered", g.plain, NULL);
	EXPECT_OK(o);
}

/* ---- block devices ---- */

static void test_blockdev_write_needs_force(void **state)
{
	(void)state;
	need_loop();
	struct th_out o = th_iolab("run", "--pattern", "rand-write", "--time", "0.3", g.dev, NULL);
	EXPECT_REFUSED(o, g.dev, "--force");
	assert_true(th_zeros(g.backing, DEV_SIZE)); /* untouched */
}

static void test_blockdev_blank_with_force(void **state)
{
	(void)state;
	need_loop();
	struct th_out o = th_iolab("run", "--pattern", "rand-write", "--bytes", "1m", "--force", g.dev,
				   NULL);
	EXPECT_OK(o);
	o = th_iolab("run", "--pattern", "rand-write", "--time", "0.3", "--force", g.dev, NULL);
	EXPECT_OK(o);
}

/* Writes a DOS partition table (one Linux partition) into the first sector of the device. */
static void write_mbr(void)
{
	unsigned char mbr[512] = {0};
	unsigned char *e = mbr + 446; /* the first partition entry */
	const uint32_t start = 2048, count = 32768;
	e[4] = 0x83;
	for (int i = 0; i < 4; i++) {
		e[8 + i] = (unsigned char)(start >> (8 * i));
		e[12 + i] = (unsigned char)(count >> (8 * i));
	}
	mbr[510] = 0x55;
	mbr[511] = 0xaa;
	int fd = -1;
	for (int i = 0; i < 40 && fd < 0; i++) {
		if (i)
			sleep_ms(100);
		fd = open(g.dev, O_WRONLY | O_CLOEXEC);
	}
	assert_true(fd >= 0);
	assert_int_equal(pwrite(fd, mbr, sizeof(mbr), 0), (ssize_t)sizeof(mbr));
	assert_int_equal(fsync(fd), 0);
	close(fd);
}

static void test_blockdev_partition_table_needs_destroy_data(void **state)
{
	(void)state;
	need_loop();
	write_mbr();
	struct th_out o = th_iolab("run", "--pattern", "rand-write", "--bytes", "1m", "--force", g.dev,
				   NULL);
	EXPECT_REFUSED(o, g.dev, "partition table", "--destroy-data");
	o = th_iolab("run", "--pattern", "rand-write", "--bytes", "1m", "--force", "--destroy-data",
		     g.dev, NULL);
	EXPECT_OK(o);
}

static void mkfs_dev(void)
{
	char cmd[256];
	snprintf(cmd, sizeof(cmd), "mkfs.ext4 -q -F '%s' >/dev/null 2>&1", g.dev);
	if (sh_retry(cmd) != 0) {
		printf("SKIP: mkfs.ext4 failed on %s (is e2fsprogs installed?)\n", g.dev);
		skip();
	}
}

static void test_blockdev_filesystem_needs_destroy_data(void **state)
{
	(void)state;
	need_loop();
	mkfs_dev();
	struct th_out o = th_iolab("run", "--pattern", "rand-write", "--bytes", "1m", "--force", g.dev,
				   NULL);
	EXPECT_REFUSED(o, g.dev, "--destroy-data");
	/* Without --force, the first thing to say is still --force. */
	o = th_iolab("run", "--pattern", "rand-write", "--bytes", "1m", g.dev, NULL);
	EXPECT_REFUSED(o, g.dev, "--force");
	/* Reading a device with a file system needs nothing. */
	o = th_iolab("run", "--pattern", "rand-read", "--time", "0.3", g.dev, NULL);
	EXPECT_OK(o);
	o = th_iolab("run", "--pattern", "rand-write", "--bytes", "1m", "--force", "--destroy-data",
		     g.dev, NULL);
	EXPECT_OK(o);
}

static void test_blockdev_mounted_never_written(void **state)
{
	(void)state;
	need_loop();
	mkfs_dev();
	int rc = -1;
	for (int i = 0; i < 40 && rc != 0; i++) {
		if (i)
			sleep_ms(100);
		rc = mount(g.dev, g.mnt, "ext4", 0, NULL);
	}
	if (rc != 0) {
		printf("SKIP: cannot mount %s on %s: %s\n", g.dev, g.mnt, strerror(errno));
		skip();
	}
	g.mounted = true;
	struct th_out o = th_iolab("run", "--pattern", "rand-write", "--bytes", "1m", "--force",
				   "--destroy-data", g.dev, NULL);
	EXPECT_REFUSED(o, g.dev, "mounted");
	o = th_iolab("run", "--pattern", "rand-write", "--bytes", "1m", "--force", g.dev, NULL);
	EXPECT_REFUSED(o, g.dev, "mounted");
	/* Reading the mounted device is harmless and allowed. */
	o = th_iolab("run", "--pattern", "rand-read", "--time", "0.3", g.dev, NULL);
	EXPECT_OK(o);
	unmount_dev();
	assert_false(g.mounted);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_file_write_needs_force),
		cmocka_unit_test(test_file_write_with_force),
		cmocka_unit_test(test_scratch_file_rewritable),
		cmocka_unit_test(test_file_read_without_force),
		cmocka_unit_test(test_precondition),
		/* in this order: blank device, partition table, file system, mounted */
		cmocka_unit_test(test_blockdev_write_needs_force),
		cmocka_unit_test(test_blockdev_blank_with_force),
		cmocka_unit_test(test_blockdev_partition_table_needs_destroy_data),
		cmocka_unit_test(test_blockdev_filesystem_needs_destroy_data),
		cmocka_unit_test(test_blockdev_mounted_never_written),
	};
	return cmocka_run_group_tests(tests, group_setup, group_teardown);
}
