"""A machine of nodes from Python: ``load(nodes=…)`` and
``load(slurm_conf=…)`` read the trace for it with the command line's
readers, and ``Run.jobs`` gains what each job held (partition, nodes and
each resource). Every expected number is worked out by hand from the
request rules of docs/semantics.md."""

from __future__ import annotations

import pickle
import warnings

import pytest

import schedlab

HEAD = "JobIDRaw|Submit|Start|ElapsedRaw|TimelimitRaw|ReqCPUS|User|Partition|State|ReqTRES\n"


def dump(rows) -> bytes:
    """A Slurm dump of (id, submit offset s, elapsed s, partition, ReqTRES),
    every job with a 10-minute limit, started when submitted, completed;
    ``ReqCPUS`` (the job's cores) is the ``cpu=`` of its ReqTRES."""
    text = HEAD
    for job, submit, elapsed, partition, tres in rows:
        at = f"2024-03-01T10:{submit // 60:02}:{submit % 60:02}"
        cpus = dict(kv.split("=") for kv in tres.split(","))["cpu"]
        text += f"{job}|{at}|{at}|{elapsed}|10|{cpus}|u|{partition}|COMPLETED|{tres}\n"
    return text.encode()


# Two nodes of 4 cores and 8 GiB in `a`, one of 8 cores, 16 GiB, 2 GPUs in `b`.
NODES = "a:2x(cpu=4,mem=8G)+b:1x(cpu=8,mem=16G,gpu=2)"
JOBS = [
    (1, 0, 100, "a", "cpu=2,mem=2G,node=1"),  # 2 cores, 2,048 MiB on one node
    (2, 1, 100, "a", "cpu=4,mem=4G,node=2"),  # 4 cores over exactly 2 nodes (2 + 2 here), 2,048 MiB on each
    (3, 2, 100, "b", "cpu=4,mem=1G,node=1,gres/gpu=2"),  # 4 cores, 1,024 MiB, 2 GPUs
    # 3 cores over exactly 2 nodes and ⌈3/2⌉ = 2 MiB on each: it starts at 100 on both idle nodes, the first
    # taking all it can but one core for the second (2 + 1), as Slurm's cons_tres gives `-N 2 -n 3`.
    (4, 3, 100, "a", "cpu=3,mem=3M,node=2"),
]


def test_the_jobs_table_says_what_each_job_held():
    trace = schedlab.load(dump(JOBS), nodes=NODES)
    jobs = schedlab.run(trace, "fcfs").jobs
    # The holdings follow the per-job columns, before the datetime columns of a trace with a start time.
    columns = list(jobs.columns)
    at = columns.index("partition")
    assert columns[at : at + 5] == ["partition", "nodes", "cpu", "mem", "gpu"]
    assert columns[at + 5 :] == ["submit_time", "start_time", "end_time"]
    assert list(jobs["partition"].cat.categories) == ["a", "b"]
    assert list(jobs["partition"].astype(str)) == ["a", "a", "b", "a"]
    assert list(jobs["nodes"]) == [1, 2, 1, 2]
    assert list(jobs["cpu"]) == [2, 4, 4, 3]
    assert list(jobs["mem"]) == [2048, 4096, 1024, 4]
    assert list(jobs["gpu"]) == [0, 0, 2, 0]
    assert str(jobs["cpu"].dtype) == "uint64"


def test_a_job_of_an_exclusive_partition_holds_its_nodes_whole(tmp_path):
    conf = tmp_path / "slurm.conf"
    conf.write_text(
        "SchedulerType=sched/backfill\n"
        "NodeName=n[1-2] CPUs=4 RealMemory=1000\n"
        "PartitionName=x Nodes=n[1-2] Default=YES OverSubscribe=EXCLUSIVE\n"
    )
    with pytest.warns(UserWarning, match=r"ignored 1 line\(s\): SchedulerType \(line 1\)"):
        trace = schedlab.load(dump([(1, 0, 50, "x", "cpu=1,mem=100M,node=1")]), slurm_conf=conf)
    jobs = schedlab.run(trace, "easy").jobs
    # One core and 100 MiB asked, the whole node of 4 cores and 1,000 MiB held.
    assert (jobs["nodes"][0], jobs["cpu"][0], jobs["mem"][0]) == (1, 4, 1000)
    assert "gpu" not in jobs.columns


def test_a_trace_on_processors_has_no_resource_columns():
    trace = schedlab.load(dump(JOBS))
    assert "partition" not in schedlab.run(trace, "fcfs").jobs.columns


def test_a_trace_on_nodes_pickles_with_its_machine():
    trace = schedlab.load(dump(JOBS), nodes=NODES)
    again = pickle.loads(pickle.dumps(trace))
    assert list(schedlab.run(again, "fcfs").jobs["cpu"]) == [2, 4, 4, 3]


def test_a_bad_machine_is_refused_with_its_place(tmp_path):
    with pytest.raises(schedlab.OptionError, match=r"^load\(nodes=…\) `3x\(cpu=0\)`: "):
        schedlab.load(dump(JOBS), nodes="3x(cpu=0)")
    conf = tmp_path / "bad.conf"
    conf.write_text("NodeName=n1 CPUs=4\nPartitionName=p Nodes=n9\n")
    with pytest.raises(schedlab.OptionError, match="bad.conf"):
        schedlab.load(dump(JOBS), slurm_conf=conf)
    with pytest.raises(ValueError, match="nodes and slurm_conf cannot be used together"):
        schedlab.load(dump(JOBS), nodes=NODES, slurm_conf=conf)
    with pytest.raises(TypeError, match="nodes must be a str"):
        schedlab.load(dump(JOBS), nodes=3)
    with pytest.raises(FileNotFoundError):
        schedlab.load(dump(JOBS), slurm_conf=tmp_path / "none.conf")
    with warnings.catch_warnings():
        warnings.simplefilter("error")
        schedlab.load(dump(JOBS), nodes=NODES)  # no notes for --nodes
