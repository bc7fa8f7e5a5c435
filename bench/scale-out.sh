#!/usr/bin/env bash
# bench/scale-out.sh: a simulation sweep of 48 points spread over MPI ranks (docs/scale-out.md)
# against the same sweep in one process, side by side:
#
#   iolab sim --array raid5:4,8,12,16 --stripe 16k,64k,256k --drive atlas10k --pattern database
#             --qd 8,16,32,64 --time T --no-db --quiet
#   mpirun -n RANKS (the same)
#
# 4 drive counts x 3 stripe units x 4 queue depths = 48 points of T simulated seconds (default
# 200). Each is run REPS times (default 3), alternating; the script reports the median wall time
# of each and their ratio (one process / RANKS ranks), and checks that both printed the same
# table. mpirun gets --oversubscribe (RANKS may exceed the cores) and, as root,
# --allow-run-as-root.
#
# This is a benchmark, not a test: it exits 0 after a complete run whatever the figures.
# Environment: IOLAB (default build/iolab), RANKS (4), REPS (3), T (20).
set -euo pipefail
IOLAB=${IOLAB:-build/iolab}
RANKS=${RANKS:-4}
REPS=${REPS:-3}
T=${T:-200}
command -v mpirun >/dev/null || { echo "scale-out: no mpirun (apt-get install openmpi-bin)"; exit 0; }
MPI="mpirun --oversubscribe -n $RANKS"
[ "$(id -u)" -eq 0 ] && MPI="mpirun --oversubscribe --allow-run-as-root -n $RANKS"
SWEEP="sim --array raid5:4,8,12,16 --stripe 16k,64k,256k --drive atlas10k --pattern database --qd 8,16,32,64 --time $T --no-db --quiet"
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT

wall() { # wall seconds of "$@", output to $OUT
	local t0 t1
	t0=$(date +%s.%N)
	"$@" > "$OUT"
	t1=$(date +%s.%N)
	awk -v a="$t0" -v b="$t1" 'BEGIN { print b - a }'
}
median() { sort -g | awk '{v[NR]=$1} END {print v[int((NR+1)/2)]}'; }

: > "$tmp/one.t"
: > "$tmp/many.t"
for r in $(seq 1 "$REPS"); do
	OUT=$tmp/one.txt wall "$IOLAB" $SWEEP >> "$tmp/one.t"
	OUT=$tmp/many.txt wall $MPI "$IOLAB" $SWEEP >> "$tmp/many.t"
done
points=$(grep -c '^ *[0-9][0-9]* raid5' "$tmp/one.txt")
same=no
cmp -s "$tmp/one.txt" "$tmp/many.txt" && same=yes
one=$(median < "$tmp/one.t")
many=$(median < "$tmp/many.t")
printf 'scale-out: %s points of %s simulated s, %s runs each, %s cores\n' "$points" "$T" "$REPS" "$(nproc)"
printf '  one process : %.2f s (median)\n' "$one"
printf '  %s ranks     : %.2f s (median)\n' "$RANKS" "$many"
printf '  speed-up    : %.2fx    same table: %s\n' "$(awk -v a="$one" -v b="$many" 'BEGIN { print a / b }')" "$same"
