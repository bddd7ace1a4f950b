# shellcheck shell=bash
# Helpers for ftsw selftests (kselftest-style TAP). Sourced by each
# tests/selftests/*.sh, which run as root inside the test VM with:
#   FTSW_TOP   the repository      FTSW_KMOD  directory holding ftsw.ko
#   FTSW       the ftsw CLI binary
set -u

: "${FTSW_TOP:=$(cd "$(dirname "${BASH_SOURCE[0]}")/../.." && pwd)}"
: "${FTSW_KMOD:=$FTSW_TOP/build/kmod-debug/kmod}"
: "${FTSW:=$FTSW_TOP/build/ftsw}"

_tap_n=0
_tap_fail=0

# tap_plan N: print the TAP header and plan.
tap_plan() {
	echo "TAP version 13"
	echo "1..$1"
}

tap_ok() { _tap_n=$((_tap_n + 1)); echo "ok $_tap_n $*"; }
tap_fail() { _tap_n=$((_tap_n + 1)); _tap_fail=1; echo "not ok $_tap_n $*"; }
tap_diag() { sed 's/^/# /'; }

# tap_check DESC CMD...: run CMD, ok if it succeeds; its output becomes
# diagnostics when it fails. With FTSW_CHECK_SECONDS set (the VM runner
# sets it), each check's wall time is appended there as
# "SECONDS<tab>SCRIPT<tab>N<tab>DESC": where a selftest's time goes.
tap_check() {
	local desc=$1 out t0=$EPOCHREALTIME
	shift
	if out=$("$@" 2>&1); then
		tap_ok "$desc"
	else
		tap_fail "$desc"
		printf '%s\n' "$out" | tap_diag
	fi
	[ -z "${FTSW_CHECK_SECONDS:-}" ] ||
		printf '%.1f\t%s\t%d\t%s\n' \
			"$(awk -v a="$t0" -v b="$EPOCHREALTIME" 'BEGIN { print b - a }')" \
			"$(basename "$0" .sh)" "$_tap_n" "$desc" >>"$FTSW_CHECK_SECONDS"
}

