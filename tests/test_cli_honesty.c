/* test_cli_honesty.c: that `iolab run` says what happened on a real device, not what might
 * have. Buffered reads are judged by the device's own counters (sysfs): with the target's
 * cached pages dropped first (--invalidate, the default for --buffered) they reach the device;
 * with a warm page cache kept (--no-invalidate) the report says the page cache served them; on
 * tmpfs there is no device. Buffered libaio runs its I/Os inside io_submit: the report shows the
 * device's own queue beside the depth asked for and says the I/Os completed during submission,
 * which O_DIRECT io_uring does not. The table's footer says what latency and CPU mean.
 *
 * Runs on a loop device over a file in a scratch directory under /var/tmp (its counters see
 * only this test's I/O); tests that need one skip (exit 77 for the group) without root or loop
 * support. The Linux facts relied on: a block device's page cache survives while any opener
 * holds it (this test holds one), reads served from it never reach the device's request queue
 * and so are not in its sysfs stat, and buffered AIO is performed synchronously in io_submit
 * (io_submit(2): "without O_DIRECT ... the I/O is done synchronously"). */
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
#include <sys/statfs.h>
#include <unistd.h>
#include <linux/magic.h>

#include <cmocka.h>
#include <jansson.h>

#include "helpers.h"

#define DEV_SIZE (64u << 20)

static char dir[256], backing[PATH_MAX], dev[64];
static bool have_loop;
static json_t *doc; /* the current test's document, released by its teardown */

static int group_setup(void **state)
{
	(void)state;
	snprintf(dir, sizeof(dir), "%s", th_tmpdir());
	snprintf(backing, sizeof(backing), "%s/loop.img", dir);
	th_make_file(backing, DEV_SIZE);
	have_loop = th_loop_attach(backing, false, dev, sizeof(dev));
	return 0;
}

static int group_teardown(void **state)
{
	(void)state;
	if (have_loop)
		th_loop_detach(dev);
	th_rmtree(dir);
	return 0;
}

static int release(void **state)
{
	(void)state;
	json_decref(doc);
	doc = NULL;
	return 0;
}

static void need_loop(void)
{
	if (!have_loop)
		skip();
}

static json_t *get(json_t *o, const char *key)
{
	json_t *v = json_object_get(o, key);
	if (!v)
		print_error("key '%s' missing\n", key);
	assert_non_null(v);
	return v;
}

static double num(json_t *o, const char *key)
{
	json_t *v = get(o, key);
	assert_true(json_is_number(v));
	return json_number_value(v);
}

/* The first point of the JSON at path (held in doc). */
static json_t *first_point(const char *path)
{
	doc = th_load_json(path);
	assert_non_null(doc);
	json_t *p = json_array_get(get(doc, "points"), 0);
	assert_non_null(p);
	return p;
}

static bool run_invalidates(void)
{
	json_t *v = get(json_array_get(get(get(doc, "config"), "runs"), 0), "invalidate");
	assert_true(json_is_boolean(v));
	return json_is_true(v);
}

/* The point's warning containing s, or NULL (all warnings printed when absent and want). */
static const char *warning(json_t *p, const char *s, bool want)
{
	json_t *w = get(p, "warnings");
	for (size_t i = 0; i < json_array_size(w); i++) {
		const char *t = json_string_value(json_array_get(w, i));
		if (t && strstr(t, s))
			return t;
	}
	if (want) {
		char *d = json_dumps(w, 0);
		print_error("no warning with '%s' in %s\n", s, d ? d : "?");
		free(d);
	}
	return NULL;
}

static void expect_ok(struct th_out *o)
{
	if (o->status != 0)
		print_error("status %d\n--- stderr:\n%s--- stdout:\n%s---\n", o->status, o->err, o->out);
	assert_int_equal(o->status, 0);
}

/* Reads all of path through the page cache, with fd kept open by the caller. */
static void warm(int fd)
{
	char *buf = malloc(1 << 20);
	assert_non_null(buf);
	ssize_t n;
	while ((n = read(fd, buf, 1 << 20)) > 0)
		;
	assert_int_equal(n, 0);
	free(buf);
}

/* Share of the bytes the point read that the device read while it was measured. */
static double device_read_share(json_t *p)
{
	json_t *d = get(p, "device");
	assert_true(json_is_object(d));
	return num(d, "read_bytes") / num(get(p, "read"), "bytes");
}

/* ---- buffered reads: page cache or device ---- */

