#!/usr/bin/env bash
# (lab 4) the fabric manager: discovers the lab from the kernel, routes with
# Dmodc and commits; a spine link failed live is rerouted (all pairs
# reachable again, detection -> committed logged in microseconds); failing
# every uplink of a leaf disconnects its hosts: the unreachable pairs are
# reported by fm and by ping, nothing crashes; fm stops cleanly on SIGTERM.
. "$(dirname "$0")/lib.sh"
. "$(dirname "$0")/lab-lib.sh"

tap_plan 10
tap_check "insmod ftsw.ko" ftsw_load
tap_check "lab up FT(4,3)" lab lab up --name "$LAB" -t ftmn:4,3
LOG=/run/ftsw/$LAB/fm.log

fm_start() {
	lab fm --lab "$LAB" -d || return 1
	grep -q "all 240 host pairs routed" "$LOG" || { cat "$LOG"; return 1; }
	lab fm status --lab "$LAB"
}
tap_check "fm discovers, routes (dmodc), commits; daemon running" fm_start

# wait_sweeps N: until the log has N sweeps after discovery
wait_sweeps() {
	for _ in $(seq 100); do
		[ "$(grep -c 'committed generation' "$LOG")" -ge "$1" ] && return 0
		sleep 0.1
	done
	cat "$LOG"
	return 1
}

spine_fail() {
	local n0
	n0=$(grep -c 'committed generation' "$LOG")
	# s0 is a leaf, s8 the middle switch its port 1 goes to; s16.. top.
	lab lab fail link s8 s16 || return 1
	wait_sweeps $((n0 + 1)) || return 1
	sleep 0.3
	tail -n 2 "$LOG"
	grep 'port.*down' "$LOG" | tail -1 | grep -q 'routes computed +[0-9]* us.*committed generation [0-9]* +[0-9]* us' ||
		return 1
	[ "$(ping_json)" = "240 0" ]
}
tap_check "fail a spine link: fm reroutes, all 240 pairs reachable, timings logged" spine_fail

heal() {
	local n0
	n0=$(grep -c 'committed generation' "$LOG")
	lab lab heal link s8 s16 || return 1
	wait_sweeps $((n0 + 1)) && [ "$(ping_json)" = "240 0" ]
}
tap_check "heal it: rerouted back, all pairs reachable" heal

disconnect() {
	local n0 res
	n0=$(grep -c 'committed generation' "$LOG")
	lab lab fail switch s0 | grep -v 'h[0-9]' || return 1
	wait_sweeps $((n0 + 1)) || return 1
	sleep 1
	tail -n 3 "$LOG"
	lab fm status --lab "$LAB" | tee /dev/stderr | grep -q 'unreachable host pairs: 58' || return 1
	res=$(ping_json 2000)
	echo "ping: $res"
	# hosts 0 and 1 (leaf s0) are cut off: 2 * 15 * 2 - 2 = 58 ordered pairs
	[ "$res" = "182 58" ]
}
tap_check "cut a leaf off: 58 unreachable pairs reported by fm and by ping" disconnect

chaos() {
	lab lab heal switch s0 >/dev/null || return 1
	lab lab chaos --name "$LAB" --count 3 --seed 7 || return 1
	sleep 2
	kill -0 "$(sed -n 's/.*"pid":\([0-9]*\).*/\1/p' /run/ftsw/$LAB/fm.status)"
}
tap_check "chaos: 3 random link failures, fm still alive" chaos

stop() {
	lab fm stop --lab "$LAB" || return 1
	grep -q "fm: stopped" "$LOG" && [ ! -e /run/ftsw/$LAB/fm.status ]
}
tap_check "fm stops cleanly on SIGTERM" stop
down() { lab lab down --name "$LAB" && lab_gone; }
tap_check "lab down leaves nothing" down
tap_check "rmmod ftsw" ftsw_unload
tap_done
