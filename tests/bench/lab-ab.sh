#!/usr/bin/env bash
# lab up / lab down of two (or more) ftsw builds side by side in one boot of
# the plain VM: for each variant in turn, `lab up` (time of each phase),
# h0 pings every host, `lab down`, then the kernel's namespace clean-up
# (95% of the lab's memory back, then a whole second over 90% idle). The
# ratio of two variants measured in one boot is what this is for; absolute
# times depend on the host's load.
#
#   tests/vm/run --plain --smp 2 --mem 12288 --timeout 3000 -- \
#       tests/bench/lab-ab.sh ftmn:16,3 new:build/ftsw: old:/tmp/old/ftsw: \
#       new2:build/ftsw:
#
# A variant is NAME:FTSW_BINARY:ENV, ENV a comma-separated list of K=V for
# that variant (e.g. FTSW_LAB_THREADS=4); run the first one again last to
# see drift within the boot.
set -uo pipefail
. "$(dirname "$0")/guest-env.sh"
[ $# -ge 2 ] || { echo "usage: $0 TOPO NAME:BIN:ENV..." >&2; exit 2; }
T=$1
shift
[ -d /sys/module/ftsw ] || insmod "$FTSW_KMOD/ftsw.ko"
export FTSW_LAB=ab
# Builtins only while waiting: every process costs ~0.1 s of guest CPU.
nap_fifo=$(mktemp -u /tmp/nap.XXXXXX)
mkfifo "$nap_fifo"
exec 7<>"$nap_fifo"
rm -f "$nap_fifo"
nap() { read -r -t "$1" -u 7 _ || true; }
mem_kb() {
	local k v _
	while read -r k v _; do
		[ "$k" = MemAvailable: ] && { kb=$v; return; }
	done </proc/meminfo
}
cpu_ticks() {	# busy and total ticks
	local u n s i w x y _
	read -r _ u n s i w x y _ </proc/stat
	busy=$((u + n + s + x + y)) total=$((u + n + s + i + w + x + y))
}
now() { date +%s.%N; }
since() { awk -v a="$1" -v b="$(now)" 'BEGIN { printf "%.2f", b - a }'; }
# The kernel log followed from the start (a big lab's lines overrun the
# printk ring before the end), counted per variant.
klog=$(mktemp /tmp/klog.XXXXXX)
dmesg -W >"$klog" &
klog_pid=$!
trap 'kill "$klog_pid" 2>/dev/null || true' EXIT
klog_bad() { grep -cE 'WARNING:|rcu_sched self-detected stall|rcu: INFO|BUG:|Oops' "$klog" || true; }
echo "# $T, $(uname -r), $(nproc) CPUs"
for V in "$@"; do
	name=${V%%:*} rest=${V#*:}
	bin=${rest%%:*} envs=${rest#*:}
	[ "$envs" != "$rest" ] || envs=
	mem_kb; m0=$kb
	bad0=$(klog_bad)
	cpu_ticks; b0=$busy
	t0=$(now)
	# shellcheck disable=SC2086
	out=$(env ${envs//,/ } "$bin" -v lab up -t "$T" 2>&1)
	tu=$(since "$t0")
	cpu_ticks
	echo "[$name] up $tu s wall, guest busy $((busy - b0)) ticks: $(echo "$out" | tr '\n' ' ')"
	r=$("$bin" -j lab ping h0 -W 10000 | python3 -c 'import json,sys; d=json.load(sys.stdin); print(d["ok"], "ok", d["failed"], "failed")')
	echo "[$name] h0 -> every host: $r"
	mem_kb; m1=$kb
	cpu_ticks; b0=$busy
	t0=$(now)
	# shellcheck disable=SC2086
	env ${envs//,/ } "$bin" lab down
	td=$(since "$t0")
	for _ in $(seq 4500); do
		mem_kb
		[ $((kb - m1)) -ge $(((m0 - m1) * 95 / 100)) ] && break
		nap 0.2
	done
	tm=$(since "$t0")
	for _ in $(seq 900); do
		cpu_ticks
		b1=$busy t1=$total
		nap 1
		cpu_ticks
		[ $((total - t1)) -gt 0 ] && [ $((100 * (busy - b1) / (total - t1))) -le 10 ] && break
	done
	cpu_ticks
	echo "[$name] down $td s, 95% of the memory back after $tm s, CPU idle after $(since "$t0") s, guest busy $((busy - b0)) ticks; kernel log: $(($(klog_bad) - bad0)) WARNING/stall/BUG lines"
done
