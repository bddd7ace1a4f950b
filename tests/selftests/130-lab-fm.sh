#!/usr/bin/env bash
# (lab 4) the fabric manager and failures: fm discovers the lab from the
# kernel, routes with Dmodc and commits; it reasons per cable, so one failed
# spine cable (both ends report) costs exactly one sweep and one generation,
# and so does its heal; a failed host cable takes the host's eth0 down in its
# namespace too (the host is unreachable, fm says so), and after the heal
# every pair pings again (addresses kept, peers resolved afresh); a leaf cut
# off gives 58 unreachable pairs; an event overrun (a tiny receive buffer,
# the manager stopped meanwhile) is repaired from a port dump; the JSON of
# fail/heal/chaos names what changed; fm stops cleanly on SIGTERM.
. "$(dirname "$0")/lib.sh"
. "$(dirname "$0")/lab-lib.sh"

tap_plan 15
tap_check "insmod ftsw.ko" ftsw_load
tap_check "lab up FT(4,3)" lab lab up --name "$LAB" -t ftmn:4,3
LOG=/run/ftsw/$LAB/fm.log
STATUS=/run/ftsw/$LAB/fm.status
# FT(4,3): 16 hosts, 8 leaves (s0..s7, hosts 2i and 2i+1 on leaf i),
# 8 middle switches (s8..s15), 4 top switches (s16..s19).
# Cables: 16 host + 8 * 2 leaf-middle + 8 * 2 middle-top = 48.
CABLES=48

# st KEY...: fields of the fm status file (JSON, replaced atomically).
st() {
	"$PY" - "$STATUS" "$@" <<'EOF'
import json, sys
d = json.load(open(sys.argv[1]))
print(*[d[k] if k in d else d["last"][k] for k in sys.argv[2:]])
EOF
}

# wait_st EXPR: until the status satisfies the Python expression on d
# (20 s deadline: TCG, shared CPUs).
wait_st() {
	"$PY" - "$STATUS" "$1" <<'EOF'
import json, sys, time
end = time.time() + 20
while True:
    try:
        d = json.load(open(sys.argv[1]))
        if eval(sys.argv[2], {"d": d}):
            sys.exit(0)
    except (OSError, ValueError):
        d = None
    if time.time() > end:
        print("timed out waiting for", sys.argv[2], "status:", d)
        sys.exit(1)
    time.sleep(0.1)
EOF
}

fm_start() {
	lab fm --lab "$LAB" -d "$@" || return 1
	grep -q "all 240 host pairs routed" "$LOG" || { cat "$LOG"; return 1; }
	[ "$(st cables cables_usable sweeps)" = "$CABLES $CABLES 1" ] || { st cables cables_usable sweeps; return 1; }
	lab fm status --lab "$LAB"
}
tap_check "fm discovers 48 cables, routes (dmodc), commits; daemon running" fm_start

# once ENDS ACTION JSON-EXPR ARGS...: run a lab fail/heal, check its JSON,
# then fm must make exactly one more sweep and generation: wait for the
# first, then 2 s more to prove no second one comes. The kernel reports a
# port only when its state changes: a host cable reports from its switch end
# only (ENDS 1), a switch cable from both (ENDS 2), and the second report
# must be counted as a "no change" event.
once() {
	local ends=$1 act=$2 expr=$3 g0 s0 n0 out
	shift 3
	read -r g0 s0 n0 <<<"$(st generation sweeps no_change_events)"
	out=$(lab -j lab "$act" "$@") || return 1
	echo "$out" | jcheck "$expr" || return 1
	wait_st "d['sweeps'] >= $s0 + 1" || return 1
	sleep 2
	tail -n 3 "$LOG"
	[ "$(st generation sweeps)" = "$((g0 + 1)) $((s0 + 1))" ] ||
		{ echo "generation/sweeps: $g0 $s0 -> $(st generation sweeps)"; return 1; }
	# The other end reported too, without a sweep.
	[ "$ends" = 1 ] || [ "$(st no_change_events)" -gt "$n0" ] ||
		{ echo "no 'no change' event"; return 1; }
}

spine_fail() {
	# s8 (middle) port 3 goes to s16 (top).
	once 2 fail 'd["action"] == "fail" and d["count"] == 1 and
		  [(c["a"]["node"], c["b"]["node"], c["cable"], c["state"]) for c in d["changed"]]
		  == [("s8", "s16", "switch", "down")]' link s8 s16 || return 1
	grep 'cable changed' "$LOG" | tail -1 |
		grep -q 'port [0-9]* down.*routes computed +[0-9]* us.*committed generation [0-9]* +[0-9]* us' ||
		return 1
	[ "$(st cables_usable unreachable_pairs)" = "$((CABLES - 1)) 0" ] || return 1
	[ "$(ping_json)" = "240 0" ]
}
tap_check "fail a spine cable: exactly one fm sweep (+1 generation), timings logged, all 240 pairs reachable" spine_fail

