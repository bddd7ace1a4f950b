#!/usr/bin/env bash
# (lab 5c) infiniband-diags on a lab without a subnet manager: FT(4,2)
# routed by ftsw (dmodk, LIDs and LFTs over netlink), its ports Active as
# ftsw's control plane leaves them without an in-band SM, then the
# unmodified tools through the hosts' gateways (`lab ib`, libumad2sim):
# ibnetdiscover's file read back by `ftsw topo diff` is the lab's topology
# (GUIDs, names, cabling); ibtracert is the path `ftsw analyze --trace`
# computes for the same engine; perfquery (and -x) gives the kernel's
# counters (netlink) after `lab traffic`; ibroute prints every switch's
# table as `ftsw lft show` reads it; iblinkinfo and smpquery (nodeinfo,
# portinfo, switchinfo, sl2vl) answer what the lab's plan says.
# FT(4,2) by hand: 3 x 2 = 6 switches of 4 ports, 2 x 2^2 = 8 hosts;
# LIDs: host n is n + 1, switch i is 8 + 1 + i (9..14).
. "$(dirname "$0")/lib.sh"
. "$(dirname "$0")/lab-lib.sh"

W=$(mktemp -d)
trap 'lab lab down --name "$LAB" >/dev/null 2>&1; rm -rf "$W"' EXIT
NET=/run/ftsw/$LAB/topo.net

tap_plan 14
tap_check "insmod ftsw.ko" ftsw_load

ib() { timeout 120 "$FTSW" lab ib --name "$LAB" "$@" 2>"$W/ib.err"; }
fab() { nsenter --net="/run/netns/$LAB" "$FTSW" "$@"; }

up() {
	command -v ibnetdiscover >/dev/null ||
		{ echo "infiniband-diags missing (make deps)"; return 1; }
	lab lab up --name "$LAB" -t ftmn:4,2 -a dmodk || return 1
	# No SM: ftsw's control plane is the SM, every link comes up Active:
	# 6 switches x 4 cabled ports (the CA ends: iblinkinfo below)
	fab port show >"$W/ports" || return 1
	[ "$(grep -c ' state active$\| state active ' "$W/ports")" = 24 ] &&
		[ "$(grep -c ' state ' "$W/ports")" = 24 ] ||
		{ cat "$W/ports"; return 1; }
}
tap_check "lab up FT(4,2) dmodk, no SM: its 24 switch ports Active" up

discover() {
	ib h5 -- ibnetdiscover >"$W/disc.net" || { cat "$W/ib.err"; return 1; }
	[ "$(grep -c '^Switch' "$W/disc.net")" = 6 ] &&
		[ "$(grep -c '^Ca' "$W/disc.net")" = 8 ] ||
		{ echo "not 6 switches and 8 CAs:"; cat "$W/disc.net"; return 1; }
	# nodes by GUID: kind, ports, names, host port GUIDs, each cable end
	"$FTSW" topo diff "$NET" "$W/disc.net"
}
tap_check "ibnetdiscover from h5 read back: the lab's topology (topo diff)" discover

# tracert SRC DST: ibtracert's switches and out ports against analyze's
tracert() {
	local s=$1 d=$2
	ib h0 -- ibtracert $((s + 1)) $((d + 1)) >"$W/tr" ||
		{ cat "$W/tr" "$W/ib.err"; return 1; }
	"$FTSW" -j analyze -t "$NET" -a dmodk --trace "$s:$d" >"$W/an" || return 1
	"$PY" - "$W/tr" "$W/an" <<'EOF'
import json, re, sys
lines = open(sys.argv[1]).read().splitlines()
hops = [re.match(r'\[(\d+)\] -> (switch|ca) port \{0x[0-9a-f]+\}\[\d+\] '
                 r'lid \d+-\d+ "(.*)"$', l) for l in lines if l.startswith("[")]
assert hops and all(hops), lines
# the port a line names is the previous node's out port
got = [(hops[i][3], int(hops[i + 1][1])) for i in range(len(hops) - 1)]
want = [(h["name"], h["port"]) for h in json.load(open(sys.argv[2]))["hops"]]
assert got == want and hops[-1][2] == "ca", (got, want)
print(got)
EOF
}
tap_check "ibtracert h0 -> h3 and h0 -> h7: analyze --trace's paths" \
	eval 'tracert 0 3 && tracert 0 7'

