#!/usr/bin/env bash
# Time to SUBNET UP: the same OpenSM (Debian's, unmodified), topology and
# engine on ftsw (lab up --sm opensm: OpenSM in h0 through its gateway,
# every SMP crossing the kernel's fabric, tables that carry data) and on
# ibsim (ibsim-utils: a simulator answering MADs, no data path), side by
# side in one VM boot, REPS rounds each way, alternating. Runs in the test
# VM (plain kernel):
#
#   tests/vm/run --plain --mem 4096 --timeout 3000 -- tests/bench/sm-up.sh [TOPO [ENGINE [REPS]]]
#   tests/vm/run --plain --mem 8192 --timeout 3600 -- tests/bench/sm-up.sh ftmn:16,3 minhop 2
#
# (defaults ftmn:4,3 minhop 3). The time is OpenSM's own: from the first
# line of its log (it starts) to "SUBNET UP", both read from the log's
# timestamps, with force_log_flush on so the line is there when it happens. The
# ftsw side also reports the whole `lab up` (namespaces, cables, switches,
# gateway, OpenSM) and checks that the hosts ping over OpenSM's tables.
# Before each run the guest is let settle (one second >= 90 % idle: the
# previous lab's namespaces are torn down by the kernel after `lab down`
# returns). Each run also gives the CPU time OpenSM (all its threads) and
# its peer (ibsim; ftsw's gateway, which includes the MADs' trips through
# the kernel's fabric in its softirqs) used up to SUBNET UP.
# Prints one line per round and the medians with their ratio ftsw/ibsim.
set -uo pipefail
here=$(cd "$(dirname "$0")" && pwd)
. "$here/guest-env.sh"
topo=${1:-ftmn:4,3} eng=${2:-minhop} reps=${3:-3}
OSM_W=$(mktemp -d)
W=$OSM_W LAB=smb$$
. "$here/osm-lib.sh"
OSMPID=
trap '[ -n "$OSMPID" ] && kill "$OSMPID" 2>/dev/null; osm_stop;
      "$FTSW" lab down --name "$LAB" >/dev/null 2>&1; rm -rf "$W"' EXIT

[ -d /sys/module/ftsw ] || insmod "$FTSW_KMOD/ftsw.ko" || exit 2
command -v opensm >/dev/null && command -v ibsim >/dev/null ||
	{ echo "bench: opensm / ibsim missing (make deps)" >&2; exit 2; }
"$FTSW" topo gen "$topo" -o "$W/t.net" || exit 2
opensm -c "$W/osm.conf" >/dev/null 2>&1
sed -i -e 's/^force_log_flush .*/force_log_flush TRUE/' "$W/osm.conf"
grep -q '^force_log_flush TRUE' "$W/osm.conf" || { echo "bench: no force_log_flush in OpenSM's config" >&2; exit 2; }
timeout_s=$((600 + $(grep -c '^\(Switch\|Ca\)' "$W/t.net") * 2))
mkfifo "$W/never" && exec 8<>"$W/never" || exit 2	# read -t: a sleep without a fork

