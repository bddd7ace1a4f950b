#!/usr/bin/env bash
# (lab 1) FT(4,3): `ftsw lab up` with the engines of FTSW_ENGINES (the LMC
# each needs is found by lab up) and the multipath engines of FTSW_KPATHS
# with --paths 2, then real ICMP between every ordered pair of the 16 hosts;
# `lab down` leaves nothing behind. make check replays three engines of
# different kinds (a fat-tree's closed form, shortest paths, shortest
# paths in virtual layers) and one multipath engine; `make bench-lab-engines`
# (tests/bench/lab-engines) runs every engine this topology supports.
. "$(dirname "$0")/lib.sh"
. "$(dirname "$0")/lab-lib.sh"

ENGINES=${FTSW_ENGINES:-dmodk minhop dfsssp}
KPATHS=${FTSW_KPATHS:-disjoint}
tap_plan $(($(echo $ENGINES $KPATHS | wc -w) + 4))
tap_check "insmod ftsw.ko" ftsw_load
for e in $ENGINES; do
	tap_check "FT(4,3) $e: lab up, 240 pairs ping" lab_up_ping ftmn:4,3 "$e"
done

# K = 2 paths: 2 LIDs per host, so LMC 1 (found by lab up), on every one of
# the 16 edge ports in the kernel; then all pairs ping over both LIDs.
lab_up_k2() {
	local rc=0
	lab lab up --name "$LAB" -t ftmn:4,3 -a "$1" --paths 2 >/dev/null || return 1
	nsenter --net="/run/netns/$LAB" "$FTSW" -j port show | "$PY" -c '
import json, sys
def walk(x):
    if isinstance(x, dict):
        if "lmc" in x:
            yield x
        for v in x.values():
            yield from walk(v)
    elif isinstance(x, list):
        for v in x:
            yield from walk(v)
edges = list(walk(json.load(sys.stdin)))
assert len(edges) == 16 and all(e["lmc"] == 1 for e in edges), edges
assert all(e["lid"] % 2 == 0 for e in edges), edges' || rc=1
	lab lab ping --name "$LAB" -c 2 -W 5000 || rc=1
	lab lab down --name "$LAB" || rc=1
	return $rc
}
for e in $KPATHS; do
	tap_check "FT(4,3) $e --paths 2: LMC 1 on all 16 edge ports, 240 pairs ping" lab_up_k2 "$e"
done
tap_check "nothing left behind after lab down" lab_gone
# A failure half-way rolls back: a name that is taken by a namespace.
rollback() {
	ip netns add "$LAB-h3" || return 1
	if lab lab up --name "$LAB" -t ftmn:4,3 2>&1; then
		echo "lab up succeeded over an existing namespace"
		return 1
	fi
	ip netns del "$LAB-h3"
	lab_gone
}
tap_check "a failing lab up rolls back completely" rollback
tap_check "rmmod ftsw" ftsw_unload
tap_done
