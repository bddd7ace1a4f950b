#!/usr/bin/env bash
# (lab 5g) Every diagnostic answered as the lab is (issue 38;
# Documentation/sm.md, "The diagnostics under OpenSM"): every command of
# that table, from h0 of FT(4,2) under OpenSM, each output checked against
# the lab's topology (topo.net: GUIDs, names, cables) and the kernel's
# state over netlink (LIDs OpenSM set, port states, LFTs, SL-to-VL tables,
# P_Keys, counters read before and after the tools that read them), never
# against another tool's output. One process, tests/selftests/diagtool.py,
# runs the ~150 commands (a few at a time: the tools mostly wait on their
# MADs) and checks them; one TAP line per row of the table, in its order:
# where a row's command answers differently from ibsim, the row says so
# and the check expects the lab's answer (a MAD status, never silence).
. "$(dirname "$0")/lib.sh"
. "$(dirname "$0")/lab-lib.sh"

W=$(mktemp -d)
trap 'lab lab down --name "$LAB" >/dev/null 2>&1; rm -rf "$W"' EXIT
RUN=/run/ftsw/$LAB

# the table's rows, as diagtool.py names them
ROWS=(
	"ibstat, ibaddr, sminfo"
	"ibhosts ... ibnetdiscover, iblinkinfo"
	"ibroute, dump_lfts, dump_mfts, ibtracert, ibidsverify"
	"ibtracert -m MLID"
	"smpquery, smpdump"
	"smpquery -x portinfo"
	"smpquery mepi"
	"smpquery portinfoextended, guids"
	"perfquery"
	"perfquery optional (ibsim zeros)"
	"perfquery optional (ibsim silent)"
	"ibqueryerrors"
	"ibqueryerrors -G"
	"ibportstate LID PORT [query]"
	"ibportstate -D 0 1"
	"saquery"
	"saquery -s"
	"saquery -S -I SR IIR MFTR"
	"saquery PKTR"
	"ibccquery CongestionInfo"
	"ibccquery cp"
	"vendstat -N"
	"ibping"
	"ibsysstat"
	"ibsysstat, no server"
)

tap_plan $((${#ROWS[@]} + 5))
tap_check "insmod ftsw.ko" ftsw_load

up() {
	command -v opensm >/dev/null && command -v smpquery >/dev/null ||
		{ echo "opensm / infiniband-diags missing (make deps)"; return 1; }
	lab lab up --name "$LAB" -t ftmn:4,2 --sm opensm --sm-timeout 900 \
		>"$W/up" || return 1
	grep -q "SUBNET UP" "$RUN/opensm.log"
}
tap_check "lab up FT(4,2) --sm opensm: SUBNET UP" up

# diagtool.py in h0's namespace with what lab ib preloads for the tools
# (FTSW_PRELOAD), not for python
# shellcheck disable=SC2016
diags() {
	timeout 900 "$FTSW" lab ib --name "$LAB" h0 -- /bin/sh -c \
		'FTSW_PRELOAD=$LD_PRELOAD exec env -u LD_PRELOAD "$@"' sh \
		env FTSW="$FTSW" "$PY" "$(dirname "$0")/diagtool.py" "$LAB" "$W"
	[ -s "$W/verdict" ]
}
tap_check "diagtool.py: every command of the table run from h0" diags
[ ! -f "$W/table" ] || tap_diag <"$W/table"

# verdict ROW: diagtool.py's line for ROW says ok (no process: 25 of them)
VERDICT=()
[ ! -f "$W/verdict" ] || mapfile -t VERDICT <"$W/verdict"
verdict() {
	local l
	for l in "${VERDICT[@]}"; do
		[[ $l == "ok $1 ("* ]] && return 0
		[[ $l == "fail $1:"* ]] && echo "$l"
	done
	return 1
}
for r in "${ROWS[@]}"; do
	tap_check "$r" verdict "$r"
done

tap_check "lab down stops OpenSM and the gateways, leaves nothing" lab_sm_down
tap_check "rmmod ftsw" ftsw_unload
tap_done
