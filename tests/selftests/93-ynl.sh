#!/usr/bin/env bash
# (93) The kernel's own YNL client (tools/net/ynl/cli.py of linux-source-6.12,
# used in place) talks to the module from Documentation/netlink/specs/ftsw.yaml
# alone: dumps and gets agree with the ftsw CLI, a do creates a switch, a
# full LFT dumps through YNL's small receive buffer, and an attribute a
# command does not take comes back as an extack naming it.
. "$(dirname "$0")/lib.sh"
. "$(dirname "$0")/fabric-lib.sh"

tap_plan 10
# The extracted linux-source-6.12 subset: make passes the host's copy
# (FTSW_YNL_SRC); run alone, extract it here.
YSRC=${FTSW_YNL_SRC:-$("$FTSW_TOP/scripts/ynl-src" 2>&1)} || YSRC=
SPEC=$FTSW_TOP/Documentation/netlink/specs/ftsw.yaml
ynl() {
	fab "$PY" "$YSRC/tools/net/ynl/cli.py" --spec "$SPEC" \
		--schema "$YSRC/Documentation/netlink/genetlink-legacy.yaml" "$@"
}
tap_check "linux-source-6.12's tools/net/ynl is there ($YSRC)" test -f "$YSRC/tools/net/ynl/cli.py"
tap_check "insmod ftsw.ko" ftsw_load
setup() {
	fabric_setup && link_add v1 v2 && link_add v3 v4 &&
		fsw switch add id 1 ports 4 name leaf1 && fsw switch add id 2 ports 4 name spine1 &&
		fsw port bind switch 1 port 1 dev v1 kind link &&
		fsw port bind switch 2 port 3 dev v2 kind link &&
		fsw port bind switch 2 port 4 dev v3 kind link &&
		fsw lft set switch 1 lid 1-49151 port 1 && fsw commit >/dev/null
}
tap_check "two switches, three ports, a full LFT" setup
# py EXPR: evaluate EXPR with J = the JSON on stdin.
py() { "$PY" -c "import json,sys; J=json.load(sys.stdin); sys.exit(0 if ($1) else 1)"; }
switches() {
	local out
	out=$(ynl --dump switch-get --output-json) || return 1
	echo "$out"
	echo "$out" | py 'sorted((s["switch-id"], s["switch-name"], s["switch-nports"]) for s in J) == [(1, "leaf1", 4), (2, "spine1", 4)]'
}
tap_check "ynl --dump switch-get: both switches, names and port counts" switches
ports() {
	local out
	out=$(ynl --dump port-get --output-json) || return 1
	echo "$out"
	echo "$out" | py 'sorted((p["switch-id"], p["port-num"], p["port-ifname"], p["port-kind"]) for p in J) == [(1, 1, "v1", "link"), (2, 3, "v2", "link"), (2, 4, "v3", "link")] and all("rx-packets" in p["port-stats"] for p in J)'
}
tap_check "ynl --dump port-get: the three ports, kinds decoded from the enum, stats nests" ports
fabric() {
	local out
	out=$(ynl --do fabric-get --output-json) || return 1
	echo "$out"
	echo "$out" | py 'J["switch-count"] == 2 and J["port-count"] == 3 and J["max-lid"] == 0xBFFF and "no-route" in J["drops"]'
}
tap_check "ynl --do fabric-get: counts, limits, drops by reason name" fabric
newsw() {
	ynl --do switch-new --json '{"switch-id": 9, "switch-nports": 2, "switch-name": "by-ynl"}' &&
		fsw -j switch show id 9 | grep -q '"by-ynl"'
}
tap_check "ynl --do switch-new creates a switch the CLI shows" newsw
lft() {
	local out
	out=$(ynl --dump lft-get --json '{"switch-id": 1}' --dbg-small-recv --output-json 2>/dev/null) || return 1
	echo "$out" | py 'sum(len(bytes.fromhex(m.get("lft-data", ""))) for m in J) == 49152 and [m["lft-first-lid"] for m in J] == sorted(m["lft-first-lid"] for m in J) and len(J) > 10'
}
tap_check "ynl --dump lft-get through a 4000-byte receive buffer: 49152 entries" lft
foreign() {
	local out
	out=$(ynl --do switch-get --json '{"switch-id": 1, "hop-limit": 3}' 2>&1) && return 1
	echo "$out"
	echo "$out" | grep -q "hop-limit"
}
tap_check "ynl --do switch-get with hop-limit: refused, extack names hop-limit" foreign
fabric_cleanup
tap_check "rmmod ftsw" ftsw_unload
tap_done
