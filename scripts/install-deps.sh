#!/bin/sh
# Installs the Debian packages iolab needs to build, test and benchmark; skips what is present.
set -eu
pkgs="build-essential cmake pkg-config liburing-dev libaio-dev libblkid-dev libjansson-dev libsqlite3-dev
      libxxhash-dev libisal-dev gzip
      libcmocka-dev clang libclang-rt-14-dev fio jq e2fsprogs util-linux
      libjs-chart.js chromium fuse3 libfuse3-dev libopenmpi-dev openmpi-bin"
missing=""
for p in $pkgs; do
    dpkg-query -W -f='${Status}' "$p" 2>/dev/null | grep -q "install ok installed" || missing="$missing $p"
done
# Open MPI on one machine: `mpirun -n N` may start more ranks than there are cores (a lab tries
# a 4-rank job on a laptop; docs/scale-out.md). Set once, only where nothing says otherwise.
mpi_oversubscribe() {
    conf=/etc/openmpi/openmpi-mca-params.conf
    if [ -w "$conf" ] && ! grep -q '^ *rmaps_base_oversubscribe' "$conf"; then
        [ -z "$(tail -c 1 "$conf")" ] || echo >> "$conf" # the file may end without a newline
        printf '# iolab (scripts/install-deps.sh): more ranks than cores on one machine\nrmaps_base_oversubscribe = 1\n' >> "$conf"
    fi
}
if [ -z "$missing" ]; then
    mpi_oversubscribe
    exit 0
fi
if [ "$(id -u)" -ne 0 ]; then
    echo "install-deps: missing packages:$missing (run as root, or install them)" >&2
    exit 1
fi
echo "install-deps: installing$missing"
export DEBIAN_FRONTEND=noninteractive
apt-get update -qq
apt-get install -y -qq --no-install-recommends $missing >/dev/null
mpi_oversubscribe
