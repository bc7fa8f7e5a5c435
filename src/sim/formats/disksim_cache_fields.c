/* disksim_cache_fields.c: the disksim_disk cache and buffer parameters (DiskSim 4.0 manual
 * 3.4.5 pp16-21) that iolab's drive (disk.c) does not model, each with the value range that
 * matches what the drive does, and the wider range that does when the drive accepts one command
 * at a time (Max queue length 1: the parameter acts only with a second command in the drive).
 * The importer accepts a parameter in its range (or absent) and refuses any other value, naming
 * the parameter, its line and what iolab cannot represent (docs/model-format.md, "Cache and
 * buffer fields"). */
#include "sim/formats/disksim_cache_fields.h"

#define QUEUED "is not supported with command queuing: "
#define ONE_AT_A_TIME "iolab's drive serves one command at a time"
#define ONLY_0 " (only 0 when Max queue length is above 1)"

const struct iolab_ds_neutral iolab_ds_neutral[] = {
	/* these act only on a write larger than a segment, which iolab's drive takes whole */
	{"Low (write) water mark", 0, 1, 1, "is out of range (0..1)"},
	{"Hold bus entire write xfer", 0, 1, 1, "is out of range (0..1)"},
	/* these need a second command in the drive: any value with one command at a time */
	{"Preseeking level", 0, 0, 2, QUEUED "iolab's arm starts for the next command only when that "
	 "command is served, after the previous one has completed" ONLY_0},
	{"Allow sneaky full read hits", 0, 0, 1, QUEUED ONE_AT_A_TIME "; no read hit is sent while "
	 "another command is in service" ONLY_0},
	{"Allow sneaky partial read hits", 0, 0, 1, QUEUED ONE_AT_A_TIME "; no read hit is sent while "
	 "another command is in service" ONLY_0},
	{"Allow sneaky intermediate read hits", 0, 0, 1, QUEUED ONE_AT_A_TIME "; the queue is not "
	 "searched for hits during idle interface time" ONLY_0},
	{"Allow write prebuffering", 0, 0, 1, QUEUED "a queued write's data moves into the cache "
	 "only when iolab's drive serves it" ONLY_0},
};

const unsigned iolab_ds_nneutral = sizeof(iolab_ds_neutral) / sizeof(iolab_ds_neutral[0]);
