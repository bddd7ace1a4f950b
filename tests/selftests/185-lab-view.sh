#!/usr/bin/env bash
# (lab) watching the fabric live: lab view in a real browser (Debian's
# chromium, headless, driven over its DevTools protocol by viewtool.py),
# /metrics scraped by a real Prometheus, lab top, hostile clients.
#
# Not a selftest of the VM lanes: tests/vm/view-test (make check's vm-view)
# boots the debug VM for it with the browser and the Prometheus server on
# the host, at the host's speed (Chromium in the TCG guest takes minutes to
# start): the lab and its view run here, in the VM, the view listening on
# 10.0.2.15:8185, which the host's 127.0.0.1 port FTSW_VIEW_BROWSER names
# reaches (tests/vm/run --hostfwd); the browser's DevTools port is
# FTSW_VIEW_CDP here and Prometheus' API FTSW_VIEW_PROM (--guestfwd).
#
# One lab for most checks: FT(4,3) (ftmn:4,3) in lossless mode at the
# kernel's link rate, routed by D-Mod-K (the paths worked out by hand
# below), the view sampling twice a second (its default); its fabric
# manager started for the failure.
#
#  - The page loads with every request to the view's own address.
#  - Traffic: shift:4 in random order (ftsw analyze's hot-spot degree 3):
#    while it runs, the links the analyzer predicts busiest (3 flows) are
#    drawn at least as wide as every other; afterwards the page's packets
#    for every link equal the kernel's counters, and the packets it counted
#    itself from its rates (rate x interval, summed) equal the kernel's
#    delta over the same time within 5%.
#  - The congestion tree (181-lab-congestion's paths, by hand): h15's
#    edge port s7:4 slowed to 1 Mbit/s, eight hosts sending to h15; the
#    outputs the page shows waiting for credit are outputs of those paths
#    and include s15:4 and s19:4, the two next to the hot spot, and every
#    one of them is followed, on the way to h15, by another that waits or
#    by s7:4's switch.
#  - lab fail port s0:P, P the port the page's trace of h0 -> h2 leaves
#    s0 by once the fabric manager routed the lab: the page draws the
#    cable down within a second, the fm's sweep is in its timeline, and
#    its traced path of h0 -> h2 leaves s0 by another port, delivered.
#  - /metrics passes promtool check metrics (run by view-test on the host,
#    on a scrape made here); a Prometheus server scrapes it; its values
#    equal the kernel's counters.
#  - lab top -b -n 1 -j: the busiest links with the kernel's counts.
#  - Hostile clients (viewtool.py hostile): bad methods and paths, a
#    100 kB header, a GET with a body, 300 connections held (idle,
#    half-sent, stream clients that never read) and a slow reader: the
#    others answered within 3 s, the server's memory within 64 MB more,
#    and lab status answers meanwhile.
#
# Then the deadlock selftest's ring (180-lab-deadlock): torus:6 by MinHop
# on one VL, 1-frame input buffers, infinite lifetimes, shift:2: the page
# names the cycle lab waits names.
#
# FTSW_VIEW_SHOTS=DIR keeps the screenshots (the ring, the congestion
# tree, lab top's screen meanwhile; the FT(16,3) ones are tests/bench/view's)
# in DIR (make view-shots).
. "$(dirname "$0")/lib.sh"
. "$(dirname "$0")/lab-lib.sh"

tap_plan 15
tap_check "insmod ftsw.ko" ftsw_load

