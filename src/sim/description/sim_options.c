/* sim_options.c: the swept settings of the simulated path (sim_options.h): --set's text into a
 * setting, and a shorthand's list into one. */
#include <ctype.h>
#include <errno.h>
#include <stdio.h>
#include <string.h>

#include "iolab/sim_options.h"

/* The sweep of name in o, or NULL. */
static struct iolab_sim_sweep *find(struct iolab_sim_options *o, const char *name)
{
	for (unsigned i = 0; i < o->nsweep; i++)
		if (!strcmp(o->sweep[i].name, name))
			return &o->sweep[i];
	return NULL;
}

static void drop(struct iolab_sim_options *o, struct iolab_sim_sweep *s)
{
	unsigned i = (unsigned)(s - o->sweep);
	memmove(&o->sweep[i], &o->sweep[i + 1], (o->nsweep - i - 1) * sizeof(*s));
	o->nsweep--;
}

/* A new sweep of name (or the earlier one of that name, its place in the order kept) filled with
 * items; returns 0 or -EINVAL. */
static int put(struct iolab_sim_options *o, const char *field, const char *name, const char *option,
	       const char *part, const char *key, char *const *items, unsigned n, struct iolab_err *err)
{
	struct iolab_sim_sweep *s = find(o, name);
	if (!s && o->nsweep == IOLAB_SIM_SWEEPS_MAX)
		return iolab_errf(err, EINVAL, "%s: more than %d swept settings of the simulated path",
				  field, IOLAB_SIM_SWEEPS_MAX);
	for (unsigned i = 0; i < n; i++)
		if (strlen(items[i]) >= IOLAB_SIM_VALUE_MAX)
			return iolab_errf(err, EINVAL, "%s: value '%s' is longer than %d bytes", field,
					  items[i], IOLAB_SIM_VALUE_MAX - 1);
	if (!s) {
		s = &o->sweep[o->nsweep++];
		memset(s, 0, sizeof(*s));
		snprintf(s->name, sizeof(s->name), "%s", name);
	}
	snprintf(s->option, sizeof(s->option), "%s", option ? option : "");
	snprintf(s->part, sizeof(s->part), "%s", part ? part : "");
	snprintf(s->key, sizeof(s->key), "%s", key ? key : "");
	s->n = n;
	for (unsigned i = 0; i < n; i++)
		snprintf(s->value[i], sizeof(s->value[i]), "%s", items[i]);
	return 0;
}

int iolab_sim_options_add_list(struct iolab_sim_options *o, const char *field, const char *name,
			       const char *option, const char *part, const char *key,
			       char *const *items, unsigned n, struct iolab_err *err)
{
	if (n > 1)
		return put(o, field, name, option, part, key, items, n, err);
	struct iolab_sim_sweep *s = find(o, name);
	if (s)
		drop(o, s);
	return 0;
}

/* A part's or key's name: letters, digits, '-' and '_'. */
static bool word(const char *s, size_t n)
{
	if (!n || n >= IOLAB_SIM_SETTING_NAME)
		return false;
	for (size_t i = 0; i < n; i++)
		if (!isalnum((unsigned char)s[i]) && s[i] != '-' && s[i] != '_')
			return false;
	return true;
}

int iolab_sim_options_add_set(struct iolab_sim_options *o, const char *field, const char *text,
			      struct iolab_err *err)
{
	const char *dot = strchr(text, '.'), *eq = strchr(text, '=');
	if (!dot || !eq || dot > eq || !word(text, (size_t)(dot - text)) ||
	    !word(dot + 1, (size_t)(eq - dot - 1)))
		return iolab_errf(err, EINVAL, "%s: '%s' is not PART.KEY=VALUE[,VALUE] (PART a part's name "
				  "or kind: controller.read-ahead=adaptive, drive.rpm=7200,10000)", field,
				  text);
	char part[IOLAB_SIM_SETTING_NAME], key[IOLAB_SIM_SETTING_NAME], buf[4096];
	char name[2 * IOLAB_SIM_SETTING_NAME], *items[IOLAB_LIST_MAX];
	snprintf(part, sizeof(part), "%.*s", (int)(dot - text), text);
	snprintf(key, sizeof(key), "%.*s", (int)(eq - dot - 1), dot + 1);
	snprintf(name, sizeof(name), "%s.%s", part, key);
	if (strlen(name) >= IOLAB_SIM_SETTING_NAME)
		return iolab_errf(err, EINVAL, "%s: '%s': PART.KEY is longer than %d bytes", field, text,
				  IOLAB_SIM_SETTING_NAME - 1);
	if (!eq[1])
		return iolab_errf(err, EINVAL, "%s: '%s' gives %s no value", field, text, name);
	int n = iolab_split_list(field, eq + 1, buf, sizeof(buf), items, IOLAB_LIST_MAX, err);
	if (n < 0)
		return n;
	return put(o, field, name, NULL, part, key, items, (unsigned)n, err);
}
