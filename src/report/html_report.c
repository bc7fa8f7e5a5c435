/* html_report.c: writes the page of `iolab report` (include/iolab/report.h, docs/report.md): the
 * style, the runs' data as JSON in <script type="application/json" id="iolab-data">, the page's
 * script (src/report/report.js) and Chart.js with its licence comment, all inlined so that the
 * file opens offline. The page's content is built by report.js when it loads; this file only
 * assembles and escapes. The embedded assets are byte arrays generated at build time
 * (cmake/embed_file.cmake). */
#include <errno.h>
#include <stdbool.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#include "iolab/output.h"
#include "iolab/report.h"

extern const unsigned char iolab_report_chartjs[], iolab_report_report_js[], iolab_report_report_css[];
extern const size_t iolab_report_chartjs_len, iolab_report_report_js_len, iolab_report_report_css_len;

static json_t *run_data(const struct iolab_report_run *run)
{
	json_t *o = json_object();
	if (!o)
		return NULL;
	if (json_object_set_new(o, "id", json_integer(run->id)) ||
	    json_object_set_new(o, "label", iolab_json_text(run->label)) ||
	    json_object_set_new(o, "time", iolab_json_text(run->time)) ||
	    json_object_set_new(o, "command_line", iolab_json_text(run->command_line)) ||
	    json_object_set(o, "doc", (json_t *)run->doc)) {
		json_decref(o);
		return NULL;
	}
	return o;
}

static void utc_now(char *buf, size_t n)
{
	time_t now = time(NULL);
	struct tm tm;
	if (!gmtime_r(&now, &tm) || !strftime(buf, n, "%Y-%m-%dT%H:%M:%SZ", &tm))
		snprintf(buf, n, "unknown");
}

int iolab_report_data(const struct iolab_html_report *r, json_t **out, struct iolab_err *err)
{
	char now[32];
	utc_now(now, sizeof(now));
	json_t *d = json_object(), *runs = json_array();
	bool ok = d && runs && !json_object_set_new(d, "iolab_report", json_integer(1)) &&
		  !json_object_set_new(d, "iolab", json_string(IOLAB_VERSION)) &&
		  !json_object_set_new(d, "title", iolab_json_text(r->title ? r->title : "iolab report")) &&
		  !json_object_set_new(d, "generated", json_string(now)) &&
		  !json_object_set(d, "runs", runs);
	for (size_t i = 0; ok && i < r->nruns; i++) {
		if (!r->runs[i].doc || !json_is_object(r->runs[i].doc)) {
			json_decref(runs);
			json_decref(d);
			return iolab_errf(err, EINVAL, "run %lld: its JSON document is not an object",
					  (long long)r->runs[i].id);
		}
		ok = !json_array_append_new(runs, run_data(&r->runs[i]));
	}
	if (ok && r->comparison)
		ok = !json_object_set(d, "comparison", (json_t *)r->comparison);
	json_decref(runs);
	if (!ok) {
		json_decref(d);
		return iolab_errf(err, ENOMEM, "out of memory building the report's data");
	}
	*out = d;
	return 0;
}

/* Writes text[0..n) HTML-escaped (element content and attribute values). */
static void put_escaped(FILE *f, const char *text)
{
	for (const char *p = text; *p; p++) {
		switch (*p) {
		case '<': fputs("&lt;", f); break;
		case '>': fputs("&gt;", f); break;
		case '&': fputs("&amp;", f); break;
		case '"': fputs("&quot;", f); break;
		default: fputc(*p, f);
		}
	}
}

/* Writes JSON text so that it cannot end or confuse the <script> element holding it: "</" becomes
 * "<\/" and "<!--" becomes "\u003c!--" (both only occur inside JSON strings, where these escapes
 * mean the same characters). */
static void put_json_in_script(FILE *f, const char *json)
{
	for (const char *p = json; *p; p++) {
		if (p[0] == '<' && p[1] == '/')
			fputs("<\\", f);
		else if (!strncmp(p, "<!--", 4))
			fputs("\\u003c", f);
		else
			fputc(*p, f);
	}
}

static void put_asset(FILE *f, const unsigned char *bytes, size_t n)
{
	fwrite(bytes, 1, n, f);
}

int iolab_report_write(FILE *f, const struct iolab_html_report *r, struct iolab_err *err)
{
	json_t *data;
	int rc = iolab_report_data(r, &data, err);
	if (rc)
		return rc;
	char *json = json_dumps(data, JSON_COMPACT | JSON_REAL_PRECISION(10));
	json_decref(data);
	if (!json)
		return iolab_errf(err, ENOMEM, "out of memory writing the report's data");
	const char *title = r->title ? r->title : "iolab report";
	fputs("<!DOCTYPE html>\n<html lang=\"en\">\n<head>\n<meta charset=\"utf-8\">\n"
	      "<meta name=\"generator\" content=\"iolab " IOLAB_VERSION "\">\n<title>", f);
	put_escaped(f, title);
	fputs("</title>\n<style>\n", f);
	put_asset(f, iolab_report_report_css, iolab_report_report_css_len);
	fputs("</style>\n</head>\n<body>\n"
	      "<noscript><p class=\"error-box\">This report draws its tables and charts with "
	      "JavaScript: enable it to see them.</p></noscript>\n"
	      "<div id=\"errors\" class=\"error-box\" hidden></div>\n<main id=\"report\"></main>\n"
	      "<script type=\"application/json\" id=\"iolab-data\">", f);
	put_json_in_script(f, json);
	free(json);
	fputs("</script>\n<script>\n", f);
	put_asset(f, iolab_report_report_js, iolab_report_report_js_len);
	/* Chart.js 3 (Debian's libjs-chart.js) as shipped, its MIT licence notice in its header
	 * comment */
	fputs("</script>\n<script>\n", f);
	put_asset(f, iolab_report_chartjs, iolab_report_chartjs_len);
	fputs("\n</script>\n</body>\n</html>\n", f);
	if (ferror(f))
		return iolab_errf(err, EIO, "error writing the report: %s", strerror(errno ? errno : EIO));
	return 0;
}