OUT=$(mktemp -d /tmp/vw.XXXXXX)
SHOTS=${FTSW_VIEW_SHOTS:-$OUT}
trap 'exec 7>&- 8<&-; bg_stop "$OUT"; lab lab down --name "$LAB" >/dev/null 2>&1; rm -rf "$OUT"' EXIT
fab() { ip netns exec "$LAB" "$FTSW" "$@"; }
# the view's address here, and the browser's for it
url() { awk '{print $2}' "/run/ftsw/$LAB/view.pid"; }
BURL=${FTSW_VIEW_BROWSER:-}
port() { echo "${FTSW_VIEW_CDP:-}"; }
# viewtool: one python3 for the whole test (each start costs the TCG
# guest a second or two), a coprocess on two FIFOs: a command is its word
# count and words, each ended by a NUL; its answer a line, 0x1e and the
# exit status, once its output is in $VTS.out and its errors in $VTS.err
# (viewtool.py serve). Every command has a deadline of its own
# (viewtool's), and one more here should the python hang or die: then
# the coprocess is dropped and every later command a python of its own.
VTS=$OUT/vt
mkfifo "$VTS.to" "$VTS.from"
"$PY" "$FTSW_TOP/tests/selftests/viewtool.py" serve "$VTS" <"$VTS.to" >"$VTS.from" &
bg_keep "$OUT" viewtool $!
exec 7>"$VTS.to" 8<"$VTS.from"
vt_secs() {
	local s=${VIEWTOOL_SECONDS:-120}
	case "$1" in open|watch|until) s=$((s + ${4%.*})) ;; esac
	echo $((s + 30))
}
vt_send() { printf '%s\0' "$#" "$@" >&7; }
vt_recv() {
	local line
	if IFS= read -r -t "$1" line <&8 && [ "${line:0:1}" = $'\x1e' ]; then
		cat "$VTS.out"
		[ -s "$VTS.err" ] && cat "$VTS.err" >&2
		return "${line#?}"
	fi
	echo "viewtool: no answer in $1 s: on without it" >&2
	touch "$VTS.gone"
	kill "$(bg_pid "$OUT" viewtool)" 2>/dev/null
	return 3
}
# vt1 CMD...: a viewtool of its own (commands while the coprocess works)
vt1() {
	timeout -k 5 "$(vt_secs "$@")" "$PY" "$FTSW_TOP/tests/selftests/viewtool.py" "$@"
}
vt() {
	[ -e "$VTS.gone" ] && { vt1 "$@"; return; }
	vt_send "$@" && vt_recv "$(vt_secs "$@")"
}
page() { vt eval "$(port)" "$1"; }
# pyc ARGS... <<'EOF': a check's python script, run by the coprocess
pyc() { vt py "$(cat)" "$@"; }
view() { lab lab view --name "$LAB" -d --listen 10.0.2.15:8185 >/dev/null; }

lab_a() {
	[ -n "$BURL" ] && [ -n "$(port)" ] && [ -n "${FTSW_VIEW_PROM:-}" ] || {
		echo "run by tests/vm/view-test (FTSW_VIEW_BROWSER, FTSW_VIEW_CDP, FTSW_VIEW_PROM unset)"
		return 1
	}
	lab lab up --name "$LAB" -t ftmn:4,3 -a dmodk --lossless >/dev/null && view ||
		return 1
	# the fabric manager for the failure below, started now: its first
	# sweep runs while the page loads (on the complete FT(4,3) its Dmodc
	# routes as D-Mod-K does: the same tables, the paths below hold)
	lab fm --lab "$LAB" -d >"$OUT/fm.out" 2>&1 &
	vt eval "$(port)" 1 >/dev/null
}
tap_check "FT(4,3) lossless, lab view up, the host's browser reached" lab_a

# every request the page made went to the view's own address
loads() {
	vt open "$(port)" "$BURL" 60 >"$OUT/open.json" || return 1
	pyc "$OUT/open.json" "$BURL" <<'EOF'
import json, sys
d, url = json.load(open(sys.argv[1])), sys.argv[2]
other = [r for r in d["requests"] if not r.startswith(url)]
assert len(d["requests"]) >= 5 and not other, d
print("%d requests in %.1f s, all to %s" % (len(d["requests"]), d["seconds"], url))
EOF
}
tap_check "the page loads with no request leaving the server" loads

