#!/usr/bin/env bash
# (96) Hostile management datagrams from a host of the 2-leaf tree
# (build/tests/madfuzz, from tests/selftests/madfuzz.c: seeded,
# reproducible, its own subnet manager): SMPs directed-route and
# LID-routed, PMA, SA and other classes to every switch and CA, their
# modifier AND payload fields that index (ports, blocks, PortSelect, LFT
# entries, FDB tops...) at 0, at the node's count, one past and at their
# largest, directed routes with odd hop counts, pointers and paths, odd
# headers, cut and padded frames, random bytes. Every answer is checked
# (TID, class, attribute, GetResp, D bit, a status IBA gives; the status
# IBA fixes where one index field decides it), /dev/kmsg after every frame.
# Between chunks the operator restores what the units changed (ports
# disabled, CA LIDs) and the fabric must forward. Then the request of
# issue 41 (a PMA GMP naming a port past the switch's four: 0x1C;
# ClassPortInfo with that byte: answered, no port looked up), after the
# campaign, which must find such a bug by itself (KASAN reports once per
# boot). Malformed frames are counted as bad_mad; the harness fails the
# run on any kernel report.
#
# FTSW_MADFUZZ_COUNT units (default 3000: make check's short run), seed
# FTSW_MADFUZZ_SEED (1), in chunks of FTSW_MADFUZZ_CHUNK (default: one);
# FTSW_MADFUZZ_SECONDS (make fuzz-mad) runs for that long instead.
# A failing unit U is replayed in the VM with: madfuzz --seed S --first U
# --count 1 --trace --hex (Documentation/testing.md).
. "$(dirname "$0")/lib.sh"
. "$(dirname "$0")/fabric-lib.sh"
export HOST_NO_V6=1 NHOSTS=2
FUZZ=${FTSW_MADFUZZ:-$FTSW_TOP/build/tests/madfuzz}
N=${FTSW_MADFUZZ_COUNT:-3000}
SEED=${FTSW_MADFUZZ_SEED:-1}
SECS=${FTSW_MADFUZZ_SECONDS:-0}
CHUNK=${FTSW_MADFUZZ_CHUNK:-$N}
W=$(mktemp -d)

tap_plan 8
tap_check "insmod ftsw.ko" ftsw_load
tables() {
	tree_setup 0 &&
		fsw lft set switch 1 lid 1 port 1 lid 2 port 3 &&
		fsw lft set switch 3 lid 1 port 1 lid 2 port 2 &&
		fsw lft set switch 2 lid 1 port 3 lid 2 port 1 &&
		fsw commit >/dev/null
}
tap_check "tree with tables for LIDs 1 and 2" tables

# The campaign's sweep: switches get LIDs 0x200 (leaf 1, found first),
# 0x201.., every LFT routes every LID.
sweep() { hx 0 "$FUZZ" --seed "$SEED" --count 0; }
found() {
	sweep >"$W/sweep" || { cat "$W/sweep"; return 1; }
	cat "$W/sweep"
	[ "$(grep -c '^# node' "$W/sweep")" = 6 ] &&
		grep -q '^# node 1: switch .* 4 ports, LID 0x200, 1 hop$' "$W/sweep"
}
tap_check "madfuzz's sweep: 4 switches, 2 CAs; leaf 1 LID 0x200" found

