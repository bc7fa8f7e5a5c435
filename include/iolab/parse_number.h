/* parse_number.h: the one reader of real numbers in data files (drive models, DiskSim
 * specifications, validation traces), so that they all take the same text. */
#ifndef IOLAB_PARSE_NUMBER_H
#define IOLAB_PARSE_NUMBER_H

/* Reads s as a decimal real number: an optional sign, digits with an optional fraction ("12",
 * "0.5", ".5", "5."), an optional exponent ("1e3", "2.5E-2"), and nothing else. Refuses empty
 * text, white space, hexadecimal ("0x10", "0x1p3"), "inf", "nan", digits other than 0-9, and
 * numbers beyond double's range or too small to keep (1e999, 1e-400). Returns 0 (*out set),
 * -EINVAL (not such a number) or -ERANGE (a number, but beyond range). Independent of the locale's
 * decimal point. */
int iolab_parse_decimal(const char *s, double *out);

#endif
