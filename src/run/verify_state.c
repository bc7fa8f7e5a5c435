/* verify_state.c: what the live verification and the journal's replay share: a block's state
 * word and its transitions (verify_run.h: intent, done, cancel), and the sealing of a journal
 * record with its crc32c. verify.c and verify_journal.c use it; it uses neither. */
#include <isa-l/crc.h>
#include <stdatomic.h>
#include <stddef.h>
#include <stdint.h>

#include "verify_run.h"

uint32_t verify_crc32c(const void *p, size_t n)
{
	return ~crc32_iscsi((unsigned char *)(uintptr_t)p, (int)n, 0xffffffffu);
}

void verify_rec_seal(struct verify_rec *r)
{
	r->crc = verify_crc32c(r, offsetof(struct verify_rec, crc));
}

/* ---- the blocks' words ---- */

uint64_t vst_intent(uint64_t s)
{
	if (!vst_pending(s))
		s &= ~(VST_OVL | VST_DONE); /* a new busy period */
	else
		s |= VST_OVL;
	return s + VST_PEND_ONE;
}

uint64_t vst_done(uint64_t s, uint64_t gen, bool ok)
{
	uint64_t pend = vst_pending(s) - 1;
	/* a write of this busy period failed: what the block holds is not known until a later one */
	bool unknown = !ok || ((s & VST_DONE) && !vst_gen(s));
	uint64_t amb = pend || (s & VST_OVL) ? VST_AMB : 0;
	return (s & VST_OVL) | VST_DONE | amb | (pend << VST_GEN_BITS) | (unknown ? 0 : gen & VST_GEN_MASK);
}

uint64_t vst_cancel(uint64_t s)
{
	s -= VST_PEND_ONE;
	if (!vst_pending(s) && (s & VST_DONE) && (s & VST_OVL))
		s |= VST_AMB;
	return s;
}

void vst_apply(_Atomic uint64_t *w, int kind, uint64_t gen)
{
	uint64_t cur = atomic_load(w), next;
	do
		next = kind == VREC_INTENT ? vst_intent(cur) : kind == VREC_CANCEL ? vst_cancel(cur)
		       : vst_done(cur, gen, kind == VREC_DONE);
	while (!atomic_compare_exchange_weak(w, &cur, next));
}
