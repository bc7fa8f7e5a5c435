/* builtin_models.h: the drive models compiled in from the .model files in models/ (the table
 * is generated at build time by cmake/embed_dir.cmake; model_builtin.c looks names up in it). */
#ifndef IOLAB_SIM_BUILTIN_MODELS_H
#define IOLAB_SIM_BUILTIN_MODELS_H

struct iolab_builtin_model {
	const char *name; /* file name without ".model" */
	const char *text; /* the file, NUL-terminated */
};

extern const struct iolab_builtin_model iolab_builtin_models[];
extern const unsigned iolab_builtin_nmodels;

#endif
