/* verify.h: data verification of `iolab run --verify`, and the contents of written buffers.
 *
 * With --verify every written I/O is cut into 4 KiB verify blocks, each starting with a header
 * that describes it (struct iolab_verify_hdr: magic, where it belongs, the run, the write's
 * generation, the checksum of the whole block); every read of a block this run wrote is checked
 * against what the run knows the block holds. Mismatches are counted per point and the first
 * few kept with what was expected and what was found (docs/json-schema.md, "verify").
 * --verify-only reads a target back (whole, sequentially) and checks every block, against a
 * journal (--verify-journal) when there is one, else for self-consistency.
 */
#ifndef IOLAB_VERIFY_H
#define IOLAB_VERIFY_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "iolab/error.h"

#define IOLAB_VERIFY_BLOCK 4096u /* the unit of verification, bytes */
#define IOLAB_VERIFY_MAGIC UINT64_C(0x46525662616c6f69) /* the first 8 bytes of a verify block */
#define IOLAB_VERIFY_KEEP 8 /* mismatches a point keeps in full (all are counted) */

enum iolab_verify_algo { IOLAB_VERIFY_NONE = 0, IOLAB_VERIFY_CRC32C = 1, IOLAB_VERIFY_XXH64 = 2 };

/* "none", "crc32c", "xxh64". */
const char *iolab_verify_algo_name(unsigned algo);
/* Parses "crc32c" or "xxh64"; -EINVAL naming field otherwise. */
int iolab_verify_algo_parse(const char *field, const char *s, unsigned *algo, struct iolab_err *err);

/* The first 64 bytes of every verify block, in the host's byte order. The checksum covers the
 * whole 4 KiB block with the checksum field taken as zero. */
struct iolab_verify_hdr {
	uint64_t magic;     /* IOLAB_VERIFY_MAGIC */
	uint64_t offset;    /* the block's byte offset in its target */
	uint64_t run_id;    /* the run that wrote it (random per run) */
	uint64_t gen;       /* the write's generation: 1, 2, ... in the order the run issued them */
	uint64_t io_offset; /* where the write that carried it started (a torn write shows here) */
	uint32_t io_len;    /* and its length */
	uint32_t len;       /* bytes the checksum covers: IOLAB_VERIFY_BLOCK */
	uint8_t algo;       /* enum iolab_verify_algo */
	uint8_t pad[7];
	uint64_t checksum;  /* crc32c (in the low 32 bits) or xxh64 */
};
_Static_assert(sizeof(struct iolab_verify_hdr) == 64, "the verify header is 64 bytes");

/* The checksum of a 4 KiB block (its checksum field taken as zero; the block is not changed). */
uint64_t iolab_verify_sum(unsigned algo, const void *block);

/* What a mismatch is about. */
enum iolab_verify_why {
	IOLAB_VERIFY_BAD_MAGIC = 1, /* no verify header at all */
	IOLAB_VERIFY_BAD_OFFSET,    /* a header of another place (a misdirected write or read) */
	IOLAB_VERIFY_BAD_RUN,       /* a header of another run (a lost write) */
	IOLAB_VERIFY_BAD_GEN,       /* an older or newer generation than the block holds (a lost or
				       misordered write) */
	IOLAB_VERIFY_BAD_SUM,       /* the header is right, the data is not (corruption, a torn
				       write) */
	IOLAB_VERIFY_BAD_HDR,       /* length or checksum algorithm out of range */
};
/* "no-header", "offset", "run", "generation", "checksum", "header". */
const char *iolab_verify_why_name(unsigned why);

/* One mismatch: where, and the header fields expected and found. expected.gen is 0 when more
 * than one generation was acceptable (a block written by overlapping writes: any of the run's);
 * the checksums are the one stored in the block (found.checksum) and the one computed over it
 * (expected.checksum). */
struct iolab_verify_mismatch {
	unsigned why;    /* enum iolab_verify_why */
	unsigned target; /* index of the target */
	struct iolab_verify_hdr expected, found;
};

/* One line about m (without the target): "byte 1052672: checksum: expected ...; found ...". */
void iolab_verify_mismatch_text(const struct iolab_verify_mismatch *m, char *buf, size_t n);

/* A point's verification. */
struct iolab_verify_result {
	unsigned algo;          /* enum iolab_verify_algo; 0: not verified */
	bool only;              /* --verify-only */
	uint64_t run_id;        /* the run's, or the journal's (--verify-only) */
	uint64_t written;       /* verify blocks written (headers and checksums stamped) */
	uint64_t checked;       /* blocks read back and checked in full */
	uint64_t checked_partial; /* blocks checked without a known generation: the header alone
				     (a block last written by overlapping writes), or the header and
				     checksum (--verify-only without a journal) */
	uint64_t skipped;       /* blocks read but not checkable: never written in this run, or a
				   write to them was in flight */
	uint64_t mismatches;
	unsigned nkept;
	struct iolab_verify_mismatch kept[IOLAB_VERIFY_KEEP];
};

#endif
