#!/usr/bin/env python3
# SPDX-License-Identifier: GPL-2.0
# Tables (Markdown, stdout) and gnuplot scripts (OUT/*.gp) from the data
# tests/bench/dmodc-repro writes: fig5.tsv, quality.tsv, sim.tsv.
#
#   dmodc-report.py OUT          (or: dmodc-report.py --spearman X.. -- Y..)
import os
import sys

PATS = ("shift", "a2a", "perm")
undeliv = {}
PNAME = {"shift": "shift (worst stage)", "a2a": "all-to-all",
         "perm": "random permutation (mean)"}


def ranks(v):
    """Average ranks (1-based), ties sharing the mean of their positions."""
    order = sorted(range(len(v)), key=lambda i: v[i])
    r = [0.0] * len(v)
    i = 0
    while i < len(order):
        j = i
        while j + 1 < len(order) and v[order[j + 1]] == v[order[i]]:
            j += 1
        for k in range(i, j + 1):
            r[order[k]] = (i + j) / 2.0 + 1
        i = j + 1
    return r


def spearman(x, y):
    """Pearson correlation of the average ranks; None when undefined."""
    if len(x) < 3:
        return None
    rx, ry = ranks(x), ranks(y)
    n = len(x)
    mx, my = sum(rx) / n, sum(ry) / n
    sxy = sum((a - mx) * (b - my) for a, b in zip(rx, ry))
    sxx = sum((a - mx) ** 2 for a in rx)
    syy = sum((b - my) ** 2 for b in ry)
    if sxx == 0 or syy == 0:
        return None
    return sxy / (sxx * syy) ** 0.5


def rows(path):
    if not os.path.exists(path):
        return []
    out = []
    for line in open(path):
        if line.startswith("#") or not line.strip():
            continue
        out.append(line.rstrip("\n").split("\t"))
    return out


def label(src, eng):
    return ("ftsw " if src == "ftsw" else "OpenSM ") + eng


def fig5(out):
    r = rows(os.path.join(out, "fig5.tsv"))
    if not r:
        return
    engs = ["dmodc", "ftree", "updn", "minhop", "dfsssp"]
    t = {}
    for h, spec, src, eng, sec in r:
        t.setdefault((int(h), spec), {})[eng] = sec
    print("### Fig. 5: routing time (s), RLFTs, one run side by side\n")
    print("| hosts | topology | ftsw dmodc | OpenSM ftree | OpenSM updn "
          "| OpenSM minhop | OpenSM dfsssp | ftree / dmodc |")
    print("| --- | --- | --- | --- | --- | --- | --- | --- |")
    for (h, spec), d in sorted(t.items()):
        c = [d.get(e, "n/a") for e in engs]
        try:
            ratio = "%.1f×" % (float(d["ftree"]) / float(d["dmodc"]))
        except (KeyError, ValueError, ZeroDivisionError):
            ratio = "-"
        print("| %d | %s | %s | %s |" % (h, spec.upper(), " | ".join(c), ratio))
    print()
    with open(os.path.join(out, "fig5.dat"), "w") as f:
        for (h, spec), d in sorted(t.items()):
            f.write("%d %s\n" % (h, " ".join(
                d.get(e, "-") if d.get(e, "-") != "-" else "NaN" for e in engs)))
    with open(os.path.join(out, "fig5.gp"), "w") as f:
        f.write("""set terminal svg size 640,420 dynamic
set output 'fig5.svg'
set title 'Routing time on RLFTs (paper 004 Fig. 5 form; shared 2-CPU machine)'
set xlabel 'hosts'
set ylabel 'seconds'
set logscale xy
set grid
set key left top
set datafile missing 'NaN'
plot 'fig5.dat' using 1:2 with linespoints title 'ftsw dmodc', \\
     '' using 1:3 with linespoints title 'OpenSM ftree', \\
     '' using 1:4 with linespoints title 'OpenSM updn', \\
     '' using 1:5 with linespoints title 'OpenSM minhop', \\
     '' using 1:6 with linespoints title 'OpenSM dfsssp'
""")


def num(s):
    try:
        return float(s)
    except ValueError:
        return None


def cell(v, digits, notes):
    """Mean of v for the .dat file ("NaN" if none) and the table cell with
    its notes, e.g. "4.25 (failed 1)"."""
    m = sum(v) / len(v) if v else None
    c = "-" if m is None else "%.*f" % (digits, m)
    for what, k in notes:
        if k:
            c += " (%s %d)" % (what, k)
    return ("NaN" if m is None else "%.4f" % m), c


