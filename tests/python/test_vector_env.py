"""The vector environment against Gymnasium's own SyncVectorEnv over the
same environments (every observation, reward, termination and info, step
for step, through autoresets), the declared spaces (every observation lies
in them, even for malformed user numbers, and Gymnasium's checker, with
its warnings as errors, agrees), and the window's bound."""

from __future__ import annotations

import warnings

import gymnasium
import numpy as np
import pytest

import schedlab
from schedlab.gym import MAX_WINDOW, SchedulingEnv, VectorSchedulingEnv

# Users -7 and -2 are malformed SWF user numbers; job 3 has no user (-1).
ODD_USERS = b"""; MaxProcs: 4
1 0 -1 100 4 -1 -1 4 100 -1 1 -7 1 -1 -1 -1 -1 -1
2 10 -1 50 3 -1 -1 3 50 -1 1 -2 2 -1 -1 -1 -1 -1
3 20 -1 10 2 -1 -1 2 10 -1 1 -1 3 -1 -1 -1 -1 -1
4 30 -1 10 1 -1 -1 1 10 -1 1 5 3 -1 -1 -1 -1 -1
"""


def compare_infos(mine, theirs, where):
    assert sorted(mine) == sorted(theirs), where
    for key, value in theirs.items():
        if isinstance(value, dict):
            compare_infos(mine[key], value, f"{where}[{key}]")
        else:
            np.testing.assert_array_equal(mine[key], value, err_msg=f"{where}[{key}]")
            assert np.asarray(mine[key]).dtype == np.asarray(value).dtype, f"{where}[{key}]"


@pytest.mark.parametrize("mode,backfill,threads", [("pick", "easy", 1), ("inspect", "none", 1), ("pick", "easy", 3)])
def test_it_is_sync_vector_env_step_for_step(kth, mode, backfill, threads):
    n, window = 5, 16
    kwargs = dict(mode=mode, window=window, backfill=backfill, episode_jobs=40)
    mine = VectorSchedulingEnv(kth, n, threads=threads, **kwargs)
    theirs = gymnasium.vector.SyncVectorEnv([lambda: SchedulingEnv(kth, **kwargs)] * n)
    assert mine.single_observation_space == theirs.single_observation_space
    assert mine.observation_space == theirs.observation_space and mine.action_space == theirs.action_space
    a, b = mine.reset(seed=11), theirs.reset(seed=11)
    np.testing.assert_array_equal(a[0], b[0])
    compare_infos(a[1], b[1], "reset")
    rng = np.random.default_rng(3)
    ends = 0
    for step in range(600):
        # Valid and invalid actions alike.
        actions = rng.integers(0, window if mode == "pick" else 2, size=n)
        a, b = mine.step(actions), theirs.step(actions)
        for k, name in enumerate(["observation", "reward", "terminated", "truncated"]):
            np.testing.assert_array_equal(a[k], b[k], err_msg=f"step {step}: {name}")
            assert a[k].dtype == b[k].dtype, name
        compare_infos(a[4], b[4], f"step {step}")
        ends += int(b[2].sum())
        assert mine.observation_space.contains(a[0])
    assert ends >= n, "every environment went through an autoreset"


def test_every_observation_lies_in_the_declared_space_with_malformed_users():
    trace = schedlab.load(ODD_USERS, name="odd.swf")
    env = SchedulingEnv(trace, window=4, backfill="none", episode_jobs=4)
    observation, _ = env.reset(seed=0)
    seen = [observation]
    terminated = False
    while not terminated:
        observation, _, terminated, _, _ = env.step(0)
        seen.append(observation)
    assert all(env.observation_space.contains(o) for o in seen)
    users = {float(o[0, 3]) for o in seen if o[0, 2] > 0}
    assert users == {-1.0, 5.0}, users


def test_gymnasiums_checker_passes_with_its_warnings_as_errors():
    from gymnasium.utils.env_checker import check_env

    trace = schedlab.load(ODD_USERS, name="odd.swf")
    for mode in ("pick", "inspect"):
        with warnings.catch_warnings():
            warnings.simplefilter("error")
            check_env(SchedulingEnv(trace, mode=mode, window=4, episode_jobs=4), skip_render_check=True)


def test_the_declared_bounds_are_the_machines(kth):
    space = SchedulingEnv(kth, window=3).observation_space
    assert space.low[0].tolist() == [0, 0, 0, -1, 0]
    assert space.high[0][[2, 4]].tolist() == [kth.procs, kth.procs]


def test_a_window_beyond_the_bound_is_refused_before_any_memory_is_taken(kth):
    with pytest.raises(ValueError, match=f"window must be from 1 to {MAX_WINDOW}"):
        SchedulingEnv(kth, window=10**8)
    with pytest.raises(ValueError, match=f"window must be from 1 to {MAX_WINDOW}"):
        VectorSchedulingEnv(kth, 4, window=10**8)
    SchedulingEnv(kth, window=MAX_WINDOW, episode_jobs=10).reset(seed=0)
    with pytest.raises(schedlab.OptionError, match="window"):
        schedlab._core.Episode(kth._core, 0, 10, MAX_WINDOW + 1, "easy", "pick", "mbs", bytearray(20 * (MAX_WINDOW + 1)))


def test_threads_are_between_one_and_the_episodes(kth):
    with pytest.raises(schedlab.OptionError, match="threads must be from 1 to the 2 episodes"):
        VectorSchedulingEnv(kth, 2, threads=3)
    with pytest.raises(schedlab.OptionError, match="threads"):
        VectorSchedulingEnv(kth, 2, threads=0)


def test_masks_and_copies(kth):
    envs = VectorSchedulingEnv(kth, 3, window=8, episode_jobs=30, copy=False)
    observation, info = envs.reset(seed=1)
    assert observation is envs.step(np.zeros(3, dtype=np.int64))[0], "copy=False hands out its own array"
    np.testing.assert_array_equal(envs.action_masks(), envs.step(np.zeros(3, dtype=np.int64))[4]["action_mask"])
