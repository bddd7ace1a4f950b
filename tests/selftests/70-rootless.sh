#!/usr/bin/env bash
# (7) Rootless. The fabric: an unprivileged user in a new user+net
# namespace builds and uses its own fabric (switches, ports, a patch cable,
# tables, commit, ping between two nested host namespaces), cannot see the
# init namespace's fabric, and gets EPERM mutating it (dumps stay allowed).
# The lab (Documentation/teaching.md): three unprivileged users build a lab
# each at once (the same lab name, each in their own holder), ping all
# pairs, see only their own (lab list, lab status from the kernel: counts
# by hand from the topologies), fail a cable (one of them under the fabric
# manager, which reroutes), run a lab view each (reached from the initial
# namespace), capture on a cable; none can enter, list or
# take down another's; a lab whose holder was killed says so and goes
# with lab down; a lab up that fails (past a limit on namespaces,
# without the module) leaves nothing behind, with root or without.
. "$(dirname "$0")/lib.sh"
export HOST_NO_V6=1

NOBODY=65534
asuser() { setpriv --reuid=$NOBODY --regid=$NOBODY --clear-groups "$@"; }

# Debian kernels gate unprivileged user namespaces behind a sysctl.
sysctl -qw kernel.unprivileged_userns_clone=1 2>/dev/null || true

tap_plan 17
tap_check "insmod ftsw.ko" ftsw_load
tap_check "init namespace: root creates switch 99" "$FTSW" switch add id 99 ports 2 name initsw

eperm() {
	local out
	out=$(asuser "$FTSW" switch add id 5 ports 2 2>&1) && { echo "$out"; return 1; }
	echo "$out"; echo "$out" | grep -qi "not permitted" || return 1
	out=$(asuser unshare -Ur "$FTSW" switch del id 99 2>&1) && { echo "$out"; return 1; }
	echo "$out"; echo "$out" | grep -qi "not permitted" || return 1
	"$FTSW" switch show id 99 >/dev/null
}
tap_check "unprivileged (also in its own user ns): EPERM on init's fabric" eperm
tap_check "unprivileged dump of init's fabric is allowed" asuser "$FTSW" switch show id 99

LAB=$(mktemp "${TMPDIR:-/tmp}/ftsw-lab.XXXXXX.sh")
chmod 755 "$LAB"
cat >"$LAB" <<'LABEOF'
#!/bin/bash
# Runs as the unprivileged user, root of its own user + net namespace.
set -e
F=$1
[ "$($F switch show)" = "" ] || { echo "sees a foreign fabric"; exit 1; }
ip link set lo up
unshare -n sleep 3600 & P0=$!
unshare -n sleep 3600 & P1=$!
sleep 0.5
ip link add h0 type veth peer name e0
ip link add h1 type veth peer name e1
ip link set e0 netns $P0
ip link set e1 netns $P1
ip link set h0 up; ip link set h1 up
nsenter -t $P0 -n sh -c 'ip link set e0 address 02:66:74:00:00:01 && ip link set e0 up &&
	ip addr add 198.18.0.1/15 dev e0 &&
	ip neigh add 198.18.0.2 lladdr 02:66:74:00:00:02 dev e0 nud permanent'
nsenter -t $P1 -n sh -c 'ip link set e1 address 02:66:74:00:00:02 && ip link set e1 up &&
	ip addr add 198.18.0.2/15 dev e1 &&
	ip neigh add 198.18.0.1 lladdr 02:66:74:00:00:01 dev e1 nud permanent'
