#!/usr/bin/env bash
# (99) Lossless mode's credits, in the kernel alone (no lab): two switches
# joined by a veth pair whose ends are both ftsw ports (credits read across
# the pair), a host on each. Traffic crosses with no loss and every credit
# comes back (96 blocks of a 6144-byte buffer when idle). A link port whose
# far end is no ftsw port (a bare veth end, as a VXLAN would be) sends
# credit-update frames (layout from the UAPI header: version 1, 15 VLs, a
# credit limit of 96 blocks each when nothing was received); malformed
# ones are each dropped as bad_credit; a valid one sets the port's credits.
# The console stays clean (the VM harness checks KASAN, lockdep, kmemleak).
. "$(dirname "$0")/lib.sh"
. "$(dirname "$0")/fabric-lib.sh"
export HOST_NO_V6=1
CT="$PY $(dirname "$0")/credittool.py"

tap_plan 8
# vl_stat SW PORT VL FIELD: a per-VL lossless counter (port show -s -j).
vl_stat() {
	fsw -j -s port show switch "$1" port "$2" | "$PY" -c '
import json, sys
p = json.load(sys.stdin)["ports"][0]["lossless"]
print([v for v in p["vls"] if v["vl"] == int(sys.argv[1])][0][sys.argv[2]])' "$3" "$4"
}

tap_check "insmod ftsw.ko" ftsw_load
setup() {
	fabric_setup && fsw fabric set lossless on &&
		host_add 0 1 && host_add 1 2 && hosts_neigh &&
		hx 0 tc qdisc replace dev eth0 root pfifo limit 1000 &&
		hx 1 tc qdisc replace dev eth0 root pfifo limit 1000 &&
		link_add l1 l2 && link_add x1 x2 &&
		fsw switch add id 1 ports 4 && fsw switch add id 2 ports 4 &&
		fsw port bind switch 1 port 1 dev h0 kind edge lid 1 &&
		fsw port bind switch 2 port 1 dev h1 kind edge lid 2 &&
		fsw port bind switch 1 port 3 dev l1 kind link &&
		fsw port bind switch 2 port 3 dev l2 kind link &&
		fsw port bind switch 1 port 4 dev x1 kind link &&
		fsw lft set switch 1 lid 1 port 1 lid 2 port 3 &&
		fsw lft set switch 2 lid 2 port 1 lid 1 port 3 &&
		fsw commit >/dev/null && fsw -j fabric show | grep -q '"lossless": *true'
}
tap_check "lossless fabric: 2 switches, a veth between ftsw ports, a bare link" setup
traffic() {
	hx 0 ping -q -c 300 -i 0.002 -s 1400 "$(host_ip 1)" | tee /dev/stderr |
		grep -q " 0% packet loss"
}
tap_check "300 pings of 1400 bytes cross with no loss" traffic
idle() {
	local c1 c2
	sleep 1
	c1=$(vl_stat 1 3 0 credits) && c2=$(vl_stat 2 3 0 credits) || return 1
	echo "credits 1:3 $c1, 2:3 $c2"
	[ "$c1" = 96 ] && [ "$c2" = 96 ] &&
		[ "$(vl_stat 1 3 0 in_bytes)" = 0 ] && [ "$(vl_stat 1 3 0 out_bytes)" = 0 ]
}
tap_check "idle: every credit back (96 blocks each way), buffers empty" idle
emitted() {
	local j
	j=$(fab $CT recv x2) || return 1
	echo "$j"
	echo "$j" | "$PY" -c '
import json, sys
j = json.load(sys.stdin)
ok = j["dlid"] == 0xFFFF and j["pkey"] == 0xFFFF and j["proto"] == 0x88B5 and j["version"] == 1 and \
    j["count"] == 15 and [e["vl"] for e in j["entries"]] == list(range(15)) and \
    all(e["fccl"] == 96 and e["fctbs"] == 0 for e in j["entries"])
sys.exit(0 if ok else 1)'
}
tap_check "a bare link port sends credit frames: 15 VLs, limit 96, nothing sent" emitted
bad0=$(port_stat 1 4 drops.bad_credit)
fuzzed() {
	local bad
	fab $CT fuzz x2 500 7 || return 1
	sleep 1
	bad=$(port_stat 1 4 drops.bad_credit)
	echo "bad_credit $bad0 -> $bad"
	[ "$bad" -eq $((bad0 + 500)) ]
}
tap_check "500 malformed credit frames: 500 bad_credit drops" fuzzed
granted() {
	local c
	fab $CT send x2 0 0 50 || return 1
	sleep 0.5
	c=$(vl_stat 1 4 0 credits)
	echo "credits 1:4 VL0 $c"
	[ "$c" = 50 ]
}
tap_check "a valid credit frame (limit 50) gives the port 50 credits" granted
tap_check "h0 still pings h1" ping_ok 0 "$(host_ip 1)" 3
fabric_cleanup
tap_done
