/* import_mqsim.c: MQSim's SSD configuration (ssdconfig.xml; Tavakkol et al., FAST 2018,
 * github.com/CMU-SAFARI/MQSim: src/exec/Host_Parameter_Set.cpp, Device_Parameter_Set.cpp,
 * Flash_Parameter_Set.cpp) read into an iolab SSD model (mqsim_import.h). Each parameter is
 * mapped to the iolab field with the same meaning; the ones iolab does not model are accepted
 * and reported through the note callback; a missing one takes MQSim's default from its source
 * (reported too), except SATA_Processing_Delay, which MQSim leaves without one. An unknown
 * element is refused. */
#include <errno.h>
#include <math.h>
#include <stdbool.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <strings.h>

#include "iolab/mqsim_import.h"
#include "iolab/parse_number.h"
#include "iolab/textfile.h"
#include "sim/formats/ssd_model_file.h"
#include "sim/formats/xml_simple.h"

enum mqsec { S_HOST, S_DEVICE, S_FLASH };
static const char *const sec_names[] = {"Host_Parameter_Set", "Device_Parameter_Set",
					"Flash_Parameter_Set"};
enum mqtype { T_UINT, T_REAL, T_BOOL, T_WORD };

#define NOT_MODELLED "accepted, not modelled by iolab: "
#define SUSPEND_DEAD "accepted, no effect: MQSim never suspends (its TSU's WRITING and ERASING " \
	"cases fall through to no suspension, TSU_OutofOrder.cpp)"
#define WEAR NOT_MODELLED "wear levelling"

/* MQSim's parameters: section, name, type, MQSim's default (its source's initial value; NULL:
 * none), the words it takes ("|A|B|"), the largest number, and why iolab ignores it (NULL: it
 * is mapped). */
