"""The Gymnasium environment: Gymnasium's own checker in both modes, the
bridge to the policies (an agent that picks the first job in submission
order is `easy` with EASY backfilling and `fcfs` without, job for job),
vectorisation, and a hand-computed episode."""

from __future__ import annotations

from pathlib import Path

import numpy as np
import pytest

gymnasium = pytest.importorskip("gymnasium")

import schedlab  # noqa: E402
from schedlab.gym import SchedulingEnv  # noqa: E402

SAMPLE = Path(__file__).resolve().parents[2] / "samples" / "kth-sp2-first3000.swf"

# P = 4. Job 1 holds the machine until 100; job 2 (3 processors, 50 s) and
# job 3 (2 processors, 10 s) wait for it.
TINY = b"""; MaxProcs: 4
1 0 -1 100 4 -1 -1 4 100 -1 1 1 1 -1 -1 -1 -1 -1
2 10 -1 50 3 -1 -1 3 50 -1 1 2 2 -1 -1 -1 -1 -1
3 20 -1 10 2 -1 -1 2 10 -1 1 3 3 -1 -1 -1 -1 -1
"""


@pytest.fixture(scope="module")
def kth():
    return schedlab.load(SAMPLE)


def play(env, choose, seed=0):
    observation, info = env.reset(seed=seed)
    steps = 0
    while True:
        observation, reward, terminated, truncated, info = env.step(choose(observation, info))
        steps += 1
        if terminated or truncated:
            return reward, info, steps


@pytest.mark.parametrize("mode", ["pick", "inspect"])
def test_gymnasiums_checker_passes(kth, mode):
    from gymnasium.utils.env_checker import check_env

    check_env(SchedulingEnv(kth, mode=mode, window=16, episode_jobs=64), skip_render_check=True)


@pytest.mark.parametrize("backfill,policy", [("easy", "easy"), ("none", "fcfs")])
def test_picking_the_first_job_reproduces_the_policy(kth, backfill, policy):
    env = SchedulingEnv(kth, mode="pick", window=128, backfill=backfill, episode_jobs=len(kth))
    reward, info, _ = play(env, lambda observation, info: 0)
    want = schedlab.run(kth, policy, progress=False)
    assert env.episode_jobs_csv() == want.jobs_csv()
    assert reward == -want.metrics["mbs"]
    assert info["metrics"]["mbs"] == want.metrics["mbs"]


def test_accepting_every_pick_in_inspect_mode_is_the_base_policy(kth):
    env = SchedulingEnv(kth, mode="inspect", backfill="easy", episode_jobs=len(kth))
    play(env, lambda observation, info: 0)
    assert env.episode_jobs_csv() == schedlab.run(kth, "easy", progress=False).jobs_csv()


def test_a_hand_computed_episode():
    tiny = schedlab.load(TINY, name="tiny.swf")
    env = SchedulingEnv(tiny, mode="pick", window=4, backfill="none", episode_jobs=3)
    observation, info = env.reset(seed=1)
    # t = 0: job 1 alone, 4 processors free.
    assert observation[0].tolist() == [0, 100, 4, 1, 4]
    assert info["action_mask"].tolist() == [True, False, False, False]
    # Job 1 starts; at t = 10 job 2 is offered, with no processor free.
    observation, reward, terminated, _, info = env.step(0)
    assert observation[0].tolist() == [0, 50, 3, 2, 0] and not terminated
    # Picked, it does not fit; at t = 20 jobs 2 (waited 10 s) and 3 are offered.
    observation, *_ = env.step(0)
    assert observation[:2].tolist() == [[10, 50, 3, 2, 0], [0, 10, 2, 3, 0]]
    # Job 3 is picked and does not fit either; at t = 100 job 1 has ended.
    observation, *_ = env.step(1)
    assert observation[:2].tolist() == [[90, 50, 3, 2, 4], [80, 10, 2, 3, 4]]
    earlier = observation
    # Job 3 is picked again and starts: job 2 is offered with 2 processors
    # free, and the row job 3 held is empty again.
    observation, *_ = env.step(1)
    assert observation[0].tolist() == [90, 50, 3, 2, 2] and not observation[1:].any()
    assert earlier[:2].tolist() == [[90, 50, 3, 2, 4], [80, 10, 2, 3, 4]], "a step's observation is its own"
    # Picked, job 2 does not fit; it is offered again when job 3 ends at 110.
    observation, *_ = env.step(0)
    assert observation[0].tolist() == [100, 50, 3, 2, 4]
    observation, reward, terminated, _, info = env.step(0)
    assert terminated and not observation.any()
    assert env.episode_jobs_csv().splitlines()[1:] == [
        "1,1,4,0,0,100,0,100,100,100,1,0,0,0,,",
        "2,2,3,10,110,160,100,50,50,50,3,0,0,1,100,",
        "3,3,2,20,100,110,80,10,10,10,9,0,1,0,,",
    ]
    # Bounded slowdowns 1, (100 + 50) / 50 and (80 + 10) / 10.
    assert reward == pytest.approx(-(1 + 3 + 9) / 3)


