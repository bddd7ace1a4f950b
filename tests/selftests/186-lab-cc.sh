#!/usr/bin/env bash
# (issue 39) The congestion control agents (class 0x21) of every switch
# and CA, configured by unmodified OpenSM's congestion control manager and
# read in band by infiniband-diags' ibccquery: FT(4,2) under OpenSM with
# --sm-conf FILE (the congestion_control keys below, none of them
# OpenSM's defaults). Expected by hand from the file: every switch's
# SwitchCongestionSetting (Control_Map 0x1f, threshold 0xc, packet size
# 8, marking rate 10, victim mask ports 1 and 2 = 0x6), a CA's
# CACongestionSetting (SL 0 and 3's entries, Control_Map 0x9) and its
# CongestionControlTable (CCTI_Limit 3: four entries, shift:multiplier as
# written); CongestionInfo's ControlTableCap (2 blocks on a CA, 0 on a
# switch), ClassPortInfo's class version 2, a switch's log (type 1);
# then the CC_Key: ibccconfig sets a CA's key 0x99 with the protect bit,
# a Get without it is not answered, with -c 0x99 it is and counts the
# violation. The lab is lossless: under an incast (h1..h7 -> h0) the
# switches mark FECN, h0's CA returns a notification for each marked
# packet and the sources' CAs receive them all (as many BECNs as CNPs)
# and hold their hosts back by the table's delay; h0's leaf logs the
# marks (ibccquery CL: events, its port to h0 in PortMap). lab up
# --cc-timer-unit 2048 reaches the kernel (fabric show). One lab, one
# gateway shell per batch of queries (each tool takes seconds in a TCG
# guest).
. "$(dirname "$0")/lib.sh"
. "$(dirname "$0")/lab-lib.sh"

W=$(mktemp -d)
trap 'lab lab down --name "$LAB" >/dev/null 2>&1; rm -rf "$W"' EXIT

cat >"$W/cc.conf" <<'EOF'
congestion_control TRUE
cc_sw_cong_setting_control_map 0x1f
cc_sw_cong_setting_victim_mask 0x6
cc_sw_cong_setting_credit_mask 0x1
cc_sw_cong_setting_threshold 0xc
cc_sw_cong_setting_packet_size 8
cc_sw_cong_setting_credit_starvation_threshold 3
cc_sw_cong_setting_credit_starvation_return_delay 1:5
cc_sw_cong_setting_marking_rate 10
cc_ca_cong_setting_port_control 0x1
cc_ca_cong_setting_control_map 0x9
cc_ca_cong_setting_ccti_timer 0 150
cc_ca_cong_setting_ccti_increase 0 1
cc_ca_cong_setting_trigger_threshold 0 100
cc_ca_cong_setting_ccti_min 0 2
cc_ca_cong_setting_ccti_timer 3 300
cc_ca_cong_setting_ccti_increase 3 4
cc_cct 0:0,1:1,2:3,3:7
EOF

tap_plan 9
tap_check "insmod ftsw.ko" ftsw_load

fab() { nsenter --net="/run/netns/$LAB" "$FTSW" "$@"; }

sm_up() {
	command -v opensm >/dev/null && command -v ibccquery >/dev/null ||
		{ echo "opensm or infiniband-diags missing (make deps)"; return 1; }
	lab lab up --name "$LAB" -t ftmn:4,2 --lossless --rate 100kbit \
		--cc-timer-unit 2048 --sm opensm --sm-args "-s 0" \
		--sm-conf "$W/cc.conf" --sm-timeout 900 &&
		grep -q "SUBNET UP" "/run/ftsw/$LAB/opensm.log" &&
		fab -j fabric show | "$PY" -c '
import json, sys
sys.exit(json.load(sys.stdin)["cc_timer_ns"] != 2048)'
}
tap_check "lab up --lossless --cc-timer-unit 2048 --sm opensm --sm-conf CC on FT(4,2): SUBNET UP, the kernel's unit 2048 ns" sm_up

