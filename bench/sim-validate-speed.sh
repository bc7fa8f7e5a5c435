#!/usr/bin/env bash
# bench/sim-validate-speed.sh: how fast the drive simulator replays a validation trace, for every
# built-in model (`iolab models`), on one core (runs pinned to CPU 0 with taskset when it is there).
# Two rates per model, both in simulated requests per wall-clock second:
#
#   replay: build/bench/sim_replay MODEL TRACE REPS: the model and the trace are loaded once, then
#           the trace is replayed REPS times (default 100) back to back in that one process, each
#           time on a new drive, as `iolab sim validate` replays it; rate = requests x REPS / the
#           wall time of the replays alone. This is the simulator's speed; target: >= 500,000/s.
#   cli:    iolab sim validate --model MODEL TRACE, run CLI_REPS times (default 20) back to back;
#           rate = requests x CLI_REPS / their wall time: process start, loading the model,
#           parsing the trace, the replay, the demerit and the output, every time.
#
# TRACE is TRACES/MODEL.trace, the DiskSim 4.0 validation trace measured on that drive (10,000
# requests each); a model without one (the datasheet models sata7200 and sas15k) replays
# TRACES/FALLBACK.trace (default atlas10k: 10,000 requests within the first 9.2 GB, which fit
# both); its demerit then compares two different drives and means nothing. The demerit and a hash
# of every simulated time are printed too, so that two builds can be compared bit for bit.
#
# This is a benchmark, not a test: it exits 0 after a complete run whatever the figures.
# Environment: IOLAB (default build/iolab), REPLAY (build/bench/sim_replay), TRACES (default
#              ../shared/data/disksim beside the repository), FALLBACK (atlas10k), REPS (100),
#              CLI_REPS (20), MODELS (default: every drive model `iolab models` lists, not the SSDs).
# Run: bench/sim-validate-speed.sh after building (cmake --build build) in Release.
set -euo pipefail

here=$(cd "$(dirname "${BASH_SOURCE[0]}")" && pwd)
root=$(cd "$here/.." && pwd)
IOLAB=${IOLAB:-$root/build/iolab}
REPLAY=${REPLAY:-$root/build/bench/sim_replay}
TRACES=${TRACES:-$root/../shared/data/disksim}
FALLBACK=${FALLBACK:-atlas10k}
REPS=${REPS:-100}
CLI_REPS=${CLI_REPS:-20}
TARGET=500000

die() { echo "sim-validate-speed: $*" >&2; exit 2; }
for v in REPS CLI_REPS; do
    [[ ${!v} =~ ^[1-9][0-9]*$ ]] || die "$v must be a positive integer (got '${!v}')"
done
[[ -x $IOLAB ]] || die "$IOLAB not found: build it first (cmake --build build)"
[[ -x $REPLAY ]] || die "$REPLAY not found: build it first (cmake --build build)"
[[ -d $TRACES ]] || die "$TRACES not found: set TRACES to the directory of the DiskSim validation traces"
MODELS=${MODELS:-$("$IOLAB" models | awk '$2 != "SSD:" {print $1}')}  # drives: SSDs have no DiskSim traces
[[ -n $MODELS ]] || die "no models"

pin=()
if command -v taskset >/dev/null && taskset -c 0 true 2>/dev/null; then pin=(taskset -c 0); fi
trap 'exit 130' INT
trap 'exit 143' TERM

now() { date +%s.%N; }
field() { sed -n "s/.* $1=\([^ ]*\).*/\1/p"; }

rows=()
for m in $MODELS; do
    trace=$TRACES/$m.trace
    [[ -f $trace ]] || trace=$TRACES/$FALLBACK.trace
    [[ -f $trace ]] || die "$trace not found"
    line=$("${pin[@]}" "$REPLAY" "$m" "$trace" "$REPS") || die "$REPLAY $m $trace failed"
    n=$(field requests <<<"$line")
    replay=$(field requests_per_s <<<"$line")
    demerit=$(field demerit_pct <<<"$line")
    hash=$(field hash <<<"$line")
    t0=$(now)
    for ((i = 1; i <= CLI_REPS; i++)); do
        "${pin[@]}" "$IOLAB" sim validate --model "$m" "$trace" >/dev/null
    done
    t1=$(now)
    cli=$(awk -v n="$((n * CLI_REPS))" -v a="$t0" -v b="$t1" 'BEGIN {printf "%.0f", n / (b - a)}')
    rows+=("$m|$(basename "$trace")|$n|$replay|$cli|$demerit|$hash")
done

echo
echo "iolab validation replay speed: $(nproc) CPUs ($(sed -n 's/^model name[[:space:]]*: //p' /proc/cpuinfo | head -1)), ${pin[*]:-not pinned}"
echo "replay: $REPS replays in one process; cli: $CLI_REPS runs of 'iolab sim validate' back to back"
printf '%-11s %-17s %8s %14s %12s %10s %18s %s\n' model trace requests "replay req/s" "cli req/s" \
    "demerit %" hash target
missed=0
for r in "${rows[@]}"; do
    IFS='|' read -r m t n replay cli demerit hash <<<"$r"
    met=met
    if ((replay < TARGET)); then met=missed; missed=$((missed + 1)); fi
    printf '%-11s %-17s %8s %14s %12s %10.4f %18s %s\n' "$m" "$t" "$n" "$replay" "$cli" "$demerit" \
        "$hash" "$met"
done
echo
if ((missed)); then
    echo "target (replay >= $TARGET requests/s for every model): missed by $missed model(s)"
else
    echo "target (replay >= $TARGET requests/s for every model): met"
fi
