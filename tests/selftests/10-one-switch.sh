#!/usr/bin/env bash
# (1) One switch, two hosts: ping IPv4 and IPv6, UDP and TCP (iperf3, GSO
# from the hosts at MTU 1500) through the switch; counters move.
. "$(dirname "$0")/lib.sh"
. "$(dirname "$0")/fabric-lib.sh"

tap_plan 12
tap_check "insmod ftsw.ko" ftsw_load
fabric_setup
host_add 0 1
host_add 1 2
hosts_neigh
tap_check "switch add" fsw switch add id 1 ports 4 name sw1
bind_ports() {
	fsw port bind switch 1 port 1 dev h0 kind edge lid 1 &&
		fsw port bind switch 1 port 2 dev h1 kind edge lid 2
}
tap_check "bind edge ports" bind_ports
lft_commit() { fsw lft set switch 1 lid 1 port 1 lid 2 port 2 && fsw commit; }
tap_check "lft set + commit" lft_commit
hx 0 ethtool -K eth0 tso on gso on >/dev/null 2>&1
tap_check "ping IPv4" ping_ok 0 "$(host_ip 1)" 3
tap_check "ping IPv6" ping_ok 0 "$(host_ip6 1)" 3
tap_check "large ping IPv4 (1472 bytes, full MTU)" \
	hx 0 ping -c 2 -s 1472 -M do -W 2 -q "$(host_ip 1)"

hx 1 iperf3 -s -D -1 --logfile "$TMPDIR/iperf-s.$$" >/dev/null 2>&1
sleep 0.5
out=$(hx 0 iperf3 -c "$(host_ip 1)" -u -b 20M -l 512 -t 2 -J 2>&1)
tap_check "UDP (iperf3 -u) delivers" "$PY" -c '
import json, sys
r = json.loads(sys.argv[1])["end"]["sum"]
print(r); assert r["packets"] > 100 and r["lost_percent"] < 50' "$out"

tcp_test() {
	local dst=$1 out
	hx 1 iperf3 -s -D -1 --logfile "$TMPDIR/iperf-s.$$" >/dev/null 2>&1
	sleep 0.5
	out=$(hx 0 iperf3 -c "$dst" -t 2 -J 2>&1) || { echo "$out"; return 1; }
	"$PY" -c '
import json, sys
r = json.loads(sys.argv[1])["end"]["sum_received"]
mbps = r["bits_per_second"] / 1e6
print("TCP %.1f Mbit/s" % mbps); assert mbps > 1' "$out" >"$TMPDIR/tcp.$$" || return 1
	sed "s/^/# $2: /" "$TMPDIR/tcp.$$" >&3
}
exec 3>&1
tap_check "TCP IPv4 (iperf3)" tcp_test "$(host_ip 1)" IPv4
tap_check "TCP IPv6 (iperf3)" tcp_test "$(host_ip6 1)" IPv6
counters() {
	[ "$(port_stat 1 1 tx_packets)" -gt 100 ] && [ "$(port_stat 1 2 tx_packets)" -gt 100 ]
}
tap_check "counters: tx on both edge ports" counters
fsw -s port show | tap_diag
fabric_cleanup
tap_check "rmmod ftsw" ftsw_unload
tap_done
