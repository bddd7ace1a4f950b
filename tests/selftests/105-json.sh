#!/usr/bin/env bash
# (lab 1b) every -j of the fabric, lab and fm commands is JSON: on a small
# lab (FT(4,2) read from a net file whose node names hold a backslash, a
# tab and a non-ASCII letter), each command's -j output parses as one JSON
# document (streams: one per line), never with NaN or Infinity, every
# document that is an object says which ftsw made it ("ftsw_version", as
# ftsw -j version has it), and the escaped names read back exactly as the
# net file spells them.
. "$(dirname "$0")/lib.sh"
. "$(dirname "$0")/lab-lib.sh"

tap_plan 12
tap_check "insmod ftsw.ko" ftsw_load

NET=$(mktemp /tmp/ftsw-json.XXXXXX.net)
trap 'rm -rf "$NET" "$NET.mon" "$NET.log" "${JQ:-}"' EXIT
# S1-0 (switch s0) and H0 (host h0) get names a hand-written printf would
# not escape: S1\0<e-acute><TAB>x and H\0.
SW_NAME=$(printf 'S1\\0\xc3\xa9\tx')
"$FTSW" topo gen ftmn:4,2 -o "$NET" &&
	"$PY" - "$NET" "$SW_NAME" <<'PYEOF'
import sys
t = open(sys.argv[1], encoding="utf-8").read()
t = t.replace('"S1-0"', '"%s"' % sys.argv[2]).replace('"H0"', '"H\\0"')
open(sys.argv[1], "w", encoding="utf-8").write(t)
PYEOF

# jcheck [--lines] [EXPR]: stdin is one JSON document d (--lines: every
# line is one, d the list of them) with no NaN/Infinity, every object
# document stamped with ftsw's version, satisfying EXPR.
VER=$("$FTSW" -j version | "$PY" -c 'import json, sys; print(json.load(sys.stdin)["version"])')
jcheck() {
	local lines=0
	[ "${1:-}" = --lines ] && { lines=1; shift; }
	"$PY" -c '
import json, sys
def bad(c):
    raise ValueError("non-finite number " + c)
t = sys.stdin.read()
if sys.argv[1] == "1":
    d = [json.loads(l, parse_constant=bad) for l in t.splitlines() if l.strip()]
    assert d, "no JSON lines"
else:
    d = json.loads(t, parse_constant=bad)
for x in d if sys.argv[1] == "1" else [d]:
    if isinstance(x, dict) and x.get("ftsw_version") != sys.argv[4]:
        print("JSON without ftsw_version", sys.argv[4], ":", t)
        sys.exit(1)
ok = eval("(" + sys.argv[2] + ")", {"d": d, "SW": sys.argv[3]})
if not ok:
    print("JSON fails", sys.argv[2], ":", t)
sys.exit(0 if ok else 1)' "$lines" "${1:-True}" "$SW_NAME" "$VER"
}

# j CMD...: the CLI's -j output of CMD, kept with $EXPR for jdone, which
# checks every document kept since the last jdone as jcheck does, in one
# Python (each start costs a second of the TCG guest).
JQ=$(mktemp -d /tmp/ftsw-jq.XXXXXX)
JN=0
jkeep() {
	JN=$((JN + 1))
	printf '%s\n' "${EXPR:-True}" >"$JQ/$JN.expr"
	printf '%s\n' "$*" >"$JQ/$JN.cmd"
}
j() { jkeep "$@"; lab -j "$@" >"$JQ/$JN.out"; return 0; }
# fj CMD...: the same in the lab's fabric namespace.
fj() { jkeep "$@"; nsenter --net="/run/netns/$LAB" "$FTSW" -j "$@" >"$JQ/$JN.out"; return 0; }
jdone() {
	local n=$JN
	JN=0
	"$PY" -c '
import json, sys
def bad(c):
    raise ValueError("non-finite number " + c)
q, n, sw, ver = sys.argv[1], int(sys.argv[2]), sys.argv[3], sys.argv[4]
fail = 0
for i in range(1, n + 1):
    cmd = open("%s/%d.cmd" % (q, i)).read().strip()
    expr = open("%s/%d.expr" % (q, i)).read().strip()
    t = open("%s/%d.out" % (q, i)).read()
    try:
        d = json.loads(t, parse_constant=bad)
        if isinstance(d, dict) and d.get("ftsw_version") != ver:
            raise ValueError("no ftsw_version " + ver)
        ok = eval("(" + expr + ")", {"d": d, "SW": sw})
    except Exception as e:
        ok = False
        print("%s: %r" % (cmd, e))
    if not ok:
        print("%s: JSON fails %s: %s" % (cmd, expr, t))
        fail = 1
sys.exit(fail)' "$JQ" "$n" "$SW_NAME" "$VER"
}

up() {
	lab -j lab up --name "$LAB" -t "$NET" |
		jcheck 'd["namespaces"] == 9 and d["links"] == 16 and d["lmc"] == 0'
}
tap_check "lab up -j (FT(4,2) from a net file)" up

