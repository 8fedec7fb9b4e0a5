"""A Gymnasium environment for learned schedulers: the agent picks the next
job (mode "pick") or accepts or rejects the base policy's pick (mode
"inspect", as in SchedInspector, HPDC'22), and the Schedlab engine replays
the trace around its decisions.

    env = schedlab.gym.SchedulingEnv(trace, mode="pick", window=128, backfill="easy")

**Episodes.** ``reset(seed=...)`` draws the first job of an episode
uniformly with the environment's generator; an episode replays the
``episode_jobs`` jobs from there (256 by default, the whole trace if it
is shorter), on the trace's machine, with the requested times as
predictions, checked by the run checker at its end.

**Decisions.** The engine asks for a decision at every scheduling pass
while jobs wait, and again after each job it starts. The jobs offered are
the first ``window`` waiting jobs in the base policy's order (submission
order: FCFS's). A chosen job that fits starts; one that does not ends the
pass, after (``backfill="easy"``) a reservation for it at the earliest time
enough processors are expected to be free and the backfilling, in
submission order, of the jobs that fit now without delaying it, exactly as
the ``easy`` policy backfills. ``backfill="none"`` starts nothing else.

**Observation.** A ``(window, 5)`` float32 array, one row per offered job
in the order offered: wait so far (s), requested time (s), processors,
user (SWF field 12; -1 unknown, and so is any malformed number below -1),
free processors of the machine. Rows past the offered jobs are zeros. The
space declares each column's bounds (processors and free processors at
most the machine's), and every observation lies in it.

**Actions.** Mode "pick": ``Discrete(window)``, the row of the job to run.
Mode "inspect": ``Discrete(2)``: 0 accepts the base policy's pick (row 0),
1 rejects it (nothing more starts until the next event; allowed only while
a job runs, since nothing would otherwise happen again). The valid actions
are ``info["action_mask"]`` and ``env.action_masks()``; an invalid action
is taken as action 0 and reported as ``info["invalid_action"]``. An action
is an int (numpy's integers too); a float or a string raises ``TypeError``.

**Reward.** 0 at every step but the last, which gets the episode's metric
from the core with the sign that makes more better: ``-MBS`` (mean bounded
slowdown, τ = 10 s) by default, as RLScheduler; ``reward="mean_wait"``
(``-`` seconds), ``"mwbs"`` or ``"utilization"`` (``+``). The last step's
``info["metrics"]`` holds every metric of the episode.

**Copies.** ``copy.deepcopy(env)`` and pickling give an independent
environment at the same point of the same episode (it replays the
decisions taken so far from the episode's first job) with the same random
generator, so ``AsyncVectorEnv`` works under the ``spawn`` and
``forkserver`` start methods.

**Many episodes at once.** :class:`VectorSchedulingEnv` is Gymnasium's
vector API over N episodes stepped by the core in one call, with no
process or thread per episode; it gives what ``SyncVectorEnv`` over N
``SchedulingEnv`` gives, step for step, many times faster.

**Threads.** An environment is stepped by one thread at a time; a second
thread calling it meanwhile gets a ``RuntimeError`` (never a deadlock).
"""

from __future__ import annotations

import json
import operator
from typing import Any, Dict, List, Optional, Sequence, Tuple, Union

import gymnasium
import numpy as np
from gymnasium import spaces
from gymnasium.utils import seeding
from gymnasium.vector import AutoresetMode, VectorEnv
from gymnasium.vector.utils import batch_space

from . import Trace, _args, _core, load

FEATURES = ("wait", "requested_time", "processors", "user", "free_processors")
REWARDS = ("mbs", "mwbs", "mean_wait", "utilization")
MAX_WINDOW: int = _core.MAX_WINDOW
"""The largest window the core takes (65,536 offered jobs)."""


