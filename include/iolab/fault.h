/* fault.h: faults on purpose (--fault). A plan of rules, each a fault and when it strikes, that
 * the fault engine (src/exec/engine_fault.c) applies around a real engine (io_uring, libaio,
 * psync, null): for checking how a program, or iolab itself, handles failing I/O, as fio's
 * error_inject options and null engine are used. Rule syntax (docs/faults.md):
 *
 *   KIND[:read|:write][=VALUE](@N | /N | %P)
 *
 *   eio            the I/O fails with EIO before it reaches the device
 *   enospc         a write fails with ENOSPC (writes only)
 *   short          the I/O is done but reported short: half its bytes, in whole 512-byte sectors
 *   delay=TIME     the I/O completes TIME late
 *   vanish[=eio]   from this I/O on every I/O of the point fails with ENODEV (or EIO): the
 *                  device is gone, as a pulled drive
 *   KIND-read, KIND-write: the same as KIND:read, KIND:write (short-write%1)
 *
 *   @N  the Nth I/O the rule can hit (its direction's, or all), counted from 1 over every worker
 *       of one run of a point
 *   /N  every Nth such I/O
 *   %P  each such I/O with probability P percent, drawn from --seed and the I/O's number, so
 *       that the same seed strikes the same I/Os
 */
#ifndef IOLAB_FAULT_H
#define IOLAB_FAULT_H

#include <stdatomic.h>
#include <stdint.h>

#include "iolab/engine.h"
#include "iolab/error.h"

enum iolab_fault_kind {
	IOLAB_FAULT_EIO,
	IOLAB_FAULT_SHORT,
	IOLAB_FAULT_ENOSPC,
	IOLAB_FAULT_DELAY,
	IOLAB_FAULT_VANISH,
	IOLAB_FAULT_KINDS
};

/* "eio", "short", "enospc", "delay", "vanish" */
const char *iolab_fault_kind_name(unsigned kind);

enum iolab_fault_when { IOLAB_FAULT_AT, IOLAB_FAULT_EVERY, IOLAB_FAULT_CHANCE };

#define IOLAB_FAULTS_MAX 16
#define IOLAB_FAULT_TEXT 64

struct iolab_fault_rule {
	uint8_t kind;      /* enum iolab_fault_kind */
	uint8_t ops;       /* the directions it hits: bit 1 << IOLAB_OP_READ, 1 << IOLAB_OP_WRITE */
	uint8_t when;      /* enum iolab_fault_when */
	uint64_t n;        /* AT: the Nth I/O it can hit; EVERY: each Nth */
	double chance;     /* CHANCE: of each I/O it can hit, 0 < chance <= 1 */
	uint64_t delay_ns; /* DELAY: how late */
	int vanish_errno;  /* VANISH: what every later I/O fails with (ENODEV or EIO) */
	char text[IOLAB_FAULT_TEXT]; /* as written, for the reports */
};

struct iolab_fault_plan {
	unsigned n;
	struct iolab_fault_rule rule[IOLAB_FAULTS_MAX];
};

/* Parses one rule (the syntax above) into r. Returns 0, or -EINVAL with err naming field, the
 * text and what is wrong. */
int iolab_fault_parse(const char *field, const char *text, struct iolab_fault_rule *r,
		      struct iolab_err *err);

/* What was injected, by kind (vanish: the I/Os failed because the device was gone). */
struct iolab_fault_counts {
	uint64_t kind[IOLAB_FAULT_KINDS];
};
uint64_t iolab_fault_counts_total(const struct iolab_fault_counts *c);
void iolab_fault_counts_add(struct iolab_fault_counts *a, const struct iolab_fault_counts *b);

/* One run of a point under a plan: what the workers' fault engines share (each rule's count of
 * I/Os, whether the device has vanished) and what they injected. The runner sets one up for each
 * run of a point and reads it when the workers are done. */
struct iolab_fault_run {
	const struct iolab_fault_plan *plan;
	uint64_t seed;
	_Atomic uint64_t seen[IOLAB_FAULTS_MAX];
	atomic_int vanished; /* 0, or the errno every I/O now fails with */
	_Atomic uint64_t injected[IOLAB_FAULT_KINDS];
};
void iolab_fault_run_init(struct iolab_fault_run *run, const struct iolab_fault_plan *plan,
			  uint64_t seed);
void iolab_fault_run_counts(struct iolab_fault_run *run, struct iolab_fault_counts *out);

/* The engine_params config of the fault engine: the run, and the engine it wraps with that
 * engine's own config. */
struct iolab_fault_setup {
	struct iolab_fault_run *run;
	const struct iolab_engine_ops *inner;
	const void *inner_config;
};

/* Fills ops with the fault engine around inner: inner's name, flags and device depth, the
 * fault engine's hooks. A virtual-time engine (the simulator) cannot be wrapped. */
void iolab_fault_engine(const struct iolab_engine_ops *inner, struct iolab_engine_ops *ops);

#endif
