#!/usr/bin/env python3
# SPDX-License-Identifier: GPL-2.0
"""tests/bench/congestion's comparison. DIR holds params ("RATE BITS BUF
UNIT SHORT LONG SEEDS FLAVOUR"), victim.pat, tree.pat, cc.conf, the lab's
OpenSM dump lab-lfts.dump and, for RUN in alone, nocc, cc: lab-RUN.json
(ftsw -j lab traffic), ports-RUN-0/1.json (-s port show -j before and
after), status-RUN.json; ibcc-ss/cs/ct/cl.txt (ibccquery's answers).

For each run, ftsw sim with the lab's tables (-r lab-lfts.dump), rate,
frame and buffers, every source offering its link's rate, SEEDS seeds
averaged; the CC run with cc.conf and the lab's CCTI_Timer unit over the
lab's measuring window (lab traffic's warm-up = warmup, its window =
measure: the sources' CCT indices settle within it), the others over
5,000 + 50,000 cycles (steady states; the simulator's Poisson sources at
load 1.0 idle by chance over a short window, the lab's offer 1.3 R). Throughput: Mbit/s of frames into the receiver over the link rate
(the lab's flows; the simulator's per-flow accepted x frame share). The
lab's marks, CNPs, BECNs and held packets: the difference of the
counters around the run (cc_fecn over every port; cc_cnp, cc_becn,
cc_held over the edge ports). What OpenSM set, as ibccquery read it, is
checked against cc.conf's keys. Prints the table, writes DIR/table.md,
DIR/congestion.dat/.gp/.svg. Exit status 1 when a file is missing."""
import json
import os
import re
import subprocess
import sys

TOP = os.path.dirname(os.path.dirname(os.path.dirname(os.path.abspath(__file__))))
FTSW = os.environ.get("FTSW", os.path.join(TOP, "build", "ftsw"))
RUNS = (("alone", "victim alone", "victim.pat"),
        ("nocc", "tree, no CC", "tree.pat"),
        ("cc", "tree, CC", "tree.pat"))
HOT, VICTIM = 0, (5, 10)


def load(d, name):
    try:
        with open(os.path.join(d, name)) as f:
            return json.load(f)
    except (OSError, ValueError) as e:
        sys.exit("congestion: %s: %s" % (name, e))


def counters(j):
    c = dict(fecn=0, cnp=0, becn=0, held=0)
    for p in j["ports"]:
        st = p.get("stats", {})
        c["fecn"] += st.get("cc_fecn", 0)
        if p.get("kind") == "edge":
            for k in ("cnp", "becn", "held"):
                c[k] += st.get("cc_" + k, 0)
    return c


def lab_run(d, run, bits):
    j = load(d, "lab-%s.json" % run)
    a = counters(load(d, "ports-%s-0.json" % run))
    b = counters(load(d, "ports-%s-1.json" % run))
    mbps = {(f["src"], f["dst"]): f["mbps"] for f in j.get("flows", [])}
    victim = mbps.get(VICTIM, 0.0) * 1e6 / bits
    hot = sum(v for (s, t), v in mbps.items() if t == HOT) * 1e6 / bits
    lost = j.get("drops", 0) + j.get("hoq_discards", 0) + \
        j.get("life_discards", 0)
    warm = j["duration_ms"] - j["window_ms"]
    return dict(victim=victim, hot=hot, lost=lost, warm_ms=warm,
                window_ms=j["window_ms"],
                **{k: b[k] - a[k] for k in a})


def sim_run(d, pat, lab, bits, buf, seeds, cc):
    cyc = 512.0 / bits		# one 64-byte flit
    warm = max(0, round(lab["warm_ms"] / 1e3 / cyc))
    meas = max(1, round(lab["window_ms"] / 1e3 / cyc))
    if not cc:
        # steady states: the simulator's sources are Poisson at load 1.0,
        # idle by chance over a short window (the victim alone gets 0.87
        # of R over 24 s, 0.99 over 256 s); the lab's offer 1.3 R
        warm, meas = 5000, 50000
    acc = dict(victim=0.0, hot=0.0, marked=0, becns=0, max_ccti=0)
    for seed in range(1, seeds + 1):
        args = [FTSW, "-j", "sim", "-t", "ftmn:4,3", "-r",
                os.path.join(d, "lab-lfts.dump"), "--flows", "--rate",
                str(bits), "--frame-bytes", "1472", "--buffer-bytes", buf,
                "--message", "1", "--load", "1.0", "--warmup", str(warm),
                "--measure", str(meas), "--seed", str(seed), "-p",
                "file:" + os.path.join(d, pat)] + cc
        r = subprocess.run(["nice"] + args, capture_output=True, text=True)
        if r.returncode != 0:
            sys.exit("congestion: %s: %s" % (" ".join(args),
                                             r.stderr.strip()))
        s = json.loads(r.stdout)
        p, share = s["points"][0], s["lab"]["frame_share"]
        for f in p["flows"]:
            if (f["src"], f["dst"]) == VICTIM:
                acc["victim"] += f["accepted"] * share / seeds
            elif f["dst"] == HOT:
                acc["hot"] += f["accepted"] * share / seeds
        acc["marked"] += p.get("cc_marked", 0) / seeds
        acc["becns"] += p.get("cc_becns", 0) / seeds
        acc["max_ccti"] = max(acc["max_ccti"], p.get("cc_max_ccti", 0))
    acc["cycles"] = (warm, meas)
    return acc