static const struct mqparam {
	enum mqsec sec;
	const char *name;
	enum mqtype type;
	const char *def;
	const char *words;
	double max;
	const char *ignored;
} params[] = {
	{S_HOST, "PCIe_Lane_Bandwidth", T_REAL, "0.4", NULL, 1e3, NULL},
	{S_HOST, "PCIe_Lane_Count", T_UINT, "4", NULL, 64, NULL},
	{S_HOST, "SATA_Processing_Delay", T_UINT, NULL, NULL, 1e12, NULL},
	{S_HOST, "Enable_ResponseTime_Logging", T_BOOL, "false", NULL, 0,
	 NOT_MODELLED "iolab reports latencies itself"},
	{S_HOST, "ResponseTime_Logging_Period_Length", T_UINT, "400000", NULL, 1e15,
	 NOT_MODELLED "iolab reports latencies itself"},
	{S_DEVICE, "Seed", T_UINT, "123", NULL, 4294967295.0, NOT_MODELLED "MQSim's random seed"},
	{S_DEVICE, "Enabled_Preconditioning", T_BOOL, "true", NULL, 0,
	 "accepted, not taken from the model: iolab preconditions with 'sim --precondition'"},
	{S_DEVICE, "Memory_Type", T_WORD, "FLASH", "|FLASH|", 0, NULL},
	{S_DEVICE, "HostInterface_Type", T_WORD, "NVME", "|NVME|SATA|", 0, NULL},
	{S_DEVICE, "IO_Queue_Depth", T_UINT, "1024", NULL, 65535, NULL},
	{S_DEVICE, "Queue_Fetch_Size", T_UINT, "512", NULL, 65535,
	 NOT_MODELLED "the device takes every queued command (no fetch limit)"},
	{S_DEVICE, "Caching_Mechanism", T_WORD, "ADVANCED", "|SIMPLE|ADVANCED|", 0, NULL},
	{S_DEVICE, "Data_Cache_Sharing_Mode", T_WORD, "SHARED", "|SHARED|EQUAL_PARTITIONING|", 0,
	 NOT_MODELLED "one host, no sharing between flows"},
	{S_DEVICE, "Data_Cache_Capacity", T_UINT, "536870912", NULL, 4294967295.0, NULL},
	{S_DEVICE, "Data_Cache_DRAM_Row_Size", T_UINT, "8192", NULL, 4294967295.0, NULL},
	{S_DEVICE, "Data_Cache_DRAM_Data_Rate", T_UINT, "800", NULL, 4294967295.0, NULL},
	{S_DEVICE, "Data_Cache_DRAM_Data_Busrt_Size", T_UINT, "4", NULL, 4294967295.0, NULL},
	{S_DEVICE, "Data_Cache_DRAM_tRCD", T_UINT, "13", NULL, 1e12, NULL},
	{S_DEVICE, "Data_Cache_DRAM_tCL", T_UINT, "13", NULL, 1e12, NULL},
	{S_DEVICE, "Data_Cache_DRAM_tRP", T_UINT, "13", NULL, 1e12, NULL},
	{S_DEVICE, "Address_Mapping", T_WORD, "PAGE_LEVEL", "|PAGE_LEVEL|HYBRID|", 0, NULL},
	{S_DEVICE, "Ideal_Mapping_Table", T_BOOL, "false", NULL, 0, NULL},
	{S_DEVICE, "CMT_Capacity", T_UINT, "2097152", NULL, 4294967295.0, NULL},
	{S_DEVICE, "CMT_Sharing_Mode", T_WORD, "SHARED", "|SHARED|EQUAL_PARTITIONING|", 0,
	 NOT_MODELLED "one host, no sharing between flows"},
	{S_DEVICE, "Plane_Allocation_Scheme", T_WORD, "CWDP", NULL, 0, NULL},
	{S_DEVICE, "Transaction_Scheduling_Policy", T_WORD, "OUT_OF_ORDER",
	 "|OUT_OF_ORDER|PRIORITY_OUT_OF_ORDER|FLIN|", 0,
	 NOT_MODELLED "iolab serves a die's transactions in arrival order, GC first"},
	{S_DEVICE, "Overprovisioning_Ratio", T_REAL, "0.07", NULL, 1, NULL},
	{S_DEVICE, "GC_Exec_Threshold", T_REAL, "0.05", NULL, 1, NULL},
	{S_DEVICE, "GC_Block_Selection_Policy", T_WORD, "RGA",
	 "|GREEDY|RGA|RANDOM|RANDOM_P|RANDOM_PP|FIFO|", 0, NULL},
	{S_DEVICE, "Use_Copyback_for_GC", T_BOOL, "false", NULL, 0, NULL},
	{S_DEVICE, "Preemptible_GC_Enabled", T_BOOL, "true", NULL, 0, NULL},
	{S_DEVICE, "GC_Hard_Threshold", T_REAL, "0.005", NULL, 1,
	 NOT_MODELLED "it only bounds preemptible GC"},
	{S_DEVICE, "Dynamic_Wearleveling_Enabled", T_BOOL, "true", NULL, 0, WEAR},
	{S_DEVICE, "Static_Wearleveling_Enabled", T_BOOL, "true", NULL, 0, WEAR},
	{S_DEVICE, "Static_Wearleveling_Threshold", T_UINT, "100", NULL, 4294967295.0, WEAR},
	{S_DEVICE, "Preferred_suspend_erase_time_for_read", T_UINT, "700000", NULL, 1e15, SUSPEND_DEAD},
	{S_DEVICE, "Prefered_suspend_erase_time_for_read", T_UINT, "700000", NULL, 1e15, SUSPEND_DEAD},
	{S_DEVICE, "Preferred_suspend_erase_time_for_write", T_UINT, "700000", NULL, 1e15, SUSPEND_DEAD},
	{S_DEVICE, "Preferred_suspend_write_time_for_read", T_UINT, "100000", NULL, 1e15, SUSPEND_DEAD},
	{S_DEVICE, "Flash_Channel_Count", T_UINT, "8", NULL, 1024, NULL},
	{S_DEVICE, "Flash_Channel_Width", T_UINT, "1", NULL, 64, NULL},
	{S_DEVICE, "Channel_Transfer_Rate", T_UINT, "300", NULL, 1e6, NULL},
	{S_DEVICE, "Chip_No_Per_Channel", T_UINT, "4", NULL, 1024, NULL},
	{S_DEVICE, "Flash_Comm_Protocol", T_WORD, "NVDDR2", "|NVDDR2|", 0, NULL},
	{S_FLASH, "Flash_Technology", T_WORD, "MLC", "|SLC|MLC|TLC|", 0, NULL},
	{S_FLASH, "CMD_Suspension_Support", T_WORD, "ERASE", "|NONE|ERASE|PROGRAM|PROGRAM_ERASE|", 0,
	 SUSPEND_DEAD},
	{S_FLASH, "Page_Read_Latency_LSB", T_UINT, "75000", NULL, 1e12, NULL},
	{S_FLASH, "Page_Read_Latency_CSB", T_UINT, "75000", NULL, 1e12, NULL},
	{S_FLASH, "Page_Read_Latency_MSB", T_UINT, "75000", NULL, 1e12, NULL},
	{S_FLASH, "Page_Program_Latency_LSB", T_UINT, "750000", NULL, 1e12, NULL},
	{S_FLASH, "Page_Program_Latency_CSB", T_UINT, "750000", NULL, 1e12, NULL},
	{S_FLASH, "Page_Program_Latency_MSB", T_UINT, "750000", NULL, 1e12, NULL},
	{S_FLASH, "Block_Erase_Latency", T_UINT, "3800000", NULL, 1e12, NULL},
	{S_FLASH, "Block_PE_Cycles_Limit", T_UINT, "10000", NULL, 4294967295.0,
	 NOT_MODELLED "endurance"},
	{S_FLASH, "Suspend_Erase_Time", T_UINT, "700000", NULL, 1e12, SUSPEND_DEAD},
	{S_FLASH, "Suspend_Program_Time", T_UINT, "100000", NULL, 1e12, SUSPEND_DEAD},
	{S_FLASH, "Die_No_Per_Chip", T_UINT, "2", NULL, 64, NULL},
	{S_FLASH, "Plane_No_Per_Die", T_UINT, "2", NULL, 64, NULL},
	{S_FLASH, "Block_No_Per_Plane", T_UINT, "2048", NULL, 1 << 24, NULL},
	{S_FLASH, "Page_No_Per_Block", T_UINT, "256", NULL, 1 << 20, NULL},
	{S_FLASH, "Page_Capacity", T_UINT, "8192", NULL, 1 << 24, NULL},
	{S_FLASH, "Page_Metadat_Capacity", T_UINT, "1872", NULL, 4294967295.0,
	 "accepted, no effect: MQSim reads it and uses it nowhere (the channel moves data only)"},
};
#define NPARAMS (sizeof(params) / sizeof(params[0]))

