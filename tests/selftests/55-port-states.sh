#!/usr/bin/env bash
# Port states (Documentation/sm.md, "Port states"): one switch, hosts 0 and
# 1 on ports 1 and 2. With no in-band SM ftsw activates links as they come
# up; `port set ... state` sets both ends of a link as an SM would; data
# passes only Active ports (an Armed one takes but does not send), what a
# gate stops is counted as not_active on the port it came in by; a link
# that is down takes no state; a switch added with inband-sm on brings its
# links up in Init, and `switch set inband-sm off` activates them.
. "$(dirname "$0")/lib.sh"
. "$(dirname "$0")/fabric-lib.sh"

tap_plan 9
tap_check "insmod ftsw.ko" ftsw_load

# ports 1 and 2's states, "S1 S2", from one port show
states_now() { fsw -j port show switch 1 | "$PY" -c '
import json, sys
p = {x["port"]: x.get("state", "-") for x in json.load(sys.stdin)["ports"]}
print(p.get(1, "-"), p.get(2, "-"))'; }
states() {
	local s
	s=$(states_now)
	[ "$s" = "$1 $2" ] || { echo "states: $s, want $1 $2"; return 1; }
}
na() { port_stat 1 "$1" drops.not_active; }

setup() {
	one_switch_setup 0 1 1 2 && states active active &&
		ping_ok 0 "$(host_ip 1)" 2
}
tap_check "no SM: both links come up Active, h0 pings h1" setup

# h0's echo requests enter by port 1 and would leave by port 2.
stopped() {
	local before
	before=$(na 1)
	fsw port set switch 1 port 2 state "$1" || return 1
	states active "$1" || return 1
	! ping_ok 0 "$(host_ip 1)" 2 || { echo "pings through $1"; return 1; }
	[ "$(na 1)" -gt "$before" ] ||
		{ echo "port 1 not_active $(na 1), was $before"; return 1; }
}
tap_check "port 2 Init: pings stop, not_active counted on port 1" stopped init
tap_check "port 2 Armed (takes, sends nothing): pings stop" stopped armed
activate() {
	fsw port set switch 1 port 2 state active && states active active &&
		ping_ok 0 "$(host_ip 1)" 2
}
tap_check "port 2 Active again: pings" activate

# Down retrains the link: both ends back in Init, and it stays there.
retrain() {
	fsw port set switch 1 port 2 state down && states active init &&
		! ping_ok 0 "$(host_ip 1)" 2 && sleep 1 && states active init &&
		activate
}
tap_check "state down retrains port 2 to Init until set Active" retrain

# A link that is down has no state to set (ENETDOWN, extack).
refused() {
	local err
	fsw port set switch 1 port 2 down || return 1
	states active down || return 1
	if fsw port set switch 1 port 2 state active 2>"$TMPDIR/err.$$"; then
		echo "accepted on a down link"
		return 1
	fi
	err=$(cat "$TMPDIR/err.$$")
	echo "$err"
	[[ $err == *"link is down"* ]] || return 1
	# up again: ftsw, the SM here, activates it as it comes up
	fsw port set switch 1 port 2 up && states active active &&
		ping_ok 0 "$(host_ip 1)" 2
}
tap_check "a down link refuses a state (extack); up again it is Active" refused

# Switch 2, driven by an in-band SM: links come up in Init; handed back
# to ftsw, they are activated at once.
inband() {
	fsw port unbind switch 1 port 1 && fsw port unbind switch 1 port 2 &&
		fsw switch add id 2 ports 4 inband-sm on &&
		fsw port bind switch 2 port 1 dev h0 kind edge lid 1 &&
		fsw port bind switch 2 port 2 dev h1 kind edge lid 2 &&
		fsw lft set switch 2 lid 1 port 1 lid 2 port 2 &&
		fsw commit >/dev/null || return 1
	fsw switch show id 2 | grep -q inband-sm || return 1
	[ "$(fsw -j port show switch 2 | "$PY" -c '
import json, sys; print(" ".join(p["state"] for p in json.load(sys.stdin)["ports"]))')" = \
		"init init" ] || { fsw port show switch 2; return 1; }
	! ping_ok 0 "$(host_ip 1)" 2 || { echo "pings through Init"; return 1; }
	fsw switch set id 2 inband-sm off &&
		ping_ok 0 "$(host_ip 1)" 2
}
tap_check "inband-sm on: links come up Init, no data; off: Active, pings" inband
fabric_cleanup
tap_check "rmmod ftsw" ftsw_unload
tap_done
