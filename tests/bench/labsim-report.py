#!/usr/bin/env python3
# SPDX-License-Identifier: GPL-2.0
"""tests/bench/labsim's comparison: DIR holds lab-perm.json, lab-uniform.json,
lab-a2a.json (ftsw -j lab traffic on the lossless lab: perm, a2a
--random-dst, a2a in rounds) and sim-perm.json, sim-a2a.json
(ftsw -j sim --rate --frame-bytes --links at load 1.0). Prints the table,
writes DIR/table.md, DIR/labsim.dat, DIR/labsim.gp and, with gnuplot,
DIR/labsim.svg. Exit status 1 when a file is missing or unreadable.

Per flow of the permutation: the lab's measured Mbit/s of frames (the
receivers' count over the last four fifths of the run) beside the
simulator's (the flits delivered over the link into the flow's
destination host in the measured window, times rate * F / (64 P) per
flit per cycle: sim.md). Saturation: the lab's delivered Mbit/s per
sending host over the rate, the simulator's accepted flits per cycle per
sending host times F / (64 P); the lab's uniform traffic is the
counterpart of the simulator's a2a, its rounds are shown beside it."""
import json
import os
import subprocess
import sys


def load(d, name):
    try:
        with open(os.path.join(d, name)) as f:
            return json.load(f)
    except (OSError, ValueError) as e:
        sys.exit("labsim: %s: %s" % (name, e))


def sim_host_mbps(s):
    """Mbit/s delivered into each host (the link into it), by host."""
    p = s["points"][0]
    cyc = s["lab"]["cycle_s"]
    share = s["lab"]["frame_share"]
    out = {}
    for l in p["links"]:
        if "to_host" in l:
            util = sum(l["vl_util"])	# flits per cycle
            out[l["to_host"]] = util * 64 * 8 / cyc * share / 1e6
    return out


def disc(j):
    return j.get("hoq_discards", 0) + j.get("life_discards", 0)


def drop_reasons(d):
    """Fabric drops by reason over each run, from the guest's `lab status
    -j` before and after the runs (lab-status-{0,perm,a2a,uniform}.json);
    None without them (runs before they were recorded)."""
    snaps = []
    for name in ("0", "perm", "a2a", "uniform"):
        try:
            with open(os.path.join(d, "lab-status-%s.json" % name)) as f:
                snaps.append(json.load(f).get("drops", {}))
        except (OSError, ValueError):
            return None
    runs = dict(zip(("perm", "rounds", "uniform"), range(1, 4)))
    out = []
    for run in ("perm", "uniform", "rounds"):
        i = runs[run]
        why = ["%s=%d" % (k, snaps[i][k] - snaps[i - 1].get(k, 0))
               for k in sorted(snaps[i])
               if snaps[i][k] - snaps[i - 1].get(k, 0)]
        out.append("%s: %s" % (run, " ".join(why) if why else "none"))
    return "; ".join(out)


