/* verify.c: data verification of a run (verify.h, verify_run.h): the checksums, the headers
 * stamped into written blocks, and the checks of blocks read back (the blocks' words and
 * their transitions: verify_state.c). The scheme follows fio's verify (a header with magic, offset, length and a
 * checksum in every written block; fio HOWTO "verify", verify.c) and vdbench's data validation
 * (a key per block that tells which write it must hold, so that a lost write is found).
 *
 * Checksums come from libraries: crc32c from Intel's ISA-L (crc32_iscsi, SSE4.2/PCLMUL where the
 * CPU has them), xxh64 from libxxhash.
 */
#include <errno.h>
#include <inttypes.h>
#include <isa-l/crc.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/random.h>
#include <time.h>
#include <unistd.h>
#define XXH_STATIC_LINKING_ONLY /* XXH64_state_t on the stack */
#include <xxhash.h>

#include "iolab/cluster.h"
#include "verify_run.h"

const char *iolab_verify_algo_name(unsigned algo)
{
	return algo == IOLAB_VERIFY_CRC32C ? "crc32c" : algo == IOLAB_VERIFY_XXH64 ? "xxh64" : "none";
}

int iolab_verify_algo_parse(const char *field, const char *s, unsigned *algo, struct iolab_err *err)
{
	for (unsigned a = IOLAB_VERIFY_CRC32C; a <= IOLAB_VERIFY_XXH64; a++)
		if (!strcmp(s, iolab_verify_algo_name(a))) {
			*algo = a;
			return 0;
		}
	return iolab_errf(err, EINVAL, "%s: '%s' is not crc32c or xxh64", field, s);
}

const char *iolab_verify_why_name(unsigned why)
{
	static const char *const name[] = {"?", "no-header", "offset", "run", "generation", "checksum",
					   "header"};
	return why < sizeof(name) / sizeof(name[0]) ? name[why] : "?";
}

void iolab_verify_mismatch_text(const struct iolab_verify_mismatch *m, char *buf, size_t n)
{
	const struct iolab_verify_hdr *e = &m->expected, *f = &m->found;
	char run[40] = "any", gen[32] = "any";
	if (e->run_id)
		snprintf(run, sizeof(run), "0x%016" PRIx64, e->run_id);
	if (e->gen)
		snprintf(gen, sizeof(gen), "%" PRIu64, e->gen);
	int k = snprintf(buf, n, "byte %" PRIu64 ": %s: expected magic 0x%016" PRIx64 ", offset %" PRIu64
			 ", run %s, gen %s; found ", e->offset, iolab_verify_why_name(m->why), e->magic,
			 e->offset, run, gen);
	if (k > 0 && (size_t)k < n && f->magic != IOLAB_VERIFY_MAGIC)
		k += snprintf(buf + k, n - (size_t)k, "no verify header (its first 8 bytes: 0x%016" PRIx64
			      ")", f->magic);
	else if (k > 0 && (size_t)k < n)
		k += snprintf(buf + k, n - (size_t)k, "magic 0x%016" PRIx64 ", offset %" PRIu64 ", run "
			      "0x%016" PRIx64 ", gen %" PRIu64 " (from a %" PRIu32 "-byte write at byte %"
			      PRIu64 ")", f->magic, f->offset, f->run_id, f->gen, f->io_len, f->io_offset);
	if (k > 0 && (size_t)k < n && e->checksum)
		snprintf(buf + k, n - (size_t)k, "; %s stored 0x%" PRIx64 ", computed 0x%" PRIx64,
			 iolab_verify_algo_name(f->algo), f->checksum, e->checksum);
}

static uint32_t crc32c(const void *p, size_t n, uint32_t crc)
{
	return crc32_iscsi((unsigned char *)(uintptr_t)p, (int)n, crc);
}

