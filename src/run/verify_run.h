/* verify_run.h: a run's data verification (verify.h), shared by the runner and its workers.
 *
 * The run keeps one 64-bit word per 4 KiB block of the targets' regions: the generation the
 * block holds (0: not known, never written in this run), how many writes to it are in flight,
 * and whether its content is ambiguous (overlapping writes: any of them may have landed). A
 * write bumps the count before it is submitted and sets the generation when it completes; a
 * read takes a snapshot of its blocks' words before it is submitted and checks a block only if
 * the word is the same when it completes, with no write in flight: a block whose state is not
 * known is never compared. The journal (verify_journal.c) records the same transitions, so that
 * --verify-only can rebuild the words of a run that was stopped, even by a crash.
 */
#ifndef IOLAB_VERIFY_RUN_H
#define IOLAB_VERIFY_RUN_H

#include <stdatomic.h>
#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "iolab/engine.h"
#include "iolab/run.h"
#include "iolab/verify.h"

/* A block's word: generation (bits 0-39), writes in flight (40-60), and three flags: OVL, the
 * current busy period (writes in flight without a pause) had more than one write; DONE, a write
 * of this busy period completed; AMB, the content is one of several writes. */
#define VST_GEN_BITS 40
#define VST_GEN_MASK ((UINT64_C(1) << VST_GEN_BITS) - 1)
#define VST_PEND_ONE (UINT64_C(1) << VST_GEN_BITS)
#define VST_PEND_MASK (((UINT64_C(1) << 21) - 1) << VST_GEN_BITS)
#define VST_OVL (UINT64_C(1) << 61)
#define VST_DONE (UINT64_C(1) << 62)
#define VST_AMB (UINT64_C(1) << 63)

static inline uint64_t vst_gen(uint64_t s)
{
	return s & VST_GEN_MASK;
}

static inline uint64_t vst_pending(uint64_t s)
{
	return (s & VST_PEND_MASK) >> VST_GEN_BITS;
}

/* The transitions (verify_state.c), the same for the live run and the journal's replay. */
uint64_t vst_intent(uint64_t s);                    /* a write is about to be submitted */
uint64_t vst_done(uint64_t s, uint64_t gen, bool ok); /* it completed (ok: in full) */
uint64_t vst_cancel(uint64_t s);                    /* it was not submitted after all */
/* Applies the transition of a journal record's kind (enum verify_rec_kind) to a word that
 * other workers may change too. */
void vst_apply(_Atomic uint64_t *w, int kind, uint64_t gen);

/* A write that the journal shows in flight at its end (--verify-only after a crash). */
struct verify_open {
	uint64_t block, gen;
	uint32_t nblocks;
};

struct verify_journal;

struct verify_run {
	unsigned algo;        /* enum iolab_verify_algo (a write run), 0 for --verify-only */
	bool only;            /* --verify-only: reads back a target written earlier */
	bool known;           /* the words say what blocks hold (a write run, or a journal) */
	uint64_t run_id;
	_Atomic uint64_t gen; /* the last generation handed out */
	unsigned ntargets;
	struct iolab_region region[IOLAB_TARGETS_MAX];
	uint64_t base[IOLAB_TARGETS_MAX]; /* index of each target's first block */
	uint64_t nblocks;
	_Atomic uint64_t *state;
	struct verify_journal *journal; /* a write run's journal, or NULL */
	unsigned nopen;       /* --verify-only with a journal: its writes in flight at its end */
	struct verify_open *open;
	uint64_t journal_torn; /* bytes at the journal's end that are not whole records */
};

/* Bytes of state a run over these regions keeps (for --mem-limit). */
uint64_t verify_state_bytes(const struct iolab_region *reg, unsigned n);

/* Checks what verification asks of c over the regions; returns 0 or -EINVAL (err says why). */
int verify_check_config(const struct iolab_config *c, const struct iolab_spec *spec,
			const struct iolab_region *reg, unsigned n, struct iolab_err *err);

