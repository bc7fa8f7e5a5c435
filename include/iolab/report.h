/* report.h: the HTML report of stored runs (`iolab report`, docs/report.md): one self-contained
 * page, Chart.js and the page's own script inlined, the runs' JSON documents (docs/json-schema.md)
 * embedded in <script type="application/json" id="iolab-data">, from which the script draws the
 * charts when the page is opened. Nothing is fetched: the page works offline. */
#ifndef IOLAB_REPORT_H
#define IOLAB_REPORT_H

#include <jansson.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>

#include "iolab/error.h"

/* One run of the report: its store id, label (NULL: none), JSON document, and what the store
 * knows beside the document (NULL where unknown): when it was saved (UTC) and its command line. */
struct iolab_report_run {
	int64_t id;
	const char *label;
	const json_t *doc;
	const char *time, *command_line;
};

struct iolab_html_report {
	const char *title;                   /* NULL: "iolab report" */
	const struct iolab_report_run *runs;
	size_t nruns;
	const json_t *comparison;            /* NULL, or what iolab_compare returns (compare.h): an
					      * object, or an array of them; shown as tables */
};

/* The data the page embeds: {"iolab_report": 1, "iolab": version, "title", "generated" (UTC),
 * "runs": [{id, label, time, command_line, doc}], "comparison" (only when given)}. *out is new;
 * the documents are shared, not copied. Returns 0 or -errno with err set. */
int iolab_report_data(const struct iolab_html_report *r, json_t **out, struct iolab_err *err);

/* Writes the whole page to f. Returns 0, or -EIO (-ENOMEM) with err set. */
int iolab_report_write(FILE *f, const struct iolab_html_report *r, struct iolab_err *err);

#endif
