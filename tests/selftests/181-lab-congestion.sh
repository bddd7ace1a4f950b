#!/usr/bin/env bash
# (lab, lossless) a congestion tree and head-of-line blocking, against
# today's mode; no discard below saturation.
#
# FT(4,3) (ftmn:4,3) with D-Mod-K. Hand computation of the paths
# (switch:port the packet leaves by; `ftsw analyze --trace S:D` prints the
# same from the tables): the hot spot h15 and eight flows to it, from the
# even hosts,
#   h0  -> h15  s0:2  s9:2  s19:4 s15:4 s7:4
#   h2  -> h15  s1:2  s9:2  s19:4 s15:4 s7:4
#   h4, h6      s2:2, s3:2 then s11:2 s19:4 s15:4 s7:4
#   h8, h10     s4:2, s5:2 then s13:2 s19:4 s15:4 s7:4
#   h12 -> h15  s6:2  s15:4 s7:4
#   h14 -> h15  s7:4
# and the victim
#   h1  -> h3   s0:2  s9:4  s1:4
# The victim shares with the hot spot only s0:2 (with h0 -> h15) and the
# input buffer of s9 that s0:2 feeds; from s9 on its output (s9:4, s1:4)
# carries nothing else. Every flow offers 0.35 R (R = 100 kbit/s per port,
# 1472-byte frames: 3 datagrams/s per flow, --pps 27 for nine; a rate the
# debug VM keeps up with: at 500 kbit/s it could not send nine flows at
# their pace): s0:2 carries 0.7 R, below R; s7:4 is offered 2.8 R.
#
# Today's mode (lab up --rate, tbf on the switch-to-switch links): the
# hot spot's packets queue and drop at s15:4 and s19:4; s0:2 and s9's
# input are never full, so the victim gets what it offers, with or
# without the hot spot: ratio with/alone >= 0.85.
#
# Lossless mode, infinite lifetimes (a packet waits more than a second
# at 100 kbit/s in a tree this deep, and lifetime discards would cut the
# tree; a fat tree routed by D-Mod-K cannot deadlock, so nothing needs
# them): s7:4 serves 2.8 R of offers at R, its buffers fill, and
# credits stop s15:4, then s19:4 and s9:2 (the tree grows towards the
# sources). With inputs served in turn, h0 -> h15 gets R/2 (s7: s15 and
# h14) / 2 (s15: s19 and s6) / 3 (s19: s9, s11, s13) / 2 (s9: s0 and s1)
# = R/24; its packets at the head of s9's input buffer wait for s9:2, and
# the victim's packets behind them wait too (one FIFO per VL), so the
# victim gets about as little: ratio near 0.1 to 0.2 (R/24 to R/12 over
# 0.4 R). Asserted: below 0.75, whatever the kernel's exact shares.
#
# Below saturation (a random permutation, 6 datagrams/s per flow, 0.14 R)
# the lossless lab loses nothing: no datagram lost, no lifetime discard,
# no fabric drop.
. "$(dirname "$0")/lib.sh"
. "$(dirname "$0")/lab-lib.sh"

tap_plan 6
tap_check "insmod ftsw.ko" ftsw_load

OUT=$(mktemp -d /tmp/ct.XXXXXX)
printf '%s\n' "0 15" "2 15" "4 15" "6 15" "8 15" "10 15" "12 15" "14 15" "1 3" \
	>"$OUT/tree"
printf '%s\n' "1 3" >"$OUT/alone"

# victim MODE: victim's Mbit/s alone and with the tree, into $OUT/MODE
victim() {
	local mode=$1 rc=0
	shift
	lab lab up --name "$LAB" -t ftmn:4,3 -a dmodk --rate 100kbit "$@" \
		>/dev/null || return 1
	lab -j lab traffic --name "$LAB" -p "file:$OUT/alone" --pps 3 \
		--size 1420 --duration 10000 >"$OUT/$mode-alone.json" 2>/dev/null
	lab -j lab traffic --name "$LAB" -p "file:$OUT/tree" --pps 27 \
		--size 1420 --duration 10000 >"$OUT/$mode-tree.json" 2>/dev/null
	lab lab down --name "$LAB" >/dev/null || rc=1
	"$PY" - "$OUT" "$mode" <<'EOF' || rc=1
import json, sys
out, mode = sys.argv[1:]
def v(name):
    d = json.load(open("%s/%s-%s.json" % (out, mode, name)))
    f = [x for x in d["flows"] if (x["src"], x["dst"]) == (1, 3)]
    assert len(f) == 1, d
    return f[0]["mbps"], f[0]["offered_mbps"]
alone, off = v("alone")
tree, _ = v("tree")
assert alone > 0.02, "the victim alone got %.3f of 0.035 Mbit/s" % alone
r = tree / alone
print("%s: victim alone %.3f Mbit/s (offered %.3f), with the hot spot "
      "%.3f: ratio %.2f" % (mode, alone, off, tree, r))
open("%s/%s.ratio" % (out, mode), "w").write("%f\n" % r)
EOF
	return $rc
}

ratio() { "$PY" -c "import sys; r=float(open('$OUT/$1.ratio').read()); sys.exit(not ($2))" ; }

today() { victim today && ratio today "r >= 0.85"; }
lossless() {
	victim lossless --lossless --hoq-life 20 --switch-life 20 &&
		ratio lossless "r < 0.75"
}

below_saturation() {
	local rc=0
	lab lab up --name "$LAB" -t ftmn:4,3 -a dmodk --lossless --rate 500kbit \
		>/dev/null || return 1
	lab -j lab traffic --name "$LAB" -p perm:3 --pps 96 --size 1420 \
		--duration 4000 >"$OUT/perm.json" || rc=1
	lab lab down --name "$LAB" >/dev/null || rc=1
	"$PY" - "$OUT/perm.json" <<'EOF' || rc=1
import json, sys
d = json.load(open(sys.argv[1]))
assert d["lossless"], d
assert d["lost"] == 0 and d["drops"] == 0, d
assert d["hoq_discards"] == 0 and d["life_discards"] == 0, d
assert d["sent"] > 0, d
print("%d datagrams, none lost or discarded" % d["sent"])
EOF
	return $rc
}

tap_check "today's mode: the victim is untouched by the hot spot (with/alone >= 0.85)" today
tap_check "lossless: head-of-line blocking in the congestion tree slows the victim (with/alone < 0.75)" lossless
tap_check "lossless below saturation: nothing lost, discarded or dropped" below_saturation
cat "$OUT"/*.ratio 2>/dev/null | tap_diag
rm -rf "$OUT"
tap_check "nothing left behind" lab_gone
tap_check "rmmod ftsw" ftsw_unload
tap_done
