#!/usr/bin/env bash
# bench/ssd-vs-mqsim.sh: iolab's simulated SSD side by side with MQSim (Tavakkol et al., "MQSim:
# A Framework for Enabling Realistic Studies of Modern Multi-Queue SSD Devices", FAST 2018), the
# reference SSD simulator, on the same device and the same loads. It prints one table: load,
# tool, IOPS, mean and p99 latency (us), write amplification (WA) and wall time (docs/ssd.md,
# docs/benchmarks.md). A benchmark, not a test: it exits 0 after a complete run whatever the
# figures say.
#
# MQSim is never part of iolab: build it from its source outside the repository (its README:
# `make`) and give its binary in MQSIM. Without MQSIM (or when it is not executable) the script
# says so and exits 0 having run nothing.
#
# The device. The script writes MQSim's input files itself into a temporary directory: the
# device file is MQSim's own ssdconfig.xml (commit 7ec40e3; 8 channels x 4 chips x 2 dies x 2
# planes x 2048 blocks x 256 pages of 8 KiB, 7 % over-provisioning, RGA GC, a 2 MiB cached
# mapping table, a 256 MiB DRAM cache) with these changes, each because iolab does not model
# the setting and the neutral value takes it out of MQSim's figures:
#   - Dynamic_Wearleveling_Enabled, Static_Wearleveling_Enabled: false (iolab has no wear
#     levelling; its allocator takes free blocks in FIFO order);
#   - Enabled_Preconditioning: true for the loads iolab runs with --precondition, else false;
#   - Enable_ResponseTime_Logging true, ResponseTime_Logging_Period_Length 1 ns: MQSim then logs
#     at (nearly) every completion the time and the mean delay since its last line (whole us;
#     IO_Flow_Base.cpp:238-244), which gives the last completion and a p99 (below);
#   - Block_No_Per_Plane: $RW_BLOCKS (default 256: a 64 GiB device) for the preconditioned
#     random-write load only. MQSim's preconditioning draws the live pages one random number at
#     a time into a std::map (ssd/FTL.cpp:84-429): for the whole 512 GiB device that took more
#     than 10 minutes and 6 GB here; RW_BLOCKS=2048 runs it at full size.
# iolab runs its built-in model mqsim-default, MQSim's ssdconfig.xml field by field
# (models/mqsim-default.model; the script checks it against `iolab model import-mqsim` of its
# own file and says when they differ), and for the rw load `iolab model import-mqsim` of the
# file MQSim gets.
# Settings kept as they are, though iolab models them differently (docs/ssd.md, "not
# modelled"):
#   - Transaction_Scheduling_Policy PRIORITY_OUT_OF_ORDER: with one flow of one priority it is
#     MQSim's OUT_OF_ORDER (Sprinkler): a chip serves its queues out of order. iolab places
#     every flash operation in arrival order on its die and channel (reservations);
#   - Preemptible_GC_Enabled false: MQSim's GC is then always urgent and served before user
#     work on the chip; iolab's foreground GC is placed on the die before the write's program
#     that needs it (the same order, without MQSim's queues);
#   - Caching_Mechanism ADVANCED with the flows' Device_Level_Data_Caching_Mode WRITE_CACHE:
#     write-back; MQSim also writes a page it has not seen recently to flash at once (its "bloom
#     filter" of recent pages) and caps the write-back in flight at one page per plane
#     (SSD_Device.cpp:333-337); iolab holds every written page until the cache is full and
#     flushes each at once in the background;
#   - Ideal_Mapping_Table false, CMT_Capacity 2 MiB: both model the cached mapping table's misses
#     (a flash read of the translation page before the data read); MQSim also writes dirty
#     translation pages back on eviction (counted in its programs below), iolab does not;
#   - Queue_Fetch_Size 512, IO_Queue_Depth 65535: above every queue depth used here.
#
# The loads (the same requests in both tools where the tool allows):
#   tpcc, wsrch   the shared traces $TRACES/tpcc-small.trace and wsrch-small.trace, timed:
#                 MQSim: a trace flow (IO_Flow_Parameter_Set_Trace_Based, Relay_Count 1);
#                 iolab: iolab replay TRACE --format mqsim --model M --mode timed --qd 4096
#                 (4096, the most replay takes, is above either trace's peak of requests in
#                 flight, as MQSim's IO_Queue_Depth 65535 is, so no request waits for a slot
#                 in the host: the issue error is 0). The drive is fresh in both
#                 (Enabled_Preconditioning false: MQSim's Initial_Occupancy_Percentage is then
#                 unused).
#   rr            4 KiB random reads at QD 32 for $T_SYN simulated seconds, fresh drive:
#                 iolab sim --model M --pattern rand-read --bs 4k --qd 32 --time T_SYN
#                 MQSim: a synthetic flow, QUEUE_DEPTH generator, Average_No_of_Reqs_in_Queue
#                 32, RANDOM_UNIFORM over the whole device (Working_Set_Percentage 100), 8
#                 sectors aligned to 8, Stop_Time T_SYN. A read of a page never written reads
#                 flash in both (MQSim maps it on the fly, Address_Mapping_Unit_Page_Level.cpp
#                 online_create_entry_for_reads; iolab reads the plane static allocation
#                 gives it).
#   rw            4 KiB random writes at QD 32 for $T_SYN simulated seconds after
#                 preconditioning, on the $RW_BLOCKS-block device: iolab sim ... --pattern
#                 rand-write --precondition (every logical page written, then random overwrites
#                 to GC's steady state, built directly). MQSim: Enabled_Preconditioning true,
#                 Initial_Occupancy_Percentage $RW_OCCUPANCY (default 70; its steady state
#                 built analytically, FTL.cpp:47-750). iolab's --precondition is MQSim's 100,
#                 but MQSim does not run there: it caps a uniform random flow's live pages at
#                 90 % of its range ("MQSim made some adjustments!", FTL.cpp, RANDOM_UNIFORM),
#                 and at that on 256 blocks a plane its run stopped after 288 requests with no
#                 flash program, at simulated time 0, and crashed (SIGSEGV) writing its results,
#                 also with the data cache off (32 requests, none served); on 128 blocks its
#                 preconditioning refused ("It is not possible to assign PPA to all LPAs") at
#                 100 and at 70; on the full 2048 blocks it ran more than 12 minutes and 6.9 GB
#                 without finishing its preconditioning (stopped). At 70 % MQSim has free
#                 blocks for about 2.5 million page writes before its GC starts, so in a short
#                 run its row shows the write path with no GC (WA 1) while iolab's shows GC's
#                 steady state: the two rows differ in the drive's state, not only the model.
#   sr            128 KiB sequential reads at QD 8 for $T_SYN simulated seconds, fresh drive:
#                 iolab ... --pattern seq-read --bs 128k --qd 8; MQSim: STREAMING, 256 sectors.
#   r1            (not in the default LOADS) rr at QD 1: one read's latency, the device idle.
#
# The figures:
#   IOPS          iolab: the point's iops (JSON). MQSim: its own IOPS field divides by whole
#                 simulated seconds (the integer division Simulator->Time() /
#                 SIM_TIME_TO_SECONDS_COEFF, IO_Flow_Base.cpp:546: "inf" under 1 s), so the script
#                 computes it: a synthetic load's Request_Count / T_SYN; a trace's requests over
#                 the time from its first arrival to MQSim's last completion (the last line of
#                 its response-time log), which is what iolab's timed replay measures.
#   mean, p99     latency in us. iolab: lat_us.mean and lat_us.p99 (a timed replay: from each
#                 request's trace time). MQSim: End_to_End_Request_Delay (from the request's
#                 arrival, whole us); MQSim reports no percentiles, so its p99 is that of the
#                 lines of its response-time log (each line the mean end-to-end delay of the
#                 requests completed since the line before: one request, or a few that completed
#                 in the same ns, so the figure is close to the requests' p99, in whole us).
#   WA            flash pages programmed / flash pages the host's writes touched.
#                 iolab: the SSD component's flash counts, flash_programs / host_pages_written.
#                 MQSim reports commands, not pages (SSDDevice.FTL in its output XML):
#                 programmed pages = Issued_Flash_Program_CMD + Issued_Flash_Copyback_Program_CMD
#                 + planes x (Issued_Flash_Multiplane_Program_CMD +
#                 Issued_Flash_Multiplane_Copyback_Program_CMD) (a multi-plane command programs one
#                 page on each plane; exact for 2 planes per die), translation-page write-backs
#                 included; the host's pages are counted from the load itself (each write's
#                 first to last 8 KiB page; an aligned 4 KiB write touches one). Pages still
#                 dirty in MQSim's cache at the end are not programmed, which lowers its WA on
#                 short runs. "-" for a load with no writes.
#   wall s        the wall time of the command: MQSim's includes building its device (seconds
#                 and GBs for 512 GiB) and its preconditioning; iolab's its precondition.
#
# MQSim's quirks where they bite here (read in its source, commit 7ec40e3): workload.xml's
# <Intensity> is never read, so it is not written; a trace's Time_Unit is ignored (arrival times are ns, which the
# shared traces are); the channel's cycle is 2 x (int)(1000 / Channel_Transfer_Rate) ns, exact
# at 333 MT/s (6 ns); program/erase suspension never fires (unused: CMD_Suspension_Support ERASE
# is kept, iolab's mqsim-default model does not suspend).
#
# Environment: MQSIM (path to the MQSim binary; required), IOLAB (default build/iolab), TRACES
#   (default ../shared/data/mqsim beside the repository), LOADS (default "tpcc wsrch rr rw sr";
#   r1 too),
#   T_SYN (simulated seconds of each synthetic load, default 1), RW_BLOCKS (blocks per plane of
#   the rw load's device, default 256), RW_OCCUPANCY (MQSim's Initial_Occupancy_Percentage in
#   the rw load, default 70).
# Needs: jq. Run: MQSIM=/path/to/MQSim bench/ssd-vs-mqsim.sh after building build/iolab.
set -euo pipefail