traffic() {
	local rc=0
	# the fm's first commit done (started with the lab): no table changes
	# while the traffic runs
	vt until "$(port)" 'ftsw.events.some(e => e.kind === "fm-sweep")' 60 \
		>/dev/null || { cat "$OUT/fm.out"; return 1; }
	[ -e "$VTS.gone" ] && return 1
	fab -j -s port show >"$OUT/k0.json"
	# the widths the page draws from before the first packet until the
	# traffic is over (however long the guest takes to start it)
	vt_send watch "$(port)" '[...document.querySelectorAll("#cables line")].map(e => [+e.dataset.rec, +(e.dataset.width || 0)])' \
		40 0.5 "file:$OUT/traffic.done"
	lab -j lab traffic --name "$LAB" -p shift:4 --order random --packets 100 \
		--pps 400 >"$OUT/traffic.json" 2>"$OUT/traffic.err" || { cat "$OUT/traffic.err"; rc=1; }
	: >"$OUT/traffic.done"
	vt_recv 200 >"$OUT/widths.json" || rc=1
	sleep 1.5
	page 'JSON.stringify({pkt: ftsw.pkt, pkt0: ftsw.pkt0, integ: ftsw.integ, node: ftsw.node, port: ftsw.port, names: ftsw.topo.nodes.map(n => n.n)})' \
		>"$OUT/after.json" || return 1
	fab -j -s port show >"$OUT/k1.json"
	pyc "$OUT" <<'EOF' || rc=1
import json, sys
out = sys.argv[1]
after = json.loads(json.load(open(out + "/after.json")))
k0 = {(p["switch"], p["port"]): p["stats"]["tx_packets"]
      for p in json.load(open(out + "/k0.json"))["ports"] if "stats" in p}
k1 = {(p["switch"], p["port"]): p["stats"]["tx_packets"]
      for p in json.load(open(out + "/k1.json"))["ports"] if "stats" in p}
t = json.load(open(out + "/traffic.json"))
rec = {}
for r, n in enumerate(after["node"]):
    if n is not None and after["names"][n].startswith("s"):
        rec[(int(after["names"][n][1:]), after["port"][r])] = r
bad, worst = [], 0
for key, r in rec.items():
    kd = k1[key] - k0[key]
    if after["pkt"][r] != k1[key]:
        bad.append("%s: page %s, kernel %s" % (key, after["pkt"][r], k1[key]))
    pd = after["pkt"][r] - after["pkt0"][r]
    if kd >= 100 and abs(after["integ"][r] - pd) > 0.05 * pd:
        bad.append("%s: page's rates add up to %.0f, the kernel's delta %d"
                   % (key, after["integ"][r], pd))
    if kd >= 100:
        worst = max(worst, abs(after["integ"][r] - pd) / pd)
assert not bad, bad[:5]
# predicted busiest (most flows) drawn busiest: the widest on average
flows = {(l["switch"], l["port"]): l["flows"] for l in t["links"]}
top = max(flows.values())
w = {}
for _, sample in json.load(open(out + "/widths.json")):
    for r, width in sample:
        w.setdefault(r, []).append(width)
avg = {r: sum(v) / len(v) for r, v in w.items()}
hot = [rec[k] for k, f in flows.items() if f == top]
cold = [r for k, r in rec.items() if flows.get(k, 0) < top]
assert top == 3 and hot, (top, hot)
lo = min(avg[r] for r in hot)
hi = max(avg[r] for r in cold)
assert lo >= hi, "a link with fewer flows drawn wider: %.2f > %.2f" % (hi, lo)
print("%d links: page packets = kernel's; page's own count within %.1f%%; "
      "%d links of %d flows drawn widest (%.2f px, the others up to %.2f)"
      % (len(rec), 100 * worst, len(hot), top, lo, hi))
EOF
	return $rc
}
tap_check "traffic: the page's link figures equal the kernel's counters (its own count within 5%), the analyzer's busiest links drawn busiest" traffic

