#!/usr/bin/env bash
# (lab, lossless) deadlock with real packets, and its end by lifetimes.
#
# A ring of 6 switches (torus:6, one host each) and a 4x4 torus
# (torus:4,4), routed by MinHop on one VL (every SL 0), in lossless mode
# (lab up --lossless) at 100 kbit/s per port with infinite lifetimes
# (--hoq-life 20 --switch-life 20: IBA's 20..31), under all-to-all traffic
# (lab traffic -p a2a, every pair in one stage, 400 datagrams/s in all,
# far above what the links carry: 100 kbit/s is 8.5 frames of 1472 bytes
# per second per link; the 4x4 torus's 64 directed links carry 400 x 2
# hops / 64 = 12.5 a second on average, the ring's 12 links 50).
#
# Expected, by hand: MinHop's paths of two hops on a ring of 6 (host i to
# i + 2, and i - 2) make every dependency between consecutive ring links in
# both directions (route check: the CDG of VL 0 is cyclic), so buffers full
# of packets for the next switch can wait on each other around the ring.
# Once such a cycle has formed it never drains: `lab waits` names it (exit
# status 3), its buffers are consecutive switches of the ring (0..5 each
# once, every step +1 or every step -1 mod 6: checked here from the
# switches' numbers, independently of ftsw's check), on the 4x4 torus
# consecutive switches are grid neighbours (x + 4y, one coordinate +-1 mod
# 4), ftsw's own CDG check (ftsw_sim_cycle_check) agrees ("cdg_cycle":
# "yes"), and the ports of the cycle send nothing over two seconds. Then
# the switch lifetime is set to 4.096 us * 2^8 (1 ms) on every switch: the
# heads are discarded, the cycle is gone within the timeout, and the
# discards are counted (per VL, and as the fabric's switch_life/hoq_life
# drops, the same total).
#
# DFSSSP on the same labs puts its layers on VLs (SL = layer, VL = SL):
# every VL's CDG is acyclic (route check), so no cycle can form: after two
# loads (400 and 100 datagrams/s), with infinite lifetimes too (nothing
# can end a deadlock but draining), the buffers empty or keep sending
# (packets leave the switches every 2 s while any is held) and lab waits
# finds no cycle. A deadlock may need a few tries to form (the ring's
# buffers must fill in one direction): up to FTSW_DEADLOCK_TRIES (3)
# traffic runs, each 3 s.
#
# The MinHop half runs only with FTSW_DEADLOCK_MINHOP=1, as
# tests/bench/lab-deadlock does (make bench-deadlock): since the switches
# serve competing inputs round robin (as IB switches do; before, the lowest
# input port, the host's, always won, and the ring's buffers filled at
# once), these loads at 100 kbit/s move only about 25 frames per link in a
# run, and the cycle forms in some runs only: a check that passes by luck
# is no test. make check runs the DFSSSP half, which must never stop.
. "$(dirname "$0")/lib.sh"
. "$(dirname "$0")/lab-lib.sh"

MINHOP=${FTSW_DEADLOCK_MINHOP:-0}
TRIES=${FTSW_DEADLOCK_TRIES:-3}
tap_plan $([ "$MINHOP" = 1 ] && echo 8 || echo 6)
tap_check "insmod ftsw.ko" ftsw_load

fab() { ip netns exec "$LAB" "$FTSW" "$@"; }
OUT=$(mktemp -d /tmp/dl.XXXXXX)

# deadlock TOPO: a cycle forms and lab waits names it (JSON in $OUT/w.json)
deadlock() {
	local topo=$1
	lab lab up --name "$LAB" -t "$topo" -a minhop --lossless --rate 100kbit \
		--hoq-life 20 --switch-life 20 >/dev/null || return 1
	"$FTSW" -j route check -t "$topo" -a minhop | "$PY" -c '
import json, sys
assert json.load(sys.stdin)["check"]["cdg_cyclic_vls"] == 1' ||
		{ echo "route check does not find MinHop's VL 0 cyclic"; return 1; }
	for _ in $(seq "$TRIES"); do
		lab lab traffic --name "$LAB" -p a2a --pps 400 --duration 3000 \
			>/dev/null 2>&1
		sleep 1
		lab -j lab waits --name "$LAB" --min-wait 500 >"$OUT/w.json"
		[ $? = 3 ] && return 0
	done
	echo "no cycle after $TRIES runs:"; cat "$OUT/w.json"
	return 1
}

