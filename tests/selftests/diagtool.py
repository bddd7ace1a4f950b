#!/usr/bin/env python3
# SPDX-License-Identifier: GPL-2.0
"""Selftest 155-lab-diags' driver: every command of Documentation/sm.md's
table "The diagnostics under OpenSM", run once in one process and each
output checked against the lab's topology and the kernel's state.

  diagtool.py LAB DIR

Started by `ftsw lab ib --name LAB h0 -- sh -c ...` (so it is in h0's
network namespace and libumad2sim's working directory) with
FTSW_PRELOAD set to what `lab ib` preloads and LD_PRELOAD unset: each
tool is exec'd with the preload, python itself never is. FTSW names the
ftsw binary. The expected values come from the topology `lab up` wrote
(/run/ftsw/LAB/topo.net: GUIDs, names, cabling) and from the kernel over
netlink (`ftsw -j switch|port|lft show` in the lab's namespace:
LIDs, port states, tables, counters), never from a tool's own output.
Counters are checked within the interval of two kernel reads around
the tools that read them.

Writes DIR/NAME (each tool's output), DIR/table (command, exit status,
seconds) and DIR/verdict: one line per row of the table, "ok ROW" or
"fail ROW: why"; the selftest turns each line into a TAP check.
"""
import json
import os
import re
import subprocess
import sys
import time

LAB, DIR = sys.argv[1], sys.argv[2]
FTSW = os.environ.get("FTSW", "ftsw")
ENV = dict(os.environ, LD_PRELOAD=os.environ.get("FTSW_PRELOAD", ""))
# tools at a time: the guest has one CPU and each tool is mostly its own
# CPU time (exec, libraries, umad2sim's start under TCG): 4 at a time
# took twice as long as one after the other
JOBS = int(os.environ.get("DIAG_JOBS", "1"))
# libibmad's and libibumad's words for a request that got no answer
SILENT = re.compile(r"recv failed|_do_madrpc failed|timed out|umad_recv failed")


# DIAG_REPLAY=DIR: check a run's saved outputs again, without a lab
REPLAY = os.environ.get("DIAG_REPLAY")
_fabs = [0]


def fab(*args):
    """ftsw -j ARGS in the lab's namespace (where its switches are); each
    answer kept as DIR/fab.N.json for a replay."""
    _fabs[0] += 1
    path = os.path.join(REPLAY or DIR, "fab.%d.json" % _fabs[0])
    if REPLAY:
        return json.load(open(path if os.path.exists(path) else
                              os.path.join(REPLAY, "fab.1.json")))
    out = subprocess.run(["nsenter", "--net=/run/netns/" + LAB, FTSW, "-j"]
                         + list(args), check=True, capture_output=True,
                         text=True).stdout
    with open(path, "w") as f:
        f.write(out)
    return json.loads(out)


# ------------------------------------------------------------ tools

OUT = {}    # name -> (argv, rc, seconds, text)


def run(cmds, jobs=JOBS):
    """cmds: [(name, argv)], at most jobs at a time."""
    todo, live = list(cmds), {}
    if REPLAY:
        for name, argv in cmds:
            if not os.path.exists(os.path.join(REPLAY, name + ".rc")):
                continue
            code, sec = open(os.path.join(REPLAY, name + ".rc")).read().split()
            OUT[name] = (argv, int(code), float(sec),
                         "".join(l for l in open(os.path.join(REPLAY, name))
                                 if "sim_connect" not in l))
        return
    while todo or live:
        while todo and len(live) < jobs:
            name, argv = todo.pop(0)
            f = open(os.path.join(DIR, name), "w+")
            p = subprocess.Popen(argv, stdout=f, stderr=subprocess.STDOUT,
                                 stdin=subprocess.DEVNULL, env=ENV)
            live[p.pid] = (name, argv, p, f, time.monotonic())
        pid, st = os.wait()
        if pid not in live:
            continue
        name, argv, p, f, t0 = live.pop(pid)
        p.returncode = os.waitstatus_to_exitcode(st)
        f.seek(0)
        text = "".join(l for l in f if not l.startswith("ibwarn: ")
                       or "sim_connect" not in l)
        f.close()
        OUT[name] = (argv, p.returncode, time.monotonic() - t0, text)
        with open(os.path.join(DIR, name + ".rc"), "w") as f:
            f.write("%d %.2f\n" % (p.returncode, OUT[name][2]))


def out(name):
    return OUT[name][3]


def rc(name):
    return OUT[name][1]


def field(name, key):
    """A smpquery-style field 'Key:.....value' of a tool's output."""
    m = re.search(r"^\s*%s:?\.+(.*)$" % re.escape(key), out(name), re.M)
    return m.group(1).strip() if m else None


class Fail(Exception):
    pass


def want(cond, *why):
    if not cond:
        raise Fail(" ".join(str(w) for w in why))


def answered(name):
    want(rc(name) == 0, name, "exit", rc(name), out(name)[-400:])
    want(not SILENT.search(out(name)), name, "waited for an answer:",
         out(name)[-300:])


def status_fail(name):
    """The tool failed at once on a MAD status, no receive timeout."""
    want(rc(name) not in (0, 124), name, "exit", rc(name), out(name)[-300:])
    want(not SILENT.search(out(name)), name, "timed out, not a status:",
         out(name)[-300:])


# ------------------------------------------------------------ the model

def parse_net(text):
    """An ibnetdiscover topology file: nodes by GUID and their cables."""
    nodes, cur = {}, None
    for line in text.splitlines():
        m = re.match(r'^(Switch|Ca)\s+(\d+)\s+"([SH])-([0-9a-f]+)"\s*#\s*"([^"]*)"'
                     r'(?:.*\blid (\d+))?', line)
        if m:
            cur = int(m.group(4), 16)
            nodes[cur] = {"kind": m.group(1), "ports": int(m.group(2)),
                          "name": m.group(5), "links": {}, "pguid": {}}
            continue
        m = re.match(r'^\[(\d+)\](?:\(([0-9a-f]+)\))?\s+"[SH]-([0-9a-f]+)"\[(\d+)\]'
                     r'(?:\(([0-9a-f]+)\))?', line)
        if m and cur is not None:
            p = int(m.group(1))
            nodes[cur]["links"][p] = (int(m.group(3), 16), int(m.group(4)))
            if m.group(2):
                nodes[cur]["pguid"][p] = int(m.group(2), 16)
    return nodes