# the congestion tree toward h15 (paths by hand, 181-lab-congestion.sh)
tree() {
	local rc=0
	printf '%s\n' "0 15" "2 15" "4 15" "6 15" "8 15" "10 15" "12 15" "14 15" \
		>"$OUT/hot"
	fab port set switch 7 port 4 rate 1M || return 1
	# the page watched from before the first packet until the traffic is
	# over (a slow guest takes seconds to start it): 800 packets of 1400
	# bytes at 200/s, s7:4 drains 89/s
	[ -e "$VTS.gone" ] && return 1
	vt_send watch "$(port)" 'ftsw.waiting' 40 0.3 "file:$OUT/hot.done"
	{
		lab -j lab traffic --name "$LAB" -p "file:$OUT/hot" --packets 100 --size 1400 \
			--pps 200 >"$OUT/hot.json" 2>&1
		: >"$OUT/hot.done"
	} &
	bg_keep "$OUT" hot $!
	# the screenshots once the page shows a tree (make view-shots)
	if [ -n "${FTSW_VIEW_SHOTS:-}" ]; then
		vt1 until "$(port)" 'ftsw.waiting.length > 1' 30 >/dev/null
		vt1 shot "$(port)" "$SHOTS/view-congestion-tree.png" 1400 900
		# lab top's screen meanwhile, for its screenshot (cycle below)
		tmux new-session -d -s "vt$$" -x 118 -y 34 \
			"$FTSW lab top --name $LAB -d 500 --sort wait"
		sleep 2
		tmux capture-pane -t "vt$$" -p >"$OUT/top.txt"
		tmux kill-session -t "vt$$"
	fi
	vt_recv 200 >"$OUT/waiting.json" || rc=1
	fab port set switch 7 port 4 rate 1G
	wait "$(bg_pid "$OUT" hot)"
	# what lab traffic saw (shown when the check fails)
	head -c 600 "$OUT/hot.json"; echo
	pyc "$OUT/waiting.json" <<'EOF' || rc=1
import json, sys
# each output on the way to h15 and the one after it (None: s7's, the root)
nxt = {"s0:2": "s9:2", "s1:2": "s9:2", "s2:2": "s11:2", "s3:2": "s11:2",
       "s4:2": "s13:2", "s5:2": "s13:2", "s9:2": "s19:4", "s11:2": "s19:4",
       "s13:2": "s19:4", "s19:4": "s15:4", "s6:2": "s15:4", "s15:4": None}
seen = json.load(open(sys.argv[1]))
best = max((set(w) for _, w in seen), key=len, default=set())
assert best, "no output waited for credit in the page's %d looks over %.1f s" % (
    len(seen), seen[-1][0] - seen[0][0] if seen else 0)
assert best <= set(nxt), "outputs off the paths to h15: %s" % (best - set(nxt))
assert {"s15:4", "s19:4"} <= best, best
for p in best:
    assert nxt[p] is None or nxt[p] in best, "%s waits, %s after it not" % (p, nxt[p])
print("waiting for credit: %s (of the 12 outputs toward h15)" % ", ".join(sorted(best)))
EOF
	return $rc
}
tap_check "lossless: the outputs the page shows waiting for credit form the tree toward the hot spot" tree

