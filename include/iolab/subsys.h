/* subsys.h: the description of a simulated storage subsystem, what the simulator builds a path
 * from: host -> I/O buses -> controllers (each with its cache) -> channels -> drives, and the
 * volumes (RAID) made of the drives. A subsystem file (docs/subsystem-format.md, parsed by
 * subsys_parse.c) or the command line's shorthands (--array, --drive, --channel, --bus, ...)
 * fill it; the sim engine builds the components from it.
 *
 * Links (I/O buses and drive channels) come from a table of named interconnects (links.c) or
 * from a plain rate. A link moves a transfer of b bytes in overhead + b / (rated x efficiency):
 * the rated rate is the advertised one, the efficiency what protocol and arbitration leave of it
 * on long transfers, the overhead the fixed cost of each transfer (arbitration, selection,
 * command and status phases). */
#ifndef IOLAB_SUBSYS_H
#define IOLAB_SUBSYS_H

#include <stdbool.h>
#include <stdint.h>

#include "iolab/disk_model.h"
#include "iolab/engine.h"
#include "iolab/error.h"

struct iolab_kind;

/* The host in front of a simulated device: the policy of its queue (an enum iolab_host_sched,
 * 0: arrival order) and the time its driver and adapter take per command before the device
 * sees it. */
struct iolab_host_params {
	unsigned sched;
	uint64_t overhead_ns;
};

/* RAID levels of a simulated volume. */
enum iolab_raid_level { IOLAB_RAID_NONE, IOLAB_RAID0, IOLAB_RAID1, IOLAB_RAID5, IOLAB_RAID10, IOLAB_RAID4, IOLAB_RAID6 };

/* "raid0", "raid1", "raid5", "raid10", "raid4", "raid6" ("none" for a single drive). */
const char *iolab_raid_name(unsigned level);

/* The simulator engine's settings (iolab_engine_params.config of iolab_engine_sim, and the
 * config its device_depth takes): a whole subsystem, or a lone drive's model behind a host. */
struct iolab_sim_engine_config {
	const struct iolab_disk_model *model; /* a lone drive (when subsys is NULL) */
	struct iolab_host_params host;        /* its host */
	const struct iolab_subsys *subsys;    /* the whole path, or NULL */
	bool precondition;                    /* --precondition: each device that has the
						 component op precondition (sim_system.h) gets
						 it once, after the path is built */
};
/* True if cfg's path has a device that --precondition changes (one whose component has the
 * precondition op: an SSD); a path of mechanical drives keeps no such state. */
bool iolab_sim_preconditions(const struct iolab_sim_engine_config *cfg);

/* How the devices on one link share it. */
enum iolab_link_kind {
	IOLAB_LINK_BUS,       /* a host I/O bus (PCI, PCI-X, PCIe): every controller's data */
	IOLAB_LINK_SHARED,    /* parallel SCSI: drives disconnect while they seek and reconnect
				 to move data, so only data phases contend */
	IOLAB_LINK_EXCLUSIVE, /* parallel ATA: master and slave cannot overlap commands; the
				 channel is held from a command's start to its end */
	IOLAB_LINK_P2P,       /* SATA, SAS: one drive per link */
};

struct iolab_link_type {
	char name[32];        /* "wide-ultra-scsi", or the rate as written ("40M") */
	enum iolab_link_kind kind;
	double rated_mb_s;    /* advertised, in 10^6 bytes/s */
	double efficiency;    /* 0 < e <= 1 */
	uint64_t overhead_ns; /* per transfer */
	unsigned max_devices; /* most drives on one channel (buses: controllers); 0: no limit */
};

/* The named interconnects (links.c): NULL-terminated through iolab_link_at. */
const struct iolab_link_type *iolab_link_at(unsigned i);
/* A link by name, or a plain rate ("40M", "100MB/s": a SHARED channel, or a BUS when bus is
 * true, of efficiency 1 and no overhead). Errors name field and text. Returns 0 or -EINVAL. */
int iolab_link_parse(const char *field, const char *text, bool bus, struct iolab_link_type *out,
		     struct iolab_err *err);

/* A controller's write policy. Write-back without a battery falls back to write-through. */
enum iolab_write_policy { IOLAB_WP_THROUGH, IOLAB_WP_BACK };
/* A controller's read-ahead: none; always (every read miss reads ahead); adaptive (on after
 * consecutive sequential reads, off after random ones). */
enum iolab_read_ahead { IOLAB_RA_NONE, IOLAB_RA_ALWAYS, IOLAB_RA_ADAPTIVE };