class Model:
    def __init__(self):
        self.net = parse_net(open(os.path.join(REPLAY, "topo.net") if REPLAY else
                                  "/run/ftsw/%s/topo.net" % LAB).read())
        self.refresh()
        sws = fab("switch", "show")["switches"]
        self.sw = {}          # switch id -> (guid, lid)
        self.sl2vl = {}       # switch id -> its one SL-to-VL table
        for s in sws:
            self.sw[s["id"]] = (int(s["guid"], 16), s["lid"])
            self.sl2vl[s["id"]] = s["sl2vl"]
        self.lft = {t["switch"]: {int(k): v for k, v in t["lft"].items()}
                    for t in fab("lft", "show")["switches"]}
        # names and LIDs: a switch's LID from the kernel's switch, a
        # CA's from its edge port (what OpenSM set in band)
        self.lid = {}         # node GUID -> LID
        self.guid = {}        # LID -> node GUID
        self.swid = {}        # node GUID -> kernel switch id
        for i, (g, l) in self.sw.items():
            self.lid[g], self.guid[l], self.swid[g] = l, g, i
        for p in self.ports:
            if "lid" in p and "ca_guid" in p:
                g = p["ca_guid"]
                g = int(g, 16) if isinstance(g, str) else g
                self.lid[g], self.guid[p["lid"]] = p["lid"], g
        want(set(self.lid) == set(self.net), "kernel LIDs for",
             sorted(map(hex, self.lid)), "topology", sorted(map(hex, self.net)))

    def refresh(self):
        self.ports = fab("-s", "port", "show")["ports"]
        return self

    def by_name(self, name):
        return [g for g, n in self.net.items() if n["name"] == name][0]

    def pguid(self, g):
        """A node's port GUID: a CA's port 1, a switch's port 0 (its GUID)."""
        n = self.net[g]
        return n["pguid"].get(1, g + 1) if n["kind"] == "Ca" else g

    def port(self, g, p):
        """The kernel's port entry of switch GUID g, port p."""
        s = self.swid[g]
        return [x for x in self.ports if x["switch"] == s and x["port"] == p][0]

    def edge(self, ca):
        """The switch port a CA hangs on: (switch GUID, port)."""
        return self.net[ca]["links"][1]


def counters(m, g, p):
    """The PMA view of a port from the kernel's statistics: a switch
    port's own, a CA's those of its edge port the other way round."""
    if m.net[g]["kind"] == "Ca":
        sg, sp = m.edge(g)
        s = m.port(sg, sp)["stats"]
        return {"PortXmitData": s["rx_bytes"] // 4, "PortRcvData": s["tx_bytes"] // 4,
                "PortXmitPkts": s["rx_packets"], "PortRcvPkts": s["tx_packets"]}
    s = m.port(g, p)["stats"]
    return {"PortXmitData": s["tx_bytes"] // 4, "PortRcvData": s["rx_bytes"] // 4,
            "PortXmitPkts": s["tx_packets"], "PortRcvPkts": s["rx_packets"]}


def within(name, got, lo, hi):
    for k in lo:
        want(k in got, name, "no", k)
        want(lo[k] <= got[k] <= hi[k], name, k, got[k], "not in the kernel's",
             [lo[k], hi[k]])


def pma_fields(text):
    return {k: int(v) for k, v in re.findall(r"^(\w+):\.+(\d+)$", text, re.M)}


# ------------------------------------------------------------ parsers

def gid_ok(text, g):
    """text names the GID fe80::/64 + g (in any of its spellings)."""
    import ipaddress
    w = ipaddress.IPv6Address((0xfe80 << 112) | g)
    return w in [ipaddress.IPv6Address(x)
                 for x in re.findall(r"fe80:[0-9a-f:]*[0-9a-f]", text)]


def node_lines(text):
    """ibhosts/ibswitches/ibnodes/ibnetdiscover -l lines:
    {GUID: (kind, ports, name, lid or None)}."""
    r = {}
    for k, g, n, name, lid in re.findall(
            r'^(Ca|Switch)\s*: 0x([0-9a-f]+) ports (\d+) .*?"([^"]*)"'
            r'(?: base port 0 lid (\d+))?', text, re.M):
        r[int(g, 16)] = (k, int(n), name, int(lid) if lid else None)
    return r


def want_nodes(m, name, kinds, lids=True):
    got = node_lines(out(name))
    exp = {g: (n["kind"], n["ports"], n["name"],
               m.lid[g] if n["kind"] == "Switch" and lids else None)
           for g, n in m.net.items() if n["kind"] in kinds}
    want(got == exp, name, "nodes", got, "expected", exp)


def want_topology(m, name):
    """An ibnetdiscover topology: the lab's nodes, names and cables, and
    the LIDs the kernel's ports hold."""
    got = parse_net(out(name))
    want(set(got) == set(m.net), name, "nodes", sorted(map(hex, got)))
    for g, n in got.items():
        e = m.net[g]
        want((n["kind"], n["ports"], n["name"], n["links"]) ==
             (e["kind"], e["ports"], e["name"], e["links"]), name, hex(g), n, e)
    for g, lid in re.findall(r'^switchguid=0x([0-9a-f]+).*\n.*base port 0 lid (\d+)',
                             out(name), re.M):
        want(m.lid[int(g, 16)] == int(lid), name, "switch", g, "lid", lid)


def link_lines(text):
    """iblinkinfo's cable lines: (lid, port, peer lid, peer port, peer
    name, state, phys)."""
    return re.findall(r'(\d+)\s+(\d+)\[\s*\]\s+==\(.*?(\w+)/\s*(\w+)\)'
                      r'(?: \([^)]*\))?==>\s+(?:0x[0-9a-f]+\s+)?'
                      r'(\d+)\s+(\d+)\[\s*\]\s+"([^"]+)"', text)


def want_links(m, name, nodes):
    """iblinkinfo's lines for the ports of nodes: every cable end with
    both LIDs, the peer's name, Active/LinkUp as the kernel's port."""
    exp = set()
    for g in nodes:
        for p, (fg, fp) in m.net[g]["links"].items():
            exp.add((m.lid[g], p, m.lid[fg], fp, m.net[fg]["name"]))
            sw = g if m.net[g]["kind"] == "Switch" else fg
            sp = p if sw == g else fp
            want(m.port(sw, sp).get("state") == "active", "kernel port",
                 m.net[sw]["name"], sp, "not active")
    got = set()
    for a, b, st, ph, c, d, n in link_lines(out(name)):
        want(st == "Active" and ph == "LinkUp", name, a, b, st, ph)
        got.add((int(a), int(b), int(c), int(d), n))
    want(got == exp, name, "links", sorted(got - exp), "missing", sorted(exp - got))


def routes(text):
    """ibroute/dump_lfts: {lid: port} and the names each LID is given."""
    lft = {int(l, 16): int(p) for l, p in
           re.findall(r"^0x([0-9a-f]+) (\d+)", text, re.M)}
    guids = {int(l, 16): int(g, 16) for l, g in
             re.findall(r"^0x([0-9a-f]+) \d+ : \(.*portguid 0x([0-9a-f]+)", text, re.M)}
    return lft, guids


def want_lft(m, name, g, text=None, lids=None):
    lft, guids = routes(out(name) if text is None else text)
    k = {l: p for l, p in m.lft[m.swid[g]].items() if l > 0 and p != 255}
    if lids:
        k = {l: p for l, p in k.items() if lids[0] <= l <= lids[1]}
    want(lft == k, name, m.net[g]["name"], "LFT", lft, "kernel", k)
    for l, pg in guids.items():
        want(pg == m.pguid(m.guid[l]), name, "LID", l, "named", hex(pg))