def _settings(where: str, trace: Any, mode: Any, window: Any, backfill: Any, episode_jobs: Any, reward: Any) -> Tuple[Trace, int, int]:
    """Checks an environment's arguments; returns the trace, the window and
    the episode's length."""
    if not isinstance(trace, Trace):
        trace = load(trace)
    choices = (("mode", mode, ("pick", "inspect")), ("backfill", backfill, ("easy", "none")), ("reward", reward, REWARDS))
    for name, value, allowed in choices:
        _args.text(where, name, value)
        if value not in allowed:
            raise ValueError(f"{where}: {name} must be one of {', '.join(map(repr, allowed))}, not {value!r}")
    window = _args.integer(where, "window", window, _args.U64)
    episode_jobs = _args.integer(where, "episode_jobs", episode_jobs, _args.U64)
    if not 1 <= window <= MAX_WINDOW:
        raise ValueError(f"{where}: window must be from 1 to {MAX_WINDOW} jobs, not {window}")
    if episode_jobs < 1:
        raise ValueError(f"{where}: episode_jobs must be at least 1, not {episode_jobs}")
    return trace, window, min(episode_jobs, len(trace))


def _observation_space(trace: Trace, window: int) -> spaces.Box:
    """Each feature's bounds: times, sizes and free processors are never
    negative, the user is -1 or more, and a job or the free part of the
    machine holds at most the machine's processors."""
    top = float(np.finfo(np.float32).max)
    procs = float(trace.procs)
    low = np.tile(np.array([0.0, 0.0, 0.0, -1.0, 0.0], dtype=np.float32), (window, 1))
    high = np.tile(np.array([top, top, procs, top, procs], dtype=np.float32), (window, 1))
    return spaces.Box(low=low, high=high, dtype=np.float32)


def _action(where: str, action: Any) -> int:
    """An action as an int: Python's or numpy's integers (a 0-d array too);
    anything else is a ``TypeError``. Beyond 64 bits is as invalid as any
    other row that is not offered."""
    if isinstance(action, (bool, np.bool_)):
        raise TypeError(f"{where}: the action must be an int, not {type(action).__name__}")
    try:
        a = operator.index(action)
    except TypeError:
        raise TypeError(f"{where}: the action must be an int (a row of the window), not {type(action).__name__}") from None
    return max(min(a, 2**63 - 1), -(2**63))


def _mask(pick: bool, window: int, offered: np.ndarray, running: np.ndarray) -> np.ndarray:
    """The valid actions of each decision (one row per environment)."""
    if pick:
        return np.arange(window) < offered[:, None]
    some = offered > 0
    return np.stack([some, some & running], axis=1)


