"""What Gymnasium's check_env checks of an environment, checked of the
vector environment (Gymnasium has no checker for a VectorEnv): its spaces,
the shapes and dtypes of what reset and step return, determinism under a
seed, next-step autoreset, and that pickling and copy.deepcopy give an
independent environment at the same point of every episode."""

from __future__ import annotations

import copy
import pickle

import numpy as np
import pytest
from gymnasium import spaces
from gymnasium.vector import AutoresetMode
from gymnasium.vector.utils import batch_space

from schedlab.gym import VectorSchedulingEnv

N, WINDOW, JOBS = 4, 8, 24


def make(kth, **kwargs):
    settings = dict(window=WINDOW, episode_jobs=JOBS)
    settings.update(kwargs)
    return VectorSchedulingEnv(kth, N, **settings)


def steps(envs, count, seed=7):
    """`count` steps with random actions (valid and invalid alike) from a
    generator of its own; every result, copied."""
    rng = np.random.default_rng(seed)
    out = []
    for _ in range(count):
        actions = rng.integers(0, envs.single_action_space.n, size=N)
        observation, reward, terminated, truncated, info = envs.step(actions)
        out.append((observation.copy(), reward.copy(), terminated.copy(), truncated.copy(), info))
    return out


def assert_same_steps(mine, theirs):
    assert len(mine) == len(theirs)
    for k, (a, b) in enumerate(zip(mine, theirs)):
        for x, y in zip(a[:4], b[:4]):
            np.testing.assert_array_equal(x, y, err_msg=f"step {k}")
        assert sorted(a[4]) == sorted(b[4]), k
        for key in a[4]:
            if key != "metrics":
                np.testing.assert_array_equal(a[4][key], b[4][key], err_msg=f"step {k}: {key}")


@pytest.mark.parametrize("mode", ["pick", "inspect"])
def test_spaces_are_the_single_spaces_batched(kth, mode):
    envs = make(kth, mode=mode)
    single = envs.single_observation_space
    assert isinstance(single, spaces.Box) and single.dtype == np.float32 and single.shape == (WINDOW, 5)
    assert envs.single_action_space == spaces.Discrete(WINDOW if mode == "pick" else 2)
    assert envs.observation_space == batch_space(single, N)
    assert envs.action_space == batch_space(envs.single_action_space, N)
    assert envs.metadata["autoreset_mode"] == AutoresetMode.NEXT_STEP
    # A sample of the action space is a valid argument of step().
    envs.reset(seed=0)
    envs.step(envs.action_space.sample())


@pytest.mark.parametrize("mode,episode_metrics", [("pick", True), ("inspect", True), ("pick", False)])
def test_reset_and_step_return_the_declared_shapes_and_dtypes(kth, mode, episode_metrics):
    envs = make(kth, mode=mode, episode_metrics=episode_metrics)
    observation, info = envs.reset(seed=3)
    assert observation.shape == (N, WINDOW, 5) and observation.dtype == np.float32
    assert envs.observation_space.contains(observation)
    actions = envs.single_action_space.n
    assert info["action_mask"].shape == (N, actions) and info["action_mask"].dtype == np.bool_
    assert info["first_job"].dtype == np.int64 and info["_first_job"].all()
    ended = 0
    for observation, reward, terminated, truncated, info in steps(envs, 120):
        assert observation.shape == (N, WINDOW, 5) and observation.dtype == np.float32
        assert envs.observation_space.contains(observation)
        assert reward.shape == (N,) and reward.dtype == np.float64
        assert terminated.shape == truncated.shape == (N,)
        assert terminated.dtype == truncated.dtype == np.bool_
        assert not truncated.any()
        assert info["invalid_action"].dtype == np.bool_ and info["invalid_action"].shape == (N,)
        # The reward is 0 but at an episode's last step.
        assert (reward[~terminated] == 0).all()
        if terminated.any():
            ended += int(terminated.sum())
            if episode_metrics:
                np.testing.assert_array_equal(info["_metrics"], terminated)
                for i in np.flatnonzero(terminated):
                    assert reward[i] == -info["metrics"]["mbs"][i]
            else:
                assert "metrics" not in info
    assert ended >= N


