#!/usr/bin/env python3
"""Replays a workload on a real Slurm cluster and records what Slurm did.

    replay.py WORKLOAD.swf CLUSTER-DIR OUT.csv [--as-users]

Each job of the SWF workload (fields: 1 number, 2 submit second, 4 run
time, 8 processors, 9 time limit in seconds, a whole number of minutes,
12 user, 13 group) is submitted at its submit second, counted from the
start of the replay, with `sbatch --wrap "sleep RUNTIME"`, `-n PROCESSORS`
and `-t MINUTES`. With --as-users, root submits it as the Unix user
`slu<USER>` under the account `sla<GROUP>` (`sbatch --uid`, `--account`),
for fair-share. When every job has ended, the job-completion log of the
cluster (jobcomp/filetxt) gives each job's submit, start and end times;
OUT.csv gets one line per job: number, submit, start, end, processors,
limit, user, group, with times in seconds since the first submission as
Slurm recorded it. Beside it, OUT.slurmctld.log is a copy of the
controller's log (each job's initial priority, who started it and when),
and OUT.params what compare.py needs to replay this run as it happened:
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


def submit(job, env, as_users):
    cmd = ["sbatch", "--parsable", "-J", f"w{job['id']}", "-n", str(job["size"]), "-t", str(job["limit"] // 60),
           "-o", "/dev/null", "-D", "/tmp", "--wrap", f"sleep {job['runtime']}"]
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
    jobs = read_swf(workload)
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
        rows.append((job, epoch(r["SubmitTime"]), epoch(r["StartTime"]), epoch(r["EndTime"])))
    first = min(submit for _, submit, _, _ in rows)
    with open(out_path, "w", newline="") as f:
        w = csv.writer(f)
        w.writerow(["job", "submit", "start", "end", "procs", "limit", "user", "group"])
        for job, s, b, e in sorted(rows, key=lambda r: r[0]["id"]):
            w.writerow([job["id"], s - first, b - first, e - first, job["size"], job["limit"], job["user"], job["group"]])
    stem = os.path.splitext(out_path)[0]
    ctld_log = os.path.join(cluster, "slurmctld.log")
    shutil.copyfile(ctld_log, stem + ".slurmctld.log")
    phase = decay_phase(ctld_log, calc_period(os.path.join(cluster, "slurm.conf")))
    with open(stem + ".params", "w") as f:
        f.write(f"time_zero={first}\n")
        if phase is not None:
            f.write(f"decay_phase={phase}\n")


if __name__ == "__main__":
    main()