def collect(r, width):
    """(topo) -> {(p, seed): {routing: [values]}}, invalid counts per (topo, p)."""
    data, invalid, failed = {}, {}, {}
    undeliv.clear()
    for x in r:
        topo, p, seed, src, eng, val = x[0], int(x[1]), x[2], x[3], x[4], x[5]
        if val == "invalid":
            invalid[(topo, p)] = invalid.get((topo, p), 0) + 1
            continue
        if val == "failed":
            failed[(topo, p, label(src, eng))] = failed.get((topo, p, label(src, eng)), 0) + 1
            continue
        v = val.split(" ")
        if len(v) != width:
            # an analysis that exited non-zero (pairs the tables do not
            # deliver) printed "-" twice: the fabric counts for this
            # routing as undelivered, in no mean
            k = (topo, p, label(src, eng))
            undeliv[k] = undeliv.get(k, 0) + 1
            continue
        if "-" in v:
            k = (topo, p, label(src, eng))
            undeliv[k] = undeliv.get(k, 0) + 1
        data.setdefault(topo, {}).setdefault((p, seed), {})[label(src, eng)] = v
    return data, invalid, failed


def routings(d):
    names = []
    for fab in d.values():
        for k in fab:
            if k not in names:
                names.append(k)
    order = ["ftsw dmodc", "OpenSM ftree"]
    for e in ("updn", "minhop", "sssp", "dfsssp"):
        order += ["ftsw " + e, "OpenSM " + e]
    return [n for n in order if n in names] + sorted(n for n in names if n not in order)


def fname(topo):
    return topo.split(":")[0] + "-" + topo.split(":")[1].split(";")[0] + \
        "-" + topo.split(";")[1].replace(",", "x")


def quality(out):
    data, invalid, failed = collect(rows(os.path.join(out, "quality.tsv")), 3)
    for topo, d in data.items():
        names = routings(d)
        levels = sorted({p for p, _ in d})
        print("### Maximum link load, %s (mean over the valid fabrics)\n" % topo.upper())
        for i, pat in enumerate(PATS):
            print("**%s**\n" % PNAME[pat])
            print("| removed % | fabrics (dmodc invalid) | " + " | ".join(names) + " |")
            print("| --- | --- |" + " --- |" * len(names))
            dat = open(os.path.join(out, "q-%s-%s.dat" % (fname(topo), pat)), "w")
            for p in levels:
                fabs = [f for (q, _), f in d.items() if q == p]
                cells = []
                means = []
                for n in names:
                    v = [num(f[n][i]) for f in fabs if n in f and num(f[n][i]) is not None]
                    mean, c = cell(v, 2, [("failed", failed.get((topo, p, n), 0)),
                                          ("undelivered", undeliv.get((topo, p, n), 0))])
                    means.append(mean)
                    cells.append(c)
                print("| %d | %d (%d) | %s |" % (p, len(fabs), invalid.get((topo, p), 0),
                                                 " | ".join(cells)))
                dat.write("%d %s\n" % (p, " ".join(means)))
            dat.close()
            print()
            gp(out, "q-%s-%s" % (fname(topo), pat), names,
               "Max link load, %s, %s" % (PNAME[pat], topo.upper()),
               "maximum link load")
        # the paper's claim, fabric by fabric
        print("dmodc against each routing, fabric by fabric (degraded fabrics "
              "only; lower load is better): dmodc better / equal / worse\n")
        print("| routing | " + " | ".join(PNAME[p] for p in PATS) + " |")
        print("| --- |" + " --- |" * len(PATS))
        for n in names[1:]:
            cells = []
            for i in range(len(PATS)):
                b = e = w = 0
                for (p, _), f in d.items():
                    if p == 0 or n not in f:
                        continue
                    a, o = num(f["ftsw dmodc"][i]), num(f[n][i])
                    if a is None or o is None:
                        continue
                    if abs(a - o) <= 1e-9 * max(1, abs(o)):
                        e += 1
                    elif a < o:
                        b += 1
                    else:
                        w += 1
                cells.append("%d / %d / %d" % (b, e, w))
            print("| %s | %s |" % (n, " | ".join(cells)))
        print()


