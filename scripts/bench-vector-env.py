"""Env-steps per second of the Gymnasium environments, N episodes at once:
schedlab.gym.VectorSchedulingEnv (the core steps all N in one call) with
its defaults and with the fast settings (copy=False, episode_metrics=False;
on one thread and on two), the same without Python's part of a step (the
core's `Episodes.step` alone), and Gymnasium's SyncVectorEnv over N
SchedulingEnv for comparison.

Each figure is the best of three runs, as wall-clock steps per second and
as steps per second of the process's CPU time (user + system), which
other work on a shared machine does not take away. Every step takes
action 0 (the first offered job: EASY), episodes of 256 jobs of the KTH
sample, autoresetting.

    python scripts/bench-vector-env.py [--envs 64] [--window 128] [--steps 2000] [--threads 2]
"""

from __future__ import annotations

import argparse
import os
import resource
import time
from pathlib import Path

import gymnasium
import numpy as np

import schedlab
from schedlab.gym import SchedulingEnv, VectorSchedulingEnv

SAMPLE = Path(__file__).resolve().parents[1] / "samples" / "kth-sp2-first3000.swf"


def cpu() -> float:
    usage = resource.getrusage(resource.RUSAGE_SELF)
    return usage.ru_utime + usage.ru_stime


def best_of_three(step, calls: int, per_call: int) -> tuple:
    """(wall steps/s, CPU steps/s), each the best of three runs."""
    wall, busy = [], []
    for _ in range(3):
        t, c = time.perf_counter(), cpu()
        for _ in range(calls):
            step()
        wall.append(calls * per_call / (time.perf_counter() - t))
        busy.append(calls * per_call / max(cpu() - c, 1e-9))
    return max(wall), max(busy)


def core_only(envs: VectorSchedulingEnv):
    """One call of the core per step, resets as the environment makes them,
    without building Python's results."""
    zeros = np.zeros(envs.num_envs, dtype="<i8").tobytes()
    starts = np.full(envs.num_envs, -1, dtype="<i8")
    ended: list = []

    def step() -> None:
        nonlocal ended
        if ended:
            starts.fill(-1)
            starts[[i for i, _ in ended]] = 0
            ended = envs._core.step(zeros, starts.tobytes())
        else:
            ended = envs._core.step(zeros, b"")

    return step


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--envs", type=int, default=64)
    parser.add_argument("--window", type=int, default=128)
    parser.add_argument("--steps", type=int, default=2000, help="vector steps a run")
    parser.add_argument("--threads", type=int, default=2, help="threads of the threaded figure")
    args = parser.parse_args()
    trace = schedlab.load(SAMPLE)
    n, window = args.envs, args.window
    actions = np.zeros(n, dtype=np.int64)
    rows = []

    # The default, then the fast settings: the environment's own arrays
    # (copy=False) and the reward alone at an episode's end
    # (episode_metrics=False), on one thread and on --threads.
    settings = [
        ("default (copy, episode metrics)", dict()),
        ("copy=False, episode_metrics=False", dict(copy=False, episode_metrics=False)),
        (f"the same, {args.threads} threads", dict(copy=False, episode_metrics=False, threads=args.threads)),
    ]
    for name, kwargs in settings:
        envs = VectorSchedulingEnv(trace, n, window=window, **kwargs)
        envs.reset(seed=0)
        rows.append((name, *best_of_three(lambda: envs.step(actions), args.steps, n)))
    for threads in (1, args.threads):
        envs = VectorSchedulingEnv(trace, n, window=window, threads=threads, episode_metrics=False)
        envs.reset(seed=0)
        rows.append((f"core alone, {threads} thread(s)", *best_of_three(core_only(envs), args.steps, n)))
    sync = gymnasium.vector.SyncVectorEnv([lambda: SchedulingEnv(trace, window=window)] * n)
    sync.reset(seed=0)
    rows.append(("SyncVectorEnv of SchedulingEnv", *best_of_three(lambda: sync.step(actions), max(args.steps // 50, 10), n)))

    print(f"N = {n} episodes, window {window}, best of 3, load average {os.getloadavg()[0]:.1f}")
    print(f"{'':36} {'env-steps/s':>14} {'per CPU-second':>15}")
    for name, wall, busy in rows:
        print(f"{name:36} {wall:>14,.0f} {busy:>15,.0f}")


if __name__ == "__main__":
    main()
