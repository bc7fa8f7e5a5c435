/* short_names.h: names cut to a column's width from the middle ("very-long…name.iot"), each
 * distinct name still told apart from the others (short_names.c). The table's pattern column
 * and compare's rows use it; anything that prints a set of names in a narrow column may. */
#ifndef IOLAB_SHORT_NAMES_H
#define IOLAB_SHORT_NAMES_H

#include <jansson.h>
#include <stddef.h>

/* Characters (UTF-8 code points; a byte that is not one counts as one) in s. */
size_t iolab_name_width(const char *s);

/* Into out + i * size (size bytes each, at least 4 * width + 1): names[i] if it is at most width
 * characters (width >= 5), else its first and last characters around "…", the cut placed so
 * that two different names do not come out the same where the width allows it. Equal names
 * give equal short names. */
void iolab_short_names(const char *const *names, unsigned n, size_t width, char *out, size_t size);

/* The width compare's rows shorten names to by default, in characters. */
#define IOLAB_SHORT_NAME_WIDTH 24

/* Replaces each string value of the object names by its short name (iolab_short_names), cut
 * wider where two different names would still read alike; two names alike in full become
 * "NAME #1", "NAME #2" in the object's order (compare's rows). Returns 0 or -ENOMEM. */
int iolab_short_names_json(json_t *names, size_t width);

#endif