/* The ONFI NV-DDR2 read command MQSim times on the channel (tCS + 6 tWC + tWB + tRR,
 * ONFI_Channel_NVDDR2.cpp), not a parameter of the file. */
#define MQSIM_READ_COMMAND_NS 290

struct mqimport {
	const char *file;
	struct iolab_err *err;
	iolab_mqsim_note_fn note;
	void *ctx;
	unsigned root_line;
	unsigned line[NPARAMS];  /* where each was given; 0: MQSim's default taken */
	double num[NPARAMS];
	char word[NPARAMS][32];
};

static int find(const char *name)
{
	for (unsigned i = 0; i < NPARAMS; i++)
		if (!strcmp(params[i].name, name))
			return (int)i;
	return -1;
}

static int perr(struct mqimport *q, unsigned line, const char *field, const char *why,
		const char *v)
{
	return iolab_errf(q->err, EINVAL, "%s:%u: field '%s': %s%.40s%s%s", q->file,
			  line ? line : q->root_line, field, v ? "'" : "", v ? v : "", v ? "' " : "",
			  why);
}

static void say(struct mqimport *q, unsigned line, const char *field, const char *what)
{
	if (q->note)
		q->note(q->file, line, field, what, q->ctx);
}

/* Reads value v of parameter i (given on line; 0: its default). */
static int value(struct mqimport *q, unsigned i, const char *v, unsigned line)
{
	const struct mqparam *p = &params[i];
	char why[160];
	switch (p->type) {
	case T_UINT:
	case T_REAL: {
		double x;
		int rc = iolab_parse_decimal(v, &x);
		if (rc == -EINVAL)
			return perr(q, line, p->name, "is not a number", v);
		if (p->type == T_UINT && x != floor(x))
			return perr(q, line, p->name, "is not a whole number", v);
		if (rc || x < 0 || x > p->max) {
			snprintf(why, sizeof(why), "is out of range (0..%.10g)", p->max);
			return perr(q, line, p->name, why, v);
		}
		q->num[i] = x;
		return 0;
	}
	case T_BOOL:
		/* MQSim's XML_deserialize: upper-cased, "FALSE" is false and every other value true */
		q->num[i] = strcasecmp(v, "false") != 0;
		if (strcasecmp(v, "true") && q->num[i]) {
			snprintf(why, sizeof(why), "'%.40s' taken as true, as MQSim takes every value but "
				 "false", v);
			say(q, line, p->name, why);
		}
		return 0;
	case T_WORD: {
		char up[32];
		size_t n = strlen(v);
		if (n >= sizeof(up))
			return perr(q, line, p->name, "is not one of MQSim's values", NULL);
		for (size_t k = 0; k <= n; k++)
			up[k] = (char)(v[k] >= 'a' && v[k] <= 'z' ? v[k] - 32 : v[k]);
		char bar[36];
		snprintf(bar, sizeof(bar), "|%s|", up);
		bool ok = p->words ? strstr(p->words, bar) != NULL : iolab_ssd_order_valid(up);
		if (!ok || !n) {
			if (p->words) {
				snprintf(why, sizeof(why), "is not one of %s", p->words + 1);
				why[strlen(why) - 1] = 0; /* the last '|' */
				for (char *c = why; *c; c++)
					if (*c == '|')
						*c = '/';
			} else {
				snprintf(why, sizeof(why), "is not a permutation of CWDP");
			}
			return perr(q, line, p->name, why, v);
		}
		memcpy(q->word[i], up, n + 1);
		return 0;
	}
	}
	return 0;
}

