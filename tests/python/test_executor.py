"""Experiments on an executor: the points split into shards, run on a
process pool under spawn, merged by the core, give the local result byte
for byte."""

from __future__ import annotations

import multiprocessing
from concurrent.futures import Executor, Future, ProcessPoolExecutor

import pandas as pd
import pytest

import schedlab


@pytest.fixture(scope="module")
def pool():
    with ProcessPoolExecutor(2, mp_context=multiprocessing.get_context("spawn")) as p:
        yield p


def test_a_sweep_on_a_process_pool_is_the_local_sweep(kth, pool):
    args = (kth, ["easy@virtual", "fcfs"], "error", "0:40:20")
    local = schedlab.sweep(*args, repeat=2, seed=5, progress=False)
    remote = schedlab.sweep(*args, repeat=2, seed=5, executor=pool)
    pd.testing.assert_frame_equal(remote, local)
    assert len(local) > 0


def test_the_documents_are_identical_whatever_the_number_of_tasks(kth, pool):
    definition = {
        "runs": [{"policy": "easy", "predictor": "virtual"}, {"policy": "cbf"}],
        "repeat": 3,
        "seed": 1,
        "sweep": {"param": "error", "values": ["0", "50"]},
    }
    experiment = schedlab.Experiment(definition)
    # easy: 2 values × 3 repetitions; cbf takes neither the swept parameter
    # nor a seed, so it runs once.
    assert len(experiment) == 2 * 3 + 1
    local = experiment.run(kth, progress=False).to_json()
    for tasks in (1, 3, len(experiment)):
        assert experiment.run(kth, executor=pool, tasks=tasks).to_json() == local, tasks
    with pytest.raises(ValueError, match="tasks must be from 1 to the 7 points"):
        experiment.run(kth, executor=pool, tasks=8)


class Inline(Executor):
    """An executor that runs each task at once (as submitit's or Dask's
    would elsewhere) and records what it was given."""

    def __init__(self):
        self.tasks = []

    def submit(self, fn, *args, **kwargs):
        self.tasks.append(args[2])
        future = Future()
        try:
            future.set_result(fn(*args, **kwargs))
        except BaseException as e:  # noqa: BLE001 - handed to the caller
            future.set_exception(e)
        return future


def test_any_executor_and_a_compare(kth):
    inline = Inline()
    local = schedlab.compare(kth, ["fcfs", "easy", "cbf"], progress=False)
    pd.testing.assert_frame_equal(schedlab.compare(kth, ["fcfs", "easy", "cbf"], executor=inline), local)
    assert inline.tasks == ["1/3", "2/3", "3/3"]
    with pytest.raises(TypeError, match="executor"):
        schedlab.compare(kth, ["fcfs"], executor=object())
    with pytest.raises(ValueError, match="progress cannot be reported"):
        schedlab.compare(kth, ["fcfs"], executor=inline, progress=lambda *args: None)
