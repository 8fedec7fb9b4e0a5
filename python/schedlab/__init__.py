"""Schedlab from Python: replay HPC workload traces (SWF) under parallel-job
scheduling policies, and get the results as pandas DataFrames.

The work is done by the Schedlab core (Rust), the same code as the command
line and the web page: this package builds requests from keyword
arguments, hands them to the core with the GIL released, and shapes what
comes back into Python objects and DataFrames. Nothing is computed here.

    >>> import schedlab
    >>> trace = schedlab.load("KTH-SP2-1996-2.1-cln.swf.gz")
    >>> run = schedlab.run(trace, policy="easy", predictor="last")
    >>> run.metrics["mbs"], run.jobs.head()
    >>> schedlab.compare(trace, ["fcfs", "easy", "cbf"])

Errors of the core (a bad trace, an unknown parameter, a value out of
range) raise :class:`SchedlabError` (a ``ValueError``) with the core's
message; arguments of the wrong Python type raise ``TypeError`` naming
them. Ctrl-C cancels a run. Long calls show a progress bar when tqdm is
installed (``progress=False`` turns it off).
"""

from __future__ import annotations

import base64
import json
import os
from collections.abc import Mapping
from typing import Any, Dict, Iterator, List, Optional, Sequence, Tuple, Union

from . import _core
from ._core import SchedlabError
from ._progress import Progress, progress_observer

__version__ = _core.VERSION

__all__ = [
    "Experiment",
    "ExperimentResult",
    "Metrics",
    "Run",
    "SchedlabError",
    "Trace",
    "columns",
    "compare",
    "load",
    "run",
    "sweep",
]

Source = Union[str, "os.PathLike[str]", bytes, bytearray]
ParamValue = Union[str, int, float]


def _type_error(where: str, name: str, value: Any, expected: str) -> TypeError:
    return TypeError(f"{where}: {name} must be {expected}, not {type(value).__name__}")


def _check_int(where: str, name: str, value: Any, minimum: int = 0) -> int:
    if isinstance(value, bool) or not isinstance(value, int):
        raise _type_error(where, name, value, "an int")
    if value < minimum:
        raise ValueError(f"{where}: {name} must be at least {minimum}, not {value}")
    return value


def _check_str(where: str, name: str, value: Any) -> str:
    if not isinstance(value, str):
        raise _type_error(where, name, value, "a str")
    return value


def _param_text(where: str, key: Any, value: Any) -> Tuple[str, str]:
    """A parameter as the core reads it: text, as typed on the command line."""
    if not isinstance(key, str):
        raise _type_error(where, "a parameter name", key, "a str")
    if isinstance(value, bool) or not isinstance(value, (str, int, float)):
        raise _type_error(where, f"params[{key!r}]", value, "a str, int or float (choices are text: 'on', 'shortest')")
    return key, value if isinstance(value, str) else repr(value)


def _params(where: str, params: Optional[Mapping[str, ParamValue]]) -> Dict[str, str]:
    if params is None:
        return {}
    if not isinstance(params, Mapping):
        raise _type_error(where, "params", params, "a mapping of parameter names to values")
    return dict(_param_text(where, k, v) for k, v in params.items())


# ---------------------------------------------------------------- traces