here=$(cd "$(dirname "${BASH_SOURCE[0]}")" && pwd)
root=$(cd "$here/.." && pwd)
IOLAB=${IOLAB:-$root/build/iolab}
MQSIM=${MQSIM:-}
TRACES=${TRACES:-$root/../shared/data/mqsim}
LOADS=${LOADS:-tpcc wsrch rr rw sr}
T_SYN=${T_SYN:-1}
RW_BLOCKS=${RW_BLOCKS:-256}
RW_OCCUPANCY=${RW_OCCUPANCY:-70}

die() { echo "ssd-vs-mqsim: $*" >&2; exit 2; }
if [[ -z $MQSIM ]]; then
    echo "ssd-vs-mqsim: MQSIM is not set (the path to an MQSim binary built from its source): skipped"
    exit 0
fi
if [[ ! -x $MQSIM ]]; then
    echo "ssd-vs-mqsim: MQSIM=$MQSIM is not an executable file: skipped"
    exit 0
fi
MQSIM=$(cd "$(dirname "$MQSIM")" && pwd)/$(basename "$MQSIM")
[[ $T_SYN =~ ^[0-9]+(\.[0-9]+)?$ ]] && awk -v t="$T_SYN" 'BEGIN {exit !(t > 0)}' ||
    die "T_SYN must be a number of seconds above 0 (got '$T_SYN')"
