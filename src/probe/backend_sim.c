/* backend_sim.c: the probe's simulated drive (probe.h): a disk_sim.h drive in virtual time.
 * Requests issued together arrive at the current virtual time; those the drive refuses (QUEUE
 * FULL) wait in arrival order in front of it, as a host without a scheduler keeps them, and go
 * in as soon as it has returned a command. The clock moves to the last completion. With
 * timing noise (iolab_probe_backend_sim_noise, a test aid) the clock is the host's: requests
 * reach the drive half the host overhead after it, and each completion is stamped late by the
 * other half plus a random delay, as a real host's would be; the drive stays exact. */
#include <errno.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>

#include "iolab/disk_sim.h"
#include "iolab/prng.h"
#include "iolab/probe.h"

struct sim_priv {
	struct iolab_disk *d;
	uint64_t now;          /* the host's clock */
	struct iolab_disk_req *req;
	unsigned nreq;
	struct iolab_probe_noise nz;
	bool noisy;
	struct iolab_prng rng;
};

/* The random part of a stamp's lateness: exponential, and now and then a spike. */
static uint64_t late_ns(struct sim_priv *s)
{
	if (!s->noisy)
		return 0;
	double x = -s->nz.mean_ns * log1p(-iolab_prng_unit(&s->rng));
	if (s->nz.spike_p > 0 && iolab_prng_unit(&s->rng) < s->nz.spike_p)
		x += s->nz.spike_ns * (0.5 + iolab_prng_unit(&s->rng));
	return (uint64_t)llround(x);
}

static int sim_io(struct iolab_probe_backend *b, struct iolab_probe_io *ios, unsigned n,
		  struct iolab_err *err)
{
	struct sim_priv *s = b->priv;
	if (n > s->nreq) {
		struct iolab_disk_req *r = realloc(s->req, n * sizeof(*r));
		if (!r)
			return iolab_errf(err, ENOMEM, "simulated drive: out of memory");
		s->req = r;
		s->nreq = n;
	}
	uint64_t half = s->noisy ? (uint64_t)llround(s->nz.host_ns / 2) : 0;
	for (unsigned i = 0; i < n; i++) {
		if (ios[i].lbn >= b->blocks || ios[i].blocks > b->blocks - ios[i].lbn || !ios[i].blocks)
			return iolab_errf(err, EINVAL, "simulated drive: block %llu + %u is outside its "
					  "%llu blocks", (unsigned long long)ios[i].lbn, ios[i].blocks,
					  (unsigned long long)b->blocks);
		s->req[i] = (struct iolab_disk_req){.lbn = ios[i].lbn, .blocks = ios[i].blocks,
						    .write = ios[i].write, .t_arrive = s->now + half,
						    .user = &ios[i]};
	}
	unsigned next = 0, done = 0;
	while (next < n && iolab_disk_submit(s->d, &s->req[next]) == 0)
		next++;
	uint64_t last = s->now;
	while (done < n) {
		struct iolab_disk_req *r = iolab_disk_next(s->d);
		if (!r)
			return iolab_errf(err, EIO, "simulated drive: lost a request");
		uint64_t seen = r->t_done + half + late_ns(s);
		((struct iolab_probe_io *)r->user)->t_done = seen;
		if (seen > last)
			last = seen;
		done++;
		while (next < n && iolab_disk_submit(s->d, &s->req[next]) == 0)
			next++;
	}
	s->now = last;
	return 0;
}

static uint64_t sim_now(struct iolab_probe_backend *b)
{
	return ((struct sim_priv *)b->priv)->now;
}

static void sim_idle(struct iolab_probe_backend *b, uint64_t ns)
{
	struct sim_priv *s = b->priv;
	s->now += ns + (ns ? late_ns(s) : 0);
}

static void sim_close(struct iolab_probe_backend *b)
{
	struct sim_priv *s = b->priv;
	if (!s)
		return;
	iolab_disk_free(s->d);
	free(s->req);
	free(s);
	b->priv = NULL;
}

static const struct iolab_probe_backend_ops sim_ops = {
	.version = IOLAB_PROBE_BACKEND_VERSION,
	.name = "sim",
	.io = sim_io,
	.now = sim_now,
	.idle = sim_idle,
	.close = sim_close,
};

int iolab_probe_backend_sim(struct iolab_probe_backend *b, const struct iolab_disk_model *m,
			    struct iolab_err *err)
{
	if (m->ssd) /* the probe measures what a rotating drive is made of */
		return iolab_errf(err, EINVAL, "model %s is an SSD (device = ssd): the probe measures "
				  "rotating drives", m->name);
	struct sim_priv *s = calloc(1, sizeof(*s));
	if (!s || !(s->d = iolab_disk_new(m))) {
		free(s);
		return iolab_errf(err, ENOMEM, "simulated drive: out of memory");
	}
	*b = (struct iolab_probe_backend){.ops = &sim_ops, .blocks = m->blocks,
					  .block_bytes = m->block_bytes, .can_write = true,
					  .virtual_time = true, .jitter_ns = 200, .priv = s};
	snprintf(b->desc, sizeof(b->desc), "model %s", m->name);
	return 0;
}

int iolab_probe_backend_sim_noise(struct iolab_probe_backend *b, const struct iolab_probe_noise *n,
				  struct iolab_err *err)
{
	if (!b->ops || b->ops != &sim_ops)
		return iolab_errf(err, EINVAL, "timing noise: only a simulated drive takes it");
	if (!(n->host_ns >= 0 && n->mean_ns >= 0 && n->spike_ns >= 0 && n->spike_p >= 0 &&
	      n->spike_p <= 1))
		return iolab_errf(err, EINVAL, "timing noise: host %g ns, mean %g ns, spike %g ns with "
				  "probability %g: each must be >= 0 and the probability <= 1", n->host_ns,
				  n->mean_ns, n->spike_ns, n->spike_p);
	struct sim_priv *s = b->priv;
	s->nz = *n;
	s->noisy = n->host_ns > 0 || n->mean_ns > 0 || (n->spike_ns > 0 && n->spike_p > 0);
	iolab_prng_seed(&s->rng, n->seed ^ 0x6e6f697365ull);
	return 0;
}

void iolab_probe_backend_close(struct iolab_probe_backend *b)
{
	if (b->ops && b->ops->close)
		b->ops->close(b);
	b->ops = NULL;
}
