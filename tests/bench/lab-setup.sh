#!/usr/bin/env bash
# Lab set-up and tear-down: `ftsw lab up/down` (netlink, pipelined, no
# process per object) versus a script doing the same objects with one ip(8)
# call per object, as mininet-style tools do: one `ip netns add` per
# namespace, one `ip link add` per veth pair and one `ip link set up` per
# device end, two `ip addr add` per host (IPv4 and IPv6), one `ftsw plan
# set` (hosts resolve through the fabric, as in lab up: no neighbour is
# written), then one `ftsw switch add` / `ftsw port bind` per switch and port.
# The script does strictly less than lab up (no routing, no LFT upload).
# Tear-down is timed two ways: per object as mininet's stop() does (one
# `ip link del` per cable, one `ip netns del` per namespace), and the
# cheapest ip(8) way (`ip netns del` only, leaving the devices to the
# kernel's namespace clean-up, which is what `lab down` relies on too).
# Every round runs each side in turn; the medians of ROUNDS (default 3).
# Same VM boot, same kernel, run in turn. Runs as root inside the VM:
#
#   tests/vm/run --plain --mem 4096 -- tests/bench/lab-setup.sh [TOPO...]
#
# Prints one line per topology: seconds for each side and the ratios.
set -euo pipefail
. "$(dirname "$0")/guest-env.sh"
PY=$(command -v /usr/bin/python3 || command -v python3)
W=$(mktemp -d)
[ $# -gt 0 ] || set -- ftmn:4,3 "pgft:2;8,4;1,4;1,1"
[ -d /sys/module/ftsw ] || insmod "$FTSW_KMOD/ftsw.ko"

# gen NET SCRIPT-UP SCRIPT-DOWN: the ip(8) script for the topology.
gen() {
	"$PY" - "$1" "$2" "$3" "$FTSW" <<'PYEOF'
import re, sys
net, up, down, ftsw = sys.argv[1:5]
nodes, order, links = {}, [], []
cur = None
for line in open(net):
    m = re.match(r'^(Switch|Ca)\s+(\d+)\s+"([^"]+)"', line)
    if m:
        cur = m.group(3)
        nodes[cur] = (m.group(1), int(m.group(2)))
        order.append(cur)
        continue
    m = re.match(r'^\[(\d+)\](?:\([0-9a-fA-F]+\))?\s+"([^"]+)"\[(\d+)\]', line)
    if m and cur:
        links.append((cur, int(m.group(1)), m.group(2), int(m.group(3))))
sw = [n for n in order if nodes[n][0] == "Switch"]
hosts = [n for n in order if nodes[n][0] == "Ca"]
si = {n: i for i, n in enumerate(sw)}
hi = {n: i for i, n in enumerate(hosts)}
F = "b"
ip = lambda h: "198.18.%d.%d" % ((h + 1) >> 8, (h + 1) & 255)
mac = lambda h: "02:66:74:00:%02x:%02x" % ((h + 1) >> 8, (h + 1) & 255)
o = open(up, "w")
o.write("set -e\nip netns add %s\nip -n %s link set lo up\n" % (F, F))
for h in range(len(hosts)):
    o.write("ip netns add %s-h%d\nip -n %s-h%d link set lo up\n" % (F, h, F, h))
seen = set()
for a, pa, b, pb in links:
    if nodes[a][0] != "Switch":
        continue
    if (b, pb) in seen:
        continue
    seen.add((a, pa))
    da = "s%dp%d" % (si[a], pa)
    if nodes[b][0] == "Switch":
        db = "s%dp%d" % (si[b], pb)
        o.write("ip -n %s link add %s mtu 9000 type veth peer name %s mtu 9000\n" % (F, da, db))
        o.write("ip -n %s link set %s up\nip -n %s link set %s up\n" % (F, da, F, db))
    else:
        h = hi[b]
        o.write("ip -n %s link add %s type veth peer name eth0 netns %s-h%d\n" % (F, da, F, h))
        o.write("ip -n %s link set %s up\n" % (F, da))
        o.write("ip -n %s-h%d link set eth0 address %s up\n" % (F, h, mac(h)))
        o.write("ip -n %s-h%d addr add %s/15 dev eth0\n" % (F, h, ip(h)))
for h in range(len(hosts)):
    o.write("ip -n %s-h%d addr add 2001:2::%x:%x/64 dev eth0 nodad\n" % (F, h, (h + 1) >> 16, (h + 1) & 0xffff))
o.write("ip netns exec %s %s plan set hosts %d lid 1 ipv4 198.18.0.1 ipv6 2001:2::1\n" % (F, ftsw, len(hosts)))
for n in sw:
    o.write("ip netns exec %s %s switch add id %d ports %d\n" % (F, ftsw, si[n], nodes[n][1]))
for a, pa, b, pb in links:
    if nodes[a][0] != "Switch":
        continue
    da = "s%dp%d" % (si[a], pa)
    if nodes[b][0] == "Switch":
        o.write("ip netns exec %s %s port bind switch %d port %d dev %s kind link\n" % (F, ftsw, si[a], pa, da))
    else:
        o.write("ip netns exec %s %s port bind switch %d port %d dev %s kind edge lid %d lmc 0\n" % (F, ftsw, si[a], pa, da, hi[b] + 1))
o.close()
d = open(down, "w")
for h in range(len(hosts)):
    d.write("ip netns del %s-h%d\n" % (F, h))
d.write("ip netns del %s\n" % F)
d.close()
# Per object, as mininet's stop() does: one `ip link del` per cable (either
# end removes the pair), then the namespaces.
d = open(down + ".obj", "w")
seen = set()
for a, pa, b, pb in links:
    if nodes[a][0] != "Switch" or (b, pb) in seen:
        continue
    seen.add((a, pa))
    d.write("ip -n %s link del s%dp%d\n" % (F, si[a], pa))
for h in range(len(hosts)):
    d.write("ip netns del %s-h%d\n" % (F, h))
d.write("ip netns del %s\n" % F)
d.close()
print(len(hosts), len(sw))
PYEOF
}

now() { date +%s.%N; }
ROUNDS=${ROUNDS:-3}
echo "# lab set-up/tear-down: ftsw lab (netlink) vs one ip(8) call per object; $(uname -r), $(nproc) CPUs; median of $ROUNDS rounds"
echo "# ip-down: one ip(8) call per object as mininet's stop() does (ip link del per cable, ip netns del per namespace);"
echo "# ns-down: the cheapest ip(8) tear-down (ip netns del per namespace, the kernel removes the rest, as lab down relies on)"
printf '%-22s %5s %5s %7s %7s %7s %7s %7s %6s %7s %7s\n' topology hosts calls ip-up ip-down ns-down lab-up lab-dn up-x down-x ns-dn-x
for topo in "$@"; do
	"$FTSW" topo gen "$topo" -o "$W/t.net" >/dev/null
	read -r nh _ < <(gen "$W/t.net" "$W/up.sh" "$W/down.sh")
	calls=$(grep -c . "$W/up.sh")
	: >"$W/times"
	for _ in $(seq "$ROUNDS"); do
		t0=$(now); bash "$W/up.sh" >/dev/null; t1=$(now)
		bash "$W/down.sh.obj" >/dev/null; t2=$(now)
		bash "$W/up.sh" >/dev/null; t3=$(now)
		bash "$W/down.sh" >/dev/null; t4=$(now)
		"$FTSW" lab up --name b -t "$topo" >/dev/null; t5=$(now)
		"$FTSW" lab down --name b; t6=$(now)
		echo "$t0 $t1 $t2 $t3 $t4 $t5 $t6" >>"$W/times"
		sleep 2	# let the kernel finish the namespaces' clean-up
	done
	"$PY" - "$topo" "$nh" "$calls" "$W/times" <<'PYEOF'
import statistics, sys
topo, nh, calls, f = sys.argv[1:5]
r = [[float(x) for x in l.split()] for l in open(f)]
m = lambda i: statistics.median(t[i + 1] - t[i] for t in r)
ipu, ipd, nsd, lu, ld = m(0), m(1), m(3), m(4), m(5)
print("%-22s %5s %5s %7.2f %7.2f %7.2f %7.2f %7.3f %5.0fx %6.1fx %6.1fx" % (topo, nh, calls, ipu, ipd, nsd, lu, ld, ipu / lu, ipd / ld, nsd / ld))
PYEOF
done
rm -rf "$W"
