# shellcheck shell=bash
# The chains of tests/bench/datapath, sourced by datapath-guest.sh and
# datapath-probe.sh: host S - NSW elements in a row - host R, the elements
# ftsw switches, Linux bridges or Open vSwitch bridges, all in namespace F.
# The caller sets S, R, F (namespace names), NSW, FTSW and OVS (the Open
# vSwitch run directory, with OVS_RUNDIR, OVS_LOGDIR, OVS_DBDIR exported),
# and defines die; the functions use the values current at the call. With
# PATCH=1 the elements of the ftsw and OVS chains are joined by patch
# cables and patch ports, each system's own way of joining two switches
# of one machine without devices; a bridge has none, so the bridge chain
# keeps its veth pairs.

f() { ip netns exec "$F" "$@"; }

hosts() {
	ip netns add "$S"; ip netns add "$R"; ip netns add "$F"
	f sysctl -qw net.ipv6.conf.all.disable_ipv6=1 net.ipv6.conf.default.disable_ipv6=1
	ip link add s0 netns "$F" type veth peer name eth0 netns "$S"
	ip link add r0 netns "$F" type veth peer name eth0 netns "$R"
	ip -n "$S" link set eth0 address 02:66:74:00:00:01 up
	ip -n "$R" link set eth0 address 02:66:74:00:00:02 up
	ip -n "$S" addr add 198.18.0.1/15 dev eth0
	ip -n "$S" neigh add 198.18.0.2 lladdr 02:66:74:00:00:02 dev eth0 nud permanent
	ip -n "$R" addr add 198.18.0.2/15 dev eth0
	ip -n "$R" neigh add 198.18.0.1 lladdr 02:66:74:00:00:01 dev eth0 nud permanent
	f ip link set s0 up; f ip link set r0 up
	# Links between consecutive elements: lNr (right of N) <-> lMl (left of
	# M); with PATCH, for the bridges only.
	local i
	[ -n "${PATCH:-}" ] && [ "${CHAIN:-}" != bridge ] && return 0
	for i in $(seq 1 $((NSW - 1))); do
		f ip link add "l${i}r" mtu 9000 type veth peer name "l$((i + 1))l" mtu 9000
		f ip link set "l${i}r" up; f ip link set "l$((i + 1))l" up
	done
}
left() { [ "$1" = 1 ] && echo s0 || echo "l${1}l"; }
right() { [ "$1" = $NSW ] && echo r0 || echo "l${1}r"; }

chain_ftsw() {
	local i
	for i in $(seq 1 $NSW); do
		f "$FTSW" switch add id "$i" ports 8
		if [ "$i" = 1 ]; then
			f "$FTSW" port bind switch 1 port 1 dev s0 kind edge lid 1
		elif [ -n "${PATCH:-}" ]; then
			:	# bound below, with switch i - 1's port 2
		else
			f "$FTSW" port bind switch "$i" port 1 dev "$(left "$i")" kind link
		fi
		if [ "$i" = $NSW ]; then
			f "$FTSW" port bind switch "$i" port 2 dev r0 kind edge lid 2
		elif [ -n "${PATCH:-}" ]; then
			:	# bound below, once switch i + 1 exists
		else
			f "$FTSW" port bind switch "$i" port 2 dev "$(right "$i")" kind link
		fi
		f "$FTSW" lft set switch "$i" lid 1 port 1 lid 2 port 2
	done
	for i in $(seq 1 $((NSW - 1))); do
		[ -z "${PATCH:-}" ] || f "$FTSW" port bind switch "$i" port 2 peer "$((i + 1)):1"
	done
	f "$FTSW" commit >/dev/null
}
# The ftsw chain in lossless mode (Documentation/lab.md, "Lossless mode"):
# the same switches, the fabric in lossless mode before any port is bound,
# every port at 1 Tbit/s (the rate never limits: the cost per packet of
# buffers, credits and arbitration is what is compared), the hosts' eth0
# with a pfifo qdisc (the edge port stops their queue when its buffer is
# full, as lab up --lossless sets them up).
chain_lossless() {
	local i p
	f "$FTSW" fabric set lossless on
	chain_ftsw
	for i in $(seq 1 $NSW); do
		for p in 1 2; do
			f "$FTSW" port set switch "$i" port "$p" rate 1000G
		done
	done
	ip netns exec "$S" tc qdisc replace dev eth0 root pfifo limit 1000
	ip netns exec "$R" tc qdisc replace dev eth0 root pfifo limit 1000
}
chain_bridge() {
	local i
	for i in $(seq 1 $NSW); do
		f ip link add "br$i" type bridge stp_state 0 mcast_snooping 0
		f ip link set "$(left "$i")" master "br$i"
		f ip link set "$(right "$i")" master "br$i"
		f ip link set "br$i" up
	done
}