$F switch add id 1 ports 3 name mine
$F switch add id 2 ports 3
$F port bind switch 1 port 1 dev h0 kind edge lid 1
$F port bind switch 2 port 1 dev h1 kind edge lid 2
# the two switches joined by a patch cable, no device
$F port bind switch 1 port 3 peer 2:3
$F port show switch 2 port 3 | grep -q "peer 1:3 kind link admin up oper up"
$F lft set switch 1 lid 1 port 1 lid 2 port 3
$F lft set switch 2 lid 2 port 1 lid 1 port 3
$F commit
nsenter -t $P0 -n ping -c 2 -W 2 -q 198.18.0.2
$F switch show | grep -q "name mine"
! $F switch show | grep -q initsw
kill $P0 $P1
LABEOF
rootless_lab() { asuser unshare -Urn "$LAB" "$FTSW"; }
tap_check "unprivileged user+net ns: own fabric, bind, a patch cable, commit, ping" rootless_lab
rm -f "$LAB"

# ---------------------------------------------------------------- labs
#
# Users 2001..2003, each with a runtime directory of their own (as
# pam_systemd gives one) and a topology of their own, all labs named
# "ftsw". Bound ports by hand (an edge port per host, two link ends per
# cable between switches): the 2-ary 2-tree, 4 hosts on 2 leaves each
# cabled to 2 spines, 4 + 2 x 4 = 12; XGFT(2;2,2;1,1), 4 hosts on 2 leaves
# under 1 spine, 4 + 2 x 2 = 8; XGFT(2;2,3;1,1), 6 hosts on 3 leaves under
# 1 spine, 6 + 2 x 3 = 12. Ordered pairs: 12, 12, 30. Switches s0.. are
# the leaves, then the spines.
USERS=(2001 2002 2003)
declare -A TOPO=([2001]=kary:2,2 [2002]='xgft:2;2,2;1,1' [2003]='xgft:2;2,3;1,1')
declare -A HOSTS=([2001]=4 [2002]=4 [2003]=6)
declare -A PORTS=([2001]=12 [2002]=8 [2003]=12)
W=$(mktemp -d "${TMPDIR:-/tmp}/ftsw-70.XXXXXX")
chmod 755 "$W"
for u in "${USERS[@]}" 2004; do
	install -d -m 700 -o "$u" -g "$u" "$W/run-$u" "$W/home-$u"
done
# as U CMD...: CMD as user U, with its runtime directory and home
as() {
	local u=$1
	shift
	setpriv --reuid="$u" --regid="$u" --clear-groups \
		env -i PATH="$PATH" HOME="$W/home-$u" XDG_RUNTIME_DIR="$W/run-$u" "$@"
}
holder() { cut -d' ' -f1 "$W/run-$1/ftsw/.holder" 2>/dev/null; }
# jval U EXPR CMD...: python's EXPR of CMD's JSON output (as U) printed
jval() {
	local u=$1 e=$2
	shift 2
	as "$u" "$FTSW" -j "$@" | python3 -c 'import json,sys; d=json.load(sys.stdin); print(eval(sys.argv[1]))' "$e"
}

three_up() {
	local u rc=0 p pids=()
	for u in "${USERS[@]}"; do
		as "$u" "$FTSW" lab up -t "${TOPO[$u]}" >"$W/up-$u.log" 2>&1 &
		pids+=($!)
	done
	# each by its pid: `wait -n` answers 127 for jobs that ended before it
	for p in "${pids[@]}"; do
		wait "$p" || rc=1
	done
	cat "$W"/up-*.log
	for u in "${USERS[@]}"; do
		[ -n "$(holder "$u")" ] || { echo "user $u: no holder"; rc=1; }
	done
	[ "$(pgrep -c -x ftsw-holder)" = 3 ] || { echo "holders: $(pgrep -a -x ftsw-holder)"; rc=1; }
	return $rc
}
tap_check "three unprivileged users build a lab each at once (all named ftsw)" three_up

all_pairs() {
	local u got rc=0
	for u in "${USERS[@]}"; do
		got=$(jval "$u" 'd["pairs"], d["ok"], d["failed"]' lab ping --all) || rc=1
		want="($((HOSTS[$u] * (HOSTS[$u] - 1))), $((HOSTS[$u] * (HOSTS[$u] - 1))), 0)"
		echo "user $u: pairs, ok, failed $got (want $want)"
		[ "$got" = "$want" ] || rc=1
	done
	return $rc
}
tap_check "each pings all pairs of their own lab" all_pairs

