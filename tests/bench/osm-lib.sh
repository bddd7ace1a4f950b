# SPDX-License-Identifier: GPL-2.0
# OpenSM 3.3 on ibsim for the benchmarks (sourced): one simulated fabric at a
# time on a private IBSIM_SOCKNAME, OpenSM run once per engine, its routing
# time read from its own log and its tables optionally dumped.
#
# Needs $OSM_W (a scratch directory). osm_start NET; osm_route ENG LOG
# [DUMPDIR] [TIMEOUT]; osm_stop. OpenSM's routing time is the interval from
# "building routing with '<eng>' routing algorithm" to "<eng> tables
# configured on all switches" (osm_ucast_mgr.c INFO/VERBOSE through
# per_module_logging_file, no DEBUG); an engine that failed and fell back to
# OpenSM's default prints another engine's name there and counts as failed.

OSM_IBSIM=

osm_logsec() {	# "Mon DD HH:MM:SS usec ..." -> seconds of the day
	awk '{ split($3, t, ":"); printf "%.6f\n", t[1] * 3600 + t[2] * 60 + t[3] + $4 / 1e6 }'
}

osm_start() {	# net file -> ibsim running (OSM_IBSIM), 0 or 1
	local net=$1 nodes sws
	nodes=$(grep -c '^\(Switch\|Ca\)' "$net")
	sws=$(grep -c '^Switch' "$net")
	export IBSIM_SOCKNAME=ftsw-bench-$$-$RANDOM
	ibsim -s -n -N $((nodes + 64)) -S $((sws + 16)) -P $((nodes * 40)) "$net" \
		>"$OSM_W/ibsim.log" 2>&1 &
	OSM_IBSIM=$!
	sleep "${OSM_SETTLE:-3}"
	kill -0 "$OSM_IBSIM" 2>/dev/null && return 0
	cat "$OSM_W/ibsim.log" >&2
	OSM_IBSIM=
	return 1
}

osm_stop() {
	[ -n "$OSM_IBSIM" ] || return 0
	kill "$OSM_IBSIM" 2>/dev/null
	wait "$OSM_IBSIM" 2>/dev/null
	OSM_IBSIM=
}

# engine log [dumpdir] [timeout s] -> routing seconds on stdout, or "-"
# (failed, fell back or timed out); with dumpdir its opensm-lfts.dump is there
osm_route() {
	local eng=$1 log=$2 dump=${3:-} to=${4:-1200} a b dflag=
	opensm -c "$OSM_W/osm.conf" >/dev/null 2>&1
	printf 'osm_ucast_mgr.c=0x07\n' >"$OSM_W/pml.conf"
	mkdir -p "${dump:-$OSM_W/dump}"
	sed -i -e "s|^per_module_logging_file .*|per_module_logging_file $OSM_W/pml.conf|" \
	       -e "s|^dump_files_dir .*|dump_files_dir ${dump:-$OSM_W/dump}|" "$OSM_W/osm.conf"
	[ -n "$dump" ] && { dflag="-D 0x43"; rm -f "$dump/opensm-lfts.dump"; }
	rm -f "$log"
	# shellcheck disable=SC2086
	(cd "$OSM_W" && OSM_CACHE_DIR=$OSM_W OSM_TMP_DIR=$OSM_W timeout "$to" \
		ibsim-run opensm -F "$OSM_W/osm.conf" -o -s 3600 -R "$eng" $dflag \
		-f "$log" >/dev/null 2>&1)
	a=$(grep -m1 "building routing with '$eng'" "$log" 2>/dev/null | osm_logsec)
	b=$(grep -m1 "$eng tables configured on all switches" "$log" 2>/dev/null | osm_logsec)
	if [ -z "$a" ] || [ -z "$b" ] ||
	   { [ -n "$dump" ] && [ ! -s "$dump/opensm-lfts.dump" ]; }; then
		echo -
		return 1
	fi
	awk -v a="$a" -v b="$b" 'BEGIN { d = b - a; if (d < 0) d += 86400; printf "%.6f\n", d }'
}
