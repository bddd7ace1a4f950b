#!/usr/bin/env bash
# (lab 5c) OpenSM's routing engines on the lab, in band: one FT(4,3) lab
# built by `lab up --sm opensm` with the first engine of FTSW_SM_ENGINES,
# then `lab sm restart` with each of the others. make check runs three that
# each take a path of the lab's agents the others do not: lash (the first
# sweep: VLs from OperationalVLs, SLs on paths), dfsssp (VL layers) and
# updn with LMC 1 (two LIDs a host); 145 checks minhop's first sweep the
# same way (every table = the dump, ibroute, all pairs ping), so it is not
# run twice; `make bench-sm-engines` runs every engine that
# applies to a fat tree: minhop, updn, dnup, ftree, sssp, dfsssp, nue,
# lash, dor, and updn once more with LMC 1. For each:
# - OpenSM reaches SUBNET UP and its log says the engine itself configured
#   the tables ("ENGINE tables configured on all switches"), with no
#   fallback ("cannot build fwd tables") anywhere in this run's log: LASH
#   routes in its first sweep, since ports start with OperationalVLs =
#   VLCap as real ones do (before, LASH's first sweep found 1 VL, failed
#   with ERR 4D02 and OpenSM fell back to minhop until a later sweep);
# - every entry of the 20 kernel tables (`ftsw lft show`) equals OpenSM's
#   opensm-lfts.dump, and two switches' tables read in band by `ibroute`
#   equal it too (a different pair each run, so the ten runs of the bench
#   read all 20 switches: ibroute reads the same kernel table whatever the
#   engine, and 145/146 read all 20 in one run);
# - all 240 host pairs ping.
# (SL-to-VL tables are not checked here: in OpenSM 3.3 neither LASH nor
# DFSSSP sets any, they only give paths SLs; with -Q the QoS manager does,
# but on this lab 3.3.23's opensm-sl2vl.dump holds one all-zero row per
# switch, no reference for the switches' tables; Documentation/sm.md,
# "Routing engines".)
# The dump is written before OpenSM logs SUBNET UP (osm_dump_all, then the
# message), so at SUBNET UP it is complete; a sweep starting while the
# tables are read would change the count of SUBNET UPs in the log, and the
# reading is then taken again.
# By hand: FT(4,3) has (2n-1)(m/2)^(n-1) = 20 switches, 2(m/2)^n = 16
# hosts, 16 x 15 = 240 ordered pairs; with LMC 1 a switch routes
# 16 x 2 + 20 = 52 LIDs. No engine of OpenSM 3.3 is left out: torus-2QoS
# needs a torus and a torus.conf, file takes tables from a file, and
# chain is a list of the others.
. "$(dirname "$0")/lib.sh"
. "$(dirname "$0")/lab-lib.sh"

