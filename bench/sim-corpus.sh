#!/usr/bin/env bash
# bench/sim-corpus.sh: a corpus of simulator commands (single drives, every RAID level, degraded
# and rebuilding volumes, channels, buses, controllers and their caches, host schedulers,
# clients, rates, replay, and `sim validate` on the validation traces) whose JSON must not change
# when the simulator is restructured. Each command writes one JSON file; the simulator runs in
# virtual time and is deterministic, so two builds that model the same thing write the same bytes.
#
#   bench/sim-corpus.sh DIR            run the corpus with $IOLAB (default build/iolab) into DIR
#   bench/sim-corpus.sh OLD NEW        run it with two binaries and report, per command, whether
#                                      their JSON is byte-identical (first differing line if not)
#
# With FILTER set (a jq program, e.g. 'del(.points[].workers)'), both JSON files go through it
# before they are compared: the changes a restructuring lists are set aside to see the rest.
#
# The six validation traces are read from ../shared/data/disksim beside the repository when it is
# there, else only the copy in tests/data/disksim is used. Exit status: 0 when every command ran
# (and, comparing, every JSON is identical), 1 otherwise.
set -uo pipefail

here=$(cd "$(dirname "${BASH_SOURCE[0]}")" && pwd)
root=$(cd "$here/.." && pwd)
shared=$root/../shared/data/disksim
cfg=$root/examples/subsystem.conf

corpus() {
    local t="--time 2 --quiet --no-db"
    # single drives
    echo "sim --model atlas10k --pattern rand-read --bs 4k --qd 1 $t"
    echo "sim --model cheetah9LP --pattern rand-read --bs 4k --qd 1,8 --host-scheduler none,cscan,deadline $t"
    echo "sim --model barracuda --pattern seq-read --bs 64k,256k --qd 4 $t"
    echo "sim --model sas15k --pattern file-server --qd 16 --stroke 10 $t"
    echo "sim --model sata7200 --pattern rand-write --bs 4k --qd 8 --drive-cache off $t"
    echo "sim --model ibm18es --pattern database --read 0,50,100 --qd 2 $t"
    echo "sim --model atlas_III --pattern workstation --clients 4 --think 5ms $t"
    echo "sim --model cheetah4LP --pattern rand-read --bs 8k --rate 50,100 $t"
    echo "sim --model atlas10k --pattern rand-read --rate poisson:80 --bs 4k $t"
    echo "sim --model atlas10k --pattern rand-read --bs 4k --qd 4 --dist zipf:1.1 --ramp 1 $t"
    echo "sim --model atlas10k --pattern rand-read --bs 4k --qd 2 --bytes 4m --quiet --no-db"
    echo "sim --model atlas10k --pattern rand-read --bs 4k --qd 1 --repeat 3 --time 1 --quiet --no-db"
    # every RAID level
    echo "sim --array raid0:2,4 --drive atlas10k --pattern seq-read --bs 64k --qd 4 --stripe 16k,64k $t"
    echo "sim --array raid1:2 --drive cheetah9LP --pattern database --qd 8 $t"
    echo "sim --array raid10:4 --drive sas15k --pattern rand-write --bs 4k --qd 16 $t"
    echo "sim --array raid4:5 --drive atlas10k --pattern rand-write --bs 8k --qd 8 $t"
    echo "sim --array raid5:4 --drive atlas10k --cache 64M --pattern database --qd 8 $t"
    echo "sim --array raid6:6 --drive sata7200 --pattern file-server --qd 16 $t"
    echo "sim --array raid5:5 --drive atlas10k --failed 2 --pattern rand-read --bs 4k --qd 8 $t"
    echo "sim --array raid5:5 --drive atlas10k --failed 2 --rebuild-rate 10M --pattern rand-read --bs 4k --qd 8 $t"
    echo "sim --array raid6:6 --drive atlas10k --failed 1+3 --pattern rand-read --bs 4k --qd 8 $t"
    # paths: channels, buses, controllers, caches, policies
    echo "sim --array raid0:8 --drive cheetah9LP --channel ultra160 --channels 2 --pattern seq-read --bs 256k --qd 16 $t"
    echo "sim --array raid0:2 --drive atlas10k --channel ata100 --pattern seq-read --bs 64k --qd 4 $t"
    echo "sim --array raid5:8 --drive sas15k --bus pci32-33 --controllers 2 --channel ultra320 --pattern seq-read --bs 64k --qd 16 $t"
    echo "sim --array raid5:3 --drive sas15k --cache 64m --read-ahead adaptive --pattern seq-read --bs 64k --qd 16 $t"
    echo "sim --array raid5:3 --drive sas15k --cache 64m --read-ahead always --pattern rand-read --bs 4k --qd 16 $t"
    echo "sim --array raid5:4 --drive atlas10k --cache 16M,64M --write-policy write-through,write-back --pattern rand-write --bs 4k --qd 16 $t"
    echo "sim --array raid5:4 --drive atlas10k --cache 64M --write-policy write-back --battery no --pattern rand-write --bs 4k --qd 16 $t"
    echo "sim --array raid1:2 --drive atlas10k --host-overhead 20us --controller-overhead 50us --pattern rand-read --bs 4k --qd 4 $t"
    echo "sim --config $cfg --pattern file-server --qd 32 $t"
    echo "sim --config $cfg --pattern seq-read --bs 128k --qd 8 $t"
    # replay on simulated paths
    echo "replay $root/tests/data/mqsim/tpcc-excerpt.trace --format mqsim --model atlas10k --wrap --qd 4 --quiet --no-db"
    echo "replay $root/tests/data/mqsim/tpcc-excerpt.trace --format mqsim --array raid5:4 --drive cheetah9LP --wrap --mode timed --quiet --no-db"
    echo "replay $root/tests/data/mqsim/tpcc-excerpt.trace --format mqsim --config $cfg --wrap --qd 16 --quiet --no-db"
    # validation
    echo "sim validate --model $root/models/atlas10k.model $root/tests/data/disksim/atlas10k-2000.trace"
    if [[ -d $shared ]]; then
        for d in atlas10k atlas_III barracuda cheetah4LP cheetah9LP ibm18es; do
            echo "sim validate --model $d $shared/$d.trace"
        done
    fi
}

