/* subsys_targets.c: the volumes a simulated load is aimed at by name (`iolab sim --config FILE
 * --target v2`, or several: --target v1,v2). With targets the builder (subsys_build.c) joins
 * the volumes end to end instead of striping over them, and target t's requests go to its
 * volume's range of that space: as in `iolab run` with several files, the load spreads over the
 * targets (the generator takes them in turn) and each target's offsets lie in its own region. */
#include <errno.h>
#include <stdio.h>
#include <string.h>

#include "iolab/subsys.h"

/* "v1, v2, v3": the volumes' names, for messages. */
static void volume_names(const struct iolab_subsys *s, char *out, size_t len)
{
	size_t at = 0;
	out[0] = 0;
	for (unsigned i = 0; i < s->nvol && at < len; i++)
		at += (size_t)snprintf(out + at, len - at, "%s%s", i ? ", " : "", s->vol[i].name);
}

int iolab_subsys_set_targets(struct iolab_subsys *s, const char *const *names, unsigned n,
			     struct iolab_err *err)
{
	char list[400];
	s->ntarget = 0;
	if (n > IOLAB_SUBSYS_MAX)
		return iolab_errf(err, EINVAL, "--target: %u volumes named, at most %u", n,
				  IOLAB_SUBSYS_MAX);
	for (unsigned t = 0; t < n; t++) {
		unsigned v = 0;
		while (v < s->nvol && strcmp(s->vol[v].name, names[t]))
			v++;
		if (v == s->nvol) {
			volume_names(s, list, sizeof(list));
			return iolab_errf(err, EINVAL, "--target %.100s: the subsystem has no volume of that "
					  "name (its volumes: %s)", names[t], list);
		}
		for (unsigned k = 0; k < t; k++)
			if (s->target[k] == v)
				return iolab_errf(err, EINVAL, "--target %.100s: the volume is named twice",
						  names[t]);
		s->target[t] = v;
	}
	s->ntarget = n;
	return 0;
}
