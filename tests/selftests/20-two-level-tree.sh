#!/usr/bin/env bash
# (2) A hand-written 2-level tree (4 hosts, 2 leaves, 2 spines), tables set
# with the CLI: all-pairs ping works and every port's tx counter equals what
# tracing the tables predicts, packet for packet.
. "$(dirname "$0")/lib.sh"
. "$(dirname "$0")/fabric-lib.sh"
export HOST_NO_V6=1

tap_plan 8
tap_check "insmod ftsw.ko" ftsw_load
tap_check "build the tree (2 leaves, 2 spines, 4 hosts)" tree_setup 0

# LFTs: destinations 1,2 on leaf 1 (ports 1,2), 3,4 on leaf 2 (ports 1,2).
# Leaf 1 sends LID 3 up via spine 3 and LID 4 via spine 4; leaf 2 sends
# LID 1 via spine 3 and LID 2 via spine 4.
LFTS="1:1=1,2=2,3=3,4=4 2:1=3,2=4,3=1,4=2 3:1=1,2=1,3=2,4=2 4:1=1,2=1,3=2,4=2"
set_tables() {
	local t e
	for t in $LFTS; do
		printf 'lft set switch %s' "${t%%:*}"
		for e in $(echo "${t#*:}" | tr ',' ' '); do
			printf ' lid %s port %s' "${e%=*}" "${e#*=}"
		done
		echo
	done | { cat; echo commit; } | fsw -batch - >/dev/null
}
tap_check "lft set on 4 switches + commit" set_tables

check_lft() {
	fsw -j lft show switch 1 | "$PY" -c '
import json, sys
t = json.load(sys.stdin)
assert t["lft"] == {"1": 1, "2": 2, "3": 3, "4": 4}, t' &&
	fsw -j lft show switch 4 | "$PY" -c '
import json, sys
t = json.load(sys.stdin)
assert t["lft"] == {"1": 1, "2": 1, "3": 2, "4": 2}, t'
}
tap_check "lft show returns the committed tables" check_lft

before=$(all_tx)
all_pairs() {
	local a b fails=0
	for a in 0 1 2 3; do
		for b in 0 1 2 3; do
			[ "$a" = "$b" ] && continue
			hx "$a" ping -c 1 -W 2 -q "$(host_ip "$b")" >/dev/null ||
				{ echo "ping $a -> $b failed"; fails=1; }
		done
	done
	return $fails
}
tap_check "all-pairs ping (12 pairs)" all_pairs
after=$(all_tx)

# Each ordered pair (a, b) carries 2 packets a -> b (a's request and the
# reply to b's request). Trace them through the LFTs.
expect_counts() {
	"$PY" - "$LFTS" "$before" "$after" <<'PYEOF'
import sys
lfts = {}
for t in sys.argv[1].split():
    sw, es = t.split(":")
    lfts[int(sw)] = {int(k): int(v) for k, v in (e.split("=") for e in es.split(","))}
# (switch, port) -> (switch, port) across links; hosts: lid -> (switch, port)
peer = {(1, 3): (3, 1), (1, 4): (4, 1), (2, 3): (3, 2), (2, 4): (4, 2)}
peer.update({v: k for k, v in list(peer.items())})
edge = {1: (1, 1), 2: (1, 2), 3: (2, 1), 4: (2, 2)}
exp = {}
for s in edge:
    for d in edge:
        if s == d:
            continue
        sw = edge[s][0]
        for _ in range(10):
            port = lfts[sw][d]
            exp[(sw, port)] = exp.get((sw, port), 0) + 2
            if (sw, port) == edge[d]:
                break
            sw = peer[(sw, port)][0]
        else:
            raise SystemExit("loop")
def parse(s):
    return {(int(a), int(b)): int(c) for a, b, c in (l.split() for l in s.splitlines())}
b, a = parse(sys.argv[2]), parse(sys.argv[3])
bad = 0
for k in sorted(a):
    got = a[k] - b.get(k, 0)
    want = exp.get(k, 0)
    print("switch %d port %d: tx %d expected %d%s" % (k + (got, want, "" if got == want else "  MISMATCH")))
    bad |= got != want
sys.exit(bad)
PYEOF
}
tap_check "per-port tx counters equal the traced paths" expect_counts

# TCP across the spines with TSO off on leaf 1's uplinks: GSO frames that
# cannot go out whole are segmented and re-encapsulated on the way.
tcp_fallback() {
	local out t0 t1
	fab ethtool -K l1s3 tso off gso off >/dev/null 2>&1
	fab ethtool -K l1s4 tso off gso off >/dev/null 2>&1
	t0=$(($(port_stat 1 3 tx_packets) + $(port_stat 1 4 tx_packets)))
	hx 2 iperf3 -s -D -1 >/dev/null 2>&1
	sleep 0.5
	out=$(hx 0 iperf3 -c "$(host_ip 2)" -t 2 -J 2>&1) || { echo "$out"; return 1; }
	t1=$(($(port_stat 1 3 tx_packets) + $(port_stat 1 4 tx_packets)))
	echo "leaf 1 uplinks: $((t1 - t0)) packets"
	"$PY" -c '
import json, sys
r = json.loads(sys.argv[1])["end"]["sum_received"]
print("TCP %.1f Mbit/s" % (r["bits_per_second"] / 1e6)); assert r["bytes"] > 100000' "$out" &&
		[ $((t1 - t0)) -gt 50 ]
}
tap_check "TCP with TSO off on the uplinks (segmented in the fabric)" tcp_fallback
fabric_cleanup
tap_check "rmmod ftsw" ftsw_unload
tap_done
