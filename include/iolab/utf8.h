/* utf8.h: checking that a text field read from a file is text: valid UTF-8, one line, no control
 * characters, not too long (JSON output and terminals need all of that); and the one escaping of
 * text from outside (paths, names, command lines) that is not, for a terminal or a JSON string. */
#ifndef IOLAB_UTF8_H
#define IOLAB_UTF8_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

/* Length (1..4) of the well-formed UTF-8 character at s, with its code point in *cp; 0 if s
 * is at its end or does not start with one (a stray continuation byte, a truncated sequence, an
 * overlong form, a surrogate U+D800..U+DFFF, or above U+10FFFF). */
size_t iolab_utf8_char(const char *s, uint32_t *cp);

/* True for the control characters U+0000..U+001F and U+007F..U+009F (tab and newline included). */
int iolab_is_control(uint32_t cp);

/* Checks that s is well-formed UTF-8 without control characters and at most max bytes long.
 * Returns 0, or -EINVAL with the reason in why (for "field 'x': <why>"): "is not valid UTF-8
 * (byte 4)", "holds a control character (byte 4)" or "is longer than 63 bytes". */
int iolab_text_check(const char *s, size_t max, char *why, size_t whysz);

/* Escaping: every byte that is not part of well-formed UTF-8 and every byte of a control
 * character is written as the four characters \xNN (lower-case hex), so that nothing from
 * outside reaches a terminal as an escape sequence or a JSON document as invalid UTF-8. Clean
 * text is left as it is, so escaping twice changes nothing; the bytes can be had back from every
 * \xNN, except in a text that held the characters "\xNN" itself (a backslash is not escaped). */

/* True if s needs no escaping. */
bool iolab_utf8_clean(const char *s);

/* Writes s escaped into out (outsz bytes, always NUL-terminated when outsz > 0; a cut never
 * splits a character or an escape). Returns the length the whole result needs, as snprintf. */
size_t iolab_utf8_escape(const char *s, char *out, size_t outsz);

/* s escaped into a new string (malloc'd; NULL when out of memory). */
char *iolab_utf8_escape_dup(const char *s);

#endif