hz=$(getconf CLK_TCK)
# pid -> CPU seconds (user + system) of all its threads
cpu_s() {
	local t sum=0
	for t in /proc/"$1"/task/*/stat; do
		sum=$((sum + $(awk '{ print $14 + $15 }' "$t" 2>/dev/null || echo 0)))
	done
	awk -v s="$sum" -v hz="$hz" 'BEGIN { printf "%.1f\n", s / hz }'
}

# Wait (at most 600 s) for one second in which the guest is >= 90 % idle.
settle() {
	local t0=$SECONDS a b
	while ((SECONDS - t0 < 600)); do
		a=$(awk '/^cpu /{ print $2 + $3 + $4 + $5 + $6 + $7 + $8, $5 }' /proc/stat)
		read -r -t 1 -u 8
		b=$(awk '/^cpu /{ print $2 + $3 + $4 + $5 + $6 + $7 + $8, $5 }' /proc/stat)
		awk -v a="$a" -v b="$b" 'BEGIN { split(a, x, " "); split(b, y, " ")
			exit !(y[2] - x[2] >= 0.9 * (y[1] - x[1])) }' && return
	done
}

# log -> seconds from its first line to SUBNET UP, or "-"
up_time() {
	local a b
	a=$(head -n 1 "$1" 2>/dev/null | osm_logsec)
	b=$(grep -m1 "SUBNET UP" "$1" 2>/dev/null | osm_logsec)
	[ -n "$a" ] && [ -n "$b" ] || { echo -; return; }
	awk -v a="$a" -v b="$b" 'BEGIN { d = b - a; if (d < 0) d += 86400; printf "%.3f\n", d }'
}

# Wait for "SUBNET UP" in log while pid lives, as `lab up` waits on the
# other side: every 100 ms, reading on from where it stopped, forking
# nothing (a grep and a sleep forked 10 times a second cost the guest
# CPU time that OpenSM on ibsim would otherwise have).
wait_log() {
	local log=$1 pid=$2 end=$((SECONDS + timeout_s)) part acc=
	until [ -e "$log" ] || ((SECONDS >= end)); do
		kill -0 "$pid" 2>/dev/null || return 1
		read -r -t 0.1 -u 8
	done
	exec 9<"$log" || return 1
	while ((SECONDS < end)); do
		if IFS= read -r -u 9 part; then
			[[ $acc$part == *"SUBNET UP"* ]] && break
			acc=
			continue
		fi
		acc+=$part
		kill -0 "$pid" 2>/dev/null || break
		read -r -t 0.1 -u 8
	done
	exec 9<&-
}

# -> seconds to SUBNET UP, OpenSM's and ibsim's CPU seconds
on_ibsim() {
	local log=$W/ibsim-osm.log i cpu
	rm -f "$log" "$W/cache/guid2lid"
	mkdir -p "$W/cache"
	osm_start "$W/t.net" || { echo -; return; }
	(cd "$W" && OSM_CACHE_DIR=$W/cache OSM_TMP_DIR=$W exec ibsim-run opensm \
		-F "$W/osm.conf" -R "$eng" -f "$log" >/dev/null 2>&1) </dev/null >/dev/null 2>&1 &
	OSMPID=$!
	wait_log "$log" "$OSMPID"
	i=$(pgrep -x opensm | head -n 1)
	cpu="$([ -n "$i" ] && cpu_s "$i" || echo -) $(cpu_s "$OSM_IBSIM")"
	kill "$OSMPID" 2>/dev/null
	wait "$OSMPID" 2>/dev/null
	OSMPID=
	osm_stop
	echo "$(up_time "$log") $cpu"
}

# -> seconds to SUBNET UP, the whole lab up, pings; OpenSM's and the gateway's CPU seconds
on_ftsw() {
	local t0 t1 t ping cpu run=/run/ftsw/$LAB
	t0=$(date +%s.%N)
	if ! "$FTSW" lab up --name "$LAB" -t "$W/t.net" --sm opensm --sm-engine "$eng" \
		--sm-args "-F $W/osm.conf" --sm-timeout "$timeout_s" >"$W/up.out" 2>&1; then
		sed 's/^/# /' "$W/up.out" >&2
		echo "- - - - -"
		return
	fi
	t1=$(date +%s.%N)
	t=$(up_time "$run/opensm.log")
	cpu="$(cpu_s "$(cat "$run/opensm.pid")") $(cpu_s "$(cat "$run/gw-h0.pid")")"
	# h0 to every host over OpenSM's tables
	ping=$("$FTSW" -j lab ping --name "$LAB" h0 -c 1 -W 5000 |
		python3 -c 'import json,sys; d=json.load(sys.stdin); print("%d/%d" % (d["ok"], d["ok"] + d["failed"]))')
	"$FTSW" lab down --name "$LAB" >/dev/null 2>&1
	echo "$t $(awk -v a="$t0" -v b="$t1" 'BEGIN { printf "%.1f", b - a }') ${ping:--} $cpu"
}

median() { sort -g | awk '{ v[NR] = $1 } END { if (NR) print (NR % 2 ? v[(NR + 1) / 2] : (v[NR / 2] + v[NR / 2 + 1]) / 2); else print "-" }'; }

echo "# $topo, engine $eng, $reps rounds; kernel $(uname -r), $(nproc) CPUs; OpenSM $(opensm --version 2>/dev/null | grep -m1 -o '[0-9.]*[0-9]')"
echo "# round  ibsim_s  ftsw_s  ftsw_lab_up_s  h0_pings  cpu_s: ibsim(opensm sim) ftsw(opensm gw)"
: >"$W/ib.t"
: >"$W/fs.t"
for ((r = 1; r <= reps; r++)); do
	settle
	read -r ti ci1 ci2 < <(on_ibsim)
	settle
	read -r tf tu pg cf1 cf2 < <(on_ftsw)
	echo "  $r  $ti  $tf  $tu  $pg  cpu_s: ibsim($ci1 $ci2) ftsw($cf1 $cf2)"
	[ "$ti" = - ] || echo "$ti" >>"$W/ib.t"
	[ "$tf" = - ] || echo "$tf" >>"$W/fs.t"
done
mi=$(median <"$W/ib.t") mf=$(median <"$W/fs.t")
echo "median: ibsim $mi s, ftsw $mf s, ratio ftsw/ibsim $(awk -v a="$mf" -v b="$mi" 'BEGIN { if (a == "-" || b == "-" || b <= 0) print "-"; else printf "%.1f", a / b }') (goal <= 1.5)"
[ "$mi" != - ] && [ "$mf" != - ]
