#!/usr/bin/env bash
# Real MPI timings against the analyzer's prediction (runs as root inside the
# VM, see tests/bench/mpi): on a lab shaped at RATE per switch-to-switch
# cable, tests/mpi/mpiexchange's shift exchange (stages k = 1..N-1, every
# rank sends BYTES to rank + k) runs with the ranks in topology order and in
# random order, side by side, ROUNDS times.
#
# The prediction. A stage lasts as long as its slowest flow; a flow that
# shares its busiest shaped cable with m - 1 others gets RATE / m, so the
# stage takes m * BYTES / RATE: the stage's time is proportional to its
# maximum link load (the analyzer's MLOAD; host cables carry one flow each
# in a shift, so the maximum is on a shaped cable whenever it exceeds 1).
# The shift's total time is then proportional to the sum of the stages'
# MLOAD, and random over topology order is
#     predicted = sum MLOAD(random) / sum MLOAD(topology)
# (the hot-spot degree ratio; D-Mod-K in topology order has MLOAD 1 in every
# stage, paper 003). The measured ratio is the median over rounds of
# T(random) / T(topology), each run's T the sum of its stage times.
# It passes when |measured / predicted - 1| <= TOL.
#
#   TOPO=ftmn:4,2 RATE=500kbit BYTES=32768 REPS=1 ROUNDS=3 SEED=5 TOL=0.2
set -euo pipefail
: "${FTSW:?}" "${FTSW_KMOD:?}" "${FTSW_TOP:?}"
TOPO=${TOPO:-ftmn:4,2} RATE=${RATE:-500kbit} BYTES=${BYTES:-32768}
REPS=${REPS:-1} ROUNDS=${ROUNDS:-3} SEED=${SEED:-5} TOL=${TOL:-0.2}
PY=$(command -v /usr/bin/python3 || command -v python3)
LAB=mpibench
W=$(mktemp -d)
[ -d /sys/module/ftsw ] || insmod "$FTSW_KMOD/ftsw.ko"
mpicc -O2 -o "$W/mpiexchange" "$FTSW_TOP/tests/mpi/mpiexchange.c"

"$FTSW" -j analyze -t "$TOPO" -a dmodk -p shift --order topo >"$W/a-topo.json"
"$FTSW" -j analyze -t "$TOPO" -a dmodk -p shift --order "random:$SEED" >"$W/a-rand.json"

"$FTSW" lab up --name "$LAB" -t "$TOPO" -a dmodk --rate "$RATE"
trap '"$FTSW" lab down --name "$LAB"; rm -rf "$W"' EXIT
for r in $(seq "$ROUNDS"); do
	for o in topology "random:$SEED"; do
		"$FTSW" lab mpirun --name "$LAB" --order "$o" -- \
			"$W/mpiexchange" -p shift -s "$BYTES" -r "$REPS" >"$W/run-$r-${o%%:*}.json"
		echo "round $r $o: $(cat "$W/run-$r-${o%%:*}.json")"
	done
done

"$PY" - "$W" "$ROUNDS" "$TOL" "$TOPO" "$RATE" "$BYTES" "$REPS" <<'PYEOF'
import json, statistics, sys
w, rounds, tol = sys.argv[1], int(sys.argv[2]), float(sys.argv[3])
topo, rate, nbytes, reps = sys.argv[4:8]
at = json.load(open(w + "/a-topo.json"))
ar = json.load(open(w + "/a-rand.json"))
mt = [s["mload"] for s in at["stages"]]
mr = [s["mload"] for s in ar["stages"]]
pred = sum(mr) / sum(mt)
ratios, tt, tr = [], [], []
for r in range(1, rounds + 1):
    t = json.load(open("%s/run-%d-topology.json" % (w, r)))
    x = json.load(open("%s/run-%d-random.json" % (w, r)))
    assert t["errors"] == 0 and x["errors"] == 0
    tt.append(t["shift"]["seconds"]); tr.append(x["shift"]["seconds"])
    ratios.append(tr[-1] / tt[-1])
meas = statistics.median(ratios)
print("%s, D-Mod-K, shaped at %s per switch cable, %s bytes x %s per stage"
      % (topo, rate, nbytes, reps))
print("  MLOAD per stage, topology: %s (sum %d)" % (mt, sum(mt)))
print("  MLOAD per stage, random:   %s (sum %d)" % (mr, sum(mr)))
print("  shift seconds, topology: %s" % " ".join("%.3f" % v for v in tt))
print("  shift seconds, random:   %s" % " ".join("%.3f" % v for v in tr))
print("  random / topology: measured %.3f (median of %s), predicted %.3f, "
      "off by %+.1f%% (tolerance %.0f%%)"
      % (meas, " ".join("%.3f" % v for v in ratios), pred,
         100 * (meas / pred - 1), 100 * tol))
sys.exit(0 if abs(meas / pred - 1) <= tol else 1)
PYEOF
