/* output_common.h: figures derived from a point that every output format prints. */
#ifndef IOLAB_OUTPUT_COMMON_H
#define IOLAB_OUTPUT_COMMON_H

#include "iolab/output.h"

/* Reads and writes together. */
static inline void point_all(const struct iolab_point *p, struct iolab_dir_result *all)
{
	*all = p->dir[0];
	all->ios += p->dir[1].ios;
	all->bytes += p->dir[1].bytes;
	all->errors += p->dir[1].errors;
	iolab_hist_merge(&all->lat, &p->dir[1].lat);
}

static inline double dir_rate(const struct iolab_point *p, uint64_t v)
{
	return p->seconds > 0 ? (double)v / p->seconds : 0;
}

#endif
