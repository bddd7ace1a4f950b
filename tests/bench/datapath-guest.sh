#!/usr/bin/env bash
# Guest side of tests/bench/datapath (runs as root in the test VM).
#
# One topology, three data paths: host S - 5 switches in a chain - host R,
# the switches being ftsw switches, Linux bridges, or Open vSwitch bridges on
# its kernel datapath (ovs-vswitchd with datapath_type=system, the NORMAL
# action). Every round builds every chain from scratch, each in its own
# fresh namespaces, all up at once, and runs the same traffic through each,
# every measurement starting on an idle guest (settle): pktgen as PGREPS
# short repetitions interleaved over the chains (A B C, B C A, ...), so
# that the chains compared are measured seconds apart, then socket UDP and
# TCP chain after chain, in an order rotated each round.
set -uo pipefail
: "${FTSW_KMOD:?}" "${FTSW:?}"
SECS=${BENCH_SECS:-5}
ROUNDS=${BENCH_ROUNDS:-5}
CHAINS=${BENCH_CHAINS:-ftsw bridge ovs}
PGREPS=${BENCH_PGREPS:-5}
PGSECS=${BENCH_PGSECS:-1}
# What to measure: pktgen, udp (socket UDP), tcp, mem (LFT memory).
PARTS=" ${BENCH_PARTS:-pktgen udp tcp mem} "
part() { [[ $PARTS == *" $1 "* ]]; }
NSW=5
# use CHAIN: the namespaces of that chain (S, R, F of datapath-chains.sh).
use() { CHAIN=$1 S=bs$1$$ R=br$1$$ F=bf$1$$; }
# Joined by patch cables (ftsw) and patch ports (OVS): datapath-chains.sh.
PATCH=${BENCH_PATCH:-}
OVS=/tmp/ovs$$
export OVS_RUNDIR=$OVS OVS_LOGDIR=$OVS OVS_DBDIR=$OVS

insmod "$FTSW_KMOD/ftsw.ko" || exit 1
# The plain kernel has pktgen as a module (tests/vm/plain.config).
[ -d /proc/net/pktgen ] || insmod "$FTSW_VM_TREE/net/core/pktgen.ko" ||
	{ echo "datapath: no pktgen (built in or $FTSW_VM_TREE/net/core/pktgen.ko)" >&2; exit 1; }
die() { echo "datapath: $*" >&2; exit 1; }
. "$(dirname "$0")/datapath-chains.sh"

teardown() { # every chain
	local c
	ovs_stop
	for c in "$@"; do
		use "$c"; ip netns del "$S"; ip netns del "$R"; ip netns del "$F"
	done
	sleep 1
}

# Every chain must carry traffic both ways before it is measured: this also
# lets the bridges learn both MACs and OVS install its kernel flows.
warm() {
	ip netns exec "$S" ping -q -c 5 -i 0.2 -W 5 198.18.0.2 >/dev/null ||
		die "$1: S cannot ping R"
}

pg() { ip netns exec "$S" sh -c "echo '$1' > /proc/net/pktgen/$2"; }
busy() { awk '/^cpu / {print $2 + $3 + $4 + $7 + $8}' /proc/stat; }
rxp() { ip netns exec "$R" cat /sys/class/net/eth0/statistics/rx_packets; }

# settle: wait (up to 30 s) until the guest is idle: a 1 s window with at
# most 5% of its CPU time busy. Tearing a chain down is deferred work:
# `ip netns del` returns at once and the kernel's namespace clean-up (every
# device unregistered, RCU grace periods, OVS's datapath) runs afterwards
# in a kworker, for seconds on TCG. Without this, the chain measured next
# paid for its predecessor's clean-up; with the chains in a fixed cyclic
# order, ftsw always followed OVS, whose clean-up is the longest. The
# 1 s wait is a read with a timeout on a pipe nobody writes: no process
# is started (each costs milliseconds on TCG).
exec {idle_fd}<> <(:)
settled= ncpu=$(nproc)
settle() {
	local i b0 b1 u n s irq sirq _
	for i in $(seq 1 30); do
		read -r _ u n s _ _ irq sirq _ </proc/stat; b0=$((u + n + s + irq + sirq))
		read -rt 1 -u "$idle_fd" _
		read -r _ u n s _ _ irq sirq _ </proc/stat; b1=$((u + n + s + irq + sirq))
		[ $((b1 - b0)) -le $((ncpu * 5)) ] && { settled+=" $i"; return 0; }
	done
	settled+=" 30+($(((b1 - b0) / ncpu))% busy)"
}

