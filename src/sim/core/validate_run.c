/* validate_run.c: replays a validate trace on a model the way it was measured: closed loop at
 * depth 1, each request issued when the previous one completed plus its think time. */
#include <errno.h>
#include <inttypes.h>

#include "iolab/disk_sim.h"
#include "iolab/validate.h"

int iolab_validate_run(const struct iolab_disk_model *m, const struct iolab_vtrace *t, double *sim_us,
		       struct iolab_disk_stats *st, struct iolab_err *err)
{
	for (size_t i = 0; i < t->n; i++)
		if (t->req[i].lbn + t->req[i].blocks > m->blocks)
			return iolab_errf(err, EINVAL, "trace request %zu: blocks %" PRIu64 "..%" PRIu64
					  " are beyond the model's %" PRIu64 " blocks", i + 1, t->req[i].lbn,
					  t->req[i].lbn + t->req[i].blocks - 1, m->blocks);
	struct iolab_disk *d = iolab_disk_new(m);
	if (!d)
		return iolab_errf(err, ENOMEM, "out of memory");
	uint64_t now = 0;
	for (size_t i = 0; i < t->n; i++) {
		const struct iolab_vreq *v = &t->req[i];
		struct iolab_disk_req r = {.lbn = v->lbn, .blocks = v->blocks, .write = v->write,
					   .t_arrive = now};
		int rc = iolab_disk_submit(d, &r); /* the drive is idle: it has room */
		if (rc) {
			iolab_disk_free(d);
			return iolab_errf(err, -rc, "trace request %zu: the drive refused it", i + 1);
		}
		iolab_disk_next(d);
		sim_us[i] = (double)(r.t_done - r.t_arrive) / 1e3;
		now = r.t_done + (uint64_t)(v->think_us * 1e3 + 0.5);
	}
	if (st)
		*st = *iolab_disk_stats(d);
	iolab_disk_free(d);
	return 0;
}
