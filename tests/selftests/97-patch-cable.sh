#!/usr/bin/env bash
# (97) Patch cables: two switches joined inside the module, with no device
# (PORT_BIND with PORT_PEER_SWITCH and PORT_PEER_NUM, by `port bind ...
# peer S:P`; the requests the CLI cannot build are in 90-malformed).
# Replies show the peer; pings cross the cable with exact counters at both
# ends; one end admin down takes the other's link down and the path with
# it, and up again brings both back; the requests the kernel must refuse
# are refused with their extack; unbinding one end, or deleting the far
# switch, unbinds both; the namespace goes with a cable still bound.
. "$(dirname "$0")/lib.sh"
. "$(dirname "$0")/fabric-lib.sh"
export HOST_NO_V6=1

tap_plan 11
# py EXPR: evaluate EXPR with J = the JSON on stdin.
py() { "$PY" -c "import json,sys; J=json.load(sys.stdin); sys.exit(0 if ($1) else 1)"; }
patch() {	# patch SW PORT PEER_SW PEER_PORT [MORE WORDS]
	local sw=$1 port=$2 psw=$3 pport=$4
	shift 4
	fsw port bind switch "$sw" port "$port" peer "$psw:$pport" "$@"
}
# port_json SW PORT: one port, as JSON (port show gives a list of ports).
port_json() { fsw -j port show switch "$1" port "$2" | "$PY" -c 'import json,sys; print(json.dumps(json.load(sys.stdin)["ports"][0]))'; }

tap_check "insmod ftsw.ko" ftsw_load
# h0 (LID 1) on switch 1 port 1, h1 (LID 2) on switch 2 port 1; switch 1
# port 3 and switch 2 port 3 joined by a patch cable.
setup() {
	fabric_setup && host_add 0 1 && host_add 1 2 && hosts_neigh &&
		fsw switch add id 1 ports 4 && fsw switch add id 2 ports 4 &&
		fsw port bind switch 1 port 1 dev h0 kind edge lid 1 &&
		fsw port bind switch 2 port 1 dev h1 kind edge lid 2 &&
		patch 1 3 2 3 &&
		fsw lft set switch 1 lid 1 port 1 lid 2 port 3 &&
		fsw lft set switch 2 lid 2 port 1 lid 1 port 3 &&
		fsw commit >/dev/null
}
tap_check "two switches, two hosts, a patch cable 1:3 - 2:3" setup
peers() {
	local a b
	a=$(port_json 1 3) && b=$(port_json 2 3) || return 1
	echo "$a"
	echo "$b"
	echo "$a" | py 'J["peer_switch"] == 2 and J["peer_port"] == 3 and J["kind"] == "link" and J["oper_up"] and "ifindex" not in J and "dev" not in J' &&
		echo "$b" | py 'J["peer_switch"] == 1 and J["peer_port"] == 3 and J["oper_up"]' &&
		fsw port show switch 1 port 3 | grep -q "^switch 1 port 3 peer 2:3 kind link admin up oper up"
}
tap_check "each end names the other, no device, link up" peers
counts() {
	local s
	ping_ok 0 "$(host_ip 1)" 5 || return 1
	# Static neighbours and no IPv6: the five requests and five replies
	# are all the frames that cross.
	for s in 1 2; do
		echo "switch $s port 3: tx $(port_stat $s 3 tx_packets) rx $(port_stat $s 3 rx_packets)"
		[ "$(port_stat $s 3 tx_packets)" = 5 ] && [ "$(port_stat $s 3 rx_packets)" = 5 ] || return 1
	done
}
tap_check "h0 pings h1 across the cable: 5 frames each way at each end" counts
down() {
	local b
	fsw port set switch 2 port 3 down || return 1
	b=$(port_json 1 3) || return 1
	echo "$b"
	echo "$b" | py 'J["admin_up"] and not J["oper_up"]' || return 1
	! ping_ok 0 "$(host_ip 1)" 2 && [ "$(port_stat 1 1 drops.port_down)" -ge 2 ]
}
tap_check "switch 2 port 3 admin down: the far end's link goes down, pings fail as port_down" down
up() {
	fsw port set switch 2 port 3 up && port_json 1 3 | py 'J["oper_up"]' &&
		ping_ok 0 "$(host_ip 1)" 2
}
tap_check "admin up again: both ends up, pings cross" up
# refused REASON SW PORT PEER_SW PEER_PORT [WORDS]: the bind must fail with
# REASON, the kernel's extack, shown by the CLI.
refused() {
	local why=$1 out
	shift
	out=$(patch "$@" 2>&1) && { echo "accepted: $*"; return 1; }
	echo "$out" | grep -q "$why" || { echo "$out"; return 1; }
}
refusals() {
	refused "already bound" 1 3 2 4 &&
		refused "far port is already bound" 1 4 2 3 &&
		refused "needs two ports" 1 4 1 4 &&
		refused "no such switch" 1 4 7 1 &&
		refused "far switch's port count" 1 4 2 5 &&
		refused "two link ports" 1 4 2 4 kind edge
}
tap_check "bound ends, one port twice, no such switch, an edge kind: refused with the kernel's reasons" refusals
unbind() {
	local out
	fsw port unbind switch 2 port 3 || return 1
	out=$(fsw -j port show) || return 1
	echo "$out" | py 'sorted((p["switch"], p["port"]) for p in J["ports"]) == [(1, 1), (2, 1)]' &&
		! ping_ok 0 "$(host_ip 1)" 1
}
tap_check "unbinding one end unbinds both" unbind
swdel() {
	local out
	patch 2 3 1 3 && fsw switch del id 2 || return 1
	out=$(fsw -j port show) || return 1
	echo "$out" | py 'sorted((p["switch"], p["port"]) for p in J["ports"]) == [(1, 1)]'
}
tap_check "deleting the far switch unbinds the near end" swdel
gone() {
	fsw switch add id 2 ports 4 && patch 1 3 2 3 && fabric_cleanup
}
tap_check "the namespace goes with a patch cable bound" gone
tap_check "rmmod ftsw" ftsw_unload
tap_done
