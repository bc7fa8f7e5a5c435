/* output.h: how results leave iolab: a table for people, JSON (schema in docs/json-schema.md)
 * and CSV for programs. All three read the same struct iolab_results. */
#ifndef IOLAB_OUTPUT_H
#define IOLAB_OUTPUT_H

#include <stdio.h>

#include "iolab/run.h"

/* The runs behind a set of results, for the JSON "config". */
struct iolab_report {
	const char *command;                 /* "run" */
	const char *job;                     /* job file path, or NULL */
	unsigned nconfig;
	const struct iolab_config *const *config;
	double price_usd;                    /* --price: what the measured or modelled hardware
						costs, or 0 */
};

/* One row per point, then the warnings of each point; with explain, what each part of a
 * simulated path did (--explain). */
void iolab_output_table(FILE *f, const struct iolab_results *r, bool explain);
/* Writes the JSON document to f (opened with iolab_out_open, include/iolab/outfile.h). Returns 0
 * or -errno with err set. */
int iolab_output_json(FILE *f, const struct iolab_report *rep, const struct iolab_results *r,
		      struct iolab_err *err);
/* A JSON string of text from outside iolab (a path, a name, a command line, a device's model):
 * as it is when it is UTF-8 without control characters, else escaped as \xNN (utf8.h), so that
 * it is never lost (jansson refuses a string that is not UTF-8); JSON null for NULL. Every such
 * string of every JSON document iolab writes goes through here. */
struct json_t;
struct json_t *iolab_json_text(const char *s);
/* Writes a CSV text field (RFC 4180): quoted when it holds a comma, a quote or a line break, its
 * quotes doubled. */
void iolab_csv_text(FILE *f, const char *s);
/* Writes one CSV row per point (with a header) to f. */
int iolab_output_csv(FILE *f, const struct iolab_results *r, struct iolab_err *err);

/* The latency percentiles every output reports, in order, and their JSON keys. */
#define IOLAB_NPCT 11
extern const double iolab_pct_value[IOLAB_NPCT];
extern const char *const iolab_pct_key[IOLAB_NPCT];

#endif