/* A warm page cache kept with --no-invalidate: the device read almost nothing, and the report
 * says the page cache served the reads. */
static void test_warm_cache_kept(void **state)
{
	(void)state;
	need_loop();
	int fd = open(dev, O_RDONLY | O_CLOEXEC);
	assert_true(fd >= 0);
	warm(fd);
	char f[PATH_MAX];
	snprintf(f, sizeof(f), "%s/warm.json", dir);
	struct th_out o = th_iolab("run", dev, "--buffered", "--no-invalidate", "--pattern", "rand-read",
				   "--bs", "4k", "--bytes", "8m", "--quiet", "--json", f, NULL);
	close(fd);
	expect_ok(&o);
	th_out_free(&o);
	json_t *p = first_point(f);
	assert_false(run_invalidates());
	double share = device_read_share(p);
	print_message("warm, kept: the device read %.1f %% of the bytes\n", 100 * share);
	assert_true(share < 0.5);
	const char *w = warning(p, "buffered reads: only", true);
	assert_non_null(w);
	assert_non_null(strstr(w, "the page cache served most"));
}

/* The same warm page cache, dropped first (the default with --buffered): the reads reach the
 * device, and the report says so instead of "this measures the page cache". */
static void test_cache_dropped_by_default(void **state)
{
	(void)state;
	need_loop();
	int fd = open(dev, O_RDONLY | O_CLOEXEC);
	assert_true(fd >= 0);
	warm(fd);
	char f[PATH_MAX];
	snprintf(f, sizeof(f), "%s/cold.json", dir);
	struct th_out o = th_iolab("run", dev, "--buffered", "--pattern", "rand-read", "--bs", "4k",
				   "--bytes", "8m", "--quiet", "--json", f, NULL);
	close(fd);
	expect_ok(&o);
	th_out_free(&o);
	json_t *p = first_point(f);
	assert_true(run_invalidates());
	double share = device_read_share(p);
	print_message("warm, dropped: the device read %.1f %% of the bytes\n", 100 * share);
	/* 2048 random 4 KiB reads over 16384 blocks: about 6 % land on a block read before. */
	assert_true(share > 0.8);
	assert_non_null(warning(p, "reached the device", true));
	assert_null(warning(p, "served most", false));
	assert_null(warning(p, "measures the page cache", false));
}

/* A regular file (cached by reading it) is dropped with POSIX_FADV_DONTNEED. Its file system's
 * device may carry other programs' I/O too, which can only raise the share. */
static void test_file_cache_dropped(void **state)
{
	(void)state;
	char file[PATH_MAX], f[PATH_MAX];
	snprintf(file, sizeof(file), "%s/file.img", dir);
	snprintf(f, sizeof(f), "%s/file.json", dir);
	th_make_file(file, 32u << 20);
	int fd = open(file, O_RDONLY | O_CLOEXEC);
	assert_true(fd >= 0);
	warm(fd);
	close(fd);
	struct th_out o = th_iolab("run", file, "--buffered", "--pattern", "rand-read", "--bs", "4k",
				   "--bytes", "4m", "--quiet", "--json", f, NULL);
	expect_ok(&o);
	th_out_free(&o);
	json_t *p = first_point(f);
	if (json_is_null(get(p, "device"))) {
		assert_non_null(warning(p, "cannot be told", true));
		return;
	}
	assert_true(device_read_share(p) > 0.5);
	assert_non_null(warning(p, "reached the device", true));
}

/* On tmpfs there is no device at all: the report says memory served the reads. */
static void test_tmpfs(void **state)
{
	(void)state;
	struct statfs sf;
	if (statfs("/dev/shm", &sf) != 0 || sf.f_type != TMPFS_MAGIC) {
		print_message("SKIP: /dev/shm is not tmpfs\n");
		skip();
	}
	char file[] = "/dev/shm/iolab-honesty-XXXXXX", f[PATH_MAX];
	int fd = mkstemp(file);
	assert_true(fd >= 0);
	close(fd);
	unlink(file); /* iolab creates it as a scratch file */
	snprintf(f, sizeof(f), "%s/tmpfs.json", dir);
	struct th_out o = th_iolab("run", file, "--size", "8m", "--buffered", "--bytes", "2m", "--quiet",
				   "--json", f, NULL);
	unlink(file);
	expect_ok(&o);
	th_out_free(&o);
	json_t *p = first_point(f);
	assert_true(json_is_null(get(p, "device")));
	assert_non_null(warning(p, "buffered reads on tmpfs: memory served them", true));
}

