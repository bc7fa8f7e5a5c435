/* model_predict.c: the figures a drive model predicts (model_predict.h), computed from the
 * model's own seek curve and zones, and the random-read rate from the simulator's drive. */
#include <errno.h>
#include <string.h>

#include "iolab/disk_sim.h"
#include "iolab/model_predict.h"
#include "iolab/prng.h"

double iolab_model_random_seek_ns(const struct iolab_disk_model *m)
{
	double c = m->cylinders, acc = 0;
	for (uint32_t d = 1; d < m->cylinders; d++)
		acc += 2.0 * (c - d) * (double)iolab_model_seek_ns(m, d, false);
	return acc / (c * c);
}

static double media_mb_s(const struct iolab_disk_model *m, const struct iolab_zone *z)
{
	return (double)z->spt * m->block_bytes * 1e3 / (double)m->rev_ns;
}

/* Reading a whole cylinder: each track's sectors, and the skew sectors that pass while the
 * heads switch (surfaces - 1 times) and the arm moves on to the next cylinder. */
static double sustained_mb_s(const struct iolab_disk_model *m, const struct iolab_zone *z)
{
	double sectors = (double)z->spt * m->surfaces;
	double passed = sectors + (double)z->track_skew * (m->surfaces - 1) + z->cyl_skew;
	return media_mb_s(m, z) * sectors / passed;
}

/* ios random 4 KiB reads one at a time, each issued as the previous one completes. */
static int random_reads(const struct iolab_disk_model *m, unsigned ios, uint64_t seed,
			struct iolab_model_prediction *p, struct iolab_err *err)
{
	uint32_t blocks = m->block_bytes >= 4096 ? 1 : 4096 / m->block_bytes;
	uint64_t slots = m->blocks / blocks;
	struct iolab_disk *d = iolab_disk_new(m);
	if (!d)
		return iolab_errf(err, ENOMEM, "out of memory");
	struct iolab_prng rng;
	iolab_prng_seed(&rng, seed);
	uint64_t now = 0, busy = 0;
	for (unsigned i = 0; i < ios; i++) {
		struct iolab_disk_req r = {.lbn = iolab_prng_below(&rng, slots) * blocks,
					   .blocks = blocks, .t_arrive = now};
		int rc = iolab_disk_submit(d, &r); /* the drive is idle: it has room */
		if (rc) {
			iolab_disk_free(d);
			return iolab_errf(err, -rc, "the simulated drive refused a read");
		}
		iolab_disk_next(d);
		busy += r.t_done - r.t_arrive;
		now = r.t_done;
	}
	iolab_disk_free(d);
	p->rand_ios = ios;
	p->rand_ms = ios ? busy / 1e6 / ios : 0;
	p->rand_iops = now ? ios * 1e9 / (double)now : 0;
	return 0;
}

int iolab_model_predict(const struct iolab_disk_model *m, unsigned ios, uint64_t seed,
			struct iolab_model_prediction *p, struct iolab_err *err)
{
	memset(p, 0, sizeof(*p));
	if (m->ssd)
		return iolab_errf(err, EINVAL, "model '%s' is an SSD: no seek, rotation or zones to check",
				  m->name);
	p->capacity_bytes = (double)m->blocks * m->block_bytes;
	p->seek_track_ms = iolab_model_seek_ns(m, 1, false) / 1e6;
	p->seek_third_ms = iolab_model_seek_ns(m, (uint32_t)((m->cylinders - 1) / 3.0 + 0.5), false) / 1e6;
	p->seek_random_ms = iolab_model_random_seek_ns(m) / 1e6;
	p->seek_full_ms = m->cylinders > 1 ? iolab_model_seek_ns(m, m->cylinders - 1, false) / 1e6 : 0;
	p->rev_ms = m->rev_ns / 1e6;
	p->latency_ms = p->rev_ms / 2;
	const struct iolab_zone *outer = &m->zone[0], *inner = &m->zone[m->nzones - 1];
	p->media_outer_mb_s = media_mb_s(m, outer);
	p->media_inner_mb_s = media_mb_s(m, inner);
	p->sustained_outer_mb_s = sustained_mb_s(m, outer);
	p->sustained_inner_mb_s = sustained_mb_s(m, inner);
	return random_reads(m, ios, seed, p, err);
}
