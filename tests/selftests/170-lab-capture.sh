#!/usr/bin/env bash
# (lab, packet tools) `ftsw lab capture` runs tcpdump on a cable named by
# its switch end; tshark with contrib/wireshark/ftsw.lua decodes every field
# of the fabric header and hands the payload to IPv4 (and IPv6).
#
# Hand computation, FT(4,2) = ftmn:4,2 with D-Mod-K and LMC 0 (see
# 125-lab-rate.sh for the wiring): host n has LID n + 1 and 198.18.0.(n+1);
# leaf s0 holds h0 on port 3, leaf s1 holds h2 on port 3; leaf port 1 goes
# up to spine s4, whose port L + 1 goes down to leaf L. D-Mod-K sends
# traffic for an even host up through s4. h0's edge port gets SL 5 (port
# set ... sl 5); every other edge port keeps SL 0. Then h0 pings h2 three
# times:
#   request h0 -> h2: DLID 3, SLID 1, SL 5; s0 -> s4 on s0:1 with hops 0,
#                     s4 -> s1 on s4:2 with hops 1 (s4 counts its hop)
#   reply   h2 -> h0: DLID 1, SLID 3, SL 0; s1 -> s4 on s4:2 with hops 0,
#                     s4 -> s0 on s0:1 with hops 1
# Every frame carries 0x0800 inside: ICMP echo (type 8 / 0), seq 1..3,
# payload bytes 0xab (ping -p ab).
. "$(dirname "$0")/lib.sh"
. "$(dirname "$0")/lab-lib.sh"

tap_plan 9
tap_check "insmod ftsw.ko" ftsw_load

W=$(mktemp -d /tmp/cap.XXXXXX)
LUA=$FTSW_TOP/contrib/wireshark/ftsw.lua
tshark_fields() { # FILE FIELD... -> one CSV line per frame
	local f=$1 e args=()
	shift
	for e in "$@"; do args+=(-e "$e"); done
	tshark -X "lua_script:$LUA" -r "$f" -T fields -E separator=, -E occurrence=f \
		"${args[@]}" 2>"$W/tshark.err"
}

up() {
	lab lab up --name "$LAB" -t ftmn:4,2 -a dmodk --lmc 0 >/dev/null &&
		nsenter --net="/run/netns/$LAB" "$FTSW" port set switch 0 port 3 sl 5
}
tap_check "lab up FT(4,2), D-Mod-K, LMC 0; h0's edge port at SL 5" up

# cap LINK FILE COUNT: capture in the background until COUNT fabric frames
cap() {
	lab lab capture --name "$LAB" "$1" -w "$2" -c "$3" -- ether proto 0x88b5 \
		>"$2.out" 2>"$2.err" &
	echo $! >"$2.pid"
	local _
	for _ in $(seq 200); do
		grep -q "listening on" "$2.err" && return 0
		sleep 0.1
	done
	cat "$2.err"
	return 1
}
wait_cap() { # FILE: the capture ended by itself within 20 s
	local pid _
	pid=$(cat "$1.pid")
	for _ in $(seq 200); do
		kill -0 "$pid" 2>/dev/null || { wait "$pid"; return; }
		sleep 0.1
	done
	kill -INT "$pid"
	echo "capture $1 did not see its frames: $(cat "$1.err")"
	return 1
}

capture() {
	cap s0:1 "$W/s0p1.pcap" 6 && cap s4:2 "$W/s4p2.pcap" 6 || return 1
	lab lab exec --name "$LAB" h0 -- ping -n -c 3 -i 0.3 -W 3 -p ab 198.18.0.3 || return 1
	wait_cap "$W/s0p1.pcap" && wait_cap "$W/s4p2.pcap"
}
tap_check "lab capture s0:1 and s4:2 (tcpdump in the fabric namespace) while h0 pings h2 3 times" capture

# Frames the lab does not send: IPv6 inside, reserved SL bits, DLID 0.
synthetic_pcap() {
	"$PY" - "$W/syn.pcap" <<'EOF'
import struct, sys
def frame(dlid, slid, slbyte, hops, pkey, proto, payload):
    return (bytes.fromhex("026674000010") + bytes.fromhex("02667400000a") +
            struct.pack("!H", 0x88B5) +
            struct.pack("!HHBBHH", dlid, slid, slbyte, hops, pkey, proto) +
            payload)
udp = struct.pack("!HHHH", 4000, 5001, 12, 0) + b"wxyz"
ip6 = struct.pack("!IHBB16s16s", 0x60000000, len(udp), 17, 64,
                  bytes(15) + b"\x01", bytes(15) + b"\x02") + udp
frames = [frame(16, 10, 0xF3, 7, 0x0001, 0x86DD, ip6),
          frame(0, 2, 1, 0, 0x8002, 0x86DD, ip6)]
out = struct.pack("<IHHiIII", 0xA1B2C3D4, 2, 4, 0, 0, 65535, 1)
for i, f in enumerate(frames):
    out += struct.pack("<IIII", i, 0, len(f), len(f)) + f
open(sys.argv[1], "wb").write(out)
EOF
}

