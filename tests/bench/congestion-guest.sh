#!/usr/bin/env bash
# Guest side of tests/bench/congestion (root in the test VM): OUT RATE BUF
# UNIT SHORT_MS CC_MS. One lossless FT(4,3) lab under OpenSM routed by
# OpenSM's file engine from OUT/dmodk.dump (ftsw's d-mod-k, so the tree
# and the victim share what they share in the simulator), lifetimes off
# (OUT/nocc.conf). Three runs of lab traffic -j: the victim alone
# (OUT/victim.pat, SHORT_MS), the tree without congestion control
# (OUT/tree.pat, SHORT_MS), then OpenSM restarted with OUT/cc.conf (the
# lifetimes + tests/bench/congestion.conf) and, once a CA's
# CACongestionSetting reads as the file says, the tree with congestion
# control (CC_MS). Around each run the fabric's counters (-s port show -j:
# OUT/ports-RUN-{0,1}.json), after it lab status -j (OUT/status-RUN.json);
# ibccquery's answers in OUT/ibcc-*.txt, OpenSM's dumps and logs, the
# kernel's fabric settings (OUT/fabric.json).
set -euo pipefail
out=$1 rate=$2 buf=$3 unit=$4 short=$5 long=$6
insmod "$FTSW_KMOD/ftsw.ko"
export FTSW_LAB=cc
run=/run/ftsw/$FTSW_LAB
fab() { ip netns exec "$FTSW_LAB" "$FTSW" "$@"; }
smargs=(--sm-engine file --sm-args "-U $out/dmodk.dump -D 0x43" --sm-timeout 900)
t0=$(date +%s)
"$FTSW" lab up -t ftmn:4,3 --lossless --rate "$rate" --in-buffer "$buf" \
	--out-buffer "$buf" --hoq-life 20 --switch-life 20 \
	--cc-timer-unit "$unit" --sm opensm --sm-conf "$out/nocc.conf" "${smargs[@]}"
echo "congestion: lab up (OpenSM, file engine) in $(( $(date +%s) - t0 )) s"
cp "$run/opensm-lfts.dump" "$out/lab-lfts.dump"
grep -E "tables configured|ERR" "$run/opensm.log" | head -5 >"$out/routing.txt" || true
fab -j fabric show >"$out/fabric.json"

traffic() {	# NAME PATTERN MS
	fab -j -s port show >"$out/ports-$1-0.json"
	"$FTSW" -j lab traffic -p "file:$out/$2" --size 1420 --duration "$3" \
		>"$out/lab-$1.json" || true
	fab -j -s port show >"$out/ports-$1-1.json"
	"$FTSW" -j lab status >"$out/status-$1.json" || true
	echo "congestion: $1 done at $(( $(date +%s) - t0 )) s"
}
traffic alone victim.pat "$short"
traffic nocc tree.pat "$short"
cp "$run/opensm.log" "$out/opensm-nocc.log"

"$FTSW" lab sm restart --sm-conf "$out/cc.conf" "${smargs[@]}"
echo "congestion: OpenSM restarted with congestion control at $(( $(date +%s) - t0 )) s"
# LIDs: h6's CA (its edge port "H6"), h0's leaf (switch 0), a top switch
ca=$(fab -j port show | python3 -c 'import json, sys
print([p["lid"] for p in json.load(sys.stdin)["ports"] if p.get("desc") == "H6"][0])')
read -r leaf top < <(fab -j switch show | python3 -c 'import json, sys
s = {x["id"]: x["lid"] for x in json.load(sys.stdin)["switches"]}
print(s[0], s[max(s)])')
# OpenSM sends the CC settings after SUBNET UP: wait for the CA's
for _ in $(seq 1 30); do
	timeout 120 "$FTSW" lab ib h0 -- ibccquery CS "$ca" >"$out/ibcc-cs.txt" 2>&1 || true
	grep -q '^Control_Map:\.*0x0001$' "$out/ibcc-cs.txt" && break
	sleep 5
done
timeout 300 "$FTSW" lab ib h0 -- sh -c "
	ibccquery SS $top >$out/ibcc-ss.txt 2>&1
	ibccquery CT $ca >$out/ibcc-ct.txt 2>&1" || true
echo "congestion: ibccquery done at $(( $(date +%s) - t0 )) s"
traffic cc tree.pat "$long"
timeout 120 "$FTSW" lab ib h0 -- ibccquery CL "$leaf" >"$out/ibcc-cl.txt" 2>&1 || true
cp "$run/opensm.log" "$out/opensm-cc.log"
"$FTSW" lab down
rmmod ftsw
