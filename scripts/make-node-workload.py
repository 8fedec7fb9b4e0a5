#!/usr/bin/env python3
"""Turns an SWF trace into a Slurm accounting dump for a machine of nodes
(BENCHMARKS.md, "A machine of nodes"): each job of s processors on the
trace's P-processor machine asks for ceil(s * NODES / P) nodes, each with
C cores (16, 32, 48 or 64 by job number), 3 GiB of memory per core, and,
for every fourth job, 1 to 4 GPUs per node. The same dump read with
--procs NODES*64 is the processor-model run of the same jobs.

    python3 scripts/make-node-workload.py TRACE.swf[.gz] NODES > nodes.sacct
"""
import gzip
import math
import sys
import time

path, nodes_total = sys.argv[1], int(sys.argv[2])
opener = gzip.open if path.endswith(".gz") else open
base = 1704067200  # 2024-01-01T00:00:00 UTC
out = sys.stdout
out.write("JobIDRaw|Submit|Start|ElapsedRaw|TimelimitRaw|ReqCPUS|User|Partition|State|ReqTRES\n")
procs = None
with opener(path, "rt") as f:
    for line in f:
        if line.startswith(";"):
            if "MaxProcs:" in line:
                procs = int(line.split("MaxProcs:")[1].split()[0])
            continue
        fields = line.split()
        if len(fields) != 18:
            continue
        job, submit, runtime = int(fields[0]), int(float(fields[1])), int(float(fields[3]))
        size = int(fields[7]) if int(fields[7]) > 0 else int(fields[4])
        limit = int(float(fields[8]))
        if size <= 0 or runtime < 0 or procs is None:
            continue
        nodes = min(nodes_total, math.ceil(size * nodes_total / procs))
        cores = 16 * (1 + job % 4)
        gpus = (1 + (job // 4) % 4) * nodes if job % 4 == 0 else 0
        minutes = max(1, math.ceil(limit / 60)) if limit > 0 else max(1, math.ceil(runtime / 60))
        stamp = time.strftime("%Y-%m-%dT%H:%M:%S", time.gmtime(base + submit))
        tres = f"cpu={nodes * cores},mem={nodes * cores * 3}G,node={nodes}"
        if gpus:
            tres += f",gres/gpu={gpus}"
        out.write(f"{job}|{stamp}|{stamp}|{runtime}|{minutes}|{nodes * cores}|u{fields[11]}||COMPLETED|{tres}\n")
