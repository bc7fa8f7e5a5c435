/* trace_formats.c: the registry of trace formats (include/iolab/trace.h), in the order
 * `iolab trace formats` lists them. Each format module adds one line in its own block. */
#include <string.h>

#include "iolab/trace.h"

/* iolab's own (tcore) */
extern const struct iolab_trace_format iolab_trace_fmt_iot;
extern const struct iolab_trace_format iolab_trace_fmt_iot_text;
/* foreign formats (timport): one extern each */

static const struct iolab_trace_format *const formats[] = {
	/* iolab's own */
	&iolab_trace_fmt_iot,
	&iolab_trace_fmt_iot_text,
	/* foreign formats */
	NULL,
};

const struct iolab_trace_format *iolab_trace_format_at(unsigned i)
{
	return i < sizeof(formats) / sizeof(formats[0]) ? formats[i] : NULL;
}

const struct iolab_trace_format *iolab_trace_format_find(const char *name)
{
	for (unsigned i = 0; formats[i]; i++)
		if (!strcmp(formats[i]->name, name))
			return formats[i];
	return NULL;
}
