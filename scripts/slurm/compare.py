#!/usr/bin/env python3
"""Compares Schedlab's `slurm` policy with real Slurm runs of one workload.

    compare.py --schedlab BIN --params 'k=v k=v' [--policy ID ...] \
               [--without-slurm] [--markdown OUT.md] [--check] REAL.csv [REAL.csv ...]

Each REAL.csv is what scripts/slurm/replay.py recorded of one real run of
the same workload (job, submit, start, end, procs, limit, user, group;
on several nodes also nodes, partition, nodelist, alloc_procs).
For each real run, Schedlab replays the same jobs as Slurm recorded them
(submit times and run times as logged, the limit as the estimate) under
`slurm` with the given parameters (those of the cluster's slurm.conf), and
under any other --policy for context. The table compares waits job by job:
how many jobs are within 2 s, the median |difference| of wait, and the
mean wait. The real runs are first compared with each other: their spread
is the floor no simulator can beat. A file REAL.params beside a REAL.csv
(written by replay.py) gives what that run's own clocks were: with
`time_zero=S` (the Unix second of the record's time 0) the jobs are
replayed on the Unix clock, as Slurm aligns some rules on it
(`_will_run_test`'s 30-second windows); its other lines are the `slurm`
policy's parameters for that run alone (`decay_phase`, which depends on
the second its slurmctld started). A record of several nodes is replayed
from a sacct dump (the jobs' nodes and partitions, which SWF cannot hold)
on the machine of its cluster's slurm.conf, REAL.slurm.conf beside it
(`schedlab run --slurm-conf`).

With --without-slurm only the --policy rows are made, for a machine the
`slurm` policy does not model yet (it would plan the nodes as one, and its
rows would compare that with Slurm).

With --check the script fails (exit 1) unless, for every real run,
Schedlab's mean wait lies in the real runs' range widened by 5 % and its
median |difference| is no larger than the largest median between two real
runs (SPEC 11a; thresholds from the real runs, not from Schedlab).
"""
import argparse
import csv
import itertools
import os
import statistics
import subprocess
import sys
import tempfile


# The columns of a record that are not whole numbers.
TEXT_COLUMNS = {"partition", "nodelist"}


def read_real(path):
    with open(path) as f:
        rows = list(csv.DictReader(f))
    if not rows:
        sys.exit(f"{path}: no job")
    out = {}
    for n, r in enumerate(rows, 2):
        try:
            job = {k: v if k in TEXT_COLUMNS else int(v) for k, v in r.items()}
        except (TypeError, ValueError):
            sys.exit(f"{path}:{n}: a field that should be a whole number is not: {r}")
        out[job["job"]] = job
    return out


def waits(run):
    return {j: r["start"] - r["submit"] for j, r in run.items()}


def write_swf(run, path, procs, time_zero=0):
    with open(path, "w") as f:
        f.write(f"; MaxProcs: {procs}\n")
        for j in sorted(run, key=lambda j: (run[j]["submit"], j)):
            r = run[j]
            runtime = r["end"] - r["start"]
            # The limit is the estimate; a job never runs past it, and Slurm
            # logs whole seconds, so a run time rounded up to the limit is kept.
            f.write(f"{j} {r['submit'] + time_zero} -1 {min(runtime, r['limit'])} {r['procs']} -1 -1 {r['procs']} {r['limit']} -1 1 "
                    f"{r['user']} {r['group']} -1 1 1 -1 -1\n")


SACCT_COLUMNS = "JobIDRaw|JobID|Submit|Start|End|ElapsedRaw|TimelimitRaw|NCPUS|ReqCPUS|User|Group|Partition|QOS|State|NNodes|ReqNodes"


def write_sacct(run, path, time_zero=0):
    """A record of several nodes as the sacct dump `schedlab run` reads:
    times in Unix seconds, each job's nodes and partition as it asked."""
    with open(path, "w") as f:
        f.write(SACCT_COLUMNS + "\n")
        for j in sorted(run, key=lambda j: (run[j]["submit"], j)):
            r = run[j]
            runtime = min(r["end"] - r["start"], r["limit"])
            start = r["start"] + time_zero
            f.write(f"{j}|{j}|{r['submit'] + time_zero}|{start}|{start + runtime}|{runtime}|{r['limit'] // 60}|"
                    f"{r['procs']}|{r['procs']}|{r['user']}|{r['group']}|{r['partition']}|normal|COMPLETED|"
                    f"{r['nodes']}|{r['nodes']}\n")


def write_trace(run, record_path, path_stem, procs, time_zero):
    """The trace Schedlab replays for one record, and the extra arguments
    it needs: an SWF on one node, or a sacct dump on its cluster's nodes."""
    if "nodes" not in next(iter(run.values())):
        write_swf(run, path_stem + ".swf", procs, time_zero)
        return path_stem + ".swf", []
    conf = os.path.splitext(record_path)[0] + ".slurm.conf"
    if not os.path.exists(conf):
        sys.exit(f"{record_path}: a record of several nodes needs its cluster's slurm.conf at {conf}")
    write_sacct(run, path_stem + ".txt", time_zero)
    return path_stem + ".txt", ["--slurm-conf", conf]


