#!/usr/bin/env bash
# (lab, lossless) adaptive routing in the switches: the groups lab up
# --adaptive uploads, and the switches' choice under load. One lab.
#
# FT(4,2) (ftmn:4,2): four leaves with two hosts each (edge ports) and two
# links up, one to each of the two spines; a spine has four links down,
# one to each leaf. Hand computation of the groups (route's rule: the
# ports whose next switch is as close to the destination as the static
# next switch's, the same way up or down): at a leaf, a host on another
# leaf is two hops away through either spine, so its group is both links
# up; a host of the leaf itself is one hop away by its edge port alone,
# no group. A spine reaches each host by the one link down to its leaf:
# no group. The test tells the leaves, their links and the hosts' LIDs
# apart by the kernel's port kinds (edge/link) and LFTs, not by route.
#
# Under load (uniform random traffic, 0.8 of a host link, infinite
# lifetimes): a packet goes where queued - credit is smallest, so when
# the static up port's queue is the longer one it is diverted to the
# other; only the leaves have groups, so every diversion is counted on a
# leaf's link port, and there are some (at this load queues differ often).
# Lossless: nothing is lost or dropped. What arrives out of order at the
# edge ports (per packet choice) is reported, not asserted.
. "$(dirname "$0")/lib.sh"
. "$(dirname "$0")/lab-lib.sh"

tap_plan 6
tap_check "insmod ftsw.ko" ftsw_load

OUT=$(mktemp -d /tmp/ar.XXXXXX)
fab() { nsenter --net="/run/netns/$LAB" "$FTSW" "$@"; }

up() {
	lab lab up --name "$LAB" -t ftmn:4,2 -a dmodk --lossless --adaptive \
		--rate 500kbit --hoq-life 20 --switch-life 20 >/dev/null
}

groups() {
	local id
	fab -j port show >"$OUT/ports.json" || return 1
	for id in $("$PY" -c 'import json, sys
print(*sorted({p["switch"] for p in json.load(open(sys.argv[1]))["ports"]}))' \
		"$OUT/ports.json"); do
		fab -j lft show switch "$id" >"$OUT/lft$id.json" || return 1
	done
	"$PY" - "$OUT" <<'EOF'
import json, sys
out = sys.argv[1]
ports = json.load(open(out + "/ports.json"))["ports"]
kind = {(p["switch"], p["port"]): p["kind"] for p in ports}
sws = sorted({s for s, _ in kind})
assert len(sws) == 6, sws
lft = {s: json.load(open("%s/lft%d.json" % (out, s))) for s in sws}
leaves = {s for (s, _), k in kind.items() if k == "edge"}
links = {s: {p for (t, p), k in kind.items() if t == s and k == "link"}
         for s in sws}
assert len(leaves) == 4 and all(len(links[s]) == 2 for s in leaves), links
# a host's LID: the one its leaf sends out by an edge port
home = {int(l): s for s in leaves for l, p in lft[s]["lft"].items()
        if kind.get((s, p)) == "edge"}
assert len(home) == 8, home
n = 0
for s in sws:
    g = {int(l): set(v) for l, v in lft[s].get("adaptive", {}).items()}
    for lid, h in home.items():
        want = links[s] if s in leaves and h != s else None
        got = g.get(lid)
        assert got == want, "switch %d LID %d: group %s, want %s" % (
            s, lid, got, want)
        n += want is not None
print("%d groups as computed by hand (4 leaves x 6 remote hosts), "
      "none at the spines or for a leaf's own hosts" % n)
assert n == 24
EOF
}

load() {
	lab -j lab traffic --name "$LAB" -p a2a --stages 1 --random-dst \
		--pps 280 --size 1422 --duration 3000 >"$OUT/traffic.json" ||
		return 1
	fab -j -s port show >"$OUT/stats.json" || return 1
	"$PY" - "$OUT" <<'EOF'
import json, sys
out = sys.argv[1]
d = json.load(open(out + "/traffic.json"))
assert d["lossless"] and d["sent"] > 0, d
assert d["lost"] == 0 and d["drops"] == 0, d
ports = json.load(open(out + "/stats.json"))["ports"]
leaves = {p["switch"] for p in ports if p["kind"] == "edge"}
div = {(p["switch"], p["port"]): p["stats"]["ar_diverted"] for p in ports}
bad = [k for k, v in div.items() if v and
       (k[0] not in leaves or
        [p for p in ports if (p["switch"], p["port"]) == k][0]["kind"] != "link")]
assert not bad, "diverted where no group is: %s" % bad
total = sum(div.values())
ooo = sum(p["stats"]["out_of_order"] for p in ports)
print("%d datagrams, none lost; %d diverted (leaf up ports), %d out of "
      "order at the edge ports" % (d["sent"], total, ooo))
assert total > 0
EOF
}

tap_check "lab up --adaptive: FT(4,2), lossless, D-Mod-K with its groups" up
tap_check "lft show: each leaf's group for a remote host is both its up links, no other group" groups
tap_check "under load: diverted only at leaf up ports, some diverted, nothing lost" load
lab lab down --name "$LAB" >/dev/null
rm -rf "$OUT"
tap_check "nothing left behind" lab_gone
tap_check "rmmod ftsw" ftsw_unload
tap_done
