#!/usr/bin/env bash
# Diagnosis probe for tests/bench/datapath (runs in the test VM):
#
#   tests/vm/run --plain [--env PROBE_REPS] [--env PROBE_SOCK] \
#       [--env PROBE_TEARDOWN] -- tests/bench/datapath-probe.sh
#   (FTSW_KMOD and FTSW as for tests/bench/datapath)
#
# All chains (ftsw, bridge, OVS; PROBE_CHAINS) are built at once, each in
# its own namespaces, and measured interleaved, PROBE_REPS times: pktgen
# 64-byte UDP at 4000 pps, at full speed and at 1000 pps (PROBE_SOCK=1
# adds iperf3 UDP and TCP). Per packet delivered it prints the pktgen
# threads' own CPU time (se.sum_exec_runtime), the guest's busy and idle
# time per CPU (/proc/stat), softirqs, IPIs and softnet counters (backlog
# packets processed, drops, time squeezes) per CPU, with pktgen's result.
# PROBE_TEARDOWN=1 instead tears each chain down as the benchmark does and
# prints the guest's busy ticks each second for 20 s after it.
set -uo pipefail
. "$(dirname "$0")/guest-env.sh"
CHAINS=${PROBE_CHAINS:-ftsw bridge ovs}
REPS=${PROBE_REPS:-3}
NSW=5
insmod "$FTSW_KMOD/ftsw.ko" || exit 1
[ -d /proc/net/pktgen ] || insmod "$FTSW_VM_TREE/net/core/pktgen.ko" || exit 1
die() { echo "probe: $*" >&2; exit 1; }

. "$(dirname "$0")/datapath-chains.sh"
OVS=/tmp/ovsp
export OVS_RUNDIR=$OVS OVS_LOGDIR=$OVS OVS_DBDIR=$OVS
# One chain's namespaces: S, R, F for datapath-chains.sh.
use() { S=s_$1 R=r_$1 F=f_$1; }
kw() { local p t=0; for p in $(pgrep kworker); do t=$(awk -v t="$t" '/se.sum_exec_runtime/ {print t + $3}' /proc/$p/sched 2>/dev/null || echo "$t"); done; echo "$t"; }
if [ -n "${PROBE_TEARDOWN:-}" ]; then
	# After each chain's teardown (as the bench does it: ovs-vswitchd
	# stopped, ip netns del, sleep 1): guest busy ticks per second, and
	# the kworkers' CPU, for 20 s.
	for c in $CHAINS ftsw; do
		use "$c"; hosts; "chain_$c"
		ip netns exec "s_$c" ping -q -c 3 -i 0.2 -W 5 198.18.0.2 >/dev/null || die "$c: no ping"
		[ "$c" = ovs ] && ovs_stop
		k0=$(kw)
		ip netns del "s_$c"; ip netns del "r_$c"; ip netns del "f_$c"; sleep 1
		line=""
		for i in $(seq 1 20); do
			b0=$(awk '/^cpu / {print $2 + $3 + $4 + $7 + $8}' /proc/stat); sleep 1
			b1=$(awk '/^cpu / {print $2 + $3 + $4 + $7 + $8}' /proc/stat)
			line+=" $((b1 - b0))"
		done
		echo "after $c teardown: guest busy ticks (of 200) per 1 s:$line; kworker CPU $(awk -v a="$k0" -v b="$(kw)" 'BEGIN {printf "%.0f", b - a}') ms"
	done
	exit 0
fi
for c in $CHAINS; do
	use "$c"; hosts; "chain_$c"
	ip netns exec "s_$c" ping -q -c 3 -i 0.2 -W 5 198.18.0.2 >/dev/null || die "$c: no ping"
done
echo "chains up: $CHAINS; cpus $(nproc)"

