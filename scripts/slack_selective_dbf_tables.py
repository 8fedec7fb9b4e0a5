#!/usr/bin/env python3
"""Prints the markdown tables of docs/reproduction/slack-selective-dbf.md from the result
documents and per-job CSVs that scripts/reproduce_slack_selective_dbf.sh leaves in
target/reproduction/slack-selective-dbf/. Only reads; the simulations are the CLI's."""

import csv
import glob
import json
import math
import os
import sys

OUT, TRACES = sys.argv[1], sys.argv[2]
M = (1 << 64) - 1


def doc(name):
    with open(os.path.join(OUT, name + ".json")) as f:
        return json.load(f)


def jobs(name):
    with open(os.path.join(OUT, name + ".csv")) as f:
        return list(csv.DictReader(f))


def mean(xs):
    xs = list(xs)
    return sum(xs) / len(xs) if xs else float("nan")


def wait(row):
    return int(row["start"]) - int(row["submit"])


# ---------------------------------------------------------------- slack
PAPER_SF = {1: 2156, 3: 2004, 5: 2027, 7: 1986, 9: 1939, 11: 1956}
PAPER_H = {  # table 5: equal AWT, unequal AWT, hi-pri, lo-pri
    "ast": (2004.5, 2226.2, 1955.3, 2294.0),
    "aat": (2088.5, 2223.3, 1952.6, 2291.1),
    "dc": (2179.9, 2250.1, 1988.1, 2315.7),
    "du": (2206.0, 2279.8, 2048.9, 2337.6),
    "dp": (2120.0, 2228.5, 1962.3, 2295.1),
}


def slack_tables():
    print("### Slack factor sweep (table 2), KTH, mean wait in seconds\n")
    print("| machine | CBF | EASY | " + " | ".join(f"SF={sf}" for sf in PAPER_SF) + " |")
    print("|---|---|---|" + "---|" * len(PAPER_SF))
    print("| paper (128 procs, monthly runs, AWT = 2401) | 2401 | ≈2401 | " + " | ".join(str(v) for v in PAPER_SF.values()) + " |")
    for p in (100, 128):
        cbf, easy = doc(f"kth{p}-cbf")["metrics"]["mean_wait"], doc(f"kth{p}-easy")["metrics"]["mean_wait"]
        for cal in ("", "-cal"):
            cells = []
            for sf in PAPER_SF:
                d = doc(f"kth{p}-slack-sf{sf}{cal}")
                w = d["metrics"]["mean_wait"]
                cells.append(f"{w:.0f} ({100 * (w - cbf) / cbf:+.1f} %)")
            awt = "2401" if not cal else f"{doc(f'kth{p}-slack-sf3-cal')['calibration']['mean_wait']:.0f} (CBF-calibrated)"
            print(f"| {p} procs, AWT = {awt} | {cbf:.0f} | {easy:.0f} | " + " | ".join(cells) + " |")
    print()
    print("### Heuristics (table 5), KTH, AWT = 2401 s, SF = 3; unequal = every 5th job UP = PP = 1\n")
    print("| machine | heuristic | equal | unequal | loss vs AST-equal | hi-pri | lo-pri | gap | paper equal / unequal / hi / lo |")
    print("|---|---|---|---|---|---|---|---|---|")
    for p in (100, 128):
        base = doc(f"kth{p}-slack-ast-equal")["metrics"]["mean_wait"]
        for h, paper in PAPER_H.items():
            eq = doc(f"kth{p}-slack-{h}-equal")["metrics"]["mean_wait"]
            rows = jobs(f"kth{p}-slack-{h}-kth")
            hi = mean(wait(r) for i, r in enumerate(rows) if (i + 1) % 5 == 0)
            lo = mean(wait(r) for i, r in enumerate(rows) if (i + 1) % 5 != 0)
            un = mean(wait(r) for r in rows)
            print(
                f"| {p} | {h.upper()} | {eq:.0f} | {un:.0f} | {100 * (un - base) / base:+.1f} % | {hi:.0f} | {lo:.0f} | {lo - hi:.0f} "
                f"| {paper[0]} / {paper[1]} / {paper[2]} / {paper[3]} |"
            )
    print()


# ------------------------------------------------------------ selective
SEL = [("easy", "EASY"), ("easy_order_shortest", "SJF-EASY"), ("selective", "Sel"), ("selective_variant_sel-d", "Sel-D")]
CATS = ["SN", "SW", "LN", "LW"]


def traces():
    return sorted(os.path.basename(f)[: -len(".swf.gz")] for f in glob.glob(os.path.join(TRACES, "*.swf.gz")))


def change(x, base):
    return f"{100 * (x - base) / base:+.0f}" if base else "n/a"


