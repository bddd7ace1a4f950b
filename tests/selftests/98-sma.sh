#!/usr/bin/env bash
# In-band management (Documentation/sm.md): from host 0 of the 2-leaf,
# 2-spine tree, directed-route SMPs discover every switch and host 1's CA
# (NodeInfo, NodeDescription, return paths worked out by hand), program
# every LFT by SMP so that host 0 pings host 1 over tables no netlink call
# wrote, follow them LID-routed, set a CA's LID (which ARP then answers
# with), keep SMP blocks across a netlink COMMIT, disable and enable a port
# by PortPhysicalState, read a switch port's PMA counters, and get the
# specification's status for what is refused.
. "$(dirname "$0")/lib.sh"
. "$(dirname "$0")/fabric-lib.sh"
export HOST_NO_V6=1 NHOSTS=2

tap_plan 18
tap_check "insmod ftsw.ko" ftsw_load
tap_check "tree: leaves 1, 2, spines 3, 4; h0 LID 1 on 1:1, h1 LID 2 on 2:1" \
	tree_setup 0

# NodeInfo: type at 2, ports at 3, node GUID at 12, local port at 36.
# h0's CA GUID: 02:66:74:00 | switch 1 << 9 | port 1 << 1 = 0x...0202.
tap_check "hop 0: h0's own CA (type 1, 1 port, GUID 0x0266740000000202)" \
	mad_ask 'a["method"] == 0x81 and a["status"] == 0 and d[2] == 1 and
	     d[3] == 1 and be(12, 8) == 0x0266740000000202 and d[36] == 1' \
	dr - 1 0x11 0
# PortInfo: LID at 16, port state low nibble of 32, phys state 33 >> 4.
# No SM: ftsw's control plane activated the link (Active, 4).
tap_check "hop 0: h0's PortInfo (LID 1, Active, LinkUp)" \
	mad_ask 'be(16, 2) == 1 and d[32] & 15 == 4 and d[33] >> 4 == 5' \
	dr - 1 0x15 1
tap_check "1 hop: leaf 1 (switch, 4 ports, GUID 1, in by port 1)" \
	mad_ask 'd[2] == 2 and d[3] == 4 and be(12, 8) == 1 and d[36] == 1 and
	     a["hop_ptr"] == 0 and a["return_path"] == [0, 1]' \
	dr 1 1 0x11 0
tap_check "2 hops: spine 3 (2 ports, in by port 1), return path 1, 1" \
	mad_ask 'd[3] == 2 and be(12, 8) == 3 and d[36] == 1 and
	     a["return_path"] == [0, 1, 1]' \
	dr 1,3 1 0x11 0
hops3() {
	mad_ask 'be(12, 8) == 2 and d[36] == 3 and a["return_path"] == [0, 1, 1, 3]' \
		dr 1,3,2 1 0x11 0 &&
		mad_ask 'd.rstrip(b"\0") == b"spine3"' dr 1,3 1 0x10 0
}
tap_check "3 hops: leaf 2 in by port 3; NodeDescription of spine 3" hops3
hops4() {
	mad_ask 'd[2] == 1 and be(12, 8) == 0x0266740000000402 and
	     a["return_path"] == [0, 1, 1, 3, 1]' dr 1,3,2,1 1 0x11 0 &&
		mad_ask 'be(16, 2) == 2' dr 1,3,2,1 1 0x15 1
}
tap_check "4 hops: h1's CA (GUID 0x0266740000000402, LID 2)" hops4

# LFT block 0 by SMP Set: byte n is LID n's port (0xff: no route).
blk() { printf '%s' "ff$1"; printf 'ff%.0s' $(seq 1 $((61))); }
program() {
	mad_ask 'd[1] == 1 and d[2] == 3' dr 1 2 0x19 0 "$(blk 0103)" &&
		mad_ask 'd[1] == 1 and d[2] == 2' dr 1,3 2 0x19 0 "$(blk 0102)" &&
		mad_ask 'd[1] == 3 and d[2] == 1' dr 1,3,2 2 0x19 0 "$(blk 0301)"
}
tap_check "LFT block 0 set by SMP on leaf 1, spine 3, leaf 2" program
tables() {
	fsw -j lft show switch 1 | "$PY" -c '
import json, sys
t = json.load(sys.stdin)["lft"]
assert t == {"1": 1, "2": 3}, t' &&
		mad_ask 'd[1] == 1 and d[2] == 3 and d[3] == 255' dr 1 1 0x19 0
}
tap_check "the kernel's table is the block (lft show, LFT Get)" tables
tap_check "h0 pings h1 over the SMP-written tables" ping_ok 0 "$(host_ip 1)" 3
tap_check "LID-routed PortInfo Get to LID 2: h1's CA answers from LID 2" \
	mad_ask 'a["slid"] == 2 and a["dlid"] == 1 and be(16, 2) == 2' \
	lid 2 0x01 1 0x15 1

