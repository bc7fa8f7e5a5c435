/* ssd_model.c: the arithmetic of an SSD model (ssd_model.h): its physical and logical page
 * counts, and the refusal of figures no flash device can have (zero channels or dies, a page
 * that is not whole 512-byte sectors, over-provisioning outside [0, 1) or not above the GC
 * reserve, a queue beyond its interface, zero times or rates). The model file's reader
 * (ssd_model_file.c) and MQSim's importer (import_mqsim.c) run the check; the device and its
 * FTL may rely on what it guarantees. */
#include <errno.h>
#include <inttypes.h>
#include <math.h>
#include <stdio.h>
#include <string.h>

#include "iolab/ssd_model.h"
#include "sim/formats/ssd_model_file.h"

/* The simulator keeps 4 bytes per page and numbers physical pages in 32 bits. */
#define SSD_MAX_PAGES 0xffffffffull

/* a x b, or 0 when it does not fit in 64 bits (never 0 otherwise: the factors are checked
 * non-zero before). */
static uint64_t mul(uint64_t a, uint64_t b)
{
	uint64_t r;
	return __builtin_mul_overflow(a, b, &r) ? 0 : r;
}

uint64_t iolab_ssd_planes(const struct iolab_ssd_model *m)
{
	return mul(mul(mul(m->channels, m->chips_per_channel), m->dies_per_chip), m->planes_per_die);
}

uint64_t iolab_ssd_physical_pages(const struct iolab_ssd_model *m)
{
	return mul(mul(iolab_ssd_planes(m), m->blocks_per_plane), m->pages_per_block);
}

/* As MQSim's Address_Mapping_Unit_Base (ssd/Address_Mapping_Unit_Base.cpp:25): physical x
 * (1 - OP), rounded down. */
uint64_t iolab_ssd_logical_pages(const struct iolab_ssd_model *m)
{
	uint64_t phys = iolab_ssd_physical_pages(m);
	if (!(m->overprovisioning >= 0 && m->overprovisioning < 1))
		return 0;
	return (uint64_t)floor((double)phys * (1 - m->overprovisioning));
}

uint32_t iolab_ssd_gc_reserve_blocks(const struct iolab_ssd_model *m)
{
	double r = floor(m->gc_threshold * (double)m->blocks_per_plane);
	return r < 1 ? 1 : r > UINT32_MAX ? UINT32_MAX : (uint32_t)r;
}

/* The flash array: every count at least 1, pages whole sectors, not more pages than the
 * simulator numbers. */
static int check_geometry(const struct iolab_ssd_model *m, struct iolab_err *err)
{
	const struct {
		const char *field;
		uint64_t v;
	} counts[] = {
		{"channels", m->channels}, {"chips_per_channel", m->chips_per_channel},
		{"dies_per_chip", m->dies_per_chip}, {"planes_per_die", m->planes_per_die},
		{"blocks_per_plane", m->blocks_per_plane}, {"pages_per_block", m->pages_per_block},
		{"page_bytes", m->page_bytes},
	};
	for (unsigned i = 0; i < sizeof(counts) / sizeof(counts[0]); i++)
		if (!counts[i].v)
			return iolab_err_field(err, counts[i].field, "is 0: a flash array needs at least one");
	if (m->page_bytes % 512)
		return iolab_err_field(err, "page_bytes", "%" PRIu32 " is not a multiple of 512 (a page holds whole "
			    "sectors)", m->page_bytes);
	uint64_t phys = iolab_ssd_physical_pages(m);
	if (!phys || phys > SSD_MAX_PAGES)
		return iolab_err_field(err, "blocks_per_plane", "the flash array has %s pages, more than the %llu "
			    "the simulator addresses", phys ? "so many" : "more than 2^64",
			    (unsigned long long)SSD_MAX_PAGES);
	if (m->cell > IOLAB_CELL_TLC)
		return iolab_err_field(err, "cell", "%u is not slc, mlc or tlc", m->cell);
	return 0;
}