def simulate(binary, swf, policy, params, workdir, extra_args=()):
    out = os.path.join(workdir, "jobs.csv")
    cmd = [binary, "run", swf, "--policy", policy, "--jobs-csv", out, "--quiet", *extra_args]
    for p in params:
        cmd += ["--param", p]
    done = subprocess.run(cmd, capture_output=True, text=True)
    if done.returncode != 0:
        sys.exit(f"{' '.join(cmd)} failed:\n{done.stderr}")
    with open(out) as f:
        waits = {int(r["job"]): int(r["start"]) - int(r["submit"]) for r in csv.DictReader(f)}
    # What it said of the jobs it dropped: its warnings and its cleaning line.
    said = done.stderr + "".join(line + "\n" for line in done.stdout.splitlines() if line.startswith("cleaning"))
    return waits, said


def require_every_job(w, jobs, what, stderr):
    """Stops when Schedlab did not run every job of the record (a job it
    dropped, such as one larger than the machine), naming them and
    quoting what Schedlab said."""
    missing = sorted(jobs - set(w))
    if missing:
        sys.exit(f"{what}: Schedlab did not run job(s) {', '.join(map(str, missing))} of the record; it said:\n{stderr}")


def run_clocks(path):
    """One real run's own clocks beside its record (REAL.params): its
    time zero on the Unix clock (0 if unknown) and the `slurm` policy's
    parameters for it alone."""
    extra = os.path.splitext(path)[0] + ".params"
    if not os.path.exists(extra):
        return 0, []
    time_zero, params = 0, []
    with open(extra) as f:
        for word in f.read().split():
            key, _, value = word.partition("=")
            if key == "time_zero":
                if not value.isdigit():
                    sys.exit(f"{extra}: time_zero must be a Unix second, not {value!r}")
                time_zero = int(value)
            else:
                params.append(word)
    return time_zero, params


def against(w, ref):
    diffs = [abs(w[j] - ref[j]) for j in ref]
    return sum(d <= 2 for d in diffs), statistics.median(diffs)


def main():
    ap = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("--schedlab", required=True)
    ap.add_argument("--params", default="", help="space-separated KEY=VALUE of the slurm policy")
    ap.add_argument("--policy", action="append", default=[], help="another policy for context (ID or ID:k=v,...)")
    ap.add_argument("--procs", type=int, default=64)
    ap.add_argument("--markdown")
    ap.add_argument("--check", action="store_true")
    ap.add_argument("--without-slurm", action="store_true", help="omit the slurm policy's rows")
    ap.add_argument("real", nargs="+")
    a = ap.parse_args()
    if a.check and a.without_slurm:
        sys.exit("--check checks the slurm policy, which --without-slurm leaves out")
    runs = [read_real(p) for p in a.real]
    jobs = set(runs[0])
    if any(set(r) != jobs for r in runs):
        sys.exit("the real runs do not hold the same jobs")
    real_waits = [waits(r) for r in runs]
    means = [statistics.mean(w.values()) for w in real_waits]
    lines = ["| against real run | jobs within 2 s | median \\|Δ wait\\| | mean wait |", "|---|---|---|---|"]
    for i, m in enumerate(means, 1):
        lines.append(f"| real run {i} itself | — | — | {m:.1f} s |")
    pair_medians = []
    for (i, wi), (k, wk) in itertools.combinations(enumerate(real_waits, 1), 2):
        within, med = against(wi, wk)
        pair_medians.append(med)
        lines.append(f"| real run {i} vs real run {k} | {within} of {len(jobs)} | {med:g} s | — |")
    floor = max(pair_medians) if pair_medians else 0
    low, high = min(means) * 0.95, max(means) * 1.05
    ok = True
    params = a.params.split()
    contexts = ([] if a.without_slurm else [("slurm", params)]) + [(p.split(":")[0], p.split(":", 1)[1].split(",") if ":" in p else []) for p in a.policy]
    with tempfile.TemporaryDirectory() as tmp:
        for name, ps in contexts:
            for i, run in enumerate(runs, 1):
                time_zero, own = run_clocks(a.real[i - 1])
                trace, extra = write_trace(run, a.real[i - 1], os.path.join(tmp, f"real{i}"), a.procs, time_zero)
                w, said = simulate(a.schedlab, trace, name, ps + (own if name == "slurm" else []), tmp, extra)
                require_every_job(w, jobs, f"{a.real[i - 1]} under {name}", said)
                within, med = against(w, real_waits[i - 1])
                mean = statistics.mean(w[j] for j in jobs)
                lines.append(f"| Schedlab `{name}` vs real run {i} | {within} of {len(jobs)} | {med:g} s | {mean:.1f} s |")
                if name == "slurm" and not (low <= mean <= high and med <= floor):
                    ok = False
                    print(f"real run {i}: Schedlab's mean wait {mean:.1f} s (real range widened: {low:.1f}–{high:.1f} s), "
                          f"median |Δ| {med:g} s (real-vs-real at most {floor:g} s)", file=sys.stderr)
    table = "\n".join(lines) + "\n"
    sys.stdout.write(table)
    if a.markdown:
        with open(a.markdown, "w") as f:
            f.write(table)
    if a.check:
        print("fidelity: " + ("within the real runs' spread" if ok else "OUTSIDE the real runs' spread"))
        sys.exit(0 if ok else 1)


if __name__ == "__main__":
    main()
