#!/usr/bin/env bash
# (lab 7) The fabric resolves addresses: after `lab up` no host holds a
# neighbour entry; hosts ARP and solicit on demand and the edge ports answer
# from the address plan (host n: 198.18.0.n+1, 2001:2::n+1, LID n+1 at LMC
# 0, MAC 02:66:74:00:00:n+1). IPv4 and IPv6 ping and TCP over IPv6 work;
# `lab traffic` stays exact while the hosts resolve inside its window; DAD
# of another host's address fails, of the host's own succeeds; gratuitous,
# out-of-plan and malformed frames are dropped under their own reasons.
. "$(dirname "$0")/lib.sh"
. "$(dirname "$0")/lab-lib.sh"

TOPO=ftmn:4,2	# 8 hosts, 2 levels
tap_plan 13
tap_check "insmod ftsw.ko" ftsw_load

hx() { local h=$1; shift; nsenter --net="/run/netns/$LAB-h$h" "$@"; }
fx() { nsenter --net="/run/netns/$LAB" "$FTSW" "$@"; }

# fabric_drop REASON: the fabric's total drops for REASON.
fabric_drop() {
	fx -j fabric show | "$PY" -c 'import json,sys; print(json.load(sys.stdin)["drops"][sys.argv[1]])' "$1"
}
# resolved: ARP/ND replies sent by all edge ports together.
resolved() {
	fx -j -s port show | "$PY" -c '
import json, sys
print(sum(p["stats"]["resolved"] for p in json.load(sys.stdin)["ports"]))'
}

up_empty() {
	local fb=/proc/sys/net/core/fb_tunnels_only_for_init_net h
	# The test kernel has sit built in: without the lab's switch, every
	# new namespace would get a sit0 (the check below would see it).
	echo 0 >$fb || return 1
	lab lab up --name "$LAB" -t "$TOPO" >/dev/null || return 1
	[ "$(cat $fb)" = 0 ] || { echo "fb_tunnels_only_for_init_net not restored"; return 1; }
	[ "$(ip -o link show | grep -c ': sit0[:@]')" = 1 ] || { echo "no sit0 in the first namespace"; return 1; }
	# each host's devices, addresses and neighbours (both families) as
	# ip's JSON, two calls a host, checked in one python
	for h in 0 1 2 3 4 5 6 7; do
		echo "$h"
		ip -n "$LAB-h$h" -j addr show && ip -n "$LAB-h$h" -j neigh show ||
			return 1
	done | "$PY" -c '
import json, sys
lines = sys.stdin.read().split("\n")
for i in range(0, 24, 3):
    h, links, neigh = int(lines[i]), json.loads(lines[i + 1]), json.loads(lines[i + 2])
    # only lo and eth0: no fallback tunnel device (sit0)
    names = sorted(l["ifname"] for l in links)
    assert names == ["eth0", "lo"], "h%d: devices %s" % (h, names)
    assert neigh == [], "h%d: neighbours %s" % (h, neigh)
    eth0 = [l for l in links if l["ifname"] == "eth0"][0]
    v6 = [(a["local"], a["prefixlen"]) for a in eth0["addr_info"] if a["family"] == "inet6"]
    assert ("2001:2::%d" % (h + 1), 64) in v6, "h%d: no 2001:2::%d in %s" % (h, h + 1, v6)
    # addr_gen_mode none (set on eth0 by rtnetlink): no link-local
    assert not [a for a, _ in v6 if a.startswith("fe80:")], "h%d: a link-local address" % h
print("8 hosts: lo and eth0, no neighbour, 2001:2::n+1, no link-local")' || return 1
	[ "$(resolved)" = 0 ]
}
tap_check "lab up: 8 hosts with no neighbour entry (IPv4 or IPv6), 2001:2::n+1 on each, no link-local address, no device but lo and eth0 (the fallback-tunnel setting restored)" up_empty

# Device groups of the cables' fabric ends (lab down deletes the lab group
# by group): ftmn:4,2 has 8 host cables (group 1, each cable's switch
# end) and 4 leaves with 2 up-links each, 8 cables between switches (group
# 2, both ends: 16 devices); nothing in group 3; hosts' eth0 in group 0.
groups() {
	local g n want
	for g in 1 2 3; do
		want=$((g == 1 ? 8 : g == 2 ? 16 : 0))
		n=$(ip -n "$LAB" -o link show group "$g" | wc -l)
		[ "$n" = "$want" ] || { echo "group $g: $n devices, not $want"; return 1; }
	done
	ip -n "$LAB-h3" -d link show dev eth0 | grep -q " group default " ||
		{ echo "h3's eth0 not in the default group"; return 1; }
	# One queue each way on both ends of every cable.
	n=$( { ip -n "$LAB" -d link show type veth; ip -n "$LAB-h3" -d link show dev eth0; } |
		grep -c "numtxqueues 1 numrxqueues 1 ")
	[ "$n" = 25 ] || { echo "$n of 25 veth ends with one queue each way"; return 1; }
}
tap_check "the cables' fabric ends in device groups: 8 in group 1 (hosts), 16 in group 2 (switch to switch); one queue each way" groups