# run_pps: 64-byte UDP from S (pktgen, at full speed, for PGSECS seconds),
# all the way to R; prints "<pps delivered> <delivered> <sent>". pktgen's
# thread sends and, in the same softirq, every hop forwards the frame and
# R's stack receives it, all on one CPU: the rate is the packets per second
# one CPU carries through the chain, and 1/rate its CPU time per packet. (A
# fixed rate with the guest's CPU time from /proc/stat counted everything
# else the guest did in the window too: process start-ups, which cost
# milliseconds each on TCG, and deferred work; see datapath.md.) Each
# chain's S has its own pktgen (one per namespace), set up once (pg_setup).
pg_setup() {
	pg "rem_device_all" kpktgend_0
	pg "add_device eth0" kpktgend_0
	pg "count 0" eth0
	pg "clone_skb 0" eth0
	pg "pkt_size 64" eth0
	pg "delay 0" eth0
	pg "dst 198.18.0.2" eth0
	pg "dst_mac 02:66:74:00:00:02" eth0
	pg "udp_dst_min 9" eth0
	pg "udp_dst_max 9" eth0
}
run_pps() {
	local a b r pid
	a=$(rxp)
	ip netns exec "$S" sh -c 'echo start > /proc/net/pktgen/pgctrl' &
	pid=$!
	sleep "$PGSECS"
	ip netns exec "$S" sh -c 'echo stop > /proc/net/pktgen/pgctrl'
	wait "$pid"
	b=$(rxp)
	r=$(ip netns exec "$S" cat /proc/net/pktgen/eth0)
	awk -v d="$((b - a))" '
		/Result: OK:/ { t = $3 + 0 } /pkts-sofar:/ { n = $2 + 0 }
		END { printf "%.0f %d %d\n", (t ? d * 1e6 / t : 0), d, n }' <<<"$r"
}

# run_udp: the same from a socket: iperf3 -u, 64-byte datagrams as fast as
# the sender can, from S to R; "<pps delivered> <delivered>" counted at
# R's device over SECS seconds from 1 s after the start (iperf3's start-up
# left out). A socket reserves only the link-layer header in front of a
# datagram (pktgen leaves 66 bytes), so this is what a switch that pushes a
# header meets in real traffic; iperf3's own CPU is in it for every chain.
run_udp() {
	local a b t0 t1 pid
	ip netns exec "$R" iperf3 -s -D -1 >/dev/null 2>&1
	sleep 0.5
	ip netns exec "$S" iperf3 -u -c 198.18.0.2 -l 64 -b 0 -t $((SECS + 2)) >/dev/null 2>&1 &
	pid=$!
	sleep 1
	a=$(rxp); t0=$(date +%s%N)
	sleep "$SECS"
	b=$(rxp); t1=$(date +%s%N)
	wait "$pid"
	awk -v d="$((b - a))" -v t="$((t1 - t0))" 'BEGIN { printf "%.0f %d\n", d * 1e9 / t, d }'
}

