# shellcheck shell=bash
# Helpers for the lab selftests (1xx-lab-*.sh; sourced after lib.sh).
# Each test uses its own lab name so parallel or left-over labs never clash.

LAB=t$$
export FTSW_LAB=$LAB
PY=$(command -v /usr/bin/python3 || command -v python3)

lab() { "$FTSW" "$@"; }

# jcheck EXPR: stdin is one JSON document d satisfying EXPR (105-json has
# its own, stricter one: JSON lines, no non-finite numbers).
jcheck() {
	"$PY" -c '
import json, sys
t = sys.stdin.read()
d = json.loads(t)
ok = eval("(" + sys.argv[1] + ")", {"d": d})
if not ok:
    print("JSON fails", sys.argv[1], ":", t)
sys.exit(0 if ok else 1)' "$1"
}

# lab_gone NAME: no namespace, run directory, device or switch left behind.
lab_gone() {
	local n=${1:-$LAB} left
	left=$(find /run/netns -maxdepth 1 -regextype egrep -regex "/run/netns/$n(-h[0-9]+)?" 2>/dev/null)
	[ -z "$left" ] || { echo "namespaces left: $left"; return 1; }
	[ ! -e "/run/ftsw/$n" ] || { echo "/run/ftsw/$n left"; return 1; }
	left=$(ip -o link show | grep -E ': s[0-9]+p[0-9]+[@:]')
	[ -z "$left" ] || { echo "devices left in the init namespace: $left"; return 1; }
	[ "$("$FTSW" -j fabric show | "$PY" -c 'import json,sys; print(json.load(sys.stdin)["switches"])' 2>/dev/null || echo 0)" = 0 ] ||
		{ echo "switches left in the init namespace"; return 1; }
}

# sm_ups: how many sweeps OpenSM has ended in the lab's log (SUBNET UP
# each; a count that moved means it swept again).
sm_ups() { grep -c "SUBNET UP" "/run/ftsw/$LAB/opensm.log"; }

# lab_sm_down: lab down of a lab under OpenSM: no opensm left running (a
# zombie is not running), nothing of the lab left.
lab_sm_down() {
	lab lab down --name "$LAB" || return 1
	! pgrep -x -r R,S,D,T opensm >/dev/null || { echo "opensm left running"; return 1; }
	lab_gone
}

# lab_up_ping TOPO ENGINE [LAB ARGS]: lab up, all-pairs ping, lab down.
lab_up_ping() {
	local topo=$1 eng=$2 rc=0
	shift 2
	lab lab up --name "$LAB" -t "$topo" -a "$eng" "$@" || return 1
	lab lab ping --name "$LAB" -c 1 -W 5000 || rc=1
	lab lab down --name "$LAB" || rc=1
	return $rc
}

# ping_summary: "ok failed" of an all-pairs ping of $LAB.
ping_json() {
	lab -j lab ping --name "$LAB" -c 1 -W "${1:-3000}" |
		"$PY" -c 'import json,sys; d=json.load(sys.stdin); print(d["ok"], d["failed"])'
}
