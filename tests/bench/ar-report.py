#!/usr/bin/env python3
# SPDX-License-Identifier: GPL-2.0
"""tests/bench/ar's comparison. DIR holds params ("TOPO RATE BUF DURATION
GAP LIFE FLAVOUR"), patterns (one a line) and, for MODE in static,
adaptive, flowlet and N the pattern's index: sim-MODE-N.json (ftsw -j sim
--rate --frame-bytes at load 1.0), lab-MODE-N.json (ftsw -j lab traffic),
ports-MODE-N-0.json and ports-MODE-N-1.json (ftsw -j -s port show before
and after the run), status-MODE-N.json (ftsw -j lab status after it).
Prints the table, writes DIR/table.md, DIR/ar.dat, DIR/ar.gp and, with
gnuplot, DIR/ar.svg. Exit status 1 when a file is missing or unreadable.

Throughput: accepted per sending host over the link rate; the lab's is
the receivers' Mbit/s of frames (lab traffic's flows) summed over the
senders, the simulator's its accepted flits per cycle per host times the
frame share (Documentation/sim.md, "The lab's parameters"). Reorder rate:
the frames delivered after a later frame of the same source over the
frames delivered; the lab's from the kernel's out_of_order count over the
edge ports' tx_packets (both counted where a frame leaves the fabric for
its host), the simulator's reorder_rate. Diverted per frame: the lab's
ar_diverted (all ports) over the frames the edge ports delivered, the
simulator's ar_moved (counted from cycle 0, the warm-up's too: about a
tenth high) over its frames delivered in the measured window. Stalled:
lab flows that received nothing in a run's window (a deadlock would)."""
import json
import os
import subprocess
import sys

MODES = ("static", "adaptive", "flowlet")


def load(d, name):
    try:
        with open(os.path.join(d, name)) as f:
            return json.load(f)
    except (OSError, ValueError) as e:
        sys.exit("ar: %s: %s" % (name, e))


def edge_counts(j):
    """(out_of_order, tx_packets) summed over the edge ports, and the
    ar_diverted of every port."""
    ooo = tx = div = 0
    for p in j["ports"]:
        st = p.get("stats", {})
        div += st.get("ar_diverted", 0)
        if p.get("kind") == "edge":
            ooo += st.get("out_of_order", 0)
            tx += st.get("tx_packets", 0)
    return ooo, tx, div


def lab_point(d, mode, i, rate):
    j = load(d, "lab-%s-%d.json" % (mode, i))
    flows = [f for f in j.get("flows", []) if f["src"] != f["dst"]]
    senders = len({f["src"] for f in flows})
    thr = sum(f["mbps"] for f in flows) / max(senders, 1) / rate
    a = edge_counts(load(d, "ports-%s-%d-0.json" % (mode, i)))
    b = edge_counts(load(d, "ports-%s-%d-1.json" % (mode, i)))
    dtx = b[1] - a[1]
    ro = (b[0] - a[0]) / dtx if dtx > 0 else 0.0
    # diverted per delivered frame: how often the rule left the LFT
    dv = (b[2] - a[2]) / dtx if dtx > 0 else 0.0
    lost = j.get("drops", 0) + j.get("hoq_discards", 0) + \
        j.get("life_discards", 0)
    # a flow that got nothing in the window: stalled (a deadlock would)
    stalled = sum(1 for f in flows if f["mbps"] <= 0)
    return thr, ro, lost, stalled, dv


def sim_point(d, mode, i):
    s = load(d, "sim-%s-%d.json" % (mode, i))
    p = s["points"][0]
    dv = p.get("ar_moved", 0) / max(p.get("messages_delivered", 0), 1)
    return (p["accepted"] * s["lab"]["frame_share"],
            p.get("reorder_rate", 0.0), s["lab"]["rate_bits"] / 1e6, dv)


def pct(a, b):
    return 100 * (a / b - 1) if b else float("inf")


def main():
    d = sys.argv[1]
    with open(os.path.join(d, "params")) as f:
        topo, rate, buf, dur, gap, life, flavour = f.read().split()
    with open(os.path.join(d, "patterns")) as f:
        pats = f.read().split()
    # a file pattern by its file's name
    shown = [("file:" + os.path.basename(p[5:])) if p.startswith("file:")
             else p for p in pats]
    names = {"static": "d-mod-k", "adaptive": "adaptive, per packet",
             "flowlet": "adaptive, flowlets of %s cycles" % gap}
    lines = ["%s, %s per port, buffers %s bytes per VL, %s ms per run, "
             "%s kernel" % (topo, rate, buf, dur, flavour), "",
             "| pattern | routing | lab | sim | lab / sim - 1 "
             "| lab reorder | sim reorder | lab drops, discards "
             "| diverted per frame, lab / sim |",
             "|---|---|---|---|---|---|---|---|---|"]
    dat, worst, stalled = [], 0.0, 0
    for i, pat in enumerate(shown):
        row = [pat]
        for mode in MODES:
            st, sro, r, sdv = sim_point(d, mode, i)
            lt, lro, lost, st0, ldv = lab_point(d, mode, i, r)
            stalled += st0
            dev = pct(lt, st)
            worst = max(worst, abs(dev))
            lines.append("| %s | %s | %.3f | %.3f | %+.1f %% | %.4f | %.4f "
                         "| %d | %.2f / %.2f |"
                         % (pat, names[mode], lt, st, dev, lro, sro, lost,
                            ldv, sdv))
            row += [lt, st, lro, sro]
        dat.append(row)
    lines += ["", "worst difference lab / sim: %.1f %%; lab flows that "
              "received nothing in a run's window (stalled): %d"
              % (worst, stalled)]
    text = "\n".join(lines) + "\n"
    print(text, end="")
    with open(os.path.join(d, "table.md"), "w") as f:
        f.write(text)
    with open(os.path.join(d, "ar.dat"), "w") as f:
        f.write("# pattern then lab sim lab_reorder sim_reorder for "
                "static, adaptive, flowlet\n")
        for r in dat:
            f.write('"%s" %s\n' % (r[0], " ".join("%.4f" % v for v in r[1:])))
    gp = os.path.join(d, "ar.gp")
    cols = []
    for k, mode in enumerate(MODES):
        c = 2 + 4 * k
        cols.append("'%s' using %d%s title '%s, lab'" % (
            os.path.join(d, "ar.dat") if k == 0 else "", c,
            ":xtic(1)" if k == 0 else "", names[mode]))
        cols.append("'' using %d title '%s, sim'" % (c + 1, names[mode]))
    with open(gp, "w") as f:
        f.write("set terminal svg size 760,420 dynamic\n"
                "set output '%s'\n"
                "set title 'd-mod-k against adaptive routing on %s, "
                "lossless lab beside ftsw sim'\n"
                "set style data histograms\n"
                "set style histogram clustered gap 1\n"
                "set style fill solid 0.8 border -1\n"
                "set ylabel 'accepted per sending host (of the link rate)'\n"
                "set yrange [0:1.05]\nset grid ytics\n"
                "set key outside bottom center horizontal\n"
                "plot %s\n" % (os.path.join(d, "ar.svg"), topo,
                               ", ".join(cols)))
    try:
        subprocess.run(["gnuplot", gp], check=True)
    except (OSError, subprocess.CalledProcessError) as e:
        print("ar: gnuplot: %s (the table is written)" % e)


if __name__ == "__main__":
    main()
