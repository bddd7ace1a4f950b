#!/usr/bin/env bash
# (lab 5g) Every diagnostic answered (issue 38; Documentation/sm.md,
# "The diagnostics under OpenSM"): infiniband-diags from h0 on FT(4,2)
# under OpenSM, the tools whose answer once differed from ibsim's (the
# peer: Debian's ibsim-utils with the same topology and OpenSM) or was
# silence. LIDs as OpenSM gives them from the lab's plan: hosts 1..8 (h0,
# OpenSM's port, is 1), switches 9..14. Expected values from ibsim's
# answers and IBA, not from the lab's:
# - sminfo: the master SM at LID 1 (SMINFO_MASTER, state 3); saquery -s:
#   exactly one IsSM port, LID 1 (the gateway sets IsSM for OpenSM);
# - smpquery -x portinfo (PortInfo with attribute modifier bit 31, IBA
#   14.2.5.6: ibsim answers it), ibportstate's query of a switch port
#   (Active, its LID 9) and ibccquery CongestionInfo (the CC agent) answer;
# - saquery of tables OpenSM holds empty here (ServiceRecords, -S,
#   InformInfoRecords, MFTRecords) exits 0 as on ibsim, no timeout;
# - what the lab has not got is answered with a MAD status (IBA 13.4.7,
#   never silence): smpquery mepi (a vendor SMP attribute), perfquery -D
#   and -X (optional PMA attributes), vendstat (a vendor class to a
#   switch) each fail at once, without libibmad's receive timeout (ibsim:
#   zeros for mepi and -D, silence for the rest); ibsysstat to a host that
#   runs no ibsysstat server gets its MAD layer's status answer, which it
#   takes for a ping (ibsim: silence, a timeout).
. "$(dirname "$0")/lib.sh"
. "$(dirname "$0")/lab-lib.sh"

W=$(mktemp -d)
trap 'lab lab down --name "$LAB" >/dev/null 2>&1; rm -rf "$W"' EXIT
RUN=/run/ftsw/$LAB
# libibmad's and libibumad's words for a request that got no answer
SILENT='recv failed|_do_madrpc failed|timed out|umad_recv failed'

tap_plan 8
tap_check "insmod ftsw.ko" ftsw_load

# tool NAME CMD...: run CMD on h0, output in $W/NAME, "rc seconds" in
# $W/NAME.rc; a line of the run's table on stdout and in $W/table
tool() {
	local name=$1 s rc t
	shift
	s=$EPOCHREALTIME
	timeout 60 "$FTSW" lab ib --name "$LAB" h0 -- "$@" >"$W/$name" 2>&1
	rc=$?
	t=$(awk -v s="$s" -v e="$EPOCHREALTIME" 'BEGIN { printf "%.1f", e - s }')
	echo "$rc $t" >"$W/$name.rc"
	printf '%-32s rc %3d %5s s\n' "$*" "$rc" "$t" | tee -a "$W/table"
}
rc() { cut -d' ' -f1 "$W/$1.rc"; }
# field FILE NAME: a smpquery-style field's value
field() { sed -n "s/^$2:\.*//p" "$W/$1" | head -n 1; }

up() {
	command -v opensm >/dev/null && command -v smpquery >/dev/null ||
		{ echo "opensm / infiniband-diags missing (make deps)"; return 1; }
	lab lab up --name "$LAB" -t ftmn:4,2 --sm opensm --sm-timeout 900 \
		>"$W/up" || return 1
	grep -q "SUBNET UP" "$RUN/opensm.log"
}
tap_check "lab up FT(4,2) --sm opensm: SUBNET UP" up

sm() {
	tool sminfo sminfo
	tool issm saquery -s
	grep -q "sm lid 1 .*state 3 SMINFO_MASTER" "$W/sminfo" ||
		{ cat "$W/sminfo"; return 1; }
	# the IsSM section: one PortInfoRecord, LID 1
	sed -n '/^IsSM ports/,/^IsSMdisabled/p' "$W/issm" >"$W/issm.on"
	grep -E "EndPortLid|base_lid" "$W/issm.on"
	[ "$(rc issm)" = 0 ] &&
		[ "$(grep -c 'EndPortLid' "$W/issm.on")" = 1 ] &&
		grep -Eq 'EndPortLid\.+1$' "$W/issm.on" || { cat "$W/issm"; return 1; }
}
tap_check "sminfo: master SM at LID 1; saquery -s: one IsSM port, LID 1" sm

answered() {
	tool pix smpquery -x portinfo 4 1
	tool pstate ibportstate 9 3 query
	tool cci ibccquery CongestionInfo 9
	[ "$(rc pix)" = 0 ] && [ "$(field pix Lid)" = 4 ] ||
		{ cat "$W/pix"; return 1; }
	[ "$(rc pstate)" = 0 ] && [ "$(field pstate LinkState)" = Active ] &&
		[ "$(field pstate Lid)" = 9 ] || { cat "$W/pstate"; return 1; }
	[ "$(rc cci)" = 0 ] && grep -q '^ControlTableCap:' "$W/cci" ||
		{ cat "$W/cci"; return 1; }
}
tap_check "smpquery -x portinfo, ibportstate query, ibccquery CongestionInfo answer" answered

empty() {
	local t bad=0
	tool sr saquery SR
	tool sS saquery -S
	tool iir saquery IIR
	tool mftr saquery MFTR
	for t in sr sS iir mftr; do
		[ "$(rc $t)" = 0 ] && ! grep -Eq "$SILENT" "$W/$t" ||
			{ cat "$W/$t"; bad=1; }
	done
	return $bad
}
tap_check "saquery SR, -S, IIR, MFTR (empty tables): exit 0, no timeout" empty

status() {
	local t bad=0
	tool mepi smpquery mepi 9 1
	tool pqd perfquery -D 9 1
	tool pqx perfquery -X 9 1
	tool vend vendstat -N 9
	tool sys ibsysstat 4
	for t in mepi pqd pqx vend; do
		[ "$(rc $t)" != 0 ] && [ "$(rc $t)" != 124 ] &&
			! grep -Eq "$SILENT" "$W/$t" || { cat "$W/$t"; bad=1; }
	done
	# the host's MAD layer answers the class no tool registered (0x0C, as
	# Linux's ib_mad does): any answer is a ping to ibsysstat
	[ "$(rc sys)" = 0 ] && grep -q "sysstat ping succeeded" "$W/sys" &&
		! grep -Eq "$SILENT" "$W/sys" || { cat "$W/sys"; bad=1; }
	return $bad
}
tap_check "what the lab has not got is answered with a MAD status, not silence: smpquery mepi, perfquery -D/-X, vendstat fail at once; ibsysstat without a server: ping answered" status

# every tool's exit status and seconds, for sm.md's table
[ ! -f "$W/table" ] || tap_diag <"$W/table"

tap_check "lab down stops OpenSM and the gateways, leaves nothing" lab_sm_down
tap_check "rmmod ftsw" ftsw_unload
tap_done
