/* cli_cmdline.c: the command line as the person typed it, for the results store (`db list`,
 * the report's header): main's arguments in their order (saved before getopt_long permutes argv,
 * getopt(3): "the default is to permute the contents of argv while scanning it so that
 * eventually all the nonoptions are at the end"), each shell-quoted where the shell would split
 * or expand it (POSIX sh, 2.2.3 Single-Quotes: no character in single quotes is special), so that
 * `--label 'X15 IOMeter'` reads back as one argument. */
#include <stdlib.h>
#include <string.h>

#include "cli.h"

static const char **original;
static int noriginal;

void cli_keep_command_line(int argc, char **argv)
{
	original = calloc((size_t)argc + 1, sizeof(*original));
	if (!original)
		return;
	for (int i = 0; i < argc; i++)
		original[i] = argv[i];
	noriginal = argc;
}

/* True if s is one word the shell leaves alone (no quoting needed). */
static bool plain_word(const char *s)
{
	if (!*s)
		return false;
	for (; *s; s++)
		if (!strchr("abcdefghijklmnopqrstuvwxyzABCDEFGHIJKLMNOPQRSTUVWXYZ0123456789_-+=,.:/@%^", *s) &&
		    !((unsigned char)*s & 0x80))
			return false;
	return true;
}

char *cli_command_line(void)
{
	size_t len = strlen("iolab") + 1;
	for (int i = 1; i < noriginal; i++)
		len += 4 * strlen(original[i]) + 3;
	char *out = original ? malloc(len) : NULL;
	if (!out)
		return NULL;
	char *o = out + sprintf(out, "iolab");
	for (int i = 1; i < noriginal; i++) {
		const char *a = original[i];
		*o++ = ' ';
		if (plain_word(a)) {
			o = stpcpy(o, a);
			continue;
		}
		*o++ = '\'';
		for (; *a; a++)
			if (*a == '\'')
				o = stpcpy(o, "'\\''");
			else
				*o++ = *a;
		*o++ = '\'';
	}
	*o = 0;
	return out;
}
