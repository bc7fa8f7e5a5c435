/* subsys_names.c: the names of a controller's write policies and read-ahead modes (subsys.h),
 * for the subsystem file, the command line and the reports. */
#include <errno.h>
#include <string.h>

#include "iolab/subsys.h"

static const char *const write_policy[] = {[IOLAB_WP_THROUGH] = "write-through",
					   [IOLAB_WP_BACK] = "write-back"};
static const char *const read_ahead[] = {[IOLAB_RA_NONE] = "none", [IOLAB_RA_ALWAYS] = "always",
					 [IOLAB_RA_ADAPTIVE] = "adaptive"};

#define COUNT(a) (unsigned)(sizeof(a) / sizeof(a[0]))

const char *iolab_write_policy_name(unsigned p)
{
	return p < COUNT(write_policy) ? write_policy[p] : "?";
}

int iolab_write_policy_parse(const char *field, const char *text, unsigned *out, struct iolab_err *err)
{
	for (unsigned i = 0; i < COUNT(write_policy); i++)
		if (!strcmp(text, write_policy[i]))
			return *out = i, 0;
	return iolab_errf(err, EINVAL, "%s: '%.100s' is not a write policy (write-through, write-back)",
			  field, text);
}

const char *iolab_read_ahead_name(unsigned r)
{
	return r < COUNT(read_ahead) ? read_ahead[r] : "?";
}

int iolab_read_ahead_parse(const char *field, const char *text, unsigned *out, struct iolab_err *err)
{
	for (unsigned i = 0; i < COUNT(read_ahead); i++)
		if (!strcmp(text, read_ahead[i]))
			return *out = i, 0;
	return iolab_errf(err, EINVAL, "%s: '%.100s' is not a read-ahead mode (none, always, adaptive)",
			  field, text);
}
