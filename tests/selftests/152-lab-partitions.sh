#!/usr/bin/env bash
# (lab 5e) Partitions under OpenSM (issue 38; Documentation/sm.md,
# "Partitions"): FT(4,3) under OpenSM with a partitions.conf (lab up
# --sm-partitions) of two partitions, P1 = 0x0001 for h0..h7 and
# P2 = 0x0002 for h8..h15, all full members, and the default partition
# 0x7FFF with every port a limited member but the SM's own (SELF, h0),
# full. OpenSM writes every CA's and every switch port's P_KeyTable and
# turns partition enforcement on in band; the lab gives each host the
# P_Keys of the SA's PathRecords. By hand, of the 16 x 15 = 240 ordered
# host pairs these share a partition with a full member:
#   inside P1 8 x 7 = 56, inside P2 56, h0 (full in the default) with each
#   of h8..h15 both ways 16: 128;
# the other 112 (h1..h7 with h8..h15, both ways) do not.
# - lab status: P_Keys on, 128 pairs share a partition, 112 do not;
# - an all-pairs ping: exactly those 128 pairs answer;
# - each echo request across is dropped by its destination's switch port
#   (outbound enforcement, IBA 10.9.4: the host's limited default key meets
#   a limited entry): counted there as pkey_out, nothing inbound or at the
#   CAs, and the PMA's PortXmitConstraintErrors of that port (perfquery,
#   in band) says the same; the switch sends trap 259 to OpenSM (its log);
# - saquery PKTR (the SA's P_KeyTableRecords, with OpenSM's SM_Key) from
#   h0 lists every CA's and switch port's table equal to the kernel's, h9's
#   holding 0x7FFF and 0x8002 and not P1's key; from h5 (P1) the SA shows
#   only the CA ports of h0..h7, those it shares a partition with;
# - lab sm restart without partitions (OpenSM's default: every port a full
#   member of 0x7FFF) restores all 240 pairs.
. "$(dirname "$0")/lib.sh"
. "$(dirname "$0")/lab-lib.sh"

W=$(mktemp -d)
trap 'lab lab down --name "$LAB" >/dev/null 2>&1; rm -rf "$W"' EXIT
RUN=/run/ftsw/$LAB

tap_plan 9
tap_check "insmod ftsw.ko" ftsw_load

fab() { nsenter --net="/run/netns/$LAB" "$FTSW" "$@"; }

# The partitions file from the topology's CA port GUIDs (its "[1](GUID)"
# lines, hosts in order).
partitions() {
	local g i=0 p1="" p2=""
	for g in $("$FTSW" topo gen ftmn:4,3 | sed -n 's/^\[1\](\([0-9a-f]*\)).*/0x\1/p'); do
		if [ $i -lt 8 ]; then p1="$p1${p1:+, }$g=full"; else p2="$p2${p2:+, }$g=full"; fi
		i=$((i + 1))
	done
	[ $i = 16 ] || { echo "$i CA ports in ftmn:4,3, not 16"; return 1; }
	{
		echo "Default=0x7fff, ipoib : ALL=limited, SELF=full ;"
		echo "P1=0x0001 : $p1 ;"
		echo "P2=0x0002 : $p2 ;"
	} >"$W/partitions.conf"
}

up() {
	command -v opensm >/dev/null && command -v saquery >/dev/null ||
		{ echo "opensm / infiniband-diags missing (make deps)"; return 1; }
	partitions || return 1
	lab lab up --name "$LAB" -t ftmn:4,3 --sm opensm \
		--sm-partitions "$W/partitions.conf" --sm-timeout 900 >"$W/up" || {
		grep -E "ERR|SUBNET" "/run/ftsw/$LAB.sm-failed/opensm.log" | tail
		return 1
	}
	cat "$W/up"
	lab -j lab status --name "$LAB" >"$W/status" || return 1
	jcheck 'd["path_sl"]["pkeys"] and d["path_sl"]["pairs"] == 128 and d["path_sl"]["missing"] == 112' <"$W/status"
}
tap_check "lab up FT(4,3) --sm opensm --sm-partitions (P1 h0..h7, P2 h8..h15): P_Keys on, 128 pairs share a partition" up

# across A B: hosts A and B share no partition (h1..h7 with h8..h15).
pings() {
	lab -j lab ping --name "$LAB" -c 1 -W 3000 >"$W/ping.json"
	"$PY" - "$W/ping.json" <<'EOF'
import json, sys
d = json.load(open(sys.argv[1]))
def across(a, b):
    return (1 <= a <= 7 and b >= 8) or (1 <= b <= 7 and a >= 8)
want = sorted((a, b) for a in range(16) for b in range(16) if a != b and across(a, b))
got = sorted((f["src"], f["dst"]) for f in d["failures"])
print(d["pairs"], "pairs,", d["ok"], "ok,", d["failed"], "failed")
assert d["pairs"] == 240 and d["ok"] == 128, d
assert got == want, ([p for p in got if p not in want], [p for p in want if p not in got])
EOF
}
tap_check "all-pairs ping: the 128 pairs sharing a partition answer, the 112 across do not" pings

