#!/usr/bin/env bash
# (lab, patch cables) `lab up --patch` joins the switches by patch cables
# inside the module: no device for any of them, only the 16 host cables'
# ends in the fabric namespace; lab.conf and `lab status` say so; every
# pair pings; `lab traffic` counts == the model packet for packet (a patch
# port's counters are the same per-port counters); `lab capture` on a patch
# cable is refused with a reason while a host cable is still a device; the
# fabric manager discovers all 48 cables from the kernel (the far end of a
# patch port is in its reply, not in a device's peer), a cable failed from
# one end costs one sweep and healed from the other end one more; chaos
# finds its candidates among the patch cables; lab down leaves nothing.
#
# FT(4,3) = ftmn:4,3: 16 hosts, 8 leaves s0..s7, 8 middle switches s8..s15,
# 4 top switches s16..s19; 16 host cables + 16 leaf-middle + 16 middle-top
# = 48 cables, 32 of them between switches.
. "$(dirname "$0")/lib.sh"
. "$(dirname "$0")/lab-lib.sh"

tap_plan 12
tap_check "insmod ftsw.ko" ftsw_load
LOG=/run/ftsw/$LAB/fm.log
STATUS=/run/ftsw/$LAB/fm.status

# st KEY...: fields of the fm status file.
st() {
	"$PY" -c 'import json, sys; d = json.load(open(sys.argv[1])); print(*[d[k] for k in sys.argv[2:]])' \
		"$STATUS" "$@"
}
# wait_st EXPR: until the fm status satisfies EXPR on d (20 s).
wait_st() {
	local _
	for _ in $(seq 200); do
		"$PY" -c 'import json, sys; d = json.load(open(sys.argv[1])); sys.exit(0 if eval(sys.argv[2]) else 1)' \
			"$STATUS" "$1" 2>/dev/null && return 0
		sleep 0.1
	done
	echo "timed out waiting for $1: $(cat "$STATUS")"
	return 1
}

# cable816: "P8 P16", the ports of the first cable between s8 and s16.
cable816() {
	nsenter --net="/run/netns/$LAB" "$FTSW" -j port show switch 8 | "$PY" -c '
import json, sys
p = [x for x in json.load(sys.stdin)["ports"] if x.get("peer_switch") == 16]
print(p[0]["port"], p[0]["peer_port"])'
}
up() {
	local devs p8 p16
	lab lab up --name "$LAB" -t ftmn:4,3 -a dmodk --patch >/dev/null || return 1
	grep -qx "cables=patch" "/run/ftsw/$LAB/lab.conf" || return 1
	lab lab status --name "$LAB" | grep -q "^  cables      patch" || return 1
	lab -j lab status --name "$LAB" | jcheck 'd["cables"] == "patch" and d["ports"] == 80 and d["ports_edge"] == 16' || return 1
	# the fabric namespace: lo and the 16 host cables' switch ends
	devs=$(ip -n "$LAB" -o link show)
	if [ "$(echo "$devs" | wc -l)" != 17 ] || [ "$(echo "$devs" | grep -c ': s[0-9]*p[0-9]*@')" != 16 ]; then
		echo "$devs"
		return 1
	fi
	# every port of s8 is a patch cable's end, with no device
	nsenter --net="/run/netns/$LAB" "$FTSW" -j port show switch 8 |
		jcheck 'len(d["ports"]) == 4 and all("peer_switch" in x and x["kind"] == "link" and x["oper_up"] and "dev" not in x for x in d["ports"])' || return 1
	# s8 reaches s16; both ends name each other
	read -r p8 p16 <<<"$(cable816)" || return 1
	nsenter --net="/run/netns/$LAB" "$FTSW" port show switch 16 port "$p16" |
		grep -q "^switch 16 port $p16 peer 8:$p8 kind link admin up oper up"
}
tap_check "lab up --patch FT(4,3): 32 patch cables, 16 devices + lo in the fabric namespace, status and lab.conf say patch" up
read -r P8 P16 <<<"$(cable816 2>/dev/null)"

# conf_bad SED MESSAGE: lab.conf edited by the sed script SED is refused
# by `lab status` with MESSAGE; the real one back, status works again.
conf_bad() {
	local conf=/run/ftsw/$LAB/lab.conf out rc=0
	cp "$conf" "$conf.keep" || return 1
	sed -i "$1" "$conf"
	if out=$(lab lab status --name "$LAB" 2>&1); then
		echo "accepted: $1"; rc=1
	elif ! grep -qF -- "$2" <<<"$out"; then
		echo "want '$2', got: $out"; rc=1
	fi
	mv "$conf.keep" "$conf"
	return $rc
}
# lab.conf of this lab, line by line: spec, engine, lmc=0, rate=0,
# hosts=16, switches=20, cables=patch.
conf() {
	local c=/run/ftsw/$LAB/lab.conf
	conf_bad 's/^cables=patch$/cables=fibre/' "$c:7: cables: 'fibre' is neither patch nor veth" &&
		conf_bad 's/^cables=patch$/cables=patch\nrate=1000/' "$c:8: repeated key 'rate'" &&
		conf_bad 's/^cables=patch$/cables=patch\nlinks=9/' "$c:8: unknown key 'links'" &&
		conf_bad 's/^cables=patch$/cables/' "$c:7: not KEY=VALUE" &&
		conf_bad 's/^cables=patch$/cables=patch\nhosts=16/' "$c:8: repeated key 'hosts'" &&
		conf_bad 's/^lmc=0$/lmc=8/' "$c:3: lmc: 8 is out of range (0..7)" &&
		conf_bad 's/^lmc=0$/lmc=x/' "$c:3: lmc" &&
		conf_bad 's/^rate=0$/rate=999/' "$c:4: rate: 999 is neither 0 nor in 1000..2000000000 bytes/s" &&
		conf_bad 's/^rate=0$/rate=1000/' "$c: rate= with cables=patch" &&
		conf_bad 's/^engine=.*$/engine=/' "$c:2: engine: empty" &&
		conf_bad '/^switches=/d' "$c: no 'switches=' line" &&
		conf_bad 's/^hosts=16$/hosts=17/' "$c: 17 hosts and 20 switches, but /run/ftsw/$LAB/topo.net has 16 and 20" &&
		lab lab status --name "$LAB" >/dev/null
}
tap_check "a damaged lab.conf (bad value, repeated, unknown or missing key, counts unlike topo.net) is refused with its file:line, the lab untouched" conf

