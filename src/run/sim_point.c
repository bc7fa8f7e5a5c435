/* sim_point.c: the swept settings of the simulated path (sim_options.h) in each point. They are
 * the sweeps just inside --host-scheduler, in the order given (the first outermost). A swept
 * shorthand (--channel ultra160,ultra320) is applied as the shorthand itself: its option is set
 * to the point's value on a copy of the configuration that the point's subsystem is built from,
 * so a list means exactly what each of its values means alone. A --set value (and a swept
 * --drive: drive.model) is set on the subsystem once built, by iolab_subsys_set, and the whole
 * is checked again. */
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "sim_point.h"

int sim_point_config(const struct iolab_config *c, const struct point_params *pp,
		     struct iolab_config **own, struct iolab_err *err)
{
	*own = NULL;
	bool any = false;
	for (unsigned i = 0; i < c->sim.nsweep; i++)
		any |= *c->sim.sweep[i].option != 0;
	if (!any)
		return 0;
	struct iolab_config *o = malloc(sizeof(*o));
	if (!o)
		return iolab_errf(err, ENOMEM, "out of memory");
	*o = *c;
	for (unsigned i = 0; i < c->sim.nsweep; i++) {
		const struct iolab_sim_sweep *s = &c->sim.sweep[i];
		if (!*s->option)
			continue;
		int rc = iolab_config_set(o, s->option, s->value[pp->sweep[i]], err);
		if (rc) { /* each value was checked when the list was read */
			free(o);
			return rc;
		}
	}
	*own = o;
	return 0;
}

int sim_point_set(const struct iolab_config *c, const struct point_params *pp,
		  struct iolab_subsys *desc, struct iolab_err *err)
{
	bool any = false;
	for (unsigned i = 0; i < c->sim.nsweep; i++) {
		const struct iolab_sim_sweep *s = &c->sim.sweep[i];
		if (*s->option)
			continue;
		any = true;
		int rc = iolab_subsys_set(desc, s->part, s->key, s->value[pp->sweep[i]], err);
		if (rc) { /* "--set drive.rpm: field 'rpm': ..." */
			char why[sizeof(err->msg)];
			memcpy(why, err->msg, sizeof(why));
			return iolab_errf(err, -rc, "--%s %s", strcmp(s->name, "drive.model") ? "set" :
					  "drive", why);
		}
	}
	if (!any)
		return 0;
	int rc = iolab_subsys_check(desc, err);
	if (rc)
		iolab_err_prefix(err, "the simulated path with %s", c->sim.nsweep > 1 ? "these settings"
				 : "this setting");
	return rc;
}

void sim_point_release(const struct iolab_config *c, struct iolab_subsys *desc)
{
	/* the file's models, or the shorthands' one */
	unsigned own = c->sim.subsys ? c->sim.subsys->nmodel : 1;
	for (unsigned i = own; i < desc->nmodel; i++)
		iolab_model_free(&desc->model[i]);
	if (desc->nmodel > own)
		desc->nmodel = own;
}

const char *sim_point_model(const struct iolab_config *c, const struct iolab_point *p)
{
	for (unsigned i = 0; i < c->sim.nsweep && i < p->nsettings; i++) {
		const struct iolab_sim_sweep *s = &c->sim.sweep[i];
		for (unsigned v = 0; !strcmp(s->name, "drive.model") && v < s->n; v++)
			if (!strcmp(s->value[v], p->settings[i].value))
				return s->value[v];
	}
	return c->model_name;
}

void sim_point_settings(const struct iolab_config *c, const struct point_params *pp,
			struct iolab_point *p)
{
	p->nsettings = c->sim.nsweep;
	for (unsigned i = 0; i < c->sim.nsweep; i++) {
		const struct iolab_sim_sweep *s = &c->sim.sweep[i];
		snprintf(p->settings[i].name, sizeof(p->settings[i].name), "%s", s->name);
		snprintf(p->settings[i].value, sizeof(p->settings[i].value), "%s", s->value[pp->sweep[i]]);
	}
	p->model = sim_point_model(c, p);
}

const void *sim_point_engine(const struct iolab_config *c, const struct point_params *pp,
			     const struct run_env *env, struct iolab_sim_engine_config *cfg)
{
	if (c->engine != &iolab_engine_sim)
		return c->engine_config;
	*cfg = (struct iolab_sim_engine_config){
		.model = c->engine_config, .host = {pp->host_sched, c->sim.host_overhead_ns},
		.subsys = env->desc, .precondition = c->precondition,
	};
	return cfg;
}
