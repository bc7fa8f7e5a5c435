#!/usr/bin/env bash
# bench/vs-fio.sh: iolab against fio, side by side on the same machine with the same settings.
#
# It measures read IOPS (4 KiB random reads over a 1 GiB region, one worker / one fio job) for
# both tools in three cases:
#   (a) null engine, QD 1 and QD 32: no I/O at all, so this is each tool's own per-I/O cost
#       (request generation, submission/completion bookkeeping, latency statistics). fio keeps
#       its default latency recording (slat/clat/lat); iolab always records latency. iolab
#       collects the null engine's completions one at a time, as it does for its real engines.
#   (b) psync, QD 1, buffered, on a 1 GiB file in /dev/shm: one pread() per I/O from memory,
#       i.e. system-call path plus each tool's overhead.
#   (c) io_uring, QD 32, O_DIRECT, on a loop device (losetup --direct-io=on) backed by a 1 GiB
#       file in /dev/shm: the kernel block layer with a fast device.
# Runs are interleaved (rep 1: iolab, fio, rep 2: iolab, fio, ...) so that drift in machine
# state hits both tools alike. For each case it prints the median IOPS of each tool over the
# repetitions and the median of the per-repetition ratios iolab/fio, then the exact commands.
#
# This is a benchmark, not a test: it always exits 0 after a complete run, whatever the figures.
# Targets (docs/benchmarks.md): ratio >= 2.0 in (a), >= 1.0 in (b) and (c).
#
# Environment: REPS (default 5), SECONDS_PER_RUN (default 5), CASES (default "a b c": which
#              cases to run), IOLAB (default build/iolab), FIO (default fio).
# Needs: fio, jq, losetup; root only for losetup (case (c) is skipped if losetup fails).
# Run: make bench   (or bench/vs-fio.sh after building build/iolab).
set -euo pipefail

REPS=${REPS:-5}
SECONDS_PER_RUN=${SECONDS_PER_RUN:-5}
CASES=${CASES:-a b c}
here=$(cd "$(dirname "${BASH_SOURCE[0]}")" && pwd)
IOLAB=${IOLAB:-$(cd "$here/.." && pwd)/build/iolab}
FIO=${FIO:-fio}
REGION=1g               # random-offset region of both tools (and size of the /dev/shm files)
REGION_MIB=1024

die() { echo "vs-fio: $*" >&2; exit 2; }
[[ $REPS =~ ^[1-9][0-9]*$ ]] || die "REPS must be a positive integer (got '$REPS')"
[[ $SECONDS_PER_RUN =~ ^[1-9][0-9]*$ ]] || die "SECONDS_PER_RUN must be a positive integer (got '$SECONDS_PER_RUN')"
[[ -x $IOLAB ]] || die "$IOLAB not found: build it first (make build)"
command -v "$FIO" >/dev/null || die "fio not found (scripts/install-deps.sh installs it)"
command -v jq >/dev/null || die "jq not found (scripts/install-deps.sh installs it)"
want() { [[ " $CASES " == *" $1 "* ]]; }
for c in $CASES; do [[ $c == [abc] ]] || die "CASES takes a, b and c (got '$CASES')"; done
((REPS >= 5)) || echo "vs-fio: note: REPS=$REPS; at least 5 repetitions are recommended" >&2

# --- scratch space, cleaned up on every exit path --------------------------------------------
work=$(mktemp -d "${TMPDIR:-/tmp}/iolab-vs-fio.XXXXXX")
shm_b="" shm_c="" loopdev=""
cleanup() {
    local rc=$?
    trap - EXIT INT TERM
    if [[ -n $loopdev ]]; then losetup -d "$loopdev" || echo "vs-fio: could not detach $loopdev" >&2; fi
    if [[ -n $shm_b ]]; then rm -f "$shm_b"; fi
    if [[ -n $shm_c ]]; then rm -f "$shm_c"; fi
    rm -rf "$work"
    exit "$rc"
}
trap cleanup EXIT
trap 'exit 130' INT
trap 'exit 143' TERM

