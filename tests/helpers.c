/* helpers.c: see helpers.h. */
#include <dirent.h>
#include <errno.h>
#include <fcntl.h>
#include <math.h>
#include <setjmp.h>
#include <stdarg.h>
#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/resource.h>
#include <sys/stat.h>
#include <sys/wait.h>
#include <unistd.h>

#include <cmocka.h>
#include <jansson.h>

#include "helpers.h"
#include "iolab/disksim_import.h"

/* Exits the test program with a message: the plumbing itself failed, not the code under test. */
static void die(const char *what)
{
	perror(what);
	exit(1);
}

const char *th_tmpdir(void)
{
	static char path[256];
	snprintf(path, sizeof(path), "/var/tmp/iolab-test-XXXXXX");
	if (!mkdtemp(path))
		die("mkdtemp");
	return path;
}

char th_dir[256];

int th_dir_setup(void **state)
{
	(void)state;
	snprintf(th_dir, sizeof(th_dir), "%s", th_tmpdir());
	return 0;
}

int th_dir_teardown(void **state)
{
	(void)state;
	if (*th_dir)
		th_rmtree(th_dir);
	return 0;
}

bool th_exists(const char *path)
{
	struct stat st;
	return stat(path, &st) == 0;
}

void th_write_text(const char *path, const char *text)
{
	FILE *f = fopen(path, "w");
	assert_non_null(f);
	fputs(text, f);
	assert_int_equal(fclose(f), 0);
}

unsigned th_count_entries(const char *dir, const char *part)
{
	DIR *d = opendir(dir);
	assert_non_null(d);
	unsigned n = 0;
	for (struct dirent *e; (e = readdir(d));)
		n += strcmp(e->d_name, ".") && strcmp(e->d_name, "..") && strstr(e->d_name, part);
	closedir(d);
	return n;
}

void th_rmtree(const char *path)
{
	char cmd[512];
	snprintf(cmd, sizeof(cmd), "rm -rf '%s'", path);
	if (system(cmd) != 0)
		fprintf(stderr, "warning: could not remove %s\n", path);
}

static void *xrealloc(void *p, size_t n)
{
	void *q = realloc(p, n);
	if (!q)
		die("realloc");
	return q;
}

static char *slurp(FILE *f)
{
	size_t cap = 4096, n = 0;
	char *buf = xrealloc(NULL, cap);
	rewind(f);
	size_t r;
	while ((r = fread(buf + n, 1, cap - n - 1, f)) > 0) {
		n += r;
		if (cap - n < 2)
			buf = xrealloc(buf, cap *= 2);
	}
	buf[n] = 0;
	return buf;
}

/* Points XDG_DATA_HOME, where iolab keeps its results store, at a directory of this test
 * program (made when it starts, removed at its exit), so that no test, and no iolab that a test
 * starts by any means, writes into the user's home. */
static pid_t data_home_owner;
static char data_home[256];

static void data_home_remove(void)
{
	if (getpid() == data_home_owner)
		th_rmtree(data_home);
}

__attribute__((constructor)) static void th_data_home(void)
{
	if (*data_home)
		return;
	snprintf(data_home, sizeof(data_home), "%s", th_tmpdir());
	data_home_owner = getpid();
	atexit(data_home_remove);
	setenv("XDG_DATA_HOME", data_home, 1);
}

struct th_out th_iolab(const char *arg, ...)
{
	const char *bin = getenv("IOLAB_BIN");
	if (!bin)
		bin = "build/iolab";
	const char *argv[64] = {bin};
	int argc = 1;
	va_list ap;
	va_start(ap, arg);
	for (const char *a = arg; a && argc < 63; a = va_arg(ap, const char *))
		argv[argc++] = a;
	va_end(ap);
	argv[argc] = NULL;
	FILE *out = tmpfile(), *err = tmpfile();
	if (!out || !err)
		die("tmpfile");
	fflush(NULL);
	pid_t pid = fork();
	if (pid < 0)
		die("fork");
	if (pid == 0) {
		int devnull = open("/dev/null", O_RDONLY);
		dup2(devnull, 0);
		dup2(fileno(out), 1);
		dup2(fileno(err), 2);
		execv(bin, (char *const *)argv);
		_exit(127);
	}
	int st = 0;
	if (waitpid(pid, &st, 0) < 0)
		die("waitpid");
	struct th_out o = {
		.status = WIFEXITED(st) ? WEXITSTATUS(st) : 128 + WTERMSIG(st),
		.out = slurp(out),
		.err = slurp(err),
	};
	fclose(out);
	fclose(err);
	return o;
}

