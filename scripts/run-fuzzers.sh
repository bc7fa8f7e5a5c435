#!/usr/bin/env bash
# scripts/run-fuzzers.sh DIR SECONDS JOBS: runs every fuzzer DIR/fuzz_* (libFuzzer) for SECONDS,
# JOBS at a time (`make fuzz`): seed 1, inputs up to 4 KiB, corpus DIR/corpus-NAME grown from
# fuzz/seeds/NAME. Prints one line a fuzzer; on a crash prints the end of its log and exits 1.
set -u
dir=$1 secs=$2 jobs=$3
run_one() {
    local f=$1 dir=$2 secs=$3 n
    n=$(basename "$f")
    mkdir -p "$dir/corpus-$n"
    if "$f" -seed=1 -max_total_time="$secs" -max_len=4096 "$dir/corpus-$n" "fuzz/seeds/$n" \
        >"$dir/log-$n.txt" 2>&1; then
        echo "fuzz: $n: $(grep -o 'Done [0-9]* runs' "$dir/log-$n.txt"), no crash (seed 1, $secs s)"
    else
        tail -n 40 "$dir/log-$n.txt"
        echo "fuzz: $n FAILED"
        return 1
    fi
}
export -f run_one
fuzzers=()
for f in "$dir"/fuzz_*; do [[ -f $f && -x $f ]] && fuzzers+=("$f"); done
printf '%s\n' "${fuzzers[@]}" | xargs -P "$jobs" -I{} bash -c 'run_one "$1" "$2" "$3"' _ {} "$dir" "$secs" ||
    exit 1
