/* compare_prices.h: prices of the runs of a comparison (include/iolab/compare.h), on what each
 * run used and measured (docs/compare.md, "Prices"):
 *   runs[].used_bytes     the bytes of the region the run addressed (its --offset, --length or
 *                         --stroke applied to each target's capacity), null where unknown
 *   runs[].usd_per_gb     price / (used_bytes / 10^9)
 *   runs[].usd_per_iops, usd_per_mb_s, price_at
 *                         price / the figures of the point --price-at names; null without one
 *   points[].values[].usd_per_iops, usd_per_mb_s
 *                         price / that point's iops and mb_per_s
 *   price_at              {spec, point (index into points), name} or null
 * Works on the result object alone (and the runs' documents for their regions), so that it does
 * not depend on how points were matched. */
#ifndef IOLAB_COMPARE_PRICES_H
#define IOLAB_COMPARE_PRICES_H

#include <jansson.h>
#include <stddef.h>

#include "iolab/compare.h"
#include "iolab/error.h"

/* Adds the prices above (price_at null) to res, a result of iolab_compare over runs[0..n).
 * Returns 0 or -ENOMEM with err set. */
int iolab_compare_prices(json_t *res, const struct iolab_compare_run *runs, size_t n,
			 struct iolab_err *err);

/* The point spec names: "PATTERN,qdN" or "PATTERN,bsSIZE,qdN" (any order after the pattern):
 * sets res's price_at and each run's usd_per_iops and usd_per_mb_s at that point. Returns 0, or
 * -EINVAL with err set when spec is malformed or names no point, or several (then it says
 * which). */
int iolab_compare_price_at(json_t *res, const char *spec, struct iolab_err *err);

#endif