# run_tcp: iperf3 TCP S -> R (hosts at MTU 1500, TSO/GSO on), the first
# second (slow start) left out; prints "<Mbit/s> <CPU us per MB> <retransmits>".
# Throughput also measures how fast the host schedules the guest's two
# vCPUs (a loaded host leaves the guest idle, waiting); the guest CPU time
# per megabyte received does not, and is the steadier figure.
run_tcp() {
	local c0 c1 j
	ip netns exec "$R" iperf3 -s -D -1 >/dev/null 2>&1
	sleep 0.5
	c0=$(busy)
	j=$(ip netns exec "$S" iperf3 -c 198.18.0.2 -t "$SECS" -O 1 -J 2>/dev/null)
	c1=$(busy)
	awk -F'[:,]' -v c="$((c1 - c0))" -v t="$((SECS + 1))" '
		/"sum_sent"/ {s = 1} s && /"retransmits"/ {r = $2 + 0}
		/"sum_received"/ {v = 1} v && /"bits_per_second"/ && !b {b = $2}
		END {
			# CPU over the whole run (1 s omitted + SECS measured),
			# the rate over the measured part: scale to the whole run.
			mb = b * t / 8e6
			printf "%.1f %.0f %d\n", b / 1e6, (mb > 0 ? c * 10000 / mb : 0), r
		}' <<<"$j"
}

# BENCH_PROFILE=1: record each measurement with perf (all CPUs, cpu-clock)
# and print where the guest's CPU time went, by symbol, self time. The
# profiler's own cost is in that run's figures: profile runs are for the
# explanation, timing runs (without it) for the numbers.
PROFILE=${BENCH_PROFILE:-}
prof_pid=
prof_start() {
	[ -n "$PROFILE" ] || return 0
	perf record -a -g -e cpu-clock -F 499 -o "/tmp/perf-$1.data" >/dev/null 2>&1 &
	prof_pid=$!
	sleep 1
}
prof_stop() {
	[ -n "$PROFILE" ] || return 0
	kill -INT "$prof_pid"; wait "$prof_pid"
	echo "  profile $1 (self time by symbol, idle left out):"
	perf report -i "/tmp/perf-$1.data" --no-children --sort sym --stdio -g none \
		--percent-limit 0.7 2>/dev/null | grep -v '^#' | grep -v '^$' |
		grep -Ev 'default_idle|pv_native_safe_halt|native_safe_halt|\[k\] (acpi_idle|mwait|cpu_idle|do_idle)' |
		head -40 | sed 's/^/    /'
	rm -f "/tmp/perf-$1.data"
}

# stats VALUES...: "median min max".
stats() { printf '%s\n' "$@" | sort -g | awk '{v[NR] = $1} END {print v[int((NR + 1) / 2)], v[1], v[NR]}'; }
# ratios A B: the element-wise ratios of two lists of numbers, one a line.
ratios() {
	paste -d' ' <(printf '%s\n' $1) <(printf '%s\n' $2) |
		awk '{print ($2 > 0 ? $1 / $2 : 0)}'
}

# Results: res[chain.metric] = one value per round, in round order;
# rres[peer.pps] = each round's pktgen ratio ftsw/peer (the median of its
# repetitions' ratios, each repetition's ftsw and peer figures taken
# seconds apart).
declare -A res rres
set -- $CHAINS
up_all() { # every chain, each in its own namespaces, checked and warm
	local c
	for c in "$@"; do
		use "$c"; hosts; "chain_$c"; warm "$c"; pg_setup
	done
}
# One unmeasured pass over every chain first: the first traffic after boot
# pays one-off costs (binaries read over 9p, first use of pktgen and of the
# module).
up_all "$@"
for c in "$@"; do
	use "$c"; settle
	part pktgen && run_pps >/dev/null
	part udp && run_udp >/dev/null
	part tcp && run_tcp >/dev/null
