#!/usr/bin/env bash
# (5) Link carrier down: port-down drops, events seen by `ftsw monitor`;
# carrier back: traffic and up events. Admin down too. A device deleted
# under a bound port unbinds it cleanly (event, no leak).
. "$(dirname "$0")/lib.sh"
. "$(dirname "$0")/fabric-lib.sh"
export HOST_NO_V6=1

tap_plan 9
tap_check "insmod ftsw.ko" ftsw_load
tap_check "two switches in a chain" chain_setup
tap_check "ping works" ping_ok 0 "$(host_ip 1)" 2

MON=$TMPDIR/mon.$$
ip netns exec "$FAB" "$FTSW" monitor >"$MON" 2>/dev/null &
MONPID=$!
sleep 1
# wait_for CMD...: up to 10 s for CMD to succeed (link watch is lazy).
wait_for() {
	local i
	for i in $(seq 20); do
		"$@" >/dev/null 2>&1 && return 0
		sleep 0.5
	done
	return 1
}
oper_is() { fsw port show switch "$1" port "$2" | grep -q "oper $3"; }
carrier_down() {
	local d0 d1
	d0=$(port_stat 1 1 drops.port_down)
	fab ip link set b21 down
	wait_for oper_is 1 2 down || { echo "switch 1 port 2 still up"; return 1; }
	! ping_ok 0 "$(host_ip 1)" 2 || { echo "ping still works"; return 1; }
	d1=$(port_stat 1 1 drops.port_down)
	echo "port_down drops at switch 1 port 1: $d0 -> $d1"
	[ "$d1" -ge $((d0 + 2)) ]
}
tap_check "carrier down: port down, traffic dropped as port_down" carrier_down
ev_down() {
	wait_for grep -q "^port down switch 1 port 2" "$MON"
	cat "$MON"
	grep -q "^port down switch 1 port 2 dev a12 .*reason carrier" "$MON" &&
		grep -q "^port down switch 2 port 2 dev b21 .*reason carrier" "$MON"
}
tap_check "monitor saw both link ends go down (reason carrier)" ev_down
carrier_up() {
	fab ip link set b21 up
	wait_for oper_is 1 2 up || return 1
	wait_for grep -q "^port up switch 1 port 2" "$MON"
	ping_ok 0 "$(host_ip 1)" 2 && grep -q "^port up switch 1 port 2 .*reason carrier" "$MON"
}
tap_check "carrier up: traffic flows, up event" carrier_up
admin() {
	fsw port set switch 2 port 1 down || return 1
	sleep 0.5
	ping_ok 0 "$(host_ip 1)" 2 && { echo "ping works with port admin down"; return 1; }
	grep -q "^port down switch 2 port 1 .*reason admin" "$MON" || return 1
	fsw port set switch 2 port 1 up && ping_ok 0 "$(host_ip 1)" 2
}
tap_check "admin down/up: drops, event, recovers" admin
unregister() {
	fab ip link del a12 || return 1
	wait_for grep -q "reason unregister" "$MON"
	! fsw port show switch 1 port 2 >/dev/null 2>&1 &&
		! fsw port show switch 2 port 2 >/dev/null 2>&1 &&
		grep -q "reason unregister" "$MON" &&
		[ "$(fabric_stat ports)" = 2 ]
}
tap_check "deleting a bound device unbinds both ends (event)" unregister
kill "$MONPID" 2>/dev/null; wait "$MONPID" 2>/dev/null
cat "$MON" | tap_diag
fabric_cleanup
tap_check "rmmod ftsw" ftsw_unload
tap_done
