/* short_names.c: shortening a set of names from the middle (short_names.h). A name keeps its
 * start and its end (a trace's end is its number and extension: "fs-qd1.iot", "fs-qd16.iot"),
 * the cut shown as one "…". Where two different names shorten alike, the cut of each moves
 * towards the start (more of the end kept), then towards the end, until they differ; names that
 * differ only in a middle longer than the width allows stay alike (iolab_short_names_json then
 * cuts them all wider). */
#include <errno.h>
#include <stdbool.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "iolab/short_names.h"
#include "iolab/utf8.h"

static const char ellipsis[] = "\u2026";

/* Bytes of the character at s (1 for a byte that does not start a well-formed one). */
static size_t char_len(const char *s)
{
	uint32_t cp;
	size_t n = iolab_utf8_char(s, &cp);
	return n ? n : 1;
}

size_t iolab_name_width(const char *s)
{
	size_t w = 0;
	for (; *s; s += char_len(s))
		w++;
	return w;
}

/* Byte offset of character k of s (its end if s is shorter). */
static size_t offset_of(const char *s, size_t k)
{
	size_t at = 0;
	for (; k && s[at]; k--)
		at += char_len(s + at);
	return at;
}

/* name with head characters, "…", and its last tail characters, into out. */
static void cut(const char *name, size_t head, size_t tail, char *out, size_t size)
{
	size_t w = iolab_name_width(name);
	size_t h = offset_of(name, head), t = offset_of(name, w - tail);
	size_t len = h + strlen(ellipsis) + strlen(name + t);
	if (len + 1 > size)
		return;
	memcpy(out, name, h);
	memcpy(out + h, ellipsis, strlen(ellipsis));
	strcpy(out + h + strlen(ellipsis), name + t);
}

/* True if short name i equals that of a different name. */
static bool clashes(const char *const *names, unsigned n, const char *out, size_t size, unsigned i)
{
	for (unsigned j = 0; j < n; j++)
		if (j != i && strcmp(names[j], names[i]) && !strcmp(out + j * size, out + i * size))
			return true;
	return false;
}

/* Cuts again the long names that clash with another, keeping tail characters of their end;
 * returns whether any clashed. */
static bool cut_clashing(const char *const *names, unsigned n, size_t width, size_t tail,
			 char *out, size_t size)
{
	bool any = false;
	for (unsigned i = 0; i < n; i++) {
		if (iolab_name_width(names[i]) <= width || !clashes(names, n, out, size, i))
			continue;
		cut(names[i], width - 1 - tail, tail, out + i * size, size);
		any = true;
	}
	return any;
}

void iolab_short_names(const char *const *names, unsigned n, size_t width, char *out, size_t size)
{
	if (width < 5)
		width = 5;
	if (size < 4 * width + 1)
		return;
	size_t first = (width - 1) / 2; /* the end's share: the longer half goes to the start */
	for (unsigned i = 0; i < n; i++) {
		char *o = out + i * size;
		if (iolab_name_width(names[i]) <= width)
			snprintf(o, size, "%s", names[i]);
		else
			cut(names[i], width - 1 - first, first, o, size);
	}
	/* clashes: more of the end (where numbers and extensions are), then more of the start */
	for (size_t tail = first + 1; tail <= width - 2; tail++)
		if (!cut_clashing(names, n, width, tail, out, size))
			return;
	for (size_t tail = first; tail-- > 1;)
		if (!cut_clashing(names, n, width, tail, out, size))
			return;
}

/* ---- a set of names in a JSON object (compare's rows): cut wider until different names read
 * apart, names alike in full numbered ---- */

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
