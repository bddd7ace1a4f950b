#!/usr/bin/env bash
# Guest half of tests/bench/lab-deadlock-a2a: MinHop on one VL, all-to-all
# (each datagram to a random other host), default lossless buffers, on a
# ring of 6 and a 4x4 torus with two hosts a switch; per run a fresh lab,
# one traffic run, then lab waits. Beside it ftsw sim, given the lab's
# rate, frame and buffers, over as many seeds: how often each deadlocks.
. "$FTSW_TOP/tests/selftests/lib.sh"
. "$FTSW_TOP/tests/selftests/lab-lib.sh"
runs=${FTSW_A2A_RUNS:-5}
ftsw_load || { echo "insmod ftsw.ko failed"; exit 1; }
out=$(mktemp -d /tmp/a2a.XXXXXX)
rc=0
for spec in "torus:6,hosts=2 4000" "torus:4,4,hosts=2 20000"; do
	set -- $spec
	topo=$1 ms=$2 lab_n=0 sim_n=0
	for ((r = 1; r <= runs; r++)); do
		"$FTSW" lab up --name "$LAB" -t "$topo" -a minhop --lossless \
			--rate 100kbit --hoq-life 20 --switch-life 20 >/dev/null ||
			{ echo "$topo: lab up failed"; rc=1; break; }
		"$FTSW" lab traffic --name "$LAB" -p a2a --random-dst --pps 400 \
			--duration "$ms" >/dev/null 2>&1
		sleep 1
		"$FTSW" -j lab waits --name "$LAB" --min-wait 500 >"$out/w.json"
		if [ $? = 3 ] && "$PY" -c '
import json, sys
c = json.load(open(sys.argv[1]))["cycles"][0]
assert c["cdg_cycle"] == "yes" and all(b["vl"] == 0 for b in c["cycle"])
print("  lab run: cycle of switches", [b["switch"] for b in c["cycle"]])' "$out/w.json"
		then
			lab_n=$((lab_n + 1))
		fi
		"$FTSW" lab down --name "$LAB" >/dev/null
		"$FTSW" -j sim -t "$topo" -a minhop -p a2a --load 1.0 --seed "$r" \
			--warmup 0 --measure 20000 --rate 100kbit --frame-bytes 1472 \
			--buffer-bytes 6144 --message 1 --threads 1 >/dev/null 2>&1
		[ $? = 3 ] && sim_n=$((sim_n + 1))
	done
	echo "$topo, a2a for $((ms / 1000)) s: the lab deadlocked in $lab_n of $runs runs, ftsw sim in $sim_n of $runs seeds"
done
rm -rf "$out"
ftsw_unload
exit $rc