# The traffic model: every port's count exact although the hosts resolve
# their peers during the measured window (ARP is answered by the edge
# port and never forwarded: no tx counter moves for it).
model_exact() {
	local r0 r1 out
	r0=$(resolved)
	out=$(lab -j lab traffic --name "$LAB" -p all2all --packets 2) || return 1
	r1=$(resolved)
	echo "ARP/ND replies during the traffic: $((r1 - r0))"
	# Each of the 8 hosts resolved its 7 peers: at least 56 replies.
	[ $((r1 - r0)) -ge 56 ] || return 1
	echo "$out" | "$PY" -c '
import json, sys
d = json.load(sys.stdin)
assert d["exact"] and d["mismatches"] == 0 and d["lost"] == 0, d
print("%d ports exact" % d["ports"])'
}
tap_check "all2all traffic from cold hosts: >= 56 ARP replies in the window, every port's count exact, none lost" model_exact

ping4() {
	[ "$(ping_json)" = "56 0" ] || return 1
	# h0 learnt its 7 peers from the fabric: 198.18.0.N at 02:66:74:00:00:0N.
	local out n=0 ip mac
	out=$(ip -n "$LAB-h0" -4 neigh show dev eth0)
	echo "$out"
	while read -r ip _ mac _; do
		[ "$mac" = "$(printf '02:66:74:00:00:%02x' "${ip##*.}")" ] || return 1
		n=$((n + 1))
	done <<<"$out"
	[ $n = 7 ] && ! ip -n "$LAB-h0" neigh show nud permanent | grep -q .
}
tap_check "all 56 pairs ping (IPv4); h0 holds exactly its 7 peers, each at its LID's MAC, none permanent" ping4

ping6() {
	local h
	for h in 1 2 3 4 5 6 7; do
		hx 0 ping -6 -c 1 -W 5 "2001:2::$((h + 1))" >/dev/null || { echo "h0 -> h$h"; return 1; }
	done
	hx 5 ping -6 -c 1 -W 5 2001:2::3 >/dev/null || return 1
	local out
	out=$(ip -n "$LAB-h0" -6 neigh show dev eth0)
	echo "$out"
	[ "$(echo "$out" | grep -c .)" = 7 ] || return 1
	echo "$out" | grep -q '^2001:2::8 lladdr 02:66:74:00:00:08 ' || return 1
	echo "$out" | grep -q '^2001:2::2 lladdr 02:66:74:00:00:02 '
}
tap_check "IPv6: h0 pings the 7 others and h5 pings h2; h0 solicited its 7 peers (2001:2::8 at 02:66:74:00:00:08)" ping6

tcp6() {
	local out
	hx 6 iperf3 -s -1 -D -B 2001:2::7 || return 1
	sleep 1
	out=$(hx 1 iperf3 -6 -c 2001:2::7 -t 1 -J) || return 1
	echo "$out" | "$PY" -c '
import json, sys
d = json.load(sys.stdin)
b = d["end"]["sum_received"]["bytes"]
print("%d bytes over TCP/IPv6" % b)
assert b > 100000, b'
}
tap_check "TCP over IPv6 h1 -> h6 (iperf3, 1 s)" tcp6

# dad_state HOST ADDR: the flags of ADDR on the host's eth0.
dad_state() { ip -n "$LAB-h$1" -6 -o addr show dev eth0 | grep " $2/64 "; }

dad_other() {
	hx 2 ip -6 addr add 2001:2::5/64 dev eth0 || return 1
	local i
	for i in $(seq 50); do
		dad_state 2 2001:2::5 | grep -q dadfailed && break
		sleep 0.2
	done
	dad_state 2 2001:2::5
	dad_state 2 2001:2::5 | grep -q dadfailed || return 1
	hx 2 ip -6 addr del 2001:2::5/64 dev eth0
}
tap_check "DAD of another host's address (h2 claims h4's 2001:2::5): defended by the fabric, dadfailed" dad_other

dad_own() {
	local a0 i
	a0=$(fabric_drop announce)
	hx 2 ip -6 addr del 2001:2::3/64 dev eth0 || return 1
	hx 2 ip -6 addr add 2001:2::3/64 dev eth0 || return 1
	for i in $(seq 50); do
		dad_state 2 2001:2::3 | grep -q tentative || break
		sleep 0.2
	done
	dad_state 2 2001:2::3
	! dad_state 2 2001:2::3 | grep -qE 'tentative|dadfailed' || return 1
	echo "announce drops: $a0 -> $(fabric_drop announce)"
	[ "$(fabric_drop announce)" -gt "$a0" ] || return 1
	hx 2 ping -6 -c 1 -W 5 2001:2::1 >/dev/null
}
tap_check "DAD of h2's own address: unanswered (counted as announce), the address becomes valid, h2 pings h0" dad_own

# Frames crafted on h0's eth0 (AF_PACKET), one per line of the script.
send_raw() {
	hx 0 "$PY" - "$@" <<'EOF'
import socket, struct, sys
s = socket.socket(socket.AF_PACKET, socket.SOCK_RAW)
s.bind(("eth0", 0))
mac = bytes.fromhex("026674000001")
bc = b"\xff" * 6
def arp(op, sip, tip):
    return struct.pack("!HHBBH6s4s6s4s", 1, 0x0800, 6, 4, op, mac,
                       socket.inet_aton(sip), b"\0" * 6, socket.inet_aton(tip))
for what in sys.argv[1:]:
    if what == "gratuitous":
        f = bc + mac + b"\x08\x06" + arp(1, "198.18.0.1", "198.18.0.1")
    elif what == "other":
        f = bc + mac + b"\x08\x06" + arp(1, "198.18.0.1", "10.9.9.9")
    elif what == "truncated":
        f = bc + mac + b"\x08\x06" + arp(1, "198.18.0.1", "198.18.0.2")[:20]
    elif what == "badhw":
        f = bc + mac + b"\x08\x06" + b"\x00\x06" + arp(1, "198.18.0.1", "198.18.0.2")[2:]
    s.send(f)
EOF
}

refused() {
	local a0 n0 b0
	a0=$(fabric_drop announce); n0=$(fabric_drop no_address); b0=$(fabric_drop bad_resolve)
	send_raw gratuitous other truncated badhw || return 1
	sleep 0.5
	echo "announce $a0 -> $(fabric_drop announce), no_address $n0 -> $(fabric_drop no_address), bad_resolve $b0 -> $(fabric_drop bad_resolve)"
	[ "$(fabric_drop announce)" = $((a0 + 1)) ] &&
		[ "$(fabric_drop no_address)" = $((n0 + 1)) ] &&
		[ "$(fabric_drop bad_resolve)" = $((b0 + 2)) ]
}
tap_check "gratuitous ARP, ARP for 10.9.9.9, truncated and bad-hardware ARP: +1 announce, +1 no_address, +2 bad_resolve" refused

# The plan over the CLI: staged, then committed; a rootless user builds
# its own in a user+net namespace and gets EPERM on the init namespace's.
NOBODY=65534
asuser() { setpriv --reuid=$NOBODY --regid=$NOBODY --clear-groups "$@"; }
sysctl -qw kernel.unprivileged_userns_clone=1 2>/dev/null || true
plan_cli() {
	local out
	out=$(fx -j plan show) || return 1
	echo "$out" | grep -q '"hosts":8,"lid":1,"lmc":0,"ipv4":"198.18.0.1","ipv6":"2001:2::1"' || { echo "$out"; return 1; }
	out=$(asuser unshare -Urn sh -c "'$FTSW' plan set hosts 4 lid 8 lmc 2 ipv4 10.0.0.1 &&
		'$FTSW' -j plan show && '$FTSW' -j plan show staged && '$FTSW' commit >/dev/null &&
		'$FTSW' -j plan show") || { echo "$out"; return 1; }
	echo "$out"
	# Each document is stamped with the version (105 checks its value).
	[ "$(echo "$out" | grep -c '^{"ftsw_version":"[^"]*",')" = 3 ] || return 1
	out=$(echo "$out" | sed 's/^{"ftsw_version":"[^"]*",/{/')
	[ "$(echo "$out" | sed -n 1p)" = '{"hosts":0,"lid":0,"lmc":0,"ipv4":"","ipv6":"","staged":false}' ] &&
		[ "$(echo "$out" | sed -n 2p)" = '{"hosts":4,"lid":8,"lmc":2,"ipv4":"10.0.0.1","ipv6":"","staged":true}' ] &&
		[ "$(echo "$out" | sed -n 3p)" = '{"hosts":4,"lid":8,"lmc":2,"ipv4":"10.0.0.1","ipv6":"","staged":false}' ] || return 1
	out=$(asuser "$FTSW" plan clear 2>&1) && return 1
	echo "$out" | grep -qi "not permitted" || { echo "$out"; return 1; }
	# Rejected plans name the problem.
	out=$(asuser unshare -Urn "$FTSW" plan set hosts 8 lid 3 lmc 1 ipv4 10.0.0.1 2>&1) && return 1
	echo "$out" | grep -q "multiple of 2^LMC" || { echo "$out"; return 1; }
	out=$(asuser unshare -Urn "$FTSW" plan set hosts 4 lid 0xbffe ipv4 10.0.0.1 2>&1) && return 1
	echo "$out" | grep -q "run past 0xBFFF" || { echo "$out"; return 1; }
}
tap_check "ftsw plan: the lab's plan shown; rootless: staged then committed; EPERM on init's; bad plans named" plan_cli

down() { lab lab down --name "$LAB" && lab_gone; }
tap_check "lab down leaves nothing" down
tap_check "rmmod ftsw" ftsw_unload
tap_done