W=$(mktemp -d)
# FTSW_SM_ENGINES_OUT=DIR keeps what each run read (tables, dumps, logs).
trap 'lab lab down --name "$LAB" >/dev/null 2>&1
[ -z "${FTSW_SM_ENGINES_OUT:-}" ] || cp -r "$W/." "$FTSW_SM_ENGINES_OUT/"
rm -rf "$W"' EXIT
RUN=/run/ftsw/$LAB
SPECS=${FTSW_SM_ENGINES:-lash dfsssp updn/1}
read -ra _specs <<<"$SPECS"
FIRST=${_specs[0]}
FIRST_LMC=0
[ "$FIRST" = "${FIRST%/*}" ] || FIRST_LMC=${FIRST#*/}

tap_plan $((${#_specs[@]} + 4))
tap_check "insmod ftsw.ko" ftsw_load

fab() { nsenter --net="/run/netns/$LAB" "$FTSW" "$@"; }

up() {
	command -v opensm >/dev/null && command -v ibroute >/dev/null ||
		{ echo "opensm / infiniband-diags missing (make deps)"; return 1; }
	lab lab up --name "$LAB" -t ftmn:4,3 --sm opensm --sm-engine "${FIRST%/*}" \
		--lmc "$FIRST_LMC" --sm-args "-D 0x43" --sm-timeout 900 || {
		grep -E "ERR|SUBNET" "/run/ftsw/$LAB.sm-failed/opensm.log" | tail
		return 1
	}
}
tap_check "lab up FT(4,3) --sm opensm (${FIRST%/*})" up

# gather DIR K: the kernel's tables, OpenSM's dumps and ibroute of the
# switches K and K+1 (in the kernel's order) into DIR.
gather() {
	local d=$1 k=$2 lid
	rm -rf "$d" && mkdir -p "$d" &&
		cp "$RUN/opensm-lfts.dump" "$d/" || return 1
	fab -j switch show >"$d/switches.json" || return 1
	# the 20 tables in one process (lft show without a switch)
	fab -j lft show >"$d/lft.json" || return 1
	for lid in $("$PY" -c 'import json,sys
s = json.load(open(sys.argv[1]))["switches"]
print(" ".join(str(x["lid"]) for x in s[int(sys.argv[2]):int(sys.argv[2]) + 2]))' \
		"$d/switches.json" "$k"); do
		timeout 120 "$FTSW" lab ib --name "$LAB" h0 -- ibroute "$lid" \
			>"$d/ibroute-$lid.txt" 2>&1 || { cat "$d/ibroute-$lid.txt"; return 1; }
	done
}

# tables DIR K: as gather, compared, taken again if OpenSM swept
# meanwhile (its count of SUBNET UPs moved) or the tables differ.
tables() {
	local d=$1 k=$2 n ok
	for _ in 1 2 3 4 5; do
		n=$(sm_ups)
		ok=0
		gather "$d" "$k" >"$d.why" 2>&1 &&
			"$PY" "$(dirname "$0")/lftcmp.py" "$d" >"$d.cmp" 2>&1 &&
			grep -q '^20 switches, .* 2 ibroute tables equal, 0 differences' "$d.cmp" &&
			ok=1
		[ $ok = 1 ] && [ "$(sm_ups)" = "$n" ] && { cat "$d.cmp"; return 0; }
		sleep 3
	done
	cat "$d.why" "$d.cmp" 2>/dev/null
	return 1
}

# engine SPEC K: SPEC is ENGINE or ENGINE/LMC; K the run's number.
engine() {
	local eng=${1%/*} lmc=0 k=$2 d r
	[ "$1" = "$eng" ] || lmc=${1#*/}
	if [ "$k" -gt 0 ]; then
		lab lab sm --name "$LAB" restart --sm-engine "$eng" --lmc "$lmc" \
			--sm-args "-D 0x43" --sm-timeout 900 >"$W/$k.up" || {
			grep -E "ERR|SUBNET" "/run/ftsw/$LAB.sm-failed/opensm.log" | tail
			return 1
		}
	fi
	grep -q "osm_ucast_mgr_process: $eng tables configured on all switches" \
		"$RUN/opensm.log" || { echo "not routed by $eng:"; grep -E "ERR|tables configured" "$RUN/opensm.log"; return 1; }
	! grep -E "cannot build fwd tables|ERR 4D0" "$RUN/opensm.log" || return 1
	d=$W/$k
	tables "$d" $((2 * k)) || return 1
	cp "$RUN/opensm.log" "$W/$k.log"
	if [ "$lmc" = 1 ]; then
		"$PY" -c 'import json,sys
t = [s for s in json.load(open(sys.argv[1]))["switches"] if s["switch"] == 0][0]["lft"]
n = sum(1 for p in t.values() if p != 255)
sys.exit(0 if n == 52 else "switch 0 routes %d LIDs, not 52" % n)' "$d/lft.json" ||
			return 1
	fi
	r=$(ping_json 5000)
	[ "$r" = "240 0" ] || { echo "ok/failed: $r"; return 1; }
}

k=0
for spec in $SPECS; do
	tap_check "$spec: SUBNET UP, routed by ${spec%/*}, 20 tables = opensm-lfts.dump (= ibroute), 240 pairs ping" \
		engine "$spec" "$k"
	k=$((k + 1))
done

tap_check "lab down stops OpenSM and the gateways, leaves nothing" lab_sm_down
tap_check "rmmod ftsw" ftsw_unload
tap_done