done
teardown "$@"
for r in $(seq 1 "$ROUNDS"); do
	# Rotate the order each round, so that no chain always runs first.
	order=("$@")
	for _ in $(seq 2 "$r"); do order=("${order[@]:1}" "${order[0]}"); done
	up_all "${order[@]}"
	declare -A reps=() got=()
	# pktgen: PGREPS repetitions, the chains interleaved and the order
	# rotated each repetition; every one on an idle guest (see settle).
	ord=("${order[@]}")
	part pktgen || PGREPS=0
	for k in $(seq 1 "$PGREPS"); do
		for c in "${ord[@]}"; do
			use "$c"; settle
			prof_start "$c-pktgen$k"; read -r p d n < <(run_pps); prof_stop "$c-pktgen$k"
			reps[$c]+="${p:-0} " got[$c]+="$d/$n "
		done
		ord=("${ord[@]:1}" "${ord[0]}")
	done
	settled=
	for c in "${order[@]}"; do
		use "$c"
		u=0 t= tc= tr=
		if part udp; then
			settle; prof_start "$c-udp"; read -r u _ < <(run_udp); prof_stop "$c-udp"
		fi
		if part tcp; then
			settle; prof_start "$c-tcp"; read -r t tc tr < <(run_tcp); prof_stop "$c-tcp"
		fi
		read -r p lo hi < <(stats ${reps[$c]:-0})
		res[$c.pps]+="$p " res[$c.udp]+="$u " res[$c.tcp]+="${t:-0} " res[$c.tcpc]+="${tc:-0} "
		line=$(printf 'round %d: %-6s chain of %d:' "$r" "$c" $NSW)
		part pktgen && line+=$(printf ' pktgen %s pps [%s-%s] (%d x %s s: %s; delivered/sent %s),' \
			"$p" "$lo" "$hi" "$PGREPS" "$PGSECS" "${reps[$c]% }" "${got[$c]% }")
		part udp && line+=" socket UDP $u pps,"
		part tcp && line+=" TCP ${t:-FAILED} Mbit/s, ${tc:-?} us CPU/MB, ${tr:-?} retransmits"
		echo "${line%,}"
		[ "$c" = ftsw ] && f "$FTSW" -s port show switch 3 | sed 's/^/    /' | head -3
	done
	for peer in "$@"; do
		[ "$peer" != ftsw ] && [ -n "${reps[ftsw]:-}" ] || continue
		read -r v lo hi < <(stats $(ratios "${reps[ftsw]}" "${reps[$peer]}"))
		# Host noise only ever slows a repetition down: the best of
		# each chain's repetitions is its least disturbed figure.
		b=$(awk -v a="$(stats ${reps[ftsw]})" -v b="$(stats ${reps[$peer]})" 'BEGIN {
			split(a, A); split(b, B); printf "%.3f", (B[3] > 0 ? A[3] / B[3] : 0) }')
		rres[$peer.pps]+="$v " rres[$peer.best]+="$b "
		printf '    pktgen ftsw/%s: %s, repetitions %s [%s-%s]; best of each %s\n' "$peer" "$v" \
			"$(ratios "${reps[ftsw]}" "${reps[$peer]}" | awk '{printf "%s%.2f", (NR > 1 ? " " : ""), $1}')" "$lo" "$hi" "$b"
	done
	echo "    waited for an idle guest (s) before each UDP and TCP:$settled"; settled=
	teardown "${order[@]}"
	unset reps got
done

echo "summary ($ROUNDS rounds; median [min-max]; 64-byte UDP at full speed on one CPU, pktgen the median of $PGREPS x $PGSECS s per round; TCP with iperf3 -t $SECS):"
declare -A med
for c in $CHAINS; do
	line=$(printf '  %-6s' "$c")
	for m in pps udp tcp tcpc; do
		read -r v lo hi < <(stats ${res[$c.$m]})
		med[$c.$m]=$v
		case $m in
		pps) line+=$(awk -v v="$v" -v lo="$lo" -v hi="$hi" 'BEGIN {
			printf " pktgen %.0f pps [%.0f-%.0f] (%.1f us/packet),", v, lo, hi, (v ? 1e6 / v : 0) }') ;;
		udp) line+=$(awk -v v="$v" -v lo="$lo" -v hi="$hi" 'BEGIN {
			printf " socket UDP %.0f pps [%.0f-%.0f],", v, lo, hi }') ;;
		tcp) line+=$(awk -v v="$v" -v lo="$lo" -v hi="$hi" 'BEGIN {
			printf " TCP %.1f Mbit/s [%.1f-%.1f]", v, lo, hi }') ;;
		tcpc) line+=$(awk -v v="$v" -v lo="$lo" -v hi="$hi" 'BEGIN {
			printf " at %.0f us CPU/MB [%.0f-%.0f]", v, lo, hi }') ;;
		esac
	done
	echo "$line"
