#!/usr/bin/env bash
# The largest lab: FT(16,3) (1024 hosts, 320 switches, 3072 cables) comes up
# in the VM; time of each phase, kernel memory used (MemAvailable before and
# after), ping from one host to all, then fm's reroute latency (detection ->
# committed) for a middle-top cable failed during paced permutation traffic,
# with the packets lost by the flows that crossed it and by the others, and
# lab down. Runs as root in the VM:
#
#   tests/vm/run --plain --mem 6144 --timeout 3000 -- tests/bench/lab-scale.sh [TOPO] [--no-neigh]
set -euo pipefail
: "${FTSW:?}" "${FTSW_KMOD:?}"
TOPO=${1:-ftmn:16,3}
shift || true
[ -d /sys/module/ftsw ] || insmod "$FTSW_KMOD/ftsw.ko"
export FTSW_LAB=big
mem() { awk '/MemAvailable/ { print $2 }' /proc/meminfo; }
m0=$(mem)
echo "# lab scale: $TOPO $*, $(uname -r), $(nproc) CPUs, $(awk '/MemTotal/ {print $2}' /proc/meminfo) kB"
/usr/bin/time -f "lab up: %e s wall, %M kB max RSS of ftsw" "$FTSW" -v lab up -t "$TOPO" "$@"
sync
m1=$(mem)
echo "memory used by the lab (MemAvailable drop): $(((m0 - m1) / 1024)) MB"
"$FTSW" lab status
echo "ping from h0 to every host:"
"$FTSW" lab ping h0 -W 10000 || true
"$FTSW" fm -d
sleep 1
tail -n 1 /run/ftsw/big/fm.log
# One machine carries every hop of every flow: a round of 1024 packets
# sent at once would overflow the per-CPU backlog (1000 packets by default)
# and those drops would be counted as losses. A real switch has its own
# buffers; give the emulated one room for a whole round.
echo "${BACKLOG:-65536}" >/proc/sys/net/core/netdev_max_backlog
echo "netdev_max_backlog: $(cat /proc/sys/net/core/netdev_max_backlog)"
echo "random permutation, paced, one middle-top cable failed half-way (fm running):"
"$FTSW" lab traffic -p perm --seed 2 --packets ${PACKETS:-100} --pps ${PPS:-5000} \
	--fail "${FAIL_A:-s128}" "${FAIL_B:-s256}" --fail-at $((${PACKETS:-100} / 2)) | grep -v '^  s'
for _ in $(seq 600); do
	[ "$(grep -c 'committed generation' /run/ftsw/big/fm.log)" -ge 2 ] && break
	sleep 0.1
done
echo "reroute after the failure (fm log):"
tail -n 2 /run/ftsw/big/fm.log | cut -c1-400
n=$(grep -c 'committed generation' /run/ftsw/big/fm.log)
"$FTSW" lab heal link "${FAIL_A:-s128}" "${FAIL_B:-s256}"
for _ in $(seq 600); do
	[ "$(grep -c 'committed generation' /run/ftsw/big/fm.log)" -gt "$n" ] && break
	sleep 0.1
done
echo "reroute after healing it, no traffic (fm log):"
tail -n 2 /run/ftsw/big/fm.log | cut -c1-400
"$FTSW" fm stop
t0=$(date +%s.%N)
"$FTSW" lab down
echo "lab down: $(awk -v a="$t0" -v b="$(date +%s.%N)" "BEGIN { printf \"%.2f\", b - a }") s"
