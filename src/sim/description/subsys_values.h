/* subsys_values.h: one key's text into its part's record (subsys_values.c), for the
 * subsystem file's reader and iolab_subsys_set. */
#ifndef IOLAB_SIM_SUBSYS_VALUES_H
#define IOLAB_SIM_SUBSYS_VALUES_H

#include "iolab/sim_kinds.h"

/* Reads val into rec (the record of k's kind) by k's type: every type but references, members
 * and models. Returns 0 or -EINVAL with err "field 'KEY': what is wrong". */
int iolab_param_read(const struct iolab_param *k, const char *val, void *rec, struct iolab_err *err);
/* Refuses a value (written val) outside k's range. Returns 0 or -EINVAL. */
int iolab_param_in_range(const struct iolab_param *k, const void *rec, const char *val,
			 struct iolab_err *err);

#endif
