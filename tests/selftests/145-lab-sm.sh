#!/usr/bin/env bash
# (lab 5b) The lab under a real subnet manager: `lab up --sm opensm` runs
# Debian's OpenSM unmodified in h0, through h0's gateway (ftsw gw,
# ibsim-utils' libumad2sim.so preloaded), on FT(4,3) built with no LFT and
# no switch LID; OpenSM discovers it, assigns LIDs and programs every switch
# in band. The independent check is OpenSM's own opensm-lfts.dump: every
# entry of the 20 kernel tables (ftsw lft show) equals it, and so does what
# ibroute reads in band from a leaf, a middle and a top switch; all 240
# pairs then ping. A cable
# failed with `lab fail` reaches OpenSM as trap 128 (its log), OpenSM's
# sweep routes around it (its new dump equals the kernel's tables again, no
# route leaves by the failed port) and all pairs ping. Then updn with LMC 1
# on FT(4,2): the tables of both LIDs of every host equal the dump and all
# 56 pairs ping. FT(m,n) by hand: (2n-1)(m/2)^(n-1) switches, 2(m/2)^n
# hosts: FT(4,3) 20 and 16, FT(4,2) 6 and 8.
# OpenSM's SA answers tables of many records in RMPP segments, which the
# gateways carry (reassembled in h5's, whole to saquery by libftsw-umad.so):
# the NodeRecords are the 36 nodes of the lab's own topology file (GUIDs,
# types, names), a PathRecord h3 -> h0 has the plan's LIDs (4, 1) and the
# GIDs of the two CAs' port GUIDs from that file, and the PortInfoRecords
# and LinkRecords are as many as counted by hand: every switch port and
# port 0 (20 x 5) and the 16 CA ports = 116; each of the 48 links (16 host
# links + 16 + 16 between levels) once each way = 96. ibqueryerrors after
# the pings: 36 nodes, 96 cabled ports (48 x 2), no errors.
. "$(dirname "$0")/lib.sh"
. "$(dirname "$0")/lab-lib.sh"

W=$(mktemp -d)
trap 'lab lab down --name "$LAB" >/dev/null 2>&1; rm -rf "$W"' EXIT
CMP="$PY $(dirname "$0")/lftcmp.py"
RUN=/run/ftsw/$LAB

tap_plan 14
tap_check "insmod ftsw.ko" ftsw_load

fab() { nsenter --net="/run/netns/$LAB" "$FTSW" "$@"; }

# sm_up TOPO ENGINE [LAB ARGS]: OpenSM routes the lab; ROUTING (0x40) in
# its log flags makes it write opensm-lfts.dump. Generous timeout: a loaded
# TCG guest takes minutes for what a quiet one does in 20 s.
sm_up() {
	local topo=$1 eng=$2
	shift 2
	command -v opensm >/dev/null && command -v ibroute >/dev/null ||
		{ echo "opensm / infiniband-diags missing (make deps)"; return 1; }
	if ! lab lab up --name "$LAB" -t "$topo" --sm opensm --sm-engine "$eng" \
		--sm-args "-D 0x43" --sm-timeout 900 "$@"; then
		# the rollback kept the logs there; their ends as diagnostics
		tail -n 20 "/run/ftsw/$LAB.sm-failed/"gw-h*.log
		grep -E "ERR|SUBNET|Entering" "/run/ftsw/$LAB.sm-failed/opensm.log" | tail -n 20
		tail -n 5 "/run/ftsw/$LAB.sm-failed/opensm.log"
		return 1
	fi
	grep -q "SUBNET UP" "$RUN/opensm.log"
}

