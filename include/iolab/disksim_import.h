/* disksim_import.h: reading a DiskSim 4.0 drive specification (a .diskspecs file, the .model
 * file it sources and the .seek file that names) into an iolab drive model. */
#ifndef IOLAB_DISKSIM_IMPORT_H
#define IOLAB_DISKSIM_IMPORT_H

#include "iolab/disk_model.h"
#include "iolab/error.h"

/* Reads diskspecs_path, the "Model = source X.model" file it names and that file's "Full seek
 * curve = X.seek" (both relative to the directory of the file naming them), fills m (all times
 * converted from ms to ns) and finishes it with iolab_model_finish. m->name is the stem of
 * diskspecs_path. Returns 0, or -errno with one line in err ("file:line: field 'X': ...");
 * on failure m holds nothing to free. */
int iolab_import_disksim(const char *diskspecs_path, struct iolab_disk_model *m, struct iolab_err *err);

/* The same, and: a parameter DiskSim 4.0 does not accept in its block (disksim_params.c: the
 * names of its modspec files) is refused ("file:line: field 'X': not a parameter of ..."); one
 * it accepts that iolab does not model is accepted, and note (if not NULL) is called for each,
 * after a successful import, with where it is, its name and the type of its block. */
typedef void (*iolab_import_note_fn)(const char *file, unsigned line, const char *field,
				     const char *block, void *ctx);
int iolab_import_disksim_notes(const char *diskspecs_path, struct iolab_disk_model *m,
			       iolab_import_note_fn note, void *ctx, struct iolab_err *err);

#endif