class Trace:
    """A trace read and cleaned by the core.

    Attributes: ``name``, ``sha256`` (of the uncompressed text), ``procs``
    (machine size), ``stats`` (the trace's statistics, as ``schedlab stats
    --json`` reports them), ``cleaning`` (jobs removed or changed, by
    cleaning rule), ``warnings``, ``options`` (the workload options it was
    read with), ``header`` (the SWF header's fields) and ``identity`` (all
    of these, as every result document records them). ``len(trace)`` is
    the number of jobs a run replays. ``facts`` and ``cleaning_lines`` are
    the statistics and cleaning counts worded as the page shows them.
    """

    def __init__(self, core: _core.Trace) -> None:
        self._core = core
        self.identity: Dict[str, Any] = json.loads(core.identity_json())
        self.header: Dict[str, Any] = json.loads(core.header_json())

    name = property(lambda self: self.identity["name"], doc="The trace's name (its file name by default).")
    sha256 = property(lambda self: self.identity["sha256"], doc="SHA-256 of the uncompressed text, lowercase hex.")
    procs = property(lambda self: self.identity["procs"], doc="Machine size, processors.")
    stats = property(lambda self: self.identity["stats"], doc="The trace's statistics.")
    cleaning = property(lambda self: self.identity["cleaning"], doc="Counts by cleaning rule, in the order they apply.")
    warnings = property(lambda self: self.identity["warnings"], doc="What the reader warned about.")
    options = property(lambda self: self.identity["options"], doc="The reader's options in force.")

    @property
    def facts(self) -> Dict[str, str]:
        """The statistics as the page words them, in its order:
        ``{"Jobs": "3,000", "Span": "17 d 17 h", ...}``."""
        return dict(_core.trace_facts(self._core))

    @property
    def cleaning_lines(self) -> List[Tuple[str, str, str]]:
        """The cleaning rules that counted something, in the order they
        apply, as ``(key, text, meaning)``: ``("blank_lines", "skipped:
        blank lines: 1 line", "...")``."""
        return _core.cleaning_lines(self._core)

    def _workload(self) -> Dict[str, Any]:
        return json.loads(self._core.workload_json())

    def __len__(self) -> int:
        return len(self._core)

    def __repr__(self) -> str:
        return f"<schedlab.Trace {self.name!r}: {len(self)} jobs on {self.procs} processors>"


def load(
    source: Source,
    *,
    name: Optional[str] = None,
    machine_size: Optional[int] = None,
    first_jobs: Optional[int] = None,
    time_range: Optional[Tuple[int, int]] = None,
    load_factor: Optional[float] = None,
    oversize: Optional[str] = None,
    queues: Optional[Sequence[int]] = None,
    partitions: Optional[Sequence[int]] = None,
    drop_status: Optional[Sequence[int]] = None,
    max_bytes: Optional[int] = None,
    max_jobs: Optional[int] = None,
) -> Trace:
    """Reads a trace: an SWF file, a Slurm ``sacct`` dump or a Batsim
    workload (plain, gzip, zlib, bzip2, xz or zstd; the core tells which
    from the content), by path or as bytes.

    The options are the command line's workload flags: ``machine_size``
    (``--procs``), ``first_jobs`` (``--first``), ``time_range=(from, to)``
    in seconds after the first submission (``--time-range``),
    ``load_factor`` (divides inter-arrival times), ``oversize`` ("drop" or
    "clamp" jobs wider than the machine), ``queues``/``partitions`` (keep
    only these), ``drop_status`` (drop jobs of these SWF statuses),
    ``max_bytes`` and ``max_jobs`` (limits). ``name`` (default: the file's
    name, ``trace.swf`` for bytes) is recorded in every result; the core
    also recognises the archive's traces by it (their paper machine sizes).
    """
    where = "load()"
    if name is not None:
        _check_str(where, "name", name)
    if first_jobs is not None and time_range is not None:
        raise ValueError(f"{where}: first_jobs and time_range cannot be used together")
    workload: Dict[str, Any] = {
        "machine_size": machine_size,
        "load_factor": load_factor,
        "oversize": oversize,
        "queues": None if queues is None else list(queues),
        "partitions": None if partitions is None else list(partitions),
        "drop_status": None if drop_status is None else list(drop_status),
        "max_bytes": max_bytes,
        "max_jobs": max_jobs,
    }
    if first_jobs is not None:
        workload["window"] = {"first_jobs": first_jobs}
    if time_range is not None:
        if not isinstance(time_range, (tuple, list)) or len(time_range) != 2:
            raise _type_error(where, "time_range", time_range, "a pair (from, to) of seconds")
        workload["window"] = {"time_range": {"from": time_range[0], "to": time_range[1]}}
    workload = {k: v for k, v in workload.items() if v is not None}
    return _load(source, name, workload)


