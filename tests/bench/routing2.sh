#!/bin/bash
# SPDX-License-Identifier: GPL-2.0
#
# SSSP / DFSSSP benchmark: ftsw's sssp and dfsssp against OpenSM 3.3.23's on
# ibsim (same net file), and the virtual-layer experiment of paper 001
# (Fig. 9 kind) on random topologies. Run by hand, never as a timed test.
#
#   tests/bench/routing2.sh [-f FTSW] [-r RUNS] [--no-opensm] [--vls-only]
#                           [--seeds N] [--links "L1 L2 .."]
#                           [--osm-vls "NSW:LINKS .."]
#
# --osm-vls: also run OpenSM's dfsssp (weakest edge, 8 VLs available) on
# random topologies NSW switches of 32 ports, 16 hosts each, LINKS links,
# seeds 1..N, and print its "Virtual Lanes needed" next to ftsw's.
#
# OpenSM's routing time: from its log line "building routing with
# '<engine>' routing algorithm" to "<engine> tables configured on all
# switches" (osm_ucast_mgr.c ERROR/INFO/VERBOSE through per_module_logging_file,
# plus osm_ucast_dfsssp.c ERROR/INFO/VERBOSE for its layer count; its DEBUG level
# writes a line per link and path and slows OpenSM down by orders). ftsw's: the engine run as
# `ftsw -s route` reports it. Best of RUNS for both.
# Needs: apt-get install -y opensm ibsim-utils; make user.
set -u

TOP=$(cd "$(dirname "$0")/../.." && pwd)
FTSW=$TOP/build/ftsw
RUNS=3
OSM=1
VLS=1
BENCH=1
SEEDS=5
LINKS="192 256 384 512 768"
OSMVLS=
while [ $# -gt 0 ]; do
	case $1 in
	-f) FTSW=$2; shift ;;
	-r) RUNS=$2; shift ;;
	--no-opensm) OSM=0 ;;
	--no-vls) VLS=0 ;;
	--vls-only) BENCH=0 ;;
	--seeds) SEEDS=$2; shift ;;
	--links) LINKS=$2; shift ;;
	--osm-vls) OSMVLS=$2; shift ;;
	*) echo "usage: $0 [-f FTSW] [-r RUNS] [--no-opensm] [--no-vls] [--vls-only] [--seeds N] [--links \"L ..\"]" >&2
	   exit 2 ;;
	esac
	shift
done
LIB=$(dirname "$FTSW")/libftsw-all.a
[ -x "$FTSW" ] && [ -f "$LIB" ] || { echo "routing2: $FTSW / $LIB not built (make user)" >&2; exit 1; }
if [ $OSM = 1 ] && { ! command -v opensm >/dev/null || ! command -v ibsim >/dev/null; }; then
	echo "routing2: opensm/ibsim missing (apt-get install -y opensm ibsim-utils)" >&2
	exit 1
fi

W=$(mktemp -d /tmp/ftsw-bench-routing2.XXXXXX)
IBSIM_PID=
cleanup() {
	[ -n "$IBSIM_PID" ] && kill "$IBSIM_PID" 2>/dev/null
	rm -rf "$W"
}
trap cleanup EXIT

cc -O2 -std=c11 -D_GNU_SOURCE -Wall -Wextra -Werror -I"$TOP/include/uapi" \
	-I"$TOP/user/lib" -o "$W/routing2" "$TOP/tests/bench/routing2.c" "$LIB" \
	-lpthread -lm || exit 1

logsec() {	# "Mon DD HH:MM:SS usec ..." -> seconds of the day
	awk '{ split($3, t, ":"); printf "%.6f\n", t[1] * 3600 + t[2] * 60 + t[3] + $4 / 1e6 }'
}

min() {		# best of the numbers on stdin, or "-"
	awk 'BEGIN { b = "-" } $1 != "" { if (b == "-" || $1 < b) b = $1 } END { print b }'
}

OSM_VLS=-
osm_run() {	# engine -> best seconds; sets OSM_VLS from the last run's log
	local eng=$1 i log a b
	opensm -c "$W/osm.conf" >/dev/null 2>&1
	printf 'osm_ucast_mgr.c=0x07\nosm_ucast_dfsssp.c=0x07\n' >"$W/pml.conf"
	sed -i -e "s|^per_module_logging_file .*|per_module_logging_file $W/pml.conf|" \
	       -e "s|^dump_files_dir .*|dump_files_dir $W/dump|" "$W/osm.conf"
	mkdir -p "$W/dump"
	for i in $(seq "$RUNS"); do
		log=$W/osm-$eng-$i.log
		timeout 1200 ibsim-run opensm -F "$W/osm.conf" -o -s 3600 -R "$eng" \
			-f "$log" >/dev/null 2>&1
		a=$(grep -m1 "building routing with '$eng'" "$log" | logsec)
		b=$(grep -m1 "$eng tables configured on all switches" "$log" | logsec)
		[ -n "$a" ] && [ -n "$b" ] || continue
		awk -v a="$a" -v b="$b" 'BEGIN { d = b - a; if (d < 0) d += 86400; printf "%.3f\n", d }'
		cp "$log" "$W/last-$eng.log"
	done | min
}

ftsw_run() {	# net engine -> best seconds
	local i
	for i in $(seq "$RUNS"); do
		"$FTSW" -s route -a "$2" -t "$1" 2>&1 >/dev/null |
			sed -n 's/^route: \([0-9.]*\) s routing.*/\1/p'
	done | min
}