# Each host h1..h15's edge port dropped the requests to it from the other
# partition's hosts: 8 for h1..h7 (from h8..h15), 7 for h8..h15 (from
# h1..h7), more if lab ping sent again; nothing for h0, nothing inbound,
# nothing at a CA. perfquery of h9's switch port reads the same count.
drops() {
	fab -j -s port show >"$W/ports.json" || return 1
	fab -j switch show >"$W/switches.json" || return 1
	"$PY" - "$W/ports.json" "$W/switches.json" "$W/h9" <<'EOF'
import json, sys
ports = json.load(open(sys.argv[1]))["ports"]
lid = {s["id"]: s["lid"] for s in json.load(open(sys.argv[2]))["switches"]}
bad = []
for p in ports:
    dr = p["stats"]["drops"]
    if dr.get("pkey_in", 0) or dr.get("pkey_ca", 0):
        bad.append("switch %d port %d: %s" % (p["switch"], p["port"], dr))
    if p["kind"] != "edge":
        if dr.get("pkey_out", 0):
            bad.append("link port %d:%d pkey_out" % (p["switch"], p["port"]))
        continue
    h = p["lid"] - 1
    want = 0 if h == 0 else 8 if h < 8 else 7
    n = dr.get("pkey_out", 0)
    if n < want or (want == 0 and n):
        bad.append("h%d's port: pkey_out %d, want %d" % (h, n, want))
    if h == 9:
        open(sys.argv[3], "w").write("%d %d %d\n" % (lid[p["switch"]], p["port"], n))
assert not bad, bad
EOF
	local slid port n pq
	read -r slid port n <"$W/h9" || return 1
	pq=$(timeout 120 "$FTSW" lab ib --name "$LAB" h0 -- perfquery "$slid" "$port") ||
		{ echo "$pq"; return 1; }
	echo "$pq" | grep -E "ConstraintErrors"
	echo "kernel: pkey_out $n"
	echo "$pq" | grep -Eq "^PortXmitConstraintErrors:\.*$((n > 255 ? 255 : n))$" &&
		echo "$pq" | grep -Eq "^PortRcvConstraintErrors:\.*0$"
}
tap_check "drops counted at the destination's switch port (pkey_out), none inbound or at CAs; PMA PortXmitConstraintErrors the same" drops

trap259() {
	local i
	for i in $(seq 1 30); do
		grep -q "num:259 " "$RUN/opensm.log" && break
		sleep 2
	done
	grep -m 3 -E "num:259 |Bad P_Key \(switch" "$RUN/opensm.log"
	grep -q "Received Generic Notice type:[0-9]* num:259 " "$RUN/opensm.log"
}
tap_check "trap 259 (bad P_Key at a switch port) reaches OpenSM" trap259

pktr() {
	# from h0 (the SM's port, a full member of the default partition: the
	# SA shows it every port) and from h5 (P1: only the ports it shares a
	# partition with)
	timeout 300 "$FTSW" lab ib --name "$LAB" h0 -- saquery --smkey 1 PKTR \
		>"$W/pktr" 2>"$W/pktr.err" || { cat "$W/pktr.err"; return 1; }
	timeout 300 "$FTSW" lab ib --name "$LAB" h5 -- saquery --smkey 1 PKTR \
		>"$W/pktr5" 2>"$W/pktr.err" || { cat "$W/pktr.err"; return 1; }
	fab -j port show >"$W/ports.json" || return 1
	fab -j switch show >"$W/switches.json" || return 1
	"$PY" - "$W/pktr" "$W/ports.json" "$W/switches.json" "$W/pktr5" <<'EOF'
import json, re, sys
def records(path):
    recs = {}
    for r in open(path).read().split("PKeyTableRecord dump:")[1:]:
        f = dict(re.findall(r'^\s*(\w+)\.+(\S+)$', r, re.M))
        keys = [int(k, 16) for k in re.findall(r'0x[0-9a-f]{4}', r.split("PKey Table:")[1])]
        recs[(int(f["LID"]), int(f["Port"]), int(f["Block"]))] = keys
    return recs
recs = records(sys.argv[1])
# h5's view: of the CA ports (LIDs 1..16) only P1's, h0..h7
cas5 = sorted(k[0] for k in records(sys.argv[4]) if k[0] <= 16)
print("CA ports h5 is shown:", cas5)
assert cas5 == list(range(1, 9)), cas5
ports = json.load(open(sys.argv[2]))["ports"]
lid = {s["id"]: s["lid"] for s in json.load(open(sys.argv[3]))["switches"]}
print(len(recs), "P_KeyTableRecords")
bad, seen = [], 0
for p in ports:
    if p["kind"] == "edge":
        k = (p["lid"], 1, 0)
        want = p["ca_pkeys"]
        if p["lid"] == 10:
            ks = set(x for x in want if x)
            assert ks == {0x7fff, 0x8002}, "h9's CA table %s" % [hex(x) for x in ks]
    else:
        k = None
    for key, want in ((k, p["ca_pkeys"] if k else None),
                      ((lid[p["switch"]], p["port"], 0), p["pkeys"])):
        if key is None:
            continue
        if key not in recs:
            bad.append("no record for LID %d port %d" % key[:2])
        elif recs[key] != want:
            bad.append("LID %d port %d: SA %s kernel %s" % (key[0], key[1], recs[key], want))
        seen += 1
print(seen, "tables compared")
assert not bad, bad[:8]
EOF
}
tap_check "saquery PKTR: every CA's and switch port's P_KeyTable = the kernel's, h9's 0x7fff and 0x8002; h5 is shown only P1's CA ports" pktr

restored() {
	lab lab sm --name "$LAB" restart --sm-timeout 900 || return 1
	lab -j lab status --name "$LAB" | jcheck 'not d["path_sl"]["pkeys"]' || return 1
	[ "$(ping_json 3000)" = "240 0" ]
}
tap_check "lab sm restart without partitions: all 240 pairs ping again" restored

tap_check "lab down stops OpenSM and the gateways, leaves nothing" lab_sm_down
tap_check "rmmod ftsw" ftsw_unload
tap_done