# LIDs from the kernel: h6's CA (edge port "H6"), switch 5 (a spine)
CA=$(fab -j port show | "$PY" -c '
import json, sys
print(" ".join(str(p["lid"]) for p in json.load(sys.stdin)["ports"] if p.get("desc") == "H6"))')
SW=$(fab -j switch show | "$PY" -c '
import json, sys
print(" ".join(str(s["lid"]) for s in json.load(sys.stdin)["switches"] if s["id"] == 5))')

# One gateway shell through h0 for a batch: "@@ NAME" before each output.
batch() {
	timeout 400 "$FTSW" lab ib --name "$LAB" h0 -- sh -c "$1" >"$W/$2" 2>"$W/$2.err"
}
part() { awk -v k="@@ $2" '$0 == k { on = 1; next } /^@@ / { on = 0 } on' "$W/$1"; }
# FIELD value of a libibmad dump ("Name:.....value")
field() { sed -n "s/^$1:\.*//p" | head -1; }

query() {
	echo "CA LID '$CA', switch LID '$SW'" | tap_diag
	[ -n "$CA" ] && [ -n "$SW" ] || return 1
	# OpenSM configures CC after SUBNET UP, its MADs in flight: poll the
	# CA's setting (the last to be sent) for up to a minute
	local i
	for i in 1 2 3 4 5 6; do
		batch "ibccquery CS $CA" cs0 &&
			[ "$(field Control_Map <"$W/cs0")" = 0x0009 ] && break
		sleep 10
	done
	batch "
		echo '@@ cpi'; ibccquery CP $SW
		echo '@@ ci-sw'; ibccquery CI $SW
		echo '@@ ss'; ibccquery SS $SW
		echo '@@ cl-sw'; ibccquery CL $SW
		echo '@@ ci-ca'; ibccquery CI $CA
		echo '@@ cs'; ibccquery CS $CA
		echo '@@ ct'; ibccquery CT $CA
		echo '@@ ti'; ibccquery TI $CA" q || { cat "$W/q.err"; return 1; }
}
tap_check "ibccquery CP CI SS CL (spine) and CI CS CT TI (h6's CA) answered through h0's gateway" query

sw_setting() {
	local bad= f v want
	for f in Control_Map:0x0000001f Threshold:0x0c Packet_Size:8 \
		 CS_Threshold:0x03 Marking_Rate:10 CS_ReturnDelay:0x4005; do
		want=${f#*:}
		v=$(part q ss | field "${f%%:*}")
		[ "$v" = "$want" ] || bad="$bad ${f%%:*}='$v'(want $want)"
	done
	# the masks: port 1 and 2 (victim), port 0 (credit), last byte
	part q ss | grep -E '^(Victim|Credit)_Mask' | tap_diag
	part q ss | grep -q '^Victim_Mask:.*06$' || bad="$bad victim"
	part q ss | grep -q '^Credit_Mask:.*01$' || bad="$bad credit"
	[ "$(part q ci-sw | field ControlTableCap)" = 0 ] || bad="$bad switch-cap"
	[ "$(part q cl-sw | field LogType)" = 1 ] || bad="$bad log-type"
	part q cpi | grep -q '^ClassVersion:\.*2$' || bad="$bad cpi"
	[ -z "$bad" ] || { echo "spine:$bad"; part q ss; return 1; }
}
tap_check "spine: SwitchCongestionSetting = the file's (map 0x1f, threshold 0xc, size 8, CS 3 / 1:5, rate 10, masks 0x6 / 0x1), ControlTableCap 0, log type 1, class version 2" sw_setting

ca_setting() {
	local bad= cs ct
	cs=$(part q cs)
	[ "$(echo "$cs" | field Port_Control)" = 0x0001 ] || bad="$bad port_control"
	[ "$(echo "$cs" | field Control_Map)" = 0x0009 ] || bad="$bad map"
	# SL entries in order: timer, increase, trigger, min of SL 0 and 3
	[ "$(echo "$cs" | grep -A4 '^SL:\.*0$' | sed -n 's/^[A-Za-z_]*:\.*//p' | xargs)" = "0 150 1 100 2" ] ||
		bad="$bad sl0"
	[ "$(echo "$cs" | grep -A4 '^SL:\.*3$' | sed -n 's/^[A-Za-z_]*:\.*//p' | xargs)" = "3 300 4 0 0" ] ||
		bad="$bad sl3"
	ct=$(part q ct)
	[ "$(echo "$ct" | field CCTI_Limit)" = 3 ] || bad="$bad limit"
	# entries 0..3: shift multiplier
	[ "$(echo "$ct" | grep -E '^CCT_(Shift|Multiplier)' | head -8 | sed 's/^[A-Za-z_]*:\.*//' | xargs)" = "0 0 1 1 2 3 3 7" ] ||
		bad="$bad cct"
	[ "$(part q ci-ca | field ControlTableCap)" = 2 ] || bad="$bad cap"
	[ -n "$(part q ti | field Timestamp)" ] || bad="$bad timestamp"
	[ -z "$bad" ] || { echo "CA:$bad"; echo "$cs"; echo "$ct"; return 1; }
}
tap_check "h6's CA: CACongestionSetting (SL 0: 150/1/100/2, SL 3: 300/4, map 0x9), CCT limit 3 = 0:0 1:1 2:3 3:7, ControlTableCap 2, TimeStamp" ca_setting

cc_key() {
	batch "
		echo '@@ set'; ibccconfig CK $CA 0x99 1 60 0
		echo '@@ nokey'; ibccquery -t 500 CK $CA && echo ANSWERED
		echo '@@ key'; ibccquery -c 0x99 CK $CA" k
	part k set | tap_diag
	! part k nokey | grep -q ANSWERED || { echo "answered without the key"; return 1; }
	[ "$(part k key | field CC_Key)" = 0x0000000000000099 ] &&
		[ "$(part k key | field CC_KeyProtectBit)" = 1 ] &&
		[ "$(part k key | field CC_KeyLeasePeriod)" = 60 ] &&
		[ "$(part k key | field CC_KeyViolations)" = 1 ] ||
		{ part k key; cat "$W/k.err"; return 1; }
}
tap_check "CC_Key: ibccconfig CK sets 0x99 protected; a Get without it is not answered, with -c 0x99 it is (1 violation)" cc_key

# h0's edge port: "switch port", its switch's LID
H0=$(fab -j port show | "$PY" -c '
import json, sys
print(" ".join("%d %d" % (p["switch"], p["port"]) for p in json.load(sys.stdin)["ports"] if p.get("desc") == "H0"))')
LEAF=$(fab -j switch show | "$PY" -c '
import json, sys
print(" ".join(str(s["lid"]) for s in json.load(sys.stdin)["switches"] if s["id"] == int(sys.argv[1])))' "${H0%% *}")

incast() {
	printf '%s\n' "1 0" "2 0" "3 0" "4 0" "5 0" "6 0" "7 0" >"$W/incast"
	# --pps is all flows together: 20 a second from each of the 7 sources
	lab -j lab traffic --name "$LAB" -p "file:$W/incast" --pps 140 \
		--size 1420 --duration 4000 >"$W/tr.json" 2>"$W/tr.err" ||
		cat "$W/tr.err" | tap_diag	# its own verdict is not this check's
	fab -j -s port show >"$W/ports" || return 1
	"$PY" - "$W/ports" "$H0" <<'EOF'
import json, sys
ports = json.load(open(sys.argv[1]))["ports"]
h0 = tuple(int(x) for x in sys.argv[2].split())
st = lambda p, k: p["stats"][k]
fecn = sum(st(p, "cc_fecn") for p in ports)
edge = [p for p in ports if p.get("kind") == "edge"]
cnp = sum(st(p, "cc_cnp") for p in edge)
at_h0 = [st(p, "cc_cnp") for p in edge if (p["switch"], p["port"]) == h0]
becn = sum(st(p, "cc_becn") for p in edge)
held = sum(st(p, "cc_held") for p in edge)
print("FECN marks %d, CNPs %d (h0's CA %s), BECNs %d, held %d" %
      (fecn, cnp, at_h0, becn, held))
ok = fecn > 0 and at_h0 == [cnp] and cnp > 0 and becn == cnp and held > 0
sys.exit(0 if ok else 1)
EOF
}
tap_check "incast h1..h7 -> h0: FECN marks, h0's CA returns a CNP per mark, as many BECNs reach the sources, hosts held back" incast

leaf_log() {
	echo "h0 at switch/port '$H0', leaf LID '$LEAF'" | tap_diag
	[ -n "$LEAF" ] || return 1
	batch "ibccquery CL $LEAF" cl || { cat "$W/cl.err"; return 1; }
	grep -E '^(LogEventsCounter|PortMap)' "$W/cl" | tap_diag
	[ "$(field LogEventsCounter <"$W/cl")" -gt 0 ] &&
		! grep -q '^PortMap:\.*0*$' "$W/cl"
}
tap_check "ibccquery CL of h0's leaf: its marks logged (LogEventsCounter > 0, PortMap not empty)" leaf_log

tap_check "lab down, rmmod ftsw" eval 'lab_sm_down && ftsw_unload'
tap_done