void th_out_free(struct th_out *o)
{
	free(o->out);
	free(o->err);
}

bool th_loop_attach(const char *file, bool direct, char *dev, size_t devsz)
{
	char cmd[512];
	snprintf(cmd, sizeof(cmd), "losetup --find --show %s '%s' 2>/dev/null",
		 direct ? "--direct-io=on" : "", file);
	FILE *p = popen(cmd, "r");
	if (!p)
		return false;
	bool ok = fgets(dev, (int)devsz, p) != NULL;
	int rc = pclose(p);
	if (!ok || rc != 0) {
		fprintf(stderr, "SKIP: cannot attach a loop device (needs root and loop support)\n");
		return false;
	}
	dev[strcspn(dev, "\n")] = 0;
	return true;
}

void th_loop_detach(const char *dev)
{
	char cmd[256];
	snprintf(cmd, sizeof(cmd), "losetup -d '%s'", dev);
	if (system(cmd) != 0)
		fprintf(stderr, "warning: could not detach %s\n", dev);
}

void th_make_file(const char *path, size_t size)
{
	int fd = open(path, O_WRONLY | O_CREAT | O_TRUNC, 0644);
	if (fd < 0 || ftruncate(fd, (off_t)size) != 0)
		die(path);
	char *zero = calloc(1, 1 << 20);
	if (!zero)
		die("calloc");
	for (size_t off = 0; off < size; off += 1 << 20) {
		size_t n = size - off < (1u << 20) ? size - off : 1u << 20;
		if (pwrite(fd, zero, n, (off_t)off) != (ssize_t)n)
			die(path);
	}
	free(zero);
	close(fd);
}

void th_data_path(char *buf, size_t n, const char *name)
{
	const char *src = getenv("IOLAB_SRC");
	if (src) {
		snprintf(buf, n, "%s/tests/data/%s", src, name);
		return;
	}
	char here[1024];
	snprintf(here, sizeof(here), "%s", __FILE__);
	char *slash = strrchr(here, '/');
	if (slash)
		*slash = 0;
	else
		snprintf(here, sizeof(here), ".");
	snprintf(buf, n, "%s/data/%s", here, name);
}

json_t *th_load_json(const char *path)
{
	json_error_t e;
	json_t *j = json_load_file(path, 0, &e);
	if (!j)
		fprintf(stderr, "%s: not valid JSON: line %d: %s\n", path, e.line, e.text);
	return j;
}

unsigned th_count_lines(const char *s)
{
	unsigned n = 0;
	for (; *s; s++)
		n += *s == '\n';
	return n;
}

void th_expect_exit_(int line, struct th_out *o, int want, const char *const *needles)
{
	const char *missing = NULL;
	for (const char *const *n = needles; *n && !missing; n++)
		if (!strstr(o->err, *n))
			missing = *n;
	bool ok = o->status == want && th_count_lines(o->err) == 1 && !missing &&
		  (want != 2 || !*o->out);
	if (!ok)
		print_error("case at line %d: status %d (want %d), %u stderr line(s) (want 1)%s%s%s\n"
			    "--- stderr:\n%s--- stdout:\n%s---\n", line, o->status, want,
			    th_count_lines(o->err), missing ? ", missing '" : "", missing ? missing : "",
			    missing ? "'" : "", o->err, o->out);
	th_out_free(o);
	if (!ok)
		fail_msg("not the expected outcome (see above)");
}

int th_sh(const char *fmt, ...)
{
	char cmd[4096];
	va_list ap;
	va_start(ap, fmt);
	vsnprintf(cmd, sizeof(cmd), fmt, ap);
	va_end(ap);
	const char *bin = getenv("IOLAB_BIN");
	setenv("B", bin ? bin : "build/iolab", 1);
	int st = system(cmd);
	if (st < 0)
		die("system");
	return WIFEXITED(st) ? WEXITSTATUS(st) : 128 + WTERMSIG(st);
}