[[ $RW_BLOCKS =~ ^[1-9][0-9]*$ ]] || die "RW_BLOCKS must be a positive integer (got '$RW_BLOCKS')"
[[ $RW_OCCUPANCY =~ ^[1-9][0-9]?$|^100$ ]] || die "RW_OCCUPANCY must be 1 to 100 (got '$RW_OCCUPANCY')"
for l in $LOADS; do
    [[ $l == @(tpcc|wsrch|rr|rw|sr|r1) ]] || die "LOADS takes tpcc, wsrch, rr, rw, sr and r1 (got '$LOADS')"
done
[[ -x $IOLAB ]] || die "$IOLAB not found: build it first (cmake --build build)"
command -v jq >/dev/null || die "jq not found (scripts/install-deps.sh installs it)"

work=$(mktemp -d "${TMPDIR:-/tmp}/iolab-ssd-vs-mqsim.XXXXXX")
trap 'rm -rf "$work"' EXIT
trap 'exit 130' INT
trap 'exit 143' TERM

now() { date +%s.%N; }
PAGE=8192 PLANES=2 SPP=16 # the device's page bytes, planes per die, 512-byte sectors per page

# ssdconfig FILE PRECONDITION BLOCKS: MQSim's ssdconfig.xml (commit 7ec40e3) with the changes
# above.
ssdconfig() {
    cat >"$1" <<EOF
<?xml version="1.0" encoding="us-ascii"?>
<Execution_Parameter_Set>
	<Host_Parameter_Set>
		<PCIe_Lane_Bandwidth>1.00000</PCIe_Lane_Bandwidth>
		<PCIe_Lane_Count>4</PCIe_Lane_Count>
		<SATA_Processing_Delay>400000</SATA_Processing_Delay>
		<Enable_ResponseTime_Logging>true</Enable_ResponseTime_Logging>
		<ResponseTime_Logging_Period_Length>1</ResponseTime_Logging_Period_Length>
	</Host_Parameter_Set>
	<Device_Parameter_Set>
		<Seed>321</Seed>
		<Enabled_Preconditioning>$2</Enabled_Preconditioning>
		<Memory_Type>FLASH</Memory_Type>
		<HostInterface_Type>NVME</HostInterface_Type>
		<IO_Queue_Depth>65535</IO_Queue_Depth>
		<Queue_Fetch_Size>512</Queue_Fetch_Size>
		<Caching_Mechanism>ADVANCED</Caching_Mechanism>
		<Data_Cache_Sharing_Mode>SHARED</Data_Cache_Sharing_Mode>
		<Data_Cache_Capacity>268435456</Data_Cache_Capacity>
		<Data_Cache_DRAM_Row_Size>8192</Data_Cache_DRAM_Row_Size>
		<Data_Cache_DRAM_Data_Rate>100</Data_Cache_DRAM_Data_Rate>
		<Data_Cache_DRAM_Data_Busrt_Size>1</Data_Cache_DRAM_Data_Busrt_Size>
		<Data_Cache_DRAM_tRCD>13</Data_Cache_DRAM_tRCD>
		<Data_Cache_DRAM_tCL>13</Data_Cache_DRAM_tCL>
		<Data_Cache_DRAM_tRP>13</Data_Cache_DRAM_tRP>
		<Address_Mapping>PAGE_LEVEL</Address_Mapping>
		<Ideal_Mapping_Table>false</Ideal_Mapping_Table>
		<CMT_Capacity>2097152</CMT_Capacity>
		<CMT_Sharing_Mode>SHARED</CMT_Sharing_Mode>
		<Plane_Allocation_Scheme>CWDP</Plane_Allocation_Scheme>
		<Transaction_Scheduling_Policy>PRIORITY_OUT_OF_ORDER</Transaction_Scheduling_Policy>
		<Overprovisioning_Ratio>0.07</Overprovisioning_Ratio>
		<GC_Exec_Threshold>0.05000</GC_Exec_Threshold>
		<GC_Block_Selection_Policy>RGA</GC_Block_Selection_Policy>
		<Use_Copyback_for_GC>false</Use_Copyback_for_GC>
		<Preemptible_GC_Enabled>false</Preemptible_GC_Enabled>
		<GC_Hard_Threshold>0.005000</GC_Hard_Threshold>
		<Dynamic_Wearleveling_Enabled>false</Dynamic_Wearleveling_Enabled>
		<Static_Wearleveling_Enabled>false</Static_Wearleveling_Enabled>
		<Static_Wearleveling_Threshold>100</Static_Wearleveling_Threshold>
		<Preferred_suspend_erase_time_for_read>700000</Preferred_suspend_erase_time_for_read>
		<Preferred_suspend_erase_time_for_write>700000</Preferred_suspend_erase_time_for_write>
		<Preferred_suspend_write_time_for_read>100000</Preferred_suspend_write_time_for_read>
		<Flash_Channel_Count>8</Flash_Channel_Count>
		<Flash_Channel_Width>1</Flash_Channel_Width>
		<Channel_Transfer_Rate>333</Channel_Transfer_Rate>
		<Chip_No_Per_Channel>4</Chip_No_Per_Channel>
		<Flash_Comm_Protocol>NVDDR2</Flash_Comm_Protocol>
		<Flash_Parameter_Set>
			<Flash_Technology>MLC</Flash_Technology>
			<CMD_Suspension_Support>ERASE</CMD_Suspension_Support>
			<Page_Read_Latency_LSB>75000</Page_Read_Latency_LSB>
			<Page_Read_Latency_CSB>75000</Page_Read_Latency_CSB>
			<Page_Read_Latency_MSB>75000</Page_Read_Latency_MSB>
			<Page_Program_Latency_LSB>750000</Page_Program_Latency_LSB>
			<Page_Program_Latency_CSB>750000</Page_Program_Latency_CSB>
			<Page_Program_Latency_MSB>750000</Page_Program_Latency_MSB>
			<Block_Erase_Latency>3800000</Block_Erase_Latency>
			<Block_PE_Cycles_Limit>10000</Block_PE_Cycles_Limit>
			<Suspend_Erase_Time>700000</Suspend_Erase_Time>
			<Suspend_Program_Time>100000</Suspend_Program_Time>
			<Die_No_Per_Chip>2</Die_No_Per_Chip>
			<Plane_No_Per_Die>$PLANES</Plane_No_Per_Die>
			<Block_No_Per_Plane>$3</Block_No_Per_Plane>
			<Page_No_Per_Block>256</Page_No_Per_Block>
			<Page_Capacity>$PAGE</Page_Capacity>
			<Page_Metadat_Capacity>448</Page_Metadat_Capacity>
		</Flash_Parameter_Set>
	</Device_Parameter_Set>
</Execution_Parameter_Set>
EOF
}

