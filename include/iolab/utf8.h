/* utf8.h: checking that a text field read from a file is text: valid UTF-8, one line, no control
 * characters, not too long (JSON output and terminals need all of that). */
#ifndef IOLAB_UTF8_H
#define IOLAB_UTF8_H

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

#endif
