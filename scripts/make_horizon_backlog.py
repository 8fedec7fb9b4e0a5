#!/usr/bin/env python3
"""Writes a 100,000-job SWF backlog on which EASY's priority-order backfill
under a learning runtime source (`last`, `tsafrir`) reads the whole queue at
every pass (docs/decisions.md, "Scale under load").

All jobs arrive at t = 0 on 128 processors:
- job 1 takes 64 processors for 1,000,000 s, and job 2 (128 processors)
  waits behind it, so the shadow time is 1,000,000 s away and no processor
  is extra;
- then `LONG` jobs of 1 to 32 processors, from 1000 users, each estimated
  at 2,000,000 s or more: they fit the free processors but every prediction
  is past the shadow time, so none may backfill;
- then one-processor jobs of 1000 to 1999 s from 100 other users, which
  backfill, 64 at a time, and end at spread-out times.

Each of those ends is a pass whose first backfill query walks every long
job (each tested with its current prediction) before it reaches a short
one. With `estimate` the index prunes the long jobs by prediction instead.
Usage: make_horizon_backlog.py OUT.swf
"""

import sys

JOBS = 100_000
LONG = 90_000
PROCS = 128


def line(job, runtime, size, estimate, user):
    # id submit wait runtime procs cpu mem req_procs req_time req_mem
    # status user group app queue partition preceding think
    return f"{job} 0 -1 {runtime} {size} -1 -1 {size} {estimate} -1 1 {user} 1 -1 -1 -1 -1 -1\n"


def main():
    if len(sys.argv) != 2:
        sys.exit("usage: make_horizon_backlog.py OUT.swf")
    with open(sys.argv[1], "w") as out:
        out.write(f"; MaxProcs: {PROCS}\n; MaxNodes: {PROCS}\n")
        out.write(line(1, 1_000_000, 64, 1_000_000, 1))
        out.write(line(2, 1_000, PROCS, 1_000, 1))
        for i in range(LONG):
            estimate = 2_000_000 + (i * 7919) % 2_000_000
            out.write(line(3 + i, estimate // 2, 1 + i % 32, estimate, 2 + i % 1000))
        for i in range(JOBS - LONG - 2):
            runtime = 1_000 + (i * 7) % 1_000
            out.write(line(3 + LONG + i, runtime, 1, runtime, 2001 + i % 100))


if __name__ == "__main__":
    main()