avail_mib=$(df -Pm /dev/shm | awk 'NR == 2 { print $4 }')
((avail_mib > 2 * REGION_MIB + 256)) || die "/dev/shm has only $avail_mib MiB free; need about $((2 * REGION_MIB + 256))"

if want b; then
    echo "vs-fio: creating a ${REGION_MIB} MiB file in /dev/shm for (b) (filled from /dev/urandom)"
    shm_b=$(mktemp /dev/shm/iolab-bench-psync.XXXXXX)
    dd if=/dev/urandom of="$shm_b" bs=1M count=$REGION_MIB status=none
fi
have_c=0
if want c; then
    echo "vs-fio: creating a ${REGION_MIB} MiB file in /dev/shm for (c) (filled from /dev/urandom)"
    shm_c=$(mktemp /dev/shm/iolab-bench-loop.XXXXXX)
    dd if=/dev/urandom of="$shm_c" bs=1M count=$REGION_MIB status=none
    if loopdev=$(losetup --find --show --direct-io=on "$shm_c" 2>"$work/losetup.err"); then
        have_c=1
        echo "vs-fio: loop device $loopdev over $shm_c (direct-io=on)"
    else
        loopdev=""
        echo "vs-fio: case (c) skipped: losetup failed (it needs root): $(cat "$work/losetup.err")" >&2
    fi
fi

# --- the cases: name, target ratio, iolab command, fio command (JSON output path appended) ----
T=$SECONDS_PER_RUN
fio_common=(--name=x --rw=randread --bs=4k --time_based "--runtime=$T" --output-format=json)
cases=() targets=()
declare -A iolab_cmd fio_cmd

add_case() { # name target
    cases+=("$1"); targets+=("$2")
}

if want a; then
    add_case "a-null-qd1" 2.0
    iolab_cmd[a-null-qd1]="$IOLAB run --engine null --size $REGION --pattern rand-read --bs 4k --qd 1 --time $T --quiet"
    fio_cmd[a-null-qd1]="$FIO ${fio_common[*]} --ioengine=null --size=$REGION --iodepth=1"

    add_case "a-null-qd32" 2.0
    iolab_cmd[a-null-qd32]="$IOLAB run --engine null --size $REGION --pattern rand-read --bs 4k --qd 32 --time $T --quiet"
    fio_cmd[a-null-qd32]="$FIO ${fio_common[*]} --ioengine=null --size=$REGION --iodepth=32"
fi
if want b; then
    add_case "b-psync-shm-qd1" 1.0
    iolab_cmd[b-psync-shm-qd1]="$IOLAB run $shm_b --engine psync --buffered --pattern rand-read --bs 4k --qd 1 --time $T --quiet"
    fio_cmd[b-psync-shm-qd1]="$FIO ${fio_common[*]} --ioengine=psync --direct=0 --iodepth=1 --filename=$shm_b"
fi
if ((have_c)); then
    add_case "c-io_uring-loop-qd32" 1.0
    iolab_cmd[c-io_uring-loop-qd32]="$IOLAB run $loopdev --engine io_uring --direct --pattern rand-read --bs 4k --qd 32 --time $T --quiet"
    fio_cmd[c-io_uring-loop-qd32]="$FIO ${fio_common[*]} --ioengine=io_uring --direct=1 --iodepth=32 --filename=$loopdev"
