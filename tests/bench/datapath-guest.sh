#!/usr/bin/env bash
# Guest side of tests/bench/datapath (runs as root in the test VM).
set -uo pipefail
: "${FTSW_KMOD:?}" "${FTSW:?}"
SECS=${BENCH_SECS:-5}
ROUNDS=${BENCH_ROUNDS:-3}
NSW=5
S=bs$$ R=br$$ F=bf$$

insmod "$FTSW_KMOD/ftsw.ko" || exit 1
f() { ip netns exec "$F" "$@"; }

hosts() {
	ip netns add "$S"; ip netns add "$R"; ip netns add "$F"
	f sysctl -qw net.ipv6.conf.all.disable_ipv6=1 net.ipv6.conf.default.disable_ipv6=1
	ip link add s0 netns "$F" type veth peer name eth0 netns "$S"
	ip link add r0 netns "$F" type veth peer name eth0 netns "$R"
	ip -n "$S" link set eth0 address 02:66:74:00:00:01 up
	ip -n "$R" link set eth0 address 02:66:74:00:00:02 up
	ip -n "$S" addr add 198.18.0.1/15 dev eth0
	ip -n "$S" neigh add 198.18.0.2 lladdr 02:66:74:00:00:02 dev eth0 nud permanent
	ip -n "$R" addr add 198.18.0.2/15 dev eth0
	ip -n "$R" neigh add 198.18.0.1 lladdr 02:66:74:00:00:01 dev eth0 nud permanent
	f ip link set s0 up; f ip link set r0 up
	# Links between consecutive elements: lNr (right of N) <-> lMl (left of M).
	local i
	for i in $(seq 1 $((NSW - 1))); do
		f ip link add "l${i}r" mtu 9000 type veth peer name "l$((i + 1))l" mtu 9000
		f ip link set "l${i}r" up; f ip link set "l$((i + 1))l" up
	done
}
left() { [ "$1" = 1 ] && echo s0 || echo "l${1}l"; }
right() { [ "$1" = $NSW ] && echo r0 || echo "l${1}r"; }

chain_ftsw() {
	local i
	for i in $(seq 1 $NSW); do
		f "$FTSW" switch add id "$i" ports 8
		if [ "$i" = 1 ]; then
			f "$FTSW" port bind switch 1 port 1 dev s0 kind edge lid 1
		else
			f "$FTSW" port bind switch "$i" port 1 dev "$(left "$i")" kind link
		fi
		if [ "$i" = $NSW ]; then
			f "$FTSW" port bind switch "$i" port 2 dev r0 kind edge lid 2
		else
			f "$FTSW" port bind switch "$i" port 2 dev "$(right "$i")" kind link
		fi
		f "$FTSW" lft set switch "$i" lid 1 port 1 lid 2 port 2
	done
	f "$FTSW" commit >/dev/null
}
chain_bridge() {
	local i
	for i in $(seq 1 $NSW); do
		f ip link add "br$i" type bridge stp_state 0 mcast_snooping 0
		f ip link set "$(left "$i")" master "br$i"
		f ip link set "$(right "$i")" master "br$i"
		f ip link set "br$i" up
	done
}
teardown() { ip netns del "$S"; ip netns del "$R"; ip netns del "$F"; sleep 1; }

pg() { ip netns exec "$S" sh -c "echo '$1' > /proc/net/pktgen/$2"; }
busy() { awk '/^cpu / {print $2 + $3 + $4 + $7 + $8}' /proc/stat; }
# run_cost: COUNT packets of 64 bytes at RATE pps from S (pktgen), all the
# way to R; print "<CPU us per packet> <delivered>". At a rate every chain
# sustains, the CPU time the guest spends per packet (user + system + irq +
# softirq, from /proc/stat) is the fair measure on a shared, single-CPU
# TCG guest; its inverse is the packets per second one CPU can forward.
COUNT=${BENCH_COUNT:-$((SECS * 1000))}
RATE=${BENCH_RATE:-1000}
run_cost() {
	local a b c0 c1
	pg "rem_device_all" kpktgend_0
	pg "add_device eth0" kpktgend_0
	pg "count $COUNT" eth0
	pg "clone_skb 0" eth0
	pg "pkt_size 64" eth0
	pg "ratep $RATE" eth0
	pg "dst 198.18.0.2" eth0
	pg "dst_mac 02:66:74:00:00:02" eth0
	pg "udp_dst_min 9" eth0
	pg "udp_dst_max 9" eth0
	sleep 1
	a=$(ip netns exec "$R" cat /sys/class/net/eth0/statistics/rx_packets)
	c0=$(busy)
	ip netns exec "$S" sh -c 'echo start > /proc/net/pktgen/pgctrl'
	sleep 1
	c1=$(busy)
	b=$(ip netns exec "$R" cat /sys/class/net/eth0/statistics/rx_packets)
	awk -v c="$((c1 - c0))" -v d="$((b - a))" 'BEGIN { printf "%.1f %d\n", (d ? c * 10000 / d : 0), d }'
}

