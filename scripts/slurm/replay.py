#!/usr/bin/env python3
"""Replays a workload on a real Slurm cluster and records what Slurm did.

    replay.py WORKLOAD CLUSTER-DIR OUT.csv [--as-users]

Each job of the SWF workload (fields: 1 number, 2 submit second, 4 run
time, 8 processors, 9 time limit in seconds, a whole number of minutes,
12 user, 13 group) is submitted at its submit second, counted from the
start of the replay, with `sbatch --wrap "sleep RUNTIME"`, `-n PROCESSORS`
and `-t MINUTES`. A WORKLOAD that is not `.swf` is the sacct dump of
make_workload.py's cases of several nodes (JobIDRaw, Submit, ElapsedRaw,
TimelimitRaw, NCPUS, User, Group, Partition, ReqNodes): each job is also
submitted with `-N NODES` and `-p PARTITION`, and OUT.csv gets four more
columns: nodes and partition as asked, and the node list and processor
count Slurm gave the job (jobcomp's NodeList and ProcCnt). With --as-users, root submits it as the Unix user
`slu<USER>` under the account `sla<GROUP>` (`sbatch --uid`, `--account`),
for fair-share. When every job has ended, the job-completion log of the
cluster (jobcomp/filetxt) gives each job's submit, start and end times;
OUT.csv gets one line per job: number, submit, start, end, processors,
limit, user, group, with times in seconds since the first submission as
Slurm recorded it. Beside it, OUT.slurmctld.log is a copy of the
controller's log (each job's initial priority, who started it and when),
OUT.slurm.conf a copy of the cluster's slurm.conf (compare.py reads its
nodes and partitions), and OUT.params what compare.py needs to replay this run as it happened:
`time_zero`, the Unix second of the first submission (Slurm aligns some
rules on the wall clock: `_will_run_test`'s 30-second windows), and under
priority/multifactor `decay_phase`, the second past each multiple of
PriorityCalcPeriod on the Unix clock at which this slurmctld's decay
thread ran, since it runs every period from the second it started.
"""
import csv
import os
import re
import shutil
import subprocess
import sys
import time


def read_swf(path):
    jobs = []
    with open(path) as f:
        for n, line in enumerate(f, 1):
            line = line.strip()
            if not line or line.startswith(";"):
                continue
            fields = line.split()
            if len(fields) < 18:
                sys.exit(f"{path}:{n}: expected 18 fields, found {len(fields)}")
            limit = int(fields[8])
            if limit <= 0 or limit % 60:
                sys.exit(f"{path}:{n}: field 9 (time limit) must be a positive whole number of minutes in seconds, not {limit}")
            jobs.append(
                dict(id=int(fields[0]), submit=int(fields[1]), runtime=int(fields[3]), size=int(fields[7]),
                     limit=limit, user=int(fields[11]), group=int(fields[12])))
    jobs.sort(key=lambda j: (j["submit"], j["id"]))
    return jobs


SACCT_NEEDS = ["JobIDRaw", "Submit", "ElapsedRaw", "TimelimitRaw", "NCPUS", "User", "Group", "Partition", "ReqNodes"]


def read_sacct(path):
    """The jobs of a workload written as a sacct dump (make_workload.py):
    whole numbers but for the partition's name."""
    jobs = []
    with open(path) as f:
        header = f.readline().strip().split("|")
        missing = [c for c in SACCT_NEEDS if c not in header]
        if missing:
            sys.exit(f"{path}:1: the header lacks the column(s) {', '.join(missing)}")
        for n, line in enumerate(f, 2):
            if not line.strip():
                continue
            fields = line.rstrip("\n").split("|")
            if len(fields) != len(header):
                sys.exit(f"{path}:{n}: expected {len(header)} fields, found {len(fields)}")
            row = dict(zip(header, fields))
            try:
                job = dict(id=int(row["JobIDRaw"]), submit=int(row["Submit"]), runtime=int(row["ElapsedRaw"]),
                           size=int(row["NCPUS"]), limit=int(row["TimelimitRaw"]) * 60, user=int(row["User"]),
                           group=int(row["Group"]), nodes=int(row["ReqNodes"]), partition=row["Partition"])
            except ValueError as e:
                sys.exit(f"{path}:{n}: {e}")
            if job["limit"] <= 0 or not job["partition"] or not 1 <= job["nodes"] <= job["size"]:
                sys.exit(f"{path}:{n}: a job needs a positive limit, a partition and 1 to NCPUS nodes")
            jobs.append(job)
    jobs.sort(key=lambda j: (j["submit"], j["id"]))
    return jobs


