/* parse.h: strict parsers for the values a person types: sizes, percentages, counts, durations,
 * and comma lists of them. Each returns 0 or -EINVAL with a message naming the field and value.
 */
#ifndef IOLAB_PARSE_H
#define IOLAB_PARSE_H

#include <stdbool.h>
#include <stdint.h>
#include "iolab/error.h"

#define IOLAB_LIST_MAX 32

/* "4096", "4k", "4K", "4KiB", "1m", "2G", "1t", "36.7G": k, m, g, t, p and KiB, MiB, GiB, TiB,
 * PiB are multiples of 1024; kB, MB, GB, TB, PB multiples of 1000; "b" or "B" alone is bytes.
 * A fraction needs a suffix and is rounded to the nearest byte. Fails on empty, negative,
 * unknown suffix or overflow. */
int iolab_parse_size(const char *field, const char *s, uint64_t *out, struct iolab_err *err);
/* Integer 0..100, optional trailing '%'. */
int iolab_parse_pct(const char *field, const char *s, unsigned *out, struct iolab_err *err);
/* Unsigned integer in [min, max]. */
int iolab_parse_uint(const char *field, const char *s, uint64_t min, uint64_t max, uint64_t *out,
		     struct iolab_err *err);
/* Non-negative duration: "30" (seconds), "1.5s", "500ms", "2m", "1h" -> nanoseconds. */
int iolab_parse_duration(const char *field, const char *s, uint64_t *ns, struct iolab_err *err);
/* Real number in [min, max], written in decimal as iolab_parse_decimal reads it (parse_number.h). */
int iolab_parse_double(const char *field, const char *s, double min, double max, double *out,
		       struct iolab_err *err);
/* "true/false/yes/no/on/off/1/0". */
int iolab_parse_bool(const char *field, const char *s, bool *out, struct iolab_err *err);

/* Splits a comma list "a, b,c" into at most max trimmed items copied into buf; returns the item
 * count or -EINVAL (empty item, too many items). items[i] point into buf. */
int iolab_split_list(const char *field, const char *s, char *buf, size_t bufsz, char **items,
		     unsigned max, struct iolab_err *err);

/* Formats a byte count for people, in iolab's own 1024-based suffixes (k, m, g, t, p), as text
 * that iolab_parse_size reads back to the same count: whole where four digits say it (4096 ->
 * "4k", 1536 -> "1536", 1048576 -> "1m", 1025 KiB -> "1025k"), else in the largest unit it
 * reaches with the fewest decimals, three at most, that keep it exact (10000 -> "9.766k"); a size
 * that needs more is rounded to three significant digits and marked so (1234567 -> "~1.18m"), and
 * reads back to within 0.5 %. Every message that states a size uses it. */
const char *iolab_fmt_size(uint64_t bytes, char *buf, size_t bufsz);

#endif
