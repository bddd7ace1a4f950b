#!/usr/bin/env bash
# (lab 3) model == reality: all-pairs UDP traffic (every shift stage) from
# every host; every port's tx counter equals the load predicted by tracing
# the kernel's tables, packet for packet, on FT(4,3) and on the PGFT with
# parallel links; trace SRC DST is confirmed by the counters of a probe.
. "$(dirname "$0")/lib.sh"
. "$(dirname "$0")/lab-lib.sh"

tap_plan 8
tap_check "insmod ftsw.ko" ftsw_load

model() {
	local topo=$1 eng=$2 out
	lab lab up --name "$LAB" -t "$topo" -a "$eng" >/dev/null || return 1
	out=$(lab -j lab traffic --name "$LAB" -p all2all --packets 3)
	local rc=$?
	lab lab down --name "$LAB"
	echo "$out" | "$PY" -c '
import json, sys
d = json.load(sys.stdin)
assert d["exact"] and d["mismatches"] == 0 and d["lost"] == 0, d
assert d["ports"] > 0 and d["sent"] > 0
print("%d ports exact, %d packets" % (d["ports"], d["sent"]))' && [ $rc = 0 ]
}
tap_check "FT(4,3) dmodk: all2all per-port counts == predicted" model ftmn:4,3 dmodk
tap_check "FT(4,3) minhop: all2all per-port counts == predicted" model ftmn:4,3 minhop
tap_check "PGFT parallel links dmodc: per-port counts == predicted" model "pgft:2;4,4;1,2;1,2" dmodc
tap_check "FT(4,3) mlid (LMC 2, one offset per source): exact" model ftmn:4,3 mlid

trace_ok() {
	lab lab up --name "$LAB" -t ftmn:4,3 >/dev/null || return 1
	local out rc=0
	out=$(lab -j lab trace --name "$LAB" h0 h15 -c 4) || rc=1
	lab lab down --name "$LAB"
	echo "$out" | "$PY" -c '
import json, sys
d = json.load(sys.stdin)
p = d["paths"][0]
assert p["confirmed"] and len(p["hops"]) == 5, d' && [ $rc = 0 ]
}
tap_check "trace h0 h15: 5 hops, each confirmed by counters" trace_ok
tap_check "nothing left behind" lab_gone
tap_check "rmmod ftsw" ftsw_unload
tap_done
