/* compare_price_table.c: the price table under `iolab compare`'s points (docs/compare.md,
 * "Prices"): per run its price, the drive's capacity, the bytes the run used and $/GB on them,
 * and with --price-at the $/IOPS and $/(MB/s) at that point; per-point prices are in the JSON. */
#include <jansson.h>
#include <stdio.h>
#include <string.h>

#include "cli.h"

#define PT_COLS 7
#define PT_CELL 96

static void cell_num(char *buf, const json_t *v, double scale, const char *fmt)
{
	if (!json_is_number(v)) {
		snprintf(buf, PT_CELL, "-");
		return;
	}
	double x = json_number_value(v) / scale;
	snprintf(buf, PT_CELL, fmt ? fmt : x < 0.1 ? "%.4f" : "%.2f", x);
}

void cli_compare_price_table(FILE *f, const json_t *res)
{
	const json_t *runs = json_object_get(res, "runs"), *run;
	size_t n = json_array_size(runs), i;
	bool any = false;
	json_array_foreach(runs, i, run)
		any |= json_is_number(json_object_get(run, "price_usd"));
	if (!any || n > 64)
		return;
	const json_t *at = json_object_get(res, "price_at");
	size_t cols = json_is_object(at) ? PT_COLS : PT_COLS - 2;
	char cell[65][PT_COLS][PT_CELL];
	static const char *const heads[PT_COLS] = {"price", "USD", "capacity GB", "used GB", "$/GB on used",
						   "$/IOPS", "$/(MB/s)"};
	for (size_t c = 0; c < PT_COLS; c++)
		snprintf(cell[0][c], PT_CELL, "%s", heads[c]);
	json_array_foreach(runs, i, run) {
		char (*row)[PT_CELL] = cell[i + 1];
		snprintf(row[0], PT_CELL, "run %lld (%s)", (long long)json_integer_value(json_object_get(run, "id")),
			 json_string_value(json_object_get(run, "name")));
		cell_num(row[1], json_object_get(run, "price_usd"), 1, "%.2f");
		cell_num(row[2], json_object_get(run, "capacity_bytes"), 1e9, "%.1f");
		cell_num(row[3], json_object_get(run, "used_bytes"), 1e9, "%.1f");
		cell_num(row[4], json_object_get(run, "usd_per_gb"), 1, NULL);
		cell_num(row[5], json_object_get(run, "usd_per_iops"), 1, NULL);
		cell_num(row[6], json_object_get(run, "usd_per_mb_s"), 1, NULL);
	}
	size_t w[PT_COLS] = {0};
	for (size_t r = 0; r <= n; r++)
		for (size_t c = 0; c < cols; c++)
			if (strlen(cell[r][c]) > w[c])
				w[c] = strlen(cell[r][c]);
	fputc('\n', f);
	for (size_t r = 0; r <= n; r++) {
		fprintf(f, " ");
		for (size_t c = 0; c < cols; c++)
			fprintf(f, c ? "  %*s" : " %-*s", (int)w[c], cell[r][c]);
		fputc('\n', f);
	}
	if (json_is_object(at))
		fprintf(f, "$/IOPS and $/(MB/s) at %s (--price-at %s)\n",
			json_string_value(json_object_get(at, "name")),
			json_string_value(json_object_get(at, "spec")));
	else
		fprintf(f, "$/IOPS and $/(MB/s): per point in --json (points[].values[]); at one point "
			"with --price-at PATTERN,qdN\n");
}