# Background processes a check starts: tap_check runs each check in a
# subshell, so a variable set there (PID=$!) is gone when it returns; a
# file is not. bg_keep DIR NAME PID remembers one in DIR/NAME.bgpid,
# bg_pid DIR NAME prints it (nothing if none), bg_stop DIR stops them all:
# SIGTERM, up to 10 s for each to end (gone, or a zombie), then SIGKILL.
bg_keep() { echo "$3" >"$1/$2.bgpid"; }
bg_pid() { cat "$1/$2.bgpid" 2>/dev/null; }
pid_running() {
	local st
	st=$(sed 's/.*) //' "/proc/$1/stat" 2>/dev/null) || return 1
	[ -n "$st" ] && [ "${st:0:1}" != Z ]
}
# pid_wait PID TENTHS: true once PID is not running, false after TENTHS
# tenths of a second of it running on.
pid_wait() {
	local _
	for _ in $(seq "$2"); do
		pid_running "$1" || return 0
		sleep 0.1
	done
	! pid_running "$1"
}
bg_stop() {
	local f p
	for f in "$1"/*.bgpid; do
		[ -e "$f" ] && kill "$(cat "$f")" 2>/dev/null
	done
	for f in "$1"/*.bgpid; do
		[ -e "$f" ] || continue
		p=$(cat "$f")
		pid_wait "$p" 100 || { kill -KILL "$p" 2>/dev/null; pid_wait "$p" 50; }
		rm -f "$f"
	done
	return 0
}

# tap_done: exit status of the script (non-zero if anything failed).
# tap_stream DESC CMD...: like tap_check, but CMD's output is always
# shown, as TAP diagnostics streamed while it runs (a long campaign shows
# each chunk as it ends), before the ok / not ok line.
tap_stream() {
	local desc=$1 rc
	shift
	"$@" 2>&1 | sed -u 's/^# //; s/^/# /'
	rc=${PIPESTATUS[0]}
	if [ "$rc" = 0 ]; then tap_ok "$desc"; else tap_fail "$desc"; fi
}
tap_done() { exit $_tap_fail; }

ftsw_loaded() { [ -d /sys/module/ftsw ]; }

ftsw_load() {
	ftsw_loaded || insmod "$FTSW_KMOD/ftsw.ko"
}

ftsw_unload() {
	! ftsw_loaded || rmmod ftsw
}

# vxlan_cable A B: namespaces A and B stand for two machines: an underlay
# (veth u0, 10.99.0.1 in A, 10.99.0.2 in B, MTU 1700, the only thing they
# share) and over it the fabric cable, one VXLAN device vx42 (VNI 42, MTU
# 1600) per machine, all up.
vxlan_cable() {
	local a=$1 b=$2
	ip -n "$a" link add u0 mtu 1700 type veth peer name u0 netns "$b" mtu 1700 &&
		ip -n "$a" addr add 10.99.0.1/24 dev u0 && ip -n "$b" addr add 10.99.0.2/24 dev u0 &&
		ip -n "$a" link set u0 up && ip -n "$b" link set u0 up || return 1
	ip -n "$a" link add vx42 mtu 1600 type vxlan id 42 local 10.99.0.1 remote 10.99.0.2 dstport 4789 dev u0 &&
		ip -n "$b" link add vx42 mtu 1600 type vxlan id 42 local 10.99.0.2 remote 10.99.0.1 dstport 4789 dev u0 &&
		ip -n "$a" link set vx42 up && ip -n "$b" link set vx42 up
}

# two_machines A B HA HB: namespaces A and B as two machines joined by
# vxlan_cable, each with one host namespace (HA, HB; IPv6 off everywhere):
# h0 in A to HA's eth0 (02:66:74:00:00:01, 198.18.0.1/15), h1 in B to HB's
# eth0 (02:66:74:00:00:02, 198.18.0.2/15), all up.
two_machines() {
	local n
	for n in "$1" "$2" "$3" "$4"; do
		ip netns add "$n" && ip -n "$n" link set lo up || return 1
		nsenter --net="/run/netns/$n" sysctl -qw net.ipv6.conf.all.disable_ipv6=1 \
			net.ipv6.conf.default.disable_ipv6=1
	done
	vxlan_cable "$1" "$2" || return 1
	ip -n "$1" link add h0 type veth peer name eth0 netns "$3" &&
		ip -n "$2" link add h1 type veth peer name eth0 netns "$4" || return 1
	ip -n "$3" link set eth0 address 02:66:74:00:00:01 up &&
		ip -n "$3" addr add 198.18.0.1/15 dev eth0 &&
		ip -n "$4" link set eth0 address 02:66:74:00:00:02 up &&
		ip -n "$4" addr add 198.18.0.2/15 dev eth0 &&
		ip -n "$1" link set h0 up && ip -n "$2" link set h1 up
}

# two_machine_switches A B: on two_machines' A and B, switch 1 (A) and 2 (B),
# port 1 the host's edge (h0 LID 1, h1 LID 2), port 2 the VXLAN cable, and
# each table routing its own host out port 1 and the other out port 2.
two_machine_switches() {
	local a=(nsenter --net="/run/netns/$1" "$FTSW") b=(nsenter --net="/run/netns/$2" "$FTSW")
	"${a[@]}" switch add id 1 ports 2 name machineA-sw1 &&
		"${b[@]}" switch add id 2 ports 2 name machineB-sw2 &&
		"${a[@]}" port bind switch 1 port 1 dev h0 kind edge lid 1 lmc 0 &&
		"${a[@]}" port bind switch 1 port 2 dev vx42 kind link &&
		"${b[@]}" port bind switch 2 port 1 dev h1 kind edge lid 2 lmc 0 &&
		"${b[@]}" port bind switch 2 port 2 dev vx42 kind link &&
		"${a[@]}" lft set switch 1 lid 1 port 1 lid 2 port 2 &&
		"${b[@]}" lft set switch 2 lid 2 port 1 lid 1 port 2
}
