/* disk_model.h: the description of a mechanical disk drive that the simulator runs: geometry
 * and layout (zones, skews, spares, slipped and remapped sectors), mechanics (seek curve, head
 * switch, settle, rotation), the controller's overheads and interface rate, its cache
 * (segments, read-ahead, write-back) and its command queue.
 *
 * Models are read from iolab's own text format (docs/model-format.md, model_file.c), which
 * `iolab model import-disksim` writes from DiskSim 4.0 specifications. All times in the struct
 * are nanoseconds; sizes are in blocks of block_bytes.
 */
#ifndef IOLAB_DISK_MODEL_H
#define IOLAB_DISK_MODEL_H

#include <stdbool.h>
#include <stdint.h>
#include <stdio.h>

#include "iolab/error.h"

enum iolab_sched {
	IOLAB_SCHED_FCFS = 0, /* first come, first served */
	IOLAB_SCHED_SSTF,     /* shortest seek (cylinder distance) first */
	IOLAB_SCHED_CLOOK,    /* elevator in one direction, jump back */
	IOLAB_SCHED_SPTF,     /* shortest positioning (seek + rotation) time first */
};

/* Where spare sectors sit, and how far a slipped (skipped) sector pushes the later blocks:
 * with NONE and ZONE a slip moves every later block of the zone by one sector; with RANGE only
 * the later blocks of its range of cylinders. */
enum iolab_sparing {
	IOLAB_SPARE_NONE = 0,  /* no spare area */
	IOLAB_SPARE_ZONE,      /* `spares` sectors at the end of the zone */
	IOLAB_SPARE_RANGE,     /* `spares` sectors at the end of every `range` cylinders */
	/* The other DiskSim 4.0 sparing schemes (manual B.4.2 p75; layout_sparing.c maps them): */
	IOLAB_SPARE_OFF,               /* 0: no spares; slips and defects are not allowed */
	IOLAB_SPARE_TRACKS,            /* 1: `spares` whole tracks at the end of the zone; slips
					  and defects are track numbers within the zone */
	IOLAB_SPARE_CYL,               /* 2: `spares` sectors at the end of every cylinder */
	IOLAB_SPARE_TRACK,             /* 3: `spares` sectors at the end of every track */
	IOLAB_SPARE_CYL_SLIP_END,      /* 4: as 2, but slips push blocks on to the disk's end */
	IOLAB_SPARE_CYL_FRONT,         /* 5: `spares` sectors at the front of every cylinder */
	IOLAB_SPARE_CYL_FRONT_SLIP_END,/* 6: as 5, but slips push blocks on to the disk's end */
	IOLAB_SPARE_ZONE_SLIP_END,     /* 10: as ZONE, but slips do not use the spares */
};

struct iolab_zone {
	uint32_t first_cyl, last_cyl;
	uint32_t spt;            /* sectors per track */
	uint32_t track_skew;     /* sectors the first sector moves on a head switch */
	uint32_t cyl_skew;       /* sectors it moves on a cylinder switch */
	uint32_t first_offset;   /* sectors: angular offset of the zone's first sector */
	uint32_t front_empty;    /* physical sectors at the start of the zone that hold no block */
	enum iolab_sparing sparing;
	uint32_t spares;         /* spare sectors per zone or per range */
	uint32_t range;          /* cylinders per sparing range (IOLAB_SPARE_RANGE) */
	uint32_t nslips, ndefects;
	uint64_t *slips;         /* slipped sectors: physical sector offsets within the zone,
				    ascending (the mapping skips them) */
	uint64_t *defects;       /* remapped sectors, as pairs: defect, replacement (offsets
				    within the zone); ndefects counts numbers, not pairs */
	unsigned line;           /* where its [zone] section starts in the model file (0: none) */
	/* derived by iolab_model_finish */
	uint64_t first_lbn, nblocks;
	/* table layout (iolab_disk_model.g4): the root entry this zone stands for */
	unsigned g4_root;
};

struct iolab_seek_point {
	uint32_t dist;  /* cylinders */
	uint64_t ns;
	uint64_t sd_ns; /* standard deviation measured with it (DIXtrac's third column); recorded */
};

