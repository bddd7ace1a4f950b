#!/usr/bin/env bash
# (lab 5c) OpenSM's own LIDs: with -r OpenSM ignores the LIDs the lab seeds
# in its cache and numbers every port itself (switches among the hosts), so
# hosts no longer sit at the address plan's LIDs (host n at n + 1 with LMC
# 0). ARP then answers with the SM's LIDs (all pairs ping), `lab traffic`'s
# model reads the kernel's tables by each edge port's LID (model ==
# reality, and every flow delivered), and `lab trace` names the DLID the
# destination's port has.
#
# The same OpenSM runs with QoS (--sm-conf: qos TRUE and the qos_* keys
# below, none of them OpenSM's defaults): the tables it writes in band are
# the kernel's. Expected by hand from the file: every switch's SL-to-VL
# table is qos_swe_sl2vl, every switch port's VL arbitration tables and
# VLHighLimit the qos_swe_* ones, HOQLife 14 towards a host
# (leaf_head_of_queue_lifetime) and 17 towards a switch, every switch's
# lifetime 19 (packet_life_time); in band, through h0's gateway,
# `smpquery` reads a CA's tables as qos_ca_* and a spine's as qos_swe_*;
# h0's packets on SL 5 cross every switch on VL 6
# (qos_swe_sl2vl[5]), where an identity table would put them on VL 5.
. "$(dirname "$0")/lib.sh"
. "$(dirname "$0")/lab-lib.sh"

W=$(mktemp -d)
trap 'lab lab down --name "$LAB" >/dev/null 2>&1; rm -rf "$W"' EXIT

# OpenSM's QoS options; SWE_* / CA_* below are the same values by hand.
cat >"$W/qos.conf" <<'EOF'
qos TRUE
qos_max_vls 8
qos_swe_sl2vl 3,2,1,0,7,6,5,4,1,0,3,2,5,4,7,6
qos_swe_high_limit 7
qos_swe_vlarb_high 1:10,3:20,5:30
qos_swe_vlarb_low 0:11,2:12,4:13,6:14,7:15
qos_ca_sl2vl 1,2,3,4,5,6,7,0,2,3,4,5,6,7,0,1
qos_ca_high_limit 3
qos_ca_vlarb_high 2:40,4:50
qos_ca_vlarb_low 0:21,1:22,3:23
head_of_queue_lifetime 0x11
leaf_head_of_queue_lifetime 0x0e
packet_life_time 0x13
EOF
SWE_SL2VL="3 2 1 0 7 6 5 4 1 0 3 2 5 4 7 6"
SWE_HIGH="1:10 3:20 5:30"
SWE_LOW="0:11 2:12 4:13 6:14 7:15"
CA_SL2VL="1 2 3 4 5 6 7 0 2 3 4 5 6 7 0 1"
CA_HIGH="2:40 4:50"
CA_LOW="0:21 1:22 3:23"

tap_plan 11
tap_check "insmod ftsw.ko" ftsw_load

fab() { nsenter --net="/run/netns/$LAB" "$FTSW" "$@"; }

sm_up() {
	command -v opensm >/dev/null || { echo "opensm missing (make deps)"; return 1; }
	# -s 0: no light sweeps (every 10 s): the lab stays still while it is
	# read (lab traffic itself leaves the SMPs on VL15 out of its counts)
	lab lab up --name "$LAB" -t ftmn:4,2 --sm opensm --sm-args "-r -s 0" \
		--sm-conf "$W/qos.conf" --sm-timeout 900 &&
		grep -q "SUBNET UP" "/run/ftsw/$LAB/opensm.log"
}
tap_check "lab up --sm opensm --sm-args '-r -s 0' --sm-conf QOS on FT(4,2): SUBNET UP" sm_up

# host index -> LID of its edge port, from the kernel (desc "Hn")
lids() {
	fab -j port show | "$PY" -c '
import json, sys
for p in json.load(sys.stdin)["ports"]:
    if p.get("kind") == "edge":
        print(int(p["desc"][1:]), p["lid"])' | sort -n
}

moved() {
	local l
	l=$(lids) || return 1
	echo "$l" | tap_diag
	[ "$(echo "$l" | wc -l)" = 8 ] || { echo "not 8 edge ports"; return 1; }
	[ "$(echo "$l" | awk '{print $2}' | sort -u | wc -l)" = 8 ] ||
		{ echo "LIDs not distinct"; return 1; }
	echo "$l" | awk '$2 != $1 + 1 { m++ } END { exit !m }' ||
		{ echo "every host at its plan LID: -r did not renumber"; return 1; }
}
tap_check "OpenSM numbered the hosts itself (8 distinct LIDs, not the plan's)" moved