/* The parameters of one section element (sec), and its nested Flash_Parameter_Set. */
static int section(struct mqimport *q, const struct xml_doc *d, int at, enum mqsec sec,
		   unsigned *sec_line)
{
	for (int c = d->node[at].first_child; c >= 0; c = d->node[c].next) {
		const struct xml_node *e = &d->node[c];
		if (sec == S_DEVICE && !strcmp(e->name, sec_names[S_FLASH])) {
			if (sec_line[S_FLASH])
				return iolab_errf(q->err, EINVAL, "%s:%u: element '%s': already given on "
						  "line %u", q->file, e->line, e->name, sec_line[S_FLASH]);
			sec_line[S_FLASH] = e->line;
			if (e->text && *e->text)
				return iolab_errf(q->err, EINVAL, "%s:%u: element '%s': holds text, not "
						  "parameters", q->file, e->line, e->name);
			int rc = section(q, d, c, S_FLASH, sec_line);
			if (rc)
				return rc;
			continue;
		}
		int i = find(e->name);
		if (i < 0 || params[i].sec != sec) {
			char why[160];
			snprintf(why, sizeof(why), "%s of MQSim's <%s> (MQSim 7ec40e3, "
				 "src/exec/%s.cpp)", i < 0 ? "not a parameter" : "belongs elsewhere, not",
				 sec_names[sec], sec_names[sec]);
			return perr(q, e->line, e->name, why, NULL);
		}
		if (!e->text)
			return perr(q, e->line, e->name, "holds elements, not a value", NULL);
		if (q->line[i])
			return iolab_errf(q->err, EINVAL, "%s:%u: field '%s': already given on line %u",
					  q->file, e->line, e->name, q->line[i]);
		q->line[i] = e->line;
		int rc = value(q, (unsigned)i, e->text, e->line);
		if (rc)
			return rc;
	}
	return 0;
}