traffic() {
	# every pair: every cable carries packets both ways
	lab lab traffic --name "$LAB" -p all2all --packets 5 >/dev/null
}
# pma SWITCH PORT: perfquery and perfquery -x against netlink's counters,
# read before and after (a port no MAD of the query crosses stays still)
pma() {
	local s=$1 p=$2 lid=$(($1 + 9))
	fab -j -s port show switch "$s" port "$p" >"$W/nl1" &&
		ib h0 -- perfquery "$lid" "$p" >"$W/pq" &&
		ib h0 -- perfquery -x "$lid" "$p" >"$W/pqx" &&
		fab -j -s port show switch "$s" port "$p" >"$W/nl2" || return 1
	"$PY" - "$W/nl1" "$W/nl2" "$W/pq" "$W/pqx" <<'EOF'
import json, re, sys
def stats(f):
    return json.load(open(f))["ports"][0]["stats"]
a, b = stats(sys.argv[1]), stats(sys.argv[2])
assert a == b, ("port moved during the queries", a, b)
assert a["tx_packets"] and a["rx_packets"], "no traffic on this port"
want = {"PortXmitData": a["tx_bytes"] // 4, "PortRcvData": a["rx_bytes"] // 4,
        "PortXmitPkts": a["tx_packets"], "PortRcvPkts": a["rx_packets"]}
for f in sys.argv[3:]:
    got = dict(re.findall(r'^(\w+):\.+(\d+)$', open(f).read(), re.M))
    for k, v in want.items():
        assert int(got[k]) == v, (f, k, got[k], v)
print(want)
EOF
}
# S1-2 (switch 2): hosts 4 and 5 on ports 3, 4; S2-0 (switch 4) ports 3, 4
# lead to leaves S1-2 and S1-3, which no query from h0 crosses
tap_check "lab traffic; perfquery (-x) = kernel counters on 4 ports" \
	eval 'traffic && pma 2 3 && pma 2 4 && pma 4 3 && pma 4 4'

# vl15: every port's VL15 packets, summed (netlink)
vl15() {
	fab -j -s port show | "$PY" -c 'import json, sys
print(sum(p["stats"]["tx_vl"][15] for p in json.load(sys.stdin)["ports"] if "stats" in p))'
}
# lab traffic counts data only: ibnetdiscover from h5, over and over
# while it runs, sends DR SMPs (VL15) through the switches' ports, and the
# model (which knows no SMPs) is still matched port by port. The VL15
# counters read just before and after the traffic show SMPs crossed
# during it (a run is ~2 s and ~300 SMPs in the debug guest; with the
# SMPs counted, 24 of the 24 ports differed).
traffic_smps() {
	local rc=0 a b
	rm -f "$W/stop" "$W/runs"
	(while [ ! -e "$W/stop" ]; do
		ib h5 -- ibnetdiscover >/dev/null || break
		echo >>"$W/runs"
	done) &
	sleep 3
	a=$(vl15)
	lab -j lab traffic --name "$LAB" -p all2all --packets 50 >"$W/tr.json" || rc=1
	b=$(vl15)
	touch "$W/stop"
	wait
	echo "ibnetdiscover runs: $(wc -l <"$W/runs" 2>/dev/null); VL15 packets during the traffic: $a -> $b"
	[ -n "$a" ] && [ -n "$b" ] && [ "$b" -gt "$a" ] || { cat "$W/ib.err"; return 1; }
	[ "$rc" = 0 ] && jcheck 'd["exact"] and d["mismatches"] == 0 and d["lost"] == 0' <"$W/tr.json" ||
		{ cat "$W/tr.json"; return 1; }
}
tap_check "lab traffic during ibnetdiscover: SMPs (VL15) not counted, model == reality" traffic_smps

linkinfo() {
	ib h0 -- iblinkinfo >"$W/li" || { cat "$W/ib.err"; return 1; }
	# 6 switches x 4 ports + 8 CAs, every one Active/LinkUp
	[ "$(grep -c '==( *4X.*Active/  LinkUp)==>' "$W/li")" = 32 ] &&
		! grep -qE 'Initialize|Armed|Down/' "$W/li" ||
		{ cat "$W/li"; return 1; }
}
tap_check "iblinkinfo: 32 cable ends, all Active/LinkUp" linkinfo