# The parts of a flow every workload shares: the whole device, one priority, write-back cache.
flow_head() {
    cat <<EOF
			<Priority_Class>HIGH</Priority_Class>
			<Device_Level_Data_Caching_Mode>WRITE_CACHE</Device_Level_Data_Caching_Mode>
			<Channel_IDs>0,1,2,3,4,5,6,7</Channel_IDs>
			<Chip_IDs>0,1,2,3</Chip_IDs>
			<Die_IDs>0,1</Die_IDs>
			<Plane_IDs>0,1</Plane_IDs>
			<Initial_Occupancy_Percentage>$1</Initial_Occupancy_Percentage>
EOF
}

# workload_trace FILE TRACE
workload_trace() {
    {
        printf '<?xml version="1.0" encoding="us-ascii"?>\n<MQSim_IO_Scenarios>\n\t<IO_Scenario>\n'
        printf '\t\t<IO_Flow_Parameter_Set_Trace_Based>\n'
        flow_head 0
        cat <<EOF
			<File_Path>$2</File_Path>
			<Percentage_To_Be_Executed>100</Percentage_To_Be_Executed>
			<Relay_Count>1</Relay_Count>
			<Time_Unit>NANOSECOND</Time_Unit>
		</IO_Flow_Parameter_Set_Trace_Based>
	</IO_Scenario>
</MQSim_IO_Scenarios>
EOF
    } >"$1"
}

