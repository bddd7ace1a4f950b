#!/usr/bin/env bash
# (95) A hostile generic netlink campaign (build/tests/nlfuzz, from
# tests/selftests/nlfuzz.c: seeded, reproducible, batched): valid set-up
# interleaved with mutated, truncated, wrongly nested, duplicated and
# out-of-range requests of every command number, foreign and vanished
# ifindexes (its own veth pairs deleted and made anew), dumps with deletes
# in between or abandoned. It fuzzes a namespace of its own while a
# second fabric forwards beside it: as root (in chunks, pinging across the
# forwarding fabric after each), as an unprivileged user there (every
# mutation refused with EPERM), and as an unprivileged user in its own
# user + network namespace. Afterwards both fabrics work, rmmod with both
# live is clean; the harness fails the run on any kernel report.
#
# FTSW_NLFUZZ_COUNT (default 4000: the short run of make check) units as
# root, a quarter of that in each unprivileged run; FTSW_NLFUZZ_SEED
# (default 1); FTSW_NLFUZZ_CHUNKS (default 4) forwarding checks during the
# root run. make fuzz-netlink runs 100,000. A failing unit U is replayed
# with: nlfuzz --seed S --first U --count 1 --trace (or --first 0 --count
# U+1 to rebuild the state before it); see Documentation/testing.md.
. "$(dirname "$0")/lib.sh"
. "$(dirname "$0")/fabric-lib.sh"

N=${FTSW_NLFUZZ_COUNT:-4000}
SEED=${FTSW_NLFUZZ_SEED:-1}
CHUNKS=${FTSW_NLFUZZ_CHUNKS:-4}
FUZZ=${FTSW_NLFUZZ:-$FTSW_TOP/build/tests/nlfuzz}
ZNS=$FAB-z
tap_plan 11
tap_check "insmod ftsw.ko" ftsw_load

# The forwarding fabric (in $FAB, set up in this shell: host_add keeps
# state): hosts 1 and 2 on switch 1.
pings() { ping_ok 1 "$(host_ip 2)" && ping_ok 2 "$(host_ip 1)"; }
if out=$(one_switch_setup 1 4 2 8 2>&1) && pings; then
	tap_ok "a forwarding fabric beside the fuzzed namespace"
else
	tap_fail "a forwarding fabric beside the fuzzed namespace"
	printf '%s\n' "$out" | tap_diag
fi

zlinks() {
	ip netns add "$ZNS" && ip -n "$ZNS" link set lo up || return 1
	for i in 1 2 3 4 5 6; do
		ip -n "$ZNS" link add "x$i" type veth peer name "y$i" &&
			ip -n "$ZNS" link set "x$i" up && ip -n "$ZNS" link set "y$i" up || return 1
	done
}
tap_check "the fuzzed namespace: 6 veth pairs" zlinks
devs=()
for i in 1 2 3 4 5 6; do devs+=(--dev "x$i" --dev "y$i"); done
# Devices of the forwarding fabric's namespace: foreign ifindexes here.
# (read with ip: fab enters the net namespace only, and /sys shows the
# devices of the namespace that mounted it)
for d in h1 h2; do
	devs+=(--foreign "$(ip -n "$FAB" -o link show dev "$d" | cut -d: -f1)")
done
z() { ip netns exec "$ZNS" "$@"; }

# As root, in CHUNKS runs of consecutive units (the same messages as one
# run: every unit has its own random stream), the forwarding fabric
# pinged after each.
root() {
	local c per=$(((N + CHUNKS - 1) / CHUNKS)) first=0 n
	for c in $(seq 1 "$CHUNKS"); do
		n=$((N - first < per ? N - first : per))
		[ "$n" -gt 0 ] || break
		z "$FUZZ" --seed "$SEED" --first "$first" --count "$n" --churn "${devs[@]}" ||
			return 1
		pings || { echo "# the forwarding fabric stopped after units 0..$((first + n - 1))"; return 1; }
		echo "# chunk $c: units $first..$((first + n - 1)) done, the other fabric forwards"
		first=$((first + n))
	done
}
tap_stream "root: $N units, seed $SEED, the other fabric forwarding after each of $CHUNKS chunks" root
nobody() {
	z setpriv --reuid=65534 --regid=65534 --clear-groups \
		"$FUZZ" --seed "$((SEED + 1))" --count "$((N / 4))" --no-admin "${devs[@]}"
}
tap_stream "unprivileged in the fuzzed namespace: $((N / 4)) units, every mutation refused with EPERM" nobody
userns() {
	setpriv --reuid=65534 --regid=65534 --clear-groups unshare -Urn sh -c '
		ip link set lo up &&
		ip link add u1 type veth peer name u2 && ip link add u3 type veth peer name u4 &&
		for d in u1 u2 u3 u4; do ip link set $d up; done &&
		exec "$0" --seed "$1" --count "$2" --churn --dev u1 --dev u2 --dev u3 --dev u4' \
		"$FUZZ" "$((SEED + 2))" "$((N / 4))"
}
tap_stream "unprivileged user namespace, its own fabric: $((N / 4)) units" userns
tap_check "the forwarding fabric still forwards (ping both ways)" pings
clean() {
	z "$FTSW" fabric reset && z "$FTSW" switch add id 1 ports 4 &&
		z "$FTSW" port bind switch 1 port 1 dev x1 kind edge lid 4 &&
		z "$FTSW" lft set switch 1 lid 4 port 1 && z "$FTSW" commit >/dev/null &&
		{ z "$FTSW" -j fabric show | grep -q '"switches":1,' || { z "$FTSW" -j fabric show; false; }; }
}
tap_check "the fuzzed namespace takes a clean configuration (reset, switch, port, LFT, commit)" clean
live() { fsw -j fabric show | grep -q '"switches":1,' || { fsw -j fabric show; false; }; }
tap_check "forwarding fabric state readable, one switch live" live
tap_check "rmmod ftsw with both fabrics live" ftsw_unload
ip netns del "$ZNS" 2>/dev/null
fabric_cleanup
tap_check "insmod and rmmod again" eval 'ftsw_load && ftsw_unload'
tap_done
