#!/usr/bin/env python3
"""Compare a subnet manager's forwarding tables with the kernel's.

  lftcmp.py DIR

DIR holds what the caller gathered:
  opensm-lfts.dump   OpenSM's own dump of the tables it computed
  switches.json      `ftsw -j switch show` (switch ids and GUIDs)
  lft.json           `ftsw -j lft show`: every switch's table, or
  lftN.json          `ftsw -j lft show switch N` for each switch id N
  ibroute-L.txt      (optional) `ibroute L`, read in band, per switch LID L

Every switch of the kernel must have a section in the dump, and for every
LID the port of the dump, of the kernel and of each ibroute output must be
the same (a LID that a table does not list has no route). Prints a summary
line; exit 1 with the first differences.
"""
import glob
import json
import os
import re
import sys

NONE = 255
HEAD = re.compile(r"^Unicast lids \[[^]]*\] of switch Lid (\d+) guid (0x[0-9a-fA-F]+)")
ENTRY = re.compile(r"^0x([0-9a-fA-F]{4}) (\d{3}) ")


def read_sections(path):
    """{guid: (switch LID, {lid: port})} of an OpenSM dump or ibroute."""
    tabs, cur = {}, None
    with open(path, errors="replace") as f:
        for line in f:
            m = HEAD.match(line)
            if m:
                cur = {}
                tabs[int(m.group(2), 16)] = (int(m.group(1)), cur)
                continue
            m = ENTRY.match(line)
            if m and cur is not None:
                cur[int(m.group(1), 16)] = int(m.group(2))
    return tabs


def main():
    d = sys.argv[1]
    dump = read_sections(os.path.join(d, "opensm-lfts.dump"))
    with open(os.path.join(d, "switches.json")) as f:
        switches = json.load(f)["switches"]
    bad, lids, nroute = [], 0, 0
    if not switches:
        bad.append("no switch in the kernel")
    tables = {}
    if os.path.exists(os.path.join(d, "lft.json")):
        with open(os.path.join(d, "lft.json")) as f:
            tables = {t["switch"]: t["lft"] for t in json.load(f)["switches"]}
    for sw in switches:
        guid = int(sw["guid"], 16)
        if sw["id"] not in tables:
            with open(os.path.join(d, "lft%d.json" % sw["id"])) as f:
                tables[sw["id"]] = json.load(f)["lft"]
        kern = {int(k): v for k, v in tables[sw["id"]].items() if v != NONE}
        if guid not in dump:
            bad.append("switch %s (0x%016x): not in opensm-lfts.dump"
                       % (sw["name"], guid))
            continue
        own, want = dump[guid]
        if sw["lid"] != own:
            bad.append("switch %s: LID %d in the kernel, %d in the dump"
                       % (sw["name"], sw["lid"], own))
        for lid in sorted(set(want) | set(kern)):
            if want.get(lid, NONE) != kern.get(lid, NONE):
                bad.append("switch %s LID %d: port %s in the dump, %s in the kernel"
                           % (sw["name"], lid, want.get(lid, "none"),
                              kern.get(lid, "none")))
        lids += len(want)
        ib = os.path.join(d, "ibroute-%d.txt" % own)
        if os.path.exists(ib):
            got = read_sections(ib).get(guid)
            if got is None:
                bad.append("switch %s: ibroute printed no table" % sw["name"])
            elif got[1] != want:
                diff = sorted(k for k in set(got[1]) | set(want)
                              if got[1].get(k) != want.get(k))
                bad.append("switch %s: ibroute differs at LIDs %s"
                           % (sw["name"], diff[:8]))
            else:
                nroute += 1
    extra = set(dump) - {int(s["guid"], 16) for s in switches}
    if extra:
        bad.append("switches in the dump the kernel does not have: %s"
                   % ", ".join("0x%016x" % g for g in sorted(extra)))
    print("%d switches, %d LID entries compared, %d ibroute tables equal, %d differences"
          % (len(switches), lids, nroute, len(bad)))
    for b in bad[:20]:
        print(b)
    return 1 if bad else 0


if __name__ == "__main__":
    sys.exit(main())
