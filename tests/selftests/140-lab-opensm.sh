#!/usr/bin/env bash
# (lab 5) OpenSM's own tables: OpenSM (Debian opensm) routes FT(4,3) as
# simulated by ibsim (ibsim-utils) from ftsw's net file; its
# opensm-lfts.dump, with OpenSM's own LID numbering mapped onto the lab's by
# port GUID, is loaded by `lab up --lft` and carries all-pairs ping.
. "$(dirname "$0")/lib.sh"
. "$(dirname "$0")/lab-lib.sh"

W=$(mktemp -d)
# The VM's root is read-only: OpenSM's cache and temporary files go here.
export OSM_CACHE_DIR=$W/cache OSM_TMP_DIR=$W
mkdir -p "$W/cache"
cleanup() { bg_stop "$W"; rm -rf "$W"; }
trap cleanup EXIT

tap_plan 6
tap_check "insmod ftsw.ko" ftsw_load

osm() {
	local eng=$1
	command -v opensm >/dev/null && command -v ibsim >/dev/null ||
		{ echo "opensm / ibsim missing (apt-get install opensm ibsim-utils)"; return 1; }
	"$FTSW" topo gen ftmn:4,3 -o "$W/ft43.net" || return 1
	if [ -z "$(bg_pid "$W" ibsim)" ]; then
		(cd "$W" && exec ibsim -s -n "$W/ft43.net" >"$W/ibsim.log" 2>&1) &
		bg_keep "$W" ibsim $!
		sleep 2
	fi
	# OpenSM writes next to itself: run it from the scratch directory.
	cd "$W" || return 1
	opensm -c "$W/osm.conf" >/dev/null 2>&1
	mkdir -p "$W/dump-$eng"
	sed -i -e "s|^dump_files_dir .*|dump_files_dir $W/dump-$eng|" "$W/osm.conf"
	timeout 300 ibsim-run opensm -F "$W/osm.conf" -o -s 0 -R "$eng" -D 0x43 \
		-f "$W/osm-$eng.log" >/dev/null 2>&1
	[ -s "$W/dump-$eng/opensm-lfts.dump" ] ||
		{ tail -n 20 "$W/osm-$eng.log"; return 1; }
	grep -c "^Unicast lids" "$W/dump-$eng/opensm-lfts.dump"
}

osm_lab() {
	local eng=$1 rc=0
	lab lab up -t "$W/ft43.net" --lft "$W/dump-$eng/opensm-lfts.dump" || return 1
	lab lab status | head -2
	lab lab ping -c 1 -W 5000 || rc=1
	lab lab down || rc=1
	return $rc
}
tap_check "OpenSM minhop on ibsim writes opensm-lfts.dump for FT(4,3)" osm minhop
tap_check "lab up --lft (OpenSM minhop tables): all 240 pairs ping" osm_lab minhop
tap_check "OpenSM updn on ibsim, loaded by lab up: all pairs ping" \
	eval 'osm updn && osm_lab updn'
tap_check "nothing left behind" lab_gone
tap_check "rmmod ftsw" ftsw_unload
tap_done
