/* short_name.h: names shortened from the middle for tables (a trace's file name in compare's
 * rows), kept apart from each other. */
#ifndef IOLAB_SHORT_NAME_H
#define IOLAB_SHORT_NAME_H

#include <jansson.h>
#include <stddef.h>

/* The width names are shortened to by default, in bytes. */
#define IOLAB_SHORT_NAME_WIDTH 24

/* s in at most width bytes (width >= 8): its head, "..", its tail, cut between UTF-8
 * characters; s itself when it fits. buf gets it (n bytes). */
void iolab_short_name(const char *s, size_t width, char *buf, size_t n);

/* Replaces each string value of the object names by its short name, widened where two would
 * read alike; two names alike in full become "NAME #1", "NAME #2" in the object's order.
 * Returns 0 or -ENOMEM. */
int iolab_short_names_json(json_t *names, size_t width);

#endif