own_only() {
	local u got rc=0
	for u in "${USERS[@]}"; do
		got=$(as "$u" "$FTSW" lab list)
		[ "$got" = ftsw ] || { echo "user $u: lab list '$got'"; rc=1; }
		got=$(as "$u" "$FTSW" lab status | grep -E '^  (hosts|ports) ')
		echo "user $u: $got"
		echo "$got" | grep -q "hosts       ${HOSTS[$u]} " &&
			echo "$got" | grep -q "ports       ${PORTS[$u]} bound" || rc=1
	done
	# the initial namespace's fabric is root's one switch, nothing more
	[ "$("$FTSW" -j fabric show | python3 -c 'import json,sys; print(json.load(sys.stdin)["switches"])')" = 1 ] ||
		{ echo "the initial namespace's fabric changed"; rc=1; }
	return $rc
}
tap_check "each sees only their own lab (lab list; lab status: hosts, ports bound)" own_only

fail_cable() {
	local rc=0 got n
	# 2001 under the fabric manager: a leaf's cable to one of its two
	# spines fails, it reroutes through the other
	as 2001 "$FTSW" fm -d || return 1
	as 2001 "$FTSW" lab fail link s0 s2 || rc=1
	for n in $(seq 100); do
		[ "$(grep -c 'committed generation' "$W/run-2001/ftsw/ftsw/fm.log")" -ge 2 ] && break
		sleep 0.1
	done
	got=$(jval 2001 'd["ok"], d["failed"]' lab ping --all)
	echo "user 2001 after the failure, under fm: ok, failed $got"
	[ "$got" = "(12, 0)" ] || rc=1
	as 2001 "$FTSW" fm stop || rc=1
	# 2002 without one: one cable down in 2002's lab, in nobody else's
	as 2002 "$FTSW" lab fail link s0 s2 || rc=1
	for u in "${USERS[@]}"; do
		got=$(as "$u" "$FTSW" lab status | grep -oE '[0-9]+ down')
		echo "user $u: $got"
		case $u in
		2001|2002) [ "$got" = "2 down" ] || rc=1 ;;
		*) [ "$got" = "0 down" ] || rc=1 ;;
		esac
	done
	return $rc
}
tap_check "a cable fails in one lab only; the fabric manager reroutes it (all pairs again)" fail_cable

# Each user's lab view, on any free port (--listen 127.0.0.1:0, as
# teaching.md advises: the loopback's ports are shared), reached from the
# initial network namespace (where the user's browser is: lab view listens
# before it joins the holder's): its /metrics has that user's switch ports
# (bound by hand above), the failed cable's two ends down in 2001's and
# 2002's lab. The three start at once; lab down stops them (below).
views() {
	local u url rc=0 m up down n p pids=()
	declare -A DOWN=([2001]=2 [2002]=2 [2003]=0)
	for u in "${USERS[@]}"; do
		as "$u" "$FTSW" -j lab view -d --listen 127.0.0.1:0 >"$W/view-$u.json" 2>"$W/view-$u.err" &
		pids+=($!)
	done
	for p in "${pids[@]}"; do
		wait "$p" || { echo "lab view -d: exit $?"; rc=1; }
	done
	for u in "${USERS[@]}"; do
		# -j: the daemon's URL under "url", the lab under "lab"
		url=$(python3 -c 'import json, sys; d = json.load(open(sys.argv[1])); assert d["lab"]; print(d["url"])' \
			"$W/view-$u.json" | grep -o 'http://127\.0\.0\.1:[0-9]*/') ||
			{ cat "$W/view-$u.json" "$W/view-$u.err"; rc=1; continue; }
		# the first sample comes after the daemon listens
		for n in $(seq 100); do
			m=$(curl -sf "${url}metrics") &&
				[ "$(grep -c '^ftsw_port_up{' <<<"$m")" -ge "${PORTS[$u]}" ] && break
			sleep 0.2
		done
		up=$(grep -c '^ftsw_port_up{.*} 1$' <<<"$m")
		down=$(grep -c '^ftsw_port_up{.*} 0$' <<<"$m")
		echo "user $u's view at $url: ports up $up, down $down (want $((PORTS[$u] - DOWN[$u])), ${DOWN[$u]})"
		[ "$up" = $((PORTS[$u] - DOWN[$u])) ] && [ "$down" = "${DOWN[$u]}" ] || rc=1
		curl -sf -o /dev/null "$url" || { echo "user $u: no page"; rc=1; }
	done
	return $rc
}
tap_check "each runs their own lab view, reached from the initial namespace, showing only their lab" views

