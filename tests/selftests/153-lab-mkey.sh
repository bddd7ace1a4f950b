#!/usr/bin/env bash
# (lab 5f) Management keys under OpenSM (issue 38; Documentation/sm.md,
# "Management keys"): FT(4,2) (6 switches, 8 hosts; OpenSM numbers the
# hosts 1..8 as the lab's plan) under OpenSM with --sm-conf's m_key
# KEY, m_key_protection_level 2, m_key_lease_period 0: OpenSM keys every
# port in band as it brings the subnet up.
# - SUBNET UP, and ftsw's own lab commands work on the keyed fabric (lab
#   status, all 56 pairs of lab ping, lab ib's gateways);
# - smpquery -y KEY -K reads h5's CA port (LID 6) and a switch's port 0:
#   M_Key KEY, ProtectBits 2 (what OpenSM set, read in band);
# - without the key (IBA 14.2.4.1, level 2) smpquery's Gets of the same
#   ports get no answer, and ibportstate cannot even read the port;
# - ibportstate -y KEY sets h5's LinkWidthEnabled to 1X: smpquery -y KEY
#   reads 1X back;
# - a PortInfo Set without the key (madtool.py from h3, LID-routed to 6)
#   gets no answer, adds 1 to h5's MkeyViolations (read with the key) and
#   trap 256 (Bad M_Key) from LID 6 reaches OpenSM (its log);
# - ftsw port show -j shows the same: every switch agent keyed with KEY,
#   ProtectBits 2, lease 0, h5's CA agent's violations as smpquery read;
# - OpenSM's TrapRepress (with the key) stops each trap 256: an agent
#   repeats an unrepressed trap with its TID every subnet timeout (OpenSM's
#   subnet_timeout 18: 1.07 s), so 2.5 s after the last one each TID is
#   once in OpenSM's log (a trap is its source's LID and TID).
. "$(dirname "$0")/lib.sh"
. "$(dirname "$0")/lab-lib.sh"

W=$(mktemp -d)
trap 'lab lab down --name "$LAB" >/dev/null 2>&1; rm -rf "$W"' EXIT
RUN=/run/ftsw/$LAB
KEY=0x6d6b657931323334
MAD="$PY $(dirname "$0")/madtool.py"

tap_plan 10
tap_check "insmod ftsw.ko" ftsw_load

ib() { timeout 120 "$FTSW" lab ib --name "$LAB" h3 -- "$@"; }

up() {
	command -v opensm >/dev/null && command -v smpquery >/dev/null ||
		{ echo "opensm / infiniband-diags missing (make deps)"; return 1; }
	printf 'm_key %s\nm_key_protection_level 2\nm_key_lease_period 0\n' \
		"$KEY" >"$W/mkey.conf"
	lab lab up --name "$LAB" -t ftmn:4,2 --sm opensm --sm-conf "$W/mkey.conf" \
		--sm-timeout 900 >"$W/up" || {
		grep -E "ERR|SUBNET" "/run/ftsw/$LAB.sm-failed/opensm.log" | tail
		return 1
	}
	grep -q "SUBNET UP" "$RUN/opensm.log" || return 1
	lab -j lab status --name "$LAB" | jcheck 'd["hosts"] == 8' || return 1
	[ "$(ping_json 3000)" = "56 0" ]
}
tap_check "lab up FT(4,2) --sm opensm, m_key level 2: SUBNET UP, lab status, all 56 pairs ping" up

# field NAME: the value of smpquery's line NAME:.....VALUE on stdin
field() { sed -n "s/^$1:\.*//p"; }