tap_check "all 56 pairs ping at the SM's LIDs" \
	eval '[ "$(ping_json 5000)" = "56 0" ]'

traffic() {
	lab -j lab traffic --name "$LAB" -p perm:1 --duration 2000 >"/tmp/tr.$$" ||
		{ cat "/tmp/tr.$$"; rm -f "/tmp/tr.$$"; return 1; }
	jcheck 'd["exact"] and d["mismatches"] == 0 and d["undelivered"] == 0 and d["lost"] == 0' <"/tmp/tr.$$"
	local rc=$?
	rm -f "/tmp/tr.$$"
	return $rc
}
tap_check "lab traffic perm:1: model == reality on the SM's LIDs" traffic

trace() {
	local want got
	want=$(lids | awk '$1 == 5 { print $2 }')
	got=$(lab -j lab trace --name "$LAB" h0 h5 | "$PY" -c '
import json, sys
d = json.load(sys.stdin)
p = d["paths"][0]
print(p["dlid"], p["status"])')
	echo "h5 lid $want, trace: $got" | tap_diag
	[ -n "$want" ] && [ "$got" = "$want 0" ]
}
tap_check "lab trace h0 h5: the DLID of h5's port, delivered" trace

# ---- QoS: what OpenSM wrote is what the kernel has and uses

qos_kernel() {
	fab -j sl2vl show >"$W/sl2vl" && fab -j -s port show >"$W/ports" &&
		fab -j switch show >"$W/switches" || return 1
	"$PY" - "$W" "$SWE_SL2VL" "$SWE_HIGH" "$SWE_LOW" <<'EOF'
import json, sys
w, sl2vl, high, low = sys.argv[1:]
want_sl2vl = [int(v) for v in sl2vl.split()]
pairs = lambda s: [[int(x) for x in p.split(":")] for p in s.split()]
bad = []
tables = json.load(open(w + "/sl2vl"))["switches"]
for t in tables:
    if t["sl2vl"] != want_sl2vl:
        bad.append("switch %d sl2vl %s" % (t["switch"], t["sl2vl"]))
ports = [p for p in json.load(open(w + "/ports"))["ports"] if p.get("state")]
for p in ports:
    ll = p["lossless"]
    got = ([[e["vl"], e["weight"]] for e in ll["vlarb_high"]],
           [[e["vl"], e["weight"]] for e in ll["vlarb_low"]],
           ll["vl_high_limit"], ll["hoq_life"])
    want = (pairs(high), pairs(low), 7, 14 if p["kind"] == "edge" else 17)
    if got != want:
        bad.append("switch %d port %d (%s): %s, not %s" %
                   (p["switch"], p["port"], p["kind"], got, want))
sws = json.load(open(w + "/switches"))["switches"]
for s in sws:
    if s["life"] != 19:
        bad.append("switch %d life %d, not 19" % (s["id"], s["life"]))
print("%d switches' SL-to-VL tables, %d ports, %d lifetimes checked" %
      (len(tables), len(ports), len(sws)))
if len(tables) != 6 or len(ports) != 24 or len(sws) != 6:
    bad.append("not 6 switches and 24 cabled ports")
print("\n".join(bad))
sys.exit(1 if bad else 0)
EOF
}
tap_check "QoS: the kernel's SL-to-VL tables, VL arbitration, VLHighLimit, HOQLife and lifetimes = the file's (6 switches, 24 ports)" qos_kernel

# smpquery sl2vl/vlarb output -> "VL VL ..." / "VL:W ..." (weight > 0)
sl2vl_row() { grep "^ports: in  *$1, out  *$2:" | tr -d ' ' | cut -d: -f3 | tr '|' ' ' | xargs; }
vlarb_rows() {
	"$PY" -c '
import sys
rows = [l.split("|")[1:-1] for l in sys.stdin if l.startswith(("VL ", "WEIGHT"))]
if len(rows) != 4:
    sys.exit("not two VL arbitration tables")
for vl, w in ((rows[0], rows[1]), (rows[2], rows[3])):
    print(" ".join("%d:%d" % (int(v, 16), int(x, 16)) for v, x in zip(vl, w) if int(x, 16)))' |
		paste -sd/
}
# the output of one query of the batch below
part() { awk -v k="@@ $1" '$0 == k { on = 1; next } /^@@ / { on = 0 } on' "$W/inband"; }

# In band, one `lab ib` (a shell through h0's gateway) for all the queries
# (each smpquery takes some 6 s in a TCG guest): h6's CA, on another leaf
# than h0, and switch 5, a spine; the kernel's view of every switch port is
# checked above, and a CA's tables are not seen over netlink.
qos_inband() {
	local cas sws c s l got
	cas=$(lids | awk '$1 == 6 { print $2 }')
	sws=$(fab -j switch show | "$PY" -c 'import json,sys; print(" ".join(str(s["lid"]) for s in json.load(sys.stdin)["switches"] if s["id"] == 5))')
	[ "$(echo "$cas $sws" | wc -w)" = 2 ] || { echo "LIDs: CA '$cas', switch '$sws'"; return 1; }
	timeout 300 "$FTSW" lab ib --name "$LAB" h0 -- sh -c '
		for c in '"$cas"'; do
			echo "@@ sl2vl $c"; smpquery sl2vl "$c"
			echo "@@ vlarb $c"; smpquery vlarb "$c"
			echo "@@ portinfo $c"; smpquery portinfo "$c"
		done
		for s in '"$sws"'; do
			echo "@@ sl2vl $s"; smpquery sl2vl "$s" 1
			echo "@@ vlarb $s"; smpquery vlarb "$s" 2
		done' >"$W/inband" 2>"$W/ib.err"
	for c in $cas; do
		got=$(part "sl2vl $c" | sl2vl_row 0 0)
		[ "$got" = "$CA_SL2VL" ] || { echo "CA LID $c sl2vl '$got'"; cat "$W/ib.err"; return 1; }
		got=$(part "vlarb $c" | vlarb_rows)
		[ "$got" = "$CA_LOW/$CA_HIGH" ] || { echo "CA LID $c vlarb '$got'"; return 1; }
		part "portinfo $c" | grep -q '^VLHighLimit:\.*3$' ||
			{ echo "CA LID $c: VLHighLimit not 3"; return 1; }
	done
	for s in $sws; do
		for l in 0 1 2 3 4; do
			got=$(part "sl2vl $s" | sl2vl_row "$l" 1)
			[ "$got" = "$SWE_SL2VL" ] ||
				{ echo "switch LID $s in $l out 1: '$got'"; return 1; }
		done
		got=$(part "vlarb $s" | vlarb_rows)
		[ "$got" = "$SWE_LOW/$SWE_HIGH" ] || { echo "switch LID $s port 2 vlarb '$got'"; return 1; }
	done
}
tap_check "QoS in band (smpquery via h0's gateway): h6's CA's sl2vl, vlarb, VLHighLimit = qos_ca_*, a spine's sl2vl, vlarb = qos_swe_*" qos_inband

# tx_vl of every port, one line each: "switch port c0 c1 ... c15"
tx_vl() {
	fab -j -s port show | "$PY" -c '
import json, sys
for p in json.load(sys.stdin)["ports"]:
    print(p["switch"], p["port"], " ".join(str(c) for c in p["stats"]["tx_vl"]))'
}

qos_datapath() {
	local at sw port
	at=$(fab -j port show | "$PY" -c '
import json, sys
for p in json.load(sys.stdin)["ports"]:
    if p.get("desc") == "H0":
        print(p["switch"], p["port"])') || return 1
	[ -n "$at" ] || { echo "no edge port named H0"; return 1; }
	read -r sw port <<<"$at"
	fab port set switch "$sw" port "$port" sl 5 || return 1
	tx_vl >"$W/vl0" || return 1
	lab -j lab ping --name "$LAB" h0 h7 -c 10 -W 5000 >"$W/ping" || { cat "$W/ping"; return 1; }
	tx_vl >"$W/vl1" || return 1
	fab port set switch "$sw" port "$port" sl 0 || return 1
	"$PY" - "$W" <<'EOF'
import sys
w = sys.argv[1]
rd = lambda f: {tuple(l.split()[:2]): [int(x) for x in l.split()[2:]] for l in open(f)}
a, b = rd(w + "/vl0"), rd(w + "/vl1")
d = {k: [y - x for x, y in zip(a[k], b[k])] for k in b}
vl6 = {k: v[6] for k, v in d.items() if v[6]}
vl5 = sum(v[5] for v in d.values())
print("VL 6 sent by (switch, port):", vl6, "; VL 5:", vl5)
# 10 echo requests x 3 switch hops (leaf up, spine down, leaf to h7)
sys.exit(0 if sum(vl6.values()) == 30 and len(vl6) == 3 and vl5 == 0 else 1)
EOF
}
tap_check "QoS data path: h0 on SL 5 -> h7: 10 echo requests on VL 6 (qos_swe_sl2vl[5]) at each of 3 switch hops" qos_datapath

# FTSW_QOS_OUT=DIR keeps OpenSM's log and dumps and what the checks read.
[ -z "${FTSW_QOS_OUT:-}" ] ||
	cp -r "/run/ftsw/$LAB/." "$W/." "$FTSW_QOS_OUT/" 2>/dev/null

tap_check "lab down: no OpenSM left running, nothing of the lab left" lab_sm_down
tap_check "rmmod ftsw" ftsw_unload
tap_done
