#!/usr/bin/env bash
# bench/soak.sh: a long mixed load with data verification on a loop device: no I/O error, no
# verify mismatch, memory flat.
#
# Three steps on one loop device (direct I/O, over a file in $TMPDIR, default /var/tmp):
#   1. fill:  the whole device written once, sequentially in 1 MiB writes, with --verify, so that
#             every 4 KiB block carries a verify header;
#   2. soak:  SOAK_SECONDS (default 1800) of a mixed load, 4 workers x queue depth 16: 4k, 16k and
#             64k transfers (60/30/10 % of the I/Os), 60 % reads, 75 % random, with --verify
#             crc32c: every read of a block the run wrote is checked against its last write's
#             generation; meanwhile the process's resident memory (VmRSS) is read every 10 s;
#   3. check: the device read back whole with --verify-only: every block's header and checksum.
# It prints each step's figures (IOPS, MB/s, I/O errors, blocks checked, mismatches) and the RSS
# 10 s after the soak's start, its largest and its last, then the exact commands.
#
# This is a benchmark, not a test: it exits 0 after a complete run whatever the figures, 1 if a
# step of iolab failed (an I/O error or a mismatch is iolab's exit 1: the figures still print).
#
# Environment: SOAK_SECONDS (default 1800), SIZE (default 1g: the device), IOLAB (default
#              build/iolab), TMPDIR.
# Needs: root (losetup), jq.
# Run: bench/soak.sh   (SOAK_SECONDS=60 bench/soak.sh for a short look).
set -euo pipefail

SOAK_SECONDS=${SOAK_SECONDS:-1800}
SIZE=${SIZE:-1g}
here=$(cd "$(dirname "${BASH_SOURCE[0]}")" && pwd)
IOLAB=${IOLAB:-$(cd "$here/.." && pwd)/build/iolab}

die() { echo "soak: $*" >&2; exit 2; }
[[ $SOAK_SECONDS =~ ^[1-9][0-9]*$ ]] || die "SOAK_SECONDS must be a positive integer (got '$SOAK_SECONDS')"
[[ -x $IOLAB ]] || die "$IOLAB not found: build it first (make build)"
command -v jq >/dev/null || die "jq not found (scripts/install-deps.sh installs it)"

work=$(mktemp -d "${TMPDIR:-/var/tmp}/iolab-soak.XXXXXX")
loopdev="" pid=""
cleanup() {
    local rc=$?
    trap - EXIT INT TERM
    if [[ -n $pid ]]; then kill "$pid" 2>/dev/null || true; wait "$pid" 2>/dev/null || true; fi
    if [[ -n $loopdev ]]; then losetup -d "$loopdev" || echo "soak: could not detach $loopdev" >&2; fi
    rm -rf "$work"
    exit "$rc"
}
trap cleanup EXIT
trap 'exit 130' INT
trap 'exit 143' TERM

truncate -s "$SIZE" "$work/backing.img"
loopdev=$(losetup --find --show --direct-io=on "$work/backing.img") || die "losetup failed (needs root)"

cat > "$work/soak.job" <<'EOF'
[pattern soak-mix]
# size  share%  read%  random%
4k      60      60     75
16k     30      60     75
64k     10      60     75

[run soak]
pattern = soak-mix
workers = 4
qd      = 16
EOF

failed=0
fill=(run "$loopdev" --force --pattern seq-write --bs 1m --qd 4 --bytes "$SIZE" --verify crc32c
      --no-db --quiet --json "$work/fill.json")
soak=(run "$loopdev" --force --job "$work/soak.job" --verify crc32c --time "$SOAK_SECONDS"
      --no-db --quiet --json "$work/soak.json")
check=(run "$loopdev" --verify-only --bs 1m --qd 8 --no-db --quiet --json "$work/check.json")

echo "soak: device $loopdev ($SIZE over $work/backing.img, direct I/O)"
"$IOLAB" "${fill[@]}" >/dev/null || failed=1

"$IOLAB" "${soak[@]}" >/dev/null &
pid=$!
start=$(date +%s)
echo "seconds,rss_kib" > "$work/rss.csv"
while sleep 10 && kill -0 "$pid" 2>/dev/null; do
    rss=$(awk '/^VmRSS:/ {print $2}' "/proc/$pid/status" 2>/dev/null || true)
    [[ -n $rss ]] && echo "$(( $(date +%s) - start )),$rss" >> "$work/rss.csv"
done
wait "$pid" || failed=1
pid=""

"$IOLAB" "${check[@]}" >/dev/null || failed=1

# One step's figures from its JSON document (docs/json-schema.md).
figures() {
    jq -r --arg step "$1" '.points[0] as $p |
        "\($step): \($p.iops | floor) IOPS, \($p.mb_per_s * 10 | floor / 10) MB/s, " +
        "\($p.errors.count) I/O errors, verify: \($p.verify.blocks_checked) blocks checked " +
        "(\($p.verify.blocks_checked_partial) header only), \($p.verify.blocks_skipped) skipped, " +
        "\($p.verify.mismatches) mismatches"' "$2"
}
for step in fill soak check; do
    if [[ -s $work/$step.json ]]; then figures "$step" "$work/$step.json"; else echo "$step: no report"; fi
done
awk -F, 'NR == 2 {first = $2; t0 = $1} NR > 1 {last = $2; tl = $1; if ($2 > max) max = $2}
         END {printf "memory: VmRSS %d KiB at %d s, %d KiB at %d s (largest %d KiB)\n",
              first, t0, last, tl, max}' "$work/rss.csv"
echo "commands:"
for c in fill soak check; do
    declare -n args=$c
    echo "  $IOLAB ${args[*]}"
done
exit "$failed"