static int check_times(const struct iolab_ssd_model *m, struct iolab_err *err)
{
	static const char *const read[] = {"read_us", "read_csb_us", "read_msb_us"};
	static const char *const prog[] = {"program_us", "program_csb_us", "program_msb_us"};
	for (unsigned i = 0; i < 3; i++) {
		if (!m->read_ns[i])
			return iolab_err_field(err, read[i], "is 0: a flash read takes time");
		if (!m->program_ns[i])
			return iolab_err_field(err, prog[i], "is 0: a flash program takes time");
	}
	if (!m->erase_ns)
		return iolab_err_field(err, "erase_ms", "is 0: a block erase takes time");
	if (!m->channel_rate)
		return iolab_err_field(err, "channel_mb_s", "is 0: the flash channel moves no data");
	if (!m->iface_rate)
		return iolab_err_field(err, "interface_mb_s", "is 0: the host interface moves no data");
	return 0;
}

static int check_interface(const struct iolab_ssd_model *m, struct iolab_err *err)
{
	if (m->iface > IOLAB_SSD_SATA)
		return iolab_err_field(err, "interface", "%u is not nvme or sata", m->iface);
	if (!m->queues)
		return iolab_err_field(err, "queues", "is 0: the device takes commands from at least one queue");
	if (!m->queue_entries)
		return iolab_err_field(err, "queue_entries", "is 0: a queue holds at least one command");
	if (m->iface == IOLAB_SSD_SATA && m->queues != 1)
		return iolab_err_field(err, "queues", "%u: SATA has one command queue (NCQ)", m->queues);
	if (m->iface == IOLAB_SSD_SATA && m->queue_entries > 32)
		return iolab_err_field(err, "queue_entries", "%u is more than SATA NCQ's 32 commands",
			    m->queue_entries);
	if (m->queues > 65535)
		return iolab_err_field(err, "queues", "%u is more than NVMe's 65535 I/O queues", m->queues);
	if (m->queue_entries > 65536)
		return iolab_err_field(err, "queue_entries", "%u is more than NVMe's 65536 entries a queue",
			    m->queue_entries);
	if (m->cache_bytes && m->cache_bytes < m->page_bytes)
		return iolab_err_field(err, "cache_bytes", "%" PRIu64 " holds not one %" PRIu32 "-byte page",
			    m->cache_bytes, m->page_bytes);
	return 0;
}