# a failed cable: down on the page within a second, the fm's sweep in its
# timeline, the traced path of h0 -> h2 off it. The fabric manager (Dmodc)
# routes the lab first; the cable failed is the one h0 -> h2 then leaves
# s0 by.
failover() {
	local t0 t1 rec p
	p=$(page 'ftsw.trace("h0", "h2").then(() => ftsw.paths.paths[0].hops[0].out)') || return 1
	rec=$(page "ftsw.node.findIndex((n, r) => ftsw.topo.nodes[n].n === 's0' && ftsw.port[r] === $p)")
	t0=$(date +%s.%N)
	echo "h0 -> h2 leaves s0 by port $p (record $rec)"
	lab lab fail --name "$LAB" port "s0:$p" >/dev/null || return 1
	t1=$(date +%s.%N)
	vt until "$(port)" "ftsw.state[$rec] === 1 && document.getElementById('r$rec').getAttribute('stroke-dasharray')" 10 \
		>/dev/null || { tail -n 5 "/run/ftsw/$LAB/view.log"; return 1; }
	# the time of the sample the page drew it from, by the VM's clock
	# (the guest's clock and the host's drift apart by seconds a minute
	# in a loaded TCG guest: one clock); the page draws it as it arrives
	page "ftsw.downSrv[$rec]" >"$OUT/down.t"
	pyc "$OUT/down.t" "$t0" "$t1" <<'EOF' || return 1
import sys
t0, t1 = float(sys.argv[2]), float(sys.argv[3])
d = float(open(sys.argv[1]).read()) - t1
print("lab fail took %.2f s; the page got the cable down from the sample of "
      "%.2f s after it returned" % (t1 - t0, d))
sys.exit(d > 1.0)
EOF
	vt until "$(port)" "ftsw.events.some(e => e.kind === 'fm-sweep' && e.text.includes('down')) && ftsw.paths && ftsw.paths.paths[0].hops[0].out !== $p && ftsw.paths.paths[0].status === 'delivered'" 20 \
		>/dev/null || { page 'JSON.stringify([ftsw.events.slice(-5), ftsw.paths])'; return 1; }
	echo "h0 -> h2 left s0 by port $p, now by:"
	page 'JSON.stringify(ftsw.paths.paths[0].hops)'
}
tap_check "lab fail: the cable down on the page within a second, the fm's reroute in the timeline, the traced path changes" failover

# promtool (Go) takes the TCG guest ~10 s to start: view-test runs it on
# the host, on this scrape (FTSW_VIEW_OUT); here only without view-test
metrics() {
	local n
	curl -sf "$(url)metrics" >"$OUT/metrics.txt" || return 1
	if [ -n "${FTSW_VIEW_OUT:-}" ]; then
		cp "$OUT/metrics.txt" "$FTSW_VIEW_OUT/metrics.txt" || return 1
	else
		promtool check metrics <"$OUT/metrics.txt" || return 1
	fi
	n=$(grep -c '^infiniband_portxmitpkts_total{' "$OUT/metrics.txt")
	echo "$n series of infiniband_portxmitpkts_total"
	[ "$n" = 80 ]
}
tap_check "/metrics: one series per switch port (promtool checks the scrape)" metrics

prometheus() {
	local i
	# the host's Prometheus scrapes the view every second (view-test)
	fab -j -s port show >"$OUT/k2.json"
	sleep 1
	for i in $(seq 1 30); do
		curl -sf -m 5 "http://$FTSW_VIEW_PROM/api/v1/query?query=infiniband_portxmitpkts_total" \
			>"$OUT/q.json" && grep -q '"result":\[{' "$OUT/q.json" && break
		sleep 1
	done
	pyc "$OUT" <<'EOF'
import json, sys
out = sys.argv[1]
q = json.load(open(out + "/q.json"))["data"]["result"]
k = {("s%d" % p["switch"], str(p["port"])): p["stats"]["tx_packets"]
     for p in json.load(open(out + "/k2.json"))["ports"] if "stats" in p}
assert len(q) == 80, len(q)	# 20 switches of 4 ports
bad = [(m["metric"]["local_node"], m["metric"]["local_port"], m["value"][1])
       for m in q if float(m["value"][1]) != k[(m["metric"]["local_node"],
                                                 m["metric"]["local_port"])]]
assert not bad, bad[:5]
print("Prometheus scraped %d ports, each at the kernel's count" % len(q))
EOF
}
tap_check "a Prometheus server scrapes /metrics: its values are the kernel's counters" prometheus

top() {
	lab -j lab top --name "$LAB" -b -n 1 -d 300 --sort packets --lines 8 \
		>"$OUT/top.json" || return 1
	fab -j -s port show >"$OUT/k3.json"
	pyc "$OUT" <<'EOF'
import json, sys
out = sys.argv[1]
d = json.load(open(out + "/top.json"))
k = {"s%d:%d" % (p["switch"], p["port"]): p["stats"]["tx_packets"]
     for p in json.load(open(out + "/k3.json"))["ports"] if "stats" in p}
assert len(d["links"]) == 8 and d["links_total"] == 80, d
for l in d["links"]:
    assert l["packets"] == k[l["from"]], (l, k[l["from"]])
assert d["links"][0]["packets"] == max(k.values())
print("top: %s" % ", ".join("%s %d" % (l["from"], l["packets"]) for l in d["links"]))
EOF
}
tap_check "lab top -b -n 1 prints the busiest links with the kernel's counts" top

