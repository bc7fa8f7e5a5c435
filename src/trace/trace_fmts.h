/* trace_fmts.h: the foreign trace formats (one src/trace/fmt_<name>.c each), for the registry in
 * trace_formats.c. */
#ifndef IOLAB_TRACE_FMTS_H
#define IOLAB_TRACE_FMTS_H

#include "iolab/trace.h"

extern const struct iolab_trace_format iolab_trace_fmt_blkparse;
extern const struct iolab_trace_format iolab_trace_fmt_fio_iolog;
extern const struct iolab_trace_format iolab_trace_fmt_msr;
extern const struct iolab_trace_format iolab_trace_fmt_spc;
extern const struct iolab_trace_format iolab_trace_fmt_disksim;
extern const struct iolab_trace_format iolab_trace_fmt_validate;
extern const struct iolab_trace_format iolab_trace_fmt_mqsim;
extern const struct iolab_trace_format iolab_trace_fmt_alibaba;
extern const struct iolab_trace_format iolab_trace_fmt_tencent;

#endif
