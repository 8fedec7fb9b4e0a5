#!/usr/bin/env python3
"""Writes the seeded workloads replayed on real Slurm (docs/slurm.md).

    make_workload.py NAME OUT.swf

NAME is one of the cases below. Each is a list of jobs drawn from a
seeded generator, so the same name always gives the same file. Times are
short enough to replay in minutes, long enough (tens of seconds) that
Slurm's launch jitter of about a second is small beside them. Time
limits are whole minutes, as Slurm keeps them.
"""
import random
import sys

SIZES = [1, 2, 4, 8, 12, 16, 24, 32, 48, 64]
WEIGHTS = [14, 10, 10, 10, 6, 8, 5, 5, 3, 4]


def jobs(seed, count, span, runtimes, users):
    """`count` jobs submitted over `span` seconds; runtimes uniform in the
    range; limits one to three minutes above the runtime's minute;
    `users` lists (user, group) pairs, drawn at random."""
    rng = random.Random(seed)
    submits = sorted(rng.randrange(span) for _ in range(count))
    out = []
    for n, submit in enumerate(submits, 1):
        runtime = rng.randint(*runtimes)
        size = rng.choices(SIZES, WEIGHTS)[0]
        limit = (runtime // 60 + rng.randint(1, 3)) * 60
        user, group = rng.choice(users)
        out.append((n, submit, runtime, size, limit, user, group))
    return out


CASES = {
    # One node of 64 cores, priority/basic: the main scheduler and backfill.
    "basic": lambda: jobs(1, 60, 300, (15, 90), [(1, 1)]),
    # One node of 64 cores, multifactor priority with age, fair-share and
    # size: three users in two accounts, one of them submitting most jobs.
    "multifactor": lambda: jobs(2, 60, 300, (15, 90), [(1, 1), (1, 1), (1, 1), (2, 1), (3, 2)]),
    # The small case of the test command: a queue of a few jobs, two minutes.
    "smoke": lambda: jobs(3, 14, 30, (10, 40), [(1, 1)]),
}


def main():
    if len(sys.argv) != 3 or sys.argv[1] not in CASES:
        sys.exit(f"usage: make_workload.py {{{','.join(CASES)}}} OUT.swf")
    with open(sys.argv[2], "w") as f:
        f.write(f"; Schedlab's real-Slurm case `{sys.argv[1]}` (scripts/slurm/make_workload.py)\n; MaxProcs: 64\n")
        for n, submit, runtime, size, limit, user, group in CASES[sys.argv[1]]():
            f.write(f"{n} {submit} -1 {runtime} {size} -1 -1 {size} {limit} -1 1 {user} {group} -1 1 1 -1 -1\n")


if __name__ == "__main__":
    main()
