#!/usr/bin/env bash
# MAD frames from hosts, random and mutated (madtool.py fuzz: random
# headers, bit flips in directed-route SMPs, LID-routed SMPs and PMA GMPs,
# random hop counts, pointers and paths, truncated and padded frames),
# 4000 from each of two hosts of the 2-leaf tree: every one answered or
# counted as a drop, the fabric still forwards, the console stays clean
# (the VM harness checks it for KASAN, lockdep and kmemleak reports).
. "$(dirname "$0")/lib.sh"
. "$(dirname "$0")/fabric-lib.sh"
export HOST_NO_V6=1 NHOSTS=2
MAD="$PY $(dirname "$0")/madtool.py"

tap_plan 5
tap_check "insmod ftsw.ko" ftsw_load
tables() {
	tree_setup 0 &&
		fsw lft set switch 1 lid 1 port 1 lid 2 port 3 &&
		fsw lft set switch 3 lid 1 port 1 lid 2 port 2 &&
		fsw lft set switch 2 lid 1 port 3 lid 2 port 1 &&
		fsw commit >/dev/null
}
tap_check "tree with tables for LIDs 1 and 2" tables
bad0=$(fabric_stat drops.bad_mad)
fuzz() {
	hx 0 $MAD fuzz 4000 1 & a=$!
	hx 1 $MAD fuzz 4000 2 & b=$!
	wait $a && wait $b
}
tap_check "8000 random and mutated MAD frames sent" fuzz
counted() {
	local bad
	bad=$(fabric_stat drops.bad_mad)
	echo "bad_mad $bad0 -> $bad"
	[ "$bad" -gt $((bad0 + 100)) ]
}
tap_check "malformed ones counted as bad_mad" counted
tap_check "h0 still pings h1" ping_ok 0 "$(host_ip 1)" 3
fabric_cleanup
tap_done
