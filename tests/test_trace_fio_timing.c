/* test_trace_fio_timing.c: iolab reads a fio iolog's times as fio itself replays them
 * (src/trace/fmt_fio_iolog.c). fio 3.33 replays a v2 and a v3 log against a small file
 * (ioengine=psync) and logs every I/O's completion time and latency (--write_lat_log with
 * --log_offset: "msec, latency ns, ddir, bs, offset" a line, in completion order, which psync
 * keeps in issue order); its issue times (completion - latency) are compared with the issue times
 * `iolab trace convert LOG --format fio-iolog --to iot-text` gives, within TOLERANCE_MS (each
 * log's readings of other rules differ from fio's by 100 ms or more).
 * fio counts a v2 `wait` from its own start (genesis), which comes before the job's first I/O
 * by its setup time: v2 times are compared from the first request a wait held. Exits 77
 * (skipped) when fio is not installed. */
#include <inttypes.h>
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

#define TOLERANCE_MS 45.0 /* sleeps on a loaded machine; the readings differ by 100 ms or more */
#define MAXIO 16

static char img[300]; /* th_dir (256 bytes) and a name */

/* fio's issue times (ms since the job's start) of log, replayed on img. */
static unsigned fio_issue_ms(const char *log, double *ms)
{
	char prefix[PATH_MAX], lat[PATH_MAX + 16];
	snprintf(prefix, sizeof(prefix), "%s/lat", th_dir);
	snprintf(lat, sizeof(lat), "%s_lat.1.log", prefix);
	remove(lat);
	assert_int_equal(th_sh("fio --name=replay --read_iolog='%s' --ioengine=psync "
			       "--write_lat_log='%s' --log_offset=1 --output=/dev/null 2>/dev/null",
			       log, prefix), 0);
	FILE *f = fopen(lat, "r");
	assert_non_null(f);
	unsigned n = 0;
	unsigned long long t, lat_ns;
	while (n < MAXIO && fscanf(f, "%llu, %llu, %*[^\n]", &t, &lat_ns) == 2)
		ms[n++] = (double)t - (double)lat_ns / 1e6;
	fclose(f);
	return n;
}

/* iolab's issue times (ms) of log. */
static unsigned iolab_issue_ms(const char *log, double *ms)
{
	struct th_out o = th_iolab("trace", "convert", log, "--format", "fio-iolog", "--to",
				   "iot-text", "-o", "-", NULL);
	if (o.status)
		fail_msg("convert %s: %s", log, o.err);
	unsigned n = 0;
	for (char *line = strtok(o.out, "\n"); line; line = strtok(NULL, "\n"))
		if (line[0] != '#' && n < MAXIO)
			ms[n++] = (double)strtoull(line, NULL, 10) / 1e6;
	th_out_free(&o);
	return n;
}

/* Replays log with both; compares the times of requests from..n-1 counted from request from's. */
static void compare(const char *name, const char *text, unsigned want, unsigned from)
{
	char log[PATH_MAX];
	snprintf(log, sizeof(log), "%s/%s", th_dir, name);
	th_write_text(log, text);
	double f[MAXIO], l[MAXIO];
	assert_int_equal(fio_issue_ms(log, f), want);
	assert_int_equal(iolab_issue_ms(log, l), want);
	printf("%s: request, fio's issue (ms), iolab's (ms), both from request %u\n", name, from);
	for (unsigned i = from; i < want; i++) {
		double df = f[i] - f[from], dl = l[i] - l[from];
		printf("  %u %8.1f %8.1f\n", i, df, dl);
		if (df - dl > TOLERANCE_MS || dl - df > TOLERANCE_MS)
			fail_msg("%s: request %u: fio issues it at %.1f ms, iolab at %.1f ms", name, i, df, dl);
	}
}

/* v2: waits of 200, 100 (already past: holds nothing) and 500 ms since the start. */
static void test_v2_waits(void **state)
{
	(void)state;
	char text[4096];
	snprintf(text, sizeof(text),
		 "fio version 2 iolog\n%1$s add\n%1$s open\n%1$s read 0 4096\n%1$s wait 200 0\n"
		 "%1$s read 4096 4096\n%1$s read 8192 4096\n%1$s wait 100 0\n%1$s read 12288 4096\n"
		 "%1$s wait 500 0\n%1$s write 16384 4096\n%1$s close\n", img);
	compare("v2.log", text, 5, 1);
}

/* v3: no delay for the first I/O (the lines before it are at 0), a skipped wait whose interval
 * is lost, a timestamp that goes back. */
static void test_v3_timestamps(void **state)
{
	(void)state;
	char text[4096];
	snprintf(text, sizeof(text),
		 "fio version 3 iolog\n0 %1$s add\n0 %1$s open\n100000 %1$s read 0 4096\n"
		 "300000 %1$s read 4096 4096\n400000 %1$s wait 1000 0\n600000 %1$s read 8192 4096\n"
		 "500000 %1$s write 0 4096\n700000 %1$s write 4096 4096\n700000 %1$s close\n", img);
	compare("v3.log", text, 5, 0);
}

int main(void)
{
	if (th_sh("fio --version >/dev/null 2>&1") != 0) {
		printf("fio is not installed: skipped (exit 77)\n");
		return 77;
	}
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_v2_waits),
		cmocka_unit_test(test_v3_timestamps),
	};
	if (th_dir_setup(NULL))
		return 1;
	snprintf(img, sizeof(img), "%s/replay.img", th_dir);
	th_make_file(img, 1 << 20);
	int rc = cmocka_run_group_tests(tests, NULL, NULL);
	th_dir_teardown(NULL);
	return rc;
}