pings() { [ "$(ping_json)" = "240 0" ]; }
tap_check "all 240 pairs ping across the patch cables" pings

model() {
	lab -j lab traffic --name "$LAB" -p all2all --packets 2 |
		jcheck 'd["exact"] and d["mismatches"] == 0 and d["lost"] == 0 and d["ports"] > 0'
}
tap_check "lab traffic all2all: every port's count == predicted" model

capture() {
	local out
	out=$(lab lab capture --name "$LAB" "s8:$P8" -c 1 2>&1) && { echo "accepted: $out"; return 1; }
	echo "$out" | grep -q "s8:$P8': a patch cable (lab up --patch) has no device to capture on" ||
		{ echo "$out"; return 1; }
}
tap_check "lab capture on a patch cable: refused with the reason" capture

fm_start() {
	lab fm --lab "$LAB" -d || return 1
	grep -q "all 240 host pairs routed" "$LOG" || { cat "$LOG"; return 1; }
	[ "$(st cables cables_usable sweeps)" = "48 48 1" ] || { st cables cables_usable sweeps; return 1; }
}
tap_check "fm discovers the 48 cables from the kernel (32 patch cables by their far ends), routes, commits" fm_start

# once ACTION JSON-EXPR ARGS...: a lab fail/heal costs fm exactly one
# sweep and one generation (the second one would come within 2 s).
once() {
	local act=$1 expr=$2 g0 s0
	shift 2
	read -r g0 s0 <<<"$(st generation sweeps)"
	lab -j lab "$act" --name "$LAB" "$@" | jcheck "$expr" || return 1
	wait_st "d['sweeps'] >= $s0 + 1" || return 1
	sleep 2
	[ "$(st generation sweeps)" = "$((g0 + 1)) $((s0 + 1))" ] ||
		{ echo "generation/sweeps: $g0 $s0 -> $(st generation sweeps)"; return 1; }
}
fail_heal() {
	once fail 'd["count"] == 1 and [(c["a"]["node"], c["b"]["node"], c["cable"], c["state"], "dev" in c["a"])
		  for c in d["changed"]] == [("s8", "s16", "switch", "down", False)]' link s8 s16 || return 1
	[ "$(st cables_usable unreachable_pairs)" = "47 0" ] || return 1
	# both ends down: the kernel's view
	nsenter --net="/run/netns/$LAB" "$FTSW" -j port show switch 16 port "$P16" | jcheck 'not d["ports"][0]["admin_up"] and not d["ports"][0]["oper_up"]' || return 1
	# healed from the far end
	once heal 'd["count"] == 1 and d["changed"][0]["a"]["node"] == "s16" and d["changed"][0]["state"] == "up"' \
		link s16 s8 || return 1
	[ "$(st cables_usable unreachable_pairs)" = "48 0" ] &&
		nsenter --net="/run/netns/$LAB" "$FTSW" -j port show switch 8 port "$P8" | jcheck 'd["ports"][0]["admin_up"] and d["ports"][0]["oper_up"]'
}
tap_check "fail s8 - s16 from s8 (one sweep, both ends down), heal it from s16 (one sweep)" fail_heal

chaos() {
	local out
	lab -j lab chaos --name "$LAB" --count 3 --seed 7 |
		jcheck 'd["count"] == 3 and all(c["cable"] == "switch" and c["state"] == "down" for c in d["changed"])' || return 1
	wait_st "d['cables_usable'] == 45" || return 1
	# the lab reads the patch cables' state from the kernel: 29 left up
	out=$(lab lab chaos --name "$LAB" --count 30 --seed 1 2>&1) && { echo "30 of 29 accepted"; return 1; }
	echo "$out" | grep -q "30 failures asked, 29 switch links up" || { echo "$out"; return 1; }
}
tap_check "chaos: 3 patch cables down, fm sees 45 usable; 30 more of the 29 left refused" chaos

refuse_rate() {
	local out
	out=$(lab lab up --name "${LAB}r" -t ftmn:4,2 --patch --rate 1G 2>&1) && return 1
	echo "$out" | grep -q -- "--patch and --rate exclude each other" && [ ! -e "/run/ftsw/${LAB}r" ]
}
tap_check "lab up --patch --rate: refused, nothing made" refuse_rate

down() {
	lab lab down --name "$LAB" && lab_gone
}
tap_check "lab down (fm first): nothing left" down
tap_check "rmmod ftsw" ftsw_unload
tap_done