/* How the seek time follows from the distance (docs/model-format.md, "Seek formulas and
 * access-time types"; DiskSim 4.0 manual B.4.3 p77, B.5 pp80-81). */
enum iolab_seek_type {
	IOLAB_SEEK_DEFAULT = 0, /* the [seek] table if there is one, else iolab's fitted formula */
	IOLAB_SEEK_EXTRACTED,   /* the [seek] table (required) */
	IOLAB_SEEK_HPL,         /* the HPL equation, seek_hpl */
	IOLAB_SEEK_HPLPLUS10,   /* seek_first_ten_ns for 1..10 cylinders, the HPL equation beyond */
	IOLAB_SEEK_CURVE,       /* Lee's equation through single, average and full stroke */
	IOLAB_SEEK_LINEAR,      /* straight lines through single, average and full stroke */
	IOLAB_SEEK_CONSTANT,    /* seek_const_ns for every positioning */
};

/* What a media access's positioning costs (DiskSim's "Access time type"). */
enum iolab_access {
	IOLAB_ACCESS_MECHANICS = 0, /* seek and rotation modelled (trackSwitchPlusRotation) */
	IOLAB_ACCESS_AVG_ROTATION,  /* seek modelled, rotational latency half a revolution */
	IOLAB_ACCESS_CONSTANT,      /* access_const_ns instead of seek and rotation */
};

struct iolab_g4; /* layout_g4.c */

/* How far the drive reads ahead after a read (DiskSim "Buffer continuous read", manual 3.4.5
 * p19; readahead.c). With any mode but LEGACY, readahead_blocks caps the read-ahead past the
 * request's end whatever the mode (DiskSim "Maximum read-ahead"). */
enum iolab_readahead {
	IOLAB_PF_LEGACY = 0,   /* not given: readahead_track, else readahead_blocks past the end */
	IOLAB_PF_NONE,         /* 0: no read-ahead */
	IOLAB_PF_TRACK,        /* 1: to the end of the track of the request's last block */
	IOLAB_PF_CYLINDER,     /* 2: to the end of that block's cylinder */
	IOLAB_PF_SEGMENT,      /* 3: until the segment is full */
	IOLAB_PF_NEXT_TRACK,   /* 4: to the end of the track after the request's last block, one
				  track further when the segment began on an earlier track */
};

struct iolab_ssd_model;

