#!/usr/bin/env python3
"""Writes the seeded workloads replayed on real Slurm (docs/slurm.md).

    make_workload.py NAME OUT

NAME is one of the cases below. Each is a list of jobs drawn from a
seeded generator, so the same name always gives the same file. Times are
short enough to replay in minutes, long enough (tens of seconds) that
Slurm's launch jitter of about a second is small beside them. Time
limits are whole minutes, as Slurm keeps them.

The cases of one node are SWF files. The case of several nodes, `nodes`,
is a small sacct dump (`sacct --parsable2` columns, which `schedlab run`
reads): SWF has no field for the number of nodes a job asks, and its
partition field is a number, where the dump names each job's partition as
slurm.conf does (docs/decisions.md). Its times are seconds from the start
of the replay; Start is the submission and End the submission plus the
run time, since a workload has not run yet: replay.py reads only Submit,
ElapsedRaw, TimelimitRaw, NCPUS, ReqNodes, Partition, User and Group.
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


# The jobs of `nodes` as (nodes, cores) on nodes of 16 cores: one node
# shared by jobs of a few cores, whole nodes, and jobs spread over several
# nodes with the cores split evenly (so that the split is the job's ask).
NODE_SHAPES = [(1, 1), (1, 2), (1, 4), (1, 8), (1, 16), (2, 8), (2, 16), (2, 32), (3, 24), (3, 48), (4, 32), (4, 64)]
NODE_WEIGHTS = [10, 8, 8, 8, 6, 5, 5, 5, 3, 3, 2, 2]
# The partition `short` has two of the four nodes and a limit of two minutes.
SHORT_NODES, SHORT_MINUTES = 2, 2


def node_jobs(seed, count, span, runtimes, short_share):
    """`count` jobs over `span` seconds on four nodes in two partitions:
    each job is in `short` with probability `short_share` (then at most
    its two nodes and a limit of at most two minutes), else in `batch`
    (any shape, limits one to three minutes above the runtime's minute)."""
    rng = random.Random(seed)
    submits = sorted(rng.randrange(span) for _ in range(count))
    short_shapes = [(s, w) for s, w in zip(NODE_SHAPES, NODE_WEIGHTS) if s[0] <= SHORT_NODES]
    out = []
    for n, submit in enumerate(submits, 1):
        runtime = rng.randint(*runtimes)
        if rng.random() < short_share:
            partition = "short"
            nodes, cores = rng.choices([s for s, _ in short_shapes], [w for _, w in short_shapes])[0]
            minutes = rng.randint(runtime // 60 + 1, SHORT_MINUTES)
        else:
            partition = "batch"
            nodes, cores = rng.choices(NODE_SHAPES, NODE_WEIGHTS)[0]
            minutes = runtime // 60 + rng.randint(1, 3)
        out.append((n, submit, runtime, nodes, cores, minutes * 60, partition))
    return out


SACCT_COLUMNS = "JobIDRaw|JobID|Submit|Start|End|ElapsedRaw|TimelimitRaw|NCPUS|ReqCPUS|User|Group|Partition|QOS|State|NNodes|ReqNodes"


def write_sacct(f, jobs):
    """The jobs of a case of several nodes as the sacct dump described above."""
    f.write(SACCT_COLUMNS + "\n")
    for n, submit, runtime, nodes, cores, limit, partition in jobs:
        f.write(f"{n}|{n}|{submit}|{submit}|{submit + runtime}|{runtime}|{limit // 60}|{cores}|{cores}|1|1|"
                f"{partition}|normal|COMPLETED|{nodes}|{nodes}\n")


NODE_CASES = {
    # Four nodes of 16 cores, `batch` on all four and `short` on the last
    # two, priority/basic: jobs of several nodes, jobs of a few cores
    # sharing a node, and `short` full while `batch` has room.
    "nodes": lambda: node_jobs(4, 60, 300, (15, 90), 0.4),
}

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
    names = list(CASES) + list(NODE_CASES)
    if len(sys.argv) != 3 or sys.argv[1] not in names:
        sys.exit(f"usage: make_workload.py {{{','.join(names)}}} OUT")
    if sys.argv[1] in NODE_CASES:
        with open(sys.argv[2], "w") as f:
            write_sacct(f, NODE_CASES[sys.argv[1]]())
        return
    with open(sys.argv[2], "w") as f:
        f.write(f"; Schedlab's real-Slurm case `{sys.argv[1]}` (scripts/slurm/make_workload.py)\n; MaxProcs: 64\n")
        for n, submit, runtime, size, limit, user, group in CASES[sys.argv[1]]():
            f.write(f"{n} {submit} -1 {runtime} {size} -1 -1 {size} {limit} -1 1 {user} {group} -1 1 1 -1 -1\n")


if __name__ == "__main__":
    main()