def _load(source: Source, name: Optional[str], workload: Dict[str, Any]) -> Trace:
    if isinstance(source, Trace):
        raise TypeError("load(): this is already a Trace")
    return Trace(_core.open_trace(source, name, json.dumps(workload)))


# ------------------------------------------------------------------ runs


def _catalogue() -> List[Dict[str, Any]]:
    return json.loads(_core.columns())


_CATALOGUE = _catalogue()
_UNITS = {c["key"]: c["unit"] for c in _CATALOGUE}


def columns() -> "Any":
    """The column catalogue as a DataFrame: every metric's key, label, unit
    (``s``, ``processors``, ``%`` or none for counts and ratios), digits,
    description, and whether tables show it by default."""
    import pandas as pd

    return pd.DataFrame(_CATALOGUE)


class Metrics(Mapping):
    """Every metric of the column catalogue that a run reported, by key
    (``run.metrics["mbs"]``); ``None`` for a metric without a value (a mean
    over no job). ``metrics.table()`` gives them with their labels, units
    and explanations. The whole metrics document, with its tables
    (categories, blocked-job groups, fair-slowdown rows), is
    ``run.document["metrics"]``.

    The keys, with their units (from the catalogue):
    """

    def __init__(self, values: Sequence[Tuple[str, Optional[float]]]) -> None:
        self._values = dict(values)

    def __getitem__(self, key: str) -> Optional[float]:
        try:
            return self._values[key]
        except KeyError:
            raise KeyError(f"{key!r} is not a metric this run reported (see schedlab.columns())") from None

    def __iter__(self) -> Iterator[str]:
        return iter(self._values)

    def __len__(self) -> int:
        return len(self._values)

    def unit(self, key: str) -> Optional[str]:
        """The unit of metric ``key``: ``s``, ``processors``, ``%``, or None."""
        return _UNITS[key]

    def table(self) -> "Any":
        """key, label, unit, value, description: one row per metric."""
        import pandas as pd

        rows = [dict(c, value=self._values[c["key"]]) for c in _CATALOGUE if c["key"] in self._values]
        return pd.DataFrame(rows, columns=["key", "label", "unit", "value", "description"])

    def __repr__(self) -> str:
        return f"Metrics({self._values!r})"


Metrics.__doc__ = (Metrics.__doc__ or "") + "".join(
    f"\n    - ``{c['key']}`` ({c['unit'] or 'no unit'}): {c['description']}" for c in _CATALOGUE
)