/* The document: <Execution_Parameter_Set> with the two sections, each once. */
static int document(struct mqimport *q, const struct xml_doc *d)
{
	const struct xml_node *root = &d->node[0];
	q->root_line = root->line;
	if (strcmp(root->name, "Execution_Parameter_Set"))
		return iolab_errf(q->err, EINVAL, "%s:%u: element '%.60s': not MQSim's "
				  "<Execution_Parameter_Set> (an SSD configuration, ssdconfig.xml)",
				  q->file, root->line, root->name);
	unsigned sec_line[3] = {0};
	for (int c = root->first_child; c >= 0; c = d->node[c].next) {
		const struct xml_node *e = &d->node[c];
		int s = !strcmp(e->name, sec_names[S_HOST]) ? S_HOST
			: !strcmp(e->name, sec_names[S_DEVICE]) ? S_DEVICE : -1;
		if (s < 0)
			return iolab_errf(q->err, EINVAL, "%s:%u: element '%.60s': not a section of "
					  "<Execution_Parameter_Set> (Host_Parameter_Set or "
					  "Device_Parameter_Set)", q->file, e->line, e->name);
		if (sec_line[s])
			return iolab_errf(q->err, EINVAL, "%s:%u: element '%s': already given on line %u",
					  q->file, e->line, e->name, sec_line[s]);
		sec_line[s] = e->line;
		if (e->text && *e->text)
			return iolab_errf(q->err, EINVAL, "%s:%u: element '%s': holds text, not "
					  "parameters", q->file, e->line, e->name);
		int rc = section(q, d, c, (enum mqsec)s, sec_line);
		if (rc)
			return rc;
	}
	if (!sec_line[S_DEVICE])
		return iolab_errf(q->err, EINVAL, "%s:%u: element 'Device_Parameter_Set': missing (the "
				  "device's parameters)", q->file, root->line);
	/* the parameters not given: MQSim's defaults */
	for (unsigned i = 0; i < NPARAMS; i++) {
		if (q->line[i] || !params[i].def)
			continue;
		if (!strcmp(params[i].name, "Prefered_suspend_erase_time_for_read"))
			continue; /* the misspelling MQSim's reader matches: one of the two */
		if (value(q, i, params[i].def, 0))
			return -EINVAL;
	}
	return 0;
}

static double num(const struct mqimport *q, const char *name)
{
	return q->num[find(name)];
}

static const char *word(const struct mqimport *q, const char *name)
{
	return q->word[find(name)];
}

static unsigned line_of(const struct mqimport *q, const char *name)
{
	return q->line[find(name)];
}

/* MQSim's DRAM access time of size bytes, with its integer divisions and truncations
 * (estimate_dram_access_time, ssd/Data_Cache_Manager_Base.h): a row is opened (tRCD + tCL) and
 * read in bursts, two per cycle of the data rate; beyond a row, (a row's bursts + tRP) for
 * every pair of rows, and the rest of the last row. */
static uint64_t dram_ns(double size, double row, double burst, double rate_mts, double trcd,
			double tcl, double trp)
{
	double burst_ns = 1e9 / (rate_mts * 1e6);
	if (size <= row)
		return (uint64_t)(trcd + tcl + floor(floor(size / burst / 2) * burst_ns));
	double row_ns = floor(floor(row / burst / 2) * burst_ns + trp);
	return (uint64_t)(trcd + tcl + row_ns * floor(size / row / 2) + trcd + tcl +
			  floor(fmod(size, row) / (burst * burst_ns)));
}

