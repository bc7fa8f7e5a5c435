/* layout_g4.h: table-driven layouts (DiskSim 4.0 dm_layout_g4, layout_g4.c). */
#ifndef IOLAB_SIM_LAYOUT_G4_H
#define IOLAB_SIM_LAYOUT_G4_H

#include <stddef.h>
#include <stdio.h>

#include "iolab/disk_model.h"
#include "sim/devices/phys.h"

/* A track pattern: LBNs 0 .. sn - s0 of a track lie in its sectors s0 .. sn; spt sectors in all. */
struct iolab_g4_tp {
	uint32_t s0, sn, spt;
};

/* An index entry: `runlen` LBNs from `lbn` (relative to the parent instance), in instances of
 * `len` LBNs; instance q starts at cylinder cyl + q·cyllen (q negated when cylrunlen < 0) and
 * angle off + q·alen (revolutions); its child is a track pattern (on surface `head`) or another
 * index node. */
struct iolab_g4_ent {
	int64_t lbn, cyl, runlen, cylrunlen, len, cyllen;
	double off, alen;
	bool track;
	uint32_t child, head;
};

struct iolab_g4_node {
	uint32_t n;
	struct iolab_g4_ent *e;
};

/* Slips: at logical offset lbn, count LBNs are skipped (cum: the total up to and with it).
 * Remaps: len LBNs from lbn lie on cylinder cyl, surface head, sectors from sector (spt a track). */
struct iolab_g4_slip {
	uint64_t lbn, count, cum;
};
struct iolab_g4_remap {
	uint64_t lbn, len;
	uint32_t cyl, head, sector, spt;
};

struct iolab_g4 {
	uint32_t ntp, nnode, nslip, nremap;
	struct iolab_g4_tp *tp;
	struct iolab_g4_node *node; /* the last is the root */
	struct iolab_g4_slip *slip;
	struct iolab_g4_remap *remap;
};

/* Adds one item of a table: what is "tp" (s0 sn spt), "node" (starts the next index node; its
 * one word is its number), "entry" (lbn cyl off len cyllen alen runlen cylrunlen TRACK|IDX child
 * [head], to the last node), "slip" (lbn count) or "remap" (lbn len cyl head sector spt).
 * Creates *g on first use. Returns 0, or -EINVAL/-ENOMEM with why set ("field 'entry': ..."). */
int iolab_g4_add(struct iolab_g4 **g, const char *what, char *const *w, unsigned n, char *why,
		 size_t len);
void iolab_g4_free(struct iolab_g4 *g);

/* Checks the table (children exist and come before their parent, patterns inside their track)
 * and derives m's zones from the root's entries (one zone a root entry; every track under it
 * must have the same number of sectors). Returns 0 or -EINVAL with why set. */
int iolab_g4_finish(struct iolab_disk_model *m, char *why, size_t len);

/* Physical place of lbn by the table (DiskSim's g4 ltop). Returns 0, or -ERANGE past the last
 * block or where the table does not cover it or places it off the disk. */
int iolab_g4_map(const struct iolab_disk_model *m, uint64_t lbn, struct iolab_phys *p);

/* Writes the table as the model file's [g4] section. */
void iolab_g4_write(const struct iolab_g4 *g, FILE *f);

#endif
