/* builtin_examples.h: the example files compiled in from examples/ (the table is generated at
 * build time by cmake/embed_dir.cmake; examples.c looks names up in it). */
#ifndef IOLAB_UTIL_BUILTIN_EXAMPLES_H
#define IOLAB_UTIL_BUILTIN_EXAMPLES_H

struct iolab_builtin_example {
	const char *name; /* the file name, "two-volumes.conf" */
	const char *text; /* the file, NUL-terminated */
};

extern const struct iolab_builtin_example iolab_builtin_examples[];
extern const unsigned iolab_builtin_nexamples;

#endif
