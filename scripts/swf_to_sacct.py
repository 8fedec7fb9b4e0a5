#!/usr/bin/env python3
"""Writes an SWF trace as a Slurm accounting dump (`sacct --parsable2`
with the columns docs/formats.md recommends), for timing the dump reader
against the SWF reader on the same jobs (BENCHMARKS.md).

Each job gets a `.batch` step line, as sacct prints one for every batch
job; times are ISO 8601 in UTC with a `Z`, from the header's UnixStartTime.

    python3 scripts/swf_to_sacct.py TRACE.swf[.gz] > TRACE.sacct
"""

import gzip
import sys
from datetime import datetime, timezone

COLUMNS = "JobIDRaw|JobID|Submit|Start|End|ElapsedRaw|TimelimitRaw|NCPUS|ReqCPUS|User|Group|Partition|QOS|State"
STATES = {1: "COMPLETED", 0: "FAILED", 5: "CANCELLED by 0"}


def stamp(seconds):
    return datetime.fromtimestamp(seconds, timezone.utc).strftime("%Y-%m-%dT%H:%M:%SZ")


def main(path):
    opener = gzip.open if path.endswith(".gz") else open
    start, out = 0, [COLUMNS]
    with opener(path, "rt", errors="replace") as swf:
        for line in swf:
            if line.startswith(";"):
                if "UnixStartTime:" in line:
                    start = int(line.split(":", 1)[1].split()[0])
                continue
            f = line.split()
            if len(f) != 18:
                continue
            job, submit, wait, run, alloc, req, limit, status = (int(float(f[i])) for i in (0, 1, 2, 3, 4, 7, 8, 10))
            user, group, queue, part = f[11], f[12], f[14], f[15]
            s = start + submit
            begin = s + max(wait, 0)
            limit_minutes = str((limit + 59) // 60) if limit > 0 else "UNLIMITED"
            state = STATES.get(status, "COMPLETED")
            times = f"{stamp(s)}|{stamp(begin)}|{stamp(begin + max(run, 0))}|{max(run, 0)}"
            out.append(f"{job}|{job}|{times}|{limit_minutes}|{alloc}|{req}|u{user}|g{group}|p{part}|q{queue}|{state}")
            out.append(f"{job}.batch|{job}.batch|{times}||{alloc}|{req}|||||{state}")
    sys.stdout.write("\n".join(out) + "\n")


if __name__ == "__main__":
    main(sys.argv[1])
