/* flash_report.h: what the reports make of a flash device's counts (struct iolab_flash_report,
 * engine.h): adding and subtracting them, as the reports of a part are added over repetitions
 * and taken since a mark; write amplification and GC's share of the flash time; and the flash
 * devices of a point together.
 *
 * Write amplification is flash pages programmed over host pages written (programs by GC and by
 * the mapping table included): 1 without GC, above it with (Hu et al., "Write amplification
 * analysis in flash-based solid state drives", SYSTOR 2009). */
#ifndef IOLAB_FLASH_REPORT_H
#define IOLAB_FLASH_REPORT_H

#include <stdbool.h>

#include "iolab/engine.h"

/* a += b: counts and times add; the erase counts of the blocks and the fewest free blocks are a
 * state, not a count: b's (the later report) replaces a's. */
void iolab_flash_report_add(struct iolab_flash_report *a, const struct iolab_flash_report *b);
/* a -= b (b the report at a mark, a the later one): counts and times subtract; the state is
 * a's. */
void iolab_flash_report_sub(struct iolab_flash_report *a, const struct iolab_flash_report *b);

/* flash_programs / host_pages_written, or -1 when no page was written. */
double iolab_flash_wa(const struct iolab_flash_report *f);
/* gc_ns / flash_ns (0..1), or -1 when the dies did nothing. */
double iolab_flash_gc_share(const struct iolab_flash_report *f);

/* True if c is a flash device's own report (an SSD's: kind "ssd"), not one of its parts (kinds
 * "flash-channel", "flash-die", whose flash counts are their own share). */
bool iolab_comp_is_flash_device(const struct iolab_comp_report *c);
/* The flash devices among comp[0..n) together into *sum (counts added; erase counts from the
 * fewest to the most of any device, their mean the devices' mean; the fewest free blocks of
 * any). Returns how many devices there are (0: *sum is zero). */
unsigned iolab_flash_total(const struct iolab_comp_report *comp, unsigned n,
			   struct iolab_flash_report *sum);

#endif