keyed() {
	local sw
	ib smpquery -y "$KEY" -K portinfo 6 1 >"$W/pi6" || { cat "$W/pi6"; return 1; }
	sw=$(nsenter --net="/run/netns/$LAB" "$FTSW" -j switch show | "$PY" -c 'import json,sys
print(json.load(sys.stdin)["switches"][0]["lid"])') || return 1
	echo "$sw" >"$W/swlid"
	ib smpquery -y "$KEY" -K portinfo "$sw" 0 >"$W/pisw" || { cat "$W/pisw"; return 1; }
	grep -E "^(Mkey|ProtectBits|MkeyLeasePeriod):" "$W/pi6" "$W/pisw"
	for f in "$W/pi6" "$W/pisw"; do
		[ "$(field Mkey <"$f")" = "$KEY" ] && [ "$(field ProtectBits <"$f")" = 2 ] ||
			return 1
	done
}
tap_check "smpquery -y KEY -K: h5's CA port and switch port 0 keyed by OpenSM (M_Key KEY, ProtectBits 2)" keyed

unkeyed() {
	local sw rc=0
	sw=$(cat "$W/swlid")
	! ib smpquery -t 200 portinfo 6 1 >"$W/nk" 2>&1 || { echo "answered:"; cat "$W/nk"; rc=1; }
	! ib smpquery -t 200 nodeinfo "$sw" >"$W/nk" 2>&1 || { echo "answered:"; cat "$W/nk"; rc=1; }
	! ib ibportstate -t 200 6 1 width 1 >"$W/nk" 2>&1 || { echo "answered:"; cat "$W/nk"; rc=1; }
	tail -n 2 "$W/nk"
	return $rc
}
tap_check "without the key: smpquery portinfo / nodeinfo get no answer, ibportstate cannot read the port" unkeyed

set_keyed() {
	ib ibportstate -y "$KEY" 6 1 width 1 >"$W/ps" 2>&1 || { cat "$W/ps"; return 1; }
	ib smpquery -y "$KEY" portinfo 6 1 >"$W/pi6b" || return 1
	field LinkWidthEnabled <"$W/pi6b"
	[ "$(field LinkWidthEnabled <"$W/pi6b")" = 1X ]
}
tap_check "ibportstate -y KEY sets h5's LinkWidthEnabled 1X (read back with the key)" set_keyed

set_unkeyed() {
	local before after i
	before=$(ib smpquery -y "$KEY" portinfo 6 1 | field MkeyViolations) || return 1
	# a PortInfo Set of zeros, M_Key 0: no answer (madtool exits 1)
	lab lab exec --name "$LAB" h3 -- $MAD lid 6 0x01 0x02 0x15 1 >"$W/set" 2>&1
	[ $? = 1 ] || { echo "madtool:"; cat "$W/set"; return 1; }
	after=$(ib smpquery -y "$KEY" portinfo 6 1 | field MkeyViolations) || return 1
	echo "MkeyViolations $before -> $after"
	echo "$after" >"$W/viol"
	[ "$after" -ge $((before + 1)) ] || return 1
	for i in $(seq 1 30); do
		grep -q "num:256 " "$RUN/opensm.log" && break
		sleep 1
	done
	grep -m 2 -E "num:256 " "$RUN/opensm.log"
	grep -q "Received Generic Notice type:[0-9]* num:256 .*from LID:6[^0-9]" "$RUN/opensm.log"
}
tap_check "a PortInfo Set without the key: no answer, MkeyViolations + 1, trap 256 from LID 6 reaches OpenSM" set_unkeyed

shown() {
	ip netns exec "$LAB" "$FTSW" -j port show >"$W/ports" || return 1
	"$PY" - "$W/ports" "$KEY" "$(cat "$W/viol")" <<'EOF2'
import json, sys
ports = json.load(open(sys.argv[1]))["ports"]
key, viol = int(sys.argv[2], 16), int(sys.argv[3])
want = {"key": key, "protect": 2, "lease": 0, "lease_left_ms": 0}
bad = [p for p in ports
       if {k: p["mkey"][k] for k in want} != want]
h5 = [p["ca_mkey"] for p in ports if p.get("lid") == 6]
print("ports", len(ports), "switch agents not as set:", len(bad), "h5's CA:", h5)
sys.exit(not (len(ports) > 8 and not bad and len(h5) == 1 and
              {k: h5[0][k] for k in want} == want and h5[0]["violations"] == viol))
EOF2
}
tap_check "port show -j: every switch agent M_Key KEY, protect 2, lease 0; h5's CA the same, violations as smpquery read" shown

repressed() {
	sleep 2.5
	grep -o "num:256 .* from LID:[0-9]* TID:0x[0-9a-f]*" "$RUN/opensm.log" >"$W/t256"
	# each agent numbers its own traps: a trap is its LID and TID
	sed 's/.*from //' "$W/t256" >"$W/t256.ids"
	cat "$W/t256.ids"
	[ -s "$W/t256.ids" ] && [ -z "$(sort "$W/t256.ids" | uniq -d)" ]
}
tap_check "OpenSM's TrapRepress stops each trap 256: every trap (LID, TID) once in its log" repressed

tap_check "lab down stops OpenSM and the gateways, leaves nothing" lab_sm_down
tap_check "rmmod ftsw" ftsw_unload
tap_done
