#!/usr/bin/env bash
# (lab 5d) Path SLs under OpenSM: hosts send with the SLs of the SA's
# PathRecords, as a host's verbs stack would (Documentation/sm.md, "Path
# SLs"). One FT(4,3) lab under OpenSM's LASH, which needs 2 lanes on this
# fabric ("Lanes needed: 2" in its log), so some paths get SL 1:
# - after SUBNET UP every host's edge port has an SL table and `lab status`
#   says path SLs are on, 240 host pairs with a path, none without;
# - every host's table (`ftsw port show`, which echoes it) gives each of the
#   15 other hosts' LIDs the SL that `saquery PR` (an independent reader:
#   infiniband-diags through h5's gateway, the SA's whole PathRecord table
#   of 36 x 36 records) reports for that (SLID, DLID), some of them SL != 0,
#   none above LASH's lanes;
# - pings of a pair whose path has SL s != 0 are counted on VL s (SL-to-VL
#   is the identity: no QoS) at the destination's edge port, and on VL 0
#   once the tables are removed (`lab sm path-sl --no-path-sl`): the table
#   is what chose the VL;
# - lab down leaves no process or namespace.
# By hand: FT(4,3) has 20 switches and 16 hosts: 36 LIDs, 16 x 15 = 240
# ordered host pairs.
. "$(dirname "$0")/lib.sh"
. "$(dirname "$0")/lab-lib.sh"

W=$(mktemp -d)
trap 'lab lab down --name "$LAB" >/dev/null 2>&1; rm -rf "$W"' EXIT
RUN=/run/ftsw/$LAB
N=20

tap_plan 7
tap_check "insmod ftsw.ko" ftsw_load

fab() { nsenter --net="/run/netns/$LAB" "$FTSW" "$@"; }

up() {
	command -v opensm >/dev/null && command -v saquery >/dev/null ||
		{ echo "opensm / infiniband-diags missing (make deps)"; return 1; }
	lab lab up --name "$LAB" -t ftmn:4,3 --sm opensm --sm-engine lash \
		--sm-timeout 900 >"$W/up" || {
		grep -E "ERR|SUBNET" "/run/ftsw/$LAB.sm-failed/opensm.log" | tail
		return 1
	}
	cat "$W/up"
	grep -q "lash tables configured on all switches" "$RUN/opensm.log" ||
		{ echo "not routed by lash"; grep ERR "$RUN/opensm.log"; return 1; }
	grep -o "Lanes needed: [0-9]*" "$RUN/opensm.log" | head -1
	lab -j lab status --name "$LAB" >"$W/status" || return 1
	jcheck 'd["path_sl"]["on"] and d["path_sl"]["pairs"] == 240 and d["path_sl"]["missing"] == 0' <"$W/status"
}
tap_check "lab up FT(4,3) --sm opensm --sm-engine lash: path SLs on, 240 host pairs" up

