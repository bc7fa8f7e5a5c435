/* test_report_browser.c: the page of `iolab report` (docs/report.md) opened in a real browser.
 * Four simulated runs (different drives and queue depths, a block-size sweep, a RAID 0 of 1, 2
 * and 4 drives, and a second drive on the first run's points, which the page compares) go into a
 * fresh store; `iolab report 1 2 3 4 -o report.html` writes the page, and
 * headless Chromium loads it from the file (no network) and prints the DOM after its scripts ran
 * (--dump-dom, --virtual-time-budget; https://developer.chrome.com/docs/chromium/headless). The
 * page records in <body> how many charts it created and how many Chart.js drew (its afterRender
 * plugin hook, https://www.chartjs.org/docs/3.9.1/developers/plugins.html) and every error: they
 * must be equal, above 0, with no error and no console message (Chromium logs each one as a
 * "CONSOLE" line with --enable-logging=stderr). A screenshot is kept in
 * <build>/test-artifacts/report.png. A second page, written through the library with the
 * hand-written comparison objects of tests/data/report/comparison.json (include/iolab/compare.h's
 * format), must show their tables. Chromium runs as a child in its own process group with a time
 * limit, with HOME and its profile in a scratch directory; without Chromium the test is skipped. */
#include <errno.h>
#include <fcntl.h>
#include <limits.h>
#include <setjmp.h>
#include <signal.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <sys/wait.h>
#include <time.h>
#include <unistd.h>

#include <cmocka.h>
#include <jansson.h>

#include "helpers.h"
#include "iolab/report.h"
#include "iolab/store.h"

enum { CHROMIUM_TIMEOUT_S = 90 };

static char chromium[PATH_MAX];
static char db[512];

static void in_dir(char *buf, size_t n, const char *name)
{
	snprintf(buf, n, "%s/%s", th_dir, name);
}

/* Finds chromium (or chromium-browser) on PATH into chromium[]. */
static bool find_chromium(void)
{
	const char *path = getenv("PATH");
	static const char *const names[] = {"chromium", "chromium-browser"};
	for (size_t i = 0; path && i < sizeof(names) / sizeof(names[0]); i++) {
		char *dirs = strdup(path), *save = NULL;
		for (char *d = strtok_r(dirs, ":", &save); d; d = strtok_r(NULL, ":", &save)) {
			snprintf(chromium, sizeof(chromium), "%s/%s", *d ? d : ".", names[i]);
			if (access(chromium, X_OK) == 0) {
				free(dirs);
				return true;
			}
		}
		free(dirs);
	}
	*chromium = 0;
	return false;
}

/* Runs chromium with args (NULL-terminated) on url, stdout and stderr into files; kills its whole
 * process group if it takes longer than the time limit. Returns its exit status. */
static int run_chromium(const char *const *args, const char *url, const char *out, const char *err)
{
	char home[600], profile[600];
	in_dir(home, sizeof(home), "chromium-home");
	in_dir(profile, sizeof(profile), "chromium-home/profile");
	mkdir(home, 0700);
	const char *argv[32] = {chromium, "--headless", "--no-sandbox", "--disable-gpu",
				"--no-first-run", "--disable-extensions", "--enable-logging=stderr", "--v=0"};
	int argc = 8;
	char udd[700];
	snprintf(udd, sizeof(udd), "--user-data-dir=%s", profile);
	argv[argc++] = udd;
	for (; *args && argc < 30; args++)
		argv[argc++] = *args;
	argv[argc++] = url;
	argv[argc] = NULL;
	fflush(NULL);
	pid_t pid = fork();
	assert_true(pid >= 0);
	if (pid == 0) {
		setpgid(0, 0);
		setenv("HOME", home, 1);
		int in = open("/dev/null", O_RDONLY);
		int o = open(out, O_WRONLY | O_CREAT | O_TRUNC, 0600);
		int e = open(err, O_WRONLY | O_CREAT | O_TRUNC, 0600);
		if (in < 0 || o < 0 || e < 0)
			_exit(126);
		dup2(in, 0);
		dup2(o, 1);
		dup2(e, 2);
		execv(chromium, (char *const *)argv);
		_exit(127);
	}
	setpgid(pid, pid);
	struct timespec start, now, nap = {0, 50 * 1000 * 1000};
	clock_gettime(CLOCK_MONOTONIC, &start);
	int st = 0;
	for (;;) {
		pid_t w = waitpid(pid, &st, WNOHANG);
		if (w == pid)
			break;
		assert_true(w == 0);
		clock_gettime(CLOCK_MONOTONIC, &now);
		if (now.tv_sec - start.tv_sec > CHROMIUM_TIMEOUT_S) {
			kill(-pid, SIGKILL);
			waitpid(pid, &st, 0);
			fail_msg("chromium took more than %d s on %s: killed", CHROMIUM_TIMEOUT_S, url);
		}
		nanosleep(&nap, NULL);
	}
	kill(-pid, SIGKILL); /* helpers it may have left behind, in its own group */
	return WIFEXITED(st) ? WEXITSTATUS(st) : 128 + WTERMSIG(st);
}

