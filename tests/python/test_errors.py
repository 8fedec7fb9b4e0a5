"""The exception hierarchy: one class per kind of the core's errors, all
under SchedlabError (a ValueError), in the module `schedlab`, and
picklable, so that an error raised in a worker process reaches its parent
as itself."""

from __future__ import annotations

import multiprocessing
import pickle
from concurrent.futures import ProcessPoolExecutor

import pytest

import schedlab
import schedlab.gym

from conftest import SAMPLE

KINDS = [
    "TraceError",
    "LimitError",
    "OptionError",
    "PolicyError",
    "ExperimentError",
    "LinkError",
    "MergeError",
    "RunError",
    "CancelledError",
    "ExportError",
    "StateError",
]


def test_every_kind_of_the_core_has_its_class():
    kinds = schedlab._core.ERROR_KINDS
    assert sorted(kinds) == sorted(k[: -len("Error")].lower() for k in KINDS)
    assert all(getattr(schedlab, cls.__name__) is cls for cls in kinds.values())


@pytest.mark.parametrize("name", ["SchedlabError", *KINDS])
def test_every_kind_is_a_schedlab_error_of_module_schedlab_and_pickles(name):
    cls = getattr(schedlab, name)
    assert issubclass(cls, schedlab.SchedlabError) and issubclass(cls, ValueError)
    assert cls.__module__ == "schedlab" and cls.__name__ == name
    assert name in schedlab.__all__
    back = pickle.loads(pickle.dumps(cls("what went wrong")))
    assert type(back) is cls and str(back) == "what went wrong"


def test_each_kind_is_raised_for_its_own_errors(kth):
    with pytest.raises(schedlab.TraceError, match="no valid job"):
        schedlab.load(b"this is not a trace\n")
    with pytest.raises(schedlab.TraceError, match="machine_size"):
        schedlab.load(b"1 0 -1 10 1 -1 -1 1 10 -1 1 1 1 -1 -1 -1 -1 -1\n", machine_size=0)
    with pytest.raises(schedlab.LimitError, match="job limit"):
        schedlab.load(SAMPLE, max_jobs=10)
    with pytest.raises(schedlab.OptionError, match="nothing after `@`"):
        schedlab.run(kth, "easy@", progress=False)
    with pytest.raises(schedlab.ExperimentError, match="repeat"):
        schedlab.compare(kth, ["fcfs"], repeat=0, progress=False)
    with pytest.raises(schedlab.LinkError):
        schedlab.Experiment.from_link("#v2=bm90IGpzb24")
    with pytest.raises(schedlab.MergeError, match="nothing to merge"):
        schedlab._core.merge_shards([])
    with pytest.raises(schedlab.OptionError, match="sweep"):
        schedlab.sweep(kth, ["easy@virtual"], "error", "5:1:1", progress=False)
    env = schedlab.gym.SchedulingEnv(kth, window=4, episode_jobs=5)
    env.reset(seed=0)
    while not env.step(0)[2]:
        pass
    with pytest.raises(schedlab.StateError, match="already taken"):
        env._episode.result()


def _load_garbage() -> None:
    schedlab.load(b"garbage\n")


def test_an_error_in_a_worker_process_reaches_the_parent_as_itself():
    with ProcessPoolExecutor(1, mp_context=multiprocessing.get_context("spawn")) as pool:
        with pytest.raises(schedlab.TraceError, match="no valid job"):
            pool.submit(_load_garbage).result()
