#!/usr/bin/env bash
# bench/replay-fidelity.sh: how faithfully `iolab replay` reproduces a load.
#
#   (a) fidelity, closed mode: the IOMeter file-server pattern at QD 16 on a scratch file,
#         iolab run SCRATCH --pattern file-server --qd 16 --time T --json F
#       and a trace of the same kind of requests (file-server's size mix, 80 % reads, random
#       offsets over the file; `run --record` where it exists, else written by awk in iolab's
#       text form) replayed closed at QD 16 on the same file,
#         iolab replay TRACE --target SCRATCH --force --mode closed --qd 16 --time T --json F
#       Printed: both IOPS and their ratio (replay / run).
#   (b) timed mode on the null engine: a trace of 4 KiB reads evenly spaced at RATE per second
#       (default 20,000) for D seconds (default 5), replayed with --mode timed; printed: the IOPS
#       reached and the issue error (actual minus intended issue time) p50, p99 and max.
#
# This is a benchmark, not a test: it exits 0 after a complete run whatever the figures.
# awk prints times and offsets with %.0f: mawk's %d stops at 2^31 - 1.
# Environment: IOLAB (default build/iolab), DIR (default: a new directory in /var/tmp),
#              SIZE (scratch file, default 256m), T (seconds per point, default 10),
#              RATE (20000), D (5), N_A (requests in the trace of (a), default 2,000,000).
set -euo pipefail
IOLAB=${IOLAB:-build/iolab}
SIZE=${SIZE:-256m}
T=${T:-10}
RATE=${RATE:-20000}
D=${D:-5}
N_A=${N_A:-2000000}
own_dir=0
if [ -z "${DIR:-}" ]; then
	DIR=$(mktemp -d /var/tmp/iolab-replay-XXXXXX)
	own_dir=1
fi
cleanup() { [ "$own_dir" = 1 ] && rm -rf "$DIR"; }
trap cleanup EXIT

json_get() { # FILE EXPR: a figure of the first point
	python3 -c "import json,sys; p=json.load(open(sys.argv[1]))['points'][0]; print($2)" "$1"
}

scratch=$DIR/scratch.img
"$IOLAB" run "$scratch" --size "$SIZE" --pattern seq-write --bs 1m --qd 4 --bytes "$SIZE" --quiet >/dev/null
bytes=$(stat -c %s "$scratch")

# (a) the run, then its trace replayed
"$IOLAB" run "$scratch" --force --pattern file-server --qd 16 --time "$T" --quiet --json "$DIR/run.json" >/dev/null
if "$IOLAB" run --help | grep -q -- '--record'; then
	"$IOLAB" run "$scratch" --force --pattern file-server --qd 16 --time "$T" --quiet \
		--record "$DIR/fs.iot" >/dev/null
	trace=$DIR/fs.iot
else
	trace=$DIR/fs.txt
	awk -v n="$N_A" -v size="$bytes" 'BEGIN {
		srand(7)
		print "# iolab trace 1"; print "# source: bench/replay-fidelity.sh file-server"
		print "# start_unix_ns: 0"; print "# completions: no"
		print "# target: 0 " size " scratch.img"; print "# issue_ns done_ns op target offset len"
		split("512 1024 2048 4096 8192 16384 32768 65536", sz, " ")
		split("10 5 5 60 2 4 4 10", sh, " ")
		for (i = 0; i < n; i++) {
			u = rand() * 100; k = 1; acc = sh[1]
			while (u >= acc && k < 8) { k++; acc += sh[k] }
			len = sz[k]; off = int(rand() * ((size - len) / len + 1)) * len
			printf "%.0f - %s 0 %.0f %d\n", i * 1000, rand() < 0.8 ? "read" : "write", off, len
		}
	}' > "$trace"
fi
"$IOLAB" replay "$trace" --target "$scratch" --force --mode closed --qd 16 --time "$T" --quiet \
	--json "$DIR/replay.json" >/dev/null
run_iops=$(json_get "$DIR/run.json" "p['iops']")
rep_iops=$(json_get "$DIR/replay.json" "p['iops']")
printf '(a) file-server QD 16 on %s (%s): run %.0f IOPS, closed replay %.0f IOPS, ratio %.3f\n' \
	"$scratch" "$SIZE" "$run_iops" "$rep_iops" "$(python3 -c "print($rep_iops / $run_iops)")"

# (b) timed at RATE on the null engine
n=$((RATE * D))
awk -v n="$n" -v rate="$RATE" 'BEGIN {
	print "# iolab trace 1"; print "# source: bench/replay-fidelity.sh timed"
	print "# start_unix_ns: 0"; print "# completions: no"
	print "# target: 0 1073741824 null"; print "# issue_ns done_ns op target offset len"
	gap = 1e9 / rate
	for (i = 0; i < n; i++)
		printf "%.0f - read 0 %.0f 4096\n", int(i * gap), (i * 7919 % 262144) * 4096
}' > "$DIR/timed.txt"
"$IOLAB" replay "$DIR/timed.txt" --engine null --mode timed --quiet --json "$DIR/timed.json" >/dev/null
printf '(b) timed, %d reads at %d/s on the null engine: %.0f IOPS; issue error p50 %.1f us, p99 %.1f us, max %.1f us\n' \
	"$n" "$RATE" "$(json_get "$DIR/timed.json" "p['iops']")" \
	"$(json_get "$DIR/timed.json" "p['replay']['issue_error_us']['p50']")" \
	"$(json_get "$DIR/timed.json" "p['replay']['issue_error_us']['p99']")" \
	"$(json_get "$DIR/timed.json" "p['replay']['issue_error_us']['max']")"
