/* ssd_dev.h: the state of one simulated SSD (the `ssd` device kind, dev_ssd.c), shared by its
 * files: dev_ssd.c (the component and the kind), ssd_timing.c (reservations of its dies, flash
 * channels, host interface and DRAM; GC's time), dev_ssd_report.c (its reports and breakdown).
 *
 * Timing is by reservation (docs/ssd.md; MQSim's resources without its per-transaction
 * events): every die, flash channel, the host interface and the DRAM keep the time they are next
 * free; a host command is placed on them in arrival order when it arrives, and its one event is
 * its completion. All times are ns of virtual time. */
#ifndef IOLAB_SSD_DEV_H
#define IOLAB_SSD_DEV_H

#include <stdbool.h>
#include <stdint.h>

#include "iolab/engine.h"
#include "iolab/sim_system.h"
#include "iolab/ssd_model.h"
#include "sim/devices/ssd_calendar.h"
#include "sim/devices/ssd_ftl.h"
#include "sim/devices/ssd_lru.h"

/* Where a command's time went (the breakdown's phases, in this order), along the path of the
 * page it waited for last: queue, waiting in the device for its controller (behind other
 * commands' command_ns) and for the host interface (behind other commands' data); interface,
 * the controller's command_ns and the data's own transfer time; cache, DRAM time and
 * waiting for a free cache slot; map, the translation page read of a mapping-table miss; wait
 * and gc, waiting for the die behind other work (gc: the share of the die's last GC in it);
 * channel, the flash channel (waiting for it and the transfer); flash, the die's tR or tPROG
 * (and a suspension's suspend_ns counts as wait). */
enum ssd_phase { PH_QUEUE, PH_INTERFACE, PH_CACHE, PH_MAP, PH_WAIT, PH_GC, PH_CHANNEL, PH_FLASH,
		 PH_COUNT };
extern const char *const ssd_phase_name[PH_COUNT];

/* What a die did last (multi-plane batching, suspension). */
enum ssd_op { OP_NONE, OP_READ, OP_PROGRAM, OP_ERASE };

struct ssd_die {
	uint64_t free;              /* the end of its last reservation */
	uint64_t last_start;        /* its last operation's start */
	uint64_t gc_start, gc_end;  /* its last GC reservation */
	uint32_t last_page;         /* the page index in block of its last operation */
	uint32_t last_planes;       /* planes its last operation covers (bit per plane) */
	uint64_t last_lpa;          /* the logical page its last read read (UINT64_MAX: none) */
	uint8_t last_op;            /* enum ssd_op */
	struct ssd_calendar cal;    /* its reservations ahead of the clock (busy_ns clipped by them) */
	uint32_t next_plane;        /* dynamic allocation: the plane it writes next */
	double busy_ns, flash_ns, gc_ns; /* as reserved, some of it ahead of the clock */
	uint64_t ops, reads, programs, erases;
};

struct ssd_channel {
	struct ssd_calendar cal;
	double busy_ns;
	uint64_t ios, bytes;
};

/* One host command in the device: its request and where its time went. */
struct ssd_cmd {
	struct iolab_sreq *r;
	uint64_t ph[PH_COUNT];
	uint32_t next_free;         /* free list, 1-based */
	bool hit;                   /* a read the cache served whole */
};

/* A slot of the write-back cache: a page it holds dirty until its flush ends. The slots are a
 * min-heap by end: a page takes the slot freed first. */
struct ssd_flush {
	uint64_t end;               /* the flush's program ends */
	uint64_t gc_ns;             /* of the flush's wait, what GC took */
};

struct ssd {
	struct iolab_ssd_model m;
	struct ssd_ftl *ftl;
	struct iolab_comp *link;    /* the modelled channel it is on, or NULL */
	unsigned ndie, nchan, dies_per_channel;
	struct ssd_die *die;
	struct ssd_channel *chan;
	uint64_t logical_pages;
	uint32_t sectors_per_page;  /* 512-byte blocks */
	unsigned ncell;             /* latency positions of a page: 1, 2, 3 */
	uint64_t cap, inflight;     /* commands it holds */
	/* host interface and DRAM */
	struct ssd_calendar iface;  /* its own link's transfers (no channel modelled) */
	uint64_t ctl_free, dram_free; /* the controller (command_ns a command), the DRAM */
	double iface_busy_ns, ctl_busy_ns;
	bool nomem;                 /* a calendar could not keep an interval: the run fails */
	bool write_back;            /* a cache that completes writes */
	struct ssd_lru cache;       /* the pages the data cache holds (cap 0: no cache) */
	struct ssd_flush *slot;     /* write-back: one per page of cache, a heap */
	uint32_t nslot;
	/* cached mapping table */
	bool cmt_all;               /* it holds every entry: a bitmap of entries read once */
	uint8_t *cmt_seen;
	struct ssd_lru cmt;
	uint32_t entries_per_tpage;
	uint64_t *tpage_ready;      /* per translation page: when its last read ends (0: none) */
	/* derived times */
	uint64_t page_xfer_ns;      /* a whole page over a flash channel, command included */
	uint64_t gc_read_ns, gc_program_ns; /* a moved page's, the cell positions' mean */
	uint32_t bg_below;          /* background GC: planes with fewer free blocks */
	/* commands in flight */
	struct ssd_cmd *cmd;
	uint32_t ncmd, cmd_free;
	/* counts */
	struct iolab_comp_report rep;
	uint64_t reads, read_hits, host_pages_read, host_pages_written, map_reads;
	uint64_t ph_total[PH_COUNT];
};

/* What a translation page read moves over the flash channel: one sector of entries. */
#define SSD_MAP_READ_BYTES 512u

/* ssd_timing.c: a host read of one page (bytes of it) of lpa, ready at t: from the cache, or the
 * map and the flash; returns when its data is in the controller, ph gets its phases. */
uint64_t ssd_read_page(struct ssd *s, uint64_t now, uint64_t lpa, uint64_t bytes, uint64_t t,
		       uint64_t *ph);
/* Programs lpa's page, its data ready at t (in the cache or the controller): GC first where
 * the FTL does it; returns when the program ends, ph gets its phases (channel, wait, gc,
 * flash). */
uint64_t ssd_program_page(struct ssd *s, uint64_t now, uint64_t lpa, uint64_t t, uint64_t *ph);
/* Moves bytes over the host interface, ready at t: returns when they are over; ph gets the wait
 * (queue) and the transfer (interface). */
uint64_t ssd_iface_transfer(struct ssd *s, uint64_t now, uint64_t bytes, uint64_t t, uint64_t *ph);
/* dev_ssd_report.c: the component's report, breakdown and parts (sim_system.h). */
void ssd_report(const struct iolab_comp *c, struct iolab_comp_report *out);
void ssd_breakdown(const struct iolab_comp *c, struct iolab_breakdown *b);
unsigned ssd_parts(const struct iolab_comp *c, struct iolab_comp_report *out, unsigned max);
/* bytes at rate bytes/s, in ns (rounded to the nearest). */
uint64_t ssd_xfer_ns(uint64_t bytes, uint64_t rate);

#endif
