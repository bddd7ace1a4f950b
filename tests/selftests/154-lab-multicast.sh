#!/usr/bin/env bash
# (lab 5f) Multicast under OpenSM (issue 38; Documentation/sm.md,
# "Multicast"). One lab, FT(4,3) under OpenSM (minhop, ROUTING in its log
# flags: it writes its MFTs to opensm.mcfdbs); 8 hosts, one under each
# leaf (h0 h2 h5 h7 h8 h10 h13 h15), join the IPv6 group ff12::154 (a UDP
# receiver each, IPV6_JOIN_GROUP on eth0: build/tests/mcpeer, in C because
# a python process costs seconds to start and end in the TCG VM; IPv6
# because the test kernel has no IPv4 multicast, CONFIG_IP_MULTICAST) and
# lab sm mcast joins the hosts' groups through the SA. By hand and by independent readings:
# - the 8 members' edge ports list ff12::154 with one MLID (the SA's), the
#   other 8 do not;
# - OpenSM's MFTs (its dump) = the switches' as dump_fts -M reads them in
#   band, every switch and MLID;
# - h0 sends 5 datagrams: each other member's receiver gets each exactly
#   once, h0 none; the VL 0 transmit counter of every switch port (edge and
#   link) rose by 5 on the ports of the tree the MFTs give from h0's edge
#   port (computed in mftcmp.py from OpenSM's tables and the cables) and 0
#   on every other: so no non-member's port sent anything;
# - h13 leaves (its receiver closed; lab sm mcast --follow, running, sends
#   the MCMemberRecord Delete at its next pass and ends at SIGTERM):
#   its edge port no longer lists the group, OpenSM's MFTs = the switches'
#   again, and 5 more datagrams reach the 6 others once each, the new tree's
#   ports exactly, h13's port nothing.
. "$(dirname "$0")/lib.sh"
. "$(dirname "$0")/lab-lib.sh"

W=$(mktemp -d)
MEMBERS="0 2 5 7 8 10 13 15"
RUN=/run/ftsw/$LAB
CMP="$PY $(dirname "$0")/mftcmp.py"
MCPEER=${FTSW_MCPEER:-$FTSW_TOP/build/tests/mcpeer}
trap 'bg_stop "$W"; lab lab down --name "$LAB" >/dev/null 2>&1; rm -rf "$W"' EXIT

tap_plan 8
tap_check "insmod ftsw.ko" ftsw_load

fab() { ip netns exec "$LAB" "$FTSW" "$@"; }
# hostns N CMD...: CMD in host hN's network namespace only (lab exec's own
# mount namespace, as ip netns exec's, costs the TCG guest seconds to end:
# 7 receivers took 18.8 s)
hostns() { local h=$1; shift; nsenter --net="/run/netns/$LAB-h$h" "$@"; }

# igmp_gone HOST: wait until HOST's kernel no longer has ff12::154 on eth0
# (/proc/net/igmp6).
igmp_gone() {
	local i
	for i in $(seq 1 50); do
		hostns "$1" cat /proc/net/igmp6 |
			grep -q 'eth0 *ff120000000000000000000000000154' || return 0
		sleep 0.2
	done
	echo "h$1: still a member of ff12::154"
	return 1
}

up() {
	command -v opensm >/dev/null && command -v dump_fts >/dev/null ||
		{ echo "opensm / infiniband-diags missing (make deps)"; return 1; }
	lab lab up --name "$LAB" -t ftmn:4,3 --sm opensm --sm-args "-D 0x43" \
		--sm-timeout 900 || return 1
	local h i
	for h in $MEMBERS; do
		nsenter --net="/run/netns/$LAB-h$h" "$MCPEER" recv \
			ff12::154 5000 eth0 "$W/got.$h" </dev/null >"$W/r$h.log" 2>&1 &
		bg_keep "$W" "r$h" $!
	done
	# a receiver's IPV6_JOIN_GROUP has returned (the kernel lists the
	# group) once it says so
	for h in $MEMBERS; do
		for i in $(seq 1 100); do
			[ -e "$W/got.$h.ready" ] && break
			sleep 0.2
		done
		[ -e "$W/got.$h.ready" ] || { echo "h$h never joined ff12::154"; return 1; }
	done
	lab -j lab sm --name "$LAB" mcast | tee "$W/mc.json" &&
		jcheck 'd["hosts"] == 16 and d["joined"] >= 8 + 16' <"$W/mc.json"
}
tap_check "lab up FT(4,3) --sm opensm; 8 hosts listen on ff12::154; lab sm mcast joins every host's groups through the SA" up

# members LIST: the edge ports of LIST list ff12::154 with one MLID, the
# others not; the MLID in $W/mlid.
members() {
	fab -j port show >"$W/ports.json" || return 1
	"$PY" - "$W/ports.json" "$1" "$W/mlid" <<'EOF'
import json, sys
ports = json.load(open(sys.argv[1]))["ports"]
members = set(int(x) for x in sys.argv[2].split())
mlids, bad = set(), []
for p in ports:
    if p["kind"] != "edge":
        continue
    h = p["lid"] - 1
    g = [e for e in p.get("mcast", []) if e["group"] == "ff12::154"]
    if (h in members) != bool(g):
        bad.append("h%d: %s" % (h, g))
    mlids |= set(e["mlid"] for e in g)
print("edge ports listing ff12::154: h%s; MLID %s" % (
    " h".join(str(h) for h in sorted(members)), sorted(hex(m) for m in mlids)))
assert not bad and len(mlids) == 1 and 0xC000 <= min(mlids) <= 0xFFFE, (bad, mlids)
open(sys.argv[3], "w").write("%d\n" % min(mlids))
EOF
}