class SchedulingEnv(gymnasium.Env):
    """See the module's documentation."""

    metadata = {"render_modes": []}

    def __init__(
        self,
        trace: Any,
        mode: str = "pick",
        window: int = 128,
        backfill: str = "easy",
        episode_jobs: int = 256,
        reward: str = "mbs",
    ) -> None:
        trace, window, episode_jobs = _settings("SchedulingEnv()", trace, mode, window, backfill, episode_jobs, reward)
        self.trace = trace
        self.mode = mode
        self.window = window
        self.backfill = backfill
        self.episode_jobs = episode_jobs
        self.reward_metric = reward
        self.observation_space = _observation_space(trace, window)
        self.action_space = spaces.Discrete(window if mode == "pick" else 2)
        self._pick = mode == "pick"
        self._episode: Optional[_core.Episode] = None
        self._start = 0
        self._done = True
        self._jobs_csv: Optional[str] = None
        self._make_buffers()
        self._set_decision((0, False))

    def _make_buffers(self) -> None:
        # The engine writes each observation into this buffer (through the
        # view); a step hands the agent a copy of it.
        self._buffer = bytearray(self.window * _core.FEATURES * 4)
        self._view = np.frombuffer(self._buffer, dtype="<f4").reshape(self.window, _core.FEATURES)
        # The masks by decision (see _set_decision); each step hands out a
        # copy, since Gymnasium wants no two steps to share an object.
        self._masks: Dict[int, np.ndarray] = {}

    def _begin(self, start: int, answers: Sequence[int] = ()) -> None:
        self._episode = _core.Episode(
            self.trace._core,
            start,
            self.episode_jobs,
            self.window,
            self.backfill,
            self.mode,
            self.reward_metric,
            self._buffer,
            list(answers),
        )
        self._start = start
        self._done = False
        decision = self._episode.decision()
        if decision is None:
            raise RuntimeError("the episode ended before its first decision")
        self._set_decision(decision)

    def reset(self, *, seed: Optional[int] = None, options: Optional[Dict[str, Any]] = None) -> Tuple[np.ndarray, Dict[str, Any]]:
        super().reset(seed=seed)
        start = int(self.np_random.integers(0, len(self.trace) - self.episode_jobs + 1))
        self._jobs_csv = None
        self._begin(start)
        return self._view.copy(), {"action_mask": self._mask.copy(), "first_job": start}

    def step(self, action: Any) -> Tuple[np.ndarray, float, bool, bool, Dict[str, Any]]:
        episode = self._episode
        if episode is None or self._done:
            raise RuntimeError("SchedulingEnv.step(): call reset() first (the episode has ended)")
        decision, invalid = episode.step(_action("SchedulingEnv.step()", action))
        if decision is not None:
            self._set_decision(decision)
            return self._view.copy(), 0.0, False, False, {"action_mask": self._mask.copy(), "invalid_action": invalid}
        reward, metrics_json, self._jobs_csv = episode.result()
        metrics = json.loads(metrics_json)
        self._done = True
        self._set_decision((0, False))
        info = {"action_mask": self._mask.copy(), "invalid_action": invalid, "metrics": metrics}
        return self._view.copy(), reward, True, False, info

    def action_masks(self) -> np.ndarray:
        """The valid actions at the current decision."""
        return self._mask.copy()

    def episode_jobs_csv(self) -> str:
        """The per-job table of the last finished episode, as ``schedlab run
        --jobs-csv`` writes a run's."""
        if self._jobs_csv is None:
            raise RuntimeError("no episode has finished yet")
        return self._jobs_csv

    def __getstate__(self) -> Dict[str, Any]:
        """Everything but the core's episode and the buffers, which are
        made again; a live episode travels as its first job and its
        decisions so far."""
        state = {k: v for k, v in self.__dict__.items() if k not in ("_episode", "_buffer", "_view", "_masks", "_mask")}
        live = self._episode is not None and not self._done
        state["_answers"] = self._episode.answers()[1] if live else None
        return state

    def __setstate__(self, state: Dict[str, Any]) -> None:
        answers = state.pop("_answers")
        self.__dict__.update(state)
        self._episode = None
        self._make_buffers()
        self._set_decision(self._decision)
        if answers is not None:
            self._begin(self._start, answers)

    def _set_decision(self, decision: Tuple[int, bool]) -> None:
        """Keeps the decision, ``(offered, running)``: how many jobs are
        offered and whether a job runs, and its mask, made once for each
        number of offered jobs ("pick") or each pair of (any offered,
        running) ("inspect"), read-only since only copies leave."""
        offered, running = self._decision = decision
        key = offered if self._pick else 2 * min(offered, 1) + running
        mask = self._masks.get(key)
        if mask is None:
            mask = _mask(self._pick, self.window, np.array([offered]), np.array([running]))[0]
            mask.flags.writeable = False
            self._masks[key] = mask
        self._mask = mask