def trace(m, src, dst):
    """The path from CA src to CA dst by the kernel's LFTs over the
    topology's cables: [(node GUID, in port)], the first switch on."""
    g, p = m.edge(src)
    hops = []
    dlid = m.lid[dst]
    while m.net[g]["kind"] == "Switch" and len(hops) < 16:
        hops.append((g, p))
        o = m.lft[m.swid[g]][dlid]
        g, p = m.net[g]["links"][o]
    hops.append((g, p))
    want(g == dst, "the kernel's LFTs do not lead", hex(src), "to", hex(dst))
    return hops


def want_trace(m, name, src, dst, names=True):
    exp = trace(m, src, dst)
    got = [(int(g, 16), int(p)) for g, p in
           re.findall(r"^\[\d+\] -> .*\{0x([0-9a-f]+)\}\[(\d+)\]", out(name), re.M)]
    # a CA is named by its port GUID there
    exp = [(m.pguid(g) if m.net[g]["kind"] == "Ca" else g, p) for g, p in exp]
    want(got == exp, name, "path", got, "kernel's LFTs", exp)


def records(text, head):
    """saquery's record dumps: [{field: value}] of each 'HEAD dump:'."""
    r = []
    for block in re.split(r"^%s.*dump:\s*$" % head, text, flags=re.M)[1:]:
        r.append({k: v.strip() for k, v in
                  re.findall(r"^\s+([\w ]+?)\.{2,}(.*)$", block, re.M)})
    return r


def num(v):
    return int(v, 0)


# ------------------------------------------------------------ the rows

class Lab:
    """The nodes and ports the rows ask about: names from the topology,
    LIDs from the kernel. Host h0 is OpenSM's; the lab seeds OpenSM with
    its plan (hosts 1..8, switches 9..14), but nothing below relies on
    that beyond the names it picks."""

    def __init__(self, m):
        self.H0, self.H3, self.H5, self.H7 = (m.by_name(x) for x in ("H0", "H3", "H5", "H7"))
        self.S10, self.S20 = m.by_name("S1-0"), m.by_name("S2-0")
        self.h0, self.h3, self.h5, self.s10, self.s20 = (
            m.lid[x] for x in (self.H0, self.H3, self.H5, self.S10, self.S20))
        self.links10 = m.net[self.S10]["links"]
        self.via = m.edge(self.H0)[1]           # h0's port on S1-0
        self.up = [p for p, f in self.links10.items() if f[0] == self.S20][0]
        self.hosts = [g for g, x in m.net.items() if x["kind"] == "Ca"]
        self.sws = [g for g, x in m.net.items() if x["kind"] == "Switch"]

    def names(self):
        return (self.H0, self.H3, self.H5, self.H7, self.S10, self.S20, self.h0,
                self.h3, self.h5, self.s10, self.s20, self.links10, self.via,
                self.up, self.hosts, self.sws)


def rows(m):
    """The table's rows in its order: (key, phase, [(name, argv)], check)."""
    R = []

    def row(key, cmds, check, phase="read"):
        R.append((key, phase, [(n, a.split() if isinstance(a, str) else a)
                               for n, a in cmds], check))
    lab = Lab(m)
    for part in (rows_local, rows_discovery, rows_routes, rows_smp, rows_pma,
                 rows_portstate, rows_sa, rows_sa_more):
        part(m, lab, row)
    return R



def rows_local(m, lab, row):
    """Ibstat, ibaddr, sminfo."""
    (H0, H3, H5, H7, S10, S20, h0, h3, h5, s10, s20, links10, via, up, hosts,
     sws) = lab.names()
    # ibstat, ibaddr, sminfo
    def c_local():
        t = out("ibstat")
        answered("ibstat")
        want(re.search(r"Node GUID: 0x%016x" % H0, t) and
             re.search(r"Port GUID: 0x%016x" % m.pguid(H0), t) and
             re.search(r"Base lid: %d$" % h0, t, re.M) and
             re.search(r"SM lid: %d$" % h0, t, re.M) and
             "State: Active" in t, "ibstat:", t)
        want(int(re.search(r"Capability mask: (0x[0-9a-f]+)", t).group(1), 16)
             & 0x2, "ibstat: no IsSM (set by the gateway for OpenSM):", t)
        for n, g, lid in (("ibaddr", H0, h0), ("ibaddr_lid", H3, h3),
                          ("ibaddr_D", S10, s10)):
            answered(n)
            want(gid_ok(out(n), m.pguid(g)) and
                 "LID start 0x%x end 0x%x" % (lid, lid) in out(n), n, out(n))
        answered("ibaddr_l")
        want(out("ibaddr_l").split() == ["LID", "start", "0x%x" % h3, "end",
                                        "0x%x" % h3], out("ibaddr_l"))
        answered("ibaddr_g")
        want(gid_ok(out("ibaddr_g"), S10) and "LID" not in out("ibaddr_g"),
             out("ibaddr_g"))
        for n in ("sminfo", "sminfo_lid"):
            answered(n)
            want(re.search(r"sm lid %d sm guid 0x%016x, .* state 3 SMINFO_MASTER"
                           % (h0, m.pguid(H0)), out(n)), n, out(n))
    row("ibstat, ibaddr, sminfo",
        [("ibstat", "ibstat"), ("ibaddr", "ibaddr"), ("ibaddr_lid", "ibaddr %d" % h3),
         ("ibaddr_l", "ibaddr -l %d" % h3), ("ibaddr_g", "ibaddr -g %d" % s10),
         ("ibaddr_D", "ibaddr -D 0,1"), ("sminfo", "sminfo"),
         ("sminfo_lid", "sminfo %d" % h0)], c_local)


