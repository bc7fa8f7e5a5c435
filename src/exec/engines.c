/* engines.c: the explicit registry of engines (no constructor magic): add new ones here. */
#include <string.h>

#include "iolab/engine.h"

static const struct iolab_engine_ops *const registry[] = {
	&iolab_engine_io_uring,
	&iolab_engine_libaio,
	&iolab_engine_psync,
	&iolab_engine_null,
	&iolab_engine_sim,
};

unsigned iolab_engine_count(void)
{
	return sizeof(registry) / sizeof(registry[0]);
}

const struct iolab_engine_ops *iolab_engine_at(unsigned i)
{
	return i < iolab_engine_count() ? registry[i] : NULL;
}

const struct iolab_engine_ops *iolab_engine_find(const char *name)
{
	for (unsigned i = 0; i < iolab_engine_count(); i++)
		if (!strcmp(registry[i]->name, name))
			return registry[i];
	return NULL;
}