# PortInfo Set on h1's CA: LID 6 (byte 16), LMC 0 (byte 34 low bits).
setlid() {
	local pi
	pi=$(printf '00%.0s' $(seq 1 16))0006$(printf '00%.0s' $(seq 1 46))
	mad_ask 'be(16, 2) == 6' dr 1,3,2,1 2 0x15 1 "$pi" &&
		[ "$(fsw -j port show switch 2 port 1 | "$PY" -c '
import json, sys
print(json.load(sys.stdin)["ports"][0]["lid"])')" = 6 ]
}
tap_check "PortInfo Set LID 6 on h1's CA: edge port 2:1 has base LID 6" setlid

# blkn HEX: LFT block 0 with LIDs 1.. as HEX says, the rest 0xff.
blkn() { printf 'ff%s' "$1"; printf 'ff%.0s' $(seq 1 $((63 - ${#1} / 2))); }
# With a plan (h1 = plan LID 2) and h0's static neighbour gone, ARP answers
# h1's address with LID 6's MAC; SMP tables route LID 6; h0 pings h1.
smlid() {
	fsw plan set hosts 2 lid 1 ipv4 "$(host_ip 0)" && fsw commit >/dev/null &&
		hx 0 ip neigh del "$(host_ip 1)" dev eth0 &&
		mad_ask 'd[6] == 3' dr 1 2 0x19 0 "$(blkn 0103ffffff03)" &&
		mad_ask 'd[6] == 2' dr 1,3 2 0x19 0 "$(blkn 0102ffffff02)" &&
		mad_ask 'd[6] == 1' dr 1,3,2 2 0x19 0 "$(blkn 0301ffffff01)" &&
		ping_ok 0 "$(host_ip 1)" 3 &&
		hx 0 ip neigh show "$(host_ip 1)" dev eth0 | tee /dev/stderr |
		grep -q "lladdr $(lid_mac 6)"
}
tap_check "ARP answers h1 (plan LID 2) with the SM's LID 6; h0 pings h1" smlid
# netlink stages leaf 1's LID 40 -> 4, then an SMP writes LID 7 -> 3 in
# block 0: the COMMIT applies LID 40 and keeps the SMP's block.
merge() {
	fsw lft set switch 1 lid 40 port 4 >/dev/null &&
		mad_ask 'd[7] == 3' dr 1 2 0x19 0 "$(blkn 0103ffffff0303)" &&
		fsw commit >/dev/null && fsw -j lft show switch 1 | "$PY" -c '
import json, sys
t = json.load(sys.stdin)["lft"]
assert t == {"1": 1, "2": 3, "6": 3, "7": 3, "40": 4}, t' &&
		ping_ok 0 "$(host_ip 1)" 2
}
tap_check "COMMIT after an SMP block: netlink's entry and the SMP's block" merge
# port_ud SW PORT: "ADMIN OPER" of a port, 1 = up; wait_ud SW PORT WANT.
port_ud() {
	fsw -j port show switch "$1" port "$2" | "$PY" -c '
import json, sys
p = json.load(sys.stdin)["ports"][0]
print(int(p["admin_up"]), int(p["oper_up"]))'
}
wait_ud() {
	local i
	for i in $(seq 1 100); do
		[ "$(port_ud "$1" "$2")" = "$3" ] && return 0
		sleep 0.2
	done
	echo "switch $1 port $2: $(port_ud "$1" "$2"), want $3"
	return 1
}
# PortPhysicalState (PortInfo byte 33, high nibble) of leaf 1 port 4:
# Disabled (3) takes it and its device down, so spine 4's port 1 loses its
# carrier; Polling (2) brings both back; port 0 has no link (0x1C).
phys() {
	local off on
	off=$(printf '00%.0s' $(seq 1 33))30$(printf '00%.0s' $(seq 1 30))
	on=$(printf '00%.0s' $(seq 1 33))20$(printf '00%.0s' $(seq 1 30))
	mad_ask 'a["status"] == 0' dr 1 2 0x15 4 "$off" &&
		wait_ud 1 4 "0 0" && wait_ud 4 1 "1 0" &&
		mad_ask 'd[33] >> 4 == 3' dr 1 1 0x15 4 &&
		mad_ask 'a["status"] == 0' dr 1 2 0x15 4 "$on" &&
		wait_ud 1 4 "1 1" && wait_ud 4 1 "1 1" &&
		mad_ask 'd[33] >> 4 == 5' dr 1 1 0x15 4 &&
		mad_ask 'a["status"] == 0x1c' dr 1 2 0x15 0 "$on"
}
tap_check "PortPhysicalState Disabled/Polling on leaf 1 port 4 (spine 4 sees it)" phys

# PMA: leaf 1 gets LID 0x100 (PortInfo Set on port 0) and LFT entry 0x100
# -> 0 (block 4, byte 0); PortCounters of its port 3 equal netlink's.
pma() {
	local pi tx rx
	pi=$(printf '00%.0s' $(seq 1 16))0100$(printf '00%.0s' $(seq 1 46))
	mad_ask 'be(16, 2) == 0x100' dr 1 2 0x15 0 "$pi" &&
		mad_ask 'd[0] == 0' dr 1 2 0x19 4 "00$(printf 'ff%.0s' $(seq 1 63))" || return 1
	tx=$(port_stat 1 3 tx_packets) rx=$(port_stat 1 3 rx_packets)
	# PortCounters data at MAD offset 64: port select at byte 1,
	# XmitPkts at 32, RcvPkts at 36.
	mad_ask "be(32, 4) == $tx and be(36, 4) == $rx and d[1] == 3" \
		lid 0x100 0x04 1 0x12 0 0003
}
tap_check "PMA PortCounters of leaf 1 port 3 equal its netlink counters" pma

refused() {
	mad_ask 'a["status"] == 0x0c' dr 1 1 0xff 0 &&
		mad_ask 'a["status"] == 0x0c' dr 1 2 0x11 0 &&
		mad_ask 'a["status"] == 0x1c' dr 1 1 0x19 768 &&
		mad_ask 'a["status"] == 0x1c' dr 1 1 0x15 5
}
tap_check "unknown attribute, Set NodeInfo: 0x0C; LFT block 768, port 5: 0x1C" \
	refused
fabric_cleanup
tap_done
