/* disksim_cache_fields.c: the disksim_disk cache and buffer parameters (DiskSim 4.0 manual
 * 3.4.5 pp16-21) that iolab's drive (disk.c) does not model, each with the value range that
 * matches what the drive does. The importer accepts a parameter in its range (or absent) and
 * refuses any other value, naming the parameter, its line and what iolab cannot represent
 * (docs/model-format.md, "Cache and buffer fields"). */
#include "disksim_cache_fields.h"

#define NO_DISCONNECT "iolab's drive never disconnects from the interface and reconnects"

const struct iolab_ds_neutral iolab_ds_neutral[] = {
	{"Write hit stop prefetch", 1, 1, "is not supported: every write stops iolab's read-ahead "
	 "(only 1)"},
	{"Immed transfer partial hit", 1, 1, "is not supported: iolab sends the cached part of a "
	 "partial read hit at once; waiting for the read water mark is not modelled (only 1)"},
	{"Preseeking level", 0, 0, "is not supported: iolab's arm starts for the next command only "
	 "when that command is served, after the previous one has completed (only 0)"},
	{"Low (write) water mark", 0, 0, "is not supported: " NO_DISCONNECT ", so it has no water "
	 "marks (only 0)"},
	{"High (read) water mark", 0, 0, "is not supported: " NO_DISCONNECT ", so it has no water "
	 "marks (only 0)"},
	{"Set watermark by reqsize", 0, 1, "is out of range (0..1)"},
	{"Allow sneaky full read hits", 0, 0, "is not supported: iolab's drive serves one command "
	 "at a time; no read hit is sent while another command is in service (only 0)"},
	{"Allow sneaky partial read hits", 0, 0, "is not supported: iolab's drive serves one "
	 "command at a time; no read hit is sent while another command is in service (only 0)"},
	{"Allow sneaky intermediate read hits", 0, 0, "is not supported: iolab's drive serves one "
	 "command at a time; the queue is not searched for hits during idle bus time (only 0)"},
	{"Hold bus entire read xfer", 0, 0, "is not supported: " NO_DISCONNECT "; how long a "
	 "channel is held is set by the subsystem's channel type (only 0)"},
	{"Hold bus entire write xfer", 0, 0, "is not supported: " NO_DISCONNECT "; how long a "
	 "channel is held is set by the subsystem's channel type (only 0)"},
	{"Never disconnect", 0, 0, "is not supported: " NO_DISCONNECT "; how long a channel is "
	 "held is set by the subsystem's channel type (only 0)"},
	{"Allow write prebuffering", 0, 0, "is not supported: a queued write's data moves into "
	 "the cache only when iolab's drive serves it (only 0)"},
	{"Read directly to buffer", 1, 1, "is not supported: iolab's read-ahead reads a sector only "
	 "into a free buffer slot; a separate sector buffer is not modelled (only 1)"},
	{"Disconnect write if seek", 0, 0, "is not supported: " NO_DISCONNECT " (only 0)"},
};

const unsigned iolab_ds_nneutral = sizeof(iolab_ds_neutral) / sizeof(iolab_ds_neutral[0]);