# mfts DIR: OpenSM's MFTs = the switches' read in band (OpenSM writes them
# moments after the join answers: a few tries).
mfts() {
	local i
	mkdir -p "$1"
	for i in $(seq 1 15); do
		cp "$RUN/opensm.mcfdbs" "$1/" 2>/dev/null &&
			timeout 120 "$FTSW" lab ib --name "$LAB" h0 -- dump_fts -M \
				>"$1/dump.txt" 2>"$1/dump.err" &&
			$CMP cmp "$1/opensm.mcfdbs" "$1/dump.txt" >"$1/cmp.txt" &&
			grep -q "^$(printf '0x%04X' "$(cat "$W/mlid")") :" "$1/opensm.mcfdbs" &&
			{ cat "$1/cmp.txt"; return 0; }
		sleep 1
	done
	cat "$1/cmp.txt" "$1/dump.err" 2>/dev/null
	return 1
}

joined() {
	members "$MEMBERS" && mfts "$W/t1"
}
tap_check "the 8 members' edge ports list ff12::154 with the SA's MLID, the others not; OpenSM's MFTs = dump_fts -M in band" joined

# send TAG N HOSTS: h0 sends 5 datagrams tagged TAG; every port's VL 0
# counter rose by the tree of OpenSM's MFTs (DIR $W/TAG's); the receivers
# of HOSTS got each datagram of TAG once, h0 none.
send() {
	local tag=$1 d=$W/$2
	fab -j -s port show >"$d/before.json" || return 1
	fab -j switch show >"$d/switches.json" || return 1
	ip -n "$LAB" -j link show >"$d/links.json" || return 1
	hostns 0 "$MCPEER" send ff12::154 5000 eth0 "$tag" 5 ||
		return 1
	sleep 1
	fab -j -s port show >"$d/after.json" || return 1
	$CMP tree "$d/opensm.mcfdbs" "$d/switches.json" "$W/ports.json" "$d/links.json" \
		"$(cat "$W/mlid")" 0 "$d/before.json" "$d/after.json" 5 \
		>"$d/tree.txt"
	local rc=$?
	cat "$d/tree.txt"
	[ $rc = 0 ] || return 1
	"$PY" - "$W" "$tag" "$3" "$(grep '^REACHED' "$d/tree.txt")" <<'EOF'
import os, sys
w, tag, hosts = sys.argv[1], sys.argv[2], [int(x) for x in sys.argv[3].split()]
reached = [int(x) for x in sys.argv[4].split()[1:]]
bad = []
if sorted(reached) != sorted(hosts):
    bad.append("the tree reaches %s, the members are %s" % (reached, hosts))
for h in hosts + [0]:
    f = os.path.join(w, "got.%d" % h)
    got = sorted(l.split(" ")[-1] for l in
                 (open(f).read().split("\n") if os.path.exists(f) else [])
                 if l.split(" ")[-1].startswith(tag))
    want = [] if h == 0 else sorted("%s%d" % (tag, i) for i in range(5))
    if got != want:
        bad.append("h%d got %s" % (h, got))
print("the 5 datagrams %s reached h%s once each, h0 none" % (tag, " h".join(map(str, hosts))))
assert not bad, bad
EOF
}
tap_check "h0's 5 datagrams: each member once, h0 none; every port's VL 0 counter = the MFT tree's (non-members' ports 0)" \
	send a t1 "2 5 7 8 10 13 15"

# lab sm mcast --follow (a pass every 300 ms) sees h13 leave: one pass
# that left 1 group, nothing joined; then it ends at SIGTERM.
leave() {
	local p f i
	"$FTSW" -j lab sm --name "$LAB" mcast --follow --interval 300 \
		</dev/null >"$W/follow.json" 2>"$W/follow.err" &
	f=$!
	bg_keep "$W" follow "$f"
	p=$(bg_pid "$W" r13)
	kill "$p" && pid_wait "$p" 100 && rm -f "$W/r13.bgpid" || return 1
	igmp_gone 13 || return 1
	for i in $(seq 1 100); do
		[ -s "$W/follow.json" ] && break
		sleep 0.2
	done
	cat "$W/follow.json" "$W/follow.err"
	kill "$f" && pid_wait "$f" 50 && rm -f "$W/follow.bgpid" ||
		{ echo "lab sm mcast --follow did not end at SIGTERM"; return 1; }
	"$PY" -c '
import json, sys
d = [json.loads(l) for l in open(sys.argv[1]) if l.strip()]
assert len(d) == 1 and d[0]["left"] == 1 and d[0]["joined"] == 0, d
' "$W/follow.json" && [ ! -s "$W/follow.err" ] &&
		members "0 2 5 7 8 10 15" && mfts "$W/t2" &&
		send b t2 "2 5 7 8 10 15"
}
tap_check "h13 leaves, lab sm mcast --follow sees it (one pass, a Delete): its port drops the group, MFTs = OpenSM's, 5 more datagrams reach the 6 others, h13's port none" leave

# the receivers end at SIGTERM (within 5 s each)
receivers_end() {
	local f p
	for f in "$W"/r*.bgpid; do
		p=$(cat "$f")
		kill "$p" || return 1
	done
	for f in "$W"/r*.bgpid; do
		p=$(cat "$f")
		pid_wait "$p" 50 || { echo "receiver $f (pid $p) still runs"; return 1; }
		rm -f "$f"
	done
}
tap_check "the receivers end at SIGTERM" receivers_end
tap_check "lab down stops OpenSM and the gateways, leaves nothing" lab_sm_down
tap_check "rmmod ftsw" ftsw_unload
tap_done