struct iolab_disk_model {
	char name[64];
	char about[256];        /* drive, and where the figures came from */
	/* A flash SSD's figures (ssd_model.h; a model file starting `device = ssd`), owned by this
	   record; NULL: a mechanical drive. With it, only name, about, blocks, block_bytes and
	   queue_depth of this record are used. */
	struct iolab_ssd_model *ssd;
	/* geometry */
	uint32_t surfaces, cylinders, block_bytes;
	uint64_t blocks;
	bool cylinder_serpentine; /* tracks of a cylinder traverse surfaces in alternating order */
	unsigned nzones;
	struct iolab_zone *zone;
	/* mechanics */
	double rpm;
	unsigned nseek;               /* measured seek curve (interpolated), or 0: the formula */
	struct iolab_seek_point *seek;
	uint64_t seek_single_ns, seek_avg_ns, seek_full_ns; /* datasheet figures (formula) */
	int64_t write_settle_ns;      /* may be negative (writes settle faster than reads) */
	uint64_t head_switch_ns;
	uint64_t rw_switch_ns;        /* changing between reading and writing on one track: the head
					 moves by the offset between its read and write elements
					 (the microjog) and settles; head_switch_ns unless given */
	bool rw_switch_given;
	/* controller */
	uint64_t bus_ns_per_block;    /* interface transfer time per block */
	uint64_t ovh_read_hit[2];     /* command overhead, indexed by the previous command: 0 read, 1 write */
	uint64_t ovh_read_miss[2];
	uint64_t ovh_write_hit[2];
	uint64_t ovh_write_miss[2];
	/* cache */
	unsigned segments;            /* 0: no cache */
	bool separate_write_segment;  /* one more segment, used by writes only */
	bool readahead_track;         /* read-ahead to the end of the track (one more track when
					 reading sequentially) instead of readahead_blocks */
	bool zero_latency_read;       /* the wanted sectors of a track are read in the order they
					 pass under the head, from the first one after landing
					 (DiskSim: Immediate buffer read; disk.c, zero latency) */
	bool zero_latency_write;      /* the same when writing (Immediate buffer write) */
	bool read_joins_readahead;    /* a read of the blocks the read-ahead is about to read waits
					 for them instead of stopping it (DiskSim: almost read hits) */
	uint32_t segment_blocks;
	uint32_t readahead_blocks;    /* read-ahead after a read miss, at most */
	bool readahead_over_request;  /* read-ahead counts from the request's end, not its start */
	bool write_back;              /* writes complete once in the cache (immediate reporting) */
	unsigned write_segments;      /* segments that may hold dirty data */
	bool read_hits_on_write_data;
	/* queue */
	unsigned queue_depth;         /* commands the drive accepts; 1 = no command queuing */
	enum iolab_sched sched;
	/* derived by iolab_model_finish */
	uint64_t rev_ns;              /* one revolution */
	double seek_a, seek_b, seek_c, seek_e; /* formula a+b*sqrt(d) below boundary, c+e*d above */
	uint32_t seek_boundary;
	bool read_free_blocks;        /* while waiting on the target track for the first wanted
					 sector, the sectors before it that pass under the head are
					 cached (DiskSim: Read any free blocks) */
	/* seek formula and access-time type (seek_curve.c) */
	enum iolab_seek_type seek_type;
	double seek_hpl[6];           /* V1 (cylinders), V2..V6 (ms); V6 = -1: no single-cylinder time */
	uint64_t seek_first_ten_ns[10]; /* seeks of 1..10 cylinders (hplplus10) */
	uint64_t seek_const_ns;       /* IOLAB_SEEK_CONSTANT */
	bool seek_has_sd;             /* the [seek] table has standard deviations */
	enum iolab_access access;
	uint64_t access_const_ns;     /* IOLAB_ACCESS_CONSTANT */
	uint64_t ovh_complete[2];     /* completion overhead of a read [0], a write [1]: after the
					 last transfer, before the command completes */
	/* serpentine by absolute cylinder number (DiskSim mapping scheme 2: even cylinders visit
	   the surfaces ascending, odd ones descending, across zones); needs cylinder_serpentine */
	bool serpentine_absolute;
	/* table-driven layout (DiskSim dm_layout_g4, layout_g4.c), or NULL: the zones' layout.
	   With a table, iolab_model_finish derives the zones from its root entries. */
	struct iolab_g4 *g4;
	/* cache and buffer details of DiskSim's disksim_disk block (docs/model-format.md, "Cache
	   and buffer fields") */
	enum iolab_readahead readahead;
	uint32_t readahead_min_blocks; /* a new command waits until the read-ahead has read this
					  far past the read (DiskSim Minimum read-ahead) */
	bool write_back_sequential;    /* write_back only for a write that appends to the previous
					  command, a write (DiskSim Fast write level 1) */
	bool combine_writes;           /* an appending write joins the previous write's segment and
					  flush (DiskSim Combine seq writes) */
	bool prefetch_stop_in_sector;  /* a new command stops the read-ahead at once, not at the
					  end of the sector in progress (Stop prefetch in sector) */
	bool write_keeps_readahead;    /* a write into the cache leaves the read-ahead running
					  (DiskSim Write hit stop prefetch = 0) */
	bool sector_buffer;            /* a sector is read into a separate buffer, so its read may
					  start before its cache slot is free (DiskSim Read directly
					  to buffer = 0) */
	bool readahead_on_idle_hit;    /* a read served wholly from the cache while the media is
					  idle starts the read-ahead after the cached data
					  (DiskSim Read-ahead on idle hit) */
	/* the interface connection (docs/model-format.md, "Disconnecting from the interface"):
	   a read that waits for the media lets go of the interface and reconnects once the buffer
	   holds its water mark; the time each step takes */
	bool never_disconnect;         /* holds the interface from arrival to completion */
	bool hold_bus_read;            /* once a read has reconnected, it holds the interface */
	double read_water_mark;        /* reconnect when this fraction of the request
					  (water_mark_by_request) or of a segment is buffered */
	bool water_mark_by_request;
	bool partial_hit_waits;        /* a partial hit's cached part waits for the water mark
					  too (DiskSim Immed transfer partial hit = 0) */
	bool write_disconnect_if_seeking; /* a write-through lets go of the interface when its
					  data is in while the arm is still seeking */
	uint64_t ovh_data_prep;        /* before a command's first data transfer */
	uint64_t ovh_reselect[2];      /* reconnecting: the first time, later times */
	uint64_t ovh_read_disconnect[2]; /* a read letting go, after a read [0], a write [1] */
	uint64_t ovh_write_disconnect; /* a write letting go */
	uint64_t min_write_delay_ns;   /* a nonsequential write reaches the media no sooner than
					  this after its command overhead (Minimum seek delay) */
	bool extra_write_disconnect;   /* a nonsequential write lets go of the interface before its
					  data (DiskSim Extra write disconnect), with extradisc_ns:
					  its command overhead, disconnection, delay before it comes
					  back, second disconnection, and seek delay */
	uint64_t extradisc_ns[5];
};

