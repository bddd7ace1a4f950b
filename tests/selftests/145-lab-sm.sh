#!/usr/bin/env bash
# (lab 5b) The lab under a real subnet manager: `lab up --sm opensm` runs
# Debian's OpenSM unmodified in h0, through h0's gateway (ftsw gw,
# ibsim-utils' libumad2sim.so preloaded), on FT(4,3) built with no LFT and
# no switch LID; OpenSM discovers it, assigns LIDs and programs every switch
# in band. The independent check is OpenSM's own opensm-lfts.dump: every
# entry of the 20 kernel tables (ftsw lft show) equals it, and so does what
# ibroute reads in band from each switch; all 240 pairs then ping. A cable
# failed with `lab fail` reaches OpenSM as trap 128 (its log), OpenSM's
# sweep routes around it (its new dump equals the kernel's tables again, no
# route leaves by the failed port) and all pairs ping. Then updn with LMC 1
# on FT(4,2): the tables of both LIDs of every host equal the dump and all
# 56 pairs ping. FT(m,n) by hand: (2n-1)(m/2)^(n-1) switches, 2(m/2)^n
# hosts: FT(4,3) 20 and 16, FT(4,2) 6 and 8.
. "$(dirname "$0")/lib.sh"
. "$(dirname "$0")/lab-lib.sh"

W=$(mktemp -d)
trap 'lab lab down --name "$LAB" >/dev/null 2>&1; rm -rf "$W"' EXIT
CMP="$PY $(dirname "$0")/lftcmp.py"
RUN=/run/ftsw/$LAB

tap_plan 9
tap_check "insmod ftsw.ko" ftsw_load

fab() { ip netns exec "$LAB" "$FTSW" "$@"; }

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
	for id in $("$PY" -c 'import json,sys
print(" ".join(str(s["id"]) for s in json.load(open(sys.argv[1]))))' "$d/switches.json"); do
		fab -j lft show switch "$id" >"$d/lft$id.json" || return 1
	done
	if [ "${2:-}" = ibroute ]; then
		for lid in $("$PY" -c 'import json,sys
print(" ".join(str(s["lid"]) for s in json.load(open(sys.argv[1]))))' "$d/switches.json"); do
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
			grep -q '^20 switches, .* 20 ibroute tables equal, 0 differences' "$W/up.cmp" &&
			{ cat "$W/up.cmp"; return 0; }
		sleep 3
	done
	cat "$W/up.cmp"
	return 1
}
tap_check "the 20 kernel tables = opensm-lfts.dump = ibroute of each switch" up_tables

all_ping() {
	local r
	r=$(ping_json 5000)
	[ "$r" = "$1 0" ] || { echo "ok/failed: $r"; return 1; }
}
tap_check "under OpenSM's tables: all 240 pairs ping" all_ping 240

# The cable at S1-0 (s0) port 1, a leaf's first uplink. Its two switches
# send trap 128 to the SM's LID and OpenSM sweeps again; done when the
# trap is in its log, its latest dump equals the kernel's tables and no
# LID leaves S1-0 (switch id 0) by port 1 any more.
rerouted() {
	grep -q "Received Generic Notice type:[0-9]* num:128 " "$RUN/opensm.log" &&
		rm -rf "$W/fail" && tables "$W/fail" >"$W/fail.cmp" &&
		"$PY" -c 'import json,sys
t = json.load(open(sys.argv[1]))["lft"]
bad = [l for l, p in t.items() if p == 1]
sys.exit("LIDs still by port 1: %s" % bad if bad else 0)' "$W/fail/lft0.json"
}
reroute() {
	local i
	lab lab fail --name "$LAB" port s0:1 || return 1
	for i in $(seq 1 300); do
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
tap_check "around the failed cable: all 240 pairs ping" all_ping 240

down() {
	lab lab down --name "$LAB" || return 1
	! pgrep -x opensm >/dev/null || { echo "opensm left running"; return 1; }
	lab_gone
}
tap_check "lab down stops OpenSM and the gateways, leaves nothing" down

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
t = json.load(open(sys.argv[1]))["lft"]
n = sum(1 for p in t.values() if p != 255)
sys.exit(0 if n == 22 else "switch 0 routes %d LIDs, not 22" % n)' "$W/lmc1/lft0.json" &&
		all_ping 56 && lab lab down --name "$LAB" && lab_gone
}
tap_check "updn, LMC 1, FT(4,2): tables of both LIDs per host = dump, all 56 pairs ping" lmc1
tap_check "rmmod ftsw" ftsw_unload
tap_done
