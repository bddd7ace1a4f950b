#!/usr/bin/env bash
# (lab 6b) Beyond one machine, managed in band: the fabric of 150 split over
# two "machines" (namespaces mA and mB, joined only by a veth underlay
# carrying VXLAN), now with no table and no switch LID from ftsw. One
# OpenSM, unmodified, runs in h0 on machine A through h0's gateway
# (libumad2sim); its SMPs cross the VXLAN cable like data, so it discovers
# machine B's switch and hosts, and programs machine B's table itself.
# Then h0 pings h3 on machine B over OpenSM's tables, ibnetdiscover run
# from h3 (machine B's own gateway) finds the topology written by hand
# below, and OpenSM's SA answers saquery from h3.
#
#   machine A: sw-A  port 1 h0, port 2 h1, port 3 --VXLAN-- port 3 sw-B
#   machine B: sw-B  port 1 h2, port 2 h3
#
# LIDs (seeded in OpenSM's cache, as lab up --sm does): host n is n + 1,
# sw-A 5, sw-B 6; so by hand sw-B's table is 1, 2, 5 -> port 3, 3 -> 1,
# 4 -> 2, 6 -> 0 (itself), whatever the engine (one path each).
. "$(dirname "$0")/lib.sh"
PY=/usr/bin/python3

A=spa$$ B=spb$$
W=$(mktemp -d)
ns_list() { echo "$A" "$B" "$A-h0" "$A-h1" "$B-h2" "$B-h3"; }
cleanup() {
	local n
	# OpenSM first, then the gateways it talks to
	bg_stop "$W/osm-pid"
	bg_stop "$W"
	for n in $(ns_list); do ip netns del "$n" 2>/dev/null; done
	return 0
}
trap 'cleanup; rm -rf "$W"' EXIT
fa() { ip netns exec "$A" "$FTSW" "$@"; }
fb() { ip netns exec "$B" "$FTSW" "$@"; }
SO=$(ls /usr/lib/*/umad2sim/libumad2sim.so 2>/dev/null | head -1)
# libftsw-umad.so before it, as lab up --sm and lab ib preload them: whole
# RMPP messages between the tools and the gateways
[ -z "$SO" ] || SO="$(dirname "$FTSW")/libftsw-umad.so $SO"

tap_plan 8
tap_check "insmod ftsw.ko" ftsw_load

# host N on machine M's fabric namespace F, switch S port P
host() {
	local f=$1 n=$2 s=$3 p=$4 h=$1-h$2 g
	g=$(printf '0x66740000000000%x0' "$n")
	ip netns add "$h" && ip -n "$h" link set lo up &&
		ip netns exec "$h" sysctl -qw net.ipv6.conf.all.disable_ipv6=1 &&
		ip -n "$f" link add "h$n" type veth peer name eth0 netns "$h" &&
		ip -n "$h" link set eth0 address "02:66:74:00:00:0$((n + 1))" up &&
		ip -n "$h" addr add "198.18.0.$((n + 1))/15" dev eth0 &&
		ip -n "$f" link set "h$n" up &&
		ip netns exec "$f" "$FTSW" port bind switch "$s" port "$p" \
			dev "h$n" kind edge lid $((n + 1)) lmc 0 desc "h$n" guid "$g"
}
setup() {
	local n
	for n in "$A" "$B"; do
		ip netns add "$n" && ip -n "$n" link set lo up &&
			ip netns exec "$n" sysctl -qw net.ipv6.conf.all.disable_ipv6=1 ||
			return 1
	done
	vxlan_cable "$A" "$B" || return 1
	# switches without a LID, ports without a table: OpenSM's to fill
	fa switch add id 1 ports 3 name sw-A guid 0x66740100000000a0 &&
		fb switch add id 2 ports 3 name sw-B guid 0x66740100000000b0 &&
		host "$A" 0 1 1 && host "$A" 1 1 2 && host "$B" 2 2 1 && host "$B" 3 2 2 &&
		fa port bind switch 1 port 3 dev vx42 kind link &&
		fb port bind switch 2 port 3 dev vx42 kind link || return 1
	fa plan set hosts 4 lid 1 ipv4 198.18.0.1 && fa commit >/dev/null &&
		fb plan set hosts 4 lid 1 ipv4 198.18.0.1 && fb commit >/dev/null
}
tap_check "two machines, one VXLAN cable; no LFT, no switch LID" setup

sm_up() {
	local i
	command -v opensm >/dev/null && [ -n "$SO" ] ||
		{ echo "opensm / libumad2sim.so missing (make deps)"; return 1; }
	mkdir -p "$W/cache" "$W/osm" || return 1
	# OpenSM's LID cache: port GUID (node GUID + 1), first and last LID
	for i in 0 1 2 3; do
		printf '0x66740000000000%x1 0x%04x 0x%04x\n\n' $i $((i + 1)) $((i + 1))
	done >"$W/cache/guid2lid"
	printf '0x66740100000000a0 0x0005 0x0005\n\n0x66740100000000b0 0x0006 0x0006\n' \
		>>"$W/cache/guid2lid"
	# force_log_flush: "SUBNET UP" is in the log when it happens, not when the
	# buffer fills; a 1 s transaction timeout for a loaded TCG guest
	opensm -c "$W/osm.conf" >/dev/null 2>&1
	sed -i 's/^force_log_flush .*/force_log_flush TRUE/' "$W/osm.conf"
	# (no descriptor of tap_check's output: it would wait for the gateway)
	ip netns exec "$A-h0" "$FTSW" gw --sock ftsw --node h0 --log "$W/gw-h0.log" \
		</dev/null >/dev/null 2>&1 &
	bg_keep "$W" gw-h0 $!
	sleep 1
	(cd "$W/osm" && exec ip netns exec "$A-h0" env LD_PRELOAD="$SO" \
		IBSIM_SOCKNAME=ftsw OSM_CACHE_DIR="$W/cache" OSM_TMP_DIR="$W/osm" \
		opensm -F "$W/osm.conf" -f "$W/osm.log" -R minhop -t 1000 \
		</dev/null >"$W/osm.out" 2>&1) </dev/null >/dev/null 2>&1 &
	mkdir -p "$W/osm-pid" && bg_keep "$W/osm-pid" opensm $!
	for i in $(seq 1 "${SM_WAIT:-300}"); do
		grep -q "SUBNET UP" "$W/osm.log" 2>/dev/null && return 0
		sleep 1
	done
	tail -n 30 "$W/osm.log" "$W/gw-h0.log"
	return 1
}
tap_check "one OpenSM (minhop) in h0 on machine A reaches SUBNET UP" sm_up