# tables DIR [ibroute]: the kernel's tables, OpenSM's dump (and ibroute's
# reading of every switch through h0's gateway) into DIR, compared.
tables() {
	local d=$1 id lid
	mkdir -p "$d" && cp "$RUN/opensm-lfts.dump" "$d/" || return 1
	fab -j switch show >"$d/switches.json" || return 1
	fab -j lft show >"$d/lft.json" || return 1
	if [ "${2:-}" = ibroute ]; then
		# in band through h0's gateway: a leaf, a middle and a top switch
		# (every table is compared with the dump above; 149 reads others)
		for lid in $("$PY" -c 'import json,sys
s = json.load(open(sys.argv[1]))["switches"]
print(" ".join(str(s[i]["lid"]) for i in (0, len(s) // 2, len(s) - 1)))' "$d/switches.json"); do
			timeout 120 "$FTSW" lab ib --name "$LAB" h0 -- ibroute "$lid" \
				>"$d/ibroute-$lid.txt" 2>&1 || { cat "$d/ibroute-$lid.txt"; return 1; }
		done
	fi
	$CMP "$d"
}

tap_check "lab up FT(4,3) --sm opensm (minhop): SUBNET UP" sm_up ftmn:4,3 minhop

# OpenSM may be in a further sweep, rewriting its dump: a few tries.
up_tables() {
	local i
	for i in 1 2 3 4 5; do
		rm -rf "$W/up"
		tables "$W/up" ibroute >"$W/up.cmp" 2>&1 &&
			grep -q '^20 switches, .* 3 ibroute tables equal, 0 differences' "$W/up.cmp" &&
			{ cat "$W/up.cmp"; return 0; }
		sleep 3
	done
	cat "$W/up.cmp"
	return 1
}
tap_check "the 20 kernel tables = opensm-lfts.dump; ibroute of a leaf, a middle and a top switch = both" up_tables

all_ping() {
	local r
	r=$(ping_json 5000)
	[ "$r" = "$1 0" ] || { echo "ok/failed: $r"; return 1; }
}
tap_check "under OpenSM's tables: all 240 pairs ping" all_ping 240

NET=$RUN/topo.net
ib5() {
	timeout 120 "$FTSW" lab ib --name "$LAB" h5 -- "$@" 2>"$W/ib.err" ||
		{ cat "$W/ib.err"; return 1; }
}
node_records() {
	ib5 saquery >"$W/nr" || return 1
	"$PY" - "$W/nr" "$NET" <<'EOF'
import re, sys
recs = [dict(re.findall(r'^\s*(\w+)\.+(.*\S)\s*$', r, re.M))
        for r in open(sys.argv[1]).read().split("NodeRecord dump:")[1:]]
net = open(sys.argv[2]).read()
want = {int(g, 16): (k, d) for k, g, d in re.findall(
    r'^(switch|ca)guid=0x([0-9a-f]+)\n\S+\t\d+ "[^"]*"\t+# "([^"]*)"', net, re.M)}
got = {int(r["node_guid"], 16): ("switch" if r["node_type"] == "Switch" else
                                  "ca", r["NodeDescription"]) for r in recs}
print("%d NodeRecords, %d nodes in the topology" % (len(recs), len(want)))
assert len(want) == 36 and len(recs) == 36, (len(want), len(recs))
assert got == want, sorted(set(got.items()) ^ set(want.items()))
EOF
}
tap_check "saquery from h5 (RMPP): the NodeRecords are the 36 nodes of the topology" node_records

path_record() {
	ib5 saquery PR --slid 4 --dlid 1 >"$W/pr" || return 1
	"$PY" - "$W/pr" "$NET" <<'EOF'
import ipaddress, re, sys
recs = [dict(re.findall(r'^\s*(\w+)\.+(\S+)$', r, re.M))
        for r in open(sys.argv[1]).read().split("PathRecord dump:")[1:]]
net = open(sys.argv[2]).read()
# the port GUID of a host's CA: the "[1](GUID)" line after its Ca line
def gid(host):
    g = re.search(r'^Ca\t\d+ "[^"]*"\t+# "%s"\n\[1\]\(([0-9a-f]+)\)' % host,
                  net, re.M | re.I).group(1)
    return str(ipaddress.IPv6Address(0xfe80 << 112 | int(g, 16)))
want = {"slid": "4", "dlid": "1", "sgid": gid("h3"), "dgid": gid("h0"),
        "pkey": "0xFFFF"}
print(want)
assert len(recs) == 1 and all(recs[0].get(k) == v for k, v in want.items()), recs
EOF
}
tap_check "saquery PR --slid 4 --dlid 1: h3 -> h0, LIDs and GIDs from the topology" path_record

port_link_records() {
	local n m
	ib5 saquery PortInfoRecord >"$W/pir" && ib5 saquery LinkRecord >"$W/lr" ||
		return 1
	n=$(grep -c "PortInfoRecord dump:" "$W/pir")
	m=$(grep -c "LinkRecord dump:" "$W/lr")
	echo "$n PortInfoRecords, $m LinkRecords"
	[ "$n" = 116 ] && [ "$m" = 96 ]
}
tap_check "saquery: 116 PortInfoRecords, 96 LinkRecords (by hand)" port_link_records

query_errors() {
	ib5 ibqueryerrors >"$W/qe" || { cat "$W/qe"; return 1; }
	grep "^##" "$W/qe"
	grep -q "36 nodes checked, 0 bad nodes found" "$W/qe" &&
		grep -q "96 ports checked, 0 ports have errors beyond threshold" "$W/qe"
}
tap_check "ibqueryerrors after the pings: 36 nodes, 96 ports, no errors" query_errors

# The cable at S1-0 (s0) port 1, a leaf's first uplink. Its two switches
# send trap 128 to the SM's LID and OpenSM sweeps again; done when the
# trap is in its log, its latest dump equals the kernel's tables and no
# LID leaves S1-0 (switch id 0) by port 1 any more.
rerouted() {
	grep -q "Received Generic Notice type:[0-9]* num:128 " "$RUN/opensm.log" &&
		rm -rf "$W/fail" && tables "$W/fail" >"$W/fail.cmp" &&
		"$PY" -c 'import json,sys
t = [s for s in json.load(open(sys.argv[1]))["switches"] if s["switch"] == 0][0]["lft"]
bad = [l for l, p in t.items() if p == 1]
sys.exit("LIDs still by port 1: %s" % bad if bad else 0)' "$W/fail/lft.json"
}
# The tables are read only once OpenSM has logged a sweep ended after the
# trap (a cheap grep a second): reading and comparing the 20 tables while
# it sweeps only slowed it down in the one-CPU guest.
reroute() {
	local i n
	n=$(sm_ups)
	lab lab fail --name "$LAB" port s0:1 || return 1
	for i in $(seq 1 600); do
		grep -q "Received Generic Notice type:[0-9]* num:128 " "$RUN/opensm.log" &&
			[ "$(sm_ups)" -gt "$n" ] && break
		sleep 1
	done
	for i in $(seq 1 20); do
		rerouted >"$W/fail.why" 2>&1 && break
		sleep 2
	done
	grep "num:128 " "$RUN/opensm.log" | head -2
	grep -q "Received Generic Notice type:[0-9]* num:128 " "$RUN/opensm.log" ||
		{ echo "no trap 128 in OpenSM's log"; return 1; }
	rerouted || { cat "$W/fail.cmp" "$W/fail.why"; return 1; }
	cat "$W/fail.cmp"
}
tap_check "lab fail port s0:1 (S1-0): trap 128 in OpenSM's log, its sweep routes around it (dump = kernel)" reroute

# An SMA sends a trap again every 4.096 us * 2^SubnetTimeOut (OpenSM's 18:
# 1.07 s) until the SM answers with TrapRepress, at most 16 times
# (sm.md, "Traps"); OpenSM represses each trap it gets and logs each one it
# gets with the sender's LID and TID. Repressed, each (LID, TID) shows once
# (a repeat or two if OpenSM was slow to answer, or the trap's way to the
# SM went by the failed cable until the sweep) and no more come; not
# repressed, each would show up to 16 times.
traps() {
	grep -o "num:128 .*from LID:[0-9]* TID:0x[0-9a-f]*" "$RUN/opensm.log" |
		sed 's/.*from //' | sort | uniq -c
}
represses() {
	traps >"$W/traps1" && sleep 8 && traps >"$W/traps2" || return 1
	cat "$W/traps2"
	[ -s "$W/traps2" ] && cmp -s "$W/traps1" "$W/traps2" ||
		{ echo "traps still repeated 8 s later"; return 1; }
	awk '$1 > 3 { bad = 1 } END { exit bad }' "$W/traps2" ||
		{ echo "a trap sent more than 3 times"; return 1; }
}
tap_check "OpenSM's TrapRepress stops the repeats: each trap 128 (LID, TID) in its log at most 3 times, none new in 8 s" represses
tap_check "around the failed cable: all 240 pairs ping" all_ping 240

tap_check "lab down stops OpenSM and the gateways, leaves nothing" lab_sm_down

lmc1() {
	local i
	sm_up ftmn:4,2 updn --lmc 1 || return 1
	for i in 1 2 3 4 5; do
		rm -rf "$W/lmc1"
		tables "$W/lmc1" >"$W/lmc1.cmp" 2>&1 && break
		sleep 3
	done
	cat "$W/lmc1.cmp"
	grep -q '^6 switches, .* 0 differences' "$W/lmc1.cmp" || return 1
	# 8 hosts x 2 LIDs + 6 switches = 22 LIDs in each switch's table
	"$PY" -c 'import json,sys
t = [s for s in json.load(open(sys.argv[1]))["switches"] if s["switch"] == 0][0]["lft"]
n = sum(1 for p in t.values() if p != 255)
sys.exit(0 if n == 22 else "switch 0 routes %d LIDs, not 22" % n)' "$W/lmc1/lft.json" &&
		all_ping 56 && lab lab down --name "$LAB" && lab_gone
}
tap_check "updn, LMC 1, FT(4,2): tables of both LIDs per host = dump, all 56 pairs ping" lmc1
tap_check "rmmod ftsw" ftsw_unload
tap_done
