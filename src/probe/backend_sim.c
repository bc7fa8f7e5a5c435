/* backend_sim.c: the probe's simulated drive (probe.h): a disk_sim.h drive in virtual time.
 * Requests issued together arrive at the current virtual time; those the drive refuses (QUEUE
 * FULL) wait in arrival order in front of it, as a host without a scheduler keeps them, and go
 * in as soon as it has returned a command. The clock moves to the last completion. */
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>

#include "iolab/disk_sim.h"
#include "iolab/probe.h"

struct sim_priv {
	struct iolab_disk *d;
	uint64_t now;
	struct iolab_disk_req *req;
	unsigned nreq;
};

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
	for (unsigned i = 0; i < n; i++) {
		if (ios[i].lbn >= b->blocks || ios[i].blocks > b->blocks - ios[i].lbn || !ios[i].blocks)
			return iolab_errf(err, EINVAL, "simulated drive: block %llu + %u is outside its "
					  "%llu blocks", (unsigned long long)ios[i].lbn, ios[i].blocks,
					  (unsigned long long)b->blocks);
		s->req[i] = (struct iolab_disk_req){.lbn = ios[i].lbn, .blocks = ios[i].blocks,
						    .write = ios[i].write, .t_arrive = s->now,
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
		((struct iolab_probe_io *)r->user)->t_done = r->t_done;
		if (r->t_done > last)
			last = r->t_done;
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
	((struct sim_priv *)b->priv)->now += ns;
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

void iolab_probe_backend_close(struct iolab_probe_backend *b)
{
	if (b->ops && b->ops->close)
		b->ops->close(b);
	b->ops = NULL;
}