def submit(job, env, as_users):
    cmd = ["sbatch", "--parsable", "-J", f"w{job['id']}", "-n", str(job["size"]), "-t", str(job["limit"] // 60),
           "-o", "/dev/null", "-D", "/tmp", "--wrap", f"sleep {job['runtime']}"]
    if "nodes" in job:
        cmd += ["-N", str(job["nodes"]), "-p", job["partition"]]
    if as_users:
        cmd += [f"--uid=slu{job['user']}", f"--account=sla{job['group']}"]
    out = subprocess.run(cmd, env=env, capture_output=True, text=True)
    if out.returncode != 0:
        sys.exit(f"sbatch failed for job {job['id']}: {out.stderr.strip()}")
    return int(out.stdout.strip().split(";")[0])


STAMP = re.compile(r"(\w+)=(\S*)")


def epoch(text):
    return int(time.mktime(time.strptime(text, "%Y-%m-%dT%H:%M:%S")))


LOG_LINE = re.compile(r"\[(\d{4}-\d\d-\d\dT\d\d:\d\d:\d\d)(?:\.\d+)?\] (.*)")


def calc_period(conf_path):
    """PriorityCalcPeriod of a slurm.conf in seconds (whole minutes; 5 by default)."""
    minutes = 5
    with open(conf_path) as f:
        for line in f:
            key, _, value = line.strip().partition("=")
            if key.lower() == "prioritycalcperiod" and value.strip().isdigit():
                minutes = int(value)
    return minutes * 60


def decay_phase(log_path, period):
    """The Unix second, modulo `period`, at which the decay thread of
    priority/multifactor started and so runs every period (`_decay_thread`
    sleeps until its start plus each period); None if the log shows no
    decay thread."""
    with open(log_path) as f:
        for line in f:
            m = LOG_LINE.match(line)
            if m and "_read_last_decay_ran" in m.group(2):
                return epoch(m.group(1)) % period
    return None


def main():
    args = [a for a in sys.argv[1:] if not a.startswith("--")]
    as_users = "--as-users" in sys.argv
    if len(args) != 3:
        sys.exit(__doc__)
    workload, cluster, out_path = args
    jobs = read_swf(workload) if workload.endswith(".swf") else read_sacct(workload)
    with_nodes = "nodes" in jobs[0] if jobs else False
    env = dict(os.environ, SLURM_CONF=os.path.join(cluster, "slurm.conf"))
    by_slurm_id = {}
    t0 = time.monotonic()
    for job in jobs:
        delay = t0 + job["submit"] - time.monotonic()
        if delay > 0:
            time.sleep(delay)
        by_slurm_id[submit(job, env, as_users)] = job
    log = os.path.join(cluster, "jobcomp.log")
    while True:
        time.sleep(2)
        done = 0
        if os.path.exists(log):
            with open(log) as f:
                done = sum(1 for line in f if line.startswith("JobId="))
        if done >= len(jobs):
            break
    records = {}
    with open(log) as f:
        for line in f:
            fields = dict(STAMP.findall(line))
            if "JobId" in fields:
                records[int(fields["JobId"])] = fields
    rows = []
    for slurm_id, job in by_slurm_id.items():
        r = records.get(slurm_id)
        if r is None or r.get("JobState") != "COMPLETED":
            sys.exit(f"job {job['id']} (Slurm {slurm_id}) did not complete: {r and r.get('JobState')}")
        rows.append((job, epoch(r["SubmitTime"]), epoch(r["StartTime"]), epoch(r["EndTime"]), r))
    first = min(row[1] for row in rows)
    with open(out_path, "w", newline="") as f:
        w = csv.writer(f)
        header = ["job", "submit", "start", "end", "procs", "limit", "user", "group"]
        w.writerow(header + (["nodes", "partition", "nodelist", "alloc_procs"] if with_nodes else []))
        for job, s, b, e, r in sorted(rows, key=lambda r: r[0]["id"]):
            row = [job["id"], s - first, b - first, e - first, job["size"], job["limit"], job["user"], job["group"]]
            if with_nodes:
                row += [job["nodes"], job["partition"], r.get("NodeList", ""), r.get("ProcCnt", "")]
            w.writerow(row)
    stem = os.path.splitext(out_path)[0]
    shutil.copyfile(os.path.join(cluster, "slurm.conf"), stem + ".slurm.conf")
    ctld_log = os.path.join(cluster, "slurmctld.log")
    shutil.copyfile(ctld_log, stem + ".slurmctld.log")
    phase = decay_phase(ctld_log, calc_period(os.path.join(cluster, "slurm.conf")))
    with open(stem + ".params", "w") as f:
        f.write(f"time_zero={first}\n")
        if phase is not None:
            f.write(f"decay_phase={phase}\n")


if __name__ == "__main__":
    main()
