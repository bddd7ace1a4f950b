#!/usr/bin/env bash
# (4) Staged tables do not affect traffic until commit, then do; a rejected
# upload leaves traffic and tables unchanged; discard drops staged writes.
. "$(dirname "$0")/lib.sh"
. "$(dirname "$0")/fabric-lib.sh"
export HOST_NO_V6=1

tap_plan 12
tap_check "insmod ftsw.ko" ftsw_load
tap_check "one switch, two hosts, committed tables" one_switch_setup 0 1 1 2
tap_check "ping works" ping_ok 0 "$(host_ip 1)" 2

lft_of() { fsw -j lft show switch 1 $1 | "$PY" -c 'import json,sys; print(json.load(sys.stdin)["lft"].get(sys.argv[1], 255))' "$2"; }
gen() { fabric_stat generation; }

g0=$(gen)
stage_only() {
	fsw lft set switch 1 lid 2 port none || return 1
	[ "$(lft_of staged 2)" = 255 ] && [ "$(lft_of "" 2)" = 2 ] &&
		fsw switch show id 1 | grep -q staged
}
tap_check "staged write: staged view changed, active not" stage_only
tap_check "staged write does not affect traffic" ping_ok 0 "$(host_ip 1)" 2
commit_breaks() {
	local d0 d1
	d0=$(port_stat 1 1 drops.no_route)
	fsw commit >/dev/null || return 1
	[ "$(gen)" -gt "$g0" ] || { echo "generation did not move"; return 1; }
	! ping_ok 0 "$(host_ip 1)" 2 || { echo "ping still works"; return 1; }
	d1=$(port_stat 1 1 drops.no_route)
	echo "no_route drops $d0 -> $d1"
	[ "$d1" -ge $((d0 + 2)) ]
}
tap_check "after commit the route is gone: no_route drops" commit_breaks
restore() { fsw lft set switch 1 lid 2 port 2 && fsw commit >/dev/null && ping_ok 0 "$(host_ip 1)" 2; }
tap_check "restore + commit: ping works again" restore

rejected() {
	local out g
	g=$(gen)
	out=$(fsw lft set switch 1 lid 2 port 9 2>&1) && { echo "accepted: $out"; return 1; }
	echo "$out"
	echo "$out" | grep -q "port the switch does not have" || return 1
	fsw switch show id 1 | grep -q staged && { echo "left a staged table"; return 1; }
	fsw commit >/dev/null
	[ "$(lft_of "" 2)" = 2 ] && ping_ok 0 "$(host_ip 1)" 2
}
tap_check "rejected upload (port 9 of 4): message, tables and traffic unchanged" rejected
rejected_range() {
	local out
	out=$(fsw lft set switch 7 lid 2 port 1 2>&1) && return 1
	echo "$out"; echo "$out" | grep -q "no such switch"
}
tap_check "upload to a missing switch is rejected with a message" rejected_range
discard() {
	fsw lft set switch 1 lid 2 port none && fsw lft discard switch 1 &&
		! fsw switch show id 1 | grep -q staged && fsw commit >/dev/null &&
		ping_ok 0 "$(host_ip 1)" 2
}
tap_check "discard drops staged writes" discard
events() {
	local out
	fab "$FTSW" -j monitor count 1 >"$TMPDIR/mon.$$" 2>/dev/null &
	sleep 1
	fsw commit >/dev/null
	wait $!
	out=$(cat "$TMPDIR/mon.$$"); echo "$out"
	echo "$out" | grep -q '"event":"commit","generation":'"$(gen)"
}
tap_check "commit raises an event with the generation" events
fabric_cleanup
tap_check "rmmod ftsw" ftsw_unload
tap_done
