#!/usr/bin/env bash
# In the VM (tests/bench/view): lab view beside an idle FT(16,3), the page
# in the host's chromium (FTSW_VIEW_BROWSER: the view's address there;
# FTSW_VIEW_CDP: its DevTools from here).
#   view-guest.sh SPEC
#   view-guest.sh --ref     the reference work of the guest's speed
set -uo pipefail
ref() {
	for _ in 1 2 3 4 5; do
		"$FTSW" route -t ftmn:16,3 -a dfsssp --threads 1 -o /dev/null >/dev/null 2>&1 ||
			return 1
	done
}
if [ "${1:-}" = --ref ]; then
	FTSW=${FTSW:-$(cd "$(dirname "$0")/../.." && pwd)/build/ftsw}
	ref
	exit
fi
spec=${1:-ftmn:16,3}
. "$FTSW_TOP/tests/selftests/lib.sh"
LAB=bv
PY=python3
VT="timeout -k 5 300 $PY $FTSW_TOP/tests/selftests/viewtool.py"
CDP=$FTSW_VIEW_CDP
W=$(mktemp -d /tmp/bv.XXXXXX)
trap '"$FTSW" lab down --name $LAB >/dev/null 2>&1; rm -rf "$W"' EXIT
ftsw_load || exit 1
# CPU seconds (user + system) of the processes whose command line has $1
cpu() {
	local s=0 p t
	for p in $(pgrep -f "$1"); do
		t=$(awk '{print $14 + $15}' "/proc/$p/stat" 2>/dev/null) || continue
		s=$((s + t))
	done
	echo "scale=3; $s / $(getconf CLK_TCK)" | bc
}
# share of one core over S seconds of what cpu PATTERN counts
share() {
	local a b t0 t1
	a=$(cpu "$1"); t0=$(date +%s.%N)
	sleep "$2"
	b=$(cpu "$1"); t1=$(date +%s.%N)
	echo "scale=2; 100 * ($b - $a) / ($t1 - $t0)" | bc
}

t0=$(date +%s.%N)
"$FTSW" lab up --name $LAB -t "$spec" --patch >/dev/null || exit 1
echo "lab up $spec --patch: $(echo "$(date +%s.%N) - $t0" | bc) s"
"$FTSW" lab view --name $LAB -d --listen 10.0.2.15:8185 >/dev/null || exit 1
url=$(awk '{print $2}' /run/ftsw/$LAB/view.pid)
sleep 3
echo "== 1. /metrics of $(curl -s "${url}metrics" | grep -c '^infiniband_portxmitpkts_total{') ports"
for i in $(seq 20); do curl -s -o /dev/null -w '%{time_total}\n' "${url}metrics"; done |
	sort -n >"$W/scrape"
for i in $(seq 5); do
	/usr/bin/time -f %e ip netns exec $LAB "$FTSW" -j -s port show 2>>"$W/dump" >/dev/null
done
sort -n "$W/dump" -o "$W/dump"
curl -s "${url}metrics" | wc -c | awk '{printf "  %.1f MB of text\n", $1 / 1e6}'
echo "  scrape: median $(sed -n 10p "$W/scrape") s (min $(head -1 "$W/scrape"), max $(tail -1 "$W/scrape"))"
echo "  peer, ftsw -j -s port show: median $(sed -n 3p "$W/dump") s"
echo "  ratio peer / scrape: $(echo "scale=1; $(sed -n 3p "$W/dump") / $(sed -n 10p "$W/scrape")" | bc)"
echo "  the sampler's last sample: $(curl -s "${url}metrics" | awk '/^ftsw_view_sample_seconds/ {print $2}') s"

echo "== 2. CPU beside the idle lab, two updates a second"
/usr/bin/time -f '%U %S' -o "$W/ref" "$0" --ref || exit 1
gref=$(awk '{ print $1 + $2 }' "$W/ref")
speed=$(echo "scale=1; $gref / $FTSW_VIEW_HOSTREF" | bc)
echo "  the guest's speed: the reference work took ${gref} s of CPU here," \
	"${FTSW_VIEW_HOSTREF} s on the host: ${speed}x slower"
# the peer's CPU: a port dump of the lab by the CLI (five, averaged)
/usr/bin/time -f '%U %S' -o "$W/dumpcpu" bash -c \
	"for i in 1 2 3 4 5; do ip netns exec $LAB $FTSW -j -s port show; done" >/dev/null
dcpu=$(awk '{ printf "%.3f", ($1 + $2) / 5 }' "$W/dumpcpu")
srv=$(share "lab view --name $LAB" 60)
echo "  server alone (no client): ${srv}% of the guest's core" \
	"(host estimate $(echo "scale=2; $srv / $speed" | bc)%); one port dump by the CLI" \
	"costs ${dcpu} s of CPU: the server = $(echo "scale=2; $srv / 100 / $dcpu" | bc) dumps a second"
$VT open "$CDP" "$FTSW_VIEW_BROWSER" 600 >/dev/null || exit 1
sleep 10
$VT cpu "$CDP" >"$W/c0" || exit 1
u0=$($VT eval "$CDP" ftsw.updates)
srv2=$(share "lab view --name $LAB" 60)
$VT cpu "$CDP" >"$W/c1" || exit 1
u1=$($VT eval "$CDP" ftsw.updates)
pg=$(paste "$W/c0" "$W/c1" | awk '{ printf "%.2f", 100 * ($4 - $2) / ($3 - $1) }')
echo "  with the page open: server ${srv2}% of the guest's core;" \
	"the page (every chromium process, on the host) ${pg}% of a host core"
echo "  updates the page applied meanwhile: $((u1 - u0))"
echo "  server + page: $(echo "scale=2; $srv2 + $pg" | bc)% of a core at the guest's" \
	"speed; at the host's: $(echo "scale=2; $srv2 / $speed + $pg" | bc)% (bound: 5)"
if [ -n "${FTSW_VIEW_SHOTS:-}" ]; then
	$VT shot "$CDP" "$FTSW_VIEW_SHOTS/view-ft16-3.png" 1600 900
	$VT shot "$CDP" "$FTSW_VIEW_SHOTS/view-ft16-3-subtree.png" 1600 900 'ftsw.frame(5)'
	echo "== 3. screenshots in $FTSW_VIEW_SHOTS"
fi
"$FTSW" lab down --name $LAB >/dev/null
