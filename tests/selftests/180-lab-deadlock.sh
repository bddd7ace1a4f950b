#!/usr/bin/env bash
# (lab, lossless) deadlock with real packets, and its end by lifetimes.
#
# A ring of 6 switches (torus:6, one host each) and a 4x4 torus
# (torus:4,4), routed by MinHop on one VL (every SL 0), in lossless mode
# at 100 kbit/s per port (8.5 frames of 1472 bytes a second) with
# infinite lifetimes (--hoq-life 20 --switch-life 20: IBA's 20..31), input
# buffers of one frame (1536 bytes: 24 credit blocks, a frame is 23) and
# output queues of eight (12288 bytes).
#
# The traffic loads a cycle of MinHop's channel dependency graph, each
# flow two hops around it: on the ring, host i to host i + 2 (shift:2;
# two hops one way, four the other, so MinHop has no choice: i, i + 1,
# i + 2); on the torus, column 2 (switches 2, 6, 10, 14 = x + 4y), each
# host to the one two rows down (2 -> 10, 6 -> 14, 10 -> 2, 14 -> 6: two
# hops either way; MinHop's ties send all four the +y way, checked here
# path by path with analyze --trace). Hosts offer 400 datagrams/s in all,
# far more than a link carries.
#
# Why the cycle forms every time, not by luck (Documentation/datapath.md,
# "Deadlock on a cycle"): every packet a host puts into its ring output
# is transit at the next switch; the only packets that can leave the
# cycle there are those the output took from its own ring input, and they
# queue behind the host's. Each output queue is full of its host's
# packets before the first frame has crossed the link (the ring input is
# empty at the start, the host is fast), so the first frames each
# one-frame input buffer receives are transit packets for the next
# output, which is full. Every free place in the cycle's input buffers
# moves one switch back per frame sent; round robin between the host's
# and the ring's input hands every second one to a host, which fills it
# with transit. The free places die out in a few frames per link, long
# before a packet for delivery (eight frames behind the host's in each
# queue) reaches the head of an input buffer: every input buffer of the
# cycle then holds a transit head waiting for a full output queue whose
# far buffer is full. With input buffers as large as the output queues
# (the defaults, 4 frames each) packets for delivery keep reaching the
# heads and the cycle forms in some runs only.
#
# Expected: `lab waits` names the cycle (exit status 3) in the first
# traffic run, its buffers are consecutive switches of the ring (0..5
# each once, every step +1 mod 6) or of column 2 (2, 6, 10, 14, every
# step +4 mod 16), checked here from the switches' numbers independently
# of ftsw's check; ftsw's own CDG check (ftsw_sim_cycle_check) agrees
# ("cdg_cycle": "yes"); route check finds VL 0 cyclic; the cycle's ports
# send nothing over two seconds. Then the switch lifetime is set to
# 4.096 us * 2^8 (1 ms) on every switch: the heads are discarded, the
# cycle is gone within the timeout, and the discards are counted (per VL,
# and as the fabric's switch_life/hoq_life drops, the same total).
# FTSW_DEADLOCK_RUNS=N (default 1; tests/bench/lab-deadlock: 10) repeats
# traffic, cycle and lifetimes N times per lab, the fabric emptied and
# lifetimes infinite again between runs: the cycle must form in all N.
#
# DFSSSP on the same labs puts its layers on VLs (SL = layer, VL = SL):
# every VL's CDG is acyclic (route check), so no cycle can form. With the
# same buffers, infinite lifetimes, the same traffic at 400 datagrams/s
# and all-to-all at 100, after each load the buffers empty or keep
# sending (packets leave the switches in each of four 2-s samples while any
# is held: a stopped cycle sends nothing in one, as the MinHop half shows)
# and lab waits finds no cycle.
. "$(dirname "$0")/lib.sh"
. "$(dirname "$0")/lab-lib.sh"

RUNS=${FTSW_DEADLOCK_RUNS:-1}
LL=(--lossless --rate 100kbit --in-buffer 1536 --out-buffer 12288
    --hoq-life 20 --switch-life 20)
tap_plan 9
tap_check "insmod ftsw.ko" ftsw_load

fab() { nsenter --net="/run/netns/$LAB" "$FTSW" "$@"; }
OUT=$(mktemp -d /tmp/dl.XXXXXX)
# column 2 of the 4x4 torus, each host to the one two rows down
printf '2 10\n6 14\n10 2\n14 6\n' >"$OUT/col2"

# pattern TOPO: the lab traffic pattern that loads the cycle
pattern() { [ "$1" = torus:6 ] && echo shift:2 || echo "file:$OUT/col2"; }