def main():
    d = sys.argv[1]
    lp, la = load(d, "lab-perm.json"), load(d, "lab-a2a.json")
    lu = load(d, "lab-uniform.json")
    sp, sa = load(d, "sim-perm.json"), load(d, "sim-a2a.json")
    rate = sp["lab"]["rate_bits"] / 1e6
    simh = sim_host_mbps(sp)
    rows = []
    for f in lp["flows"]:
        if f["src"] == f["dst"]:
            continue
        s = simh.get(f["dst"], 0.0)
        rows.append((f["src"], f["dst"], f["mbps"], s))
    lines = ["| flow | lab Mbit/s | sim Mbit/s | lab / sim - 1 |",
             "|---|---|---|---|"]
    worst = 0.0
    for src, dst, lab, sim in rows:
        dev = (lab / sim - 1) if sim > 0 else float("inf")
        worst = max(worst, abs(dev))
        lines.append("| h%d -> h%d | %.3f | %.3f | %+.1f %% |"
                     % (src, dst, lab, sim, 100 * dev))
    tot_lab = sum(r[2] for r in rows)
    tot_sim = sum(r[3] for r in rows)
    # saturation: per sending host, over the rate
    def lab_sat(j):
        senders = len({f["src"] for f in j["flows"]})
        return sum(f["mbps"] for f in j["flows"]) / max(senders, 1) / rate

    def dev(a, b):
        return 100 * (a / b - 1) if b else float("inf")
    pt = sa["points"][0]
    sim_sat = pt["accepted"] * sa["lab"]["frame_share"]
    uni, rounds = lab_sat(lu), lab_sat(la)
    lines += ["",
              "| | lab | sim | lab / sim - 1 |", "|---|---|---|---|",
              "| permutation, all flows (Mbit/s) | %.3f | %.3f | %+.1f %% |"
              % (tot_lab, tot_sim, dev(tot_lab, tot_sim)),
              "| saturation, uniform traffic (accepted / rate per host) "
              "| %.3f | %.3f | %+.1f %% |" % (uni, sim_sat, dev(uni, sim_sat)),
              "| (a2a in rounds: every destination once per round) "
              "| %.3f | %.3f | %+.1f %% |"
              % (rounds, sim_sat, dev(rounds, sim_sat)),
              "",
              "worst per-flow deviation %.1f %%; lab lifetime discards "
              "(perm, uniform, rounds): %d, %d, %d; lab drops: %d, %d, %d"
              % (100 * worst, disc(lp), disc(lu), disc(la),
                 lp.get("drops", 0), lu.get("drops", 0), la.get("drops", 0))]
    why = drop_reasons(d)
    if why is not None:
        lines += ["", "lab drops by reason: " + why]
    # A diagnostic, not the comparison: the lab's flows that have a link
    # to themselves in the simulator measure the rate its links reach
    # (a loaded VM's late port timers leave links idle); the flows
    # scaled by it show whether what remains is the model's.
    top = max((r[3] for r in rows), default=0)
    lone = [r for r in rows if top and r[3] >= 0.95 * top]
    if lone and sum(r[3] for r in lone):
        eff = sum(r[2] for r in lone) / sum(r[3] for r in lone)
        sw = max(abs(r[2] / eff / r[3] - 1) for r in rows if r[3] > 0)
        lines += ["", "diagnostic: the lab's lone flows reach %.3f of the "
                  "simulator's (its effective link rate); every flow "
                  "scaled by it: worst deviation %.1f %%" % (eff, 100 * sw)]
    rows_plot = rows + [("uniform", "per host", uni * rate, sim_sat * rate)]
    text = "\n".join(lines) + "\n"
    print(text, end="")
    with open(os.path.join(d, "table.md"), "w") as f:
        f.write(text)
    with open(os.path.join(d, "labsim.dat"), "w") as f:
        f.write("# flow lab_mbps sim_mbps\n")
        for i, (src, dst, lab, sim) in enumerate(rows_plot):
            name = ("h%d-h%d" % (src, dst) if isinstance(src, int)
                    else "%s %s" % (src, dst))
            f.write('%d "%s" %.4f %.4f\n' % (i, name, lab, sim))
    gp = os.path.join(d, "labsim.gp")
    with open(gp, "w") as f:
        f.write("set terminal svg size 720,420 dynamic\n"
                "set output '%s'\n"
                "set title 'permutation flows and uniform saturation, "
                "lossless lab vs ftsw sim (%.3g Mbit/s per port)'\n"
                "set style data histograms\nset style fill solid 0.6\n"
                "set ylabel 'Mbit/s of frames'\nset yrange [0:*]\n"
                "set xtics rotate by -45\nset grid ytics\n"
                "plot '%s' using 3:xtic(2) title 'lab', '' using 4 "
                "title 'sim'\n" % (os.path.join(d, "labsim.svg"), rate,
                                    os.path.join(d, "labsim.dat")))
    try:
        subprocess.run(["gnuplot", gp], check=True)
    except (OSError, subprocess.CalledProcessError) as e:
        print("labsim: gnuplot: %s (the table is written)" % e)


if __name__ == "__main__":
    main()
