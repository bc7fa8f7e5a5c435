/* point_warn.c: adding a warning to a point (run.h: iolab_point_warn), for every part of a run
 * that has one to give (the runner's warnings.c, the verification, the scale-out layer). */
#include <stdarg.h>
#include <stdint.h>
#include <stdio.h>

#include "iolab/run.h"

static void vwarn(struct iolab_point *p, bool detail, const char *fmt, va_list ap)
{
	if (p->nwarn >= IOLAB_WARN_MAX)
		return;
	if (detail)
		p->warn_detail |= UINT32_C(1) << p->nwarn;
	vsnprintf(p->warn[p->nwarn++], IOLAB_WARN_LEN, fmt, ap);
}

void iolab_point_warn(struct iolab_point *p, const char *fmt, ...)
{
	va_list ap;
	va_start(ap, fmt);
	vwarn(p, false, fmt, ap);
	va_end(ap);
}

void iolab_point_warn_detail(struct iolab_point *p, const char *fmt, ...)
{
	va_list ap;
	va_start(ap, fmt);
	vwarn(p, true, fmt, ap);
	va_end(ap);
}