done
# Ratios (> 1: ftsw better): of the medians, and the median [min-max] of
# each round's own ratio (the chains of one round ran within a minute or two,
# so a round's ratio is the least disturbed by the host's load changing).
ratio() { # PEER METRIC: per-round ratios, one a line
	case $2 in
	pps) printf '%s\n' ${rres[$1.pps]} ;;
	tcpc) ratios "${res[$1.$2]}" "${res[ftsw.$2]}" ;;
	*) ratios "${res[ftsw.$2]}" "${res[$1.$2]}" ;;
	esac
}
for peer in bridge ovs; do
	[ -n "${res[ftsw.pps]:-}" ] && [ -n "${res[$peer.pps]:-}" ] || continue
	line="ratio ftsw/$peer (chain of $NSW, median of the rounds' ratios [min-max]; ratio of the medians):"
	for m in pps udp tcp tcpc; do
		read -r v lo hi < <(stats $(ratio "$peer" "$m"))
		line+=$(awk -v m="$m" -v v="$v" -v lo="$lo" -v hi="$hi" -v f="${med[ftsw.$m]}" -v p="${med[$peer.$m]}" 'BEGIN {
			name = m == "pps" ? "pktgen" : m == "udp" ? "socket UDP" : m == "tcp" ? "TCP" : "TCP CPU/MB"
			rm = m != "tcpc" ? (p > 0 ? f / p : 0) : (f > 0 ? p / f : 0)
			printf " %s %.2f [%.2f-%.2f]; %.2f%s", name, v, lo, hi, rm, m == "tcpc" ? "" : "," }')
	done
	if [ -n "${rres[$peer.best]:-}" ]; then
		read -r v lo hi < <(stats ${rres[$peer.best]})
		line+="; pktgen best repetition ftsw/best $peer $v [$lo-$hi]"
	fi
	echo "$line"
done

# Memory: NTAB switches with a full LFT (0xC000 entries) each.
part mem || { rmmod ftsw; exit; }
NTAB=100
use mem
ip netns add "$F"
avail() { awk '/^MemAvailable/ {print $2 * 1024}' /proc/meminfo; }
sync; echo 3 > /proc/sys/vm/drop_caches
m0=$(avail)
tab=$(mktemp); echo "1-49151 1" >"$tab"
for i in $(seq 1 $NTAB); do
	f "$FTSW" switch add id "$i" ports 8 >/dev/null
	f "$FTSW" lft set switch "$i" file "$tab"
done
f "$FTSW" commit >/dev/null
sleep 2
sync; echo 3 > /proc/sys/vm/drop_caches
m1=$(avail)
lb=$(f "$FTSW" -j fabric show | sed 's/.*"lft_bytes":\([0-9]*\).*/\1/')
awk -v lb="$lb" -v d="$((m0 - m1))" -v n=$NTAB 'BEGIN {
	e = n * 49152
	printf "lft bytes/entry: %.4f (reported by the module: %d bytes for %d entries); %.3f measured as MemAvailable drop for %d switches with full tables (includes switch and port structures)\n", lb / e, lb, e, d / e, n }'
rm -f "$tab"
ip netns del "$F"
# The namespace's clean-up (and with it the fabric's) runs after ip netns
# del returns and holds the module until it is done: retry rmmod for a
# while. (The bench's old exit status 1 after every figure was not this
# but the host-side wrapper's EXIT trap; see tests/bench/datapath.)
for _ in $(seq 1 120); do
	rmmod ftsw 2>/dev/null && exit 0
	sleep 0.5
done
echo "datapath: rmmod ftsw: still in use 60 s after the last namespace went:" \
	"$(lsmod | awk '$1 == "ftsw"')"; ip netns list
exit 1
