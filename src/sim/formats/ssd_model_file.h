/* ssd_model_file.h: SSD models in the model file format (ssd_model_file.c; docs/model-format.md,
 * "SSD models"): a model file whose first field is `device = ssd`, read into a disk record whose
 * `ssd` holds the flash figures, and written back so that reading it again gives the same
 * model; and the arithmetic of ssd_model.c that the reader and the importer share. */
#ifndef IOLAB_SIM_FORMATS_SSD_MODEL_FILE_H
#define IOLAB_SIM_FORMATS_SSD_MODEL_FILE_H

#include <stdbool.h>
#include <stdint.h>
#include <stdio.h>

#include "iolab/disk_model.h"
#include "iolab/ssd_model.h"

/* What the first field of a model file says: 0 a drive (no `device` field, or `device = disk`),
 * 1 an SSD (`device = ssd`); -EINVAL (err: "name:line: field 'device': ...") for another value,
 * or a `device` field that is not the first one. */
int iolab_model_device(const char *name, const char *text, struct iolab_err *err);

/* Reads an SSD model file (its first field `device = ssd`) into m: m->ssd malloc'd, the drive
 * record's name, about, blocks, block_bytes (512) and queue_depth derived. name is used in
 * messages ("name:line: field 'NAME': ..."). drive_field (iolab_model_field_at, passed by
 * model_file.c, which calls this) lists the drive fields, refused as such. Returns 0, -EINVAL
 * or -ENOMEM (m freed). */
int iolab_ssd_model_parse(const char *name, const char *text, struct iolab_disk_model *m,
			  const char *(*drive_field)(unsigned i), struct iolab_err *err);
/* Writes m (m->ssd set) in the SSD model file format. Returns 0 or -EIO. */
int iolab_ssd_model_write(const struct iolab_disk_model *m, FILE *f);

/* The defaults of the fields an SSD model file may leave out (docs/model-format.md); the
 * geometry and flash times, which it must give, are 0. */
void iolab_ssd_model_defaults(struct iolab_ssd_model *s);
/* Takes s (malloc'd) into m, clearing m first: m->ssd = s, and the drive record's derived
 * fields. Runs iolab_ssd_model_check; on failure frees s and clears m. */
int iolab_ssd_model_adopt(struct iolab_disk_model *m, struct iolab_ssd_model *s,
			  const char *name, const char *about, struct iolab_err *err);

/* The fields of an SSD model file, NULL after the last; and whether key is one of them. */
const char *iolab_ssd_field_at(unsigned i);
bool iolab_ssd_field(const char *key);

/* ssd_model.c: planes of the array; free blocks a plane keeps for GC (gc_threshold x blocks,
 * rounded down, at least 1: MQSim's GC_and_WL_Unit_Base.cpp:22-24); whether order is a
 * permutation of "CWDP". */
uint64_t iolab_ssd_planes(const struct iolab_ssd_model *m);
uint32_t iolab_ssd_gc_reserve_blocks(const struct iolab_ssd_model *m);
bool iolab_ssd_order_valid(const char *order);
/* MQSim's size of a cached mapping entry: ceil((2 log2(physical pages) + sectors a page) / 8)
 * bytes (Address_Mapping_Unit_Page_Level.cpp); 8 for an empty array. */
uint32_t iolab_ssd_mqsim_cmt_entry_bytes(const struct iolab_ssd_model *m);

#endif