# workload_synth FILE READ_PCT DISTRIBUTION SECTORS QD OCCUPANCY
workload_synth() {
    local stop
    stop=$(awk -v t="$T_SYN" 'BEGIN {printf "%.0f", t * 1e9}')
    {
        printf '<?xml version="1.0" encoding="us-ascii"?>\n<MQSim_IO_Scenarios>\n\t<IO_Scenario>\n'
        printf '\t\t<IO_Flow_Parameter_Set_Synthetic>\n'
        flow_head "$6"
        cat <<EOF
			<Working_Set_Percentage>100</Working_Set_Percentage>
			<Synthetic_Generator_Type>QUEUE_DEPTH</Synthetic_Generator_Type>
			<Read_Percentage>$2</Read_Percentage>
			<Address_Distribution>$3</Address_Distribution>
			<Percentage_of_Hot_Region>0</Percentage_of_Hot_Region>
			<Generated_Aligned_Addresses>true</Generated_Aligned_Addresses>
			<Address_Alignment_Unit>$4</Address_Alignment_Unit>
			<Request_Size_Distribution>FIXED</Request_Size_Distribution>
			<Average_Request_Size>$4</Average_Request_Size>
			<Variance_Request_Size>0</Variance_Request_Size>
			<Seed>798</Seed>
			<Average_No_of_Reqs_in_Queue>$5</Average_No_of_Reqs_in_Queue>
			<Stop_Time>$stop</Stop_Time>
			<Total_Requests_To_Generate>0</Total_Requests_To_Generate>
		</IO_Flow_Parameter_Set_Synthetic>
	</IO_Scenario>
</MQSim_IO_Scenarios>
EOF
    } >"$1"
}