class Run:
    """A finished, checked run.

    ``document`` is the result document as ``schedlab run --json`` prints
    it (without the host-measured ``elapsed_ms``), ``to_json()`` its text;
    ``metrics`` the catalogue's metrics; ``jobs`` the per-job table as a
    pandas DataFrame (built once, on first use).
    """

    def __init__(self, trace: Trace, core: _core.Run) -> None:
        self.trace = trace
        self._core = core
        self._json: str = core.document_json()
        self.document: Dict[str, Any] = json.loads(self._json)
        self.metrics = Metrics(core.catalogue_metrics())
        self._jobs: Any = None

    policy = property(lambda self: self.document["policy"], doc="The policy's id.")
    predictor = property(lambda self: self.document["predictor"], doc="The runtime source's id.")
    params = property(lambda self: self.document["params"], doc="Every parameter in force, defaults filled in.")
    seed = property(lambda self: self.document["seed"], doc="The run's seed.")

    def to_json(self) -> str:
        """The result document's text, byte for byte ``schedlab run --json``'s
        without its ``elapsed_ms`` line."""
        return self._json

    @property
    def jobs(self) -> "Any":
        """The per-job table (``schedlab run --jobs-csv``), one row per job
        in priority order: ``job`` (number), ``user``, ``size``
        (processors), ``submit``, ``start`` (last start), ``end``, ``wait``
        (end − submit − runtime), ``runtime``, ``estimate``, ``prediction``
        (all in seconds), ``bsd`` (bounded slowdown), ``preempted`` (times),
        ``backfilled``, ``blocked`` (bool), ``fair_start`` and
        ``reservation`` (seconds, nullable ``Int64``: ``<NA>`` for none)."""
        if self._jobs is None:
            self._jobs = _jobs_frame(self._core.jobs_columns())
        return self._jobs

    def jobs_csv(self, path: Optional[Union[str, "os.PathLike[str]"]] = None) -> Optional[str]:
        """The per-job table as CSV text, or written to ``path``."""
        return _text_out(self._core.jobs_csv(), path)

    def to_batsim_csv(self, path: Optional[Union[str, "os.PathLike[str]"]] = None) -> Optional[str]:
        """The run as Batsim's ``jobs.csv`` (the columns Batsim 5 writes,
        which evalys reads; ``stretch`` is Batsim's unbounded one, beside
        our bounded slowdown ``bsd``), as text or written to ``path``."""
        return _text_out(self._core.batsim_jobs_csv(), path)

    def schedule_swf(self, path: Optional[Union[str, "os.PathLike[str]"]] = None) -> Optional[str]:
        """The simulated schedule as SWF (field 3 the simulated wait), as text
        or written to ``path``."""
        return _text_out(self._core.schedule_swf(), path)

    def file_name(self, kind: str, ending: str) -> str:
        """The name the page gives this run's file of ``kind``: the trace,
        the policy, the kind, e.g. ``run.file_name("jobs", "csv")`` is
        ``kth-sp2-first3000-easy-jobs.csv``."""
        where = "Run.file_name()"
        kind, ending = _check_str(where, "kind", kind), _check_str(where, "ending", ending)
        return _core.download_name(self.trace.name, self.policy, kind, ending)

    def __repr__(self) -> str:
        return f"<schedlab.Run {self.policy}@{self.predictor} on {self.trace.name!r}: MBS {self.metrics.get('mbs')}>"


def _text_out(text: str, path: Optional[Union[str, "os.PathLike[str]"]]) -> Optional[str]:
    if path is None:
        return text
    with open(path, "w", encoding="utf-8", newline="") as f:
        f.write(text)
    return None


def _jobs_frame(columns: Sequence[Tuple[str, str, bytes, Optional[bytes]]]) -> "Any":
    """The DataFrame of the core's per-job columns (little-endian bytes)."""
    import numpy as np
    import pandas as pd

    data: Dict[str, Any] = {}
    for name, kind, raw, mask in columns:
        if kind == "Int64":
            values = np.frombuffer(raw, dtype="<i8")
            data[name] = pd.arrays.IntegerArray(values, np.frombuffer(mask, dtype=np.bool_))
        elif kind == "bool":
            data[name] = np.frombuffer(raw, dtype=np.bool_)
        else:
            data[name] = np.frombuffer(raw, dtype="<" + kind)
    return pd.DataFrame(data)


def _metric_settings(
    where: str,
    check: bool,
    bsd_threshold: Optional[int],
    skip_percent: Optional[float],
    short_runtime: Optional[int],
    narrow_size: Optional[int],
) -> Dict[str, Any]:
    if not isinstance(check, bool):
        raise _type_error(where, "check", check, "a bool")
    given = {
        "bsd_threshold": bsd_threshold,
        "skip_percent": skip_percent,
        "short_runtime": short_runtime,
        "narrow_size": narrow_size,
        "check": check,
    }
    return {k: v for k, v in given.items() if v is not None}