bool th_zeros(const char *path, size_t len)
{
	int fd = open(path, O_RDONLY | O_CLOEXEC);
	assert_true(fd >= 0);
	static char buf[1 << 16];
	bool all = true;
	for (size_t off = 0; off < len && all;) {
		ssize_t n = pread(fd, buf, sizeof(buf), (off_t)off);
		assert_true(n > 0);
		for (ssize_t i = 0; i < n && all; i++)
			all = buf[i] == 0;
		off += (size_t)n;
	}
	close(fd);
	return all;
}

char *th_read_file(const char *path, size_t *len)
{
	FILE *f = fopen(path, "rb");
	if (!f) {
		print_error("cannot open %s: %s\n", path, strerror(errno));
		fail();
	}
	fseek(f, 0, SEEK_END);
	long n = ftell(f);
	rewind(f);
	char *buf = malloc((size_t)n + 1);
	assert_non_null(buf);
	assert_int_equal(fread(buf, 1, (size_t)n, f), (size_t)n);
	buf[n] = 0;
	fclose(f);
	if (len)
		*len = (size_t)n;
	return buf;
}

void th_spec_path(char *buf, size_t n, const char *name)
{
	char rel[256];
	snprintf(rel, sizeof(rel), "disksim-specs/%s", name);
	th_data_path(buf, n, rel);
}

void th_import_spec(const char *name, struct iolab_disk_model *m)
{
	char path[1024];
	struct iolab_err err = {{0}};
	th_spec_path(path, sizeof(path), name);
	if (iolab_import_disksim(path, m, &err)) {
		print_error("%s: %s\n", name, err.msg);
		fail();
	}
}

const char *th_tiny_ssd_model(void)
{
	static char path[300];
	if (*path)
		return path;
	snprintf(path, sizeof(path), "%s/tiny.model", th_dir);
	th_write_text(path, "device = ssd\n"
		      "name = tiny-ssd\n"
		      "about = a small SSD for tests: 2 channels x 2 dies, 64 MiB of flash\n"
		      "interface = nvme\nqueues = 1\nqueue_entries = 64\ninterface_mb_s = 3500\n"
		      "command_us = 1\ncache_mib = 1\ncache_write_back = yes\ncache_page_us = 1\n"
		      "channels = 2\nchips_per_channel = 1\ndies_per_chip = 2\nplanes_per_die = 1\n"
		      "blocks_per_plane = 256\npages_per_block = 64\npage_bytes = 4096\ncell = slc\n"
		      "read_us = 50\nprogram_us = 300\nerase_ms = 2\nchannel_mb_s = 400\n"
		      "channel_command_ns = 100\noverprovisioning = 10%\ngc_policy = greedy\n"
		      "gc_threshold = 0.02\n");
	return path;
}

double th_lambert_w0(double x)
{
	double w = -1 + sqrt(2 * (1 + M_E * x)); /* the series at -1/e, close enough to converge */
	for (int i = 0; i < 100; i++) {
		double e = exp(w), fw = w * e - x;
		double step = fw / (e * (w + 1) - (w + 2) * fw / (2 * w + 2));
		w -= step;
		if (fabs(step) < 1e-15)
			break;
	}
	return w;
}

#if defined(__SANITIZE_ADDRESS__)
#define TH_ASAN 1
#elif defined(__has_feature)
#if __has_feature(address_sanitizer)
#define TH_ASAN 1
#endif
#endif

void th_expect_children_rss(long kib, long asan_kib)
{
#ifdef TH_ASAN
	kib = asan_kib;
#else
	(void)asan_kib;
#endif
	struct rusage ru;
	assert_int_equal(getrusage(RUSAGE_CHILDREN, &ru), 0);
	if (ru.ru_maxrss > kib)
		print_error("peak resident size %ld KiB, more than %ld\n", ru.ru_maxrss, kib);
	assert_true(ru.ru_maxrss <= kib);
}