capture() {
	local rc=0
	as 2003 "$FTSW" lab capture h1 -c 1 -- icmp >"$W/cap.log" 2>&1 &
	sleep 2
	as 2003 "$FTSW" lab ping h0 h1 >/dev/null || rc=1
	wait $! || rc=1
	cat "$W/cap.log"
	grep -q '198.18.0.1 > 198.18.0.2: ICMP echo request' "$W/cap.log" || rc=1
	return $rc
}
tap_check "capture on a cable without root (tcpdump reads what ftsw captures)" capture

untouchable() {
	local rc=0 p2 out
	p2=$(holder 2002)
	# another user's holder: its namespaces cannot be opened or joined
	out=$(as 2001 nsenter -t "$p2" -U -m -n --preserve-credentials true 2>&1) &&
		{ echo "user 2001 entered 2002's holder"; rc=1; }
	echo "nsenter: $out"
	as 2001 cat "/proc/$p2/ns/net" 2>/dev/null && { echo "opened 2002's netns"; rc=1; }
	as 2001 kill "$p2" 2>/dev/null && { echo "killed 2002's holder"; rc=1; }
	as 2001 ls "$W/run-2002/ftsw" 2>/dev/null && { echo "listed 2002's run directory"; rc=1; }
	# pointed at another's runtime directory, ftsw does not take it
	# (and makes nothing of its own for a lab down)
	out=$(setpriv --reuid=2001 --regid=2001 --clear-groups env -i PATH="$PATH" \
		HOME="$W/home-2001" XDG_RUNTIME_DIR="$W/run-2002" "$FTSW" lab down 2>&1) &&
		{ echo "lab down in 2002's directory: $out"; rc=1; }
	echo "lab down with 2002's XDG_RUNTIME_DIR: $out"
	[ -z "$(ls -A "$W/home-2001")" ] || { echo "made $(ls -A "$W/home-2001")"; rc=1; }
	# and 2002's lab is whole: its failed cable still down, then healed
	as 2002 "$FTSW" lab status | grep -q ' 2 down' || { echo "2002's lab changed"; rc=1; }
	as 2002 "$FTSW" lab heal link s0 s2 || rc=1
	out=$(jval 2002 'd["ok"], d["failed"]' lab ping --all)
	echo "user 2002 healed: ok, failed $out"
	[ "$out" = "(12, 0)" ] || rc=1
	return $rc
}
tap_check "no user can enter, kill, list or take down another's lab" untouchable

