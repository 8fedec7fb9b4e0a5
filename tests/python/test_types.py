"""Arguments of the wrong Python type raise TypeError naming the call and
the argument, before anything reaches the core; never serde's words
("invalid type", "expected u32", "floating point")."""

from __future__ import annotations

import numpy as np
import pytest

import schedlab
from schedlab.gym import SchedulingEnv, VectorSchedulingEnv

from conftest import SAMPLE

SERDE = ("invalid type", "expected u", "expected i", "floating point", "untagged", "expected a")

LOAD_CASES = [
    ("machine_size", "abc"),
    ("machine_size", 2.5),
    ("machine_size", 2**32),
    ("machine_size", -1),
    ("first_jobs", "10"),
    ("first_jobs", 2**64),
    ("max_jobs", True),
    ("max_bytes", 1.0),
    ("load_factor", "fast"),
    ("load_factor", 10**400),
    ("oversize", 1),
    ("queues", [1, "2"]),
    ("queues", 3),
    ("partitions", [2**31]),
    ("drop_status", "0"),
    ("name", 7),
    ("time_range", (0, "1h")),
]


def check(error: pytest.ExceptionInfo, where: str, name: str) -> None:
    message = str(error.value)
    assert message.startswith(where) and name in message, message
    assert not any(word in message for word in SERDE), message


@pytest.mark.parametrize("name,value", LOAD_CASES, ids=[f"{n}={v!r}"[:40] for n, v in LOAD_CASES])
def test_load_refuses_a_wrong_type_naming_the_argument(name, value):
    with pytest.raises(TypeError) as e:
        schedlab.load(SAMPLE, **{name: value})
    check(e, "load()", name)


RUN_CASES = [
    ("seed", 2**64),
    ("seed", -1),
    ("seed", 1.0),
    ("seed", "0"),
    ("check", 1),
    ("bsd_threshold", "10"),
    ("bsd_threshold", 2**63),
    ("skip_percent", "5%"),
    ("narrow_size", -4),
    ("short_runtime", 1.5),
    ("predictor", 3),
    ("params", ["order", "fcfs"]),
]


@pytest.mark.parametrize("name,value", RUN_CASES, ids=[f"{n}={v!r}"[:40] for n, v in RUN_CASES])
def test_run_refuses_a_wrong_type_naming_the_argument(kth, name, value):
    with pytest.raises(TypeError) as e:
        schedlab.run(kth, "easy", progress=False, **{name: value})
    check(e, "run()", name)


@pytest.mark.parametrize(
    "name,value", [("repeat", 2**32), ("repeat", "3"), ("seed", 2**64), ("policies", "fcfs"), ("policies", [1])]
)
def test_compare_refuses_a_wrong_type_naming_the_argument(kth, name, value):
    args = {"policies": ["fcfs"], name: value}
    with pytest.raises(TypeError) as e:
        schedlab.compare(kth, progress=False, **args)
    check(e, "compare()", name)


def test_sweep_refuses_wrong_types(kth):
    with pytest.raises(TypeError) as e:
        schedlab.sweep(kth, ["easy@virtual"], "error", [0, None], progress=False)
    check(e, "sweep()", "params['error']")
    with pytest.raises(TypeError) as e:
        schedlab.sweep(kth, ["easy@virtual"], "error", [0, 10], runs=[-1], progress=False)
    check(e, "sweep()", "runs[0]")


@pytest.mark.parametrize("action", [0.0, 1.5, "0", b"0", None, [0], True])
def test_the_environment_refuses_an_action_that_is_not_an_int(kth, action):
    env = SchedulingEnv(kth, window=8, episode_jobs=20)
    env.reset(seed=0)
    with pytest.raises(TypeError, match="action must be an int"):
        env.step(action)


def test_the_environment_takes_numpys_integers_and_huge_ints_as_invalid(kth):
    env = SchedulingEnv(kth, window=8, episode_jobs=20)
    env.reset(seed=0)
    assert env.step(np.int64(0))[4]["invalid_action"] is False
    assert env.step(np.array(0, dtype=np.uint8))[4]["invalid_action"] is False
    assert env.step(2**70)[4]["invalid_action"] is True
    assert env.step(-(2**70))[4]["invalid_action"] is True


def test_the_vector_environment_refuses_float_and_string_actions(kth):
    envs = VectorSchedulingEnv(kth, 2, window=8, episode_jobs=20)
    envs.reset(seed=0)
    for actions in (np.zeros(2), np.array(["0", "0"]), [0.5, 1.0]):
        with pytest.raises(TypeError, match="actions must be ints"):
            envs.step(actions)
    with pytest.raises(ValueError, match="shape"):
        envs.step(np.zeros(3, dtype=np.int64))


@pytest.mark.parametrize("name,value", [("window", "8"), ("window", 2**64), ("episode_jobs", 1.0), ("mode", 1)])
def test_the_environments_refuse_wrong_types(kth, name, value):
    with pytest.raises(TypeError) as e:
        SchedulingEnv(kth, **{name: value})
    check(e, "SchedulingEnv()", name)
    with pytest.raises(TypeError) as e:
        VectorSchedulingEnv(kth, 2, **{name: value})
    check(e, "VectorSchedulingEnv()", name)
