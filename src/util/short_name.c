/* short_name.c: names shortened from the middle, kept apart (include/iolab/short_name.h). The
 * head and the tail stay: a trace's file name differs most often in its start (the workload) and
 * its end (the extension, a number). */
#include <errno.h>
#include <stdbool.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "iolab/short_name.h"

static bool utf8_continuation(char c)
{
	return ((unsigned char)c & 0xc0) == 0x80;
}

void iolab_short_name(const char *s, size_t width, char *buf, size_t n)
{
	size_t len = strlen(s);
	if (width < 8)
		width = 8;
	if (len <= width) {
		snprintf(buf, n, "%s", s);
		return;
	}
	size_t head = (width - 2) / 2, tail = width - 2 - head;
	while (head > 0 && utf8_continuation(s[head]))
		head--;
	size_t from = len - tail;
	while (from < len && utf8_continuation(s[from]))
		from++;
	snprintf(buf, n, "%.*s..%s", (int)head, s, s + from);
}

int iolab_short_names_json(json_t *names, size_t width)
{
	size_t n = json_object_size(names);
	const char **full = calloc(n ? n : 1, sizeof(*full));
	size_t *w = calloc(n ? n : 1, sizeof(*w));
	char (*out)[512] = calloc(n ? n : 1, sizeof(*out));
	const char **keys = calloc(n ? n : 1, sizeof(*keys));
	if (!full || !w || !out || !keys) {
		free(full);
		free(w);
		free(out);
		free(keys);
		return -ENOMEM;
	}
	size_t i = 0;
	const char *k;
	json_t *v;
	json_object_foreach(names, k, v) {
		keys[i] = k;
		full[i] = json_is_string(v) ? json_string_value(v) : "";
		w[i++] = width;
	}
	/* widen the names that read alike until they do not, or are whole */
	for (bool again = true; again;) {
		again = false;
		for (i = 0; i < n; i++)
			iolab_short_name(full[i], w[i], out[i], sizeof(out[i]));
		for (i = 0; i < n; i++)
			for (size_t j = i + 1; j < n; j++)
				if (!strcmp(out[i], out[j]) && strcmp(full[i], full[j])) {
					size_t li = strlen(full[i]), lj = strlen(full[j]);
					if (w[i] < li || w[j] < lj) {
						w[i] += 4;
						w[j] += 4;
						again = true;
					}
				}
	}
	/* names alike in full: numbered (w[i] becomes the number, 0 for none) */
	for (i = 0; i < n; i++) {
		size_t nth = 0, alike = 0;
		for (size_t j = 0; j < n; j++)
			if (!strcmp(full[i], full[j])) {
				alike++;
				nth += j <= i;
			}
		w[i] = alike > 1 ? nth : 0;
	}
	int rc = 0;
	for (i = 0; i < n && !rc; i++) {
		char buf[sizeof(out[i]) + 24];
		if (w[i])
			snprintf(buf, sizeof(buf), "%s #%zu", out[i], w[i]);
		else
			snprintf(buf, sizeof(buf), "%s", out[i]);
		if (json_object_set_new(names, keys[i], json_string(buf)))
			rc = -ENOMEM;
	}
	free(full);
	free(w);
	free(out);
	free(keys);
	return rc;
}
