/* compare_keys.h: the keys compare.c matches points by (docs/compare.md, "Matching points"):
 * a point's workload identity, its full key, the fields a comparison keys on (--by, or the
 * default), and each run's keys restricted to them. Internal to src/report. */
#ifndef IOLAB_COMPARE_KEYS_H
#define IOLAB_COMPARE_KEYS_H

#include <jansson.h>
#include <stdbool.h>
#include <stddef.h>

/* JSON values equal for matching: numbers by value (4 and 4.0 alike), objects field by field,
 * a missing value (NULL) as null. */
bool compare_value_eq(const json_t *a, const json_t *b);

/* Point p's full key: every field a key can have ("pattern", "trace", the workload and load
 * fields, "replay" (the mode), the system fields, "set:NAME" for each swept setting), null
 * where the point has none. trace_names (an object) gets the point's trace identity -> its file
 * name. NULL: out of memory. */
json_t *compare_full_key(const json_t *p, json_t *trace_names);

/* The fields the runs are keyed on, as an array: by's, else the workload fields and every field
 * that differs among the points of one run (fk[r][i]: run r's full keys, np[r] of them). */
json_t *compare_key_fields(json_t **const *fk, const size_t *np, size_t n, const json_t *by);

/* One run's keys: each point's full key restricted to the fields, plus those fields outside
 * them that differ among the run's points alike on them (left open in the runs where they do
 * not). keys[i] are new objects. Returns 0 or -ENOMEM. */
int compare_run_keys(json_t *const *fk, size_t np, const json_t *fields, json_t **keys);

#endif
