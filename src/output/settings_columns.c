/* settings_columns.c: the swept settings of the simulated path (a point's settings, run.h) as
 * columns of the table and the CSV: one per setting any point carries, in the order they first
 * appear, empty where a point has not got it (a job's runs may sweep different ones). */
#include <string.h>

#include "output_common.h"

unsigned settings_columns(const struct iolab_results *r, const char **names, unsigned max)
{
	unsigned n = 0;
	for (unsigned i = 0; i < r->n; i++)
		for (unsigned s = 0; s < r->point[i].nsettings; s++) {
			const char *name = r->point[i].settings[s].name;
			bool seen = false;
			for (unsigned k = 0; k < n && !seen; k++)
				seen = !strcmp(names[k], name);
			if (!seen && n < max)
				names[n++] = name;
		}
	return n;
}

const char *point_setting(const struct iolab_point *p, const char *name)
{
	for (unsigned s = 0; s < p->nsettings; s++)
		if (!strcmp(p->settings[s].name, name))
			return p->settings[s].value;
	return NULL;
}
