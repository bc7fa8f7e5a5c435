/* parse_number.c: iolab_parse_decimal, the strict decimal reader shared by the data-file
 * parsers (model_file.c, import_disksim.c, validate.c). The text is checked against the grammar
 * first; strtod only converts what passed. */
#include <errno.h>
#include <math.h>
#include <stdbool.h>
#include <stdlib.h>
#include <string.h>

#include "iolab/parse_number.h"

static bool digit(char c)
{
	return c >= '0' && c <= '9';
}

/* Skips digits; returns how many. */
static size_t digits(const char **p)
{
	size_t n = 0;
	while (digit(**p)) {
		(*p)++;
		n++;
	}
	return n;
}

int iolab_parse_decimal(const char *s, double *out)
{
	const char *p = s;
	if (*p == '+' || *p == '-')
		p++;
	size_t whole = digits(&p), frac = 0;
	if (*p == '.') {
		p++;
		frac = digits(&p);
	}
	if (!whole && !frac)
		return -EINVAL;
	if (*p == 'e' || *p == 'E') {
		p++;
		if (*p == '+' || *p == '-')
			p++;
		if (!digits(&p))
			return -EINVAL;
	}
	if (*p)
		return -EINVAL;
	/* strtod reads the decimal point of the C locale, which iolab never changes; a string
	 * that passed the grammar is read whole. */
	char *end;
	errno = 0;
	double x = strtod(s, &end);
	if (end != p)
		return -EINVAL;
	if (errno == ERANGE || !isfinite(x))
		return -ERANGE;
	*out = x;
	return 0;
}