# One tshark run (it is slow to start under TCG) over the three files one
# after the other: 6 frames of s0:1, 6 of s4:2, the 2 synthetic ones.
FIELDS="ftsw.dlid ftsw.slid ftsw.sl ftsw.sl_reserved ftsw.hops ftsw.proto ip.src ip.dst icmp.type icmp.seq data.data ipv6.dst udp.dstport ftsw.pkey ftsw.pkey_full ftsw.fecn ftsw.becn _ws.expert.message"
decode_all() {
	synthetic_pcap || return 1
	mergecap -a -F pcap -w "$W/all.pcap" "$W/s0p1.pcap" "$W/s4p2.pcap" "$W/syn.pcap" || return 1
	# shellcheck disable=SC2086
	tshark_fields "$W/all.pcap" $FIELDS >"$W/all.csv" || { cat "$W/tshark.err"; return 1; }
	cat "$W/all.csv"
	[ "$(wc -l <"$W/all.csv")" = 14 ]
}
tap_check "tshark -r with ftsw.lua decodes the 14 frames of both captures and the synthetic ones" decode_all

decode() { # FIRST-ROW REQ_HOPS REP_HOPS
	"$PY" - "$W/all.csv" "$@" <<'EOF'
import sys
rows = [l.rstrip("\n").split(",") for l in open(sys.argv[1])]
first, req_hops, rep_hops = int(sys.argv[2]), int(sys.argv[3]), int(sys.argv[4])
rows = rows[first:first + 6]
want = set()
for seq in (1, 2, 3):
    want.add(("3", "1", "5", "0x00", str(req_hops), "0x0800", "198.18.0.1", "198.18.0.3", "8", str(seq)))
    want.add(("1", "3", "0", "0x00", str(rep_hops), "0x0800", "198.18.0.3", "198.18.0.1", "0", str(seq)))
got = set(tuple(r[:10]) for r in rows)
# the default partition's key, full, no congestion marks
assert all(r[13:17] == ["0xffff", "1", "0", "0"] for r in rows), rows
assert got == want, (sorted(got), sorted(want))
for r in rows:
    data = r[10]
    # ping -p ab: the payload after ping's 16-byte timestamp is all 0xab
    assert len(data) >= 2 * 40 and set(data[32:]) <= set("ab"), r
print("6 frames: DLID, SLID, SL, reserved bits, hops, inner protocol, IPv4, ICMP decoded")
EOF
}
tap_check "s0:1: requests DLID 3 SLID 1 SL 5 hops 0, replies DLID 1 SLID 3 SL 0 hops 1, IPv4/ICMP inside" \
	decode 0 0 1
tap_check "s4:2: requests hops 1, replies hops 0, the rest the same" decode 6 1 0

synthetic() {
	local a b
	a=$(sed -n 13p "$W/all.csv" | cut -d, -f1-6,12-18)
	b=$(sed -n 14p "$W/all.csv" | cut -d, -f1-6,12-18)
	echo "$a"; echo "$b"
	# 0xF3: SL 3, FECN, BECN, reserved bits 7..6 set (0x03 after the mask)
	[ "$a" = "16,10,3,0x03,7,0x86dd,::2,5001,0x0001,0,1,1,Reserved SL bits set" ] &&
		[ "$b" = "0,2,1,0x00,0,0x86dd,::2,5001,0x8002,1,0,0,DLID 0 (reserved)" ]
}
tap_check "synthetic frames: IPv6 handed on, P_Key and FECN/BECN decoded, reserved SL bits and DLID 0 flagged" synthetic

bad_links() {
	local out
	if out=$(lab lab capture --name "$LAB" s0:9 -c 1 2>&1); then echo "s0:9 accepted"; return 1; fi
	echo "$out" | grep -q "no cable on port 9" || { echo "$out"; return 1; }
	if out=$(lab lab capture --name "$LAB" s77:1 -c 1 2>&1); then echo "s77:1 accepted"; return 1; fi
	echo "$out" | grep -q "s77" || { echo "$out"; return 1; }
}
tap_check "lab capture s0:9 and s77:1: refused, naming the port or the switch" bad_links

down() { lab lab down --name "$LAB" && rm -rf "$W" && lab_gone && ftsw_unload; }
tap_check "lab down, nothing left, rmmod" down
tap_done