def _check_trace(where: str, trace: Any) -> Trace:
    if not isinstance(trace, Trace):
        raise _type_error(where, "trace", trace, "a schedlab.Trace (from schedlab.load)")
    return trace


def _run_specs(where: str, policies: Any, predictor: Optional[str]) -> List[Dict[str, Any]]:
    if isinstance(policies, str) or not isinstance(policies, Sequence) or not policies:
        raise _type_error(where, "policies", policies, "a non-empty list of run specs such as ['fcfs', 'easy@last']")
    if predictor is not None:
        _check_str(where, "predictor", predictor)
    return [json.loads(_core.run_spec(_check_str(where, f"policies[{i}]", p), predictor)) for i, p in enumerate(policies)]


def run(
    trace: Trace,
    policy: str = "easy",
    predictor: Optional[str] = None,
    params: Optional[Mapping[str, ParamValue]] = None,
    seed: int = 0,
    *,
    check: bool = True,
    bsd_threshold: Optional[int] = None,
    skip_percent: Optional[float] = None,
    short_runtime: Optional[int] = None,
    narrow_size: Optional[int] = None,
    progress: Progress = None,
) -> Run:
    """Replays ``trace`` under one policy, checks the run (``check=False``
    skips the run checker) and computes every metric, as ``schedlab run``.

    ``policy`` is a policy id (``fcfs``, ``easy``, ``cbf``, ``pv-easy``, …;
    ``schedlab policies`` lists them) or a run spec ``ID[:KEY=VALUE,...][@PREDICTOR]``;
    ``predictor`` a runtime source (``estimate``, ``exact``, ``last``,
    ``tsafrir``, ``virtual``); ``params`` the policy's and the predictor's
    parameters (``{"order": "shortest"}``, ``{"error": 20}``); ``seed`` the
    seed of every random draw. ``bsd_threshold`` (τ, s), ``skip_percent``,
    ``short_runtime`` (s) and ``narrow_size`` (processors) are the metric
    options. ``progress``: see the module's documentation.
    """
    where = "run()"
    _check_trace(where, trace)
    _check_str(where, "policy", policy)
    _check_int(where, "seed", seed)
    spec = json.loads(_core.run_spec(policy, None))
    if predictor is not None:
        if "predictor" in spec:
            raise ValueError(f"run(): the policy spec {policy!r} names a predictor, and predictor={predictor!r} is given too")
        spec["predictor"] = _check_str(where, "predictor", predictor)
    for key, value in _params(where, params).items():
        if key in spec["params"]:
            raise ValueError(f"run(): parameter {key!r} is given both in the policy spec and in params")
        spec["params"][key] = value
    experiment = {
        "runs": [spec],
        "seed": seed,
        "workload": trace._workload(),
        "metrics": _metric_settings(where, check, bsd_threshold, skip_percent, short_runtime, narrow_size),
    }
    with progress_observer(progress, len(trace)) as observer:
        core = _core.run(trace._core, json.dumps(experiment), observer)
    return Run(trace, core)


# ----------------------------------------------------------- experiments


class ExperimentResult:
    """An experiment's result: ``document`` (its points and the summary of
    every run and sweep value: mean and 95 % interval of every metric),
    ``to_json()`` its text (what the page exports and ``schedlab sweep
    --json`` writes, without host-measured times), ``summary`` the tidy
    DataFrame of :func:`compare` and :func:`sweep`."""

    def __init__(self, core: _core.ExperimentRun) -> None:
        self._core = core
        self._json: str = core.to_json()
        self.document: Dict[str, Any] = json.loads(self._json)

    def to_json(self) -> str:
        return self._json

    @property
    def summary(self) -> "Any":
        """One row per run, sweep value and metric of the catalogue:
        ``run`` (index), ``label`` (the run spec), ``value`` (the sweep
        value as text; missing for a run the sweep does not apply to),
        ``metric`` (catalogue key), ``mean``, ``ci95`` (half-width of the
        95 % Student-t interval of the mean; NaN for one repetition),
        ``repetitions``, ``unit``."""
        import pandas as pd

        names = ["run", "label", "value", "metric", "mean", "ci95", "repetitions"]
        frame = pd.DataFrame(self._core.tidy(), columns=names)
        frame["mean"] = frame["mean"].astype("float64")
        frame["ci95"] = frame["ci95"].astype("float64")
        frame["unit"] = frame["metric"].map(_UNITS)
        return frame