def rows_discovery(m, lab, row):
    """The fabric discovered: node lists, topologies, cable lines."""
    (H0, H3, H5, H7, S10, S20, h0, h3, h5, s10, s20, links10, via, up, hosts,
     sws) = lab.names()
    # ibhosts ... ibnetdiscover, iblinkinfo
    def c_disc():
        for n in ("ibhosts", "ibswitches", "ibrouters", "ibnodes", "ibnd_l",
                  "ibnd_H", "ibnd_S"):
            answered(n)
        want_nodes(m, "ibhosts", ("Ca",))
        want_nodes(m, "ibswitches", ("Switch",))
        want(not node_lines(out("ibrouters")), "ibrouters:", out("ibrouters"))
        want_nodes(m, "ibnodes", ("Ca", "Switch"))
        want_nodes(m, "ibnd_l", ("Ca", "Switch"), lids=False)
        want_nodes(m, "ibnd_H", ("Ca",), lids=False)
        want_nodes(m, "ibnd_S", ("Switch",), lids=False)
        for n in ("ibnd", "ibnd_g", "ibnd_f", "ibnd_m"):
            answered(n)
            want_topology(m, n)
        want(re.search(r"^# Total MADs used: \d+", out("ibnd_m"), re.M),
             "ibnetdiscover -m:", out("ibnd_m")[:300])
        want(len(re.findall(r"s=\d+ w=\d+ v=\d+", out("ibnd_f"))) ==
             sum(len(n["links"]) for n in m.net.values() if n["kind"] == "Switch")
             + len(hosts), "ibnetdiscover -f: not every port with s= w= v=")
        answered("ibnd_s")
        new = {int(g, 16) for g in re.findall(r"-> new \w[\w ]* \{([0-9a-f]+)\}",
                                              out("ibnd_s"))}
        want(new == set(m.net), "ibnetdiscover -s: new nodes", sorted(map(hex, new)))
        answered("ibnd_p")
        got = set()
        for a in re.findall(r"^(CA|SW)\s+(\d+)\s+(\d+)\s+0x([0-9a-f]+) .* - "
                            r"(CA|SW)\s+(\d+)\s+(\d+)\s+0x([0-9a-f]+)", out("ibnd_p"), re.M):
            got.add((int(a[1]), int(a[2]), int(a[5]), int(a[6])))
            for k, lid, g in ((a[0], a[1], a[3]), (a[4], a[5], a[7])):
                node = m.guid[int(lid)]
                want(int(g, 16) == (m.pguid(node) if k == "CA" else node),
                     "ibnetdiscover -p: LID", lid, "GUID", g)
        exp = {(m.lid[g], p, m.lid[f[0]], f[1]) for g, p, f in
               ((g, p, f) for g, n in m.net.items() for p, f in n["links"].items())}
        want(got == exp, "ibnetdiscover -p", sorted(got ^ exp))
        for n in ("ibli", "ibli_l", "ibli_p", "ibli_d", "ibli_sw", "ibli_ca", "ibli_D"):
            answered(n)
        want_links(m, "ibli", list(m.net))
        want_links(m, "ibli_l", list(m.net))
        want_links(m, "ibli_p", list(m.net))
        want_links(m, "ibli_sw", sws)
        want_links(m, "ibli_ca", hosts)
        want_links(m, "ibli_D", [S10])
        # -d: only the ports that are down: none
        want(not link_lines(out("ibli_d")), "iblinkinfo -d:", out("ibli_d"))
    row("ibhosts ... ibnetdiscover, iblinkinfo",
        [("ibhosts", "ibhosts"), ("ibswitches", "ibswitches"), ("ibrouters", "ibrouters"),
         ("ibnodes", "ibnodes"), ("ibnd", "ibnetdiscover"), ("ibnd_l", "ibnetdiscover -l"),
         ("ibnd_H", "ibnetdiscover -H"), ("ibnd_S", "ibnetdiscover -S"),
         ("ibnd_p", "ibnetdiscover -p"), ("ibnd_g", "ibnetdiscover -g"),
         ("ibnd_f", "ibnetdiscover -f"), ("ibnd_s", "ibnetdiscover -s"),
         ("ibnd_m", "ibnetdiscover -m"), ("ibli", "iblinkinfo"), ("ibli_l", "iblinkinfo -l"),
         ("ibli_p", "iblinkinfo -p"), ("ibli_d", "iblinkinfo -d"),
         ("ibli_sw", "iblinkinfo --switches-only"), ("ibli_ca", "iblinkinfo --cas-only"),
         ("ibli_D", "iblinkinfo -D 0,1 -n 1")], c_disc)


def rows_routes(m, lab, row):
    """Forwarding tables and paths."""
    (H0, H3, H5, H7, S10, S20, h0, h3, h5, s10, s20, links10, via, up, hosts,
     sws) = lab.names()
    # ibroute, dump_lfts, dump_mfts, ibtracert, ibidsverify
    def c_route():
        for n in ("ibroute", "ibroute_a", "ibroute_n", "ibroute_M", "ibroute_D",
                  "dump_lfts", "dump_mfts", "ibtracert", "ibtracert_n",
                  "ibtracert_G", "ibidsverify"):
            answered(n)
        want_lft(m, "ibroute", S10)
        want_lft(m, "ibroute_a", S10, lids=(1, 4))
        want_lft(m, "ibroute_n", S20)
        want("portguid" not in out("ibroute_n"), "ibroute -n names:", out("ibroute_n"))
        want_lft(m, "ibroute_D", S10)
        secs = re.split(r"^(?=Unicast lids)", out("dump_lfts"), flags=re.M)[1:]
        seen = set()
        for s in secs:
            g = int(re.search(r"guid 0x([0-9a-f]+)", s).group(1), 16)
            want_lft(m, "dump_lfts", g, text=s)
            seen.add(g)
        want(seen == set(sws), "dump_lfts: switches", sorted(map(hex, seen)))
        # no host joined a group: OpenSM programs no MFT entry
        for n, k in (("ibroute_M", 1), ("dump_mfts", len(sws))):
            want(len(re.findall(r"^0 valid mlids dumped", out(n), re.M)) == k,
                 n, out(n)[:400])
        want_trace(m, "ibtracert", H0, H3)
        want_trace(m, "ibtracert_n", H0, H7)
        want_trace(m, "ibtracert_G", H0, H7)
        want(re.search(r"^From ca \{0x%016x\} portnum 1 lid %d-%d \"H0\"" % (H0, h0, h0),
                       out("ibtracert"), re.M) and
             re.search(r"^To ca \{0x%016x\} portnum 1 lid %d-%d \"H3\"" % (H3, h3, h3),
                       out("ibtracert"), re.M), "ibtracert:", out("ibtracert"))
        want(not re.search(r"(?i)error|duplicate|mismatch", out("ibidsverify")),
             "ibidsverify:", out("ibidsverify"))
    row("ibroute, dump_lfts, dump_mfts, ibtracert, ibidsverify",
        [("ibroute", "ibroute %d" % s10), ("ibroute_a", "ibroute -a %d 1 4" % s10),
         ("ibroute_n", "ibroute -n %d" % s20), ("ibroute_M", "ibroute -M %d" % s10),
         ("ibroute_D", "ibroute -D 0,1"), ("dump_lfts", "dump_lfts"),
         ("dump_mfts", "dump_mfts"), ("ibtracert", "ibtracert %d %d" % (h0, h3)),
         ("ibtracert_n", "ibtracert -n %d %d" % (h0, m.lid[H7])),
         ("ibtracert_G", "ibtracert -G 0x%016x 0x%016x" % (m.pguid(H0), m.pguid(H7))),
         ("ibidsverify", "ibidsverify")], c_route)

    def c_mtrace():
        # the kernel's MFTs hold nothing (dump_mfts above): no route
        want(rc("ibtracert_m") not in (0, 124) and
             "Failed to get route" in out("ibtracert_m"), out("ibtracert_m"))
    row("ibtracert -m MLID", [("ibtracert_m", "ibtracert -m 0xc000 %d %d" % (h0, h3))],
        c_mtrace)


