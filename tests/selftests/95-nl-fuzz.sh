#!/usr/bin/env bash
# (95) A hostile generic netlink campaign (tests/selftests/nlfuzz.py, seeded
# and reproducible): valid set-up interleaved with mutated, truncated,
# wrongly nested, duplicated and out-of-range requests of every command
# number, dumps with deletes in between or abandoned; as root in the fabric
# namespace, as an unprivileged user there (mutations refused), and as an
# unprivileged user in its own user + network namespace (a fabric of its
# own). Afterwards the fabric still forwards and rmmod, with a live fabric,
# is clean; the harness fails the run on any kernel report on the console.
#
# FTSW_NLFUZZ_COUNT (default 300: the short run of make check) messages as
# root, a quarter of that in each unprivileged run; FTSW_NLFUZZ_SEED
# (default 1). make fuzz-netlink runs 100,000+.
. "$(dirname "$0")/lib.sh"
. "$(dirname "$0")/fabric-lib.sh"

N=${FTSW_NLFUZZ_COUNT:-300}
SEED=${FTSW_NLFUZZ_SEED:-1}
FUZZ=$(dirname "$0")/nlfuzz.py
tap_plan 9
tap_check "insmod ftsw.ko" ftsw_load
links() {
	fabric_setup || return 1
	for i in 1 2 3 4 5 6; do link_add "x$i" "y$i" || return 1; done
}
tap_check "6 veth pairs in the fabric namespace" links
devs=()
for i in 1 2 3 4 5 6; do devs+=(--dev "x$i" --dev "y$i"); done
# fuzz_run DESC CMD...: like tap_check, but the campaign's summary is
# always shown (as TAP diagnostics).
fuzz_run() {
	local desc=$1 out rc
	shift
	out=$("$@" 2>&1)
	rc=$?
	if [ $rc = 0 ]; then tap_ok "$desc"; else tap_fail "$desc"; fi
	printf '%s\n' "$out" | sed 's/^# //' | tap_diag
}
root() { fab "$PY" "$FUZZ" --seed "$SEED" --count "$N" "${devs[@]}"; }
fuzz_run "root: $N messages, seed $SEED" root
nobody() {
	fab setpriv --reuid=65534 --regid=65534 --clear-groups \
		"$PY" "$FUZZ" --seed "$((SEED + 1))" --count "$((N / 4))" --no-admin "${devs[@]}"
}
fuzz_run "unprivileged in the fabric namespace: $((N / 4)) messages, every mutation refused" nobody
userns() {
	setpriv --reuid=65534 --regid=65534 --clear-groups unshare -Urn sh -c '
		ip link set lo up &&
		ip link add u1 type veth peer name u2 && ip link add u3 type veth peer name u4 &&
		for d in u1 u2 u3 u4; do ip link set $d up; done &&
		exec "$0" "$1" --seed "$2" --count "$3" --dev u1 --dev u2 --dev u3 --dev u4' \
		"$PY" "$FUZZ" "$((SEED + 2))" "$((N / 4))"
}
fuzz_run "unprivileged user namespace, its own fabric: $((N / 4)) messages" userns
forwards() {
	fsw fabric reset && host_add 1 4 && host_add 2 8 && hosts_neigh &&
		fsw switch add id 1 ports 4 &&
		fsw port bind switch 1 port 1 dev h1 kind edge lid 4 &&
		fsw port bind switch 1 port 2 dev h2 kind edge lid 8 &&
		fsw lft set switch 1 lid 4 port 1 lid 8 port 2 && fsw commit >/dev/null &&
		ping_ok 1 "$(host_ip 2)" && ping_ok 2 "$(host_ip 1)"
}
tap_check "the fabric still forwards (fresh switch, ping both ways)" forwards
live() { fsw -j fabric show | grep -q '"switches":1,' || { fsw -j fabric show; false; }; }
tap_check "fabric state readable, one switch live" live
tap_check "rmmod ftsw with the fabric live" ftsw_unload
fabric_cleanup
tap_check "insmod and rmmod again" eval 'ftsw_load && ftsw_unload'
tap_done
