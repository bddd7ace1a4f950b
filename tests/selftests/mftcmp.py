#!/usr/bin/env python3
"""Multicast forwarding tables for selftest 154 (Documentation/sm.md,
"Multicast").

  mftcmp.py cmp MCFDBS DUMP
      OpenSM's own tables (opensm.mcfdbs, written with ROUTING in its log
      flags) against the switches' as read in band (dump_fts -M: the
      kernel's, the SMA answers from them): every switch, every MLID, the
      same ports. Exit 1 on a difference.
  mftcmp.py tree MCFDBS SWITCHES PORTS LINKS MLID SENDER BEFORE AFTER N
      The tree a frame for MLID from host SENDER takes along those tables
      (over the lab's cables: PORTS is port show -j, SWITCHES switch show
      -j, LINKS ip -j link of the lab's namespace: a veth's peer), computed
      here, against the VL 0 transmit counters of every
      switch port between BEFORE and AFTER (port show -s -j): N frames
      sent, each port of the tree sent N, every other port 0. Prints the
      hosts the tree reaches (each once, or exit 1).
"""
import json
import re
import sys

HEAD = re.compile(r"^Multicast mlids \[[^]]*\] of switch .* guid (0x[0-9a-fA-F]+)")
ROW = re.compile(r"^0x([0-9a-fA-F]{4})      (.*)$")


def read_mcfdbs(path):
    """{guid: {mlid: set(ports)}} of OpenSM's opensm.mcfdbs."""
    t, sw = {}, None
    for line in open(path):
        line = line.strip()
        if line.startswith("Switch 0x"):
            sw = t.setdefault(int(line.split()[1], 16), {})
        elif sw is not None and re.match(r"^0x[0-9a-fA-F]{4} :", line):
            mlid, ports = line.split(":", 1)
            p = {int(x, 16) for x in ports.split()}
            if p:
                sw[int(mlid, 16)] = p
    return {g: m for g, m in t.items() if m}


def read_dump(path):
    """{guid: {mlid: set(ports)}} of dump_fts -M / ibroute -M."""
    t, sw = {}, None
    for line in open(path):
        line = line.rstrip("\n")
        m = HEAD.match(line)
        if m:
            sw = t.setdefault(int(m.group(1), 16), {})
            continue
        m = ROW.match(line)
        if m and sw is not None:
            cells = m.group(2)[::2]
            p = {i for i, c in enumerate(cells) if c == "x"}
            if p:
                sw[int(m.group(1), 16)] = p
    return {g: m for g, m in t.items() if m}


def cmp(mcfdbs, dump):
    want, got = read_mcfdbs(mcfdbs), read_dump(dump)
    bad = []
    for g in sorted(set(want) | set(got)):
        a, b = want.get(g, {}), got.get(g, {})
        for mlid in sorted(set(a) | set(b)):
            if a.get(mlid) != b.get(mlid):
                bad.append("switch 0x%016x MLID 0x%04x: OpenSM %s, in band %s"
                           % (g, mlid, sorted(a.get(mlid, ())),
                              sorted(b.get(mlid, ()))))
    n = sum(len(m) for m in want.values())
    mlids = {mlid for m in want.values() for mlid in m}
    print("%d switches with multicast entries, %d MLIDs, %d entries: %s"
          % (len(want), len(mlids), n,
             "%d differences" % len(bad) if bad else "0 differences"))
    for b in bad[:20]:
        print(b)
    return 1 if bad or not n else 0


def tree(mcfdbs, switches, ports, links, mlid, sender, before, after, n):
    mft = read_mcfdbs(mcfdbs)
    guid = {s["id"]: int(s["guid"], 16)
            for s in json.load(open(switches))["switches"]}
    plist = json.load(open(ports))["ports"]
    # a veth's peer: "link" (its name, same namespace) or "link_index"
    by_ifx = {p["ifindex"]: (p["switch"], p["port"])
              for p in plist if "ifindex" in p}
    by_name = {p["dev"]: p["ifindex"] for p in plist if "dev" in p}
    veth = {l["ifindex"]: l["link_index"] if "link_index" in l
            else by_name.get(l.get("link")) for l in json.load(open(links))}
    peer, edge, host_port = {}, {}, {}
    for p in plist:
        k = (p["switch"], p["port"])
        if "peer_switch" in p:
            peer[k] = (p["peer_switch"], p["peer_port"])
        elif p["kind"] != "edge":
            if veth.get(p.get("ifindex")) in by_ifx:
                peer[k] = by_ifx[veth[p["ifindex"]]]
        else:
            edge[k] = p["lid"] - 1
            host_port[p["lid"] - 1] = k
    want = {}
    reached = []
    todo = [host_port[sender]]
    seen = 0
    while todo:
        sw, inp = todo.pop()
        seen += 1
        if seen > 1000:
            print("the tree loops")
            return 1
        for q in sorted(mft.get(guid[sw], {}).get(mlid, ())):
            if q == inp or q == 0:
                continue
            want[(sw, q)] = want.get((sw, q), 0) + n
            if (sw, q) in peer:
                todo.append(peer[(sw, q)])
            elif (sw, q) in edge:
                reached.append(edge[(sw, q)])

    def vl0(path):
        return {(p["switch"], p["port"]): p["stats"]["tx_vl"][0]
                for p in json.load(open(path))["ports"]}
    b, a = vl0(before), vl0(after)
    bad = ["switch %d port %d sent %d, the tree says %d"
           % (k[0], k[1], a[k] - b.get(k, 0), want.get(k, 0))
           for k in sorted(a) if a[k] - b.get(k, 0) != want.get(k, 0)]
    if len(set(reached)) != len(reached):
        bad.append("a host reached twice: %s" % sorted(reached))
    print("tree of MLID 0x%04x from h%d: %d ports (%d cables known), hosts "
          "%s; %d ports counted, %s" % (mlid, sender, len(want), len(peer),
                           " ".join("h%d" % h for h in sorted(reached)),
                           len(a), "%d differ" % len(bad) if bad else
                           "all equal"))
    for x in bad[:20]:
        print(x)
    print("REACHED " + " ".join(str(h) for h in sorted(reached)))
    return 1 if bad else 0


def main(argv):
    if argv[0] == "cmp":
        return cmp(argv[1], argv[2])
    if argv[0] == "tree":
        return tree(argv[1], argv[2], argv[3], argv[4], int(argv[5], 0),
                    int(argv[6]), argv[7], argv[8], int(argv[9]))
    print(__doc__)
    return 2


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
