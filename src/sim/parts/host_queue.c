/* host_queue.c: the host's queue in front of a simulated device and its policies (host_queue.h).
 * The held requests stay in arrival order in one array; a policy picks an index. A host holds at
 * most the workload's queue depth, so a linear pick is cheap next to a drive's service. */
#include <errno.h>
#include <stdlib.h>
#include <string.h>

#include "iolab/host_queue.h"

#define DEADLINE_FIFO_BATCH 16
#define DEADLINE_WRITES_STARVED 2
#define DEADLINE_READ_EXPIRE_NS 500000000ull
#define DEADLINE_WRITE_EXPIRE_NS 5000000000ull

static const char *const names[IOLAB_HOST_NSCHED] = {"none", "cscan", "deadline"};

const char *iolab_host_sched_name(enum iolab_host_sched s)
{
	return s < IOLAB_HOST_NSCHED ? names[s] : "?";
}

int iolab_host_sched_parse(const char *field, const char *name, enum iolab_host_sched *out,
			   struct iolab_err *err)
{
	for (unsigned i = 0; i < IOLAB_HOST_NSCHED; i++)
		if (!strcmp(name, names[i])) {
			*out = (enum iolab_host_sched)i;
			return 0;
		}
	return iolab_errf(err, EINVAL, "%s: '%s' is not a host scheduler (none, cscan or deadline)",
			  field, name);
}

int iolab_hostq_init(struct iolab_host_queue *q, enum iolab_host_sched sched, unsigned cap)
{
	memset(q, 0, sizeof(*q));
	q->sched = sched;
	q->cap = cap;
	q->req = calloc(cap ? cap : 1, sizeof(*q->req));
	return q->req ? 0 : -ENOMEM;
}

void iolab_hostq_free(struct iolab_host_queue *q)
{
	free(q->req);
	memset(q, 0, sizeof(*q));
}

int iolab_hostq_push(struct iolab_host_queue *q, struct iolab_disk_req *r)
{
	if (q->n == q->cap) {
		unsigned cap = q->cap ? q->cap * 2 : 16;
		struct iolab_disk_req **req = realloc(q->req, cap * sizeof(*req));
		if (!req)
			return -ENOMEM;
		q->req = req;
		q->cap = cap;
	}
	q->req[q->n++] = r;
	return 0;
}

/* The held request with the lowest address at or after pos, among writes or reads only when
 * dir is 0 or 1 (-1: all); -1 if there is none. Ties go to the earlier arrival. */
static int next_from(const struct iolab_host_queue *q, uint64_t pos, int dir)
{
	int best = -1;
	for (unsigned i = 0; i < q->n; i++) {
		const struct iolab_disk_req *r = q->req[i];
		if ((dir >= 0 && r->write != dir) || r->lbn < pos)
			continue;
		if (best < 0 || r->lbn < q->req[best]->lbn)
			best = (int)i;
	}
	return best;
}

/* The oldest held request of direction dir, or -1. */
static int oldest(const struct iolab_host_queue *q, bool dir)
{
	for (unsigned i = 0; i < q->n; i++)
		if (q->req[i]->write == dir)
			return (int)i;
	return -1;
}

static int pick_cscan(struct iolab_host_queue *q)
{
	int i = next_from(q, q->pos, -1);
	return i >= 0 ? i : next_from(q, 0, -1); /* wrap: a new sweep from the lowest address */
}

static int pick_deadline(struct iolab_host_queue *q, uint64_t now)
{
	if (q->batch && q->batch < DEADLINE_FIFO_BATCH) {
		int i = next_from(q, q->pos, q->last_write);
		if (i >= 0) {
			q->batch++;
			return i;
		}
	}
	int r = oldest(q, false), w = oldest(q, true);
	bool write = r < 0 || (w >= 0 && q->starved >= DEADLINE_WRITES_STARVED);
	if (write)
		q->starved = 0;
	else if (w >= 0)
		q->starved++;
	int first = write ? w : r;
	uint64_t expire = write ? DEADLINE_WRITE_EXPIRE_NS : DEADLINE_READ_EXPIRE_NS;
	uint64_t since = q->req[first]->t_arrive;
	int i = now >= since && now - since >= expire ? first : next_from(q, q->pos, write);
	q->last_write = write;
	q->batch = 1;
	return i >= 0 ? i : first;
}

struct iolab_disk_req *iolab_hostq_pop(struct iolab_host_queue *q, uint64_t now)
{
	if (!q->n)
		return NULL;
	int i = q->sched == IOLAB_HOST_CSCAN ? pick_cscan(q)
		: q->sched == IOLAB_HOST_DEADLINE ? pick_deadline(q, now)
		: 0;
	struct iolab_disk_req *r = q->req[i];
	memmove(&q->req[i], &q->req[i + 1], (q->n - (unsigned)i - 1) * sizeof(*q->req));
	q->n--;
	q->pos = r->lbn + r->blocks;
	return r;
}