def test_a_hand_computed_inspection_episode():
    tiny = schedlab.load(TINY, name="tiny.swf")
    env = SchedulingEnv(tiny, mode="inspect", window=4, backfill="none", episode_jobs=3)
    _, info = env.reset(seed=1)
    # t = 0: job 1 is the pick and nothing runs, so it cannot be rejected;
    # a rejection is taken as acceptance.
    assert info["action_mask"].tolist() == [True, False]
    _, _, _, _, info = env.step(1)
    assert info["invalid_action"]
    # t = 10: job 2 is the pick while job 1 runs; rejected, nothing starts.
    assert info["action_mask"].tolist() == [True, True]
    observation, _, _, _, info = env.step(1)
    assert not info["invalid_action"]
    # t = 20: jobs 2 and 3 wait; accepting job 2, which does not fit, starts
    # nothing either (no backfilling).
    assert observation[:2, 0].tolist() == [10, 0]
    observation, _, _, _, info = env.step(0)
    # t = 100: job 1 has ended and nothing runs: job 2 must be accepted.
    assert observation[0].tolist() == [90, 50, 3, 2, 4] and info["action_mask"].tolist() == [True, False]
    observation, _, _, _, info = env.step(0)
    # Job 2 runs; job 3, the pick, is rejected until job 2 ends at 150.
    assert observation[0].tolist() == [80, 10, 2, 3, 1] and info["action_mask"].tolist() == [True, True]
    observation, _, _, _, info = env.step(1)
    assert observation[0].tolist() == [130, 10, 2, 3, 4] and info["action_mask"].tolist() == [True, False]
    _, reward, terminated, _, _ = env.step(0)
    assert terminated
    starts = [row.split(",")[4] for row in env.episode_jobs_csv().splitlines()[1:]]
    assert starts == ["0", "100", "150"]
    # Bounded slowdowns 1, (90 + 50) / 50 and (130 + 10) / 10.
    assert reward == pytest.approx(-(1 + 2.8 + 14) / 3)


def test_invalid_actions_are_taken_as_the_first_and_reported(kth):
    env = SchedulingEnv(kth, window=8, episode_jobs=20)
    env.reset(seed=3)
    _, _, _, _, info = env.step(7)
    assert isinstance(info["invalid_action"], bool)
    with pytest.raises(ValueError, match="mode"):
        SchedulingEnv(kth, mode="choose")
    with pytest.raises(TypeError, match="window must be an int"):
        SchedulingEnv(kth, window="8")


def test_episodes_start_where_the_seed_says_and_repeat(kth):
    env = SchedulingEnv(kth, window=32, episode_jobs=100)
    first = [env.reset(seed=s)[1]["first_job"] for s in (1, 2, 1)]
    assert first[0] == first[2] and 0 <= min(first) and max(first) <= len(kth) - 100
    rng = np.random.default_rng(0)
    a = play(env, lambda o, info: rng.choice(np.flatnonzero(info["action_mask"])), seed=4)
    rng = np.random.default_rng(0)
    b = play(env, lambda o, info: rng.choice(np.flatnonzero(info["action_mask"])), seed=4)
    assert a[0] == b[0] and a[2] == b[2]


def test_it_vectorises(kth):
    envs = gymnasium.vector.SyncVectorEnv([lambda: SchedulingEnv(kth, window=16, episode_jobs=50)] * 2)
    observations, infos = envs.reset(seed=5)
    assert observations.shape == (2, 16, 5)
    for _ in range(200):
        observations, rewards, terminated, truncated, infos = envs.step(np.zeros(2, dtype=np.int64))
    assert observations.shape == (2, 16, 5) and rewards.shape == (2,)
    envs.close()
