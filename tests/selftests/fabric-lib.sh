# shellcheck shell=bash
# Fabric helpers for the ftsw selftests (sourced after lib.sh; not a test).
#
# The fabric lives in one network namespace ($FAB); every host in its own
# ($FAB-hN) with eth0 at MTU 1500, MAC 02:66:74:00:<LID>, 198.18.0.N+1/15 and
# 2001:db8::N+1/64, static neighbours, no ARP. Switch-side ends of host links
# are hN, links between switches are veth pairs at MTU 9000.

FAB=ftsw$$
: "${TMPDIR:=/tmp}"
PY=/usr/bin/python3

fab() { nsenter --net="/run/netns/$FAB" "$@"; }
# Commands in a namespace run through nsenter --net: its net namespace is
# all they need (netlink, sockets, /proc/sys/net), not the mount namespace
# and /sys that ip netns exec makes for every call (each costs in the guest).
fsw() { nsenter --net="/run/netns/$FAB" "$FTSW" "$@"; }
hns() { echo "$FAB-h$1"; }
hx() { local n=$1; shift; nsenter --net="/run/netns/$(hns "$n")" "$@"; }
lid_mac() { printf '02:66:74:00:%02x:%02x' $(($1 >> 8)) $(($1 & 255)); }
host_ip() { echo "198.18.0.$(($1 + 1))"; }
host_ip6() { echo "2001:db8::$(($1 + 1))"; }

fabric_setup() {
	ip netns add "$FAB" || return 1
	fab sysctl -qw net.ipv6.conf.default.disable_ipv6=1
	fab sysctl -qw net.ipv6.conf.all.disable_ipv6=1
	fab ip link set lo up
}

# host_add N LID: host N with base LID LID behind switch-side device hN.
# One process per namespace step (every exec costs in the TCG guest): the
# host's sysctls and addresses in one shell and one `ip -batch` inside it.
declare -A HOST_LID
host_add() {
	local n=$1 lid=$2 ns v6=1
	ns=$(hns "$n")
	HOST_LID[$n]=$lid
	[ -z "${HOST_NO_V6:-}" ] || v6=
	ip netns add "$ns" || return 1
	ip link add "h$n" netns "$FAB" type veth peer name eth0 netns "$ns" || return 1
	nsenter --net="/run/netns/$ns" sh -c '
		c=/proc/sys/net/ipv6/conf
		if [ -z "$2" ]; then
			echo 1 >$c/all/disable_ipv6 && echo 1 >$c/eth0/disable_ipv6 || exit 1
		fi
		echo 0 >$c/eth0/accept_dad && echo 0 >$c/eth0/router_solicitations &&
			printf "%s\n" "link set lo up" \
				"link set eth0 address $1 mtu 1500" "link set eth0 up" \
				"addr add $3/15 dev eth0" \
				${2:+"addr add $4/64 dev eth0 nodad"} | ip -batch -' \
		sh "$(lid_mac "$lid")" "$v6" "$(host_ip "$n")" "$(host_ip6 "$n")" || return 1
	ip -n "$FAB" link set "h$n" up
}

# hosts_neigh: every host gets permanent neighbours for every other host
# (one `ip -batch` per host).
hosts_neigh() {
	local a b
	for a in "${!HOST_LID[@]}"; do
		for b in "${!HOST_LID[@]}"; do
			[ "$a" = "$b" ] && continue
			echo "neigh replace $(host_ip "$b") lladdr $(lid_mac "${HOST_LID[$b]}") dev eth0 nud permanent"
			[ -n "${HOST_NO_V6:-}" ] ||
				echo "neigh replace $(host_ip6 "$b") lladdr $(lid_mac "${HOST_LID[$b]}") dev eth0 nud permanent"
		done | ip -n "$(hns "$a")" -batch - || return 1
	done
}

# link_add A B: a veth pair A <-> B in the fabric namespace, MTU 9000, up.
link_add() {
	ip -n "$FAB" link add "$1" mtu 9000 type veth peer name "$2" mtu 9000 &&
		ip -n "$FAB" link set "$1" up && ip -n "$FAB" link set "$2" up
}

# links_add A B [A B]...: the pairs of link_add in one `ip -batch`.
links_add() {
	while [ $# -ge 2 ]; do
		echo "link add $1 mtu 9000 type veth peer name $2 mtu 9000"
		echo "link set $1 up"
		echo "link set $2 up"
		shift 2
	done | ip -n "$FAB" -batch -
}

# fabric_cleanup: delete the fabric and every host namespace (by name:
# setups often run in a subshell, e.g. under tap_check).
fabric_cleanup() {
	local ns
	for ns in $(ip netns list | awk '{print $1}'); do
		case "$ns" in "$FAB"-h*) ip netns del "$ns" 2>/dev/null ;; esac
	done
	ip netns del "$FAB" 2>/dev/null
	HOST_LID=()
}

# port_stat SW PORT FIELD: a counter of a port (FIELD: rx_packets,
# tx_packets, drops.no_route, tx_vl.0 ...).
port_stat() {
	fsw -j -s port show switch "$1" port "$2" | "$PY" -c '
import json, sys
p = json.load(sys.stdin)["ports"][0]["stats"]
for k in sys.argv[1].split("."):
    p = p[int(k)] if isinstance(p, list) else p[k]
print(p)' "$3"
}