uint64_t iolab_verify_sum(unsigned algo, const void *block)
{
	static const uint64_t zero = 0;
	const size_t at = offsetof(struct iolab_verify_hdr, checksum), after = at + sizeof(zero);
	const char *b = block;
	if (algo == IOLAB_VERIFY_CRC32C) {
		uint32_t c = crc32c(b, at, 0xffffffffu);
		c = crc32c(&zero, sizeof(zero), c);
		return ~crc32c(b + after, IOLAB_VERIFY_BLOCK - after, c);
	}
	XXH64_state_t st;
	XXH64_reset(&st, 0);
	XXH64_update(&st, b, at);
	XXH64_update(&st, &zero, sizeof(zero));
	XXH64_update(&st, b + after, IOLAB_VERIFY_BLOCK - after);
	return XXH64_digest(&st);
}

/* ---- the run ---- */

uint64_t verify_state_bytes(const struct iolab_region *reg, unsigned n)
{
	uint64_t blocks = 0;
	for (unsigned i = 0; i < n; i++)
		blocks += reg[i].len / IOLAB_VERIFY_BLOCK;
	return blocks * sizeof(uint64_t);
}

int verify_check_config(const struct iolab_config *c, const struct iolab_spec *spec,
			const struct iolab_region *reg, unsigned n, struct iolab_err *err)
{
	const char *opt = c->verify_only ? "--verify-only" : "--verify";
	if (c->replay)
		return iolab_errf(err, EINVAL, "%s: not with a replay (a trace's requests are not aligned "
				  "to verify blocks)", opt);
	if (c->engine->flags & (IOLAB_ENGINE_NO_IO | IOLAB_ENGINE_VIRTUAL))
		return iolab_errf(err, EINVAL, "%s: engine '%s' stores no data to verify", opt,
				  c->engine->name);
	if (iolab_cluster_active() && !c->split)
		return iolab_errf(err, EINVAL, "%s: across MPI ranks each rank needs its own slice of the "
				  "region (--split): ranks writing the same blocks cannot know what they hold",
				  opt);
	for (unsigned i = 0; i < spec->nlines; i++) {
		const struct iolab_spec_line *l = &spec->line[i];
		uint64_t align = l->align ? l->align : l->size;
		if (l->size % IOLAB_VERIFY_BLOCK || align % IOLAB_VERIFY_BLOCK)
			return iolab_errf(err, EINVAL, "%s: transfer size %" PRIu64 " (alignment %" PRIu64
					  ") of pattern '%s' is not a multiple of the 4 KiB verify block",
					  opt, l->size, align, spec->name);
	}
	for (unsigned t = 0; t < n; t++) {
		if (reg[t].start % IOLAB_VERIFY_BLOCK)
			return iolab_errf(err, EINVAL, "%s: the region starts at byte %" PRIu64 ", not at a "
					  "multiple of the 4 KiB verify block (--offset)", opt, reg[t].start);
		/* --verify-only reads each region once, in order: whole transfers, the same count */
		if (c->verify_only && reg[t].len % spec->line[0].size)
			return iolab_errf(err, EINVAL, "%s: the region (%" PRIu64 " bytes) is not a multiple "
					  "of --bs %" PRIu64 ": its last blocks would not be read", opt,
					  reg[t].len, spec->line[0].size);
		if (c->verify_only && reg[t].len != reg[0].len)
			return iolab_errf(err, EINVAL, "%s: the targets' regions differ in length (%" PRIu64
					  " and %" PRIu64 " bytes): give --length", opt, reg[0].len, reg[t].len);
	}
	return 0;
}