lab_show() {
	EXPR='d["hosts"] == 8 and d["switches"] == 6 and d["ports"] == 24' j lab status &&
		EXPR='"'"$LAB"'" in d["labs"]' j lab list && jdone
}
tap_check "lab status -j, lab list -j" lab_show

lab_ping_trace() {
	EXPR='d["pairs"] == 56 and d["failed"] == 0 and d["failures"] == []' j lab ping -c 1 -W 3000 &&
		EXPR='d["pairs"] == 1 and d["ok"] == 1' j lab ping h0 h5 &&
		EXPR='d["src"] == 0 and d["dst"] == 3 and d["paths"][0]["confirmed"]' j lab trace h0 h3 -c 3 &&
		jdone
}
tap_check "lab ping -j (all, one pair), lab trace -j" lab_ping_trace

fabric_cmds() {
	EXPR='d["switches"] == 6 and "drops" in d' fj fabric show &&
		EXPR='len(d["switches"]) == 6 and d["switches"][0]["name"] == SW' fj switch show &&
		EXPR='len(d["switches"]) == 1' fj switch show id 0 &&
		EXPR='len(d["ports"]) == 24' fj port show &&
		EXPR='all("stats" in p for p in d["ports"])' fj -s port show switch 0 &&
		EXPR='d["switch"] == 0 and len(d["lft"]) > 0' fj lft show switch 0 &&
		EXPR='d["view"] == "staged"' fj lft show switch 0 staged &&
		EXPR='sorted(t["switch"] for t in d["switches"]) == list(range(6)) and all(len(t["lft"]) > 0 for t in d["switches"])' fj lft show &&
		EXPR='len(d["switches"]) == 6 and len(d["switches"][0]["sl2vl"]) == 16' fj sl2vl show &&
		EXPR='d["generation"] > 0' fj commit && jdone
}
tap_check "fabric, switch, port (-s), lft, sl2vl show -j, commit -j" fabric_cmds

traffic() {
	EXPR='d["exact"] and not d["lossless"]' j lab traffic -p shift --packets 1 --stages 2 &&
		EXPR='not d["lossless"] and d["cycles"] == [] and d["buffers"] == 0' \
			j lab waits && jdone
}
tap_check "lab traffic -j, lab waits -j (today's mode: no buffers)" traffic

monitor() {
	nsenter --net="/run/netns/$LAB" "$FTSW" -j monitor count 2 >"$NET.mon" &
	local pid=$! i
	# commits until the monitor has seen two (its subscription may start
	# late on a loaded TCG machine)
	for i in $(seq 40); do
		sleep 0.5
		kill -0 $pid 2>/dev/null || break
		nsenter --net="/run/netns/$LAB" "$FTSW" commit >/dev/null || break
	done
	wait $pid || return 1
	jcheck --lines 'len(d) == 2 and all(e["event"] == "commit" for e in d)' <"$NET.mon"
}
tap_check "monitor -j: one JSON document per event" monitor

fm_once() {
	lab -j fm --lab "$LAB" --once |
		jcheck --lines 'len(d) == 1 and d[0]["sweep"] == 1 and d[0]["unreachable_pairs"] == 0'
}
tap_check "fm --once -j: the sweep as a JSON line" fm_once

fm_daemon() {
	lab -j fm --lab "$LAB" -d --log "$NET.log" | jcheck 'd["pid"] > 0' || return 1
	EXPR='d["running"] and d["status"]["cables"] == 16' j fm status --lab "$LAB" && jdone
}
tap_check "fm -d -j, fm status -j" fm_daemon

fail_heal() {
	EXPR='d["count"] == 1 and d["changed"][0]["a"]["name"] == SW and d["changed"][0]["b"]["name"] == "H\\0"' \
		j lab fail link h0 s0 || return 1
	"$PY" - "$LAB" <<'EOF' || return 1
import json, sys, time
end = time.time() + 20
while time.time() < end:
    d = json.load(open("/run/ftsw/%s/fm.status" % sys.argv[1]))
    if d["sweeps"] >= 2:
        sys.exit(0)
    time.sleep(0.1)
sys.exit(1)
EOF
	EXPR='d["count"] == 1 and d["changed"][0]["state"] == "up"' j lab heal link h0 s0 &&
		EXPR='d["action"] == "chaos" and d["count"] == 1' j lab chaos --count 1 --seed 3 &&
		jdone
}
tap_check "lab fail/heal/chaos -j: names escaped and read back exactly; fm sweeps" fail_heal

fm_log() {
	local i
	lab fm stop --lab "$LAB" || return 1
	# the last line is written as the daemon exits (TCG: allow 10 s)
	for i in $(seq 50); do
		tail -n 1 "$NET.log" | grep -q stopped && break
		sleep 0.2
	done
	jcheck --lines 'len([e for e in d if "sweep" in e]) >= 2 and d[-1].get("stopped") is True' <"$NET.log"
}
tap_check "fm -j log: every line JSON, the sweeps and the stop" fm_log

tap_check "lab down" lab lab down --name "$LAB"
tap_done