def selective_tables():
    for metric, label in (("mbs", "mean bounded slowdown"), ("mean_turnaround", "mean turnaround")):
        print(f"### Category changes vs CBF, {label} (% change; negative = better)\n")
        print("| trace | load | policy | " + " | ".join(CATS) + " | overall |")
        print("|---|---|---|" + "---|" * 5)
        for t in traces():
            for load in ("1", "1.3"):
                cbf = doc(f"sel-{t}-{load}-cbf")["metrics"]
                for tag, name in SEL:
                    m = doc(f"sel-{t}-{load}-{tag}")["metrics"]
                    cells = [change(m["categories"][k][metric], cbf["categories"][k][metric]) for k in range(4)]
                    overall = m[metric] if metric == "mbs" else m["mean_turnaround"]
                    base = cbf[metric] if metric == "mbs" else cbf["mean_turnaround"]
                    print(f"| {t} | {load} | {name} | " + " | ".join(cells) + f" | {change(overall, base)} |")
        print()
    print("### Thresholds used (calibrated from CBF: mean BSD of well-estimated jobs)\n")
    print("| trace | load | Sel | Sel-D SN | SW | LN | LW |")
    print("|---|---|---|---|---|---|---|")
    for t in traces():
        for load in ("1", "1.3"):
            c = doc(f"sel-{t}-{load}-selective")["calibration"]
            by = c["well_estimated_bsd_by_category"]
            print(f"| {t} | {load} | {c['well_estimated_bsd']:.2f} | " + " | ".join(f"{v:.2f}" for v in by) + " |")
    print("| paper (table 8, user estimates) | | 3.92 | 3.55 | 21.53 | 1.35 | 2.27 |")
    print()
    print("### Fair-slowdown fairness (table 9): % of jobs whose slowdown is within x times their fair slowdown\n")
    print("| trace | load | policy | ≤1 | 1–1.5 | 1.5–2 | 2–4 | >4 |")
    print("|---|---|---|---|---|---|---|---|")
    print("| paper (SDSC, high load) | | EASY | 90.46 | 7.20 | 1.28 | 0.76 | 0.30 |")
    print("| | | SJF-EASY | 91.08 | 5.24 | 1.16 | 1.18 | 1.34 |")
    print("| | | Sel | 93.48 | 3.98 | 0.78 | 0.94 | 0.82 |")
    print("| | | Sel-D | 93.22 | 4.64 | 0.92 | 0.88 | 0.34 |")
    for t in traces():
        for load in ("1", "1.3"):
            for tag, name in [("cbf", "CBF")] + SEL:
                rows = doc(f"sel-{t}-{load}-{tag}")["metrics"]["fair_slowdown"]["rows"]
                print(f"| {t} | {load} | {name} | " + " | ".join(f"{r['percent']:.2f}" for r in rows) + " |")
    print()


# ------------------------------------------------------------------ dbf
def splitmix(seed):
    z = (seed + 0x9E3779B97F4A7C15) & M
    z = ((z ^ (z >> 30)) * 0xBF58476D1CE4E5B9) & M
    z = ((z ^ (z >> 27)) * 0x94D049BB133111EB) & M
    z ^= z >> 31
    return (z >> 11) * (1.0 / (1 << 53))


def deadline(row, fraction, seed=0):
    job = int(row["job"])
    if splitmix(seed ^ ((job * 0x9E3779B97F4A7C15) & M)) >= fraction:
        return None
    return int(row["submit"]) + max(86400, math.ceil(10 * int(row["estimate"])))


def dbf_tables():
    print("### DBF: mean wait of regular jobs (figure 2) and of all jobs (figure 4), minutes\n")
    print("Regular jobs: those regular under DBF at that share; as in the paper, regular jobs that waited 0 under all three")
    print("algorithms are left out of the regular means (the all-jobs means keep every job).\n")
    print("| trace | share | regular CBF | regular EASY | regular DBF | all CBF | all EASY | all DBF | regular mean stretch CBF / EASY / DBF |")
    print("|---|---|---|---|---|---|---|---|---|")
    for t in traces():
        cbf, easy = jobs(f"dbf-{t}-cbf"), jobs(f"dbf-{t}-easy")
        for pct in (20, 40, 60, 80):
            dbf = jobs(f"dbf-{t}-{pct}")
            regular = [i for i, r in enumerate(dbf) if deadline(r, pct / 100) is None]
            d = doc(f"dbf-{t}-{pct}")["metrics"]["deadline"]
            assert d["regular_jobs"] == len(regular), (t, pct, d["regular_jobs"], len(regular))
            kept = [i for i in regular if wait(cbf[i]) or wait(easy[i]) or wait(dbf[i])]
            cells = [mean(wait(run[i]) for i in kept) / 60 for run in (cbf, easy, dbf)]
            alls = [mean(wait(r) for r in run) / 60 for run in (cbf, easy, dbf)]
            st = [mean((wait(run[i]) + int(run[i]["estimate"])) / max(int(run[i]["estimate"]), 1) for i in kept) for run in (cbf, easy, dbf)]
            print(f"| {t} | {pct} % | " + " | ".join(f"{c:.1f}" for c in cells + alls) + " | " + " / ".join(f"{s:.2f}" for s in st) + " |")
    print()
    print("### DBF: deadline violations (figure 6) and mean deadline usage (figure 7)\n")
    print("Usage = (completion − submit) / (deadline − submit), over deadline-driven jobs that did not start at submission.\n")
    print("| trace | share | deadline-driven jobs | violations (24 h deadline) | violations (10 × estimate) | mean usage (delayed jobs) | started at submission |")
    print("|---|---|---|---|---|---|---|")
    for t in traces():
        for pct in (20, 40, 60, 80):
            dbf = jobs(f"dbf-{t}-{pct}")
            d = doc(f"dbf-{t}-{pct}")["metrics"]["deadline"]
            short = long_ = at_once = 0
            for r in dbf:
                dl = deadline(r, pct / 100)
                if dl is None:
                    continue
                at_once += wait(r) == 0
                if int(r["end"]) > dl:
                    if dl - int(r["submit"]) == 86400:
                        short += 1
                    else:
                        long_ += 1
            assert short + long_ == d["violations"]
            print(
                f"| {t} | {pct} % | {d['jobs']} | {short} | {long_} | {100 * d['mean_usage_delayed']:.1f} % | "
                f"{100 * at_once / max(d['jobs'], 1):.0f} % |"
            )
    print()


print("# Slack, selective, DBF: regenerated tables\n")
print("Written by `bash scripts/reproduce.sh` (through `scripts/reproduce_slack_selective_dbf.sh`); "
      "the discussion is in [slack-selective-dbf.md](slack-selective-dbf.md).\n")
slack_tables()
selective_tables()
dbf_tables()
