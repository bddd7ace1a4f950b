#!/usr/bin/env bash
# Labs of thousands of hosts, one after the other in one VM boot: for each
# topology, `lab up` (time of each phase), kernel memory per host
# (MemAvailable before and after), h0 pings every host, a random sample of
# host pairs ping, `ftsw fm` (discovery, first commit, event -> commit for
# a failed cable and for its heal), then `lab down` and the kernel's own
# namespace clean-up (until the memory is back, and per device), with the
# kernel log checked for WARNINGs and RCU stalls; first, a yardstick of the
# boot's speed (neigh-hash-cost.sh). Hosts hold no static neighbours: the fabric
# answers ARP from its address plan. Runs as root in the plain VM, on an
# idle host (quiet):
#
#   quiet tests/vm/run --plain --smp 2 --mem 12288 --timeout 3600 -- \
#       tests/bench/lab-scale.sh ftmn:16,3 'pgft:3;16,16,16;1,16,16;1,1,1'
#
# The clean-up is over when the kernel has done its work, not when `lab
# down` returns: the lab's memory is back (all but 5% or 32 MB) and the
# guest's CPU has been idle (over 90% idle time) for a whole second.
#
# Environment: PAIRS (random pairs pinged, default 32), SEED (default 1),
# FAIL_PORT (S:P, the cable failed under fm; default: switch 0's first
# link port, a leaf's up-link), CABLES (patch, the default: `lab up
# --patch`, the cables between switches inside the module; veth: a veth
# pair each, which doubles the lab's devices and its clean-up).
set -euo pipefail
. "$(dirname "$0")/guest-env.sh"
[ $# -gt 0 ] || set -- ftmn:16,3
[ -d /sys/module/ftsw ] || insmod "$FTSW_KMOD/ftsw.ko"
export FTSW_LAB=big
PAIRS=${PAIRS:-32}
RANDOM=${SEED:-1}
# The waits below poll with shell builtins only: under TCG every process
# started costs about 0.1 s of guest CPU, so a loop of awk and sleep would
# itself keep a CPU busy and slow down the clean-up it measures.
meminfo() {	# meminfo FIELD: its value in kB
	local k v _
	while read -r k v _; do
		[ "$k" = "$1:" ] && { echo "$v"; return; }
	done </proc/meminfo
}
mem() { meminfo MemAvailable; }
slab() { meminfo Slab; }
nap_fifo=$(mktemp -u /tmp/nap.XXXXXX)
mkfifo "$nap_fifo"
exec 7<>"$nap_fifo"
rm -f "$nap_fifo"
nap() { read -r -t "$1" -u 7 _ || true; }
idle_file=$(mktemp /tmp/idle.XXXXXX)
# Idle share of the CPU time (in %) over the next second.
idle1() {
	local u n s i w x y i0 t0
	read -r _ u n s i w x y _ </proc/stat
	i0=$((i + w)) t0=$((u + n + s + i + w + x + y))
	nap 1
	read -r _ u n s i w x y _ </proc/stat
	i=$((i + w - i0)) t0=$((u + n + s + i0 + i + x + y - t0))
	echo $((t0 > 0 ? 100 * i / t0 : 0))
}
# The kernel's neighbour tables (shared by every namespace in 6.1): their
# entries and hash buckets. The buckets never shrink, and every device that
# goes down or away scans all of them: they set the clean-up's cost.
ntab() {
	local ea ha en hn
	read -r ea ha en hn < <(ip -s ntable show | awk '
		/^inet6? (arp|ndisc)_cache *$/ { t = $2; next }
		t && /entries/ { e[t] = $NF }
		t && /hash_mask/ { h[t] = $4; t = "" }
		END { print e["arp_cache"], h["arp_cache"], e["ndisc_cache"], h["ndisc_cache"] }')
	echo "ARP $ea entries, $((16#$ha + 1)) buckets; ND $en entries, $((16#$hn + 1)) buckets"
}
now() { date +%s.%N; }
since() { awk -v a="$1" -v b="$(now)" 'BEGIN { printf "%.2f", b - a }'; }
# The kernel log is followed from the start: a big lab writes tens of
# thousands of lines, and what `dmesg` reads at the end has lost the
# beginning (the printk buffer is a ring; a stall report scrolled out of it
# once and the check read 0 lines).
klog=$(mktemp /tmp/klog.XXXXXX)
dmesg -W >"$klog" &
klog_pid=$!
trap 'kill "$klog_pid" 2>/dev/null || true' EXIT
# The kernel spells its neighbour-table message "neighbor table overflow".
klog_pat='WARNING:|rcu_sched self-detected stall|rcu: INFO|BUG:|Oops|neighbou?r table overflow'
klog_bad() { grep -cE "$klog_pat" "$klog" || true; }

rc=0
case ${CABLES:=patch} in
patch) PATCH=--patch ;;
veth) PATCH= ;;
*) echo "CABLES=$CABLES: patch or veth" >&2; exit 2 ;;
esac
echo "# lab scale: $*, cables $CABLES, $(uname -r), $(nproc) CPUs, $(awk '/MemTotal/ {print $2}' /proc/meminfo) kB, lab up threads ${FTSW_LAB_THREADS:-$(nproc)}"