echo "# ftsw routing2 benchmark, $(date -u '+%F %T UTC'), $(nproc) CPUs, load $(cut -d' ' -f1-3 /proc/loadavg)"
if [ $BENCH = 1 ]; then
	spec="pgft:3;12,12,24;1,12,12;1,1,1"
	net=$W/pgft-3456.net
	"$FTSW" topo gen "$spec" -o "$net" || exit 1
	declare -A OT=() OV=()
	if [ $OSM = 1 ]; then
		nodes=$(grep -c '^\(Switch\|Ca\)' "$net")
		sws=$(grep -c '^Switch' "$net")
		ibsim -s -n -N $((nodes + 64)) -S $((sws + 16)) -P $((nodes * 40)) "$net" \
			>"$W/ibsim.log" 2>&1 &
		IBSIM_PID=$!
		sleep 3
		for e in sssp dfsssp; do
			OT[$e]=$(osm_run "$e")
			OV[$e]=$(grep -o -m1 'using [0-9]* virtual layers\|[0-9]* layers\? needed\|needs [0-9]* \(VLs\|layers\)' \
				"$W/last-$e.log" 2>/dev/null | head -1)
			[ -f "$W/last-$e.log" ] && grep -i 'layer\|VLs\|virtual lane\|cycle' "$W/last-$e.log" | \
				grep -v 'per_module' | head -8 | sed 's/^/# opensm '"$e"': /'
		done
		kill "$IBSIM_PID" 2>/dev/null
		wait "$IBSIM_PID" 2>/dev/null
		IBSIM_PID=
	fi
	printf "%-6s %-32s %-7s %10s %10s %7s  %s\n" hosts topology engine opensm_s ftsw_s ratio "ftsw layers"
	for e in sssp dfsssp; do
		ft=$(ftsw_run "$net" "$e")
		o=${OT[$e]:--}
		note=$("$W/routing2" time "$e" "$net" | sed -n 's/^note //p')
		printf "%-6s %-32s %-7s %10s %10s %7s  %s\n" 3456 "$spec" "$e" "$o" "$ft" \
			"$(awk -v o="$o" -v f="$ft" 'BEGIN { if (o == "-" || f == "-" || f == 0) print "-"; else printf "%.1fx", o / f }')" \
			"${note:-1 layer}"
	done
fi

if [ $VLS = 1 ]; then
	echo "# virtual layers needed (no balancing), random topologies: 128 switches of"
	echo "# 32 ports, 16 hosts each, LINKS random switch-to-switch links, seeds 1..$SEEDS"
	echo "# (max 15 layers tried; \">15\" counts as 15 in the mean)"
	printf "%-6s %-10s %5s %5s %6s  %s\n" links heuristic min max mean "per seed"
	for l in $LINKS; do
		"$W/routing2" vls 128 32 16 "$l" "$SEEDS" 15 >"$W/vls-$l.txt" || exit 1
		for h in weakest strongest first; do
			awk -v h="$h" -v l="$l" '$6 == h { v = $8; sub(">", "", v); n++; s += v;
				if (n == 1 || v < mn) mn = v; if (n == 1 || v > mx) mx = v;
				all = all " " $8 }
				END { printf "%-6s %-10s %5s %5s %6.2f %s\n", l, h, mn, mx, s / n, all }' \
				"$W/vls-$l.txt"
		done
	done
	echo "# CDG bookkeeping (weakest, seed 1): $(awk '$6 == "weakest" && $4 == 1 { printf "%s links: %s CDG edges, %s path deps, %s MiB, %s s;  ", $2, $12, $14, $16, $18 }' "$W"/vls-*.txt)"
fi

if [ -n "$OSMVLS" ]; then
	echo "# layers needed, OpenSM 3.3.23 dfsssp vs ftsw (weakest edge), random topologies,"
	echo "# 32-port switches with 16 hosts each"
	printf "%-9s %-6s %-5s %8s %8s\n" switches links seed opensm ftsw
	opensm -c "$W/osm.conf" >/dev/null 2>&1
	printf 'osm_ucast_mgr.c=0x07\nosm_ucast_dfsssp.c=0x07\n' >"$W/pml.conf"
	sed -i -e "s|^per_module_logging_file .*|per_module_logging_file $W/pml.conf|" \
	       -e "s|^dump_files_dir .*|dump_files_dir $W/dump|" "$W/osm.conf"
	mkdir -p "$W/dump"
	for c in $OSMVLS; do
		n=${c%%:*}
		l=${c#*:}
		for s in $(seq "$SEEDS"); do
			net=$W/rand-$n-$l-$s.net
			"$W/routing2" net "$n" 32 16 "$l" "$s" "$net" || exit 1
			nodes=$(grep -c '^\(Switch\|Ca\)' "$net")
			ibsim -s -n -N $((nodes + 64)) -S $((n + 16)) -P $((nodes * 40)) "$net" \
				>"$W/ibsim.log" 2>&1 &
			IBSIM_PID=$!
			sleep 3
			timeout 1200 ibsim-run opensm -F "$W/osm.conf" -o -s 3600 -R dfsssp \
				-f "$W/osm-rand.log" >/dev/null 2>&1
			kill "$IBSIM_PID" 2>/dev/null
			wait "$IBSIM_PID" 2>/dev/null
			IBSIM_PID=
			o=$(sed -n 's/.*Virtual Lanes needed: \([0-9]*\).*/\1/p' "$W/osm-rand.log" | head -1)
			grep -q "no deadlock-free\|ERR" "$W/osm-rand.log" && [ -z "$o" ] && o=fail
			f=$("$W/routing2" vls "$n" 32 16 "$l" "$s" 15 | awk -v s="$s" '$4 == s && $6 == "weakest" { print $8 }')
			printf "%-9s %-6s %-5s %8s %8s\n" "$n" "$l" "$s" "${o:--}" "$f"
			rm -f "$W/osm-rand.log"
		done
	done
fi
