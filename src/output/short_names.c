/* short_names.c: shortening a set of names from the middle (short_names.h). A name keeps its
 * start and its end (a trace's end is its number and extension: "fs-qd1.iot", "fs-qd16.iot"),
 * the cut shown as one "…". Where two different names shorten alike, the cut of each moves
 * towards the start (more of the end kept), then towards the end, until they differ; names that
 * differ only in a middle longer than the width allows stay alike. */
#include <stdbool.h>
#include <stdint.h>
#include <stdio.h>
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