def rows_smp(m, lab, row):
    """SMPs read one by one."""
    (H0, H3, H5, H7, S10, S20, h0, h3, h5, s10, s20, links10, via, up, hosts,
     sws) = lab.names()
    # smpquery, smpdump
    kp10 = m.port(S10, up)
    ca3 = m.port(*m.edge(H3))

    def c_smp():
        for n in ("smp_ni", "smp_nd", "smp_pi", "smp_si", "smp_pk", "smp_pk_sw",
                  "smp_sl2vl", "smp_vlarb", "smp_K", "smp_D", "smp_c",
                  "smpdump_D", "smpdump", "smpdump_s"):
            answered(n)
        want(field("smp_ni", "NodeType") == "Switch" and
             int(field("smp_ni", "NumPorts")) == m.net[S10]["ports"] and
             num(field("smp_ni", "Guid")) == S10 and
             int(field("smp_ni", "LocalPort")) == via, "smpquery nodeinfo:", out("smp_ni"))
        want(field("smp_nd", "Node Description") == "H3", out("smp_nd"))
        want(int(field("smp_pi", "Lid")) == s10 and int(field("smp_pi", "SMLid")) == h0
             and field("smp_pi", "LinkState") == kp10["state"].capitalize()
             and int(field("smp_pi", "LocalPort")) == via, "smpquery portinfo:",
             out("smp_pi"), kp10)
        top = max(l for l, p in m.lft[m.swid[S10]].items() if p != 255)
        want(int(field("smp_si", "LinearFdbTop")) == top, "switchinfo: top", top,
             out("smp_si"))
        # P_Key tables as the kernel holds them: h3's CA's, a switch port's
        for n, kk in (("smp_pk", ca3["ca_pkeys"]), ("smp_pk_sw", m.port(S10, via)["pkeys"])):
            pk = [int(x, 16) for x in re.findall(r"0x([0-9a-f]{4})", out(n))]
            kk = [int(x, 16) if isinstance(x, str) else x for x in kk]
            want(pk and pk == kk + [0] * (len(pk) - len(kk)) and
                 re.search(r"^%d pkeys capacity" % len(pk), out(n), re.M),
                 n, out(n), "kernel", kk)
        want(re.search(r"LowCap 8 HighCap 8", out("smp_vlarb")) and
             len(re.findall(r"^VL    : (\|0x[0-9a-f]+ ){8}\|$", out("smp_vlarb"), re.M)) == 2,
             "smpquery vlarb:", out("smp_vlarb"))
        # SL2VL: the kernel's one table of S1-0 for every in port to port up
        kt = m.sl2vl[m.swid[S10]]
        for inp, row_ in re.findall(r"^ports: in\s+(\d+), out\s+%d: \|(.*)\|$" % up,
                                    out("smp_sl2vl"), re.M):
            want([int(x) for x in row_.split("|")] == list(kt), "sl2vl in", inp,
                 row_, "kernel", kt)
        want(len(re.findall(r"^ports: in", out("smp_sl2vl"), re.M)) ==
             m.net[S10]["ports"] + 1, "smpquery sl2vl:", out("smp_sl2vl"))
        want(num(field("smp_K", "Mkey")) == 0 and int(field("smp_K", "Lid")) == h3,
             "smpquery -K:", out("smp_K"))
        want(num(field("smp_D", "Guid")) == S10, "smpquery -D:", out("smp_D"))
        want(num(field("smp_c", "Guid")) == S20 and
             int(field("smp_c", "LocalPort")) == links10[up][1], "smpquery -c:",
             out("smp_c"))
        words = "".join(re.findall(r"^[0-9a-f ]+$", out("smpdump_D"), re.M)).replace(" ", "")
        want(int(words[24:40], 16) == S10, "smpdump NodeInfo: GUID", words[24:40])
        words = "".join(re.findall(r"^[0-9a-f ]+$", out("smpdump"), re.M)).replace(" ", "")
        want(int(words[32:36], 16) == s10 and int(words[36:40], 16) == h0,
             "smpdump PortInfo: LID, SMLID", words[32:40])
        want(out("smpdump_s").split("\n")[0].strip() == "S1-0", out("smpdump_s"))
    row("smpquery, smpdump",
        [("smp_ni", "smpquery nodeinfo %d" % s10), ("smp_nd", "smpquery nodedesc %d" % h3),
         ("smp_pi", "smpquery portinfo %d %d" % (s10, up)),
         ("smp_si", "smpquery switchinfo %d" % s10), ("smp_pk", "smpquery pkeys %d" % h3),
         ("smp_pk_sw", "smpquery pkeys %d %d" % (s10, via)),
         ("smp_sl2vl", "smpquery sl2vl %d %d" % (s10, up)),
         ("smp_vlarb", "smpquery vlarb %d %d" % (s10, up)),
         ("smp_K", "smpquery -K portinfo %d" % h3), ("smp_D", "smpquery -D nodeinfo 0,1"),
         ("smp_c", "smpquery -c nodeinfo %d 0,%d" % (s10, up)),
         ("smpdump_D", "smpdump -D 0,1 0x11"), ("smpdump", "smpdump %d 0x15 %d" % (s10, up)),
         ("smpdump_s", "smpdump -s -D 0,1 0x10")], c_smp)

    def c_pix():
        answered("smp_x")
        want(int(field("smp_x", "Lid")) == h3 and field("smp_x", "LinkState") == "Active",
             out("smp_x"))
    row("smpquery -x portinfo", [("smp_x", "smpquery -x portinfo %d 1" % h3)], c_pix)

    def c_mepi():
        status_fail("smp_mepi")
    row("smpquery mepi", [("smp_mepi", "smpquery mepi %d 1" % s10)], c_mepi)

    def c_refused():
        for n in ("smp_pie", "smp_guids"):
            want(rc(n) != 0 and "iberror" in out(n) and not SILENT.search(out(n)),
                 n, out(n))
    row("smpquery portinfoextended, guids",
        [("smp_pie", "smpquery portinfoextended %d 1" % s10),
         ("smp_guids", "smpquery guids %d" % h3)], c_refused)