class Experiment:
    """Several runs (policy, parameters, predictor), repetitions with seeds
    ``seed, seed + 1, …`` and at most one swept parameter, on a trace read
    with given workload options: the core's experiment, as the command
    line's ``compare``/``sweep`` and the page's form build it.

    ``definition`` is its JSON form (the ``experiment`` of a result
    document and of a share link); ``trace`` where a share link's trace
    comes from (``None`` otherwise).
    """

    def __init__(self, definition: Dict[str, Any], trace: Optional[Dict[str, Any]] = None) -> None:
        self.definition = definition
        self.trace = trace

    @classmethod
    def from_link(cls, url: str) -> "Experiment":
        """The experiment of a page's share link (the whole URL or its
        fragment, ``#v2=…`` or the first page's ``#v1=…``), checked by the core."""
        link = json.loads(_core.decode_link(_check_str("Experiment.from_link()", "url", url)))
        return cls(link["experiment"], link.get("trace"))

    def link(self) -> str:
        """The fragment of a share link to this experiment (``v2=…``): open
        the page's address followed by ``#`` and it."""
        data: Dict[str, Any] = {"experiment": self.definition}
        if self.trace is not None:
            data["trace"] = self.trace
        text = json.dumps(data, separators=(",", ":"), ensure_ascii=False)
        fragment = "v2=" + base64.urlsafe_b64encode(text.encode()).decode().rstrip("=")
        _core.decode_link(fragment)
        return fragment

    def run(self, trace: Union[Trace, Source, None] = None, *, progress: Progress = None) -> ExperimentResult:
        """Runs every point. ``trace`` is a loaded Trace (read with the
        experiment's workload options), a path or bytes (read with them),
        or None for a share link's own trace: a sample the page bundles, or
        the generator's trace (a file or a URL must be given)."""
        loaded = self._trace(trace)
        points = json.dumps(self.definition)
        with progress_observer(progress, len(loaded)) as observer:
            core = _core.run_experiment(loaded._core, points, observer)
        return ExperimentResult(core)

    def _trace(self, trace: Union[Trace, Source, None]) -> Trace:
        workload = self.definition.get("workload", {})
        if isinstance(trace, Trace):
            return trace
        if trace is not None:
            loaded = _load(trace, None, workload)
            ref = self.trace or {}
            if ref.get("kind") == "file" and ref.get("sha256") != loaded.sha256:
                raise SchedlabError(
                    f"the link was made with the file {ref.get('name')} (sha256 {ref.get('sha256')}), "
                    f"and this trace's sha256 is {loaded.sha256}"
                )
            return loaded
        ref = self.trace
        kind = None if ref is None else ref["kind"]
        if kind == "sample":
            name, data = _core.sample(ref["id"])
            return _load(data, name, workload)
        if kind == "generated":
            generator = (ref["procs"], ref["jobs"], ref["load"], ref["seed"])
            data = _core.generate_lublin(*generator)
            return _load(data, _core.generated_trace_name(*generator), workload)
        if kind == "file":
            raise SchedlabError(
                f"the link's trace is the file {ref['name']} (sha256 {ref['sha256']}): pass it as run(trace=...)"
            )
        if kind == "url":
            raise SchedlabError(f"the link's trace is at {ref['url']}: download it and pass it as run(trace=...)")
        raise SchedlabError("this experiment names no trace: pass one as run(trace=...)")


