/* short_name.c: a set of names shortened and kept apart (include/iolab/short_name.h): the cut
 * is short_names.c's (head and tail around "…"); where two different names still read alike,
 * all are cut wider, and names alike in full are numbered. */
#include <errno.h>
#include <stdbool.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "iolab/short_name.h"
#include "iolab/short_names.h"

#define NAME_BYTES 512 /* per short name: iolab_short_names needs 4 * width + 1 */
#define WIDTH_MAX ((NAME_BYTES - 1) / 4)

/* Two different names of full[0..n) that read alike in out. */
static bool clash(const char *const *full, size_t n, const char *out)
{
	for (size_t i = 0; i < n; i++)
		for (size_t j = i + 1; j < n; j++)
			if (!strcmp(out + i * NAME_BYTES, out + j * NAME_BYTES) && strcmp(full[i], full[j]))
				return true;
	return false;
}

int iolab_short_names_json(json_t *names, size_t width)
{
	size_t n = json_object_size(names);
	const char **full = calloc(n ? n : 1, sizeof(*full));
	const char **keys = calloc(n ? n : 1, sizeof(*keys));
	char *out = calloc(n ? n : 1, NAME_BYTES);
	size_t *nth = calloc(n ? n : 1, sizeof(*nth));
	int rc = full && keys && out && nth ? 0 : -ENOMEM;
	size_t i = 0;
	const char *k;
	json_t *v;
	json_object_foreach(names, k, v) {
		if (rc)
			break;
		keys[i] = k;
		full[i++] = json_is_string(v) ? json_string_value(v) : "";
	}
	for (size_t w = width < 5 ? 5 : width; !rc; w += 4) {
		iolab_short_names(full, (unsigned)n, w > WIDTH_MAX ? WIDTH_MAX : w, out, NAME_BYTES);
		if (w >= WIDTH_MAX || !clash(full, n, out))
			break;
	}
	for (i = 0; !rc && i < n; i++) { /* names alike in full: their number among them, else 0 */
		size_t before = 0, alike = 0;
		for (size_t j = 0; j < n; j++)
			if (!strcmp(full[i], full[j])) {
				alike++;
				before += j <= i;
			}
		nth[i] = alike > 1 ? before : 0;
	}
	for (i = 0; !rc && i < n; i++) {
		char buf[NAME_BYTES + 24];
		if (nth[i])
			snprintf(buf, sizeof(buf), "%s #%zu", out + i * NAME_BYTES, nth[i]);
		else
			snprintf(buf, sizeof(buf), "%s", out + i * NAME_BYTES);
		if (json_object_set_new(names, keys[i], json_string(buf)))
			rc = -ENOMEM;
	}
	free(full);
	free(keys);
	free(out);
	free(nth);
	return rc;
}