/* GC, allocation and the mapping table. */
static int check_ftl(const struct iolab_ssd_model *m, struct iolab_err *err)
{
	if (!(m->overprovisioning >= 0 && m->overprovisioning < 1))
		return iolab_err_field(err, "overprovisioning", "%g is not in [0, 1) (0 %% to below 100 %% of the "
			    "physical pages are spare)", m->overprovisioning);
	if (!(m->gc_threshold > 0 && m->gc_threshold < 1))
		return iolab_err_field(err, "gc_threshold", "%g is not in (0, 1): a fraction of a plane's blocks",
			    m->gc_threshold);
	uint32_t reserve = iolab_ssd_gc_reserve_blocks(m);
	/* the simulator's FTL keeps the reserve, the host's and GC's open blocks and at least one
	 * block of data on every plane (ssd_ftl_check, which refuses the same) */
	if (m->blocks_per_plane < (uint64_t)reserve + 3)
		return iolab_err_field(err, "blocks_per_plane", "%" PRIu32 " is too few for the GC reserve of %"
			    PRIu32 " free blocks (gc_threshold %g), the two open blocks and one of data: "
			    "at least %" PRIu64, m->blocks_per_plane, reserve, m->gc_threshold,
			    (uint64_t)reserve + 3);
	/* the spare must hold the reserve and at least one more block on every plane, or GC finds
	 * no block with an invalid page once the drive is full */
	uint64_t phys = iolab_ssd_physical_pages(m), logical = iolab_ssd_logical_pages(m);
	double spare_blocks = (double)(phys - logical) / (double)iolab_ssd_planes(m) /
			      m->pages_per_block;
	if (spare_blocks < reserve + 1.0)
		return iolab_err_field(err, "overprovisioning", "%g leaves %.1f spare blocks a plane, not more than "
			    "the GC reserve of %" PRIu32 " (gc_threshold %g of %" PRIu32 " blocks): "
			    "GC could not run once the drive is full", m->overprovisioning, spare_blocks,
			    reserve, m->gc_threshold, m->blocks_per_plane);
	/* GC on a plane can always free a block while the plane's share of the logical pages fits
	 * in its blocks less the reserve and the two open blocks, less one page (ssd_ftl_check) */
	uint64_t planes = iolab_ssd_planes(m), share = (logical + planes - 1) / planes;
	uint64_t room = ((uint64_t)m->blocks_per_plane - reserve - 2) * m->pages_per_block - 1;
	if (share > room)
		return iolab_err_field(err, "overprovisioning", "%g leaves %" PRIu64 " logical pages a plane, more "
			    "than the %" PRIu64 " its FTL holds beside the GC reserve of %" PRIu32
			    " blocks and the host's and GC's open blocks ((blocks_per_plane %" PRIu32
			    " - %" PRIu32 " - 2) x pages_per_block - 1): more spare or more blocks",
			    m->overprovisioning, share, room, reserve, m->blocks_per_plane, reserve);
	if (!(m->gc_background == 0 || (m->gc_background > m->gc_threshold && m->gc_background < 1)))
		return iolab_err_field(err, "gc_background", "%g is neither 0 (none) nor between gc_threshold (%g) "
			    "and 1", m->gc_background, m->gc_threshold);
	if (m->gc_policy > IOLAB_GC_RANDOM)
		return iolab_err_field(err, "gc_policy", "%u is not a policy", m->gc_policy);
	if (m->gc_policy == IOLAB_GC_RGA && (!m->rga_choices || m->rga_choices > m->blocks_per_plane))
		return iolab_err_field(err, "rga_choices", "%u is not 1 to blocks_per_plane (%" PRIu32 ")",
			    m->rga_choices, m->blocks_per_plane);
	if (m->allocation > IOLAB_ALLOC_DYNAMIC)
		return iolab_err_field(err, "allocation", "%u is not static or dynamic", m->allocation);
	if (m->allocation == IOLAB_ALLOC_STATIC && !iolab_ssd_order_valid(m->allocation_order))
		return iolab_err_field(err, "allocation", "'%.4s' is not a permutation of CWDP", m->allocation_order);
	if (!m->ideal_mapping && !m->cmt_entry_bytes)
		return iolab_err_field(err, "cmt_entry_bytes", "is 0: a mapping entry takes room");
	if (!m->ideal_mapping && m->cmt_bytes < m->cmt_entry_bytes)
		return iolab_err_field(err, "cmt_bytes", "%" PRIu64 " holds not one %" PRIu32 "-byte entry "
			    "(ideal_mapping = no)", m->cmt_bytes, m->cmt_entry_bytes);
	return 0;
}

int iolab_ssd_model_check(const struct iolab_ssd_model *m, struct iolab_err *err)
{
	int rc = check_geometry(m, err);
	if (!rc)
		rc = check_times(m, err);
	if (!rc)
		rc = check_interface(m, err);
	return rc ? rc : check_ftl(m, err);
}

bool iolab_ssd_order_valid(const char *order)
{
	if (strlen(order) != 4)
		return false;
	for (const char *c = "CWDP"; *c; c++)
		if (!strchr(order, *c))
			return false;
	return true;
}

uint32_t iolab_ssd_mqsim_cmt_entry_bytes(const struct iolab_ssd_model *m)
{
	double phys = (double)iolab_ssd_physical_pages(m);
	if (phys < 1)
		return 8;
	double bytes = ceil((2 * log2(phys) + m->page_bytes / 512) / 8);
	return bytes < 1 ? 1 : bytes > 64 ? 64 : (uint32_t)bytes;
}
