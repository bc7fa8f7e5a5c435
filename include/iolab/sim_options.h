/* sim_options.h: the simulator's options of a run, owned by the simulator's side of a
 * configuration (as fio's engines own their options): the simulated path's shorthands, the
 * subsystem file, and the settings of the path that the run sweeps. A setting is swept when a
 * shorthand (--drive, --channel, --channels, --controllers, --bus, --read-ahead) is given a
 * list of more than one value, or by --set PART.KEY=V[,V...] (any number of them; `set =` in a
 * job file). Each such setting is one axis of the run's cross product, and each point names the
 * value it ran with (its settings: table columns, JSON points[].settings, CSV columns).
 *
 * A shorthand's value is applied the way the shorthand itself is (through the run option of
 * that name, before the point's subsystem is built); a --set value, and a --drive value, is
 * applied to the point's subsystem description once built, by iolab_subsys_set (subsys.h). */
#ifndef IOLAB_SIM_OPTIONS_H
#define IOLAB_SIM_OPTIONS_H

#include <stdbool.h>
#include <stdint.h>

#include "iolab/error.h"
#include "iolab/parse.h"
#include "iolab/subsys.h"

#define IOLAB_SIM_SWEEPS_MAX 8   /* swept settings in one configuration */
#define IOLAB_SIM_SETTING_NAME 48 /* "controller.read-ahead", "ctl0.cache" */
#define IOLAB_SIM_VALUE_MAX 64   /* one value's text */

/* One swept setting. */
struct iolab_sim_sweep {
	char name[IOLAB_SIM_SETTING_NAME]; /* as the outputs show it: PART.KEY, or the shorthand's
					      equivalent ("controller.read-ahead", "channel.type",
					      "drive.model", "controllers", "channels") */
	char option[24];   /* the run option that takes each value ("read-ahead", "channel"), or
			      "": the value goes to PART.KEY of the point's subsystem */
	char part[IOLAB_SIM_SETTING_NAME], key[IOLAB_SIM_SETTING_NAME];
	unsigned n;        /* values, 1 .. IOLAB_LIST_MAX */
	char value[IOLAB_LIST_MAX][IOLAB_SIM_VALUE_MAX];
};

/* The simulator's options of a run (a configuration holds them: run.h), set through the run's
 * option table (options.c) like every other option. */
struct iolab_sim_options {
	unsigned nhost;                    /* host queue policies (0: none) */
	unsigned char host_sched[IOLAB_LIST_MAX]; /* enum iolab_host_sched */
	uint64_t host_overhead_ns;         /* the host's time per command */
	unsigned array_level;              /* enum iolab_raid_level (--array raid0:N) */
	unsigned narray, nstripe;
	unsigned array_drives[IOLAB_LIST_MAX];
	uint64_t stripe[IOLAB_LIST_MAX];   /* stripe unit in bytes (nstripe 0: 64 KiB) */
	unsigned failed[2];                /* the volume's failed drives, 1-based (0: none) */
	uint64_t rebuild_rate;             /* their rebuild's pace in bytes/s (0: none) */
	/* the path's parts (subsys_shape.h), or a subsystem file (--config) */
	const struct iolab_subsys *subsys;
	bool has_channel, has_bus, has_ctl;
	struct iolab_link_type channel, bus;
	unsigned channels, controllers;
	struct iolab_ctl_params ctl;       /* overhead, battery, read-ahead; cache and policy below */
	unsigned ncache, nwp;
	uint64_t cache[IOLAB_LIST_MAX];    /* controller cache sizes (sweep) */
	unsigned char write_policy[IOLAB_LIST_MAX]; /* enum iolab_write_policy (sweep) */
	int drive_cache;                   /* -1: as the model; 0 off; 1 on */
	unsigned ctl_given;                /* IOLAB_CTL_GIVEN_*: --controller-overhead, --battery,
					      --read-ahead given (they replace a subsystem file's) */
	char drive[IOLAB_SIM_VALUE_MAX];   /* --drive (the first of a list), "" for none */
	unsigned nsweep;                   /* swept settings, in the order given: the first is
					      the outermost */
	struct iolab_sim_sweep sweep[IOLAB_SIM_SWEEPS_MAX];
};

/* --set PART.KEY=V[,V...] (text) under the option name field: adds a setting, or replaces the
 * values of one of the same PART.KEY. Checks the form only (a PART and KEY of letters, digits,
 * '-' and '_', at least one value); the values meet their part when the run checks its points.
 * Returns 0 or -EINVAL with err naming field and text. */
int iolab_sim_options_add_set(struct iolab_sim_options *o, const char *field, const char *text,
			      struct iolab_err *err);
/* A shorthand's list (items[0..n), each already checked by the shorthand's own parser): with
 * more than one value it becomes the sweep of name (applied through option, or, when option is
 * NULL, to part.key of the subsystem); with one it removes an earlier sweep of that name (a job
 * file's list that the command line replaces). Returns 0 or -EINVAL (too many swept settings, a
 * value too long). */
int iolab_sim_options_add_list(struct iolab_sim_options *o, const char *field, const char *name,
			       const char *option, const char *part, const char *key,
			       char *const *items, unsigned n, struct iolab_err *err);

#endif