spine_heal() {
	once 2 heal 'd["action"] == "heal" and d["count"] == 1 and
		  [(c["a"]["node"], c["b"]["node"], c["state"]) for c in d["changed"]]
		  == [("s8", "s16", "up")]' link s8 s16 || return 1
	[ "$(st cables_usable)" = "$CABLES" ] && [ "$(ping_json)" = "240 0" ]
}
tap_check "heal it: exactly one fm sweep (+1 generation), all pairs reachable" spine_heal

# eth0_up HOST: 0 if the host's eth0 is administratively up.
eth0_up() {
	ip -n "$LAB-$1" -o link show eth0 | grep -q '<[^>]*[<,]UP[,>]'
}

host_fail() {
	once 1 fail 'd["count"] == 1 and
		  [(c["a"]["node"], c["b"]["node"], c["b"]["dev"], c["b"]["netns"], c["cable"], c["state"])
		   for c in d["changed"]] == [("s1", "h3", "eth0", "'"$LAB"'-h3", "host", "down")]' \
		link h3 s1 || return 1
	! eth0_up h3 || { echo "h3 eth0 still up:"; ip -n "$LAB-h3" -o link show eth0; return 1; }
	# eth0 down keeps its IPv6 address (keep_addr_on_down, set at the fail)
	ip -n "$LAB-h3" -6 -o addr show dev eth0 | grep -q ' 2001:2::4/64 ' ||
		{ echo "h3 lost 2001:2::4 while down"; return 1; }
	echo "h3 neighbours while down: $(ip -n "$LAB-h3" neigh show | wc -l)"
	# h3 to and from the 15 others: 30 ordered pairs.
	[ "$(st unreachable_pairs cables_usable)" = "30 $((CABLES - 1))" ] || { st unreachable_pairs; return 1; }
	[ "$(ping_json 2000)" = "210 30" ]
}
tap_check "fail host cable h3-s1: both ends down (h3's eth0 in its namespace, its IPv6 address kept), one sweep, 30 unreachable pairs by fm and ping" host_fail

