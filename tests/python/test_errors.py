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

KINDS = ["TraceError", "OptionError", "PolicyError", "ExperimentError", "LinkError", "MergeError", "RunError", "OutputError"]


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
    with pytest.raises(schedlab.OptionError, match="machine_size"):
        schedlab.load(b"1 0 -1 10 1 -1 -1 1 10 -1 1 1 1 -1 -1 -1 -1 -1\n", machine_size=0)
    with pytest.raises(schedlab.PolicyError, match="policy"):
        schedlab.run(kth, "easy:@", progress=False)
    with pytest.raises(schedlab.ExperimentError, match="repeat"):
        schedlab.compare(kth, ["fcfs"], repeat=0, progress=False)
    with pytest.raises(schedlab.LinkError):
        schedlab.Experiment.from_link("#v2=bm90IGpzb24")
    with pytest.raises(schedlab.MergeError, match="nothing to merge"):
        schedlab._core.merge_shards([])
    with pytest.raises(schedlab.ExperimentError, match="sweep"):
        schedlab.sweep(kth, ["easy@virtual"], "error", "5:1:1", progress=False)


def _load_garbage() -> None:
    schedlab.load(b"garbage\n")


def test_an_error_in_a_worker_process_reaches_the_parent_as_itself():
    with ProcessPoolExecutor(1, mp_context=multiprocessing.get_context("spawn")) as pool:
        with pytest.raises(schedlab.TraceError, match="no valid job"):
            pool.submit(_load_garbage).result()
