"""Traces, runs and environments pickle, and `copy.deepcopy` of an
environment gives an independent episode at the same point; Gymnasium's
AsyncVectorEnv therefore works under the spawn and forkserver start
methods (the defaults on macOS and on Python 3.14)."""

from __future__ import annotations

import copy
import gzip
import pickle

import gymnasium
import numpy as np
import pytest

import schedlab
from schedlab.gym import SchedulingEnv

from conftest import SAMPLE


def test_a_trace_pickles_as_itself(kth, tmp_path):
    packed = tmp_path / "kth.swf.gz"
    packed.write_bytes(gzip.compress(SAMPLE.read_bytes()))
    for trace in (kth, schedlab.load(packed, first_jobs=500), schedlab.load(SAMPLE.read_bytes(), name="x.swf")):
        back = pickle.loads(pickle.dumps(trace))
        assert back.identity == trace.identity and back.header == trace.header and len(back) == len(trace)
        assert schedlab.run(back, "easy", progress=False).to_json() == schedlab.run(trace, "easy", progress=False).to_json()
    assert copy.deepcopy(kth) is kth and copy.copy(kth) is kth


def test_a_trace_whose_file_changed_is_refused_on_the_other_side(tmp_path):
    path = tmp_path / "t.swf"
    path.write_bytes(SAMPLE.read_bytes())
    trace = schedlab.load(path)
    path.write_bytes(SAMPLE.read_bytes() + b"; a comment added later\n")
    with pytest.raises(schedlab.TraceError, match="changed after it was loaded"):
        pickle.loads(pickle.dumps(trace))


def test_a_trace_from_a_file_keeps_none_of_its_bytes_after_pickling(tmp_path):
    import gc
    import tracemalloc

    path = tmp_path / "t.swf"
    path.write_bytes(SAMPLE.read_bytes() * 8)  # 2.2 MB, the jobs repeated
    trace = schedlab.load(path, machine_size=100)
    size = path.stat().st_size
    tracemalloc.start()
    try:
        before = tracemalloc.get_traced_memory()[0]
        for _ in range(2):
            back = pickle.loads(pickle.dumps(trace))
            assert back.identity == trace.identity
            del back
            gc.collect()
        kept = tracemalloc.get_traced_memory()[0] - before
    finally:
        tracemalloc.stop()
    assert kept < size / 10, f"{kept} bytes kept after pickling a {size}-byte file"


def test_a_run_pickles_as_the_same_run(kth):
    run = schedlab.run(kth, "easy:order=shortest", predictor="last", seed=3, progress=False)
    back = pickle.loads(pickle.dumps(run))
    assert back.to_json() == run.to_json()
    assert back.jobs_csv() == run.jobs_csv()
    assert dict(back.metrics) == dict(run.metrics)


def play(env, actions):
    out = []
    for a in actions:
        observation, reward, terminated, _, info = env.step(a)
        out.append((observation.tolist(), reward, terminated, info["action_mask"].tolist()))
        if terminated:
            break
    return out


@pytest.mark.parametrize("how", ["deepcopy", "pickle"])
def test_a_copy_is_an_independent_episode_at_the_same_point(kth, how):
    env = SchedulingEnv(kth, window=16, episode_jobs=60)
    env.reset(seed=7)
    rng = np.random.default_rng(0)
    play(env, rng.integers(0, 4, size=25))
    twin = copy.deepcopy(env) if how == "deepcopy" else pickle.loads(pickle.dumps(env))
    assert twin._episode is not env._episode
    later = rng.integers(0, 4, size=10_000)
    # The copy goes its own way first; the original, stepped afterwards,
    # is not moved by it and gives what the copy gave.
    theirs = play(twin, later)
    assert theirs[-1][2], "the episode ended"
    assert play(env, later) == theirs
    # Both draw the next episode's first job from the same generator state.
    assert env.reset()[1]["first_job"] == twin.reset()[1]["first_job"]


def test_a_fresh_or_ended_environment_copies_too(kth):
    env = SchedulingEnv(kth, window=4, episode_jobs=10)
    assert copy.deepcopy(env)._episode is None
    env.reset(seed=1)
    while not env.step(0)[2]:
        pass
    twin = pickle.loads(pickle.dumps(env))
    assert twin.episode_jobs_csv() == env.episode_jobs_csv()
    with pytest.raises(RuntimeError, match="reset"):
        twin.step(0)


@pytest.mark.parametrize("method", ["spawn", "forkserver"])
def test_async_vector_env_under(kth, method):
    make = lambda: SchedulingEnv(kth, window=8, episode_jobs=30)  # noqa: E731
    envs = gymnasium.vector.AsyncVectorEnv([make] * 2, context=method)
    local = gymnasium.vector.SyncVectorEnv([make] * 2)
    try:
        a, b = envs.reset(seed=2), local.reset(seed=2)
        np.testing.assert_array_equal(a[0], b[0])
        for _ in range(80):
            actions = np.zeros(2, dtype=np.int64)
            a, b = envs.step(actions), local.step(actions)
            for k in range(4):
                np.testing.assert_array_equal(a[k], b[k])
    finally:
        envs.close()
        local.close()