# The host's speed moves by tens of percent between runs (TCG), and every
# figure below is mostly the kernel's own per-device work. So first the
# same kind of work without ftsw, as a yardstick of this boot: one round of
# neigh-hash-cost.sh, 2000 dummy devices made, set up and deleted in a
# scratch namespace before any lab has grown the neighbour tables.
N=2000 ROUNDS=1 SIZES=0 "$(dirname "$0")/neigh-hash-cost.sh" | sed -n 's/^ARP hash .*buckets: /yardstick: /p'
nap 3
for TOPO in "$@"; do
	echo
	echo "## $TOPO"
	bad0=$(klog_bad) kl0=$(wc -l <"$klog")
	m0=$(mem) s0=$(slab)
	t0=$(now)
	nice -n 0 "$FTSW" -v lab up -t "$TOPO" $PATCH 2>&1 | grep -v '^\s*$' || true
	echo "lab up: $(since "$t0") s wall"
	"$FTSW" lab status >/dev/null || { echo "lab up failed"; exit 1; }
	sync
	m1=$(mem) s1=$(slab)
	nh=$("$FTSW" -j lab status | python3 -c 'import json,sys; print(json.load(sys.stdin)["hosts"])')
	echo "kernel neighbour tables after lab up: $(ntab)"
	echo "hosts: $nh; kernel memory used by the lab (MemAvailable drop): $(((m0 - m1) / 1024)) MB, $(((m0 - m1) / nh)) kB per host; of it slab $(((s1 - s0) / 1024)) MB, $(((s1 - s0) / nh)) kB per host"
	t0=$(now)
	out=$("$FTSW" -j lab ping h0 -W 10000 || true)
	echo "h0 -> every host: $(echo "$out" | python3 -c 'import json,sys; d=json.load(sys.stdin); print(d["ok"], "ok,", d["failed"], "failed")') in $(since "$t0") s"
	ok=0
	t0=$(now)
	for _ in $(seq "$PAIRS"); do
		a=$((RANDOM * 32768 + RANDOM)); a=$((a % nh))
		b=$((RANDOM * 32768 + RANDOM)); b=$((b % nh))
		[ "$a" != "$b" ] || b=$(((b + 1) % nh))
		if "$FTSW" lab ping "h$a" "h$b" -c 1 -W 10000 >/dev/null 2>&1; then
			ok=$((ok + 1))
		else
			echo "  h$a -> h$b failed"
		fi
	done
	echo "random pairs: $ok of $PAIRS ping in $(since "$t0") s"
	echo "kernel neighbour tables after the pings: $(ntab)"
	echo "neighbour entries of h0 (IPv4): $(ip -n big-h0 -4 neigh show | wc -l)"

	# The fabric manager: discovery and first commit, then a failed cable.
	"$FTSW" fm -d
	for _ in $(seq 1200); do
		grep -q 'committed generation' /run/ftsw/big/fm.log 2>/dev/null && break
		sleep 0.1
	done
	echo "fm start (fm log):"
	cut -c1-300 /run/ftsw/big/fm.log | sed 's/^/  /'
	# Default: switch 0's first link port (a leaf's up-link).
	fp=${FAIL_PORT:-s0:$(ip netns exec big "$FTSW" -j port show switch 0 |
		python3 -c 'import json,sys; print(min(p["port"] for p in json.load(sys.stdin)["ports"] if p["kind"] == "link"))')}
	# Each end of the cable is an event: print every line the change
	# logged (the reroute, and "no change" for the second end).
	for act in fail heal; do
		n=$(grep -c 'committed generation' /run/ftsw/big/fm.log)
		l=$(wc -l </run/ftsw/big/fm.log)
		"$FTSW" lab "$act" port "$fp" >/dev/null
		for _ in $(seq 1200); do
			[ "$(grep -c 'committed generation' /run/ftsw/big/fm.log)" -gt "$n" ] && break
			sleep 0.1
		done
		sleep 2
		echo "$act cable at $fp (fm log):"
		tail -n +$((l + 1)) /run/ftsw/big/fm.log | cut -c1-400 | sed 's/^/  /'
	done
	"$FTSW" fm stop

	# Every device the lab has: the fabric's (each switch port, and lo)
	# and each host's eth0 and lo.
	ndev=$(($(ip -n big -o link show | wc -l) + 2 * nh))
	echo "kernel neighbour tables before lab down: $(ntab); devices: $ndev"
	t0=$(now)
	"$FTSW" lab down
	echo "lab down: $(since "$t0") s"
	# The kernel frees the namespaces asynchronously: wait until 95% of
	# the lab's memory is back, then until the CPU is idle (or 900 s).
	# Some 10-20 MB never come back (caches the lab grew: the neighbour
	# hashes, slabs kept partly used), so what may stay out is 5% of the
	# lab or 32 MB, whichever is more: 5% alone of a small lab (266 MB for
	# FT(16,3) with patch cables) is within that and would never be met.
	left_ok=$(((m0 - m1) * 5 / 100))
	[ "$left_ok" -ge 32768 ] || left_ok=32768
	for _ in $(seq 4500); do
		mem_kb=
		while read -r k v _; do
			[ "$k" = MemAvailable: ] && { mem_kb=$v; break; }
		done </proc/meminfo
		[ $((m0 - mem_kb)) -le "$left_ok" ] && break
		nap 0.2
	done
	tm=$(since "$t0")
	for _ in $(seq 900); do
		idle1 >"$idle_file"
		read -r idle <"$idle_file"
		[ "$idle" -ge 90 ] && break
	done
	td=$(since "$t0")
	echo "lab down + the kernel's namespace clean-up: the memory back (all but 5% or 32 MB) after $tm s, CPU idle (a whole second over 90% idle) after $td s ($(((m0 - $(mem)) / 1024)) MB not back); $(awk -v t="$td" -v n="$ndev" 'BEGIN { printf "%.2f", 1000 * t / n }') ms per device"
	bad1=$(klog_bad)
	echo "kernel log: $((bad1 - bad0)) WARNING/stall/BUG lines"
	if [ "$bad1" != "$bad0" ]; then
		tail -n +$((kl0 + 1)) "$klog" | grep -E -A5 "$klog_pat" | head -40
		rc=1
	fi
done
exit $rc
