/* layout_sparing.h: the sparing schemes beyond none/zone/range (layout_sparing.c): their names
 * in the model file, the blocks a zone holds, where a block lies and what must hold. */
#ifndef IOLAB_SIM_LAYOUT_SPARING_H
#define IOLAB_SIM_LAYOUT_SPARING_H

#include <stddef.h>

#include "iolab/disk_model.h"

/* The model file's word for a scheme ("zone", "cylinder-front", ...), and how many numbers
 * follow it (spares, then cylinders for "range"). */
const char *iolab_sparing_name(enum iolab_sparing s);
unsigned iolab_sparing_args(enum iolab_sparing s);
/* The scheme named word. Returns 0 or -EINVAL. */
int iolab_sparing_parse(const char *word, enum iolab_sparing *out);

/* Blocks zone z holds, for every scheme. */
uint64_t iolab_sparing_blocks(const struct iolab_disk_model *m, const struct iolab_zone *z);

/* True for the schemes whose mapping iolab_sparing_pbn does (the per-track, per-cylinder and
 * spare-track ones); layout.c maps the others. */
bool iolab_sparing_own(enum iolab_sparing s);
/* Physical sector (offset within the zone) of the zone's x-th position (block index within the
 * zone plus front_empty); *run is capped at the blocks from there that follow sector after
 * sector (no slip, spare area or remapped track among them; at least 1). With spare tracks
 * (IOLAB_SPARE_TRACKS) the defect list is applied here (track numbers). */
uint64_t iolab_sparing_pbn(const struct iolab_disk_model *m, const struct iolab_zone *z, uint64_t x,
			   uint64_t *run);

/* The checks of a zone's spares, slips and defects that depend on the scheme (after
 * iolab_model_finish). Returns 0, or -EINVAL with why ("field 'slips': ...") filled. */
int iolab_sparing_check(const struct iolab_disk_model *m, const struct iolab_zone *z, char *why,
			size_t len);

#endif
