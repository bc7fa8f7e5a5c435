/* verify_journal.c: the journal of a --verify run (--verify-journal FILE), after vdbench's data
 * validation journal (-j, recovered with -jr): which blocks hold which generation, kept so that
 * a later --verify-only can check a target after iolab, or the host, stopped.
 *
 * The file: a header (the run, its checksum algorithm and regions), then 32-byte records, each
 * sealed with a crc32c: a write's intent (made durable with fdatasync before the write is
 * submitted, as vdbench writes its journal record before the write), its completion, failure or
 * cancellation (written as they come, without a sync: a completion lost in a crash leaves the
 * write in flight, and a block whose write was in flight may hold either generation). Loading
 * replays the records through the same transitions as the run (vst_*), stops at a torn record
 * (a crash during an append) and keeps the writes still in flight at the end.
 */
#include <errno.h>
#include <fcntl.h>
#include <inttypes.h>
#include <pthread.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "iolab/outfile.h"
#include "verify_run.h"

#define JOURNAL_MAGIC UINT64_C(0x314a5662616c6f69) /* "iolabVJ1" */
#define JOURNAL_VERSION 1

struct journal_head {
	uint64_t magic;
	uint32_t version;
	uint32_t ntargets;
	uint64_t run_id;
	uint32_t algo;
	uint32_t block;
	struct iolab_region region[IOLAB_TARGETS_MAX];
	uint32_t pad;
	uint32_t crc; /* crc32c of the bytes before it */
};
_Static_assert(sizeof(struct verify_rec) == 32, "journal records are 32 bytes");

struct verify_journal {
	int fd;
	pthread_mutex_t lock;
	int error; /* the first write error (-errno), kept: every later append returns it */
	char path[4096];
};

/* Writes n bytes at the end of the journal; returns 0 or -errno. */
static int write_all(int fd, const void *p, size_t n)
{
	const char *b = p;
	while (n) {
		ssize_t w = write(fd, b, n);
		if (w < 0 && errno == EINTR)
			continue;
		if (w <= 0)
			return -(w < 0 ? errno : EIO);
		b += w;
		n -= (size_t)w;
	}
	return 0;
}

int verify_journal_create(struct verify_run *vr, const char *path, struct iolab_err *err)
{
	struct verify_journal *j = calloc(1, sizeof(*j));
	if (!j)
		return iolab_errf(err, ENOMEM, "--verify-journal: out of memory");
	snprintf(j->path, sizeof(j->path), "%s", path);
	pthread_mutex_init(&j->lock, NULL);
	j->fd = iolab_out_open_in_place("--verify-journal", path, err);
	if (j->fd < 0) {
		int rc = j->fd;
		pthread_mutex_destroy(&j->lock);
		free(j);
		return rc;
	}
	struct journal_head h = {.magic = JOURNAL_MAGIC, .version = JOURNAL_VERSION,
				 .ntargets = vr->ntargets, .run_id = vr->run_id, .algo = vr->algo,
				 .block = IOLAB_VERIFY_BLOCK};
	memcpy(h.region, vr->region, vr->ntargets * sizeof(h.region[0]));
	h.crc = verify_crc32c(&h, offsetof(struct journal_head, crc));
	vr->journal = j;
	int rc = write_all(j->fd, &h, sizeof(h));
	if (!rc && fdatasync(j->fd))
		rc = -errno;
	if (rc) {
		struct iolab_err ignore;
		iolab_errf(err, -rc, "--verify-journal %s: writing: %s", path, strerror(-rc));
		verify_journal_close(j, &ignore);
		vr->journal = NULL;
	}
	return rc;
}

int verify_journal_append(struct verify_journal *j, const struct verify_rec *r, unsigned n, bool sync)
{
	pthread_mutex_lock(&j->lock);
	int rc = j->error;
	if (!rc && n)
		rc = j->error = write_all(j->fd, r, n * sizeof(*r));
	pthread_mutex_unlock(&j->lock);
	if (!rc && sync && fdatasync(j->fd)) {
		rc = -errno;
		pthread_mutex_lock(&j->lock);
		if (!j->error)
			j->error = rc;
		pthread_mutex_unlock(&j->lock);
	}
	return rc;
}

int verify_journal_close(struct verify_journal *j, struct iolab_err *err)
{
	int rc = j->error;
	if (!rc && fdatasync(j->fd))
		rc = -errno;
	if (close(j->fd) && !rc)
		rc = -errno;
	if (rc)
		iolab_errf(err, -rc, "--verify-journal %s: write error: %s (the journal is incomplete)",
			   j->path, strerror(-rc));
	pthread_mutex_destroy(&j->lock);
	free(j);
	return rc;
}

/* ---- loading (--verify-only) ---- */

/* Takes the write of generation gen out of the in-flight list; false if it is not there. */
static bool close_open(struct verify_run *vr, uint64_t gen)
{
	for (unsigned i = vr->nopen; i-- > 0;)
		if (vr->open[i].gen == gen) {
			vr->open[i] = vr->open[--vr->nopen];
			return true;
		}
	return false;
}

