#!/usr/bin/env bash
# What a device costs to delete as the kernel's ARP hash grows. In 6.1 the
# neighbour tables are shared by every namespace, their hash only grows
# (to the first power of two at or above the most entries it ever held), and
# every device that goes down or away scans it whole, three times. A lab's
# own traffic sets that size for the rest of the boot: this measures what
# it costs per device, with no lab and no ftsw. Runs as root in the plain VM:
#
#   tests/vm/run --plain --smp 2 --mem 4096 --timeout 1200 -- \
#       tests/bench/neigh-hash-cost.sh
#
# In a scratch namespace (IPv6 off, like a lab's fabric namespace), N dummy
# devices (default 3000) are made and set up by one `ip -b`, then deleted
# in one group, three times at each hash size: as booted (8 buckets), then
# after 4100, 8200 and 16400 permanent entries have been added and flushed
# again (8192, 16,384 and 32,768 buckets). Environment: N, ROUNDS (default
# 3), SIZES (the entries to grow the hash past, default "0 4100 8200
# 16400"; 0: as it is). lab-scale.sh runs one round of 2000 at 0 as the
# yardstick of its boot.
set -euo pipefail
N=${N:-3000}
ROUNDS=${ROUNDS:-3}
SIZES=${SIZES:-0 4100 8200 16400}
ns=neigh-cost
now() { date +%s.%N; }
since() { awk -v a="$1" -v b="$(now)" 'BEGIN { printf "%.3f", b - a }'; }
buckets() {
	ip -s ntable show | awk '/^inet arp_cache/ { t = 1; next }
		t && /hash_mask/ { print $4; exit }' | { read -r m; echo $((16#$m + 1)); }
}
batch=$(mktemp /tmp/neigh-cost.XXXXXX)
trap 'rm -f "$batch"; ip netns del "$ns" 2>/dev/null || true' EXIT
ip netns add "$ns"
ip netns exec "$ns" sh -c 'echo 1 >/proc/sys/net/ipv6/conf/all/disable_ipv6
	echo 1 >/proc/sys/net/ipv6/conf/default/disable_ipv6'
ip -n "$ns" link add nc0 type dummy
ip -n "$ns" link set nc0 up

# Make N up dummies, let them settle, delete them in one request.
round() {
	local i t0 tc td
	for i in $(seq "$N"); do echo "link add d$i group 7 type dummy"; done >"$batch"
	for i in $(seq "$N"); do echo "link set d$i up"; done >>"$batch"
	t0=$(now)
	ip -n "$ns" -b "$batch"
	tc=$(since "$t0")
	sleep 4
	t0=$(now)
	ip -n "$ns" link del group 7
	td=$(since "$t0")
	awk -v n="$N" -v c="$tc" -v d="$td" -v b="$(buckets)" 'BEGIN {
		printf "ARP hash %6d buckets: %d dummy devices made and set up in %.2f s (%.3f ms each), deleted in %.2f s (%.3f ms each)\n",
		       b, n, c, 1000 * c / n, d, 1000 * d / n }'
}
# Grow the hash past @1 entries (permanent, on nc0), then flush them: the
# buckets stay.
grow() {
	local i
	for i in $(seq "$1"); do
		echo "neigh add 10.$((i / 65536)).$((i / 256 % 256)).$((i % 256)) lladdr 02:00:00:00:00:01 dev nc0 nud permanent"
	done >"$batch"
	ip -n "$ns" -b "$batch"
	ip -n "$ns" neigh flush dev nc0 nud permanent
}
echo "# neighbour hash cost: $(uname -r), $(nproc) CPUs, $N devices per round"
for size in $SIZES; do
	[ "$size" = 0 ] || grow "$size"
	for _ in $(seq "$ROUNDS"); do
		round
	done
done
