/* model_builtin.c: the built-in drive models (the .model files in models/, embedded at build
 * time) and iolab_model_open, which takes a built-in name or a model file's path. */
#include <errno.h>
#include <stdio.h>
#include <string.h>
#include <strings.h>

#include "iolab/disk_model.h"
#include "sim/formats/builtin_models.h"

unsigned iolab_model_builtin_count(void)
{
	return iolab_builtin_nmodels;
}

const char *iolab_model_builtin_name(unsigned i)
{
	return i < iolab_builtin_nmodels ? iolab_builtin_models[i].name : NULL;
}

int iolab_model_open(const char *name, struct iolab_disk_model *m, struct iolab_err *err)
{
	size_t len = strlen(name);
	if (strchr(name, '/') || (len >= 6 && !strcmp(name + len - 6, ".model")))
		return iolab_model_load(name, m, err);
	for (unsigned i = 0; i < iolab_builtin_nmodels; i++)
		if (!strcasecmp(name, iolab_builtin_models[i].name)) {
			char file[96];
			snprintf(file, sizeof(file), "%s.model", iolab_builtin_models[i].name);
			return iolab_model_parse(file, iolab_builtin_models[i].text, m, err);
		}
	memset(m, 0, sizeof(*m));
	return iolab_errf(err, ENOENT, "unknown model '%.200s' (see 'iolab models')", name);
}