# Open vSwitch: its database and daemon live in $OVS (tmpfs; the root is
# read-only), ovs-vswitchd runs in the fabric namespace and drives the
# kernel datapath there. Bridges are standalone (the NORMAL action: MAC
# learning, as the Linux bridge does), STP off, as the defaults are.
ovs() { f ovs-vsctl --db="unix:$OVS/db.sock" --timeout=120 "$@"; }
chain_ovs() {
	local i
	mkdir -p "$OVS"
	ovsdb-tool create "$OVS/conf.db" /usr/share/openvswitch/vswitch.ovsschema ||
		die "ovsdb-tool create failed"
	ovsdb-server "$OVS/conf.db" --remote="punix:$OVS/db.sock" \
		--pidfile="$OVS/ovsdb-server.pid" --unixctl="$OVS/ovsdb-server.ctl" \
		--log-file="$OVS/ovsdb-server.log" --detach --no-chdir ||
		die "ovsdb-server did not start ($OVS/ovsdb-server.log)"
	ovs --no-wait init
	f ovs-vswitchd "unix:$OVS/db.sock" --pidfile="$OVS/ovs-vswitchd.pid" \
		--unixctl="$OVS/ovs-vswitchd.ctl" --log-file="$OVS/ovs-vswitchd.log" \
		--detach --no-chdir ||
		{ cat "$OVS/ovs-vswitchd.log" >&2; die "ovs-vswitchd did not start"; }
	for i in $(seq 1 $NSW); do
		if [ -n "${PATCH:-}" ]; then
			# Patch ports "pNl"/"pNr" between consecutive bridges.
			ovs add-br "ob$i" -- set bridge "ob$i" datapath_type=system \
				-- add-port "ob$i" "$(ovs_end "$i" l)" $(ovs_patch "$i" l) \
				-- add-port "ob$i" "$(ovs_end "$i" r)" $(ovs_patch "$i" r) ||
				{ cat "$OVS/ovs-vswitchd.log" >&2; die "ovs-vsctl add-br ob$i failed"; }
			continue
		fi
		ovs add-br "ob$i" -- set bridge "ob$i" datapath_type=system \
			-- add-port "ob$i" "$(left "$i")" -- add-port "ob$i" "$(right "$i")" ||
			{ cat "$OVS/ovs-vswitchd.log" >&2; die "ovs-vsctl add-br ob$i failed"; }
	done
}
# ovs_end N l|r: the port on that side of bridge N (a host's device at the
# chain's ends, else a patch port); ovs_patch N l|r: its patch options.
ovs_end() {
	case $2 in
	l) [ "$1" = 1 ] && echo s0 || echo "p${1}l" ;;
	r) [ "$1" = $NSW ] && echo r0 || echo "p${1}r" ;;
	esac
}
ovs_patch() {
	case $2 in
	l) [ "$1" = 1 ] || echo "-- set interface p${1}l type=patch options:peer=p$(($1 - 1))r" ;;
	r) [ "$1" = $NSW ] || echo "-- set interface p${1}r type=patch options:peer=p$(($1 + 1))l" ;;
	esac
}
ovs_stop() {
	[ -d "$OVS" ] || return 0
	ovs-appctl -t "$OVS/ovs-vswitchd.ctl" exit --cleanup 2>/dev/null
	ovs-appctl -t "$OVS/ovsdb-server.ctl" exit 2>/dev/null
	rm -rf "$OVS"
}
