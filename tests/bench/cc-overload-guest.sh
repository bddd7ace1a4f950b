#!/usr/bin/env bash
# Guest side of tests/bench/lab-cc-overload (root in the debug VM; TAP):
# minutes of overload of a lossless FT(4,3) with congestion control and
# adaptive routing both on. No WARNING, stall, leak or lockdep report;
# every buffer empty and every credit back afterwards; rmmod with full
# buffers, CC units and flowlets live.
#
# lab up -t ftmn:4,3 -a dmodk --lossless --adaptive --flowlet-gap 0 (per
# packet) --rate 100kbit --cc-timer-unit 102400, then CC in band from h0
# (tests/bench/ccconf.py: tests/bench/congestion.conf's settings, the MADs
# OpenSM's CC manager sends; lab up's --sm and --adaptive exclude each
# other, so no OpenSM here). Traffic: an incast (h3, h6, h9, h12 -> h0)
# and a random permutation of all 16 hosts (seed FTSW_CC_SEED, 1) in one
# lab traffic, FTSW_OVERLOAD_PPS (400) datagrams/s in all: each host
# offers ~3 times its link. Every 15 s the fabric's counters: frames
# delivered to hosts must grow in every interval (no stall) and a CC Get
# of a switch and a CA must be answered under the load. Then:
#   - marks, notifications, BECNs, held packets and diversions all > 0;
#   - within 60 s every VL buffer and queue is empty and every link port
#     has its far buffer's whole credit back;
#   - 10 s of the same traffic, and rmmod at once with the lab up;
#   - reload, lab down, nothing left; the console clean (the VM's
#     kmemleak scan at the end fails the run on a leak).
. "$FTSW_TOP/tests/selftests/lib.sh"
. "$FTSW_TOP/tests/selftests/lab-lib.sh"

SECS=${FTSW_OVERLOAD_S:-300}
PPS=${FTSW_OVERLOAD_PPS:-400}
SEED=${FTSW_CC_SEED:-1}
OUT=$(mktemp -d /tmp/ccov.XXXXXX)

fab() { nsenter --net="/run/netns/$LAB" "$FTSW" "$@"; }
h0() { ip netns exec "$LAB-h0" "$@"; }

tap_plan 9
tap_check "insmod ftsw.ko" ftsw_load
N0=$(dmesg | wc -l)

up() {
	lab lab up --name "$LAB" -t ftmn:4,3 -a dmodk --lossless --adaptive \
		--rate 100kbit --cc-timer-unit 102400 >/dev/null || return 1
	fab -j switch show >"$OUT/sw.json" && fab -j port show >"$OUT/ports.json" &&
		"$PY" - "$OUT" <<'PYEOF'
import json, sys
out = sys.argv[1]
sw = [s["lid"] for s in json.load(open(out + "/sw.json"))["switches"] if s.get("lid")]
ca = sorted(p["lid"] for p in json.load(open(out + "/ports.json"))["ports"]
            if p["kind"] == "edge" and p.get("lid"))
open(out + "/sw", "w").write(",".join(map(str, sw)))
open(out + "/ca", "w").write(",".join(map(str, ca)))
print("%d switch LIDs, %d CA LIDs" % (len(sw), len(ca)))
assert len(sw) == 20 and len(ca) == 16
PYEOF
}
ccconf() { h0 "$PY" "$FTSW_TOP/tests/bench/ccconf.py" "$@" "$(cat "$OUT/sw")" "$(cat "$OUT/ca")"; }
setup() { up && ccconf; }
tap_check "FT(4,3) lossless, adaptive, CC in band on every switch and CA" setup

# the pattern: incast into h0 and a random permutation
"$PY" - "$SEED" >"$OUT/pat" <<'PYEOF'
import random, sys
r = random.Random(int(sys.argv[1]))
p = list(range(16))
r.shuffle(p)
for s, d in enumerate(p):
    if s != d:
        print(s, d)
for s in (3, 6, 9, 12):
    print(s, 0)
PYEOF