def rows_pma(m, lab, row):
    """The PMA: counters against the kernel's, optional attributes, ibqueryerrors."""
    (H0, H3, H5, H7, S10, S20, h0, h3, h5, s10, s20, links10, via, up, hosts,
     sws) = lab.names()
    # perfquery: counters within the kernel's reads around the queries
    def pq(name, g, p, a, b):
        within(name, pma_fields(out(name)), counters(a, g, p), counters(b, g, p))

    def c_perf():
        a, b = SNAP["count0"], SNAP["count1"]
        for n in ("pq", "pq_sw", "pq_x", "pq_a", "pq_l", "pq_ca", "pq_ca_x"):
            answered(n)
        pq("pq", H0, 1, a, b)
        pq("pq_sw", S10, up, a, b)
        pq("pq_x", S10, up, a, b)
        pq("pq_ca", H3, 1, a, b)
        pq("pq_ca_x", H3, 1, a, b)
        # -a: every port at once (PortSelect 255): the sum of the ports
        ports = list(links10)
        lo = {k: sum(counters(a, S10, p)[k] for p in ports) for k in counters(a, S10, up)}
        hi = {k: sum(counters(b, S10, p)[k] for p in ports) for k in lo}
        want(field("pq_a", "PortSelect") == "255", out("pq_a"))
        within("pq_a", pma_fields(out("pq_a")), lo, hi)
        # -l without a port: port 0, the switch's management port, which
        # carries no data in the kernel (as ibsim's)
        f = pma_fields(out("pq_l"))
        want(f.get("PortSelect") == 0 and f.get("PortXmitData") == 0 and
             f.get("PortRcvPkts") == 0, "perfquery -l:", out("pq_l"))
        # -r (read, then reset) alone between two reads of the kernel
        answered("pq_r")
        pq("pq_r", S10, up, SNAP["count1"], SNAP["reset0"])
        # after -r, -K (ibqueryerrors) and -R: what the port counted since
        for n, g, p in (("pq_after", S10, up), ("pq_ca_after", H3, 1)):
            answered(n)
            lo = dict.fromkeys(counters(a, g, p), 0)
            c0, c1 = counters(SNAP["reset0"], g, p), counters(SNAP["reset2"], g, p)
            within(n, pma_fields(out(n)), lo, {k: c1[k] - c0[k] for k in c0})
        answered("pq_R")
        want(not pma_fields(out("pq_R")).get("PortXmitData"), "perfquery -R prints",
             out("pq_R"))
    row("perfquery", [("pq", "perfquery"), ("pq_sw", "perfquery %d %d" % (s10, up)),
                      ("pq_x", "perfquery -x %d %d" % (s10, up)),
                      ("pq_a", "perfquery -a %d" % s10), ("pq_l", "perfquery -l %d" % s10),
                      ("pq_ca", "perfquery %d 1" % h3), ("pq_ca_x", "perfquery -x %d 1" % h3)],
        c_perf, "count")
    row("perfquery -r", [("pq_r", "perfquery -r %d %d" % (s10, up))], None, "reset0")
    row("perfquery -R", [("pq_R", "perfquery -R %d 1" % h3)], None, "reset1")
    row("perfquery after", [("pq_after", "perfquery %d %d" % (s10, up)),
                            ("pq_ca_after", "perfquery %d 1" % h3)], None, "reset2")

    opt_zero = ["-D", "-E", "--oprcvcounters", "--flowctlcounters", "--vloppackets",
                "--vlopdata", "--vlxmitflowctlerrors", "--vlxmitcounters"]
    opt_silent = ["-X", "-S", "-T", "-c", "--swportvlcong", "--rcvcc", "--slrcvfecn",
                  "--slrcvbecn", "--xmitcc", "--vlxmittimecc"]

    def c_opt(opts):
        def c():
            for o in opts:
                status_fail("pq" + o)
        return c
    row("perfquery optional (ibsim zeros)",
        [("pq" + o, ["perfquery", o, str(s10), str(up)]) for o in opt_zero],
        c_opt(opt_zero))
    row("perfquery optional (ibsim silent)",
        [("pq" + o, ["perfquery", o, str(s10), str(up)]) for o in opt_silent],
        c_opt(opt_silent))

    # ibqueryerrors: every node and port of the lab, no errors (the
    # kernel's error counters are zero), data counters as the kernel's
    nports = sum(len(n["links"]) for n in m.net.values())
    qe = [("qe", "", len(m.net), nports), ("qe_c", "-c", len(m.net), nports),
          ("qe_r", "-r", len(m.net), nports), ("qe_data", "--data", len(m.net), nports),
          ("qe_details", "--details", len(m.net), nports),
          ("qe_switch", "--switch", len(sws), nports - len(hosts)),
          ("qe_ca", "--ca", len(hosts), len(hosts)),
          ("qe_D", "-D 0,1", 1, len(links10))]

    def summary(n, nodes, ports):
        answered(n)
        want(re.search(r"## Summary: %d nodes checked, 0 bad nodes found\n"
                       r"##\s+%d ports checked, 0 ports have errors beyond threshold"
                       % (nodes, ports), out(n)), n, "not", nodes, "nodes",
             ports, "ports, no errors:", out(n)[-400:])

    def c_qe():
        for p in m.ports:
            s = p.get("stats", {})
            for k in ("rx_errors", "tx_errors", "rx_dropped", "tx_dropped"):
                want(not s.get(k), "kernel port", p["switch"], p["port"], k, s.get(k))
        for n, _, nodes, ports in qe:
            summary(n, nodes, ports)
        summary("qe_counters", len(m.net), nports)
        a, b = SNAP["count0"], SNAP["count1"]
        seen = 0
        for g, p, rest in re.findall(r"GUID 0x([0-9a-f]+) port (\d+): (.*)$",
                                     out("qe_counters"), re.M):
            g, p = int(g, 16), int(p)
            f = {k: int(v) for k, v in re.findall(r"\[(\w+) == (\d+)", rest)}
            within("ibqueryerrors --counters %s port %d" % (m.net[g]["name"], p), f,
                   counters(a, g, p), counters(b, g, p))
            seen += 1
        want(seen == nports, "ibqueryerrors --counters: ports", seen)
        for n in ("qe_k", "qe_K"):
            summary(n, len(m.net), nports)
    row("ibqueryerrors",
        [(n, ("ibqueryerrors " + o).split()) for n, o, _, _ in qe] +
        [("qe_counters", "ibqueryerrors --counters")], c_qe, "count")
    row("ibqueryerrors -k -K", [("qe_k", "ibqueryerrors -k"), ("qe_K", "ibqueryerrors -K")],
        None, "reset1")

    def c_qe_G():
        summary("qe_G", 1, len(links10))
    row("ibqueryerrors -G", [("qe_G", "ibqueryerrors -G 0x%016x" % S10)], c_qe_G)


def rows_portstate(m, lab, row):
    """Ibportstate."""
    (H0, H3, H5, H7, S10, S20, h0, h3, h5, s10, s20, links10, via, up, hosts,
     sws) = lab.names()
    # ibportstate: the switch port and its peer, as the kernel's ports
    def c_pstate():
        for n, p in (("ps", up), ("ps_q", via)):
            answered(n)
            sw, peer = re.split(r"^Peer PortInfo:", out(n), flags=re.M)
            fg, fp = links10[p]
            want(field_in(sw, "LinkState") == m.port(S10, p)["state"].capitalize()
                 and int(field_in(sw, "Lid")) == s10 and
                 int(field_in(peer, "Lid")) == m.lid[fg] and
                 field_in(peer, "LinkState") == "Active", n, out(n))
            want(re.search(r"# Port info: .*port %d$" % fp, peer, re.M), n,
                 "peer port", fp, peer)
    row("ibportstate LID PORT [query]",
        [("ps", "ibportstate %d %d" % (s10, up)), ("ps_q", "ibportstate %d %d query" % (s10, via))],
        c_pstate)

    def c_pstate_D():
        answered("ps_D")
        want(int(field("ps_D", "Lid")) == h0 and field("ps_D", "LinkState") == "Active",
             out("ps_D"))
    row("ibportstate -D 0 1", [("ps_D", "ibportstate -D 0 1")], c_pstate_D)


