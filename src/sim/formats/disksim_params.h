/* disksim_params.h: which parameter names DiskSim 4.0 accepts in a block (disksim_params.c). */
#ifndef IOLAB_DISKSIM_PARAMS_H
#define IOLAB_DISKSIM_PARAMS_H

/* 1 if DiskSim 4.0 accepts parameter name in a block of type type (both without regard to
 * case), 0 if it rejects it, -1 if type is not one of the blocks the importer reads. */
int iolab_ds_param_known(const char *type, const char *name);

#endif