def test_a_seed_gives_the_same_episodes_and_another_seed_others(kth):
    one, two = make(kth), make(kth)
    first = one.reset(seed=21)
    np.testing.assert_array_equal(first[0], two.reset(seed=21)[0])
    assert_same_steps(steps(one, 80), steps(two, 80))
    # A reset with the same seed starts the same episodes again.
    again = one.reset(seed=21)
    np.testing.assert_array_equal(again[1]["first_job"], first[1]["first_job"])
    other = make(kth).reset(seed=22)
    assert (other[1]["first_job"] != first[1]["first_job"]).any()


def test_autoreset_starts_an_ended_episode_at_the_next_step_whatever_its_action(kth):
    envs = make(kth, backfill="none")
    envs.reset(seed=5)
    terminated = np.zeros(N, dtype=bool)
    while not terminated.any():
        _, reward, terminated, _, info = envs.step(np.zeros(N, dtype=np.int64))
    ended = np.flatnonzero(terminated)
    # The last step's observation of an ended episode is all zeros, as
    # SchedulingEnv's, and its reward is its metric.
    assert (envs._observation[ended] == 0).all() and (reward[ended] < 0).all()
    twin = copy.deepcopy(envs)
    a = envs.step(np.zeros(N, dtype=np.int64))
    b = twin.step(np.where(terminated, WINDOW - 1, 0))
    for x, y in zip(a[:4], b[:4]):
        np.testing.assert_array_equal(x, y)
    np.testing.assert_array_equal(a[4]["first_job"], b[4]["first_job"])
    observation, reward, terminated_now, _, info = a
    np.testing.assert_array_equal(info["_first_job"], terminated)
    assert not terminated_now[ended].any() and (reward[ended] == 0).all()
    assert not info["invalid_action"][ended].any()
    assert (observation[ended, 0, 2] > 0).all(), "a new episode offers a job"


@pytest.mark.parametrize("clone", ["pickle", "deepcopy"])
def test_a_copy_goes_on_as_the_original_independently(kth, clone):
    envs = make(kth, mode="pick")
    envs.reset(seed=9)
    steps(envs, 37, seed=1)
    twin = pickle.loads(pickle.dumps(envs)) if clone == "pickle" else copy.deepcopy(envs)
    np.testing.assert_array_equal(twin.action_masks(), envs.action_masks())
    np.testing.assert_array_equal(twin._observation, envs._observation)
    # Stepping the copy leaves the original where it was.
    mine = steps(twin, 90, seed=2)
    theirs = steps(envs, 90, seed=2)
    assert_same_steps(mine, theirs)
    # The generators were copied too: the next resets agree.
    np.testing.assert_array_equal(twin.reset()[1]["first_job"], envs.reset()[1]["first_job"])


def test_a_copy_made_just_after_episodes_ended_autoresets_them(kth):
    envs = make(kth, backfill="none", episode_metrics=False)
    envs.reset(seed=2)
    terminated = np.zeros(N, dtype=bool)
    while not terminated.any():
        _, _, terminated, _, _ = envs.step(np.zeros(N, dtype=np.int64))
    twin = pickle.loads(pickle.dumps(envs))
    np.testing.assert_array_equal(twin._terminated, envs._terminated)
    np.testing.assert_array_equal(twin._reward, envs._reward)
    assert_same_steps(steps(twin, 60), steps(envs, 60))


def test_a_copy_before_any_reset_must_be_reset_too(kth):
    twin = copy.deepcopy(make(kth))
    with pytest.raises(RuntimeError, match="reset"):
        twin.step(np.zeros(N, dtype=np.int64))
    twin.reset(seed=0)


def test_episode_metrics_change_nothing_but_the_metrics_info(kth):
    full, lean = make(kth, episode_metrics=True), make(kth, episode_metrics=False)
    full.reset(seed=4), lean.reset(seed=4)
    a, b = steps(full, 150), steps(lean, 150)
    assert any(s[2].any() for s in a), "some episodes ended"
    for x, y in zip(a, b):
        for u, v in zip(x[:4], y[:4]):
            np.testing.assert_array_equal(u, v)
        assert {k for k in x[4] if "metrics" not in k} == set(y[4])


def test_wrong_actions_are_refused(kth):
    envs = make(kth)
    envs.reset(seed=0)
    with pytest.raises(TypeError, match="ints"):
        envs.step(np.zeros(N, dtype=np.float64))
    with pytest.raises(ValueError, match="shape"):
        envs.step(np.zeros(N + 1, dtype=np.int64))
    with pytest.raises(TypeError, match="episode_metrics"):
        make(kth, episode_metrics="yes")