/* The value of attribute name="..." in the tag starting at tag (malloc'd), or NULL. */
static char *tag_attr(const char *tag, const char *name)
{
	const char *end = strchr(tag, '>');
	assert_non_null(end);
	char *copy = strndup(tag, (size_t)(end - tag)), pat[64];
	snprintf(pat, sizeof(pat), " %s=\"", name);
	const char *at = strstr(copy, pat), *q = at ? strchr(at + strlen(pat), '"') : NULL;
	char *value = q ? strndup(at + strlen(pat), (size_t)(q - at - strlen(pat))) : NULL;
	free(copy);
	return value;
}

/* The value of attribute name="..." in the <body ...> tag of the dumped DOM (malloc'd), or NULL. */
static char *body_attr(const char *dom, const char *name)
{
	const char *body = strstr(dom, "<body");
	assert_non_null(body);
	return tag_attr(body, name);
}

/* Fails on any console line Chromium logged for the page (the page logs none of its own). */
static void expect_no_console(const char *errpath)
{
	char *log = th_read_file(errpath, NULL);
	int bad = 0;
	for (char *line = strtok(log, "\n"); line; line = strtok(NULL, "\n"))
		if (strstr(line, ":CONSOLE") || strstr(line, "Uncaught")) {
			print_error("console: %s\n", line);
			bad++;
		}
	free(log);
	assert_int_equal(bad, 0);
}

/* A rectangle of the page, in CSS pixels: "x,y,width,height" as the page records it. */
struct box {
	long x, y, w, h;
};

static struct box parse_box(const char *text)
{
	struct box b;
	assert_int_equal(sscanf(text, "%ld,%ld,%ld,%ld", &b.x, &b.y, &b.w, &b.h), 4);
	return b;
}

static bool boxes_meet(struct box a, struct box b)
{
	return a.x < b.x + b.w && b.x < a.x + a.w && a.y < b.y + b.h && b.y < a.y + a.h;
}

/* Checks a latency axis (its title says "latency (UNIT)"): every tick label is "N UNIT" with
 * N below 1000 unless the unit is s (never "800,000 µs"). Returns whether the unit is ms. */
static bool expect_latency_ticks(const char *title, const char *ticks)
{
	const char *units[] = {"µs", "ms", "s"};
	const char *unit = NULL;
	for (int i = 0; i < 3 && !unit; i++) {
		char want[32];
		snprintf(want, sizeof(want), "latency (%s)", units[i]);
		if (strstr(title, want))
			unit = units[i];
	}
	if (!unit)
		fail_msg("latency axis \"%s\" names no unit", title);
	char *list = strdup(ticks), *save = NULL;
	int n = 0;
	for (char *t = strtok_r(list, "|", &save); t; t = strtok_r(NULL, "|", &save), n++) {
		char digits[64] = "", *d = digits;
		for (const char *c = t; *c && *c != ' ' && d < digits + sizeof(digits) - 1; c++)
			if (*c != ',')
				*d++ = *c;
		*d = 0;
		const char *sp = strchr(t, ' ');
		if (!sp || strcmp(sp + 1, unit) || (strcmp(unit, "s") && strtod(digits, NULL) >= 1000))
			fail_msg("latency axis \"%s\": tick \"%s\"", title, t);
	}
	assert_true(n > 0);
	free(list);
	return !strcmp(unit, "ms");
}