def conf_keys(path):
    keys = {}
    with open(path) as f:
        for line in f:
            w = line.split()
            if w and not w[0].startswith("#"):
                keys.setdefault(w[0], []).append(w[1:])
    return keys


def field(text, name):
    m = re.search(r"^%s:\.*(.*)$" % re.escape(name), text, re.M)
    return m.group(1).strip() if m else None


def ibcc_check(d):
    """What OpenSM set (ibccquery) against cc.conf: a list of lines and
    the number of mismatches."""
    k = conf_keys(os.path.join(d, "cc.conf"))
    one = lambda key: k[key][0][0]
    txt = {}
    for n in ("ss", "cs", "ct"):
        try:
            with open(os.path.join(d, "ibcc-%s.txt" % n)) as f:
                txt[n] = f.read()
        except OSError:
            txt[n] = ""
    want = [
        ("ss", "Control_Map", int(one("cc_sw_cong_setting_control_map"), 0)),
        ("ss", "Threshold", int(one("cc_sw_cong_setting_threshold"), 0)),
        ("ss", "Packet_Size", int(one("cc_sw_cong_setting_packet_size"), 0)),
        ("ss", "Marking_Rate", int(one("cc_sw_cong_setting_marking_rate"), 0)),
        ("cs", "Port_Control", int(one("cc_ca_cong_setting_port_control"), 0)),
        ("cs", "Control_Map", int(one("cc_ca_cong_setting_control_map"), 0)),
    ]
    sl0 = {key: [v for v in k[key] if v[0] == "0"][0][1]
           for key in ("cc_ca_cong_setting_ccti_timer",
                       "cc_ca_cong_setting_ccti_increase")}
    cct = [e.split(":") for e in one("cc_cct").split(",")]
    lines, bad = [], 0
    for n, name, v in want:
        got = field(txt[n], name)
        ok = got is not None and int(got, 0) == v
        bad += not ok
        lines.append("%s %s: %s (file %d)%s" % (n.upper(), name, got, v,
                                                "" if ok else " MISMATCH"))
    # SL 0's record in CACongestionSetting: SL, timer, increase, ...
    m = re.search(r"^SL:\.*0\n([^\n]*\n){0,4}", txt["cs"], re.M)
    vals = re.findall(r"^[A-Za-z_]+:\.*(\S+)$", m.group(0), re.M) if m else []
    ok = vals[1:3] == [sl0["cc_ca_cong_setting_ccti_timer"],
                       sl0["cc_ca_cong_setting_ccti_increase"]]
    bad += not ok
    lines.append("CS SL 0 timer, increase: %s (file %s, %s)%s" % (
        vals[1:3], sl0["cc_ca_cong_setting_ccti_timer"],
        sl0["cc_ca_cong_setting_ccti_increase"], "" if ok else " MISMATCH"))
    got_lim = field(txt["ct"], "CCTI_Limit")
    ok = got_lim is not None and int(got_lim, 0) == len(cct) - 1
    bad += not ok
    lines.append("CT CCTI_Limit: %s (file %d entries)%s" % (
        got_lim, len(cct), "" if ok else " MISMATCH"))
    sm = re.findall(r"^CCT_(?:Shift|Multiplier)[^:]*:\.*(\S+)$", txt["ct"],
                    re.M)
    pairs = [sm[i:i + 2] for i in range(0, min(len(sm), 16), 2)]
    ok = len(pairs) == 8 and pairs == [[a, b] for a, b in cct[:8]]
    bad += not ok
    lines.append("CT entries 0..7: %s (file %s)%s" % (
        " ".join(":".join(p) for p in pairs),
        " ".join(":".join(p) for p in cct[:8]), "" if ok else " MISMATCH"))
    return lines, bad