# paths_ok TOPO: MinHop takes each flow two hops around the cycle (by hand:
# i, i + 1, i + 2 mod 6 on the ring; s, s + 4, s + 8 mod 16 on the torus)
paths_ok() {
	local topo=$1 s n step srcs
	if [ "$topo" = torus:6 ]; then
		n=6 step=1 srcs="0 1 2 3 4 5"
	else
		n=16 step=4 srcs="2 6 10 14"
	fi
	for s in $srcs; do
		"$FTSW" -j analyze -t "$topo" -a minhop --trace "$s:$(((s + 2 * step) % n))" ||
			return 1
	done | "$PY" -c '
import json, sys
step, n, srcs = int(sys.argv[1]), int(sys.argv[2]), sys.argv[3].split()
traces = [json.loads(line) for line in sys.stdin]
assert [t["src"] for t in traces] == [int(s) for s in srcs], traces
for t in traces:
    s = t["src"]
    sw = [h["switch"] for h in t["hops"]]
    want = [s, (s + step) % n, (s + 2 * step) % n]
    assert t["status"] == "delivered" and t["sl"] == 0 and sw == want, (sw, want)' \
		"$step" "$n" "$srcs"
}

# deadlock PATTERN: a cycle forms in one traffic run and lab waits names
# it (JSON in $OUT/w.json)
deadlock() {
	lab lab traffic --name "$LAB" -p "$1" --pps 400 --duration 3000 \
		>/dev/null 2>&1
	sleep 1
	lab -j lab waits --name "$LAB" --min-wait 500 >"$OUT/w.json"
	[ $? = 3 ] || { echo "no cycle:"; cat "$OUT/w.json"; return 1; }
}

# cycle_ok KIND: the named cycle, checked by hand rules (ring6 or col2)
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
# listed from the lowest buffer in cable order: the flows' way round
assert sw == ([0, 1, 2, 3, 4, 5] if kind == "ring6" else [2, 6, 10, 14]), sw
# full buffers, heads waiting
assert all(b["bytes"] > 0 and b["waited_ms"] >= 500 for b in c["cycle"]), c
print("cycle of %d buffers: switches %s" % (len(sw), sw))
EOF
}