/* ---- the device's own queue, and I/Os that complete during submission ---- */

/* Buffered libaio at QD 16: io_submit performs each read before it returns, so the device never
 * has more than one of them, while the worker keeps 16 "in flight" (qd@ near 16). The table
 * shows the device's queue beside qd@, the JSON and CSV carry it, and the report says the I/Os
 * were complete at submission. */
static void test_buffered_libaio(void **state)
{
	(void)state;
	need_loop();
	char f[PATH_MAX], csv[PATH_MAX];
	snprintf(f, sizeof(f), "%s/aio.json", dir);
	snprintf(csv, sizeof(csv), "%s/aio.csv", dir);
	struct th_out o = th_iolab("run", dev, "--buffered", "--engine", "libaio", "--qd", "16",
				   "--pattern", "rand-read", "--bs", "4k", "--bytes", "8m", "--quiet",
				   "--json", f, "--csv", csv, NULL);
	expect_ok(&o);
	const char *qd_at = strstr(o.out, "qd@"), *dev = qd_at ? strstr(qd_at, "dev qd") : NULL;
	bool column = dev && dev - qd_at < 12; /* beside qd@ */
	th_out_free(&o);
	assert_true(column);
	json_t *p = first_point(f);
	double dq = num(get(p, "device"), "queue"), reached = num(p, "qd_reached");
	double at_submit = num(p, "done_at_submit_pct");
	print_message("buffered libaio QD 16: qd@ %.2f, device queue %.2f, %.1f %% done at submit\n",
		      reached, dq, at_submit);
	assert_true(reached > 12);
	assert_true(dq < 2);
	assert_true(at_submit > 90);
	const char *w = warning(p, "were complete when libaio's submit call returned", true);
	assert_non_null(w);
	assert_non_null(strstr(w, "device's own mean queue"));

	FILE *c = fopen(csv, "r");
	assert_non_null(c);
	char hdr[2048];
	assert_non_null(fgets(hdr, sizeof(hdr), c));
	fclose(c);
	assert_non_null(strstr(hdr, ",qd_reached,device_queue,device_util_pct,done_at_submit_pct,"));
}

/* O_DIRECT io_uring on the same device is asynchronous: no I/O completes during submission,
 * and nothing is said. */
static void test_direct_io_uring_not_warned(void **state)
{
	(void)state;
	need_loop();
	char f[PATH_MAX];
	snprintf(f, sizeof(f), "%s/uring.json", dir);
	struct th_out o = th_iolab("run", dev, "--direct", "--engine", "io_uring", "--qd", "16",
				   "--pattern", "rand-read", "--bs", "4k", "--bytes", "16m", "--quiet",
				   "--json", f, NULL);
	expect_ok(&o);
	th_out_free(&o);
	json_t *p = first_point(f);
	json_t *pct = get(p, "done_at_submit_pct");
	if (json_is_number(pct))
		print_message("direct io_uring QD 16: %.1f %% done at submit\n", json_number_value(pct));
	assert_true(json_is_null(pct) || json_number_value(pct) < 50);
	assert_null(warning(p, "submit call returned", false));
}

/* ---- the footer ---- */

static void test_footer_says_what_columns_mean(void **state)
{
	(void)state;
	struct th_out o = th_iolab("run", "--engine", "null", "--time", "0.1", "--quiet", NULL);
	expect_ok(&o);
	bool lat = strstr(o.out, "fio's lat (submission included), not its clat") != NULL;
	bool psync = strstr(o.out, "for psync the two are the same") != NULL;
	bool cpu = strstr(o.out, "cpu u/s = user/system CPU % of one core") != NULL;
	bool devq = strstr(o.out, "dev qd = the device's own mean queue") != NULL;
	th_out_free(&o);
	assert_true(lat && psync && cpu && devq);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test_teardown(test_warm_cache_kept, release),
		cmocka_unit_test_teardown(test_cache_dropped_by_default, release),
		cmocka_unit_test_teardown(test_file_cache_dropped, release),
		cmocka_unit_test_teardown(test_tmpfs, release),
		cmocka_unit_test_teardown(test_buffered_libaio, release),
		cmocka_unit_test_teardown(test_direct_io_uring_not_warned, release),
		cmocka_unit_test(test_footer_says_what_columns_mean),
	};
	return cmocka_run_group_tests(tests, group_setup, group_teardown);
}
