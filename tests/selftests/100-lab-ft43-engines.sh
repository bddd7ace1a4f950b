#!/usr/bin/env bash
# (lab 1) FT(4,3): `ftsw lab up` with every engine this topology supports
# (the LMC each needs is found by lab up), then real ICMP between every
# ordered pair of the 16 hosts; `lab down` leaves nothing behind.
. "$(dirname "$0")/lib.sh"
. "$(dirname "$0")/lab-lib.sh"

ENGINES="dmodk dmodc minhop updn sssp dfsssp shift1 disjoint random umulti osrm3 mlid wsr"
tap_plan $(($(echo $ENGINES | wc -w) + 4))
tap_check "insmod ftsw.ko" ftsw_load
for e in $ENGINES; do
	tap_check "FT(4,3) $e: lab up, 240 pairs ping" lab_up_ping ftmn:4,3 "$e"
done
tap_check "nothing left behind after lab down" lab_gone
# A failure half-way rolls back: a name that is taken by a namespace.
rollback() {
	ip netns add "$LAB-h3" || return 1
	if lab lab up --name "$LAB" -t ftmn:4,3 2>&1; then
		echo "lab up succeeded over an existing namespace"
		return 1
	fi
	ip netns del "$LAB-h3"
	lab_gone
}
tap_check "a failing lab up rolls back completely" rollback
tap_check "rmmod ftsw" ftsw_unload
tap_done