run_all() { # BIN DIR
    local bin=$1 dir=$2 i=0 fail=0 cmd
    mkdir -p "$dir"
    while IFS= read -r cmd; do
        i=$((i + 1))
        local f; f=$(printf '%s/%02d.json' "$dir" "$i")
        echo "$cmd" >"${f%.json}.cmd"
        rm -f "$f"
        # shellcheck disable=SC2086
        "$bin" $cmd --json "$f" >"${f%.json}.out" 2>&1
        local rc=$?
        if [[ $rc != 0 ]]; then echo "sim-corpus: $(basename "$f"): exit $rc from: iolab $cmd" >&2; fail=1; fi
    done < <(corpus)
    echo "sim-corpus: $i commands into $dir" >&2
    return $fail
}

case $# in
1) run_all "${IOLAB:-$root/build/iolab}" "$1" ;;
2)
    tmp=$(mktemp -d); trap 'rm -rf "$tmp"' EXIT
    run_all "$1" "$tmp/old"; run_all "$2" "$tmp/new"
    same=0 diff=0
    for f in "$tmp"/old/*.json; do
        n=$(basename "$f")
        if [[ -n ${FILTER:-} ]]; then
            jq -S "$FILTER" "$f" >"$f.f" && mv "$f.f" "$f"
            jq -S "$FILTER" "$tmp/new/$n" >"$tmp/new/$n.f" && mv "$tmp/new/$n.f" "$tmp/new/$n"
        fi
        if cmp -s "$f" "$tmp/new/$n"; then same=$((same + 1))
        else
            diff=$((diff + 1))
            echo "DIFFERS $n: iolab $(cat "${f%.json}.cmd")"
            diff "$f" "$tmp/new/$n" | head -n 6 | sed 's/^/    /'
        fi
    done
    echo "sim-corpus: $same identical, $diff different"
    [[ $diff == 0 ]] ;;
*) sed -n '2,14p' "$0" | sed 's/^# \{0,1\}//'; exit 2 ;;
esac