/* The layout rules of docs/report.md, read from what the page recorded on each chart's box
 * (data-plot, data-legend: the plotted area and the legend in page pixels, as Chromium laid them
 * out): one box per chart made; every plotted area at least 250 px high; no legend over any plotted
 * area; at most 6 series in a panel, no colour twice in one; latency ticks in a unit that keeps
 * them below 1000. Returns how many latency axes are in ms. */
static int expect_readable_layout(const char *dom, int charts)
{
	struct box *plots = calloc((size_t)charts, sizeof(*plots));
	struct box *legends = calloc((size_t)charts, sizeof(*legends));
	assert_non_null(plots);
	assert_non_null(legends);
	int np = 0, nl = 0, ms = 0;
	for (const char *at = dom; (at = strstr(at, "<div class=\"chart\"")); at++) {
		assert_true(np < charts);
		char *plot = tag_attr(at, "data-plot"), *legend = tag_attr(at, "data-legend");
		char *series = tag_attr(at, "data-series"), *colors = tag_attr(at, "data-colors");
		assert_non_null(plot);
		assert_non_null(series);
		assert_non_null(colors);
		plots[np] = parse_box(plot);
		if (plots[np].h < 250)
			fail_msg("chart %d: its plot is %ld px high", np + 1, plots[np].h);
		np++;
		if (legend)
			legends[nl++] = parse_box(legend);
		int n = atoi(series);
		assert_true(n >= 1 && n <= 6);
		char *save = NULL, *seen[8];
		int k = 0;
		for (char *c = strtok_r(colors, "|", &save); c; c = strtok_r(NULL, "|", &save)) {
			for (int j = 0; j < k; j++)
				if (!strcmp(seen[j], c))
					fail_msg("chart %d: colour %s twice", np, c);
			assert_true(k < 8);
			seen[k++] = c;
		}
		assert_int_equal(k, n);
		for (int a = 0; a < 2; a++) {
			char tname[16], kname[16];
			snprintf(tname, sizeof(tname), "data-%c-title", "xy"[a]);
			snprintf(kname, sizeof(kname), "data-%c-ticks", "xy"[a]);
			char *title = tag_attr(at, tname), *ticks = tag_attr(at, kname);
			if (title && strstr(title, "latency") && ticks)
				ms += expect_latency_ticks(title, ticks);
			free(title);
			free(ticks);
		}
		free(plot);
		free(legend);
		free(series);
		free(colors);
	}
	assert_int_equal(np, charts);
	for (int i = 0; i < nl; i++)
		for (int j = 0; j < np; j++)
			if (boxes_meet(legends[i], plots[j]))
				fail_msg("a legend (%ld,%ld %ldx%ld) lies over plot %d (%ld,%ld %ldx%ld)",
					 legends[i].x, legends[i].y, legends[i].w, legends[i].h, j + 1,
					 plots[j].x, plots[j].y, plots[j].w, plots[j].h);
	free(plots);
	free(legends);
	return ms;
}

/* Loads the page at path with --dump-dom; checks the counts, errors and layout; returns the DOM. */
static char *render(const char *path, int *charts)
{
	char url[700], out[600], err[600];
	snprintf(url, sizeof(url), "file://%s", path);
	snprintf(out, sizeof(out), "%s.dom", path);
	snprintf(err, sizeof(err), "%s.log", path);
	const char *args[] = {"--dump-dom", "--window-size=1280,2000", "--virtual-time-budget=10000", NULL};
	int st = run_chromium(args, url, out, err);
	if (st)
		print_error("chromium exited with %d (log: %s)\n", st, err);
	assert_int_equal(st, 0);
	char *dom = th_read_file(out, NULL);
	char *done = body_attr(dom, "data-report-done"), *errors = body_attr(dom, "data-errors");
	char *expected = body_attr(dom, "data-charts-expected");
	char *rendered = body_attr(dom, "data-charts-rendered");
	printf("%s: charts expected %s, rendered %s, errors \"%s\"\n", path, expected ? expected : "?",
	       rendered ? rendered : "?", errors ? errors : "?");
	assert_non_null(done);
	assert_string_equal(done, "1");
	assert_non_null(errors);
	assert_string_equal(errors, "");
	assert_non_null(expected);
	assert_non_null(rendered);
	assert_string_equal(rendered, expected);
	*charts = atoi(expected);
	expect_no_console(err);
	expect_readable_layout(dom, *charts);
	/* nothing runs off the page (1280 px wide): wide tables scroll inside their box */
	char *width = body_attr(dom, "data-page-width");
	assert_non_null(width);
	assert_true(atoi(width) > 0 && atoi(width) <= 1280);
	free(width);
	free(done);
	free(errors);
	free(expected);
	free(rendered);
	return dom;
}