# The cycle's output ports' tx counters, one line "S:P N" each.
cycle_tx() {
	fab -j -s port show | "$PY" -c '
import json, sys
ports = {(p["switch"], p["port"]): p["stats"]["tx_packets"] for p in json.load(sys.stdin)["ports"]}
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

# set_life V: the switch lifetime of every switch of the lab
set_life() {
	fab -j switch show | "$PY" -c '
import json, sys
for s in json.load(sys.stdin)["switches"]:
    print("switch set id %d life %s" % (s["id"], sys.argv[1]))' "$1" | fab -batch -
}

# lifetimes end it: 1 ms switch lifetime everywhere, the cycle drains
lifetimes_end_it() {
	local i rc=1
	set_life 8 || return 1
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

# buffered_tx: "E T": E 1 when every VL buffer is empty, T the packets
# every switch port has sent
buffered_tx() {
	fab -j -s port show | "$PY" -c '
import json, sys
ps = json.load(sys.stdin)["ports"]
empty = not any(v["in_bytes"] or v["out_bytes"] for p in ps
                for v in p.get("lossless", {}).get("vls", []))
print(int(empty), sum(p["stats"]["tx_packets"] for p in ps))'
}

# fresh: (between runs) 1 ms lifetimes until every buffer is empty (the
# hosts' backlog discarded on the way), then infinite lifetimes again
fresh() {
	local i e t
	set_life 8 || return 1
	for i in $(seq 60); do
		read -r e t < <(buffered_tx)
		[ "$e" = 1 ] && break
		sleep 1
	done
	[ "$e" = 1 ] || { echo "buffers not empty after 60 s"; return 1; }
	set_life 20
}

# lossless_deadlock TOPO KIND: the whole story on one lab, RUNS times
lossless_deadlock() {
	local topo=$1 kind=$2 r formed=0 rc=0
	lab lab up --name "$LAB" -t "$topo" -a minhop "${LL[@]}" >/dev/null || return 1
	"$FTSW" -j route check -t "$topo" -a minhop | "$PY" -c '
import json, sys
assert json.load(sys.stdin)["check"]["cdg_cyclic_vls"] == 1' ||
		{ echo "route check does not find MinHop's VL 0 cyclic"; rc=1; }
	paths_ok "$topo" || rc=1
	for ((r = 1; r <= RUNS && rc == 0; r++)); do
		[ "$r" = 1 ] || fresh || { rc=1; break; }
		if deadlock "$(pattern "$topo")" && cycle_ok "$kind" &&
		   no_progress && lifetimes_end_it; then
			formed=$((formed + 1))
		fi
	done
	echo "$topo: the cycle formed, stood still and ended by lifetimes in $formed of $RUNS runs"
	[ "$formed" = "$RUNS" ] || rc=1
	lab lab down --name "$LAB" >/dev/null
	return $rc
}

# never_stops TOPO: DFSSSP on its VLs, the same buffers, two loads (the
# MinHop half's traffic, then all-to-all at 100/s): after each, the
# buffers empty, or while they hold packets the fabric keeps sending them
# (an edge port may hold what its host pushed before it was stopped: up
# to 2 MiB, minutes at 100 kbit/s), and never a cycle
never_stops() {
	local topo=$1 load pat pps i rc=0 e t last=-1 ok
	lab lab up --name "$LAB" -t "$topo" -a dfsssp "${LL[@]}" >/dev/null || return 1
	for load in "$(pattern "$topo") 400" "a2a 100"; do
		read -r pat pps <<<"$load"
		lab lab traffic --name "$LAB" -p "$pat" --pps "$pps" --duration 3000 \
			>/dev/null 2>&1
		ok=0
		for i in $(seq 4); do
			sleep 2
			read -r e t < <(buffered_tx) || { rc=1; break; }
			[ "$e" = 1 ] && { ok=1; break; }
			[ "$t" = "$last" ] && { echo "$topo, $load/s: stopped with full buffers"; break; }
			last=$t ok=1
		done
		[ $ok = 1 ] || rc=1
		lab -j lab waits --name "$LAB" --min-wait 0 >"$OUT/w.json" ||
			{ echo "a cycle"; cat "$OUT/w.json"; rc=1; }
	done
	lab lab down --name "$LAB" >/dev/null
	return $rc
}

tap_check "ring of 6, MinHop, one VL, shift:2: a cycle of full buffers in the first run, a CDG cycle, consecutive ring switches; no progress; lifetimes end it, discards counted" \
	lossless_deadlock torus:6 ring6
tap_check "4x4 torus, MinHop, one VL, column 2 two rows down: a cycle of its 4 switches in the first run, a CDG cycle; no progress; lifetimes end it, discards counted" \
	lossless_deadlock torus:4,4 col2
# a2a_ring: all-to-all on the ring with two hosts a switch and the default
# buffers (four frames in and out): each message to a random other host.
# ftsw sim, given the lab's rate, frame and buffers (--rate 100kbit
# --frame-bytes 1472 --buffer-bytes 6144 -p a2a --message 1), deadlocks
# this ring in 10 of 10 seeds within 100-350 messages; with one host a
# switch in none of 10 (so the test above loads the cycle itself). The
# cycle may form either way round: six buffers, one per switch, each
# switch's neighbour next, VL 0, a CDG cycle.
a2a_ring() {
	local rc=0
	lab lab up --name "$LAB" -t torus:6,hosts=2 -a minhop --lossless \
		--rate 100kbit --hoq-life 20 --switch-life 20 >/dev/null || return 1
	lab lab traffic --name "$LAB" -p a2a --random-dst --pps 400 \
		--duration 4000 >/dev/null 2>&1
	sleep 1
	lab -j lab waits --name "$LAB" --min-wait 500 >"$OUT/w.json"
	if [ $? != 3 ]; then
		echo "no cycle:"; cat "$OUT/w.json"; rc=1
	else
		"$PY" - "$OUT/w.json" <<'EOF2' || rc=1
import json, sys
d = json.load(open(sys.argv[1]))
c = d["cycles"][0]
assert c["cdg_cycle"] == "yes", c
sw = [b["switch"] for b in c["cycle"]]
assert all(b["vl"] == 0 for b in c["cycle"]), c
steps = {(b - a) % 6 for a, b in zip(sw, sw[1:] + sw[:1])}
assert sorted(sw) == list(range(6)) and steps in ({1}, {5}), sw
print("cycle of %d buffers: switches %s" % (len(sw), sw))
EOF2
	fi
	lab lab down --name "$LAB" >/dev/null
	return $rc
}
tap_check "ring of 6 with two hosts a switch, MinHop, one VL, all-to-all, default buffers: a cycle of the six ring buffers, a CDG cycle" a2a_ring
tap_check "ring of 6, DFSSSP on its VLs, the same buffers, infinite lifetimes: shift:2 and a2a, the buffers drain or keep moving, no cycle" never_stops torus:6
tap_check "4x4 torus, DFSSSP on its VLs, the same buffers, infinite lifetimes: column 2 and a2a, the buffers drain or keep moving, no cycle" never_stops torus:4,4
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