class VectorSchedulingEnv(VectorEnv):
    """``num_envs`` episodes of :class:`SchedulingEnv` (same arguments)
    stepped by the core in one call: Gymnasium's vector API, with its
    next-step autoreset (the step after an episode ends starts the next
    one, its action ignored). Episode ``i`` draws its first jobs from its
    own generator, seeded ``seed + i`` by ``reset(seed=seed)``, exactly as
    ``SyncVectorEnv`` seeds its environments, so both give the same
    observations, rewards, terminations and infos (``action_mask``,
    ``invalid_action``, ``first_job`` and, at an episode's end,
    ``metrics``). ``copy=False`` hands out the environment's own arrays,
    which the next step overwrites (as ``SyncVectorEnv(copy=False)``).
    ``threads`` splits the episodes into that many groups stepped at once,
    each on a core of its own (the results do not depend on it).

    ``episode_metrics=False`` makes an episode's end cheaper: the reward is
    the same number, but the run checker does not verify the episode's
    schedule and ``info["metrics"]`` is left out (by default, True, each
    ended episode is checked and measured in full, as ``SchedulingEnv``
    does, which costs about as much as the episode's decisions).

    It pickles and ``copy.deepcopy`` gives an independent copy at the same
    point of every episode (each replays its decisions from its first job),
    with the same random generators.
    """

    metadata = {"render_modes": [], "autoreset_mode": AutoresetMode.NEXT_STEP}

    # What the core holds, made again by __setstate__ rather than pickled.
    _NATIVE = ("_core", "_buffers", "_observation", "_reward", "_terminated", "_mask", "_invalid")

    def __init__(
        self,
        trace: Any,
        num_envs: int,
        mode: str = "pick",
        window: int = 128,
        backfill: str = "easy",
        episode_jobs: int = 256,
        reward: str = "mbs",
        copy: bool = True,
        threads: int = 1,
        episode_metrics: bool = True,
    ) -> None:
        where = "VectorSchedulingEnv()"
        trace, window, episode_jobs = _settings(where, trace, mode, window, backfill, episode_jobs, reward)
        n = _args.integer(where, "num_envs", num_envs, _args.U32)
        if n < 1:
            raise ValueError(f"{where}: num_envs must be at least 1, not {n}")
        self.trace, self.mode, self.window, self.backfill = trace, mode, window, backfill
        self.episode_jobs, self.reward_metric, self.copy = episode_jobs, reward, _args.flag(where, "copy", copy)
        self.episode_metrics = _args.flag(where, "episode_metrics", episode_metrics)
        self.threads = _args.integer(where, "threads", threads, _args.U32)
        self.num_envs = n
        self.single_observation_space = _observation_space(trace, window)
        self.single_action_space = spaces.Discrete(window if mode == "pick" else 2)
        self.observation_space = batch_space(self.single_observation_space, n)
        self.action_space = batch_space(self.single_action_space, n)
        self._make_core()
        self._truncated = np.zeros(n, dtype=np.bool_)
        self._everyone = np.ones(n, dtype=np.bool_)
        self._generators: List[np.random.Generator] = []
        # The episodes that ended at the last step, which the next one resets.
        self._ended: List[int] = []
        self._starts = np.full(n, -1, dtype="<i8")
        self._last_start = len(trace) - episode_jobs + 1

    def _make_core(self) -> None:
        """The core's episodes and the buffers they write, with the numpy
        views the steps read (see ``_NATIVE``)."""
        n, window, actions = self.num_envs, self.window, self.single_action_space.n
        buffers = [bytearray(size) for size in (n * window * _core.FEATURES * 4, n * 8, n, n * actions, n)]
        self._core = _core.Episodes(
            self.trace._core,
            n,
            self.episode_jobs,
            window,
            self.backfill,
            self.mode,
            self.reward_metric,
            buffers,
            self.threads,
            self.episode_metrics,
        )
        self._buffers = buffers
        self._observation = np.frombuffer(buffers[0], dtype="<f4").reshape(n, window, _core.FEATURES)
        self._reward = np.frombuffer(buffers[1], dtype="<f8")
        self._terminated = np.frombuffer(buffers[2], dtype=np.bool_)
        self._mask = np.frombuffer(buffers[3], dtype=np.bool_).reshape(n, actions)
        self._invalid = np.frombuffer(buffers[4], dtype=np.bool_)

    def __getstate__(self) -> Dict[str, Any]:
        """Everything but the core's episodes, which travel as each one's
        first job and decisions, and the last step's rewards and flags."""
        state = {k: v for k, v in self.__dict__.items() if k not in self._NATIVE}
        state["_episodes"] = self._core.answers()
        state["_last_step"] = [bytes(self._buffers[i]) for i in (1, 2, 4)]
        return state

    def __setstate__(self, state: Dict[str, Any]) -> None:
        episodes, last_step = state.pop("_episodes"), state.pop("_last_step")
        self.__dict__.update(state)
        self._make_core()
        for i, raw in zip((1, 2, 4), last_step):
            self._buffers[i][:] = raw
        self._core.restore(episodes)

    def reset(
        self, *, seed: Union[int, Sequence[Optional[int]], None] = None, options: Optional[Dict[str, Any]] = None
    ) -> Tuple[np.ndarray, Dict[str, Any]]:
        n = self.num_envs
        seeds = [None if seed is None else seed + i for i in range(n)] if not isinstance(seed, Sequence) else list(seed)
        if len(seeds) != n:
            raise ValueError(f"VectorSchedulingEnv.reset(): {len(seeds)} seeds for {n} environments")
        if seed is not None:
            self._np_random, self._np_random_seed = seeding.np_random(seeds[0] if isinstance(seed, Sequence) else seed)
        if seed is not None or not self._generators:
            self._generators = [seeding.np_random(s)[0] for s in seeds]
        starts = np.array([g.integers(0, self._last_start) for g in self._generators], dtype="<i8")
        self._core.reset(starts.tobytes())
        self._ended = []
        infos = {
            "action_mask": self._mask.copy(),
            "_action_mask": self._everyone.copy(),
            "first_job": starts.astype(np.int64),
            "_first_job": self._everyone.copy(),
        }
        return self._out(self._observation), infos

    def step(self, actions: Any) -> Tuple[np.ndarray, np.ndarray, np.ndarray, np.ndarray, Dict[str, Any]]:
        if not self._generators:
            raise RuntimeError("VectorSchedulingEnv.step(): call reset() first")
        raw = self._actions(actions)
        resets = self._ended
        if resets:
            self._starts.fill(-1)
            for i in resets:
                self._starts[i] = self._generators[i].integers(0, self._last_start)
            ended = self._core.step(raw, self._starts.tobytes())
        else:
            ended = self._core.step(raw, b"")
        infos: Dict[str, Any] = {"action_mask": self._mask.copy(), "_action_mask": self._everyone.copy()}
        # The core leaves an episode it reset marked valid.
        infos["invalid_action"] = self._invalid.copy()
        if resets:
            reset = self._starts >= 0
            infos["_invalid_action"] = ~reset
            infos["first_job"] = np.where(reset, self._starts, 0).astype(np.int64)
            infos["_first_job"] = reset
        else:
            infos["_invalid_action"] = self._everyone.copy()
        for i, metrics in ended:
            if metrics is not None:
                self._add_info(infos, {"metrics": json.loads(metrics)}, i)
        self._ended = [i for i, _ in ended]
        return (
            self._out(self._observation),
            self._reward.copy(),
            self._terminated.copy(),
            self._truncated.copy(),
            infos,
        )

    def _actions(self, actions: Any) -> bytes:
        """The actions as the core reads them (little-endian int64s)."""
        a = actions if isinstance(actions, np.ndarray) else np.asarray(actions)
        if a.dtype.kind not in "iu":
            raise TypeError(f"VectorSchedulingEnv.step(): actions must be ints, not {a.dtype} values")
        if a.shape != (self.num_envs,):
            raise ValueError(f"VectorSchedulingEnv.step(): actions must have shape ({self.num_envs},), not {a.shape}")
        if a.dtype.kind == "u":
            # Past 2^63 is as invalid as any other action that is not offered.
            a = np.minimum(a, 2**63 - 1)
        return a.astype("<i8", copy=False).tobytes()

    def action_masks(self) -> np.ndarray:
        """The valid actions of every environment's current decision."""
        return self._mask.copy()

    def _out(self, array: np.ndarray) -> np.ndarray:
        return array.copy() if self.copy else array