static int add_open(struct verify_run *vr, const struct verify_rec *r, unsigned *cap)
{
	if (vr->nopen == *cap) {
		unsigned nc = *cap ? 2 * *cap : 256;
		struct verify_open *o = realloc(vr->open, nc * sizeof(*o));
		if (!o)
			return -ENOMEM;
		vr->open = o;
		*cap = nc;
	}
	vr->open[vr->nopen++] = (struct verify_open){.block = r->block, .gen = r->gen,
						     .nblocks = r->nblocks};
	return 0;
}

/* Applies one record; -EINVAL (err says why) for one that does not fit the regions. */
static int replay(struct verify_run *vr, const struct verify_rec *r, uint64_t at, unsigned *cap,
		  const char *path, struct iolab_err *err)
{
	if (r->kind < VREC_INTENT || r->kind > VREC_CANCEL || !r->nblocks || r->block >= vr->nblocks ||
	    r->nblocks > vr->nblocks - r->block || !r->gen)
		return iolab_errf(err, EINVAL, "--verify-journal %s: the record at byte %" PRIu64 " (blocks "
				  "%" PRIu64 "+%u, kind %u) does not fit the region's %" PRIu64 " blocks",
				  path, at, r->block, r->nblocks, r->kind, vr->nblocks);
	if (r->kind == VREC_INTENT) {
		if (add_open(vr, r, cap))
			return iolab_errf(err, ENOMEM, "--verify-journal %s: out of memory", path);
	} else if (!close_open(vr, r->gen)) {
		return iolab_errf(err, EINVAL, "--verify-journal %s: the record at byte %" PRIu64 " ends "
				  "write %" PRIu64 ", which it never started", path, at, r->gen);
	}
	for (uint32_t k = 0; k < r->nblocks; k++)
		vst_apply(&vr->state[r->block + k], (int)r->kind, r->gen);
	return 0;
}

/* Checks the journal's header against the run's regions. */
static int check_head(struct verify_run *vr, const struct journal_head *h, ssize_t got,
		      const char *path, struct iolab_err *err)
{
	if (got != (ssize_t)sizeof(*h) || h->magic != JOURNAL_MAGIC ||
	    h->crc != verify_crc32c(h, offsetof(struct journal_head, crc)))
		return iolab_errf(err, EINVAL, "--verify-journal %s: is not an iolab verify journal "
				  "(no valid header)", path);
	if (h->version != JOURNAL_VERSION || h->block != IOLAB_VERIFY_BLOCK)
		return iolab_errf(err, EINVAL, "--verify-journal %s: version %u, block %u: this iolab "
				  "reads version %u, block %u", path, h->version, h->block,
				  JOURNAL_VERSION, IOLAB_VERIFY_BLOCK);
	if (h->ntargets != vr->ntargets)
		return iolab_errf(err, EINVAL, "--verify-journal %s: was written for %u target(s), this run "
				  "has %u", path, h->ntargets, vr->ntargets);
	for (unsigned t = 0; t < vr->ntargets; t++)
		if (h->region[t].start != vr->region[t].start || h->region[t].len != vr->region[t].len)
			return iolab_errf(err, EINVAL, "--verify-journal %s: target %u's region was %" PRIu64
					  " + %" PRIu64 " bytes, this run's is %" PRIu64 " + %" PRIu64
					  " (give the same --offset and --length)", path, t + 1,
					  h->region[t].start, h->region[t].len, vr->region[t].start,
					  vr->region[t].len);
	vr->run_id = h->run_id;
	vr->algo = h->algo;
	return 0;
}

int verify_journal_load(struct verify_run *vr, const char *path, struct iolab_err *err)
{
	int fd = open(path, O_RDONLY | O_CLOEXEC);
	if (fd < 0)
		return iolab_errf(err, errno, "--verify-journal %s: %s", path, strerror(errno));
	struct journal_head h;
	int rc = check_head(vr, &h, read(fd, &h, sizeof(h)), path, err);
	enum { CHUNK = 4096 };
	struct verify_rec *buf = rc ? NULL : malloc(CHUNK * sizeof(*buf));
	if (!rc && !buf)
		rc = iolab_errf(err, ENOMEM, "--verify-journal %s: out of memory", path);
	uint64_t at = sizeof(h);
	unsigned cap = 0;
	bool torn = false;
	while (!rc && !torn) {
		ssize_t got = read(fd, buf, CHUNK * sizeof(*buf));
		if (got < 0) {
			rc = iolab_errf(err, errno, "--verify-journal %s: %s", path, strerror(errno));
			break;
		}
		size_t n = (size_t)got / sizeof(*buf);
		for (size_t i = 0; i < n && !rc; i++) {
			if (buf[i].crc != verify_crc32c(&buf[i], offsetof(struct verify_rec, crc))) {
				torn = true; /* a record cut by a crash: the journal ends before it */
				break;
			}
			rc = replay(vr, &buf[i], at, &cap, path, err);
			at += sizeof(*buf);
		}
		if (n < CHUNK) /* the end of the file */
			break;
	}
	if (!rc) {
		struct stat st;
		if (fstat(fd, &st) == 0 && (uint64_t)st.st_size > at)
			vr->journal_torn = (uint64_t)st.st_size - at;
	}
	free(buf);
	close(fd);
	return rc;
}