static int setup(void **state)
{
	if (!find_chromium()) {
		printf("SKIPPED: chromium not installed\n");
		return 0;
	}
	th_dir_setup(state);
	in_dir(db, sizeof(db), "results.db");
	struct th_out o[4] = {
		th_iolab("sim", "--model", "atlas10k", "--pattern", "file-server", "--qd", "1,4,16",
			 "--time", "2", "--db", db, "--label", "atlas10k", "--quiet", NULL),
		th_iolab("sim", "--model", "barracuda", "--pattern", "rand-read", "--bs", "4k,64k",
			 "--qd", "1,8", "--time", "1", "--db", db, "--label", "barracuda", "--quiet", NULL),
		th_iolab("sim", "--array", "raid0:1,2,4", "--drive", "cheetah9LP", "--pattern", "rand-read",
			 "--bs", "4k", "--qd", "16", "--time", "1", "--db", db, "--label", "raid0", "--quiet",
			 NULL),
		th_iolab("sim", "--model", "cheetah9LP", "--pattern", "file-server", "--qd", "1,4,16",
			 "--time", "2", "--db", db, "--label", "cheetah9LP", "--quiet", NULL),
	};
	int rc = 0;
	for (int i = 0; i < 4; i++) {
		if (o[i].status) {
			fprintf(stderr, "sim %d failed: %s", i + 1, o[i].err);
			rc = -1;
		}
		th_out_free(&o[i]);
	}
	return rc;
}

static int teardown(void **state)
{
	return *chromium ? th_dir_teardown(state) : 0;
}

/* <build>/test-artifacts/NAME: next to the iolab binary's directory. */
static void artifact(char *buf, size_t n, const char *name)
{
	const char *bin = getenv("IOLAB_BIN");
	char dir[PATH_MAX];
	snprintf(dir, sizeof(dir), "%s", bin ? bin : "build/iolab");
	char *slash = strrchr(dir, '/');
	if (slash)
		*slash = 0;
	else
		snprintf(dir, sizeof(dir), ".");
	assert_true(snprintf(buf, n, "%s/test-artifacts", dir) < (int)n);
	mkdir(buf, 0755);
	size_t len = strlen(buf);
	assert_true(snprintf(buf + len, n - len, "/%s", name) < (int)(n - len));
}

/* Takes a screenshot of the page at path into <build>/test-artifacts/name and prints its path. */
static void shoot(const char *path, const char *name)
{
	char png[PATH_MAX], url[700], out[600], err[600];
	artifact(png, sizeof(png), name);
	unlink(png);
	char shot[PATH_MAX + 16];
	snprintf(shot, sizeof(shot), "--screenshot=%s", png);
	snprintf(url, sizeof(url), "file://%s", path);
	in_dir(out, sizeof(out), "shot.out");
	in_dir(err, sizeof(err), "shot.log");
	const char *args[] = {shot, "--window-size=1280,6000", "--hide-scrollbars",
			      "--virtual-time-budget=10000", NULL};
	assert_int_equal(run_chromium(args, url, out, err), 0);
	size_t len = 0;
	char *bytes = th_read_file(png, &len);
	assert_true(len > 1000);
	assert_memory_equal(bytes, "\x89PNG\r\n\x1a\n", 8);
	free(bytes);
	printf("screenshot: %s\n", png);
}

static void test_report_renders(void **state)
{
	(void)state;
	if (!*chromium)
		skip();
	char path[512];
	in_dir(path, sizeof(path), "report.html");
	struct th_out o = th_iolab("report", "1", "2", "3", "4", "-o", path, "--db", db, NULL);
	if (o.status)
		print_error("%s", o.err);
	assert_int_equal(o.status, 0);
	th_out_free(&o);
	int charts = 0;
	char *dom = render(path, &charts);
	/* sweeps of qd, bs and drives (IOPS, MB/s; latency too for drives), per run percentiles,
	 * CDFs, one per-second series (2 s), utilization: at least 10 */
	assert_true(charts >= 10);
	assert_non_null(strstr(dom, "aria-label=\"IOPS vs queue depth"));
	assert_non_null(strstr(dom, "aria-label=\"IOPS vs block size"));
	assert_non_null(strstr(dom, "aria-label=\"IOPS vs drives in the volume"));
	assert_non_null(strstr(dom, "aria-label=\"atlas10k: IOPS per second"));
	assert_non_null(strstr(dom, "aria-label=\"raid0: utilization of the simulated parts"));
	assert_non_null(strstr(dom, "<h3>Warnings ("));
	/* atlas10k and cheetah9LP share their points: compared */
	assert_non_null(strstr(dom, "<section id=\"comparisons\">"));
	free(dom);

	shoot(path, "report.png");
}

