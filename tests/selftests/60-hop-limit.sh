#!/usr/bin/env bash
# (6) A looping table (switch 1 sends LID 9 to switch 2, which sends it
# back) drops every packet by hop limit exactly once: counters say so and
# the link carries a bounded number of copies (no storm).
. "$(dirname "$0")/lib.sh"
. "$(dirname "$0")/fabric-lib.sh"
export HOST_NO_V6=1

tap_plan 6
tap_check "insmod ftsw.ko" ftsw_load
setup() {
	fabric_setup && host_add 0 1 && hosts_neigh &&
		link_add a12 b21 &&
		fsw switch add id 1 ports 2 && fsw switch add id 2 ports 2 &&
		fsw port bind switch 1 port 1 dev h0 kind edge lid 1 &&
		fsw port bind switch 1 port 2 dev a12 kind link &&
		fsw port bind switch 2 port 2 dev b21 kind link &&
		fsw lft set switch 1 lid 1 port 1 lid 9 port 2 &&
		fsw lft set switch 2 lid 9 port 2 && fsw commit >/dev/null &&
		fsw fabric set hop-limit 16 &&
		hx 0 ip neigh replace 198.18.0.9 lladdr "$(lid_mac 9)" dev eth0 nud permanent
}
tap_check "two switches with a loop for LID 9, hop limit 16" setup
N=20
loop() {
	local r=0
	hx 0 ping -c $N -i 0.05 -W 1 -q 198.18.0.9 >/dev/null 2>&1 && r=1
	sleep 1
	return $r
}
tap_check "send $N packets into the loop: no replies" loop
hop_drops() {
	local d
	d=$(fabric_stat drops.hop_limit)
	echo "hop_limit drops: $d"
	[ "$d" = $N ]
}
tap_check "every packet dropped by hop limit exactly once" hop_drops
bounded() {
	local a b
	a=$(port_stat 1 2 tx_packets); b=$(port_stat 2 2 tx_packets)
	echo "link tx: switch 1 $a, switch 2 $b (expected $((N * 17)): 1 + 16 hops each)"
	[ $((a + b)) = $((N * 17)) ]
}
tap_check "copies on the link bounded by packets x hop limit" bounded
fabric_cleanup
tap_check "rmmod ftsw" ftsw_unload
tap_done
