#!/usr/bin/env bash
# (lab 3, rate) congestion made visible: FT(4,2) with D-Mod-K, four
# hand-picked flows, two of which share a link. Unshaped, every port counts
# what the analyzer predicts and no throughput is reported; shaped at
# 500 kbit/s per fabric link (lab up --rate), flows alone on their links
# get the rate and the two sharing their busiest link get half each.
#
# Hand computation. ftmn:4,2 is PGFT(2; 2,4; 1,2; 1,1): 8 hosts, leaves
# s0..s3 (leaf L holds hosts 2L and 2L+1 on ports 3 and 4), spines s4, s5
# (spine port L+1 goes down to leaf L); leaf port 1 goes up to s4, port 2
# to s5. D-Mod-K sends a packet for host d up from a leaf by d mod 2
# (Zahavi: floor(d / w1) mod w2 with w1 = 1, w2 = 2): even d through s4,
# odd d through s5. The flows (ranks = hosts, topology order):
#   0->2  s0:1 (up, even)  s4:2 (down to s1)  s1:3 (to h2)
#   1->4  s0:1 (up, even)  s4:3 (down to s2)  s2:3 (to h4)
#   4->6  s2:1 (up, even)  s4:4 (down to s3)  s3:3 (to h6)
#   6->3  s3:2 (up, odd)   s5:2 (down to s1)  s1:4 (to h3)
# s0:1 carries 2 flows, every other port at most 1: 11 ports with traffic;
# with P datagrams per flow s0:1 counts 2P and the 10 others P (12 P in
# all); the hot-spot degree is 2.
#
# Shaped at R = 500 kbit/s on every switch-to-switch cable, each flow
# offered 1.5 R (1400-byte datagrams, 65 per second: four flows stay well
# inside what the debug kernel forwards under TCG): 4->6 and 6->3 are cut
# to R at their up-links and pass their down-links at R; 0->2 and 1->4
# split s0:1, R / 2 each, and pass their own down-links. Each stage sends
# for 7.5 s and counts the last 6 s. Tolerance +-25% per flow: a drop-tail
# queue hands its free places out at random (about 260 datagrams cross
# s0:1 in the window; six 4-s runs on the plain kernel put the two shares
# within 13% of R / 2, a standard deviation near 6%); the two shares must
# add up to R within 15%.
. "$(dirname "$0")/lib.sh"
. "$(dirname "$0")/lab-lib.sh"

tap_plan 7
tap_check "insmod ftsw.ko" ftsw_load

PAT=$(mktemp /tmp/flows4.XXXXXX)
printf '%s\n' "0 2" "1 4" "4 6" "6 3" >"$PAT"

unshaped() {
	local out txt rc=0
	lab lab up --name "$LAB" -t ftmn:4,2 -a dmodk >/dev/null || return 1
	out=$(lab -j lab traffic --name "$LAB" -p "file:$PAT" --packets 4) || rc=1
	txt=$(lab lab traffic --name "$LAB" -p "file:$PAT" --packets 1) || rc=1
	lab lab down --name "$LAB"
	# no throughput without --rate, in JSON or in text
	case $txt in *Mbit/s*) echo "throughput shown on an unshaped lab"; rc=1 ;; esac
	echo "$out" | "$PY" -c '
import json, sys
d = json.load(sys.stdin)
P = 4
assert d["mode"] == "count", d
assert "rate_mbps" not in d and "flows" not in d, "throughput reported: %s" % d
assert d["exact"] and d["mismatches"] == 0 and d["lost"] == 0, d
assert d["max_flows_per_port"] == 2 and d["hot_spot_degree"] == 2, d
links = {(l["switch"], l["port"]): l for l in d["links"]}
want = {(0, 1): 2 * P, (4, 2): P, (1, 3): P, (4, 3): P, (2, 3): P,
	(2, 1): P, (4, 4): P, (3, 3): P, (3, 2): P, (5, 2): P, (1, 4): P}
got = {k: l["measured"] for k, l in links.items()}
assert got == want, (got, want)
assert all(l["predicted"] == want[k] for k, l in links.items()), d
assert d["sent"] == 4 * P, d
print("11 ports exact, s0:1 at 2P")' && [ $rc = 0 ]
}
tap_check "FT(4,2) unshaped: per-port counts == hand-computed model, no throughput shown" unshaped

shaped() {
	lab lab up --name "$LAB" -t ftmn:4,2 -a dmodk --rate 500kbit >/dev/null || return 1
	local rc=0 out
	# the status reports the shaping in bit/s (500 kbit/s = 500000)
	lab -j lab status --name "$LAB" | "$PY" -c '
import json, sys
d = json.load(sys.stdin)
assert d["rate_bits"] == 500000, d' || rc=1
	out=$(lab -j lab traffic --name "$LAB" -p "file:$PAT" --duration 7500) || rc=1
	lab lab down --name "$LAB"
	echo "$out" >"$PAT.json"
	[ $rc = 0 ] && echo "$out" | "$PY" -c '
import json, sys
d = json.load(sys.stdin)
assert d["mode"] == "rate" and d["rate_mbps"] == 0.5 and d["mismatches"] == 0, d
assert d["sender_bound"] == 0, "the sender offered less than the shares"'
}
tap_check "FT(4,2) shaped at 500 kbit/s: status says 500000 bit/s, traffic on exactly the model's ports, sender fast enough" shaped

flows_check() {
	"$PY" - "$PAT.json" "$1" <<'EOF'
import json, sys
d = json.load(open(sys.argv[1]))
what = sys.argv[2]
R = 0.5
hot = {(0, 2): (0, 1), (1, 4): (0, 1)}
fl = {(f["src"], f["dst"]): f for f in d["flows"]}
assert sorted(fl) == [(0, 2), (1, 4), (4, 6), (6, 3)], sorted(fl)
for k, f in fl.items():
	shared = k in hot
	if what == "alone" and not shared:
		assert f["share"] == 1, f
		assert 0.75 * R <= f["mbps"] <= 1.25 * R, f
	if what == "shared" and shared:
		assert f["share"] == 2 and (f["switch"], f["port"]) == hot[k], f
		assert 0.75 * R / 2 <= f["mbps"] <= 1.25 * R / 2, f
if what == "shared":
	s = fl[(0, 2)]["mbps"] + fl[(1, 4)]["mbps"]
	assert 0.85 * R <= s <= 1.15 * R, s
EOF
}
# the measurements, as diagnostics
[ -s "$PAT.json" ] && "$PY" -c '
import json, sys
for f in json.load(open(sys.argv[1]))["flows"]:
	print("h%d -> h%d: %g flows on its busiest shaped link, offered %.3f, "
	      "measured %.3f Mbit/s" % (f["src"], f["dst"], f["share"],
	      f["offered_mbps"], f["mbps"]))' "$PAT.json" | tap_diag
tap_check "h4->h6, h6->h3 alone on their links: the rate (500 kbit/s +-25%)" flows_check alone
tap_check "h0->h2, h1->h4 sharing s0:1: rate/2 each (+-25%), together the rate" flows_check shared
rm -f "$PAT" "$PAT.json"
tap_check "nothing left behind" lab_gone
tap_check "rmmod ftsw" ftsw_unload
tap_done
