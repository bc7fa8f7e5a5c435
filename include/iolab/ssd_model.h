/* ssd_model.h: the description of a flash SSD that the simulator runs (docs/ssd.md): its host
 * interface (NVMe submission queues or SATA NCQ), its DRAM cache, the flash array (channels,
 * chips per channel, dies, planes, blocks, pages) and its timing (page read, program, block
 * erase, per cell type; the channel's transfer rate), and its flash translation layer
 * (page-level mapping, over-provisioning, allocation, garbage collection, a cached mapping
 * table).
 *
 * An SSD model is a model file (docs/model-format.md) whose first field is `device = ssd`; its
 * fields carry MQSim's parameter names in the docs (Tavakkol et al., FAST 2018: ssdconfig.xml),
 * as the drive fields carry DiskSim's. It is held by a struct iolab_disk_model (disk_model.h:
 * its `ssd`), so every place that opens, sweeps, sets or shows a model takes SSDs too; the
 * mechanical fields of that record are then unused, and its name, about, blocks (logical
 * capacity in 512-byte blocks), block_bytes (512) and queue_depth (the commands the device
 * holds) are derived from this one. All times are ns. */
#ifndef IOLAB_SSD_MODEL_H
#define IOLAB_SSD_MODEL_H

#include <stdbool.h>
#include <stdint.h>
#include <stdio.h>

#include "iolab/error.h"

enum iolab_ssd_iface { IOLAB_SSD_NVME = 0, IOLAB_SSD_SATA };
/* Cells: the latency of page i is index i mod (1, 2, 3) of the LSB/CSB/MSB figures. */
enum iolab_ssd_cell { IOLAB_CELL_SLC = 0, IOLAB_CELL_MLC, IOLAB_CELL_TLC };
enum iolab_gc_policy {
	IOLAB_GC_GREEDY = 0,   /* the full block with the fewest valid pages */
	IOLAB_GC_FIFO,         /* the least recently written full block (Desnoyers' LRW) */
	IOLAB_GC_COST_BENEFIT, /* the most (1 - u) x age / 2u (Rosenblum & Ousterhout, LFS) */
	IOLAB_GC_RGA,          /* greedy among rga_choices random full blocks (Van Houdt's d-choices;
				  MQSim's RGA) */
	IOLAB_GC_RANDOM,       /* a random full block */
};
/* Where a written page goes. STATIC: the plane follows from the logical page number, striped
 * over channels, chips, dies and planes in the order `allocation` names (MQSim's
 * Plane_Allocation_Scheme, "CWDP": channel varies fastest). DYNAMIC: the next plane of a die
 * that is free soonest. */
enum iolab_ssd_alloc { IOLAB_ALLOC_STATIC = 0, IOLAB_ALLOC_DYNAMIC };

struct iolab_ssd_model {
	/* host interface */
	unsigned iface;              /* enum iolab_ssd_iface */
	unsigned queues;             /* NVMe submission queues (SATA: 1) */
	unsigned queue_entries;      /* commands each queue holds (SATA NCQ: at most 32) */
	uint64_t iface_rate;         /* the device's own link, bytes/s (PCIe lanes x lane rate; SATA
					600 MB/s), used when no channel is modelled */
	uint64_t command_ns;         /* the controller's time per command (MQSim's
					SATA_Processing_Delay for SATA) */
	/* DRAM data cache */
	uint64_t cache_bytes;        /* 0: none */
	bool cache_write_back;       /* writes complete once in the cache */
	uint64_t cache_page_ns;      /* moving one flash page to or from DRAM */
	bool read_ahead;             /* the SSD's own read-ahead (off by default) */
	/* flash array */
	unsigned channels, chips_per_channel, dies_per_chip, planes_per_die;
	uint32_t blocks_per_plane, pages_per_block, page_bytes;
	unsigned cell;               /* enum iolab_ssd_cell */
	uint64_t read_ns[3], program_ns[3]; /* LSB, CSB, MSB page */
	uint64_t erase_ns;
	uint64_t channel_rate;       /* bytes/s: width x transfers/s */
	uint64_t channel_command_ns; /* command and address cycles of one flash transaction */
	bool multiplane;             /* same-page-index operations on a die's planes run as one */
	bool suspend_program, suspend_erase; /* a read suspends a program / an erase */
	uint64_t suspend_ns;         /* what a suspension and resume cost */
	/* FTL */
	double overprovisioning;     /* spare fraction of the physical pages (T - U) / T, 0 <= x < 1
					(MQSim's Overprovisioning_Ratio) */
	unsigned allocation;         /* enum iolab_ssd_alloc */
	char allocation_order[5];    /* STATIC: a permutation of "CWDP" */
	unsigned gc_policy;          /* enum iolab_gc_policy */
	unsigned rga_choices;        /* RGA's sample size */
	double gc_threshold;         /* foreground GC: a plane's free blocks at or below this
					fraction of its blocks (MQSim's GC_Exec_Threshold) */
	double gc_background;        /* background GC while a die is idle: free blocks below this
					fraction (0: none) */
	bool gc_copyback;            /* GC moves pages inside the die, not over the channel */
	bool ideal_mapping;          /* the whole map in DRAM; false: a cached mapping table */
	uint64_t cmt_bytes;          /* the cached mapping table (ideal_mapping false) */
	uint32_t cmt_entry_bytes;    /* one entry of it */
};

/* Pages of the flash array, and the logical pages the host sees (physical x (1 - OP), rounded
 * down). */
uint64_t iolab_ssd_physical_pages(const struct iolab_ssd_model *m);
uint64_t iolab_ssd_logical_pages(const struct iolab_ssd_model *m);
/* Refuses impossible figures (zero dies, a page larger than its block, over-provisioning at or
 * above 100 %, too few blocks per plane for the GC threshold, ...): 0, or -EINVAL with err
 * "field 'NAME': what is wrong". */
int iolab_ssd_model_check(const struct iolab_ssd_model *m, struct iolab_err *err);

#endif