# field FILE NAME: a smpquery field's value
field() { sed -n "s/^$2:\.*//p" "$1"; }
nodeinfo() {
	local want
	want=$(grep -A1 '^switchguid=' "$NET" | grep -m1 -B1 '"S1-2"' |
		sed -n 's/^switchguid=//p')
	ib h0 -- smpquery nodeinfo 11 >"$W/ni" || { cat "$W/ib.err"; return 1; }
	[ "$(field "$W/ni" NodeType)" = Switch ] &&
		[ "$(field "$W/ni" NumPorts)" = 4 ] &&
		[ "$(field "$W/ni" Guid)" = "$want" ] ||
		{ echo "want GUID $want"; cat "$W/ni"; return 1; }
	ib h0 -- smpquery nodedesc 6 | grep -q '\.H5$' ||
		{ echo "LID 6 is not H5"; return 1; }
}
tap_check "smpquery nodeinfo 11: S1-2's GUID, 4 ports; nodedesc 6: H5" nodeinfo

portinfo() {
	ib h0 -- smpquery portinfo 11 3 >"$W/pi" || { cat "$W/ib.err"; return 1; }
	[ "$(field "$W/pi" Lid)" = 11 ] &&
		[ "$(field "$W/pi" LinkState)" = Active ] &&
		[ "$(field "$W/pi" PhysLinkState)" = LinkUp ] ||
		{ cat "$W/pi"; return 1; }
	ib h0 -- smpquery portinfo 5 1 >"$W/pi" &&
		[ "$(field "$W/pi" Lid)" = 5 ] &&
		[ "$(field "$W/pi" LinkState)" = Active ] || { cat "$W/pi"; return 1; }
}
tap_check "smpquery portinfo: S1-2 port 3 and h4's port, LIDs 11 and 5, Active" \
	portinfo

switchinfo() {
	ib h0 -- smpquery switchinfo 11 >"$W/si" || { cat "$W/ib.err"; return 1; }
	# LinearFDBTop: no SM set it; the highest LID routed, switch 5's 14
	[ "$(field "$W/si" LinearFdbCap)" = 49152 ] &&
		[ "$(field "$W/si" LinearFdbTop)" = 14 ] || { cat "$W/si"; return 1; }
}
tap_check "smpquery switchinfo 11: LinearFdbCap 49152, LinearFdbTop 14" switchinfo

sl2vl() {
	fab sl2vl set switch 2 0,1,2,3,0,1,2,3,0,1,2,3,0,1,2,3 || return 1
	ib h0 -- smpquery sl2vl 11 3 >"$W/sv" || { cat "$W/ib.err"; return 1; }
	grep -q '^ports: in  1, out  3: | 0| 1| 2| 3| 0| 1| 2| 3| 0| 1| 2| 3| 0| 1| 2| 3|$' \
		"$W/sv" || { cat "$W/sv"; return 1; }
}
tap_check "smpquery sl2vl: the table sl2vl set wrote over netlink" sl2vl

# ibroute of every switch against the kernel's LFT over netlink
routes() {
	local s
	fab -j lft show >"$W/lft" || return 1
	for s in 0 1 2 3 4 5; do
		ib h0 -- ibroute $((s + 9)) >"$W/ir$s" || return 1
		"$PY" - "$W/ir$s" "$W/lft" "$s" <<'EOF' || return 1
import json, re, sys
got = {int(l, 16): int(p) for l, p in
       re.findall(r'^0x([0-9a-f]+) (\d+) ', open(sys.argv[1]).read(), re.M)}
lft = [t for t in json.load(open(sys.argv[2]))["switches"]
       if t["switch"] == int(sys.argv[3])][0]["lft"]
want = {int(k): v for k, v in lft.items() if int(k) > 0}
assert len(want) == 14 and got == want, (got, want)
EOF
	done
}
tap_check "ibroute of the 6 switches = ftsw lft show (14 LIDs each)" routes

tap_check "lab down: nothing left behind" \
	eval 'lab lab down --name "$LAB" && lab_gone'
tap_check "rmmod ftsw" ftsw_unload
tap_done
