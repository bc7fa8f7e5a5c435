/* disksim_params.c: the parameter names DiskSim 4.0 accepts in each block type the importer
 * reads (import_disksim.c), as its module specifications list them (the PARAM lines of the
 * modspec files of DiskSim 4.0's src/ and diskmodel/, named beside each table): a name not in
 * its block's table is one DiskSim itself rejects. */
#include <stddef.h>
#include <strings.h>

#include "sim/formats/disksim_params.h"

/* disksim_disk: src-disk.modspec */
static const char *const disksim_disk[] = {
	"Model", "Scheduler", "Max queue length", "Bulk sector transfer time",
	"Segment size (in blks)", "Number of buffer segments", "Print stats",
	"Per-request overhead time", "Time scale for overheads", "Hold bus entire read xfer",
	"Hold bus entire write xfer", "Allow almost read hits", "Allow sneaky full read hits",
	"Allow sneaky partial read hits", "Allow sneaky intermediate read hits",
	"Allow read hits on write data", "Allow write prebuffering", "Preseeking level",
	"Never disconnect", "Avg sectors per cylinder", "Maximum number of write segments",
	"Use separate write segment", "Low (write) water mark", "High (read) water mark",
	"Set watermark by reqsize", "Calc sector by sector", "Enable caching in buffer",
	"Buffer continuous read", "Minimum read-ahead (blks)", "Maximum read-ahead (blks)",
	"Read-ahead over requested", "Read-ahead on idle hit", "Read any free blocks",
	"Fast write level", "Combine seq writes", "Stop prefetch in sector",
	"Disconnect write if seek", "Write hit stop prefetch", "Read directly to buffer",
	"Immed transfer partial hit", "Read hit over. after read", "Read hit over. after write",
	"Read miss over. after read", "Read miss over. after write", "Write hit over. after read",
	"Write hit over. after write", "Write miss over. after read", "Write miss over. after write",
	"Read completion overhead", "Write completion overhead", "Data preparation overhead",
	"First reselect overhead", "Other reselect overhead", "Read disconnect afterread",
	"Read disconnect afterwrite", "Write disconnect overhead", "Extra write disconnect",
	"Extradisc command overhead", "Extradisc disconnect overhead",
	"Extradisc inter-disconnect delay", "Extradisc 2nd disconnect overhead",
	"Extradisc seek delta", "Minimum seek delay", "Immediate buffer read",
	"Immediate buffer write", NULL,
};

/* disksim_ioqueue: src-ioqueue.modspec */
static const char *const disksim_ioqueue[] = {
	"Scheduling policy", "Cylinder mapping strategy", "Write initiation delay",
	"Read initiation delay", "Sequential stream scheme", "Maximum concat size",
	"Overlapping request scheme", "Sequential stream diff maximum", "Scheduling timeout scheme",
	"Timeout time/weight", "Timeout scheduling", "Scheduling priority scheme",
	"Priority scheduling", NULL,
};

/* dm_disk: diskmodel-disk.modspec */
static const char *const dm_disk[] = {
	"Block count", "Number of data surfaces", "Number of cylinders", "Mechanical Model",
	"Layout Model", NULL,
};

/* dm_mech_g1: diskmodel-mech_g1.modspec */
static const char *const dm_mech_g1[] = {
	"Access time type", "Constant access time", "Seek type", "Average seek time",
	"Constant seek time", "Single cylinder seek time", "Full strobe seek time", "Full seek curve",
	"Add. write settling delay", "Head switch time", "Rotation speed (in rpms)",
	"Percent error in rpms", "First ten seek times", "HPL seek equation values", NULL,
};

/* dm_layout_g1: diskmodel-layout_g1.modspec */
static const char *const dm_layout_g1[] = {
	"LBN-to-PBN mapping scheme", "Sparing scheme used", "Rangesize for sparing", "Skew units",
	"Zones", NULL,
};

/* dm_layout_g1_zone: diskmodel-layout_g1_zone.modspec */
static const char *const dm_layout_g1_zone[] = {
	"First cylinder number", "Last cylinder number", "Blocks per track", "Offset of first block",
	"Skew units", "Empty space at zone front", "Skew for track switch",
	"Skew for cylinder switch", "Number of spares", "slips", "defects", NULL,
};

/* dm_layout_g2: diskmodel-layout_g2.modspec */
static const char *const dm_layout_g2[] = {
	"Layout Map File", "Zones", NULL,
};

/* dm_layout_g2_zone: diskmodel-layout_g2_zone.modspec */
static const char *const dm_layout_g2_zone[] = {
	"First cylinder number", "Last cylinder number", "First LBN", "Last LBN", "Blocks per track",
	"Zone Skew", "Skew units", "Skew for track switch", "Skew for cylinder switch", NULL,
};

/* dm_layout_g4: diskmodel-layout_g4.modspec */
static const char *const dm_layout_g4[] = {
	"TP", "IDX", "Slips", "Remaps", NULL,
};

static const struct {
	const char *type;
	const char *const *names;
} blocks[] = {
	{"disksim_disk", disksim_disk},
	{"disksim_ioqueue", disksim_ioqueue},
	{"dm_disk", dm_disk},
	{"dm_mech_g1", dm_mech_g1},
	{"dm_layout_g1", dm_layout_g1},
	{"dm_layout_g1_zone", dm_layout_g1_zone},
	{"dm_layout_g2", dm_layout_g2},
	{"dm_layout_g2_zone", dm_layout_g2_zone},
	{"dm_layout_g4", dm_layout_g4},
};

int iolab_ds_param_known(const char *type, const char *name)
{
	for (size_t b = 0; b < sizeof(blocks) / sizeof(blocks[0]); b++) {
		if (strcasecmp(blocks[b].type, type))
			continue;
		for (const char *const *n = blocks[b].names; *n; n++)
			if (!strcasecmp(*n, name))
				return 1;
		return 0;
	}
	return -1;
}