/* Thirty runs of the same sweep (two patterns at QD 1, 4 and 16, 1 s each) and one of four
 * patterns: every chart is split into panels of at most 6 series, each plot keeps its height and
 * its legend beside it, latency is in ms, and each run's 6 "only N I/Os" warnings are one line
 * that opens onto the list. */
static void test_report_30_runs(void **state)
{
	(void)state;
	if (!*chromium)
		skip();
	char db30[512], path[512];
	in_dir(db30, sizeof(db30), "thirty.db");
	in_dir(path, sizeof(path), "thirty.html");
	assert_int_equal(th_sh("for i in $(seq 1 30); do \"$B\" sim --model atlas10k --pattern "
			       "rand-read,seq-read --qd 1,4,16 --time 1 --label r$i --db '%s' --quiet "
			       ">/dev/null || exit 1; done && \"$B\" sim --model atlas10k --pattern "
			       "file-server,web-server,rand-read,seq-read --qd 1,4,16 --time 1 --label big "
			       "--db '%s' --quiet >/dev/null && \"$B\" report $(seq 1 31) -o '%s' --db '%s'",
			       db30, db30, path, db30), 0);
	int charts = 0;
	char *dom = render(path, &charts);
	assert_true(charts >= 60);
	assert_true(expect_readable_layout(dom, charts) > 0);
	/* the qd sweep of 64 lines: panels per pattern, 6 runs each; the 16 percentile lines of a
	 * run of four patterns (three of them read 100 %, one 80 %): per pattern */
	assert_non_null(strstr(dom, "aria-label=\"IOPS vs queue depth (31 runs): rand-read, part 1 of 6\""));
	assert_non_null(strstr(dom, "aria-label=\"IOPS vs queue depth (31 runs): file-server\""));
	assert_non_null(strstr(dom, "aria-label=\"big: latency percentiles vs queue depth: web-server\""));
	assert_non_null(strstr(dom, "aria-label=\"Comparison 1: IOPS as % of r1: seq-read, part 5 of 5\""));
	assert_non_null(strstr(dom, "<th>mean ms</th>"));
	assert_non_null(strstr(dom, "<summary>only N I/Os: p99 and above rest on fewer than 100 samples "
				    "(they need 10000 I/Os) (6 points: 108–974 I/Os)</summary>"));
	free(dom);
}

/* A run that sweeps settings of the simulated path (--set): each point's name on the page says
 * its value, as a series' name does. */
static void test_settings_name_points(void **state)
{
	(void)state;
	if (!*chromium)
		skip();
	char path[512];
	in_dir(path, sizeof(path), "settings.html");
	struct th_out o = th_iolab("sim", "--array", "raid0:2", "--drive", "atlas10k", "--cache", "16m",
				   "--set", "controller.read-ahead=none,always", "--pattern", "seq-read",
				   "--bs", "64k", "--time", "1", "--db", db, "--label", "settings",
				   "--quiet", NULL);
	assert_int_equal(o.status, 0);
	th_out_free(&o);
	o = th_iolab("report", "settings", "-o", path, "--db", db, NULL);
	assert_int_equal(o.status, 0);
	th_out_free(&o);
	int charts = 0;
	char *dom = render(path, &charts);
	assert_non_null(strstr(dom, "<td>seq-read bs 64k qd 1 controller.read-ahead none</td>"));
	assert_non_null(strstr(dom, "<td>seq-read bs 64k qd 1 controller.read-ahead always</td>"));
	free(dom);
}