/* "write-through", "write-back"; "none", "always", "adaptive". Parsers return 0 or -EINVAL with
 * err naming field and text. */
const char *iolab_write_policy_name(unsigned p);
int iolab_write_policy_parse(const char *field, const char *text, unsigned *out, struct iolab_err *err);
const char *iolab_read_ahead_name(unsigned r);
int iolab_read_ahead_parse(const char *field, const char *text, unsigned *out, struct iolab_err *err);

/* A controller: its time per command, its cache (0: none) and how it uses it. */
struct iolab_ctl_params {
	uint64_t overhead_ns;  /* processor time per command from the host */
	uint64_t cache_bytes;  /* 0: no cache */
	unsigned write_policy; /* enum iolab_write_policy */
	bool battery;          /* false: write-back acts as write-through */
	unsigned read_ahead;   /* enum iolab_read_ahead */
	uint64_t read_ahead_bytes; /* how far a read-ahead reads past a miss (0: one stripe unit
				      of the volume, or 64 KiB) */
};

/* The controller settings the command line gave (struct iolab_ctl_params fields), which replace
 * a subsystem file's: a mask of these. */
enum { IOLAB_CTL_GIVEN_OVERHEAD = 1, IOLAB_CTL_GIVEN_BATTERY = 2, IOLAB_CTL_GIVEN_READ_AHEAD = 4 };

#define IOLAB_SUBSYS_MAX 64     /* of each kind (drives: 256) */
#define IOLAB_SUBSYS_DRIVES 256
#define IOLAB_SUBSYS_NAME 32

struct iolab_sub_bus {
	char name[IOLAB_SUBSYS_NAME];
	int up;                   /* the bus it is bridged to (index), or -1: the host's own */
	struct iolab_link_type type;
};

struct iolab_sub_controller {
	char name[IOLAB_SUBSYS_NAME];
	int bus;                  /* index into buses, or -1: none modelled */
	struct iolab_ctl_params p;
};

struct iolab_sub_channel {
	char name[IOLAB_SUBSYS_NAME];
	int controller;           /* index into controllers, or -1: straight to the host */
	struct iolab_link_type type; /* rated_mb_s 0: a port that is not modelled (it only ties
					its drives to the controller; the shorthands use it) */
};

#define IOLAB_DEVICE_PARAMS 8

/* A device below a channel: a mechanical drive, or another device kind (sim_kinds.h). */
struct iolab_sub_drive {
	char name[IOLAB_SUBSYS_NAME];
	int channel;              /* index into channels, or -1: none modelled */
	unsigned model;           /* a drive: index into models */
	int write_cache;          /* a drive: -1: as the model says; 0 off; 1 on */
	const struct iolab_kind *kind; /* its kind; NULL: a drive */
	uint64_t param[IOLAB_DEVICE_PARAMS]; /* the settings of a kind other than drive, as its
						keys' table places them */
};

struct iolab_sub_volume {
	char name[IOLAB_SUBSYS_NAME];
	unsigned level;           /* enum iolab_raid_level (IOLAB_RAID_NONE: one drive) */
	uint64_t stripe_bytes;
	unsigned n;
	unsigned drive[IOLAB_SUBSYS_MAX]; /* indices into drives */
	int failed[2];            /* 0-based positions in drive[] of failed members, or -1 */
	uint64_t rebuild_bytes_s; /* 0: no rebuild */
	/* A volume carved from its drives (several volumes may share drives where their extents do
	 * not overlap): its usable capacity, or its share of each drive, and where it starts on
	 * each (subsys_extent.c). All 0: the whole of each drive, as a volume had before. */
	uint64_t size_bytes;      /* usable capacity asked for (0: to the end of the drives) */
	unsigned size_pct;        /* or this percentage of each drive (0: not given) */
	uint64_t offset_bytes;    /* where it starts on each drive, a multiple of its block size */
};

/* The whole subsystem. A volume belongs to the controller of its drives (all of them on that
 * controller's channels, or all on no controller); the controller's cache holds the volume's
 * blocks. Data of a controller crosses its bus and every bus that bus is bridged to. Volumes
 * are what the host sees: one is the host's device; several are
 * striped by the host (host_stripe_bytes, RAID 0 over the volumes). A drive in no volume is not
 * used by the load. */
