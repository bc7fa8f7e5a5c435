/* compare.h: comparing stored runs point by point (docs/compare.md). Runs are the JSON documents
 * the results store keeps (docs/json-schema.md). Points of different runs are matched by their
 * workload parameters; a point without a partner in every run is listed, never dropped. The
 * result is one JSON object (below), which `iolab compare` prints as a table, JSON or CSV and
 * `iolab report` shows as tables.
 *
 * The result object:
 *   mode       "ref" (each value as % of the reference run), "gain" (the second run's % minus the
 *              first's, in percentage points) or "error" (predicted against measured)
 *   metrics    ["iops", "mb_per_s", "lat_mean_us"]: the metrics compared, in this order
 *   reference  index into runs of the reference (ref and gain) or of the measured run (error)
 *   runs       [{id, label, kind, target, name, price_usd, capacity_bytes, used_bytes,
 *                usd_per_gb, usd_per_iops, usd_per_mb_s, price_at}]   prices null where
 *              unknown: include/iolab/compare_prices.h (and points[].values[].usd_per_iops,
 *              usd_per_mb_s)
 *   points     [{key: {pattern, bs, qd, read_pct, workers, clients, think_s, target_iops, ...},
 *                name: "file-server bs 4k qd 16",
 *                values: [per run: {iops, mb_per_s, lat_mean_us, pct: {iops, mb_per_s,
 *                         lat_mean_us}, write_amplification (a point of simulated SSDs
 *                         only: shown, not compared)} or null],
 *                gain: {iops, mb_per_s, lat_mean_us} (gain mode),
 *                error_pct: {iops, mb_per_s, lat_mean_us} (error mode: 100 * (pred - meas) / meas)}]
 *   unmatched  [{run: index into runs, name, key}]: points some run lacks
 *   overall    per metric: ref and gain modes, the geometric mean of each run's pct over matched
 *              points ({iops: [per run]}); error mode, {iops: {mean_abs_pct, max_abs_pct,
 *              rms_pct}, ...}
 */
#ifndef IOLAB_COMPARE_H
#define IOLAB_COMPARE_H

#include <jansson.h>
#include <stddef.h>
#include <stdint.h>

#include "iolab/error.h"

enum iolab_compare_mode { IOLAB_COMPARE_REF, IOLAB_COMPARE_GAIN, IOLAB_COMPARE_ERROR };

/* One run to compare: its store id, its label (NULL: none) and its JSON document. */
struct iolab_compare_run {
	int64_t id;
	const char *label;
	const json_t *doc;
};

/* Compares runs[0..n). reference indexes the reference run (ref, gain) or the measured one
 * (error; n is then 2). *out is a new object as above. Returns 0 or -errno with err set. */
int iolab_compare(const struct iolab_compare_run *runs, size_t n, size_t reference,
		  enum iolab_compare_mode mode, json_t **out, struct iolab_err *err);

#endif
