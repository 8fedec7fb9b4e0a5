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
user (SWF field 12; -1 unknown), free processors of the machine. Rows past
the offered jobs are zeros.

**Actions.** Mode "pick": ``Discrete(window)``, the row of the job to run.
Mode "inspect": ``Discrete(2)``: 0 accepts the base policy's pick (row 0),
1 rejects it (nothing more starts until the next event; allowed only while
a job runs, since nothing would otherwise happen again). The valid actions
are ``info["action_mask"]`` and ``env.action_masks()``; an invalid action
is taken as action 0 and reported as ``info["invalid_action"]``.

**Reward.** 0 at every step but the last, which gets the episode's metric
from the core with the sign that makes more better: ``-MBS`` (mean bounded
slowdown, τ = 10 s) by default, as RLScheduler; ``reward="mean_wait"``
(``-`` seconds), ``"mwbs"`` or ``"utilization"`` (``+``). The last step's
``info["metrics"]`` holds every metric of the episode.
"""

from __future__ import annotations

import json
from typing import Any, Dict, Optional, Tuple

import gymnasium
import numpy as np
from gymnasium import spaces

from . import Trace, _core, load

FEATURES = ("wait", "requested_time", "processors", "user", "free_processors")
REWARDS = {"mbs": -1.0, "mwbs": -1.0, "mean_wait": -1.0, "utilization": 1.0}


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
        where = "SchedulingEnv()"
        if not isinstance(trace, Trace):
            trace = load(trace)
        if mode not in ("pick", "inspect"):
            raise ValueError(f'{where}: mode must be "pick" or "inspect", not {mode!r}')
        if backfill not in ("easy", "none"):
            raise ValueError(f'{where}: backfill must be "easy" or "none", not {backfill!r}')
        if reward not in REWARDS:
            raise ValueError(f"{where}: reward must be one of {', '.join(REWARDS)}, not {reward!r}")
        for name, value in (("window", window), ("episode_jobs", episode_jobs)):
            if isinstance(value, bool) or not isinstance(value, int):
                raise TypeError(f"{where}: {name} must be an int, not {type(value).__name__}")
            if value < 1:
                raise ValueError(f"{where}: {name} must be at least 1, not {value}")
        self.trace = trace
        self.mode = mode
        self.window = window
        self.backfill = backfill
        self.episode_jobs = min(episode_jobs, len(trace))
        self.reward_metric = reward
        self.observation_space = spaces.Box(
            low=-1.0, high=np.finfo(np.float32).max, shape=(window, _core.FEATURES), dtype=np.float32
        )
        self.action_space = spaces.Discrete(window if mode == "pick" else 2)
        # The engine writes each observation into this buffer (through the
        # view); a step hands the agent a copy of it.
        self._buffer = bytearray(window * _core.FEATURES * 4)
        self._view = np.frombuffer(self._buffer, dtype="<f4").reshape(window, _core.FEATURES)
        # The masks by decision (see _set_decision); each step hands out a
        # copy, since Gymnasium wants no two steps to share an object.
        self._masks: Dict[int, np.ndarray] = {}
        self._pick = mode == "pick"
        self._episode: Optional[_core.Episode] = None
        self._set_decision((0, False))
        self._done = True
        self._jobs_csv: Optional[str] = None

    def reset(self, *, seed: Optional[int] = None, options: Optional[Dict[str, Any]] = None) -> Tuple[np.ndarray, Dict[str, Any]]:
        super().reset(seed=seed)
        start = int(self.np_random.integers(0, len(self.trace) - self.episode_jobs + 1))
        self._episode = _core.Episode(self.trace._core, start, self.episode_jobs, self.window, self.backfill, self._buffer)
        self._done = False
        self._jobs_csv = None
        decision = self._episode.begin()
        if decision is None:
            raise RuntimeError("the episode ended before its first decision")
        self._set_decision(decision)
        return self._view.copy(), {"action_mask": self._mask.copy(), "first_job": start}

    def step(self, action: Any) -> Tuple[np.ndarray, float, bool, bool, Dict[str, Any]]:
        episode = self._episode
        if episode is None or self._done:
            raise RuntimeError("SchedulingEnv.step(): call reset() first (the episode has ended)")
        a = int(action)
        offered, running = self._decision
        if self._pick:
            invalid = not 0 <= a < offered
            decision = episode.step(0 if invalid else a)
        else:
            invalid = not (offered > 0 and (a == 0 or (a == 1 and running)))
            decision = episode.step(None if a == 1 and not invalid else 0)
        if decision is not None:
            self._set_decision(decision)
            return self._view.copy(), 0.0, False, False, {"action_mask": self._mask.copy(), "invalid_action": invalid}
        metrics_json, self._jobs_csv = episode.result()
        metrics = json.loads(metrics_json)
        self._done = True
        self._set_decision((0, False))
        reward = REWARDS[self.reward_metric] * float(metrics[self.reward_metric])
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

    def _set_decision(self, decision: Tuple[int, bool]) -> None:
        """Keeps the decision, ``(offered, running)``: how many jobs are
        offered and whether a job runs, and its mask, made once for each
        number of offered jobs ("pick") or each pair of (any offered,
        running) ("inspect"), read-only since only copies leave."""
        offered, running = self._decision = decision
        key = offered if self._pick else 2 * min(offered, 1) + running
        mask = self._masks.get(key)
        if mask is None:
            if self._pick:
                mask = np.arange(self.window) < offered
            else:
                mask = np.array([offered > 0, offered > 0 and running])
            mask.flags.writeable = False
            self._masks[key] = mask
        self._mask = mask
