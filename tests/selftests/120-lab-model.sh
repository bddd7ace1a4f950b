#!/usr/bin/env bash
# (lab 3) model == reality: all-pairs UDP traffic (every shift stage) from
# every host; every port's tx counter equals the load the analyzer predicts
# on the kernel's tables, packet for packet, on FT(4,3) and on the PGFT with
# parallel links; the analyzer's pattern and order names work; trace SRC
# DST is confirmed by the counters of a probe.
. "$(dirname "$0")/lib.sh"
. "$(dirname "$0")/lab-lib.sh"

tap_plan 9
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

# The analyzer's pattern and order names: shift in random order, exact; the
# hot-spot degree of the tables read back from the kernel is the one
# ftsw analyze computes from the engine's own tables.
analyzer_names() {
	local out ref rc=0
	lab lab up --name "$LAB" -t ftmn:4,3 -a dmodk >/dev/null || return 1
	out=$(lab -j lab traffic --name "$LAB" -p shift --order random:7 --packets 2) || rc=1
	lab lab down --name "$LAB"
	ref=$(lab -j analyze -t ftmn:4,3 -a dmodk -p shift --order random:7) || return 1
	"$PY" -c '
import json, sys
d, a = json.loads(sys.argv[1]), json.loads(sys.argv[2])
assert d["exact"] and d["mismatches"] == 0 and d["lost"] == 0, d
assert d["stages"] == 15 and d["sent"] == 15 * 16 * 2, d
assert abs(d["hot_spot_degree"] - a["hot_spot_degree"]) < 1e-9, (d, a)
assert d["hot_spot_degree"] > 1, "random order on dmodk: some hot spot expected"
print("hot-spot degree %g" % d["hot_spot_degree"])' "$out" "$ref" && [ $rc = 0 ]
}
tap_check "FT(4,3) dmodk, shift in random order: exact; hot-spot degree == ftsw analyze's" analyzer_names

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