/* Writes a page of run 1 with comparison (an object or an array of them) to path. */
static void page_with_comparison(const char *path, json_t *comparison)
{
	struct iolab_store *s;
	struct iolab_err err;
	assert_int_equal(iolab_store_open_read(&s, db, &err), 0);
	struct iolab_store_doc doc;
	assert_int_equal(iolab_store_load(s, "1", &doc, &err), 0);
	struct iolab_report_run run = {.id = doc.id, .label = doc.label, .doc = doc.doc};
	struct iolab_html_report r = {.runs = &run, .nruns = 1, .comparison = comparison};
	FILE *f = fopen(path, "w");
	assert_non_null(f);
	assert_int_equal(iolab_report_write(f, &r, &err), 0);
	assert_int_equal(fclose(f), 0);
	iolab_store_doc_free(&doc);
	iolab_store_close(s);
}

static void test_comparison_tables(void **state)
{
	(void)state;
	if (!*chromium)
		skip();
	char fixture[512], path[512];
	th_data_path(fixture, sizeof(fixture), "report/comparison.json");
	json_t *both = th_load_json(fixture);
	assert_non_null(both);
	/* and a gain as `iolab compare` writes it: cheetah9LP against atlas10k on their points */
	char gain[512];
	in_dir(gain, sizeof(gain), "gain.json");
	struct th_out o = th_iolab("compare", "atlas10k", "cheetah9LP", "--gain", "--json", gain, "--db",
				   db, NULL);
	assert_int_equal(o.status, 0);
	th_out_free(&o);
	json_t *all = json_copy(both);
	assert_int_equal(json_array_append_new(all, th_load_json(gain)), 0);
	in_dir(path, sizeof(path), "comparison.html");
	page_with_comparison(path, all);
	int charts = 0;
	char *dom = render(path, &charts);
	assert_true(charts > 0);
	/* the ref-mode object: its points with value and % per run, the unmatched point, the
	 * overall geometric means, the prices */
	assert_non_null(strstr(dom, "<h3>Comparison 1: ref"));
	assert_non_null(strstr(dom, "<td>rand-read bs 4k qd 16</td><td class=\"num\">150</td>"
				    "<td class=\"num\">100.0%</td>"));
	assert_non_null(strstr(dom, "<td class=\"num\">210</td><td class=\"num\">140.0%</td>"));
	assert_non_null(strstr(dom, "<li>new-array: rand-read bs 4k qd 64</li>"));
	assert_non_null(strstr(dom, "<th>overall (geometric mean of %)</th>"));
	assert_non_null(strstr(dom, "<td class=\"num\">127.9%</td>"));
	assert_non_null(strstr(dom, "$3.74"));
	/* the error-mode object: error % per point and the overall errors */
	assert_non_null(strstr(dom, "<h3>Comparison 2: error"));
	assert_non_null(strstr(dom, "<td class=\"num\">-5.0%</td>"));
	assert_non_null(strstr(dom, "<th>mean |error|</th>"));
	/* charted: % of the reference per queue depth, the error %, the gain */
	assert_non_null(strstr(dom, "aria-label=\"Comparison 1: IOPS as % of old-array\""));
	assert_non_null(strstr(dom, "aria-label=\"Comparison 2: IOPS error % (predicted against measured)\""));
	assert_non_null(strstr(dom, "aria-label=\"Comparison 3: IOPS gain of cheetah9LP over atlas10k "
				    "(percentage points of atlas10k)\""));
	assert_non_null(strstr(dom, "<th>mean latency ms</th>"));
	/* the matching key, and the prices of each point beside its values */
	assert_non_null(strstr(dom, "; points matched by pattern, bs, qd)</h3>"));
	assert_non_null(strstr(dom, "<td class=\"num\">100.0%</td><td class=\"num\">$2.67</td>"
				    "<td class=\"num\">$652</td>"));
	free(dom);
	json_decref(all);

	/* one object alone, not in an array */
	in_dir(path, sizeof(path), "comparison1.html");
	page_with_comparison(path, json_array_get(both, 0));
	dom = render(path, &charts);
	assert_non_null(strstr(dom, "<h3>Comparison 1: ref"));
	assert_null(strstr(dom, "<h3>Comparison 2"));
	free(dom);
	json_decref(both);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_report_renders),
		cmocka_unit_test(test_settings_name_points),
		cmocka_unit_test(test_comparison_tables),
		cmocka_unit_test(test_report_30_runs),
	};
	return cmocka_run_group_tests(tests, setup, teardown);
}