def main():
    d = sys.argv[1]
    with open(os.path.join(d, "params")) as f:
        rate, bits, buf, unit, short, long_, seeds, flavour = f.read().split()
    bits, seeds = int(bits), int(seeds)
    rows = []
    for run, name, pat in RUNS:
        lab = lab_run(d, run, bits)
        cc = ["--cc", os.path.join(d, "cc.conf"), "--cc-timer-unit", unit] \
            if run == "cc" else []
        rows.append((name, lab, sim_run(d, pat, lab, bits, buf, seeds, cc)))
    pct = lambda a, b: 100 * (a / b - 1) if b else float("inf")
    t = ["FT(4,3) lossless under OpenSM (file engine: ftsw's d-mod-k), %s "
         "per port, buffers %s bytes per VL, CCTI_Timer unit %s ns, %s "
         "kernel; simulator: the lab's tables, rate, buffers and window, "
         "%d seeds" % (rate, buf, unit, flavour, seeds), "",
         "| run | lab window s | victim lab | victim sim | lab / sim - 1 "
         "| hot spot lab | hot spot sim | lab FECN / CNP / BECN / held "
         "| sim FECN / BECN / max CCTI | lab drops |",
         "|---|---|---|---|---|---|---|---|---|---|"]
    for name, lab, sim in rows:
        t.append("| %s | %.0f-%.0f | %.3f | %.3f | %+.1f %% | %.3f | %.3f "
                 "| %d / %d / %d / %d | %.0f / %.0f / %d | %d |" % (
                     name, lab["warm_ms"] / 1e3,
                     (lab["warm_ms"] + lab["window_ms"]) / 1e3,
                     lab["victim"], sim["victim"],
                     pct(lab["victim"], sim["victim"]), lab["hot"],
                     sim["hot"], lab["fecn"], lab["cnp"], lab["becn"],
                     lab["held"], sim["marked"], sim["becns"],
                     sim["max_ccti"], lab["lost"]))
    alone_l, alone_s = rows[0][1]["victim"], rows[0][2]["victim"]
    t += ["", "victim with CC / alone: lab %.3f, sim %.3f; without CC: "
          "lab %.3f, sim %.3f" % (rows[2][1]["victim"] / alone_l,
                                  rows[2][2]["victim"] / alone_s,
                                  rows[1][1]["victim"] / alone_l,
                                  rows[1][2]["victim"] / alone_s), "",
          "What OpenSM set, read in band by ibccquery (top switch's "
          "SwitchCongestionSetting, h6's CA's CACongestionSetting and "
          "CongestionControlTable) against cc.conf:", ""]
    lines, bad = ibcc_check(d)
    t += ["    " + x for x in lines]
    t += ["", "ibccquery mismatches: %d" % bad]
    text = "\n".join(t) + "\n"
    print(text, end="")
    with open(os.path.join(d, "table.md"), "w") as f:
        f.write(text)
    dat = os.path.join(d, "congestion.dat")
    with open(dat, "w") as f:
        f.write("# run victim_lab victim_sim hot_lab hot_sim\n")
        for name, lab, sim in rows:
            f.write('"%s" %.4f %.4f %.4f %.4f\n' % (
                name, lab["victim"], sim["victim"], lab["hot"], sim["hot"]))
    gp = os.path.join(d, "congestion.gp")
    with open(gp, "w") as f:
        f.write("set terminal svg size 680,400 dynamic\n"
                "set output '%s'\n"
                "set title 'the congestion tree on FT(4,3), lossless lab "
                "under OpenSM beside ftsw sim'\n"
                "set style data histograms\n"
                "set style histogram clustered gap 1\n"
                "set style fill solid 0.8 border -1\n"
                "set ylabel 'Mbit/s of frames over the link rate'\n"
                "set yrange [0:1.1]\nset grid ytics\n"
                "set key outside bottom center horizontal\n"
                "plot '%s' using 2:xtic(1) title 'victim h5 -> h10, lab', "
                "'' using 3 title 'victim, sim', '' using 4 title "
                "'hot spot h0, lab', '' using 5 title 'hot spot, sim'\n"
                % (os.path.join(d, "congestion.svg"), dat))
    try:
        subprocess.run(["gnuplot", gp], check=True)
    except (OSError, subprocess.CalledProcessError) as e:
        print("congestion: gnuplot: %s (the table is written)" % e)


if __name__ == "__main__":
    main()
