#!/usr/bin/env bash
# Guest side of tests/bench/labsim (root in the test VM): OUT TOPO RATE
# BUF SEED DURATION PPS [LIFE]. A lossless lab, a permutation and
# all-to-all, lab traffic's JSON into OUT/lab-perm.json and OUT/lab-a2a.json
# (every flow once per round), OUT/lab-uniform.json (a2a --random-dst: each
# datagram to a random other host, as ftsw sim's uniform traffic); `lab
# status -j` before the runs and after each (OUT/lab-status-{0,perm,a2a,
# uniform}.json: the fabric's drops by reason).
set -euo pipefail
out=$1 topo=$2 rate=$3 buf=$4 seed=$5 dur=$6 pps=$7 life=${8:-18}
insmod "$FTSW_KMOD/ftsw.ko"
export FTSW_LAB=labsim
"$FTSW" lab up -t "$topo" -a dmodk --lossless --rate "$rate" \
	--in-buffer "$buf" --out-buffer "$buf" --hoq-life "$life" \
	--switch-life "$life"
status() { "$FTSW" -j lab status >"$out/lab-status-$1.json" || true; }
status 0
"$FTSW" -j lab traffic -p "perm:$seed" --size 1420 --duration "$dur" \
	>"$out/lab-perm.json" || true
status perm
"$FTSW" -j lab traffic -p a2a --size 1420 --pps "$pps" --duration "$dur" \
	>"$out/lab-a2a.json" || true
status a2a
"$FTSW" -j lab traffic -p a2a --random-dst --size 1420 --pps "$pps" \
	--duration "$dur" >"$out/lab-uniform.json" || true
status uniform
"$FTSW" lab waits --min-wait 0 || true
"$FTSW" lab down
rmmod ftsw