int verify_check_options(const struct iolab_config *c, struct iolab_err *err)
{
	if (*c->verify_journal && !c->verify && !c->verify_only)
		return iolab_errf(err, EINVAL, "--verify-journal: records or checks what --verify writes: "
				  "give --verify ALGO (or --verify-only)");
	if (!c->verify_only)
		return 0;
	bool workers = false;
	for (unsigned i = 0; i < c->nworkers; i++)
		workers |= c->workers[i] > 1;
	const char *bad = c->npattern ? "pattern" : c->nread ? "read" : workers ? "workers"
			  : c->nclients ? "clients" : c->nrate ? "rate" : c->think_set ? "think"
			  : c->bytes ? "bytes" : c->ramp_ns ? "ramp" : c->repeat > 1 ? "repeat"
			  : c->steady ? "steady-state" : c->precondition ? "precondition"
			  : c->dist.kind != IOLAB_DIST_UNIFORM ? "dist" : NULL;
	if (bad)
		return iolab_errf(err, EINVAL, "--verify-only: --%s does not apply: it reads every block "
				  "of the region once, in order, with one worker", bad);
	if (c->nbs > 1 || c->nqd > 1)
		return iolab_errf(err, EINVAL, "--verify-only: give one --%s, not a list (there is one pass)",
				  c->nbs > 1 ? "bs" : "qd");
	return 0;
}

uint64_t verify_only_bytes(const struct iolab_region *reg, unsigned n)
{
	uint64_t sum = 0;
	for (unsigned t = 0; t < n; t++)
		sum += reg[t].len;
	return sum;
}

void verify_warn(const struct verify_run *vr, struct iolab_point *p)
{
	const struct iolab_verify_result *v = &p->verify;
	if (!vr)
		return;
	if (vr->journal_torn)
		iolab_point_warn(p, "verify: the journal's last %" PRIu64 " bytes are not whole records "
				 "(cut by a crash): ignored", vr->journal_torn);
	if (v->mismatches) {
		const struct iolab_verify_mismatch *m = &v->kept[0];
		iolab_point_warn(p, "verify: %" PRIu64 " block%s did not match (%" PRIu64 " checked): "
				 "the first at byte %" PRIu64 " of target %u (%s)", v->mismatches,
				 v->mismatches == 1 ? "" : "s", v->checked + v->checked_partial + v->mismatches,
				 m->expected.offset, m->target + 1, iolab_verify_why_name(m->why));
	} else if (!v->checked && !v->checked_partial && v->skipped) { /* reads, none checkable */
		iolab_point_warn(p, "verify: no block was checked: %s", v->only
				 ? "none of those read holds what the journal says was written"
				 : "no read found a block this run had written, untouched while it flew");
	}
}

static uint64_t new_run_id(void)
{
	uint64_t id = 0;
	if (getrandom(&id, sizeof(id), 0) != sizeof(id)) {
		struct timespec ts;
		clock_gettime(CLOCK_REALTIME, &ts);
		id = (uint64_t)ts.tv_sec * 1000000000u + (uint64_t)ts.tv_nsec;
		id ^= (uint64_t)getpid() << 32;
	}
	return id ? id : 1;
}

int verify_run_open(struct verify_run *vr, const struct iolab_config *c, const struct iolab_region *reg,
		    unsigned n, struct iolab_err *err)
{
	memset(vr, 0, sizeof(*vr));
	vr->only = c->verify_only;
	vr->algo = c->verify_only ? 0 : c->verify;
	vr->ntargets = n;
	for (unsigned t = 0; t < n; t++) {
		vr->region[t] = reg[t];
		vr->base[t] = vr->nblocks;
		vr->nblocks += reg[t].len / IOLAB_VERIFY_BLOCK;
	}
	atomic_init(&vr->gen, 0);
	vr->run_id = new_run_id();
	vr->known = !vr->only || *c->verify_journal;
	if (vr->known) {
		vr->state = calloc(vr->nblocks ? vr->nblocks : 1, sizeof(*vr->state));
		if (!vr->state)
			return iolab_errf(err, ENOMEM, "--verify: out of memory for the state of %" PRIu64
					  " blocks", vr->nblocks);
	}
	int rc = 0;
	if (*c->verify_journal)
		rc = vr->only ? verify_journal_load(vr, c->verify_journal, err)
		     : verify_journal_create(vr, c->verify_journal, err);
	if (rc) {
		free(vr->state);
		free(vr->open);
		vr->state = NULL;
		vr->open = NULL;
	}
	return rc;
}

