/* components.c: the registry of the simulator's component kinds (sim_system.h). Adding a kind
 * is one file with its ops table and one line here; test_sim_system.c checks every entry. */
#include <errno.h>
#include <stddef.h>

#include "iolab/sim_system.h"
#include "sim/parts/comp_share.h"

static const struct iolab_comp_ops *const kinds[] = {
	&iolab_comp_host,
	&iolab_comp_crossing,
	&iolab_comp_link,
	&iolab_comp_controller,
	&iolab_comp_volume,
	&iolab_comp_drive,
	&iolab_comp_share,
	&iolab_comp_concat,
};

const struct iolab_comp_ops *iolab_comp_kind_at(unsigned i)
{
	return i < sizeof(kinds) / sizeof(kinds[0]) ? kinds[i] : NULL;
}

int iolab_comp_check(const struct iolab_comp_ops *ops, struct iolab_err *err)
{
	if (!ops || !ops->kind || !*ops->kind)
		return iolab_errf(err, EINVAL, "component kind without a name");
	if (ops->version != IOLAB_COMP_OPS_VERSION)
		return iolab_errf(err, EINVAL, "component kind '%s': ops version %u, this build of iolab "
				  "drives version %u", ops->kind, ops->version, IOLAB_COMP_OPS_VERSION);
	/* A link is a resource, in no request's path; every other part takes requests. */
	if (ops != &iolab_comp_link && !ops->submit)
		return iolab_errf(err, EINVAL, "component kind '%s': its required submit hook is NULL",
				  ops->kind);
	return 0;
}