# run_tcp: iperf3 TCP S -> R (hosts at MTU 1500, TSO/GSO on), Mbit/s.
run_tcp() {
	ip netns exec "$R" iperf3 -s -D -1 >/dev/null 2>&1
	sleep 0.5
	ip netns exec "$S" iperf3 -c 198.18.0.2 -t "$SECS" -J 2>/dev/null |
		awk -F'[:,]' '/"sum_received"/ {s = 1} s && /"bits_per_second"/ {printf "%.1f\n", $2 / 1e6; exit}'
}

ftsw_pps=() br_pps=() ftsw_tcp=() br_tcp=()
for r in $(seq 1 "$ROUNDS"); do
	hosts; chain_ftsw
	read -r p d < <(run_cost); ftsw_pps+=("$p")
	t=$(run_tcp); ftsw_tcp+=("$t")
	echo "round $r: ftsw   chain of $NSW: $p us CPU/packet ($d of $COUNT delivered), TCP $t Mbit/s"
	f "$FTSW" -s port show switch 3 | sed 's/^/    /' | head -3
	teardown
	hosts; chain_bridge
	read -r p d < <(run_cost); br_pps+=("$p")
	t=$(run_tcp); br_tcp+=("$t")
	echo "round $r: bridge chain of $NSW: $p us CPU/packet ($d of $COUNT delivered), TCP $t Mbit/s"
	teardown
done
fs=$(printf '%s\n' "${ftsw_pps[@]}" | sort -g | awk '{v[NR]=$1} END {print v[int((NR+1)/2)]}')
bs=$(printf '%s\n' "${br_pps[@]}" | sort -g | awk '{v[NR]=$1} END {print v[int((NR+1)/2)]}')
awk -v f="$fs" -v b="$bs" -v n=$NSW 'BEGIN { printf "ratio: ftsw %.0f pps / bridge %.0f pps per CPU (%.1f vs %.1f us CPU per packet, medians, chain of %d, 64-byte UDP) = %.2f\n", (f ? 1e6 / f : 0), (b ? 1e6 / b : 0), f, b, n, (f ? b / f : 0) }'

ft=$(printf '%s\n' "${ftsw_tcp[@]}" | sort -n | awk '{v[NR]=$1} END {print v[int((NR+1)/2)]}')
bt=$(printf '%s\n' "${br_tcp[@]}" | sort -n | awk '{v[NR]=$1} END {print v[int((NR+1)/2)]}')
awk -v f="$ft" -v b="$bt" 'BEGIN { printf "tcp: ftsw %.1f Mbit/s / bridge %.1f Mbit/s (medians, iperf3, hosts at MTU 1500 with TSO, GSO carried whole) = %.2f\n", f, b, (b > 0 ? f / b : 0) }'

# Memory: NTAB switches with a full LFT (0xC000 entries) each.
NTAB=100
ip netns add "$F"
avail() { awk '/^MemAvailable/ {print $2 * 1024}' /proc/meminfo; }
sync; echo 3 > /proc/sys/vm/drop_caches
m0=$(avail)
tab=$(mktemp); echo "1-49151 1" >"$tab"
for i in $(seq 1 $NTAB); do
	f "$FTSW" switch add id "$i" ports 8 >/dev/null
	f "$FTSW" lft set switch "$i" file "$tab"
done
f "$FTSW" commit >/dev/null
sleep 2
sync; echo 3 > /proc/sys/vm/drop_caches
m1=$(avail)
lb=$(f "$FTSW" -j fabric show | sed 's/.*"lft_bytes":\([0-9]*\).*/\1/')
awk -v lb="$lb" -v d="$((m0 - m1))" -v n=$NTAB 'BEGIN {
	e = n * 49152
	printf "lft bytes/entry: %.4f (reported by the module: %d bytes for %d entries); %.3f measured as MemAvailable drop for %d switches with full tables (includes switch and port structures)\n", lb / e, lb, e, d / e, n }'
rm -f "$tab"
ip netns del "$F"
rmmod ftsw