/* Computes the derived fields and checks consistency (zones cover the cylinders in order, block
 * count matches the layout, seek curve increasing in distance, ...). Returns 0 or -EINVAL. */
int iolab_model_finish(struct iolab_disk_model *m, struct iolab_err *err);
/* After iolab_model_finish: refuses figures that contradict each other (docs/model-format.md,
 * "Consistency"): text fields that are not clean UTF-8 or too long; a single-cylinder seek longer
 * than the full stroke, an average seek outside them, a measured seek beyond the last cylinder;
 * spares, slips or defects outside their zone or sparing range, more slips than spares, a zone
 * left without blocks. iolab_model_parse runs it; the DiskSim importer too. Returns 0 or -EINVAL
 * ("zone 3: field 'slips': ..."). */
int iolab_model_check(const struct iolab_disk_model *m, struct iolab_err *err);
void iolab_model_free(struct iolab_disk_model *m);

/* Reads a model file. name is used in messages. Returns 0 or -errno (err: "file:line: field"). */
int iolab_model_parse(const char *name, const char *text, struct iolab_disk_model *m,
		      struct iolab_err *err);
int iolab_model_load(const char *path, struct iolab_disk_model *m, struct iolab_err *err);
/* Loads a built-in model by name, or a model file if name contains '/' or ends in ".model". */
int iolab_model_open(const char *name_or_path, struct iolab_disk_model *m, struct iolab_err *err);
/* Writes m in the model file format. */
int iolab_model_write(const struct iolab_disk_model *m, FILE *f);
/* The drive fields of the model file format (those before its sections), NULL after the last. */
const char *iolab_model_field_at(unsigned i);

/* Built-in models (compiled in from models/). */
unsigned iolab_model_builtin_count(void);
const char *iolab_model_builtin_name(unsigned i);

/* Seek time for a distance in cylinders (0 for 0, except with a constant seek time); a write
 * adds the settle time (never below 0 in all). */
uint64_t iolab_model_seek_ns(const struct iolab_disk_model *m, uint32_t dist, bool write);

/* seek_curve.c: the seek time of the formula seek types (m->seek_type HPL .. CONSTANT) for
 * dist cylinders, in ns (read time, no settle). */
double iolab_seek_formula_ns(const struct iolab_disk_model *m, uint32_t dist);
/* Checks an HPL list [V1..V6] (manual B.5.2: V1 a whole number >= 0, V2..V5 >= 0, V6 >= 0 or
 * -1). Returns NULL or what is wrong ("V1 must be a whole number >= 0"). */
const char *iolab_seek_hpl_invalid(const double v[6]);

#endif