sample() { fab -j -s port show >"$OUT/s$1.json"; }
delivered() {	# frames the edge ports gave their hosts, in sample $1
	"$PY" -c '
import json, sys
print(sum(p["stats"]["tx_packets"] for p in json.load(open(sys.argv[1]))["ports"]
          if p["kind"] == "edge"))' "$OUT/s$1.json"
}
overload() {
	local i=0 last now t end pid rc=0
	sample 0 || return 1
	last=$(delivered 0)
	lab -j lab traffic --name "$LAB" -p "file:$OUT/pat" --pps "$PPS" \
		--size 1420 --duration $((SECS * 1000)) >"$OUT/tr.json" 2>"$OUT/tr.err" &
	pid=$!
	while sleep 15 && pid_running $pid; do
		i=$((i + 1))
		sample $i || { rc=1; break; }
		now=$(delivered $i)
		echo "t+$((i * 15)) s: $((now - last)) frames delivered"
		[ "$now" -gt "$last" ] || { echo "stalled"; rc=1; }
		last=$now
		if [ $((i % 4)) = 1 ]; then
			ccconf --get || { echo "CC Get not answered under load"; rc=1; }
		fi
	done
	# status 1: the ports' counters differ from the static routes' model
	# (adaptive routing diverts): expected here
	wait $pid
	case $? in
	0 | 1) ;;
	*) echo "lab traffic failed"; cat "$OUT/tr.err"; rc=1 ;;
	esac
	"$PY" -c '
import json, sys
t = json.load(open(sys.argv[1]))
print("lab traffic: %d datagrams sent, %d lost" % (t["sent"], t["lost"]))' "$OUT/tr.json" || rc=1
	sample end || rc=1
	return $rc
}
tap_check "${SECS} s of incast + permutation with CC and AR: delivering all along" overload

counters() {
	"$PY" - "$OUT" <<'PYEOF'
import json, sys
out = sys.argv[1]
a = {(p["switch"], p["port"]): p for p in json.load(open(out + "/s0.json"))["ports"]}
b = json.load(open(out + "/send.json"))["ports"]
tr = json.load(open(out + "/tr.json"))
def tot(f):
    return sum(p["stats"].get(f, 0) - a[(p["switch"], p["port"])]["stats"].get(f, 0)
               for p in b)
c = {f: tot(f) for f in ("cc_fecn", "cc_cnp", "cc_becn", "cc_held",
                         "ar_diverted", "out_of_order")}
print("sent %d, lost %d; %s" % (tr["sent"], tr["lost"],
      ", ".join("%s %d" % kv for kv in c.items())))
assert tr["sent"] > tr["lost"]
assert all(c[f] > 0 for f in ("cc_fecn", "cc_cnp", "cc_becn", "cc_held",
                              "ar_diverted"))
PYEOF
}
tap_check "marks, notifications, BECNs, held packets and AR diversions" counters

drained() {
	local i
	for i in $(seq 60); do
		fab -j -s port show >"$OUT/p.json" || return 1
		"$PY" - "$OUT/p.json" <<'PYEOF' && return 0
import json, sys
d = json.load(open(sys.argv[1]))["ports"]
held = sum(v["in_bytes"] + v["out_bytes"] for p in d
           for v in p.get("lossless", {}).get("vls", []))
bad = [((p["switch"], p["port"]), v["vl"], v["credits"]) for p in d
       if p["kind"] == "link" for v in p["lossless"]["vls"]
       if v["vl"] == 0 and v["credits"] != p["lossless"]["in_buffer"] // 64]
print("%d bytes held, %d link ports short of credit" % (held, len(bad)))
sys.exit(held != 0 or bad != [])
PYEOF
		sleep 1
	done
	return 1
}
tap_check "drained: every buffer empty, every credit back" drained

rmmod_loaded() {
	local pid rc=0
	lab -j lab traffic --name "$LAB" -p "file:$OUT/pat" --pps "$PPS" \
		--size 1420 --duration 10000 >/dev/null 2>&1 &
	pid=$!
	sleep 8
	fab -j -s port show >"$OUT/pr.json" || rc=1
	"$PY" -c '
import json, sys
d = json.load(open(sys.argv[1]))["ports"]
print(sum(1 for p in d for v in p.get("lossless", {}).get("vls", [])
          if v["in_bytes"] + v["out_bytes"] > 0), "VL buffers and queues hold frames; rmmod")' "$OUT/pr.json"
	timeout 120 rmmod ftsw || rc=1
	kill $pid 2>/dev/null
	wait $pid 2>/dev/null
	return $rc
}
tap_check "rmmod under load (CC units, flowlets, full buffers)" rmmod_loaded
tap_check "the lab comes down after a reload" lab_reload_down
tap_check "the console stays clean (no WARNING, BUG, lockdep, KASAN, stall)" dmesg_clean "$N0"
tap_check "rmmod ftsw" ftsw_unload
rm -rf "$OUT"
tap_done
