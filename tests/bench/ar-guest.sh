#!/usr/bin/env bash
# Guest side of tests/bench/ar (root in the test VM): OUT TOPO RATE BUF
# DURATION LIFE GAP_NS PATTERN... Three lossless labs one after the other
# (static d-mod-k; --adaptive per packet; --adaptive --flowlet-gap GAP_NS),
# each PATTERN sent on each (lab traffic -j: OUT/lab-MODE-N.json, N the
# pattern's index), the fabric's port counters (-s port show -j) before
# and after every run (OUT/ports-MODE-N-{0,1}.json: the out-of-order and
# delivered counts of the edge ports), `lab status -j` after each
# (OUT/status-MODE-N.json: drops by reason).
set -euo pipefail
out=$1 topo=$2 rate=$3 buf=$4 dur=$5 life=$6 gap=$7
shift 7
insmod "$FTSW_KMOD/ftsw.ko"
export FTSW_LAB=ar
ports() { ip netns exec "$FTSW_LAB" "$FTSW" -j -s port show >"$1" || true; }
for mode in static adaptive flowlet; do
	case $mode in
	static) extra=() ;;
	adaptive) extra=(--adaptive) ;;
	flowlet) extra=(--adaptive --flowlet-gap "$gap") ;;
	esac
	t0=$(date +%s)
	"$FTSW" lab up -t "$topo" -a dmodk --lossless --rate "$rate" \
		--in-buffer "$buf" --out-buffer "$buf" --hoq-life "$life" \
		--switch-life "$life" "${extra[@]}"
	echo "ar: $mode lab up in $(( $(date +%s) - t0 )) s"
	i=0
	for pat in "$@"; do
		ports "$out/ports-$mode-$i-0.json"
		"$FTSW" -j lab traffic -p "$pat" --size 1420 --duration "$dur" \
			>"$out/lab-$mode-$i.json" || true
		ports "$out/ports-$mode-$i-1.json"
		"$FTSW" -j lab status >"$out/status-$mode-$i.json" || true
		echo "ar: $mode $pat done at $(( $(date +%s) - t0 )) s"
		i=$((i + 1))
	done
	"$FTSW" lab down
done
rmmod ftsw