three_down() {
	local u rc=0 left p3 out n
	# 2003's holder ends (killed by 2003, as a reboot would end it): the
	# lab's namespaces go with it (once its view, still in them, is
	# stopped by lab down), its files stay; commands say so
	p3=$(holder 2003)
	as 2003 kill "$p3" || rc=1
	for n in $(seq 100); do
		grep -qv ') Z ' "/proc/$p3/stat" 2>/dev/null || break
		sleep 0.1
	done
	out=$(as 2003 "$FTSW" lab status 2>&1) && rc=1
	echo "user 2003, holder killed: $out"
	echo "$out" | grep -q "lab ftsw: its namespaces are gone (its holder process ended" || rc=1
	for u in "${USERS[@]}"; do
		as "$u" "$FTSW" lab down || rc=1
		left=$(ls -A "$W/run-$u")
		[ -z "$left" ] || { echo "user $u: left $left"; rc=1; }
	done
	# no holder, and no view: lab down stopped them
	! pgrep -a -x ftsw-holder || rc=1
	! pgrep -a -x ftsw || rc=1
	return $rc
}
tap_check "lab down: no holder, no view, nothing in the runtime directories (one holder killed first: its lab says so)" three_down

# A lab up that fails midway: past the per-user limit on network
# namespaces (the initial user namespace's user.max_net_namespaces counts
# each user's, at every level): the 2-ary 2-tree's 4 hosts need 5 (root)
# or 6 (the holder's too); 4 are allowed. User
# 2004 has made none before (the kernel frees namespaces asynchronously:
# another user's count may not be down yet).
limited_up() {
	local who=$1 rc=0 out old
	old=$(sysctl -n user.max_net_namespaces)
	sysctl -qw user.max_net_namespaces=4
	if [ "$who" = root ]; then
		out=$("$FTSW" lab up --name lim -t kary:2,2 2>&1) && rc=1
	else
		out=$(as 2004 "$FTSW" lab up -t kary:2,2 2>&1) && rc=1
	fi
	sysctl -qw user.max_net_namespaces="$old"
	echo "$out"
	# a host's namespace refused: the holder and the fabric were made
	echo "$out" | grep -Eq -- "-h[0-9]+: unshare: .*user.max_net_namespaces" || rc=1
	if [ "$who" = root ]; then
		[ ! -e /run/ftsw ] || { echo "/run/ftsw left: $(ls -A /run/ftsw)"; rc=1; }
		[ -z "$(ls -A /run/netns 2>/dev/null)" ] || { echo "/run/netns: $(ls -A /run/netns)"; rc=1; }
		! grep -q ' /run/netns ' /proc/self/mountinfo || { echo "/run/netns still a mount"; rc=1; }
		[ -z "$(ip -o link show | grep -E ': s[0-9]+p[0-9]+[@:]')" ] || rc=1
	else
		[ -z "$(ls -A "$W/run-2004")" ] || { echo "left: $(ls -A "$W/run-2004")"; rc=1; }
		! pgrep -a -x ftsw-holder || rc=1
	fi
	return $rc
}
tap_check "lab up that fails midway leaves nothing (rootless)" limited_up user
tap_check "lab up that fails midway leaves nothing (root)" limited_up root

"$FTSW" fabric reset
tap_check "rmmod ftsw" ftsw_unload

no_module() {
	local rc=0 out
	out=$("$FTSW" lab up --name nomod -t kary:2,2 2>&1) && rc=1
	echo "root: $out"
	echo "$out" | grep -q 'is ftsw.ko loaded' || rc=1
	out=$(as 2001 "$FTSW" lab up -t kary:2,2 2>&1) && rc=1
	echo "user 2001: $out"
	echo "$out" | grep -q 'is ftsw.ko loaded' || rc=1
	[ ! -e /run/ftsw ] || { echo "/run/ftsw left"; rc=1; }
	! grep -q ' /run/netns ' /proc/self/mountinfo || { echo "/run/netns mount left"; rc=1; }
	[ -z "$(ls -A "$W/run-2001")" ] || { echo "left: $(ls -A "$W/run-2001")"; rc=1; }
	! pgrep -a -x ftsw-holder || rc=1
	return $rc
}
tap_check "lab up without the module leaves nothing behind (root, and a user)" no_module
rm -rf "$W"
tap_done