bad0=$(fabric_stat drops.bad_mad)
# What the units changed that only the operator can undo, undone over
# netlink and rtnetlink once the SMA's deferred work has run (a port
# disabled out of the sweep's reach and its device, a CA's LID: the hosts'
# MACs name LIDs 1 and 2, P_KeyTables and enforcement), then the
# campaign's sweep (LIDs, states, LFTs).
restore() {
	local line want d up=
	sleep 1
	fsw port show >"$W/ports" || return 1
	while read -r line; do
		set -- $line	# switch S port P dev D kind K admin A oper O ... lid L lmc M
		case " $line " in
		*" admin down "*) fsw port set switch "$2" port "$4" up || return 1; up=1 ;;
		esac
		# P_KeyTable Sets leave random keys (a CA's entry 0 is the key
		# its host sends with) and enforcement bits: the defaults back
		case " $line " in
		*" kind edge "*" pkeys "*|*" kind edge "*" ca-pkeys "*)
			fsw port set switch "$2" port "$4" pkeys 0xffff enforce off \
				ca-pkeys 0xffff || return 1 ;;
		*" pkeys "*|*" enforce "*)
			fsw port set switch "$2" port "$4" pkeys 0xffff enforce off || return 1 ;;
		esac
		case "$2:$4" in 1:1) want=1 ;; 2:1) want=2 ;; *) continue ;; esac
		case " $line " in
		*" lid $want lmc 0 "*) ;;
		*) fsw port set switch "$2" port "$4" lid "$want" lmc 0 || return 1 ;;
		esac
	done <"$W/ports"
	for d in $(fab ip -o link show | awk -F': ' '$3 !~ /[<,]UP[,>]/ { sub(/@.*/, "", $2); print $2 }'); do
		fab ip link set "$d" up || return 1
		up=1
	done
	[ -z "$up" ] || sleep 1	# carriers come back
	sweep >/dev/null
}
# The fabric as netlink and ip(8) see it, when the campaign stops.
show() {
	fsw port show
	fab ip -br link
}
# Chunks of consecutive units (the same frames as one run: every unit has
# its own random stream), each followed by a restore and a ping.
campaign() {
	local first=0 start=$SECONDS left rc t
	local -a n
	while :; do
		if [ "$SECS" -gt 0 ]; then
			left=$((SECS - (SECONDS - start)))
			[ "$left" -gt 0 ] || break
			n=(--count "$CHUNK" --seconds "$left")
		else
			[ "$first" -lt "$N" ] || break
			n=(--count $((N - first < CHUNK ? N - first : CHUNK)))
		fi
		hx 0 "$FUZZ" --seed "$SEED" --first "$first" "${n[@]}" --min-answered 30 \
			>"$W/chunk" 2>&1
		rc=$?
		grep -v '^# node' "$W/chunk"
		if [ "$rc" != 0 ]; then
			echo "# the campaign failed $((SECONDS - start)) s in"
			show
			return 1
		fi
		first=$(sed -n 's/^# next unit //p' "$W/chunk")
		[ -n "$first" ] || { echo "# madfuzz said no next unit"; return 1; }
		t=$SECONDS
		restore || { echo "# restoring the fabric failed"; show; return 1; }
		echo "# restored in $((SECONDS - t)) s"
		ping_ok 0 "$(host_ip 1)" 3 ||
			{ echo "# h0 no longer pings h1 after units ..$((first - 1))"; show; return 1; }
		echo "# units 0..$((first - 1)) done in $((SECONDS - start)) s, the fabric forwards"
	done
}
if [ "$SECS" -gt 0 ]; then
	tap_stream "seed $SEED for $SECS s: every answer as IBA says, no kernel report" campaign
else
	tap_stream "seed $SEED, $N units: every answer as IBA says, no kernel report" campaign
fi
# Issue 41: PortCounters (0x12) Get, PortSelect 200 (leaf 1 has 4 ports),
# CounterSelect 0xFFFF: invalid field, 0x1C. ClassPortInfo (0x01) with the
# same bytes: its byte 1 is ClassVersion, nothing is looked up: status 0,
# BaseVersion 1, ClassVersion 1, CapabilityMask IsExtendedWidthSupported.
# On 572353e the second read past leaf 1's port array (KASAN).
issue41() {
	mad_ask 'a["status"] == 0x1c and d[1] == 200' lid 0x200 0x04 1 0x12 0 00c8ffff &&
		mad_ask 'a["status"] == 0 and d[0] == 1 and d[1] == 1 and be(2, 2) == 0x200' \
			lid 0x200 0x04 1 0x01 0 00c8ffff
}
tap_check "issue 41: PMA PortSelect past the ports: 0x1C; ClassPortInfo with it: answered" issue41
counted() {
	local bad
	bad=$(fabric_stat drops.bad_mad)
	echo "bad_mad $bad0 -> $bad"
	[ "$bad" -gt $((bad0 + 100)) ]
}
tap_check "malformed ones counted as bad_mad" counted
tap_check "h0 still pings h1" ping_ok 0 "$(host_ip 1)" 3
tap_check "rmmod ftsw" eval 'fabric_cleanup; ftsw_unload'
rm -rf "$W"
tap_done
