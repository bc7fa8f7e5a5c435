/* engines.c: the explicit registry of engines (no constructor magic): add new ones here. Also
 * the check that an ops table is one this build can drive (its version and required hooks), and
 * the sum of two parts' reports (breakdowns: breakdown.c). */
#include <errno.h>
#include <stdio.h>
#include <string.h>

#include "iolab/engine.h"
#include "iolab/flash_report.h"

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

int iolab_engine_check(const struct iolab_engine_ops *ops, struct iolab_err *err)
{
	if (!ops || !ops->name || !*ops->name)
		return iolab_errf(err, EINVAL, "engine without a name");
	if (ops->version != IOLAB_ENGINE_OPS_VERSION)
		return iolab_errf(err, EINVAL, "engine '%s': ops version %u, this build of iolab drives "
				  "version %u", ops->name, ops->version, IOLAB_ENGINE_OPS_VERSION);
	const char *missing = !ops->init ? "init" : !ops->submit ? "submit" : !ops->reap ? "reap"
			    : (ops->flags & IOLAB_ENGINE_VIRTUAL) && !ops->now ? "now" : NULL;
	if (missing)
		return iolab_errf(err, EINVAL, "engine '%s': its required %s hook is NULL", ops->name,
				  missing);
	return 0;
}

void iolab_comp_report_add(struct iolab_comp_report *a, const struct iolab_comp_report *b)
{
	a->ios += b->ios;
	a->bytes += b->bytes;
	a->hits += b->hits;
	if (!a->rated_mb_s)
		a->rated_mb_s = b->rated_mb_s;
	a->busy_ns += b->busy_ns;
	a->resident_ns += b->resident_ns;
	a->span_ns += b->span_ns;
	if (b->rebuild.rate_bytes_s)
		a->rebuild = b->rebuild;
	if (b->flash_given) { /* flash_report.h */
		iolab_flash_report_add(&a->flash, &b->flash);
		a->flash_given = true;
	}
}

