/* utf8.c: UTF-8 decoding of one character, the check that a text field is clean text, and the
 * \xNN escaping of text that is not (utf8.h). Well-formed UTF-8 as Unicode defines it (table 3-7
 * of the Unicode Standard). */
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "iolab/utf8.h"

size_t iolab_utf8_char(const char *s, uint32_t *cp)
{
	const unsigned char *u = (const unsigned char *)s;
	size_t n;
	uint32_t c, min;
	if (u[0] == 0)
		return 0;
	if (u[0] < 0x80) {
		*cp = u[0];
		return 1;
	}
	if (u[0] >= 0xc2 && u[0] <= 0xdf)
		n = 2, c = u[0] & 0x1f, min = 0x80;
	else if (u[0] >= 0xe0 && u[0] <= 0xef)
		n = 3, c = u[0] & 0x0f, min = 0x800;
	else if (u[0] >= 0xf0 && u[0] <= 0xf4)
		n = 4, c = u[0] & 0x07, min = 0x10000;
	else
		return 0; /* continuation byte, 0xc0/0xc1 (always overlong) or 0xf5..0xff */
	for (size_t i = 1; i < n; i++) {
		if ((u[i] & 0xc0) != 0x80) /* also stops at the terminating NUL */
			return 0;
		c = c << 6 | (u[i] & 0x3f);
	}
	if (c < min || c > 0x10ffff || (c >= 0xd800 && c <= 0xdfff))
		return 0;
	*cp = c;
	return n;
}

int iolab_is_control(uint32_t cp)
{
	return cp < 0x20 || (cp >= 0x7f && cp <= 0x9f);
}

int iolab_text_check(const char *s, size_t max, char *why, size_t whysz)
{
	size_t len = strlen(s);
	for (size_t at = 0; at < len;) {
		uint32_t cp;
		size_t n = iolab_utf8_char(s + at, &cp);
		if (!n) {
			snprintf(why, whysz, "is not valid UTF-8 (byte %zu)", at + 1);
			return -EINVAL;
		}
		if (iolab_is_control(cp)) {
			snprintf(why, whysz, "holds a control character (byte %zu)", at + 1);
			return -EINVAL;
		}
		at += n;
	}
	if (len > max) {
		snprintf(why, whysz, "is longer than %zu bytes (%zu)", max, len);
		return -EINVAL;
	}
	return 0;
}

/* The length of the character at s as it stands in the escaped text: n > 0 bytes copied as they
 * are (*raw set), or one byte escaped (4 characters, *raw clear). */
static size_t escaped_char(const char *s, size_t *n, bool *raw)
{
	uint32_t cp;
	*n = iolab_utf8_char(s, &cp);
	*raw = *n && !iolab_is_control(cp);
	if (!*raw)
		*n = 1;
	return *raw ? *n : 4;
}

bool iolab_utf8_clean(const char *s)
{
	for (size_t n; *s; s += n) {
		bool raw;
		escaped_char(s, &n, &raw);
		if (!raw)
			return false;
	}
	return true;
}

size_t iolab_utf8_escape(const char *s, char *out, size_t outsz)
{
	size_t len = 0;
	for (size_t n; *s; s += n) {
		bool raw;
		size_t w = escaped_char(s, &n, &raw);
		if (len + w < outsz) {
			if (raw)
				memcpy(out + len, s, n);
			else
				snprintf(out + len, 5, "\\x%02x", (unsigned char)*s);
		} else if (len < outsz) {
			out[len] = 0;
			outsz = len; /* full: nothing more is written, the length still counts */
		}
		len += w;
	}
	if (len < outsz)
		out[len] = 0;
	return len;
}

char *iolab_utf8_escape_dup(const char *s)
{
	size_t n = iolab_utf8_escape(s, NULL, 0) + 1;
	char *out = malloc(n);
	if (out)
		iolab_utf8_escape(s, out, n);
	return out;
}
