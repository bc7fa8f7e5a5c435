/* examples.c: the shipped example files (examples.h), embedded at build time from examples/.
 * A name is taken as an example only when no file of that name exists: a file the user has
 * (in the current directory, or at a path) always wins, as the shell would find it. */
#include <stdio.h>
#include <string.h>
#include <sys/stat.h>

#include "iolab/examples.h"
#include "util/builtin_examples.h"

const char *iolab_example_name(unsigned i)
{
	return i < iolab_builtin_nexamples ? iolab_builtin_examples[i].name : NULL;
}

void iolab_example_title(unsigned i, char *out, unsigned len)
{
	const char *t = i < iolab_builtin_nexamples ? iolab_builtin_examples[i].text : "";
	if (!strncmp(t, "<?xml", 5)) /* an XML file: its first comment's first line */
		t = strstr(t, "<!--") ? strstr(t, "<!--") + 4 : "";
	while (*t == '#' || *t == ' ')
		t++;
	size_t n = strcspn(t, "\n");
	snprintf(out, len, "%.*s", (int)n, t);
}

const char *iolab_example_text(const char *name)
{
	for (unsigned i = 0; i < iolab_builtin_nexamples; i++)
		if (!strcmp(iolab_builtin_examples[i].name, name))
			return iolab_builtin_examples[i].text;
	return NULL;
}

const char *iolab_example_text_for(const char *path)
{
	struct stat st;
	if (strchr(path, '/') || lstat(path, &st) == 0)
		return NULL;
	return iolab_example_text(path);
}