tables() {
	local want='{"1": 3, "2": 3, "3": 1, "4": 2, "5": 3, "6": 0}'
	fb -j lft show switch 2 | "$PY" -c '
import json, sys
got = json.load(sys.stdin)["lft"]
want = json.loads(sys.argv[1])
got = {k: v for k, v in got.items() if k != "0"}
assert got == want, (got, want)' "$want" &&
		[ "$(fb -j switch show | "$PY" -c 'import json,sys; print([s["lid"] for s in json.load(sys.stdin)["switches"] if s["id"] == 2][0])')" = 6 ]
}
tap_check "machine B's switch: LID 6 and the table OpenSM wrote across VXLAN" tables

tap_check "h0 (machine A) pings h3 and h2 (machine B) over OpenSM's tables" \
	eval 'ip netns exec "$A-h0" ping -c 3 -i 0.2 -W 3 -q 198.18.0.4 &&
	      ip netns exec "$A-h0" ping -c 3 -i 0.2 -W 3 -q 198.18.0.3'

# ibtool HOST TOOL...: a diagnostic through HOST's own gateway
ibtool() {
	local h=$1
	shift
	[ -n "$(bg_pid "$W" gw-h3)" ] || {
		ip netns exec "$h" "$FTSW" gw --sock diag --node h3 \
			--log "$W/gw-h3.log" </dev/null >/dev/null 2>&1 &
		bg_keep "$W" gw-h3 $!
		sleep 1
	}
	(cd "$W/osm" && timeout 120 ip netns exec "$h" env LD_PRELOAD="$SO" \
		IBSIM_SOCKNAME=diag "$@" 2>>"$W/ib.err")
}
discover() {
	cat >"$W/want.net" <<'EOF'
switchguid=0x66740100000000a0
Switch	3 "S-66740100000000a0"	# "sw-A"
[1]	"H-6674000000000000"[1]
[2]	"H-6674000000000010"[1]
[3]	"S-66740100000000b0"[3]

switchguid=0x66740100000000b0
Switch	3 "S-66740100000000b0"	# "sw-B"
[1]	"H-6674000000000020"[1]
[2]	"H-6674000000000030"[1]

Ca	1 "H-6674000000000000"	# "h0"
[1](6674000000000001)	"S-66740100000000a0"[1]

Ca	1 "H-6674000000000010"	# "h1"
[1](6674000000000011)	"S-66740100000000a0"[2]

Ca	1 "H-6674000000000020"	# "h2"
[1](6674000000000021)	"S-66740100000000b0"[1]

Ca	1 "H-6674000000000030"	# "h3"
[1](6674000000000031)	"S-66740100000000b0"[2]
EOF
	ibtool "$B-h3" ibnetdiscover >"$W/disc.net" || { cat "$W/ib.err"; return 1; }
	"$FTSW" topo diff "$W/want.net" "$W/disc.net"
}
tap_check "ibnetdiscover from h3 (machine B): the topology drawn above" discover

sa() {
	# The SA's PathRecord table, in RMPP segments from h0's gateway
	# reassembled by h3's: one record for each pair of the 6 ports with a
	# LID (4 CAs, 2 switches) = 36. h1 -> h0: LIDs 2 -> 1, GIDs fe80::
	# with the ports' GUIDs (node GUID + 1).
	ibtool "$B-h3" saquery -p 4 1 >"$W/pr" || { cat "$W/pr" "$W/ib.err"; return 1; }
	"$PY" - "$W/pr" <<'EOF'
import re, sys
recs = [dict(re.findall(r'^\s*(\w+)\.+(\S+)$', r, re.M))
        for r in open(sys.argv[1]).read().split("PathRecord dump:")[1:]]
want = {"dlid": "1", "slid": "2", "dgid": "fe80::6674:0:0:1",
        "sgid": "fe80::6674:0:0:11", "pkey": "0xFFFF"}
assert len(recs) == 36, "%d PathRecords, not 36" % len(recs)
assert any(all(r.get(k) == v for k, v in want.items()) for r in recs), recs
EOF
}
tap_check "saquery from h3 through OpenSM's SA (RMPP): 36 PathRecords, h1 -> h0 (LIDs, GIDs)" sa

teardown() {
	cleanup
	! pgrep -x -r R,S,D,T opensm >/dev/null || { echo "opensm left running"; return 1; }
	! pgrep -f -r R,S,D,T "ftsw gw --sock" >/dev/null || { echo "a gateway left running"; return 1; }
	ftsw_unload
}
tap_check "tear down (OpenSM, gateways, namespaces): none left running; rmmod ftsw" teardown
tap_done
