/* short_name.h: a set of names shortened for a table's rows (a trace's file name in compare's
 * rows) and kept apart from each other, over short_names.h's cut from the middle. */
#ifndef IOLAB_SHORT_NAME_H
#define IOLAB_SHORT_NAME_H

#include <jansson.h>
#include <stddef.h>

/* The width names are shortened to by default, in characters. */
#define IOLAB_SHORT_NAME_WIDTH 24

/* Replaces each string value of the object names by its short name (iolab_short_names), widened
 * where two different names would read alike; two names alike in full become "NAME #1",
 * "NAME #2" in the object's order. Returns 0 or -ENOMEM. */
int iolab_short_names_json(json_t *names, size_t width);

#endif
