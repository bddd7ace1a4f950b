#!/usr/bin/env bash
# (lab 2) PGFT(2;4,4;1,2;1,2): two parallel links between every leaf and
# spine. Every engine this topology supports: lab up, all-pairs ping, down.
. "$(dirname "$0")/lib.sh"
. "$(dirname "$0")/lab-lib.sh"

TOPO="pgft:2;4,4;1,2;1,2"
ENGINES="dmodk dmodc minhop updn sssp dfsssp"
tap_plan $(($(echo $ENGINES | wc -w) + 3))
tap_check "insmod ftsw.ko" ftsw_load
for e in $ENGINES; do
	tap_check "PGFT parallel links $e: lab up, 240 pairs ping" lab_up_ping "$TOPO" "$e"
done
tap_check "nothing left behind after lab down" lab_gone
tap_check "rmmod ftsw" ftsw_unload
tap_done