def gp(out, base, names, title, ylabel):
    with open(os.path.join(out, base + ".gp"), "w") as f:
        f.write("set terminal svg size 640,420 dynamic\n")
        f.write("set output '%s.svg'\n" % base)
        f.write("set title '%s'\n" % title)
        f.write("set xlabel 'switch-switch links removed (%%)'\nset ylabel '%s'\n" % ylabel)
        f.write("set grid\nset key outside right\nset datafile missing 'NaN'\n")
        f.write("plot " + ", \\\n     ".join(
            "'%s.dat' using 1:%d with linespoints title '%s'" % (base, i + 2, n)
            for i, n in enumerate(names)) + "\n")


def sim(out):
    sd, sinv, sfail = collect(rows(os.path.join(out, "sim.tsv")), 1)
    qd, _, _ = collect(rows(os.path.join(out, "quality.tsv")), 3)
    if not sd:
        return
    for topo, d in sd.items():
        names = routings(d)
        levels = sorted({p for p, _ in d})
        print("### Saturation throughput (flits/cycle/host, uniform traffic), %s\n" % topo.upper())
        print("| removed % | fabrics | " + " | ".join(names) + " |")
        print("| --- | --- |" + " --- |" * len(names))
        dat = open(os.path.join(out, "s-%s.dat" % fname(topo)), "w")
        for p in levels:
            fabs = [f for (q, _), f in d.items() if q == p]
            cells, means = [], []
            for n in names:
                v = [f[n][0] for f in fabs if n in f]
                x = [num(a) for a in v if num(a) is not None]
                mean, c = cell(x, 3, [("deadlock", sum(1 for a in v if a == "deadlock")),
                                      ("failed", sfail.get((topo, p, n), 0))])
                means.append(mean)
                cells.append(c)
            print("| %d | %d | %s |" % (p, len(fabs), " | ".join(cells)))
            dat.write("%d %s\n" % (p, " ".join(means)))
        dat.close()
        print()
        gp(out, "s-%s" % fname(topo), names,
           "Saturation throughput, uniform traffic, %s" % topo.upper(),
           "accepted flits/cycle/host")
        # does the static metric predict it? pooled over every (fabric,
        # routing) point, and within each fabric across routings
        q = qd.get(topo, {})
        print("Spearman rank correlation of the maximum link load with the "
              "saturation throughput (negative: a higher load predicts a lower "
              "throughput), %s:\n" % topo.upper())
        print("| metric | points | pooled ρ | fabrics | mean ρ within a fabric |")
        print("| --- | --- | --- | --- | --- |")
        sc = open(os.path.join(out, "c-%s.dat" % fname(topo)), "w")
        for i, pat in enumerate(PATS):
            xs, ys, within = [], [], []
            for key, f in d.items():
                if key not in q:
                    continue
                fx, fy = [], []
                for n, v in f.items():
                    a = num(v[0])
                    b = num(q[key][n][i]) if n in q[key] else None
                    if a is None or b is None:
                        continue
                    fx.append(b)
                    fy.append(a)
                    if pat == "a2a":
                        sc.write("%g %g\n" % (b, a))
                xs += fx
                ys += fy
                rho = spearman(fx, fy)
                if rho is not None:
                    within.append(rho)
            rho = spearman(xs, ys)
            print("| %s | %d | %s | %d | %s |" % (
                PNAME[pat], len(xs), "-" if rho is None else "%.2f" % rho, len(within),
                "-" if not within else "%.2f" % (sum(within) / len(within))))
        sc.close()
        print()
        with open(os.path.join(out, "c-%s.gp" % fname(topo)), "w") as f:
            f.write("set terminal svg size 640,420 dynamic\n")
            f.write("set output 'c-%s.svg'\n" % fname(topo))
            f.write("set title 'All-to-all max link load against saturation throughput, %s'\n"
                    % topo.upper())
            f.write("set xlabel 'all-to-all maximum link load'\n")
            f.write("set ylabel 'saturation throughput (flits/cycle/host)'\nset grid\n")
            f.write("plot 'c-%s.dat' using 1:2 with points pt 7 notitle\n" % fname(topo))


def main():
    if len(sys.argv) > 1 and sys.argv[1] == "--spearman":
        a = sys.argv[2:]
        k = a.index("--")
        r = spearman([float(v) for v in a[:k]], [float(v) for v in a[k + 1:]])
        print("-" if r is None else "%.6f" % r)
        return
    out = sys.argv[1]
    fig5(out)
    quality(out)
    sim(out)


main()