# xml_tag FILE NAME: the text of MQSim's first <NAME>...</NAME>; xml_attr FILE NAME: NAME="...".
xml_tag() { sed -n "s|.*<$2>\([^<]*\)</$2>.*|\1|p" "$1" | head -1; }
xml_attr() { grep -o "$2=\"[^\"]*\"" "$1" | head -1 | sed 's/.*="\(.*\)"/\1/'; }

# trace_write_pages TRACE: the flash pages the trace's writes touch (type 0 is a write).
trace_write_pages() {
    awk -v spp="$SPP" 'NF == 5 && $5 == "0" {
        lba = $3 + 0; n = $4 + 0; if (n < 1) next
        p += int((lba + n - 1) / spp) - int(lba / spp) + 1
    } END {print p + 0}' "$1"
}

# model_for BLOCKS: the iolab model of the device with BLOCKS blocks per plane: the built-in
# mqsim-default for 2048, else `iolab model import-mqsim` of the same device file MQSim gets
# (rga_choices becomes log2(BLOCKS), as MQSim's RGA samples); prints its name or path.
model_for() {
    if (($1 == 2048)); then
        echo mqsim-default
        return
    fi
    ssdconfig "$work/ssdconfig-$1.xml" false "$1"
    "$IOLAB" model import-mqsim "$work/ssdconfig-$1.xml" -o "$work/mqsim-$1.model" >/dev/null 2>&1 ||
        die "iolab model import-mqsim $work/ssdconfig-$1.xml failed"
    echo "$work/mqsim-$1.model"
}

