/* disksim_cache_fields.h: the DiskSim 4.0 disk cache and buffer parameters iolab's drive does
 * not model, with the values at which they mean what iolab does (disksim_cache_fields.c). */
#ifndef IOLAB_SIM_DISKSIM_CACHE_FIELDS_H
#define IOLAB_SIM_DISKSIM_CACHE_FIELDS_H

struct iolab_ds_neutral {
	const char *name; /* the disksim_disk parameter */
	double lo, hi;    /* accepted values: what iolab's drive does */
	double hi_alone;  /* accepted up to this with one command at a time (Max queue length 1) */
	const char *why;  /* what iolab cannot represent, for the refusal */
};

extern const struct iolab_ds_neutral iolab_ds_neutral[];
extern const unsigned iolab_ds_nneutral;

#endif
