/* subsys_shape.h: what the command line says of a simulated point's subsystem (subsys_shape.c):
 * the shorthands, or a subsystem file with the point's sweep values. */
#ifndef IOLAB_SUBSYS_SHAPE_H
#define IOLAB_SUBSYS_SHAPE_H

#include "iolab/subsys.h"

struct iolab_sim_shape {
	const struct iolab_subsys *file;        /* --config, or NULL: the shorthands */
	const struct iolab_disk_model *model;   /* --model, or --drive with --array */
	unsigned level, drives;                 /* --array (level 0: one drive) */
	uint64_t stripe;                        /* --stripe (0: 64 KiB; a file's own) */
	int failed[2];                          /* --failed, 0-based, or -1 */
	uint64_t rebuild_bytes_s;               /* --rebuild-rate */
	struct iolab_host_params host;          /* --host-scheduler, --host-overhead */
	bool set_host_sched;                    /* --host-scheduler given */
	bool has_channel, has_bus, has_ctl;     /* --channel, --bus, a controller option */
	struct iolab_link_type channel, bus;
	unsigned channels, controllers;         /* --channels, --controllers (0: default) */
	struct iolab_ctl_params ctl;            /* --controller-overhead, --cache, ... */
	bool set_cache, set_write_policy;       /* given: they replace a file's */
	unsigned ctl_given;                     /* IOLAB_CTL_GIVEN_*: ctl's settings given, which
						   replace a file's */
	int drive_cache;                        /* --drive-cache: -1 as the model, 0 off, 1 on */
};

/* Fills *s for the point (no models are loaded: s's model is a copy of sh->model, or the file's
 * models) and checks it. Returns 0 or -EINVAL with err saying what is wrong. */
int iolab_subsys_shape(const struct iolab_sim_shape *sh, struct iolab_subsys *s, struct iolab_err *err);

#endif