# cycle_ok KIND: the named cycle, checked by hand rules (ring6 or torus44)
cycle_ok() {
	"$PY" - "$OUT/w.json" "$1" <<'EOF'
import json, sys
d = json.load(open(sys.argv[1]))
kind = sys.argv[2]
assert d["lossless"] and d["cycles"], d
c = d["cycles"][0]
assert c["cdg_cycle"] == "yes", c
sw = [b["switch"] for b in c["cycle"]]
assert all(b["vl"] == 0 for b in c["cycle"]), c
n = len(sw)
if kind == "ring6":
    assert sorted(sw) == list(range(6)), sw
    steps = {(sw[(k + 1) % n] - sw[k]) % 6 for k in range(n)}
    assert steps in ({1}, {5}), sw
else:
    assert n >= 4 and len(set(sw)) == n, sw
    for k in range(n):
        a, b = sw[k], sw[(k + 1) % n]
        dx, dy = (b % 4 - a % 4) % 4, (b // 4 - a // 4) % 4
        assert (dx in (1, 3) and dy == 0) or (dy in (1, 3) and dx == 0), (a, b)
# full buffers, heads waiting
assert all(b["bytes"] > 0 and b["waited_ms"] >= 500 for b in c["cycle"]), c
print("cycle of %d buffers: switches %s" % (n, sw))
EOF
}

# The cycle's output ports' tx counters, one line "S:P N" each.
cycle_tx() {
	fab -j -s port show | "$PY" -c '
import json, sys
ports = {(p["switch"], p["port"]): p["stats"]["tx_packets"] for p in json.load(sys.stdin)}
c = json.load(open(sys.argv[1]))["cycles"][0]["cycle"]
for b in c:
    print("%d:%d %d" % (b["switch"], b["out_port"], ports[(b["switch"], b["out_port"])]))
' "$OUT/w.json"
}

no_progress() {
	local a b
	a=$(cycle_tx) || return 1
	sleep 2
	b=$(cycle_tx) || return 1
	[ -n "$a" ] && [ "$a" = "$b" ] || { echo "moved: $a / $b"; return 1; }
}

# lifetimes end it: 1 ms switch lifetime everywhere, the cycle drains
lifetimes_end_it() {
	local n i rc=1
	n=$(fab -j switch show | "$PY" -c 'import json,sys; print(len(json.load(sys.stdin)))')
	for ((i = 0; i < n; i++)); do fab switch set id "$i" life 8 || return 1; done
	for i in $(seq 30); do
		sleep 1
		lab -j lab waits --name "$LAB" --min-wait 200 >"$OUT/after.json" && { rc=0; break; }
	done
	[ $rc = 0 ] || { echo "still a cycle after 30 s"; cat "$OUT/after.json"; return 1; }
	fab -j fabric show >"$OUT/fabric.json"
	"$PY" - "$OUT/after.json" "$OUT/fabric.json" <<'EOF'
import json, sys
w = json.load(open(sys.argv[1]))
f = json.load(open(sys.argv[2]))
vl = w["life_discards"] + w["hoq_discards"]
fab = f["drops"]["switch_life"] + f["drops"]["hoq_life"]
assert vl > 0, w
assert vl == fab, (vl, fab)
print("%d lifetime discards (per VL and fabric drops agree)" % vl)
EOF
}

# lossless_deadlock TOPO KIND: the whole story on one lab
lossless_deadlock() {
	local rc=1
	deadlock "$1" && cycle_ok "$2" && no_progress && lifetimes_end_it && rc=0
	lab lab down --name "$LAB" >/dev/null
	return $rc
}

# buffered_tx: "E T": E 1 when every VL buffer is empty, T the packets
# every switch port has sent
buffered_tx() {
	fab -j -s port show | "$PY" -c '
import json, sys
ps = json.load(sys.stdin)
empty = not any(v["in_bytes"] or v["out_bytes"] for p in ps
                for v in p.get("lossless", {}).get("vls", []))
print(int(empty), sum(p["stats"]["tx_packets"] for p in ps))'
}

# never_stops TOPO: DFSSSP on its VLs, two loads: after each, the buffers
# empty, or while they hold packets the fabric keeps sending them (an
# edge port may hold what its host pushed before it was stopped: up to
# 2 MiB, minutes at 100 kbit/s), and never a cycle
never_stops() {
	local topo=$1 pps i rc=0 e t last=-1 ok
	lab lab up --name "$LAB" -t "$topo" -a dfsssp --lossless --rate 100kbit \
		--hoq-life 20 --switch-life 20 >/dev/null || return 1
	for pps in 400 100; do
		lab lab traffic --name "$LAB" -p a2a --pps $pps --duration 3000 \
			>/dev/null 2>&1
		ok=0
		for i in $(seq 10); do
			sleep 2
			read -r e t < <(buffered_tx) || { rc=1; break; }
			[ "$e" = 1 ] && { ok=1; break; }
			[ "$t" = "$last" ] && { echo "$topo at $pps/s: stopped with full buffers"; break; }
			last=$t ok=1
		done
		[ $ok = 1 ] || rc=1
		lab -j lab waits --name "$LAB" --min-wait 0 >"$OUT/w.json" ||
			{ echo "a cycle"; cat "$OUT/w.json"; rc=1; }
	done
	lab lab down --name "$LAB" >/dev/null
	return $rc
}

if [ "$MINHOP" = 1 ]; then
	tap_check "ring of 6, MinHop, one VL: a cycle of full buffers, a CDG cycle, consecutive ring switches; no progress; lifetimes end it, discards counted" \
		lossless_deadlock torus:6 ring6
	tap_check "4x4 torus, MinHop, one VL: a cycle of grid neighbours, a CDG cycle; no progress; lifetimes end it, discards counted" \
		lossless_deadlock torus:4,4 torus44
fi
tap_check "ring of 6, DFSSSP on its VLs, infinite lifetimes: two loads, the buffers drain or keep moving, no cycle" never_stops torus:6
tap_check "4x4 torus, DFSSSP on its VLs, infinite lifetimes: two loads, the buffers drain or keep moving, no cycle" never_stops torus:4,4
acyclic() {
	local t
	for t in torus:6 torus:4,4; do
		"$FTSW" -j route check -t "$t" -a dfsssp | "$PY" -c '
import json, sys
c = json.load(sys.stdin)["check"]
assert c["ok"] and c["cdg_cyclic_vls"] == 0, c' || return 1
	done
}
tap_check "route check: DFSSSP's VLs are acyclic on both" acyclic
rm -rf "$OUT"
tap_check "nothing left behind" lab_gone
tap_check "rmmod ftsw" ftsw_unload
tap_done
