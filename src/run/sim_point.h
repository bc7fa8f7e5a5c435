/* sim_point.h: the swept settings of the simulated path in a point (sim_point.c; sweep.c decodes
 * which value of each the point takes): the configuration its shorthands are built from, the
 * --set values on its subsystem, and the settings the point reports. */
#ifndef IOLAB_RUN_SIM_POINT_H
#define IOLAB_RUN_SIM_POINT_H

#include "iolab/run.h"
#include "iolab/subsys.h"
#include "point.h"

/* The configuration point pp's shorthands are built from: *own is NULL when c sweeps no
 * shorthand, else a copy of c (malloc'd, the caller frees it) with each swept shorthand set to
 * the point's value. Returns 0 or -errno (err names the option). */
int sim_point_config(const struct iolab_config *c, const struct point_params *pp,
		     struct iolab_config **own, struct iolab_err *err);
/* Sets the point's --set (and --drive) values on its subsystem desc, built by the shorthands
 * or from the subsystem file, and checks the result. Returns 0 or -errno, err starting with
 * the option ("--set controller.read-ahead: ..."). */
int sim_point_set(const struct iolab_config *c, const struct point_params *pp,
		  struct iolab_subsys *desc, struct iolab_err *err);
/* Frees the models the last point's values opened in desc (drive.model); desc then holds only
 * what the shorthands or the file gave it. desc must be zeroed before its first point. */
void sim_point_release(const struct iolab_config *c, struct iolab_subsys *desc);
/* The model point p of c ran: its drive.model setting, else c's model (a string of c). */
const char *sim_point_model(const struct iolab_config *c, const struct iolab_point *p);
/* The engine settings of point pp on env: for the simulator, its model, host and subsystem,
 * filled into *cfg; for any other engine, c's own. */
const void *sim_point_engine(const struct iolab_config *c, const struct point_params *pp,
			     const struct run_env *env, struct iolab_sim_engine_config *cfg);
/* Fills p's settings (and its model, for a swept drive) with point pp's values. */
void sim_point_settings(const struct iolab_config *c, const struct point_params *pp,
			struct iolab_point *p);

#endif