rows=()
first_ns= # a trace's first arrival (ns), for MQSim's IOPS
# run_mqsim LOAD PRECONDITION BLOCKS HOST_PAGES WRITER ARGS...: MQSim on its device (BLOCKS blocks
# per plane, Enabled_Preconditioning PRECONDITION) and the workload 'WRITER FILE ARGS...' writes;
# appends a row. HOST_PAGES: the flash pages the load's writes touch, or "each" (every write
# request touches one page: MQSim's Write_Request_Count).
run_mqsim() {
    local load=$1 pre=$2 blocks=$3 host_pages=$4 writer=$5 d="$work/mq-$1" t0 t1
    shift 5
    mkdir -p "$d"
    ssdconfig "$d/ssd.xml" "$pre" "$blocks"
    "$writer" "$d/wl.xml" "$@"
    t0=$(now)
    (cd "$d" && "$MQSIM" -i ssd.xml -w wl.xml </dev/null >mqsim.log 2>&1) ||
        die "MQSim failed on load $load: $(tail -3 "$d/mqsim.log")"
    t1=$(now)
    local out="$d/wl_scenario_1.xml"
    [[ -f $out ]] || die "MQSim wrote no $out (load $load)"
    local iops lat p mp cp mcp s wa p99 log="$d/wl.IO_Flow.No_0.log" n
    n=$(xml_tag "$out" Request_Count)
    lat=$(xml_tag "$out" End_to_End_Request_Delay)
    [[ -s $log ]] || die "MQSim wrote no response-time log $log (load $load)"
    p99=$(awk '{print $3}' "$log" | sort -n | awk '{v[NR] = $1} END {i = int(NR * 0.99 + 0.999999); if (i < 1) i = 1; print v[i]}')
    if [[ -n $first_ns ]]; then # a trace: from its first arrival to the last completion
        iops=$(awk -v n="$n" -v f="$first_ns" 'END {printf "%.0f", n / ($1 * 1000 - f) * 1e9}' "$log")
    else
        iops=$(awk -v n="$n" -v t="$T_SYN" 'BEGIN {printf "%.0f", n / t}')
    fi
    p=$(xml_attr "$out" Issued_Flash_Program_CMD)
    mp=$(xml_attr "$out" Issued_Flash_Multiplane_Program_CMD)
    cp=$(xml_attr "$out" Issued_Flash_Copyback_Program_CMD)
    mcp=$(xml_attr "$out" Issued_Flash_Multiplane_Copyback_Program_CMD)
    [[ $n && $lat && $p && $mp && $cp && $mcp ]] || die "MQSim's $out lacks a figure (load $load)"
    s=$((p + cp + PLANES * (mp + mcp)))
    [[ $host_pages == each ]] && host_pages=$(xml_tag "$out" Write_Request_Count)
    if ((host_pages > 0)); then
        wa=$(awk -v a="$s" -v b="$host_pages" 'BEGIN {printf "%.2f", a / b}')
    else
        wa=-
    fi
    rows+=("$load|MQSim|$iops|$lat|$p99|$wa|$(awk -v a="$t0" -v b="$t1" 'BEGIN {printf "%.1f", b - a}')")
    echo "$load MQSim: $n requests; programmed $s pages (Program $p, Multiplane $mp, Copyback $cp, Multiplane_Copyback $mcp) for $host_pages host pages; GC executions $(xml_attr "$out" Total_GC_Executions), $(xml_attr "$out" Average_Page_Movement_For_GC) pages moved each; CMT misses for reads $(xml_attr "$out" CMT_Misses_For_Read) of $(xml_attr "$out" Total_CMT_Queries_For_Reads), mapping reads $(xml_attr "$out" Issued_Flash_Read_CMD_For_Mapping)" >>"$work/notes"
}

# run_iolab LOAD ARGS...: the iolab command with --json; appends a row.
run_iolab() {
    local load=$1 t0 t1 j="$work/iolab-$1.json"
    shift
    t0=$(now)
    "$IOLAB" "$@" --quiet --no-db --force --json "$j" >"$work/iolab-$load.log" 2>&1 ||
        die "iolab $* failed: $(tail -3 "$work/iolab-$load.log")"
    t1=$(now)
    local f
    f=$(jq -r '.points[0] as $p | [$p.iops, $p.lat_us.mean, $p.lat_us.p99] + ([$p.components[]? | select(.kind == "ssd") | .flash | select(. != null)] | if length > 0 then [(map(.flash_programs) | add), (map(.host_pages_written) | add)] else [0, 0] end) | @tsv' "$j")
    local iops mean p99 prog host wa
    read -r iops mean p99 prog host <<<"$f"
    if ((host > 0)); then wa=$(awk -v a="$prog" -v b="$host" 'BEGIN {printf "%.2f", a / b}'); else wa=-; fi
    rows+=("$load|iolab|$(printf '%.0f' "$iops")|$(printf '%.0f' "$mean")|$(printf '%.0f' "$p99")|$wa|$(awk -v a="$t0" -v b="$t1" 'BEGIN {printf "%.1f", b - a}')")
    echo "$load iolab: $* (flash programs $prog, host pages written $host, map reads $(jq '[.points[0].components[]? | select(.kind == "ssd") | .flash.map_reads] | add // 0' "$j"))" >>"$work/notes"
}