int verify_run_close(struct verify_run *vr, struct iolab_err *err)
{
	int rc = vr->journal ? verify_journal_close(vr->journal, err) : 0;
	vr->journal = NULL;
	free(vr->state);
	free(vr->open);
	vr->state = NULL;
	vr->open = NULL;
	return rc;
}

/* ---- a worker's part ---- */

int verify_worker_init(struct verify_worker *vw, struct verify_run *vr, unsigned qd, size_t buf_size)
{
	memset(vw, 0, sizeof(*vw));
	vw->vr = vr;
	vw->res.algo = vr->algo;
	vw->res.only = vr->only;
	vw->res.run_id = vr->run_id;
	vw->per_slot = (unsigned)(buf_size / IOLAB_VERIFY_BLOCK);
	vw->snap = calloc((size_t)qd * vw->per_slot, sizeof(*vw->snap));
	vw->jcap = vr->journal ? 2 * qd + 64 : 0;
	vw->jbuf = vw->jcap ? calloc(vw->jcap, sizeof(*vw->jbuf)) : NULL;
	return vw->snap && (!vw->jcap || vw->jbuf) ? 0 : -ENOMEM;
}

static int journal_flush(struct verify_worker *vw, bool sync)
{
	if (!vw->jn)
		return 0;
	int rc = verify_journal_append(vw->vr->journal, vw->jbuf, vw->jn, sync);
	vw->jn = 0;
	vw->jintent = false;
	return rc;
}

int verify_worker_end(struct verify_worker *vw)
{
	return vw->vr && vw->vr->journal ? journal_flush(vw, false) : 0;
}

void verify_worker_free(struct verify_worker *vw)
{
	free(vw->snap);
	free(vw->jbuf);
	vw->snap = NULL;
	vw->jbuf = NULL;
}

static uint64_t block_of(const struct verify_run *vr, const struct iolab_io *io)
{
	return vr->base[io->target] + (io->off - vr->region[io->target].start) / IOLAB_VERIFY_BLOCK;
}

/* Queues a journal record; the buffer is written when it fills (a full buffer of completions
 * needs no sync: a lost completion record only widens what the block may hold). */
static void journal_note(struct verify_worker *vw, int kind, const struct iolab_io *io, uint64_t gen)
{
	if (!vw->vr->journal)
		return;
	if (vw->jn == vw->jcap) /* an error is kept by the journal: the next commit reports it */
		(void)journal_flush(vw, vw->jintent);
	struct verify_rec *r = &vw->jbuf[vw->jn++];
	*r = (struct verify_rec){.kind = (uint32_t)kind, .nblocks = io->len / IOLAB_VERIFY_BLOCK,
				 .block = block_of(vw->vr, io), .gen = gen};
	verify_rec_seal(r);
	vw->jintent |= kind == VREC_INTENT;
}

static void stamp(const struct verify_run *vr, struct iolab_io *io, uint64_t gen)
{
	for (uint32_t k = 0; k < io->len / IOLAB_VERIFY_BLOCK; k++) {
		char *b = (char *)io->buf + (size_t)k * IOLAB_VERIFY_BLOCK;
		struct iolab_verify_hdr h = {
			.magic = IOLAB_VERIFY_MAGIC, .offset = io->off + (uint64_t)k * IOLAB_VERIFY_BLOCK,
			.run_id = vr->run_id, .gen = gen, .io_offset = io->off, .io_len = io->len,
			.len = IOLAB_VERIFY_BLOCK, .algo = (uint8_t)vr->algo,
		};
		memcpy(b, &h, sizeof(h));
		h.checksum = iolab_verify_sum(vr->algo, b);
		memcpy(b + offsetof(struct iolab_verify_hdr, checksum), &h.checksum, sizeof(h.checksum));
	}
}