def rows_sa(m, lab, row):
    """The SA's records against the lab."""
    (H0, H3, H5, H7, S10, S20, h0, h3, h5, s10, s20, links10, via, up, hosts,
     sws) = lab.names()
    # saquery: the SA's records against the lab
    def c_sa():
        sa = ["sa", "sa_NR", "sa_N", "sa_Dn", "sa_L", "sa_l", "sa_G", "sa_O", "sa_U",
              "sa_g", "sa_m", "sa_x", "sa_c", "sa_p", "sa_s2d", "sa_PR", "sa_g2g",
              "sa_PIR", "sa_PIR1", "sa_SL2VL", "sa_VLAR", "sa_LR", "sa_MCMR",
              "sa_LFTR", "sa_GIR", "sa_SWIR", "sa_SMIR", "sa_CPI"]
        for n in sa:
            answered(n)
        for n in ("sa", "sa_N"):
            r = records(out(n), "NodeRecord")
            got = {(int(x["lid"]), num(x["node_guid"]), x["NodeDescription"]) for x in r}
            exp = {(m.lid[g], g, nd["name"]) for g, nd in m.net.items()}
            want(got == exp, n, sorted(got ^ exp))
            for x in r:
                g = num(x["node_guid"])
                want(num(x["port_guid"]) == m.pguid(g), n, x)
        r = records(out("sa_NR"), "NodeRecord")
        want(len(r) == 1 and int(r[0]["lid"]) == h3 and num(r[0]["node_guid"]) == H3 and
             num(r[0]["port_guid"]) == m.pguid(H3) and r[0]["NodeDescription"] == "H3",
             "saquery NR:", r)
        got = {(int(l), n) for l, n in re.findall(r'^\s+(\d+)\s+"([^"]*)"', out("sa_Dn"), re.M)}
        # -D: the CAs' node descriptions
        want(got == {(m.lid[g], m.net[g]["name"]) for g in hosts}, "saquery -D", got)
        for n, v in (("sa_L", str(h3)), ("sa_l", str(h3)), ("sa_G", "0x%016x" % m.pguid(H3)),
                     ("sa_O", "H3"), ("sa_U", "H3")):
            want(out(n).split() == [v], n, out(n), "want", v)
        groups = records(out("sa_g"), "MCMemberRecord group")
        want(groups and all(num(x["pkey"]) == 0xffff and 0xc000 <= num(x["Mlid"])
                            for x in groups), "saquery -g", groups)
        mgids = {x["MGID"] for x in groups}
        want({x["MGID"] for x in records(out("sa_MCMR"), "MCMember Record")} == mgids,
             "saquery MCMR: not -g's groups", out("sa_MCMR"))
        want({x["MGID"] for x in records(out("sa_m"), "MCMemberRecord member")} <= mgids,
             "saquery -m", out("sa_m"))
        exp = {(m.lid[g], p, fp, m.lid[fg]) for g, nd in m.net.items()
               for p, (fg, fp) in nd["links"].items()}
        for n in ("sa_x", "sa_LR"):
            got = {(int(x["FromLID"]), int(x["FromPort"]), int(x["ToPort"]), int(x["ToLID"]))
                   for x in records(out(n), "LinkRecord")}
            want(got == exp, n, sorted(got ^ exp))
        for n in ("sa_c", "sa_CPI"):
            want(re.search(r"Class version\.+2$", out(n), re.M), n, out(n))
        lidof = {m.lid[g]: m.pguid(g) for g in m.net}
        for n in ("sa_p", "sa_s2d", "sa_PR", "sa_g2g"):
            r = records(out(n), "PathRecord")
            want(r, n, out(n))
            for x in r:
                s_, d = int(x["slid"]), int(x["dlid"])
                want(gid_ok(x["sgid"], lidof[s_]) and gid_ok(x["dgid"], lidof[d]) and
                     num(x["pkey"]) & 0x7fff == 0x7fff, n, x)
            if n != "sa_p":
                want(len(r) == 1 and (int(r[0]["slid"]), int(r[0]["dlid"])) == (h0, h3),
                     n, r)
        # PortInfoRecords: a CA's port 1, a switch's ports 0..N, LIDs and
        # states as the kernel's
        r = records(out("sa_PIR"), "PortInfoRecord")
        got = {(int(x["EndPortLid"]), int(x["PortNum"])) for x in r}
        exp = {(m.lid[g], p) for g, nd in m.net.items()
               for p in (range(nd["ports"] + 1) if nd["kind"] == "Switch" else [1])}
        want(got == exp, "saquery PIR", sorted(got ^ exp))
        r = records(out("sa_PIR1"), "PortInfoRecord")
        want(len(r) == 1 and int(r[0]["Lid:"] if "Lid:" in r[0] else
                                 field("sa_PIR1", "Lid")) == s10, "saquery PIR LID/PORT", out("sa_PIR1"))
        # SL2VL records: one per in/out port pair of S1-0. Without QoS
        # OpenSM never reads nor sets these tables, and the SA answers
        # from its unfilled copy: zeros (so does ibsim's), not the
        # kernel's table (smpquery sl2vl above reads that)
        r = records(out("sa_SL2VL"), "SL2VLTableRecord")
        n1 = m.net[S10]["ports"] + 1
        want(sorted((int(x["InPort"]), int(x["OutPort"])) for x in r) ==
             [(i, o) for i in range(n1) for o in range(n1)] and
             all(int(x["LID"]) == s10 for x in r), "saquery SL2VL", out("sa_SL2VL")[:300])
        r = records(out("sa_LFTR"), "LFT Record")
        got = {int(l): int(p) for l, p in
               re.findall(r"^\s+(\d+)\s+(\d+)$", out("sa_LFTR"), re.M)}
        k = m.lft[m.swid[S10]]
        want(all(k.get(l, 255) == p for l, p in got.items() if l) and
             {l for l in got if l and got[l] != 255} == {l for l, p in k.items() if l and p != 255},
             "saquery LFTR", got, "kernel", k)
        want(num(records(out("sa_GIR"), "GUIDInfo Record")[0]["GUID 0"]) == m.pguid(H3),
             "saquery GIR", out("sa_GIR"))
        r = records(out("sa_SWIR"), "SwitchInfoRecord")
        want(sorted(int(x["LID"]) for x in r) == sorted(m.lid[g] for g in sws),
             "saquery SWIR", r)
        for x in r:
            top = max(l for l, p in m.lft[m.swid[m.guid[int(x["LID"])]]].items() if p != 255)
            want(num(x["LinearFDBTop"]) == top, "SWIR LinearFDBTop", x, top)
        r = records(out("sa_SMIR"), "SMInfoRecord")
        want(len(r) == 1 and int(r[0]["LID"]) == h0 and num(r[0]["GUID"]) == m.pguid(H0)
             and r[0]["SMState"] == "3", "saquery SMIR", r)
        want(records(out("sa_VLAR"), "VLArbTableRecord"), "saquery VLAR", out("sa_VLAR"))
    pg3 = "0x%016x" % m.pguid(H3)
    row("saquery", [("sa", "saquery"), ("sa_NR", "saquery NR %d" % h3), ("sa_N", "saquery -N"),
                    ("sa_Dn", "saquery -D"), ("sa_L", "saquery -L H3"), ("sa_l", "saquery -l H3"),
                    ("sa_G", "saquery -G H3"), ("sa_O", "saquery -O %d" % h3),
                    ("sa_U", "saquery -U " + pg3), ("sa_g", "saquery -g"), ("sa_m", "saquery -m"),
                    ("sa_x", "saquery -x"), ("sa_c", "saquery -c"), ("sa_p", "saquery -p"),
                    ("sa_s2d", "saquery --src-to-dst %d:%d" % (h0, h3)),
                    ("sa_PR", "saquery PR --slid %d --dlid %d" % (h0, h3)),
                    ("sa_g2g", ["saquery", "--sgid-to-dgid",
                                "fe80::%x:%x:%x:%x-fe80::%x:%x:%x:%x" % tuple(
                                    (g >> s) & 0xffff for g in (m.pguid(H0), m.pguid(H3))
                                    for s in (48, 32, 16, 0))]),
                    ("sa_PIR", "saquery PIR"), ("sa_PIR1", "saquery PIR %d/%d" % (s10, up)),
                    ("sa_SL2VL", "saquery SL2VL %d" % s10), ("sa_VLAR", "saquery VLAR %d" % s10),
                    ("sa_LR", "saquery LR"), ("sa_MCMR", "saquery MCMR"),
                    ("sa_LFTR", "saquery LFTR %d" % s10), ("sa_GIR", "saquery GIR %d" % h3),
                    ("sa_SWIR", "saquery SWIR"), ("sa_SMIR", "saquery SMIR"),
                    ("sa_CPI", "saquery CPI")], c_sa)


