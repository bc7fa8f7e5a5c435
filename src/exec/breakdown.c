/* breakdown.c: a breakdown of where I/Os spent their time as named phases (engine.h): adding to
 * a phase by name, and one breakdown to another. Apart from the engines' registry (engines.c),
 * which the simulator's parts would otherwise depend on in a circle. */
#include <stdio.h>
#include <string.h>

#include "iolab/engine.h"

void iolab_breakdown_put(struct iolab_breakdown *b, const char *name, double ns)
{
	unsigned i = 0;
	while (i < b->nphase && strcmp(b->phase[i], name))
		i++;
	if (i == b->nphase) {
		if (i == IOLAB_PHASES_MAX)
			return;
		snprintf(b->phase[i], sizeof(b->phase[i]), "%s", name);
		b->ns[i] = 0;
		b->nphase++;
	}
	b->ns[i] += ns;
}

void iolab_breakdown_add(struct iolab_breakdown *a, const struct iolab_breakdown *b)
{
	for (unsigned i = 0; i < b->nphase; i++)
		iolab_breakdown_put(a, b->phase[i], b->ns[i]);
	a->ios += b->ios;
	a->reads += b->reads;
	a->read_hits += b->read_hits;
	a->read_partial_hits += b->read_partial_hits;
}