def _experiment(
    where: str,
    trace: Trace,
    policies: Sequence[str],
    predictor: Optional[str],
    params: Optional[Mapping[str, ParamValue]],
    repeat: int,
    seed: int,
    metrics: Dict[str, Any],
) -> Dict[str, Any]:
    _check_trace(where, trace)
    return {
        "runs": _run_specs(where, policies, predictor),
        "params": _params(where, params),
        "repeat": _check_int(where, "repeat", repeat, 1),
        "seed": _check_int(where, "seed", seed),
        "workload": trace._workload(),
        "metrics": metrics,
    }


def compare(
    trace: Trace,
    policies: Sequence[str],
    *,
    predictor: Optional[str] = None,
    params: Optional[Mapping[str, ParamValue]] = None,
    repeat: int = 1,
    seed: int = 0,
    check: bool = True,
    bsd_threshold: Optional[int] = None,
    skip_percent: Optional[float] = None,
    short_runtime: Optional[int] = None,
    narrow_size: Optional[int] = None,
    progress: Progress = None,
) -> "Any":
    """Runs several policies on one trace, as ``schedlab compare`` (each
    ``repeat`` times, seeds ``seed, seed + 1, …``), and returns the tidy
    DataFrame of :attr:`ExperimentResult.summary` without its ``value``
    column: one row per run and metric, with the mean and the half-width
    of its 95 % interval.

    ``policies`` are run specs ``ID[:KEY=VALUE,...][@PREDICTOR]``
    (``["fcfs", "easy:order=shortest@last", "cbf"]``); ``predictor`` is
    given to every run that names none and reads runtimes; ``params`` to
    every run that takes them.
    """
    where = "compare()"
    metrics = _metric_settings(where, check, bsd_threshold, skip_percent, short_runtime, narrow_size)
    experiment = _experiment(where, trace, policies, predictor, params, repeat, seed, metrics)
    summary = Experiment(experiment).run(trace, progress=progress).summary
    return summary.drop(columns=["value"])


def sweep(
    trace: Trace,
    policies: Sequence[str],
    param: str,
    values: Union[str, Sequence[ParamValue]],
    *,
    predictor: Optional[str] = None,
    params: Optional[Mapping[str, ParamValue]] = None,
    runs: Optional[Sequence[int]] = None,
    repeat: int = 1,
    seed: int = 0,
    check: bool = True,
    bsd_threshold: Optional[int] = None,
    skip_percent: Optional[float] = None,
    short_runtime: Optional[int] = None,
    narrow_size: Optional[int] = None,
    progress: Progress = None,
) -> "Any":
    """Runs every policy at every value of parameter ``param``, as
    ``schedlab sweep``, and returns the tidy DataFrame of
    :attr:`ExperimentResult.summary`: one row per point (run, value) and
    metric, with the mean and the half-width of its 95 % interval.

    ``values`` is a list (``[0, 20, 40]``) or an inclusive range
    ``"FROM:TO:STEP"``. The sweep applies to every run that takes
    ``param`` (or only to the runs at the indices ``runs``); the others
    run once per repetition, with ``value`` missing.
    """
    where = "sweep()"
    _check_str(where, "param", param)
    metrics = _metric_settings(where, check, bsd_threshold, skip_percent, short_runtime, narrow_size)
    experiment = _experiment(where, trace, policies, predictor, params, repeat, seed, metrics)
    if isinstance(values, str):
        definition = json.loads(_core.parse_sweep(f"{param}={values}"))
    elif isinstance(values, Sequence) and values:
        definition = {"param": param, "values": [_param_text(where, param, v)[1] for v in values]}
    else:
        raise _type_error(where, "values", values, "a non-empty list of values or a range 'FROM:TO:STEP'")
    if runs is not None:
        definition["runs"] = [_check_int(where, "runs[]", r) for r in runs]
    experiment["sweep"] = definition
    return Experiment(experiment).run(trace, progress=progress).summary
