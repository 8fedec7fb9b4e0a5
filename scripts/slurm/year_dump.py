#!/usr/bin/env python3
"""Makes a year of a cluster from a real trace, as SWF for
scripts/swf_to_sacct.py to turn into a Slurm accounting dump: the input
of the `slurm` policy's speed benchmark (BENCHMARKS.md).

    year_dump.py TRACE.swf[.gz] OUT.swf [--jobs N] [--days D]

The trace's jobs are laid over D days (365) by scaling their submit
times, in as many copies as it takes to reach N jobs (1,000,000), copy c
shifted by c × 977 s and given its own users and groups; sizes are divided
by copies × compression so that the offered load stays the trace's own
(load ∝ copies × compression × size), and the machine keeps the trace's
processors. The default input, LANL's CM-5 (1,024 nodes, 122,060 jobs
over two years), gives four copies compressed twice and sizes divided by
eight: 976,455 jobs on a 1,024-node machine.
"""
import argparse
import gzip
import math


def read(path):
    opener = gzip.open if path.endswith(".gz") else open
    header, jobs, procs = [], [], None
    with opener(path, "rt", errors="replace") as f:
        for line in f:
            if line.startswith(";"):
                header.append(line.rstrip("\n"))
                if "MaxProcs:" in line:
                    procs = int(line.split(":", 1)[1].split()[0])
                continue
            fields = line.split()
            if len(fields) == 18:
                jobs.append([float(x) if "." in x else int(x) for x in fields])
    return header, jobs, procs


def main():
    ap = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("trace")
    ap.add_argument("out")
    ap.add_argument("--jobs", type=int, default=1_000_000)
    ap.add_argument("--days", type=int, default=365)
    a = ap.parse_args()
    header, jobs, procs = read(a.trace)
    jobs.sort(key=lambda j: (j[1], j[0]))
    first, last = jobs[0][1], jobs[-1][1]
    span = a.days * 86400
    copies = max(1, round(a.jobs / len(jobs)))
    compression = (last - first) / span
    scale = 1 / (copies * compression)
    n = 0
    with open(a.out, "w") as out:
        for line in header:
            if not line.startswith(("; MaxJobs", "; MaxRecords", "; EndTime", "; StartTime")):
                out.write(line + "\n")
        out.write(f"; Note: year_dump.py: {copies} copies over {a.days} days, sizes x{scale:.3f}\n")
        rows = []
        for c in range(copies):
            for j in jobs:
                submit = int((j[1] - first) / compression) + c * 977
                size = j[7] if j[7] > 0 else j[4]
                if size <= 0:
                    continue
                size = min(procs, max(1, math.floor(size * scale + 0.5)))
                rows.append((submit, c, j, size))
        rows.sort(key=lambda r: (r[0], r[1], r[2][0]))
        for submit, c, j, size in rows[: a.jobs]:
            n += 1
            f = list(j)
            f[0], f[1] = n, submit
            f[4] = size if f[4] > 0 else f[4]
            f[7] = size
            f[11] = j[11] + c * 100_000 if j[11] >= 0 else -1
            f[12] = j[12] + c * 100_000 if j[12] >= 0 else -1
            out.write(" ".join(str(x) for x in f) + "\n")


if __name__ == "__main__":
    main()
