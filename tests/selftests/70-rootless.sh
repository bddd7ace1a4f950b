#!/usr/bin/env bash
# (7) Rootless: an unprivileged user in a new user+net namespace builds and
# uses its own fabric (switches, ports, a patch cable, tables, commit, ping
# between two nested host namespaces), cannot see the init namespace's
# fabric, and gets EPERM mutating the init namespace's fabric (dumps stay
# allowed).
. "$(dirname "$0")/lib.sh"
export HOST_NO_V6=1

NOBODY=65534
asuser() { setpriv --reuid=$NOBODY --regid=$NOBODY --clear-groups "$@"; }

# Debian kernels gate unprivileged user namespaces behind a sysctl.
sysctl -qw kernel.unprivileged_userns_clone=1 2>/dev/null || true

tap_plan 7
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
unshare -n sleep 60 & P0=$!
unshare -n sleep 60 & P1=$!
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
tap_check "init fabric untouched (switch 99 only)" bash -c \
	"[ \"\$('$FTSW' -j fabric show | grep -o '\"switches\":[0-9]*')\" = '\"switches\":1' ]"
rm -f "$LAB"
"$FTSW" fabric reset
tap_check "rmmod ftsw" ftsw_unload
tap_done