struct iolab_subsys {
	struct iolab_host_params host;
	uint64_t host_stripe_bytes;  /* 0: 64 KiB */
	unsigned nbus, nctl, nchan, ndrive, nvol, nmodel;
	struct iolab_sub_bus bus[IOLAB_SUBSYS_MAX];
	struct iolab_sub_controller ctl[IOLAB_SUBSYS_MAX];
	struct iolab_sub_channel chan[IOLAB_SUBSYS_MAX];
	struct iolab_sub_drive drive[IOLAB_SUBSYS_DRIVES];
	struct iolab_sub_volume vol[IOLAB_SUBSYS_MAX];
	struct iolab_disk_model model[IOLAB_SUBSYS_MAX]; /* loaded once per distinct name */
	/* The volumes the load is aimed at by name (--target; subsys_targets.c), in the order
	 * given: target t is volume target[t]. 0 targets: the host stripes over every volume. */
	unsigned ntarget;
	unsigned target[IOLAB_SUBSYS_MAX];
};

/* Parses a subsystem file's text (name: for messages). Every error is one line "name:LINE:
 * FIELD: what is wrong". Models are opened with iolab_model_open (a built-in name or a file).
 * Returns 0, -EINVAL or -ENOMEM; on failure *s holds nothing to free. */
int iolab_subsys_parse(const char *name, const char *text, struct iolab_subsys *s, struct iolab_err *err);
/* Reads and parses a file. */
int iolab_subsys_load(const char *path, struct iolab_subsys *s, struct iolab_err *err);
/* Checks the whole description (also one built by hand): references in range, no drive in two
 * volumes, enough drives for each level, stripe units multiples of 512, failed members
 * survivable, channel device limits. Returns 0 or -EINVAL (err: what and where). */
int iolab_subsys_check(const struct iolab_subsys *s, struct iolab_err *err);
/* The bytes the host addresses: its volume's, or, over several volumes, the host's stripe
 * over them (each counted at the smallest one's size), or with targets their volumes' together;
 * and one volume's (subsys_build.c). */
uint64_t iolab_subsys_bytes(const struct iolab_subsys *s);
uint64_t iolab_subsys_volume_bytes(const struct iolab_subsys *s, const struct iolab_sub_volume *v);
/* Aims the load at the volumes called names[0..n) (--target: each name once, n at most
 * IOLAB_SUBSYS_MAX; n 0 aims it at all of them striped, as without targets). Returns 0 or
 * -EINVAL with err naming the option and the volumes there are (subsys_targets.c). */
int iolab_subsys_set_targets(struct iolab_subsys *s, const char *const *names, unsigned n,
			     struct iolab_err *err);
/* The first block (of the volumes' block size) of target t in the host's address space. */
uint64_t iolab_subsys_target_lbn(const struct iolab_subsys *s, unsigned t);
/* The most memory the simulator can take for the controllers' caches of s (their records of
 * the lines in use, no more than cover the volumes below them). */
uint64_t iolab_subsys_cache_bytes(const struct iolab_subsys *s);
/* The blocks each member of v gives (its extent on each drive; subsys_extent.c): the smallest
 * drive's from its offset on, or what its size asks for in whole stripe units. */
uint64_t iolab_subsys_member_blocks(const struct iolab_subsys *s, const struct iolab_sub_volume *v);
/* Sets one key of the description from outside (subsys_set.c), as a subsystem file's line
 * would: part is a part's name ("ctl0") or a kind's ("controller": every part of that kind;
 * "host": the host); key is one of that kind's keys (docs/subsystem-format.md, `iolab sim
 * kinds`), or, for drives, a drive field of the model file format (docs/model-format.md:
 * "rpm", "cache_segments", ...), which each drive gets in a copy of its model, derived and
 * checked as a model file is. Keys that name other parts (channel=, drives=, bus=, ...) cannot
 * be set. The whole description is checked after (iolab_subsys_check). Models the call opens
 * or copies go past the models s had (iolab_subsys_free frees them; a caller that set a copy of
 * a description frees those past its own). Returns 0, or -EINVAL / -ENOMEM with err one line
 * starting "PART.KEY: " (an unknown part or key, a value the key does not take or outside its
 * range, a key that cannot vary), s then unchanged. */
int iolab_subsys_set(struct iolab_subsys *s, const char *part, const char *key, const char *value,
		     struct iolab_err *err);
/* Where v starts on each member, in blocks. */
uint64_t iolab_subsys_member_offset(const struct iolab_subsys *s, const struct iolab_sub_volume *v);
/* Frees the models. */
void iolab_subsys_free(struct iolab_subsys *s);

#endif