host_heal() {
	once 1 heal 'd["count"] == 1 and d["changed"][0]["b"]["node"] == "h3" and
		  d["changed"][0]["state"] == "up"' port s1:4 || return 1
	eth0_up h3 || return 1
	# 198.18.0.0 + 3 + 1 and 2001:2::4 kept; no static neighbour
	ip -n "$LAB-h3" -4 -o addr show dev eth0 | grep -q ' 198\.18\.0\.4/15 ' || return 1
	ip -n "$LAB-h3" -6 -o addr show dev eth0 | grep -q ' 2001:2::4/64 ' || return 1
	[ "$(ip -n "$LAB-h3" neigh show nud permanent | wc -l)" = 0 ] || return 1
	[ "$(st unreachable_pairs cables_usable)" = "0 $CABLES" ] || return 1
	[ "$(ping_json)" = "240 0" ] || return 1
	# h3 resolved its 15 peers afresh through the fabric: 198.18.0.N at
	# LID N's MAC (LMC 0)
	local out n=0 ip mac
	out=$(ip -n "$LAB-h3" -4 neigh show dev eth0)
	while read -r ip _ mac _; do
		[ "$mac" = "$(printf '02:66:74:00:00:%02x' "${ip##*.}")" ] ||
			{ echo "$out"; return 1; }
		n=$((n + 1))
	done <<<"$out"
	[ $n = 15 ] || { echo "$out"; return 1; }
	ip netns exec "$LAB-h3" ping -6 -c 1 -W 5 2001:2::10 >/dev/null
}
tap_check "heal it (port s1:4): eth0 up, addresses kept, 15 peers resolved afresh by the fabric, one sweep, all 240 pairs ping (and IPv6)" host_heal

disconnect() {
	local out res
	out=$(lab -j lab fail switch s0) || return 1
	# s0: 2 host cables (h0, h1) and 2 uplinks, all down
	echo "$out" | jcheck 'd["count"] == 4 and all(c["state"] == "down" and c["a"]["node"] == "s0" for c in d["changed"])
		and sorted(c["b"]["node"] for c in d["changed"] if c["cable"] == "host") == ["h0", "h1"]' || return 1
	wait_st "d['unreachable_pairs'] == 58 and d['cables_usable'] == $CABLES - 4" || return 1
	tail -n 3 "$LOG"
	lab fm status --lab "$LAB" | grep -q 'unreachable host pairs: 58' || return 1
	res=$(ping_json 2000)
	echo "ping: $res"
	# hosts 0 and 1 (leaf s0) are cut off: 2 * 14 * 2 + 2 (h0 <-> h1, whose
	# eth0 are down) = 58 ordered pairs
	[ "$res" = "182 58" ]
}
tap_check "cut a leaf off: 58 unreachable pairs reported by fm and by ping" disconnect

leaf_heal() {
	lab -j lab heal switch s0 | jcheck 'd["count"] == 4 and all(c["state"] == "up" for c in d["changed"])' || return 1
	wait_st "d['unreachable_pairs'] == 0 and d['cables_usable'] == $CABLES" && [ "$(ping_json)" = "240 0" ]
}
tap_check "heal the leaf: all 240 pairs ping" leaf_heal

# An event overrun: a receive buffer holding one event, the manager stopped
# while a leaf's 4 cables fail (at least 8 events): it must resynchronise
# from a port dump to the same state as the event path.
overrun() {
	local pid
	lab fm stop --lab "$LAB" || return 1
	fm_start --rcvbuf 1 || return 1
	pid=$(st pid)
	kill -STOP "$pid" || return 1
	lab lab fail switch s0 >/dev/null || { kill -CONT "$pid"; return 1; }
	kill -CONT "$pid"
	wait_st "d['overruns'] >= 1 and d['unreachable_pairs'] == 58 and d['cables_usable'] == $CABLES - 4" || { cat "$LOG"; return 1; }
	grep -q 'resynchronised: [0-9]* port states changed' "$LOG" || return 1
	lab lab heal switch s0 >/dev/null || return 1
	wait_st "d['unreachable_pairs'] == 0 and d['cables_usable'] == $CABLES" || { tail -n 6 "$LOG"; return 1; }
}
tap_check "event overrun (rcvbuf 1, fm stopped): resynchronised from a port dump, 58 then 0 unreachable" overrun

chaos() {
	lab -j lab chaos --name "$LAB" --count 3 --seed 7 |
		jcheck 'd["action"] == "chaos" and d["count"] == 3 and
			all(c["cable"] == "switch" and c["state"] == "down" for c in d["changed"]) and
			len({(c["a"]["node"], c["a"]["port"]) for c in d["changed"]}) == 3' || return 1
	wait_st "d['cables_usable'] == $CABLES - 3" || return 1
	kill -0 "$(st pid)"
}
tap_check "chaos: 3 random cables down (JSON names them), fm sees 45 usable, still alive" chaos

bad_args() {
	local out
	out=$(lab lab fail link s0 s19 2>&1) && return 1
	echo "$out" | grep -q 's0 - s19: not cabled' || { echo "$out"; return 1; }
	out=$(lab lab fail port s0:9 2>&1) && return 1
	echo "$out" | grep -q 'port 9' || { echo "$out"; return 1; }
	out=$(lab fm --lab "$LAB" --rcvbuf x 2>&1) && return 1
	echo "$out" | grep -q -- "--rcvbuf: 'x'"
}
tap_check "errors name the cable, port or option at fault and exit non-zero" bad_args

stop() {
	lab fm stop --lab "$LAB" || return 1
	grep -q "fm: stopped" "$LOG" && [ ! -e "$STATUS" ]
}
tap_check "fm stops cleanly on SIGTERM" stop
# lab down with fm running: the manager is stopped first (its pid gone),
# then the lab goes; fm stop then finds none. A stale status file naming a
# live pid that is not an fm (here a sleep) is left alone.
down() {
	local pid out
	lab fm --lab "$LAB" -d || return 1
	pid=$(st pid)
	kill -0 "$pid" || return 1
	cp "$STATUS" /tmp/fm-status.json
	lab lab down --name "$LAB" || return 1
	! kill -0 "$pid" 2>/dev/null || { echo "fm $pid still runs"; return 1; }
	lab_gone || return 1
	out=$(lab fm stop --lab "$LAB" 2>&1) && return 1
	echo "$out" | grep -q "no fabric manager runs" || { echo "$out"; return 1; }
	sleep 300 &
	pid=$!
	mkdir -p "/run/ftsw/$LAB"
	"$PY" -c 'import json, sys; d = json.load(open("/tmp/fm-status.json")); d["pid"] = int(sys.argv[1]); json.dump(d, open(sys.argv[2], "w"))' "$pid" "$STATUS"
	out=$(lab fm stop --lab "$LAB" 2>&1) && { kill "$pid"; return 1; }
	kill -0 "$pid" || { echo "a stale status file's pid $pid was killed: $out"; return 1; }
	kill "$pid"
	rm -rf "/run/ftsw/$LAB" /tmp/fm-status.json
	echo "$out" | grep -q "no fabric manager runs" || { echo "$out"; return 1; }
}
tap_check "lab down stops the lab's fm first and leaves nothing; a stale pid is not killed" down
tap_check "rmmod ftsw" ftsw_unload
tap_done