/* The generation a write carries: kept in the slot's first snapshot word while it flies. */
void verify_issue(struct verify_worker *vw, struct iolab_io *io)
{
	struct verify_run *vr = vw->vr;
	uint64_t b = block_of(vr, io), *snap = vw->snap + (size_t)io->slot * vw->per_slot;
	uint32_t n = io->len / IOLAB_VERIFY_BLOCK;
	if (io->op == IOLAB_OP_READ) {
		for (uint32_t k = 0; vr->known && !vr->only && k < n; k++)
			snap[k] = atomic_load(&vr->state[b + k]);
		return;
	}
	uint64_t gen = (atomic_fetch_add(&vr->gen, 1) + 1) & VST_GEN_MASK;
	snap[0] = gen;
	stamp(vr, io, gen);
	journal_note(vw, VREC_INTENT, io, gen);
	for (uint32_t k = 0; k < n; k++)
		vst_apply(&vr->state[b + k], VREC_INTENT, gen);
	vw->res.written += n;
}

int verify_commit(struct verify_worker *vw)
{
	return vw->jintent ? journal_flush(vw, true) : 0;
}

void verify_unissue(struct verify_worker *vw, struct iolab_io *io)
{
	if (io->op != IOLAB_OP_WRITE)
		return;
	struct verify_run *vr = vw->vr;
	uint64_t b = block_of(vr, io);
	uint32_t n = io->len / IOLAB_VERIFY_BLOCK;
	journal_note(vw, VREC_CANCEL, io, vw->snap[(size_t)io->slot * vw->per_slot]);
	for (uint32_t k = 0; k < n; k++)
		vst_apply(&vr->state[b + k], VREC_CANCEL, 0);
	vw->res.written -= n;
}

/* Records a mismatch of the block at (t, off) read into blk. */
static void mismatch(struct verify_worker *vw, unsigned why, unsigned t, uint64_t off, uint64_t run_id,
		     uint64_t gen, const void *blk)
{
	struct iolab_verify_result *r = &vw->res;
	r->mismatches++;
	if (r->nkept >= IOLAB_VERIFY_KEEP)
		return;
	struct iolab_verify_mismatch *m = &r->kept[r->nkept++];
	memset(m, 0, sizeof(*m));
	m->why = why;
	m->target = t;
	memcpy(&m->found, blk, sizeof(m->found));
	m->expected = (struct iolab_verify_hdr){.magic = IOLAB_VERIFY_MAGIC, .offset = off,
						.run_id = run_id, .gen = gen, .len = IOLAB_VERIFY_BLOCK,
						.algo = m->found.algo};
	if (m->found.algo == IOLAB_VERIFY_CRC32C || m->found.algo == IOLAB_VERIFY_XXH64)
		m->expected.checksum = iolab_verify_sum(m->found.algo, blk);
}

/* The acceptable generations of a block the journal shows written in flight at its end: the
 * one it held before, or any of the writes in flight. */
static bool open_gen_ok(const struct verify_run *vr, uint64_t block, uint64_t held, uint64_t gen)
{
	if (gen == held && held)
		return true;
	for (unsigned i = 0; i < vr->nopen; i++) {
		const struct verify_open *o = &vr->open[i];
		if (o->gen == gen && block >= o->block && block - o->block < o->nblocks)
			return true;
	}
	return false;
}