/* The iolab field a check names, and the MQSim parameter it came from. */
static const char *const from_mqsim[][2] = {
	{"channels", "Flash_Channel_Count"}, {"chips_per_channel", "Chip_No_Per_Channel"},
	{"dies_per_chip", "Die_No_Per_Chip"}, {"planes_per_die", "Plane_No_Per_Die"},
	{"blocks_per_plane", "Block_No_Per_Plane"}, {"pages_per_block", "Page_No_Per_Block"},
	{"page_bytes", "Page_Capacity"}, {"read_us", "Page_Read_Latency_LSB"},
	{"read_csb_us", "Page_Read_Latency_CSB"}, {"read_msb_us", "Page_Read_Latency_MSB"},
	{"program_us", "Page_Program_Latency_LSB"}, {"program_csb_us", "Page_Program_Latency_CSB"},
	{"program_msb_us", "Page_Program_Latency_MSB"}, {"erase_ms", "Block_Erase_Latency"},
	{"channel_mb_s", "Channel_Transfer_Rate"}, {"interface_mb_s", "PCIe_Lane_Bandwidth"},
	{"queues", "IO_Queue_Depth"}, {"queue_entries", "IO_Queue_Depth"},
	{"cache_bytes", "Data_Cache_Capacity"}, {"overprovisioning", "Overprovisioning_Ratio"},
	{"gc_threshold", "GC_Exec_Threshold"}, {"rga_choices", "Block_No_Per_Plane"},
	{"allocation", "Plane_Allocation_Scheme"}, {"cmt_bytes", "CMT_Capacity"},
	{"cmt_entry_bytes", "CMT_Capacity"},
};

/* The model's figures from the parameters read. */
static int build(struct mqimport *q, struct iolab_ssd_model *s)
{
	iolab_ssd_model_defaults(s);
	bool sata = !strcmp(word(q, "HostInterface_Type"), "SATA");
	s->iface = sata ? IOLAB_SSD_SATA : IOLAB_SSD_NVME;
	s->queues = 1; /* one I/O flow, one queue pair (MQSim: one per flow) */
	s->queue_entries = (unsigned)num(q, "IO_Queue_Depth");
	if (sata) {
		if (!line_of(q, "SATA_Processing_Delay"))
			return perr(q, 0, "SATA_Processing_Delay", "missing: a SATA device needs it "
				    "(MQSim gives it no default)", NULL);
		s->command_ns = (uint64_t)num(q, "SATA_Processing_Delay");
		s->iface_rate = 600000000; /* SATA 3 */
	} else {
		s->iface_rate = (uint64_t)llround(num(q, "PCIe_Lane_Count") *
						  num(q, "PCIe_Lane_Bandwidth") * 1e9);
	}
	if (!strcmp(word(q, "Address_Mapping"), "HYBRID"))
		return perr(q, line_of(q, "Address_Mapping"), "Address_Mapping", "iolab maps pages "
			    "(PAGE_LEVEL; MQSim's HYBRID is a stub)", "HYBRID");
	s->cache_bytes = (uint64_t)num(q, "Data_Cache_Capacity");
	s->cache_write_back = true;
	s->channels = (unsigned)num(q, "Flash_Channel_Count");
	s->chips_per_channel = (unsigned)num(q, "Chip_No_Per_Channel");
	s->dies_per_chip = (unsigned)num(q, "Die_No_Per_Chip");
	s->planes_per_die = (unsigned)num(q, "Plane_No_Per_Die");
	s->blocks_per_plane = (uint32_t)num(q, "Block_No_Per_Plane");
	s->pages_per_block = (uint32_t)num(q, "Page_No_Per_Block");
	s->page_bytes = (uint32_t)num(q, "Page_Capacity");
	if (num(q, "Data_Cache_DRAM_Data_Rate") == 0 || num(q, "Data_Cache_DRAM_Data_Busrt_Size") == 0 ||
	    num(q, "Data_Cache_DRAM_Row_Size") == 0) {
		const char *f = num(q, "Data_Cache_DRAM_Data_Rate") == 0 ? "Data_Cache_DRAM_Data_Rate"
			: num(q, "Data_Cache_DRAM_Data_Busrt_Size") == 0 ? "Data_Cache_DRAM_Data_Busrt_Size"
			: "Data_Cache_DRAM_Row_Size";
		return perr(q, line_of(q, f), f, "is 0: the DRAM would move no data", NULL);
	}
	s->cache_page_ns = dram_ns(s->page_bytes, num(q, "Data_Cache_DRAM_Row_Size"),
				   num(q, "Data_Cache_DRAM_Data_Busrt_Size"),
				   num(q, "Data_Cache_DRAM_Data_Rate"), num(q, "Data_Cache_DRAM_tRCD"),
				   num(q, "Data_Cache_DRAM_tCL"), num(q, "Data_Cache_DRAM_tRP"));
	const char *tech = word(q, "Flash_Technology");
	s->cell = !strcmp(tech, "SLC") ? IOLAB_CELL_SLC : !strcmp(tech, "MLC") ? IOLAB_CELL_MLC
		: IOLAB_CELL_TLC;
	static const char *const lat[] = {"LSB", "CSB", "MSB"};
	for (unsigned i = 0; i < 3; i++) {
		char n[40];
		snprintf(n, sizeof(n), "Page_Read_Latency_%s", lat[i]);
		s->read_ns[i] = (uint64_t)num(q, n);
		snprintf(n, sizeof(n), "Page_Program_Latency_%s", lat[i]);
		s->program_ns[i] = (uint64_t)num(q, n);
	}
	s->erase_ns = (uint64_t)num(q, "Block_Erase_Latency");
	/* width x rate: iolab takes the exact 1000 / rate ns a transfer, where MQSim truncates it
	 * (SSD_Device.cpp: 2 x (int)(1000 / rate) ns per two transfers) */
	s->channel_rate = (uint64_t)(num(q, "Flash_Channel_Width") * num(q, "Channel_Transfer_Rate") * 1e6);
	s->channel_command_ns = MQSIM_READ_COMMAND_NS;
	s->multiplane = true;
	s->overprovisioning = num(q, "Overprovisioning_Ratio");
	memcpy(s->allocation_order, word(q, "Plane_Allocation_Scheme"), 5);
	s->allocation = IOLAB_ALLOC_STATIC;
	const char *gc = word(q, "GC_Block_Selection_Policy");
	s->gc_policy = !strcmp(gc, "GREEDY") ? IOLAB_GC_GREEDY : !strcmp(gc, "RGA") ? IOLAB_GC_RGA
		: !strcmp(gc, "FIFO") ? IOLAB_GC_FIFO : IOLAB_GC_RANDOM;
	s->rga_choices = s->blocks_per_plane > 1 ? (unsigned)log2(s->blocks_per_plane) : 1;
	s->gc_threshold = num(q, "GC_Exec_Threshold");
	s->gc_copyback = num(q, "Use_Copyback_for_GC") != 0;
	s->ideal_mapping = num(q, "Ideal_Mapping_Table") != 0;
	s->cmt_bytes = (uint64_t)num(q, "CMT_Capacity");
	s->cmt_entry_bytes = iolab_ssd_mqsim_cmt_entry_bytes(s);
	return 0;
}

