# shellcheck shell=bash
# Helpers for the lab selftests (1xx-lab-*.sh; sourced after lib.sh).
# Each test uses its own lab name so parallel or left-over labs never clash.

LAB=t$$
export FTSW_LAB=$LAB
PY=/usr/bin/python3

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

# lab_gone NAME: no namespace, run directory, device or switch left behind
# (shell builtins and one ftsw: it runs after every lab test).
lab_gone() {
	local n=${1:-$LAB} f out
	for f in "/run/netns/$n" "/run/netns/$n"-h*; do
		[[ -e $f && $f =~ ^/run/netns/$n(-h[0-9]+)?$ ]] &&
			{ echo "namespaces left: $f"; return 1; }
	done
	[ ! -e "/run/ftsw/$n" ] || { echo "/run/ftsw/$n left"; return 1; }
	for f in /sys/class/net/s*p*; do
		[[ ${f##*/} =~ ^s[0-9]+p[0-9]+$ ]] &&
			{ echo "devices left in the init namespace: ${f##*/}"; return 1; }
	done
	out=$("$FTSW" fabric show 2>/dev/null) || out=
	[[ ! $out =~ " switches "([0-9]+) ]] || [ "${BASH_REMATCH[1]}" = 0 ] ||
		{ echo "switches left in the init namespace"; return 1; }
}

# What a kernel report looks like in dmesg (182's overload, tests/bench's
# lab-cc-overload): a warning, a sanitizer, lockdep, a leak, a stall.
DMESG_BAD='Kernel panic|Oops|BUG:|WARNING:|KASAN|unreferenced object|possible recursive locking|circular locking|inconsistent lock state|suspicious RCU usage|lock held when returning|general protection fault|UBSAN|refcount_t:|list_(add|del) corruption|hung_task|soft lockup|RCU stall|rcu_.*detected stall|scheduling while atomic|sleeping function called from invalid context'
# dmesg_clean N: no kernel report in dmesg past its first N lines.
dmesg_clean() {
	if dmesg | tail -n +$(($1 + 1)) | grep -E "$DMESG_BAD"; then
		return 1
	fi
	echo "dmesg since insmod: $(dmesg | tail -n +$(($1 + 1)) | wc -l) lines, none bad"
}

# lab_reload_down: after an rmmod under load, the module back, the lab
# down and nothing of it left.
lab_reload_down() {
	ftsw_load && lab lab down --name "$LAB" >/dev/null 2>&1
	lab_gone
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