/* Checks the block at (t, off), read into blk, whose word is s. Returns true for a mismatch. */
static bool check_block(struct verify_worker *vw, unsigned t, uint64_t off, uint64_t block,
			const void *blk, uint64_t s)
{
	struct verify_run *vr = vw->vr;
	struct iolab_verify_hdr h;
	memcpy(&h, blk, sizeof(h));
	bool journal_open = vr->only && vst_pending(s); /* a write in flight at the journal's end */
	uint64_t want_run = vr->known ? vr->run_id : 0, want_gen = journal_open ? 0 : vst_gen(s);
	if (vr->known && !vst_gen(s) && !journal_open) {
		vw->res.skipped++; /* never written in the run */
		return false;
	}
	unsigned why = 0;
	if (h.magic != IOLAB_VERIFY_MAGIC)
		why = IOLAB_VERIFY_BAD_MAGIC;
	else if (h.offset != off)
		why = IOLAB_VERIFY_BAD_OFFSET;
	else if (want_run && h.run_id != want_run)
		why = IOLAB_VERIFY_BAD_RUN;
	else if (h.len != IOLAB_VERIFY_BLOCK || (h.algo != IOLAB_VERIFY_CRC32C && h.algo != IOLAB_VERIFY_XXH64))
		why = IOLAB_VERIFY_BAD_HDR;
	if (journal_open && why && why != IOLAB_VERIFY_BAD_HDR && !vst_gen(s)) {
		vw->res.skipped++; /* its first write was in flight: it may still hold what it held */
		return false;
	}
	if (!why && (s & VST_AMB)) { /* overlapping writes: any of them, perhaps torn between them */
		vw->res.checked_partial++;
		return false;
	}
	if (!why && journal_open && !open_gen_ok(vr, block, vst_gen(s), h.gen))
		why = IOLAB_VERIFY_BAD_GEN;
	else if (!why && want_gen && h.gen != want_gen)
		why = IOLAB_VERIFY_BAD_GEN;
	if (!why && iolab_verify_sum(h.algo, blk) != h.checksum)
		why = IOLAB_VERIFY_BAD_SUM;
	if (why) {
		mismatch(vw, why, t, off, want_run, want_gen, blk);
		return true;
	}
	if (want_gen || journal_open)
		vw->res.checked++;
	else
		vw->res.checked_partial++;
	return false;
}

unsigned verify_complete(struct verify_worker *vw, struct iolab_io *io)
{
	struct verify_run *vr = vw->vr;
	uint64_t b = block_of(vr, io), *snap = vw->snap + (size_t)io->slot * vw->per_slot;
	uint32_t n = io->len / IOLAB_VERIFY_BLOCK;
	bool ok = io->res == (int32_t)io->len;
	if (io->op == IOLAB_OP_WRITE) {
		journal_note(vw, ok ? VREC_DONE : VREC_FAILED, io, snap[0]);
		for (uint32_t k = 0; k < n; k++)
			vst_apply(&vr->state[b + k], ok ? VREC_DONE : VREC_FAILED, snap[0]);
		return 0;
	}
	if (!ok)
		return 0;
	unsigned bad = 0;
	for (uint32_t k = 0; k < n; k++) {
		const char *blk = (const char *)io->buf + (size_t)k * IOLAB_VERIFY_BLOCK;
		uint64_t off = io->off + (uint64_t)k * IOLAB_VERIFY_BLOCK, s = 0;
		if (vr->known) {
			s = atomic_load(&vr->state[b + k]);
			/* a live run compares only a block no write touched while the read flew */
			if (!vr->only && (s != snap[k] || vst_pending(s))) {
				vw->res.skipped++;
				continue;
			}
		}
		bad += check_block(vw, io->target, off, b + k, blk, s);
	}
	return bad;
}

void verify_result_add(struct iolab_verify_result *a, const struct iolab_verify_result *b)
{
	if (!b->algo && !b->only)
		return;
	a->algo = b->algo;
	a->only = b->only;
	a->run_id = b->run_id;
	a->written += b->written;
	a->checked += b->checked;
	a->checked_partial += b->checked_partial;
	a->skipped += b->skipped;
	a->mismatches += b->mismatches;
	for (unsigned i = 0; i < b->nkept && a->nkept < IOLAB_VERIFY_KEEP; i++)
		a->kept[a->nkept++] = b->kept[i];
}