fi
((${#cases[@]})) || die "no case to run"
# In (b) and (c) fio gets no --size: it then uses the whole 1 GiB file / device, as iolab does.
# (paths contain no spaces: mktemp names and /dev/loopN, so word splitting below is safe)

# run_one TOOL CASE REP: runs one measurement, prints its IOPS on stdout
run_one() {
    local tool=$1 c=$2 rep=$3 out="$work/$1.$2.$3.json" log="$work/$1.$2.$3.log" iops
    local -a cmd
    if [[ $tool == iolab ]]; then
        read -r -a cmd <<<"${iolab_cmd[$c]}"
        cmd+=(--json "$out")
    else
        read -r -a cmd <<<"${fio_cmd[$c]}"
        cmd+=("--output=$out")
    fi
    if ! "${cmd[@]}" >"$log" 2>&1; then
        echo "vs-fio: $tool failed in case $c (rep $rep): ${cmd[*]}" >&2
        cat "$log" >&2
        exit 1
    fi
    if [[ $tool == iolab ]]; then
        iops=$(jq -r '.points[0].iops' "$out")
    else
        iops=$(jq -r '.jobs[0].read.iops' "$out")
    fi
    [[ $iops =~ ^[0-9.]+([eE][+-]?[0-9]+)?$ ]] || { echo "vs-fio: no IOPS in $out" >&2; exit 1; }
    echo "$iops"
}

median() { # numbers on stdin -> median
    sort -g | awk '{ v[NR] = $1 } END { if (NR == 0) exit 1;
        if (NR % 2) printf "%.4f\n", v[(NR + 1) / 2]; else printf "%.4f\n", (v[NR / 2] + v[NR / 2 + 1]) / 2 }'
}

echo "vs-fio: ${#cases[@]} cases x $REPS repetitions x 2 tools x ${T} s (about $(( ${#cases[@]} * REPS * 2 * (T + 1) )) s)"
results="$work/results.tsv"     # case rep iolab_iops fio_iops ratio
: >"$results"
for ((rep = 1; rep <= REPS; rep++)); do
    for c in "${cases[@]}"; do
        i=$(run_one iolab "$c" "$rep")
        f=$(run_one fio "$c" "$rep")
        r=$(awk -v i="$i" -v f="$f" 'BEGIN { printf "%.4f", (f > 0 ? i / f : 0) }')
        printf '%s\t%d\t%s\t%s\t%s\n' "$c" "$rep" "$i" "$f" "$r" >>"$results"
        printf 'rep %d/%d  %-22s iolab %12.0f  fio %12.0f  iolab/fio %6.2f\n' "$rep" "$REPS" "$c" "$i" "$f" "$r"
    done
done

# --- summary -----------------------------------------------------------------------------------
echo
echo "Summary: median of $REPS interleaved runs of ${T} s each; ratio = median of per-run iolab/fio"
printf '%-22s %14s %14s %10s %8s %5s\n' "case" "iolab IOPS" "fio IOPS" "iolab/fio" "target" "met"
for k in "${!cases[@]}"; do
    c=${cases[$k]} tgt=${targets[$k]}
    mi=$(awk -F'\t' -v c="$c" '$1 == c { print $3 }' "$results" | median)
    mf=$(awk -F'\t' -v c="$c" '$1 == c { print $4 }' "$results" | median)
    mr=$(awk -F'\t' -v c="$c" '$1 == c { print $5 }' "$results" | median)
    met=$(awk -v r="$mr" -v t="$tgt" 'BEGIN { print (r >= t ? "yes" : "NO") }')
    printf '%-22s %14.0f %14.0f %10.2f %8s %5s\n' "$c" "$mi" "$mf" "$mr" ">= $tgt" "$met"
done
if want c && ! ((have_c)); then echo "(c) not run: losetup failed"; fi

echo
echo "Commands (iolab also gets --json FILE, fio --output=FILE${loopdev:+; $loopdev is losetup --find --show --direct-io=on $shm_c}):"
for c in "${cases[@]}"; do
    echo "  $c"
    echo "    ${iolab_cmd[$c]}"
    echo "    ${fio_cmd[$c]}"
done
echo
echo "Machine: $(nproc) CPUs, $(awk -F': ' '/^model name/ { print $2; exit }' /proc/cpuinfo), kernel $(uname -r), $("$FIO" --version)"
