#!/usr/bin/env bash
# (lossless) Credits end to end over a VXLAN cable between two machines.
#
# Two namespaces, mA and mB, stand for two machines joined only by a veth
# underlay carrying VXLAN (vxlan_cable, as 148 and 150). Each runs its own
# fabric in lossless mode with one switch: h0 on switch 1 (machine A), h1
# on switch 2 (machine B), the VXLAN device bound as a link port on both.
# Neither switch sees the other's counters: the credits cross the cable as
# credit-update frames (datapath.md, "Credit-update frame").
#
# Rates: the VXLAN cable 1 Mbit/s, B's edge port towards h1 500 kbit/s, so
# B's edge port is the bottleneck; buffers 6144 bytes (4 frames of 1472);
# lifetimes infinite (nothing may be discarded). h0 sends 1420-byte UDP
# datagrams (1472-byte frames) as fast as its socket lets it for 5 s.
# Expected, by the credit loop: B's edge queue fills, B's VXLAN input
# buffer fills behind it (its head waits for B:1), B stops granting credit
# (its FCCL stops advancing), A's VXLAN output head waits for credit, A's
# edge input buffer fills behind it and A stops h0's queue, so h0's socket
# blocks. Nothing overflows anywhere, every datagram h0 sent arrives, and
# the credit limit A keeps for the cable is B's buffer (at most 96 blocks
# of 64 bytes), not "unlimited" as before any credit frame.
. "$(dirname "$0")/lib.sh"
PY=/usr/bin/python3

A=lva$$ B=lvb$$ HA=lva$$-h0 HB=lvb$$-h1
OUT=$(mktemp -d /tmp/lv.XXXXXX)
fa() { ip netns exec "$A" "$FTSW" "$@"; }
fb() { ip netns exec "$B" "$FTSW" "$@"; }

cleanup() { for n in "$HA" "$HB" "$A" "$B"; do ip netns del "$n" 2>/dev/null; done; }
trap 'cleanup; rm -rf "$OUT"' EXIT

tap_plan 7
tap_check "insmod ftsw.ko" ftsw_load

setup() {
	two_machines "$A" "$B" "$HA" "$HB" || return 1
	# h0 held back by its edge port needs a queueing qdisc (datapath.md).
	tc -n "$HA" qdisc replace dev eth0 root pfifo limit 1000 || return 1
	fa fabric set lossless on && fb fabric set lossless on || return 1
	two_machine_switches "$A" "$B" || return 1
	fa port set switch 1 port 2 rate 1M hoq-life 20 &&
		fa port set switch 1 port 1 hoq-life 20 &&
		fb port set switch 2 port 2 rate 1M hoq-life 20 &&
		fb port set switch 2 port 1 rate 500kbit hoq-life 20 &&
		fa switch set id 1 life 20 && fb switch set id 2 life 20 || return 1
	fa plan set hosts 2 lid 1 ipv4 198.18.0.1 && fa commit >/dev/null &&
		fb plan set hosts 2 lid 1 ipv4 198.18.0.1 && fb commit >/dev/null
}
tap_check "two lossless machines joined by a VXLAN cable" setup

# pstat NS SW PORT: the port with counters and per-VL state, as JSON
pstat() {
	ip netns exec "$1" "$FTSW" -j -s port show switch "$2" port "$3"
}

send_across() {
	local rpid
	sleep 1	# carrier, and a few keepalive credit frames each way
	pstat "$A" 1 2 >"$OUT/a-link0.json" || return 1
	ip netns exec "$HB" "$PY" - "$OUT/rx" <<'EOF' &
import socket, sys
s = socket.socket(socket.AF_INET, socket.SOCK_DGRAM)
s.bind(("198.18.0.2", 9000))
s.settimeout(30)
n = 0
try:
    s.recv(2048)
    n = 1
    s.settimeout(6)	# the fabric drains at 500 kbit/s: 42 frames/s
    while True:
        s.recv(2048)
        n += 1
except socket.timeout:
    pass
open(sys.argv[1], "w").write("%d\n" % n)
EOF
	rpid=$!
	sleep 1
	ip netns exec "$HA" "$PY" - "$OUT/tx" <<'EOF' || return 1
import socket, sys, time
s = socket.socket(socket.AF_INET, socket.SOCK_DGRAM)
s.connect(("198.18.0.2", 9000))
buf = bytes(1420)
n, end = 0, time.time() + 5
while time.time() < end:
    s.send(buf)
    n += 1
open(sys.argv[1], "w").write("%d\n" % n)
EOF
	# while the fabric still holds a backlog: the state of the cable
	pstat "$A" 1 2 >"$OUT/a-link.json" && pstat "$A" 1 1 >"$OUT/a-edge.json" &&
		pstat "$B" 2 2 >"$OUT/b-link.json" || return 1
	wait "$rpid"
	pstat "$A" 1 2 >"$OUT/a-link2.json" && pstat "$A" 1 1 >"$OUT/a-edge2.json" &&
		pstat "$B" 2 2 >"$OUT/b-link2.json" && pstat "$B" 2 1 >"$OUT/b-edge2.json" &&
		tc -n "$HA" -s -j qdisc show dev eth0 >"$OUT/qdisc.json"
	echo "h0 sent $(cat "$OUT/tx"), h1 received $(cat "$OUT/rx")"
}
tap_check "h0 sends to h1 across the cable for 5 s" send_across

# check WHAT: one of the checks below, on the saved JSON
check() {
	"$PY" - "$OUT" "$1" <<'EOF'
import json, sys
out, what = sys.argv[1:]
def port(name):
    return json.load(open("%s/%s.json" % (out, name)))["ports"][0]
def vl0(name):
    return port(name)["lossless"]["vls"][0]
def drops(name):
    d = port(name)["stats"].get("drops", {})
    return {k: v for k, v in d.items() if v} if isinstance(d, dict) else d
tx, rx = int(open(out + "/tx").read()), int(open(out + "/rx").read())
if what == "lossless":
    q = json.load(open(out + "/qdisc.json"))[0]
    bad = {n: drops(n) for n in ("a-edge2", "a-link2", "b-link2", "b-edge2") if drops(n)}
    print("sent %d received %d; h0 qdisc drops %d; fabric drops %s"
          % (tx, rx, q.get("drops", 0), bad or "none"))
    assert tx > 20 and rx == tx and q.get("drops", 0) == 0 and not bad
elif what == "credits":
    c0, c = vl0("a-link0")["credits"], vl0("a-link")["credits"]
    print("A's credit for the cable before traffic %d, during %d blocks" % (c0, c))
    assert c0 <= 96 and c <= 96
elif what == "backpressure":
    a, e, b = vl0("a-link2"), vl0("a-edge2"), vl0("b-link2")
    print("B's cable input waited %d ns for B's edge; A's cable output "
          "waited %d ns for credit; A's edge input waited %d ns"
          % (b["in_wait_ns"], a["out_wait_ns"], e["in_wait_ns"]))
    assert b["in_wait_ns"] > 0 and a["out_wait_ns"] > 0 and e["in_wait_ns"] > 0
EOF
}
tap_check "every datagram arrives; nothing dropped in the fabric or h0's qdisc" check lossless
tap_check "A's credit for the cable is B's buffer (credit frames crossed), not unlimited" check credits
tap_check "backpressure crosses the cable: B's input waits, A's output waits for credit, A's edge waits" check backpressure
cleanup
tap_check "rmmod ftsw" ftsw_unload
tap_done