pg() { ip netns exec "s_$1" sh -c "echo '$2' > /proc/net/pktgen/$3"; }
# Sum of se.sum_exec_runtime (ms) of all kpktgend threads.
pgcpu() {
	local p t=0
	for p in $(pgrep kpktgend); do
		t=$(awk -v t="$t" '/se.sum_exec_runtime/ {print t + $3}' /proc/$p/sched)
	done
	echo "$t"
}
snap() { # -> one line of numbers
	local st si ir sn
	st=$(awk '/^cpu[0-9]/ {printf "%d %d ", $2 + $3 + $4 + $7 + $8, $5}' /proc/stat)
	si=$(awk '$1 ~ /^(NET_RX|TIMER|HRTIMER|SCHED|RCU|NET_TX):$/ {printf "%d %d ", $2, $3}' /proc/softirqs)
	ir=$(awk '$1 ~ /^(LOC|RES|CAL|TLB):$/ {printf "%d %d ", $2, $3}' /proc/interrupts)
	sn=$(while read -r x y z _; do printf '%d %d %d ' $((16#$x)) $((16#$y)) $((16#$z)); done </proc/net/softnet_stat)
	echo "$(pgcpu) $st $si $ir $sn"
}
names="pgms busy0 idle0 busy1 idle1 TIMER0 TIMER1 NET_TX0 NET_TX1 NET_RX0 NET_RX1 SCHED0 SCHED1 HRTIMER0 HRTIMER1 RCU0 RCU1 LOC0 LOC1 RES0 RES1 CAL0 CAL1 TLB0 TLB1 proc0 drop0 sq0 proc1 drop1 sq1"
measure() { # CHAIN COUNT DELAY(ns, 0 = full speed) LABEL
	local c=$1 a b s0 s1 res
	pg "$c" "rem_device_all" kpktgend_0
	pg "$c" "add_device eth0" kpktgend_0
	pg "$c" "count $2" eth0
	pg "$c" "clone_skb 0" eth0
	pg "$c" "pkt_size 64" eth0
	pg "$c" "delay $3" eth0
	pg "$c" "dst 198.18.0.2" eth0
	pg "$c" "dst_mac 02:66:74:00:00:02" eth0
	pg "$c" "udp_dst_min 9" eth0
	pg "$c" "udp_dst_max 9" eth0
	a=$(ip netns exec "r_$c" cat /sys/class/net/eth0/statistics/rx_packets)
	s0=$(snap)
	ip netns exec "s_$c" sh -c 'echo start > /proc/net/pktgen/pgctrl'
	s1=$(snap)
	b=$(ip netns exec "r_$c" cat /sys/class/net/eth0/statistics/rx_packets)
	res=$(ip netns exec "s_$c" grep -o 'OK: [0-9]*(c[0-9]*+d[0-9]*) usec' /proc/net/pktgen/eth0)
	awk -v c="$c" -v l="$4" -v n="$names" -v a="$s0" -v b="$s1" -v d="$((b - a))" -v r="$res" 'BEGIN {
		nn = split(n, N); split(a, A); split(b, B)
		printf "%s %-6s delivered %d pktgen[%s] pktgen-thread %.1f us/pkt;", l, c, d, r, (B[1] - A[1]) * 1000 / d
		for (i = 2; i <= nn; i++) { v = B[i] - A[i]; if (v) printf " %s=%s", N[i], (N[i] ~ /busy|idle/) ? sprintf("%.1fus/pkt", v * 10000 / d) : sprintf("%.3f/pkt", v / d) }
		printf "\n" }'
}
# Socket UDP / TCP with the same counters (PROBE_SOCK=1).
sock() { # CHAIN udp|tcp LABEL
	local c=$1 a b s0 s1 res
	ip netns exec "r_$c" iperf3 -s -D -1 >/dev/null 2>&1
	sleep 0.5
	a=$(ip netns exec "r_$c" cat /sys/class/net/eth0/statistics/rx_packets)
	s0=$(snap)
	if [ "$2" = udp ]; then
		ip netns exec "s_$c" iperf3 -u -c 198.18.0.2 -l 64 -b $((4000 * 64 * 8)) -t 2 >/dev/null 2>&1
	else
		res=$(ip netns exec "s_$c" iperf3 -c 198.18.0.2 -t 2 2>/dev/null | awk '/receiver/ {print $7, $8}')
	fi
	s1=$(snap)
	b=$(ip netns exec "r_$c" cat /sys/class/net/eth0/statistics/rx_packets)
	awk -v c="$c" -v l="$3" -v n="$names" -v a="$s0" -v b="$s1" -v d="$((b - a))" -v r="${res:-}" 'BEGIN {
		nn = split(n, N); split(a, A); split(b, B)
		printf "%s %-6s delivered %d [%s];", l, c, d, r
		for (i = 2; i <= nn; i++) { v = B[i] - A[i]; if (v) printf " %s=%s", N[i], (N[i] ~ /busy|idle/) ? sprintf("%.1fus/pkt", v * 10000 / d) : sprintf("%.3f/pkt", v / d) }
		printf "\n" }'
}
for _ in $(seq 1 "$REPS"); do
	if [ -n "${PROBE_SOCK:-}" ]; then
		for c in $CHAINS; do sock "$c" udp sockudp; done
		for c in $CHAINS; do sock "$c" tcp tcp; done
	fi
	for c in $CHAINS; do measure "$c" 8000 250000 "rate4000"; done
	for c in $CHAINS; do measure "$c" 20000 0 "full"; done
	for c in $CHAINS; do measure "$c" 2000 1000000 "rate1000"; done
done
for c in $CHAINS; do
	[ "$c" = ftsw ] && ip netns exec f_ftsw "$FTSW" -s port show switch 1 | head -20
done
ovs_stop