/* After a successful import, what became of each parameter iolab does not take as MQSim
 * means it, in the order of the table. */
static void notes(struct mqimport *q)
{
	for (unsigned i = 0; i < NPARAMS; i++) {
		const struct mqparam *p = &params[i];
		const char *w = q->word[i];
		char what[200] = "";
		if (!q->line[i] && !p->def)
			continue; /* SATA_Processing_Delay of an NVMe device */
		if (!q->line[i] && !strcmp(p->name, "Prefered_suspend_erase_time_for_read"))
			continue; /* the misspelling MQSim's reader matches: one of the two */
		if (!q->line[i])
			snprintf(what, sizeof(what), "missing: MQSim's default %s taken%s%s", p->def,
				 p->ignored ? "; " : "", p->ignored ? p->ignored : "");
		else if (p->ignored)
			snprintf(what, sizeof(what), "%s", p->ignored);
		else if (!strcmp(p->name, "Caching_Mechanism") && !strcmp(w, "ADVANCED"))
			snprintf(what, sizeof(what), "ADVANCED taken as one write-back LRU cache: MQSim's "
				 "early write-back of cold pages is not modelled");
		else if (!strcmp(p->name, "GC_Block_Selection_Policy") &&
			 (!strcmp(w, "RANDOM") || !strcmp(w, "RANDOM_PP")))
			snprintf(what, sizeof(what), "%s taken as iolab's random (a random full block, "
				 "MQSim's RANDOM_P)", w);
		else if (!strcmp(p->name, "Preemptible_GC_Enabled") && q->num[i] != 0)
			snprintf(what, sizeof(what), NOT_MODELLED "iolab's GC runs before the write that "
				 "needs it");
		else if (!strcmp(p->name, "SATA_Processing_Delay") &&
			 strcmp(q->word[find("HostInterface_Type")], "SATA"))
			snprintf(what, sizeof(what), "accepted, no effect on an NVMe device");
		if (*what)
			say(q, q->line[i], p->name, what);
	}
}