/* Refuses --verify-journal without --verify or --verify-only, and with --verify-only the options
 * that do not apply to its one sequential read of the region; returns 0 or -EINVAL. */
int verify_check_options(const struct iolab_config *c, struct iolab_err *err);
/* The bytes of that read: the regions' lengths. */
uint64_t verify_only_bytes(const struct iolab_region *reg, unsigned n);
/* A point's verification summary as warnings: mismatches, nothing checked, a torn journal
 * (vr: the run's, NULL without verification). */
void verify_warn(const struct verify_run *vr, struct iolab_point *p);

/* Sets up verification of c over the regions (paths: the targets, for the journal): the block
 * words, a new journal (a write run with --verify-journal) or the one read back
 * (--verify-only). Returns 0 or -errno. */
int verify_run_open(struct verify_run *vr, const struct iolab_config *c, const struct iolab_region *reg,
		    unsigned n, struct iolab_err *err);
/* Finishes: the journal synced and closed (an error writing it fails the run). */
int verify_run_close(struct verify_run *vr, struct iolab_err *err);

/* A worker's part: its slots' snapshots, its journal records not yet written, its counts. */
struct verify_worker {
	struct verify_run *vr;
	unsigned per_slot;   /* the most blocks one I/O covers */
	uint64_t *snap;      /* per slot, per block: the word when the I/O was issued */
	struct verify_rec *jbuf;
	unsigned jn, jcap;
	bool jintent;        /* jbuf holds an intent: write it durably before the submit */
	struct iolab_verify_result res;
};

int verify_worker_init(struct verify_worker *vw, struct verify_run *vr, unsigned qd, size_t buf_size);
/* Writes what is left of the worker's journal records; returns 0 or -errno. */
int verify_worker_end(struct verify_worker *vw);
void verify_worker_free(struct verify_worker *vw);

/* Before io is submitted: a write gets its generation, its headers and checksums, and its
 * blocks' words their intent; a read a snapshot of its blocks' words. */
void verify_issue(struct verify_worker *vw, struct iolab_io *io);
/* Before a batch is submitted: the journal holds its writes' intents durably. 0 or -errno. */
int verify_commit(struct verify_worker *vw);
/* io was issued but not submitted after all. */
void verify_unissue(struct verify_worker *vw, struct iolab_io *io);
/* io completed: a write's blocks take its generation, a read's blocks are checked. Returns the
 * mismatches found in it. */
unsigned verify_complete(struct verify_worker *vw, struct iolab_io *io);

/* Adds b's counts (and kept mismatches, while there is room) to a. */
void verify_result_add(struct iolab_verify_result *a, const struct iolab_verify_result *b);

/* The journal (verify_journal.c). */
struct verify_rec;
int verify_journal_create(struct verify_run *vr, const char *path, struct iolab_err *err);
int verify_journal_load(struct verify_run *vr, const char *path, struct iolab_err *err);
/* Appends n records; with sync, returns only once they are on stable storage. 0 or -errno. */
int verify_journal_append(struct verify_journal *j, const struct verify_rec *r, unsigned n, bool sync);
int verify_journal_close(struct verify_journal *j, struct iolab_err *err);

enum verify_rec_kind { VREC_INTENT = 1, VREC_DONE, VREC_FAILED, VREC_CANCEL };

/* One journal record, 32 bytes: kind and generation of a write and its blocks. */
struct verify_rec {
	uint32_t kind;    /* enum verify_rec_kind */
	uint32_t nblocks;
	uint64_t block;   /* index of its first block */
	uint64_t gen;
	uint32_t pad;
	uint32_t crc;     /* crc32c of the 28 bytes before it */
};

void verify_rec_seal(struct verify_rec *r);
/* crc32c (Castagnoli, as iSCSI) of n bytes. */
uint32_t verify_crc32c(const void *p, size_t n);

#endif
