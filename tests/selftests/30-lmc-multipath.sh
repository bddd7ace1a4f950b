#!/usr/bin/env bash
# (3) LMC=1: each host owns 2 LIDs, each routed over its own spine; many
# UDP flows between two hosts spread over both spines (counters). Then a
# per-source fixed offset pins all flows to one spine.
. "$(dirname "$0")/lib.sh"
. "$(dirname "$0")/fabric-lib.sh"
export HOST_NO_V6=1 NHOSTS=2

tap_plan 7
tap_check "insmod ftsw.ko" ftsw_load
tap_check "build the tree, LMC 1 (host 0: LIDs 2-3, host 1: LIDs 4-5)" tree_setup 1
set_tables() {
	fsw lft set switch 1 lid 2-3 port 1 lid 4 port 3 lid 5 port 4 &&
		fsw lft set switch 2 lid 4-5 port 1 lid 2 port 3 lid 3 port 4 &&
		fsw lft set switch 3 lid 2-3 port 1 lid 4-5 port 2 &&
		fsw lft set switch 4 lid 2-3 port 1 lid 4-5 port 2 &&
		fsw commit >/dev/null
}
tap_check "lft set + commit" set_tables
tap_check "ping across" ping_ok 0 "$(host_ip 1)" 2

# 64 flows (source ports), 10 datagrams each.
flows() {
	hx 0 "$PY" -c '
import socket, sys
for sport in range(40000, 40064):
    s = socket.socket(socket.AF_INET, socket.SOCK_DGRAM)
    s.bind(("0.0.0.0", sport))
    for i in range(10):
        s.sendto(b"x" * 64, (sys.argv[1], 9999))
    s.close()' "$(host_ip 1)"
}
spread() {
	local s3 s4 s3b s4b
	s3b=$(port_stat 3 2 tx_packets); s4b=$(port_stat 4 2 tx_packets)
	flows
	sleep 1
	s3=$(($(port_stat 3 2 tx_packets) - s3b)); s4=$(($(port_stat 4 2 tx_packets) - s4b))
	echo "spine 3: $s3 packets, spine 4: $s4 packets (of 640)"
	[ "$((s3 + s4))" = 640 ] && [ "$s3" -ge 100 ] && [ "$s4" -ge 100 ]
}
tap_check "64 flows spread over both spines" spread

pinned() {
	local s3 s4 s3b s4b
	fsw port set switch 1 port 1 offsets 1 || return 1
	s3b=$(port_stat 3 2 tx_packets); s4b=$(port_stat 4 2 tx_packets)
	flows
	sleep 1
	s3=$(($(port_stat 3 2 tx_packets) - s3b)); s4=$(($(port_stat 4 2 tx_packets) - s4b))
	echo "spine 3: $s3 packets, spine 4: $s4 packets (of 640)"
	[ "$s3" = 0 ] && [ "$s4" = 640 ]
}
tap_check "fixed offset 1 pins every flow to spine 4" pinned
fabric_cleanup
tap_check "rmmod ftsw" ftsw_unload
tap_done
