#!/usr/bin/env bash
# (lab 6) Beyond one machine: a fabric split across two "machines" (two
# namespaces, mA and mB, joined only by a veth underlay carrying VXLAN). Each
# machine runs its own fabric with one switch; the cable between the two
# switches is a VXLAN device bound as an ordinary link port on both sides.
# Host h0 hangs off switch 1 (machine A), h1 off switch 2 (machine B): ping
# crosses the VXLAN cable, and both switches count it. Each machine's
# fabric holds the address plan, so hosts resolve each other with no static
# neighbour and no ARP frame crosses the cable.
. "$(dirname "$0")/lib.sh"
PY=/usr/bin/python3

A=vxa$$ B=vxb$$ HA=vxa$$-h0 HB=vxb$$-h1
fa() { ip netns exec "$A" "$FTSW" "$@"; }
fb() { ip netns exec "$B" "$FTSW" "$@"; }

cleanup() { for n in "$HA" "$HB" "$A" "$B"; do ip netns del "$n" 2>/dev/null; done; }
trap cleanup EXIT

tap_plan 6
tap_check "insmod ftsw.ko" ftsw_load

setup() {
	# The underlay (the only thing the two machines share), the fabric
	# cable over it, and the hosts: h0 (LID 1) on machine A, h1 (LID 2)
	# on machine B.
	two_machines "$A" "$B" "$HA" "$HB" || return 1
	# Switches, ports, tables: each machine configures its own half.
	two_machine_switches "$A" "$B" || return 1
	# Both halves know the whole address plan: each machine's edge port
	# answers its host's ARP for the other machine's host.
	fa plan set hosts 2 lid 1 ipv4 198.18.0.1 && fa commit >/dev/null &&
		fb plan set hosts 2 lid 1 ipv4 198.18.0.1 && fb commit >/dev/null
}
tap_check "two machines, one VXLAN cable, a switch on each side" setup

tx() { ip netns exec "$1" "$FTSW" -j -s port show switch "$2" port 2 |
	"$PY" -c 'import json,sys; print(json.load(sys.stdin)["ports"][0]["stats"]["tx_packets"])'; }
ping_cross() {
	local a0 b0 a1 b1
	sleep 1	# carrier of the new ports
	a0=$(tx "$A" 1) b0=$(tx "$B" 2)
	ip netns exec "$HA" ping -c 5 -i 0.2 -W 2 -q 198.18.0.2 || return 1
	a1=$(tx "$A" 1) b1=$(tx "$B" 2)
	echo "VXLAN port tx: machine A +$((a1 - a0)), machine B +$((b1 - b0))"
	[ $((a1 - a0)) -ge 5 ] && [ $((b1 - b0)) -ge 5 ] || return 1
	# Resolved by each machine's own edge port, no static neighbour.
	ip -n "$HA" neigh show 198.18.0.2 | grep -q 'lladdr 02:66:74:00:00:02' &&
		ip -n "$HB" neigh show 198.18.0.1 | grep -q 'lladdr 02:66:74:00:00:01' &&
		! ip -n "$HA" neigh show nud permanent | grep -q . || return 1
	[ "$(ip netns exec "$A" "$FTSW" -j -s port show switch 1 port 1 |
		"$PY" -c 'import json,sys; print(json.load(sys.stdin)["ports"][0]["stats"]["resolved"])')" -ge 1 ]
}
tap_check "h0 (machine A) pings h1 (machine B) across the VXLAN cable, both ports count; ARP answered on each side" ping_cross
udp_underlay() {
	# The only packets between the machines are VXLAN (UDP 4789) frames.
	ip -n "$A" -s link show u0 | sed -n '4p;6p'
	[ "$(ip netns exec "$B" cat /sys/class/net/u0/statistics/rx_packets)" -ge 5 ]
}
tap_check "the underlay carried them" udp_underlay
tap_check "tear down" cleanup
tap_check "rmmod ftsw" ftsw_unload
tap_done