: >"$work/notes"
full=$(model_for 2048)
"$IOLAB" model show mqsim-default >/dev/null 2>&1 || die "$IOLAB has no mqsim-default model"
# The built-in model against iolab's own import of the script's ssdconfig.xml: the same figures
# (`iolab model show` without its name and description).
ssdconfig "$work/ssdconfig.xml" false 2048
"$IOLAB" model import-mqsim "$work/ssdconfig.xml" -o "$work/imported.model" >/dev/null 2>&1 ||
    die "iolab model import-mqsim $work/ssdconfig.xml failed"
figures() { "$IOLAB" model show "$1" | sed 1d | grep -v '^\(name\|about\) = '; }
if diff <(figures mqsim-default) <(figures "$work/imported.model") >"$work/model.diff"; then
    echo "iolab model import-mqsim of the script's ssdconfig.xml has the figures of the built-in mqsim-default" >>"$work/notes"
else
    { echo "note: iolab model import-mqsim of the script's ssdconfig.xml differs from mqsim-default:"; cat "$work/model.diff"; } >>"$work/notes"
fi

for load in $LOADS; do
    echo "ssd-vs-mqsim: $load ..." >&2
    case $load in
    tpcc | wsrch)
        trace="$TRACES/$load-small.trace"
        [[ -f $trace ]] || die "$trace not found (set TRACES)"
        trace=$(cd "$(dirname "$trace")" && pwd)/$(basename "$trace")
        first_ns=$(awk 'NF == 5 {print $1 + 0; exit}' "$trace")
        run_mqsim "$load" false 2048 "$(trace_write_pages "$trace")" workload_trace "$trace"
        first_ns=
        run_iolab "$load" replay "$trace" --format mqsim --model "$full" --mode timed --qd 4096
        ;;
    rr)
        run_mqsim rr false 2048 0 workload_synth 100 RANDOM_UNIFORM 8 32 0
        run_iolab rr sim --model "$full" --pattern rand-read --bs 4k --qd 32 --time "${T_SYN}s"
        ;;
    rw)
        run_mqsim rw true "$RW_BLOCKS" each workload_synth 0 RANDOM_UNIFORM 8 32 "$RW_OCCUPANCY"
        run_iolab rw sim --model "$(model_for "$RW_BLOCKS")" --pattern rand-write --bs 4k --qd 32 \
            --time "${T_SYN}s" --precondition
        ;;
    r1)
        run_mqsim r1 false 2048 0 workload_synth 100 RANDOM_UNIFORM 8 1 0
        run_iolab r1 sim --model "$full" --pattern rand-read --bs 4k --qd 1 --time "${T_SYN}s"
        ;;
    sr)
        run_mqsim sr false 2048 0 workload_synth 100 STREAMING 256 8 0
        run_iolab sr sim --model "$full" --pattern seq-read --bs 128k --qd 8 --time "${T_SYN}s"
        ;;
    esac
done

echo
echo "iolab against MQSim ($(basename "$MQSIM") at $MQSIM): MQSim's ssdconfig.xml device, wear levelling off; rw on $RW_BLOCKS blocks per plane, MQSim at $RW_OCCUPANCY % occupancy"
printf '%-6s %-6s %10s %10s %10s %6s %8s\n' load tool IOPS "mean us" "p99 us" WA "wall s"
for r in "${rows[@]}"; do
    IFS='|' read -r l t i m p w s <<<"$r"
    printf '%-6s %-6s %10s %10s %10s %6s %8s\n' "$l" "$t" "$i" "$m" "$p" "$w" "$s"
done
echo
cat "$work/notes"
