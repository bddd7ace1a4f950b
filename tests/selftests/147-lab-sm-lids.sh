#!/usr/bin/env bash
# (lab 5c) OpenSM's own LIDs: with -r OpenSM ignores the LIDs the lab seeds
# in its cache and numbers every port itself (switches among the hosts), so
# hosts no longer sit at the address plan's LIDs (host n at n + 1 with LMC
# 0). ARP then answers with the SM's LIDs (all pairs ping), `lab traffic`'s
# model reads the kernel's tables by each edge port's LID (model ==
# reality, and every flow delivered), and `lab trace` names the DLID the
# destination's port has.
. "$(dirname "$0")/lib.sh"
. "$(dirname "$0")/lab-lib.sh"

trap 'lab lab down --name "$LAB" >/dev/null 2>&1' EXIT

tap_plan 8
tap_check "insmod ftsw.ko" ftsw_load

fab() { ip netns exec "$LAB" "$FTSW" "$@"; }

sm_up() {
	command -v opensm >/dev/null || { echo "opensm missing (make deps)"; return 1; }
	lab lab up --name "$LAB" -t ftmn:4,2 --sm opensm --sm-args "-r" \
		--sm-timeout 900 && grep -q "SUBNET UP" "/run/ftsw/$LAB/opensm.log"
}
tap_check "lab up --sm opensm --sm-args -r on FT(4,2): SUBNET UP" sm_up

# host index -> LID of its edge port, from the kernel (desc "Hn")
lids() {
	fab -j port show | "$PY" -c '
import json, sys
for p in json.load(sys.stdin):
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

tap_check "lab down" lab lab down --name "$LAB"
tap_check "rmmod ftsw" ftsw_unload
tap_done