def rows_sa_more(m, lab, row):
    """The SA's IsSM ports, its empty tables and a refused query; the CC
    agent, a vendor class, ibping and ibsysstat."""
    (H0, H3, H5, H7, S10, S20, h0, h3, h5, s10, s20, links10, via, up, hosts,
     sws) = lab.names()

    def c_issm():
        answered("sa_s")
        on = out("sa_s").split("IsSMdisabled")[0]
        want(re.findall(r"EndPortLid\.+(\d+)", on) == [str(h0)], "saquery -s", out("sa_s"))
    row("saquery -s", [("sa_s", "saquery -s")], c_issm)

    def c_empty():
        for n in ("sa_S", "sa_I", "sa_SR", "sa_IIR", "sa_MFTR"):
            answered(n)
            want(not records(out(n), r"\w+"), n, out(n))
    row("saquery -S -I SR IIR MFTR",
        [("sa_S", "saquery -S"), ("sa_I", "saquery -I"), ("sa_SR", "saquery SR"),
         ("sa_IIR", "saquery IIR"), ("sa_MFTR", "saquery MFTR")], c_empty)

    def c_pktr():
        want(rc("sa_PKTR") not in (0, 124) and "SA_ERR_REQ_INVALID" in out("sa_PKTR"),
             out("sa_PKTR"))
    row("saquery PKTR", [("sa_PKTR", "saquery PKTR")], c_pktr)

    def c_cci():
        answered("cc_info")
        want(field("cc_info", "ControlTableCap") is not None, out("cc_info"))
    row("ibccquery CongestionInfo", [("cc_info", "ibccquery CongestionInfo %d" % s10)], c_cci)

    def c_ccp():
        answered("cc_cp")
        want(re.search(r"(?i)ClassVersion\.*:?\.*2$|Class version\.+2$", out("cc_cp"), re.M),
             out("cc_cp"))
    row("ibccquery cp", [("cc_cp", "ibccquery cp %d" % s10)], c_ccp)

    def c_vend():
        status_fail("vend")
    row("vendstat -N", [("vend", "vendstat -N %d" % s10)], c_vend)

    def c_ping():
        answered("ibping")
        want("2 packets transmitted, 2 received" in out("ibping") and
             "(Lid %d)" % h3 in out("ibping"), out("ibping"))
    row("ibping", [("ibping", "ibping -c 2 %d" % h3)], c_ping, "serve")

    def c_sys():
        for n in ("sys", "sys_host", "sys_cpu"):
            answered(n)
        want("sysstat ping succeeded" in out("sys"), out("sys"))
        # the server's host name (and domain name), its CPUs: this guest's
        want(out("sys_host").split()[0].split(".")[0] == os.uname().nodename,
             out("sys_host"))
        ncpu = open("/proc/cpuinfo").read().count("\nprocessor")
        ncpu += open("/proc/cpuinfo").read().startswith("processor")
        want(len(re.findall(r"(?m)^cpu \d+:", out("sys_cpu"))) == ncpu, out("sys_cpu"),
             ncpu, "CPUs")
    row("ibsysstat", [("sys", "ibsysstat %d" % h3), ("sys_host", "ibsysstat %d host" % h3),
                      ("sys_cpu", "ibsysstat %d cpu" % h3)], c_sys, "serve")

    def c_sys_none():
        answered("sys_none")
        want("sysstat ping succeeded" in out("sys_none"), out("sys_none"))
    row("ibsysstat, no server", [("sys_none", "ibsysstat %d" % h5)], c_sys_none)



def field_in(text, key):
    m_ = re.search(r"^\s*%s:?\.+(.*)$" % re.escape(key), text, re.M)
    return m_.group(1).strip() if m_ else None


# ------------------------------------------------------------ main

SNAP = {}


def main():
    t0 = time.monotonic()
    if not REPLAY:
        subprocess.run(["cp", "/run/ftsw/%s/topo.net" % LAB, DIR], check=True)
    m = Model()
    R = rows(m)
    # the servers ibping and ibsysstat ask for, on h3 (lab ib starts its
    # gateway); they register their agents long before the last phase
    servers = [] if REPLAY else [subprocess.Popen([FTSW, "lab", "ib", "--name", LAB, "h3", "--", t, "-S"],
                                stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL,
                                env=dict(os.environ))
               for t in ("ibping", "ibsysstat")]
    try:
        for phase in ("read", "count", "reset0", "reset1", "reset2", "serve"):
            cmds = [c for _, ph, cs, _ in R if ph == phase for c in cs]
            if phase in ("count", "reset0", "reset1", "reset2"):
                SNAP[{"count": "count0", "reset0": "count1", "reset1": "reset0",
                      "reset2": "reset1"}[phase]] = m.refresh().ports
            run(cmds, 1 if phase.startswith("reset") else JOBS)
            if phase == "reset2":
                SNAP["reset2"] = m.refresh().ports
    finally:
        for s in servers:
            s.terminate()
        for s in servers:
            s.wait()
    # counters() reads a model's ports: give it each snapshot's
    for k, v in list(SNAP.items()):
        SNAP[k] = Snap(m, v)
    with open(os.path.join(DIR, "table"), "w") as f:
        for name, (argv, code, sec, _) in OUT.items():
            f.write("%-44s rc %3d %5.1f s\n" % (" ".join(argv), code, sec))
    bad = 0
    with open(os.path.join(DIR, "verdict"), "w") as f:
        for key, _, cmds, check in R:
            if not check:
                continue
            try:
                check()
                f.write("ok %s (%d commands)\n" % (key, len(cmds)))
            except (Fail, KeyError, ValueError, IndexError, TypeError,
                    AttributeError) as e:
                bad += 1
                f.write("fail %s: %s: %s\n" % (key, type(e).__name__,
                                               str(e)[:1500].replace("\n", " | ")))
    print("%d commands in %.1f s, %d rows failed" % (len(OUT), time.monotonic() - t0, bad))
    return bad


class Snap:
    """A model whose ports are a snapshot's (for counters())."""
    def __init__(self, m, ports):
        self.__dict__.update(m.__dict__)
        self.ports = ports

    port = Model.port
    edge = Model.edge


if __name__ == "__main__":
    sys.exit(1 if main() else 0)