# what the view cost the guest so far (sampling twice a second, the page
# open), as a TAP comment: its CPU seconds over its life
awk -v hz="$(getconf CLK_TCK)" -v up="$(cut -d' ' -f1 /proc/uptime)" \
	'{ printf "# lab view: %.1f s of CPU in %.0f s (%.1f%% of the guest)\n",
	   ($14 + $15) / hz, up - $22 / hz, 100 * ($14 + $15) / hz / (up - $22 / hz) }' \
	"/proc/$(awk '{print $1}' "/run/ftsw/$LAB/view.pid")/stat"

hostile() {
	local pid rc=0
	pid=$(awk '{print $1}' "/run/ftsw/$LAB/view.pid")
	# the coprocess works on the clients while lab status runs here
	[ -e "$VTS.gone" ] && return 1
	vt_send hostile "$(url)" "$pid"
	sleep 2
	# no lab command waits on the clients
	timeout 20 "$FTSW" lab status --name "$LAB" >/dev/null || { echo "lab status waited"; rc=1; }
	vt_recv 180 || rc=1
	curl -sf "$(url)api/snapshot" >/dev/null || rc=1
	return $rc
}
tap_check "hostile clients: the server answers the rest promptly, memory bounded, lab commands unaffected" hostile

down_a() {
	lab lab down --name "$LAB" >/dev/null &&
		[ ! -e "/run/ftsw/$LAB" ] && ! pgrep -x ftsw >/dev/null
}
tap_check "lab down stops the view and the fm" down_a

ring() {
	lab lab up --name "$LAB" -t torus:6 -a minhop --lossless --rate 100kbit \
		--in-buffer 1536 --out-buffer 12288 --hoq-life 20 --switch-life 20 \
		>/dev/null &&
		view && vt open "$(port)" "$BURL" 60 >/dev/null
}
tap_check "ring of 6 (torus:6, MinHop, one VL) lossless, viewed" ring

cycle() {
	lab lab traffic --name "$LAB" -p shift:2 --pps 400 --duration 2000 \
		>/dev/null 2>&1
	sleep 1
	lab -j lab waits --name "$LAB" --min-wait 500 >"$OUT/w.json"
	[ $? = 3 ] || { echo "lab waits: no cycle"; cat "$OUT/w.json"; return 1; }
	vt until "$(port)" 'ftsw.cycles.length > 0' 10 >/dev/null || return 1
	page 'JSON.stringify({c: ftsw.cycles, t: document.getElementById("cycles").textContent})' \
		>"$OUT/pc.json"
	if [ -n "${FTSW_VIEW_SHOTS:-}" ]; then
		vt shot "$(port)" "$SHOTS/view-ring-deadlock.png" 1400 900
		vt textshot "$(port)" "$SHOTS/view-lab-top.png" "$OUT/top.txt" 1100 700
	fi
	pyc "$OUT" <<'EOF'
import json, sys
out = sys.argv[1]
w = json.load(open(out + "/w.json"))
p = json.loads(json.load(open(out + "/pc.json")))
want = [[b["switch"], b["in_port"], b["vl"], b["out_port"]] for b in w["cycles"][0]["cycle"]]
got = p["c"][0]["bufs"]
assert got == want, (got, want)
for sw, ip, vl, op in want:
    assert "s%d in %d VL %d \u2192 out %d" % (sw, ip, vl, op) in p["t"], p["t"]
print(p["t"])
EOF
}
tap_check "the ring's deadlock: the page names the cycle lab waits names" cycle

tap_check "lab down: nothing left" lab_sm_down
bg_stop "$OUT"
tap_check "rmmod ftsw" ftsw_unload
tap_done