fabric_stat() {
	fsw -j fabric show | "$PY" -c '
import json, sys
p = json.load(sys.stdin)
for k in sys.argv[1].split("."):
    p = p[k]
print(p)' "$1"
}

ping_ok() { hx "$1" ping -c "${3:-2}" -i 0.2 -W 2 -q "$2" >/dev/null 2>&1; }

# tree_setup LMC: the 2-level tree of tests (2) and (3). Leaves 1 and 2,
# spines 3 and 4; leaf ports 1-2 to hosts, 3 to spine 3, 4 to spine 4;
# spine port 1 to leaf 1, port 2 to leaf 2. Hosts 0,1 on leaf 1 and 2,3
# on leaf 2 (with NHOSTS=2: host 0 on leaf 1, host 1 on leaf 2), base LID
# (n+1) << LMC. Tables are left to the caller.
tree_setup() {
	local lmc=$1 n nh=${NHOSTS:-4}
	fabric_setup || return 1
	for n in $(seq 0 $((nh - 1))); do
		host_add "$n" $(((n + 1) << lmc)) || return 1
	done
	hosts_neigh
	links_add l1s3 s3l1 l1s4 s4l1 l2s3 s3l2 l2s4 s4l2 || return 1
	# the switches and their ports in one ftsw process (-batch)
	{
		echo "switch add id 1 ports 4 name leaf1"
		echo "switch add id 2 ports 4 name leaf2"
		echo "switch add id 3 ports 2 name spine3"
		echo "switch add id 4 ports 2 name spine4"
		echo "port bind switch 1 port 3 dev l1s3 kind link"
		echo "port bind switch 1 port 4 dev l1s4 kind link"
		echo "port bind switch 2 port 3 dev l2s3 kind link"
		echo "port bind switch 2 port 4 dev l2s4 kind link"
		echo "port bind switch 3 port 1 dev s3l1 kind link"
		echo "port bind switch 3 port 2 dev s3l2 kind link"
		echo "port bind switch 4 port 1 dev s4l1 kind link"
		echo "port bind switch 4 port 2 dev s4l2 kind link"
		echo "port bind switch 1 port 1 dev h0 kind edge lid $((1 << lmc)) lmc $lmc"
		if [ "$nh" = 4 ]; then
			echo "port bind switch 1 port 2 dev h1 kind edge lid $((2 << lmc)) lmc $lmc"
			echo "port bind switch 2 port 1 dev h2 kind edge lid $((3 << lmc)) lmc $lmc"
			echo "port bind switch 2 port 2 dev h3 kind edge lid $((4 << lmc)) lmc $lmc"
		else
			echo "port bind switch 2 port 1 dev h1 kind edge lid $((2 << lmc)) lmc $lmc"
		fi
	} | fsw -batch -
}

# chain_setup: the chain of tests (5) and (8): switch 1 (h0 on port 1,
# LID 1) cabled port 2 to port 2 of switch 2 (h1 on port 1, LID 2), tables
# for both LIDs committed.
chain_setup() {
	fabric_setup && host_add 0 1 && host_add 1 2 && hosts_neigh &&
		link_add a12 b21 &&
		printf '%s\n' "switch add id 1 ports 2" "switch add id 2 ports 2" \
			"port bind switch 1 port 1 dev h0 kind edge lid 1" \
			"port bind switch 1 port 2 dev a12 kind link" \
			"port bind switch 2 port 1 dev h1 kind edge lid 2" \
			"port bind switch 2 port 2 dev b21 kind link" \
			"lft set switch 1 lid 1 port 1 lid 2 port 2" \
			"lft set switch 2 lid 1 port 2 lid 2 port 1" \
			"commit" | fsw -batch - >/dev/null
}

# one_switch_setup A LID_A B LID_B: hosts A and B on ports 1 and 2 of
# switch 1 (4 ports) with those LIDs, tables for both committed.
one_switch_setup() {
	fabric_setup && host_add "$1" "$2" && host_add "$3" "$4" && hosts_neigh &&
		printf '%s\n' "switch add id 1 ports 4" \
			"port bind switch 1 port 1 dev h$1 kind edge lid $2" \
			"port bind switch 1 port 2 dev h$3 kind edge lid $4" \
			"lft set switch 1 lid $2 port 1 lid $4 port 2" \
			"commit" | fsw -batch - >/dev/null
}

# all_tx: "SW PORT TX" lines for every bound port.
all_tx() {
	fsw -j -s port show | "$PY" -c '
import json, sys
for p in json.load(sys.stdin)["ports"]:
    print(p["switch"], p["port"], p["stats"]["tx_packets"])'
}

# mad_ask EXPR ARGS...: madtool.py from host 0 with ARGS (a MAD and its
# answer, tests/selftests/madtool.py), then a Python expression over the
# answer `a` and its data bytes `d` (be(offset, n): big endian) must hold.
mad_ask() {
	local expr=$1 rc=0
	shift
	nsenter --net="/run/netns/$(hns 0)" "$PY" "$FTSW_TOP/tests/selftests/madtool.py" \
		--expect "$expr" "$@" || rc=$?
	[ "$rc" != 1 ] || echo "no answer to $*"
	return $((rc != 0))
}