/* The check's refusal, named by the MQSim parameter it came from. */
static int check_named(struct mqimport *q, struct iolab_disk_model *m, struct iolab_ssd_model *s,
		       const char *name, const char *about)
{
	int rc = iolab_ssd_model_adopt(m, s, name, about, q->err);
	if (!rc)
		return 0;
	char field[64] = "", rest[512];
	if (sscanf(q->err->msg, "field '%63[^']'", field) != 1)
		return rc;
	snprintf(rest, sizeof(rest), "%s", q->err->msg + strlen(field) + 10); /* past "field 'NAME': " */
	for (unsigned i = 0; i < sizeof(from_mqsim) / sizeof(from_mqsim[0]); i++)
		if (!strcmp(from_mqsim[i][0], field))
			return iolab_errf(q->err, EINVAL, "%s:%u: field '%s' (iolab's '%s'): %s", q->file,
					  line_of(q, from_mqsim[i][1]) ? line_of(q, from_mqsim[i][1])
					  : q->root_line, from_mqsim[i][1], field, rest);
	iolab_err_prefix(q->err, "%s:%u", q->file, q->root_line);
	return rc;
}

int iolab_import_mqsim_text(const char *name, const char *text, struct iolab_disk_model *m,
			    iolab_mqsim_note_fn note, void *ctx, struct iolab_err *err)
{
	memset(m, 0, sizeof(*m));
	struct xml_doc d;
	int rc = xml_simple_parse(name, text, &d, err);
	if (rc)
		return rc;
	struct mqimport *q = calloc(1, sizeof(*q));
	struct iolab_ssd_model *s = malloc(sizeof(*s));
	if (!q || !s) {
		free(q);
		free(s);
		xml_simple_free(&d);
		return iolab_errf(err, ENOMEM, "%s: out of memory", name);
	}
	*q = (struct mqimport){.file = name, .err = err, .note = note, .ctx = ctx};
	rc = document(q, &d);
	if (!rc)
		rc = build(q, s);
	if (!rc) {
		/* the model's name: the file name's stem, printable */
		const char *base = strrchr(name, '/');
		char stem[64], about[256];
		snprintf(stem, sizeof(stem), "%s", base ? base + 1 : name);
		char *dot = strrchr(stem, '.');
		if (dot && dot != stem)
			*dot = 0;
		for (char *c = stem; *c; c++)
			if ((unsigned char)*c < ' ' || (unsigned char)*c > '~')
				*c = '?';
		snprintf(about, sizeof(about), "imported by 'iolab model import-mqsim' from MQSim's SSD "
			 "configuration %s", stem);
		rc = check_named(q, m, s, *stem ? stem : "mqsim", about);
		s = NULL; /* adopted, or freed by the refusal */
		if (!rc)
			notes(q);
	}
	free(s);
	free(q);
	xml_simple_free(&d);
	return rc;
}

int iolab_import_mqsim(const char *path, struct iolab_disk_model *m, iolab_mqsim_note_fn note,
		       void *ctx, struct iolab_err *err)
{
	char *text;
	memset(m, 0, sizeof(*m));
	int rc = iolab_read_text(path, 1u << 20, "an MQSim configuration", &text, err);
	if (rc)
		return rc;
	rc = iolab_import_mqsim_text(path, text, m, note, ctx, err);
	free(text);
	return rc;
}
