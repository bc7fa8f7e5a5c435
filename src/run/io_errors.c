/* io_errors.c: the failures of a point (run.h, struct iolab_errors): each failed I/O counted by
 * its direction and kind, the first kept, their sum across workers, repetitions and ranks, and
 * the words the reports say them in. A short transfer is a failure of its own kind, never taken
 * as a whole I/O and not retried for its remainder: iolab's requests lie inside the target, so
 * the kernel ends one early only where the device (or the file system under it) failed partway
 * (read(2), write(2)); fio's synchronous engines instead reissue the residual (engines/sync.c
 * keeps io_u->resid, backend.c requeues it), which would fold a second request into the first's
 * latency. */
#include <errno.h>
#include <stdio.h>
#include <string.h>

#include "iolab/run.h"

static unsigned kind_of(int err)
{
	switch (err) {
	case 0:
		return IOLAB_ERR_SHORT;
	case EIO:
		return IOLAB_ERR_EIO;
	case ENOSPC:
		return IOLAB_ERR_ENOSPC;
	case ENODEV:
	case ENXIO:
		return IOLAB_ERR_ENODEV;
	default:
		return IOLAB_ERR_OTHER;
	}
}

void iolab_errors_note(struct iolab_errors *e, const struct iolab_io *io, int res, uint64_t t_ns)
{
	struct iolab_io_error f = {.op = IOLAB_ERR_NO_OP, .err = res < 0 ? -res : 0, .t_ns = t_ns};
	if (io) {
		f.op = io->op;
		f.off = io->off;
		f.len = io->len;
		f.done = res > 0 ? (uint32_t)res : 0;
		f.kind = (uint8_t)kind_of(f.err);
		e->by_kind[io->op != IOLAB_OP_READ][f.kind]++;
	} else {
		e->engine++;
	}
	if (!e->has_first) {
		e->first = f;
		e->has_first = true;
	}
}

void iolab_errors_add(struct iolab_errors *a, const struct iolab_errors *b)
{
	for (unsigned op = 0; op < 2; op++)
		for (unsigned k = 0; k < IOLAB_ERR_KINDS; k++)
			a->by_kind[op][k] += b->by_kind[op][k];
	a->engine += b->engine;
	a->gave_up |= b->gave_up;
	if (b->has_first && (!a->has_first || b->first.t_ns < a->first.t_ns)) {
		a->first = b->first;
		a->has_first = true;
	}
}

uint64_t iolab_errors_count(const struct iolab_errors *e)
{
	uint64_t n = e->engine;
	for (unsigned op = 0; op < 2; op++)
		for (unsigned k = 0; k < IOLAB_ERR_KINDS; k++)
			n += e->by_kind[op][k];
	return n;
}

const char *iolab_error_key(unsigned op, unsigned kind)
{
	static const char *const key[2][IOLAB_ERR_KINDS] = {
		{"short_read", "eio_read", "enospc_read", "enodev_read", "other_read"},
		{"short_write", "eio_write", "enospc_write", "enodev_write", "other_write"},
	};
	return op < 2 && kind < IOLAB_ERR_KINDS ? key[op][kind] : "engine";
}

void iolab_errors_describe(const struct iolab_errors *e, char *buf, size_t n)
{
	static const char *const what[IOLAB_ERR_KINDS] = {NULL, "EIO", "ENOSPC", "ENODEV", "other"};
	static const char *const way[2] = {"read", "write"};
	size_t len = 0;
	*buf = 0;
	for (unsigned op = 0; op < 2; op++)
		for (unsigned k = 0; k < IOLAB_ERR_KINDS && len < n; k++) {
			uint64_t c = e->by_kind[op][k];
			if (!c)
				continue;
			const char *sep = len ? ", " : "";
			if (k == IOLAB_ERR_SHORT)
				len += (size_t)snprintf(buf + len, n - len, "%s%llu short %s%s", sep,
							(unsigned long long)c, way[op], c == 1 ? "" : "s");
			else
				len += (size_t)snprintf(buf + len, n - len, "%s%llu %s (%s)", sep,
							(unsigned long long)c, what[k], way[op]);
		}
	if (e->engine && len < n)
		snprintf(buf + len, n - len, "%s%llu engine failure%s", len ? ", " : "",
			 (unsigned long long)e->engine, e->engine == 1 ? "" : "s");
}

void iolab_error_describe(const struct iolab_io_error *f, char *buf, size_t n)
{
	const char *name = f->err ? strerrorname_np(f->err) : NULL;
	char cause[160];
	if (f->err)
		snprintf(cause, sizeof(cause), "%s (%s)", strerror(f->err), name ? name : "?");
	else
		snprintf(cause, sizeof(cause), "short: %u of its bytes moved", f->done);
	if (f->op == IOLAB_ERR_NO_OP)
		snprintf(buf, n, "the engine failed: %s", cause);
	else
		snprintf(buf, n, "a %s of %u bytes at offset %llu: %s", f->op ? "write" : "read", f->len,
			 (unsigned long long)f->off, cause);
}