tables() {
	# 1296 records, 83 KB of RMPP: under a loaded TCG host the answer came
	# 3.5 s after the request, past saquery's own default timeout (the
	# gateway then logs "matches no request"); 20 s, as any slow SA needs
	timeout 300 "$FTSW" lab ib --name "$LAB" h5 -- saquery -t 20000 PR >"$W/pr" \
		2>"$W/pr.err" || { cat "$W/pr.err"; return 1; }
	fab -j port show >"$W/ports.json" || return 1
	"$PY" - "$W/pr" "$W/ports.json" "$RUN/opensm.log" "$W/pair" <<'EOF'
import json, re, sys
recs = [dict(re.findall(r'^\s*(\w+)\.+(\S+)$', r, re.M))
        for r in open(sys.argv[1]).read().split("PathRecord dump:")[1:]]
sa = {(int(r["slid"], 0), int(r["dlid"], 0)): int(r["sl"], 0) for r in recs}
print(len(recs), "PathRecords from saquery")
assert len(recs) == 36 * 36, len(recs)
edge = [p for p in json.load(open(sys.argv[2]))["ports"] if p["kind"] == "edge"]
assert len(edge) == 16, len(edge)
lanes = int(re.search(r"Lanes needed: (\d+)", open(sys.argv[3]).read()).group(1))
bad, by_sl, pair = [], {}, None
for p in edge:
    tbl = p.get("sl_table")
    if tbl is None or p.get("sl_table_len", 0) < 2:
        bad.append("switch %d port %d: no SL table" % (p["switch"], p["port"]))
        continue
    for q in edge:
        if q is p:
            continue
        d = q["lid"]
        got = tbl[d] if d < len(tbl) else p["sl"]
        want = sa[(p["lid"], d)]
        by_sl[want] = by_sl.get(want, 0) + 1
        if got != want:
            bad.append("LID %d -> %d: table SL %d, saquery SL %d" % (p["lid"], d, got, want))
        if want and pair is None:
            pair = (p, q, want)
print("pairs by SL (saquery):", by_sl, "lanes:", lanes)
assert not bad, bad[:10]
assert sum(by_sl.values()) == 240
assert max(by_sl) < lanes and sum(v for k, v in by_sl.items() if k), "no pair with SL != 0"
p, q, s = pair
open(sys.argv[4], "w").write("%d %d %d %d %d %d\n" % (p["lid"], q["lid"], q["switch"], q["port"], s, p["sl"]))
EOF
}
tap_check "every host's edge SL table = saquery PR's SLs for its 15 destinations, some SL != 0" tables

# vl SWITCH PORT VL: the port's packets sent on VL.
vl() {
	fab -j -s port show switch "$1" port "$2" |
		"$PY" -c 'import json,sys; print(json.load(sys.stdin)["ports"][0]["stats"]["tx_vl"][int(sys.argv[1])])' "$3"
}

# pings SRC DST SW PORT VL: N echoes SRC -> DST; the packets DST's edge
# port (SW PORT) sent on VL meanwhile.
pings() {
	local a b
	a=$(vl "$3" "$4" "$5") || return 1
	lab lab ping --name "$LAB" "$1" "$2" -c $N >/dev/null || return 1
	b=$(vl "$3" "$4" "$5") || return 1
	echo $((b - a))
}

on_vl() {
	local sl dl sw port s d n
	read -r sl dl sw port s d <"$W/pair" || return 1
	# hosts by LID: host n has base LID n + 1 (the plan OpenSM keeps)
	echo "h$((sl - 1)) -> h$((dl - 1)) (LID $sl -> $dl): SL $s, at switch $sw port $port"
	n=$(pings "h$((sl - 1))" "h$((dl - 1))" "$sw" "$port" "$s") || return 1
	echo "$n packets on VL $s"
	[ "$n" -ge $N ]
}
tap_check "pings of a pair whose path has SL s != 0: at least $N packets on VL s at the destination's edge port" on_vl

off_vl() {
	local sl dl sw port s d n m
	read -r sl dl sw port s d <"$W/pair" || return 1
	lab lab sm --name "$LAB" path-sl --no-path-sl || return 1
	fab -j port show >"$W/ports-off.json" || return 1
	"$PY" -c 'import json,sys
e = [p for p in json.load(open(sys.argv[1]))["ports"] if p["kind"] == "edge"]
sys.exit("SL tables left" if any(p.get("sl_table_len") for p in e) else 0)' "$W/ports-off.json" || return 1
	n=$(pings "h$((sl - 1))" "h$((dl - 1))" "$sw" "$port" "$s") || return 1
	m=$(pings "h$((sl - 1))" "h$((dl - 1))" "$sw" "$port" "$d") || return 1
	echo "without tables: $n packets on VL $s, $m on VL $d (the port's SL)"
	[ "$n" = 0 ] && [ "$m" -ge $N ]
}
tap_check "without the tables (lab sm path-sl --no-path-sl) the same pings go on the port's SL's VL" off_vl

tap_check "lab down stops OpenSM and the gateways, leaves nothing" lab_sm_down
tap_check "rmmod ftsw" ftsw_unload
tap_done
