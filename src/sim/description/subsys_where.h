/* subsys_where.h: where each part of a subsystem was written (file and line), so that
 * iolab_subsys_check's findings on a parsed file name the offending line. Internal to
 * subsys_parse.c and subsys_check.c. */
#ifndef IOLAB_SIM_SUBSYS_WHERE_H
#define IOLAB_SIM_SUBSYS_WHERE_H

#include "iolab/subsys.h"

struct iolab_subsys_where {
	const char *file;
	unsigned host; /* the host line, or 0 */
	unsigned bus[IOLAB_SUBSYS_MAX], ctl[IOLAB_SUBSYS_MAX], chan[IOLAB_SUBSYS_MAX];
	unsigned drive[IOLAB_SUBSYS_DRIVES], vol[IOLAB_SUBSYS_MAX];
};

/* iolab_subsys_check, with messages "FILE:LINE: field 'KEY': ..." when w is not NULL, and
 * "KIND 'NAME': field 'KEY': ..." when it is. */
int iolab_subsys_check_where(const struct iolab_subsys *s, const struct iolab_subsys_where *w,
			     struct iolab_err *err);

#endif
