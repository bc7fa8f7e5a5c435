/* components.c: the registry of the simulator's component kinds (sim_system.h) and of the kinds
 * of parts a subsystem is made of (sim_kinds.h). Adding a kind is one file with its ops table
 * and its table of keys, and one line here; test_sim_system.c and test_sim_kinds.c check every
 * entry. */
#include <errno.h>
#include <stddef.h>
#include <stdio.h>
#include <string.h>

#include "iolab/sim_kinds.h"
#include "iolab/sim_system.h"
#include "iolab/subsys.h"
#include "sim/parts/comp_share.h"

extern const struct iolab_comp_ops iolab_comp_fixed;
extern const struct iolab_kind iolab_kind_fixed;
extern const struct iolab_comp_ops iolab_comp_ssd;

static const struct iolab_comp_ops *const kinds[] = {
	&iolab_comp_host,
	&iolab_comp_crossing,
	&iolab_comp_link,
	&iolab_comp_controller,
	&iolab_comp_volume,
	&iolab_comp_drive,
	&iolab_comp_share,
	&iolab_comp_concat,
	&iolab_comp_fixed,
	&iolab_comp_ssd,
};

/* The kinds of a subsystem file's lines, in the order the docs describe them. */
static const struct iolab_kind *const part_kinds[] = {
	&iolab_kind_host,
	&iolab_kind_bus,
	&iolab_kind_controller,
	&iolab_kind_channel,
	&iolab_kind_drive,
	&iolab_kind_volume,
	&iolab_kind_fixed,
	&iolab_kind_ssd,
};

const struct iolab_comp_ops *iolab_comp_kind_at(unsigned i)
{
	return i < sizeof(kinds) / sizeof(kinds[0]) ? kinds[i] : NULL;
}

int iolab_comp_check(const struct iolab_comp_ops *ops, struct iolab_err *err)
{
	if (!ops || !ops->kind || !*ops->kind)
		return iolab_errf(err, EINVAL, "component kind without a name");
	if (ops->version != IOLAB_COMP_OPS_VERSION)
		return iolab_errf(err, EINVAL, "component kind '%s': ops version %u, this build of iolab "
				  "drives version %u", ops->kind, ops->version, IOLAB_COMP_OPS_VERSION);
	/* A link is a resource, in no request's path; every other part takes requests. */
	if (ops != &iolab_comp_link && !ops->submit)
		return iolab_errf(err, EINVAL, "component kind '%s': its required submit hook is NULL",
				  ops->kind);
	return 0;
}

const struct iolab_kind *iolab_kind_at(unsigned i)
{
	return i < sizeof(part_kinds) / sizeof(part_kinds[0]) ? part_kinds[i] : NULL;
}

const struct iolab_kind *iolab_kind_find(const char *name)
{
	for (unsigned i = 0; iolab_kind_at(i); i++)
		if (!strcmp(iolab_kind_at(i)->name, name))
			return iolab_kind_at(i);
	return NULL;
}

const struct iolab_param *iolab_kind_param(const struct iolab_kind *k, const char *key)
{
	for (unsigned j = 0; j < k->nparams; j++)
		if (!strcmp(k->params[j].key, key))
			return &k->params[j];
	return NULL;
}

void iolab_kind_keys(const struct iolab_kind *k, char *buf, size_t n)
{
	buf[0] = 0;
	for (unsigned j = 0; j < k->nparams; j++)
		snprintf(buf + strlen(buf), n - strlen(buf), "%s%s", j ? ", " : "", k->params[j].key);
}

void iolab_kind_names(char *buf, size_t n)
{
	buf[0] = 0;
	for (unsigned i = 0; iolab_kind_at(i); i++)
		snprintf(buf + strlen(buf), n - strlen(buf), "%s%s", i ? ", " : "", iolab_kind_at(i)->name);
}

const struct iolab_kind *iolab_device_kind(const struct iolab_subsys *s, const struct iolab_sub_drive *d)
{
	const struct iolab_kind *k = d->kind ? d->kind : &iolab_kind_drive;
	if (k == &iolab_kind_drive && d->model < s->nmodel && s->model[d->model].ssd)
		return &iolab_kind_ssd; /* a drive line of an SSD model */
	return k;
}

void iolab_subsys_device_geometry(const struct iolab_subsys *s, unsigned i, uint64_t *blocks,
				  uint32_t *block_bytes)
{
	iolab_device_kind(s, &s->drive[i])->device->geometry(s, &s->drive[i], blocks, block_bytes);
}
