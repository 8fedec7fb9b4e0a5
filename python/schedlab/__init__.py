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

Errors of the core raise :class:`SchedlabError` (a ``ValueError``) or one
of its subclasses, one for each kind of error the core tells apart:
:class:`TraceError`, :class:`LimitError`, :class:`OptionError`,
:class:`PolicyError`, :class:`ExperimentError`, :class:`LinkError`,
:class:`MergeError`, :class:`RunError`, :class:`CancelledError`,
:class:`ExportError` and :class:`StateError`, each with the core's message; they pickle, so an
error in a worker process reaches its parent as itself. Arguments of the
wrong Python type raise ``TypeError`` naming them. Ctrl-C cancels a run or
a read. Long calls show a progress bar when tqdm is installed
(``progress=False`` turns it off). Traces and runs pickle (a trace as the
bytes it was read from, a run as its trace and request, replayed), so they
can be sent to other processes.
"""

from __future__ import annotations

import base64
import json
import os
import warnings
from collections.abc import Mapping
from datetime import datetime
from datetime import tzinfo as datetime_tzinfo
from pathlib import Path
from typing import Any, Dict, Iterator, List, Optional, Sequence, Tuple, TypedDict, Union

from . import _args, _clock, _core
from ._core import (
    CancelledError,
    ExperimentError,
    ExportError,
    LimitError,
    LinkError,
    MergeError,
    OptionError,
    PolicyError,
    RunError,
    SchedlabError,
    StateError,
    TraceError,
)
from ._progress import Progress, progress_observer

__version__ = _core.VERSION

__all__ = [
    "CancelledError",
    "Experiment",
    "ExperimentError",
    "ExperimentResult",
    "ExportError",
    "JobRow",
    "LimitError",
    "LinkError",
    "MergeError",
    "Metrics",
    "OptionError",
    "PolicyError",
    "Run",
    "RunError",
    "SchedlabError",
    "StateError",
    "SummaryRow",
    "Trace",
    "TraceError",
    "columns",
    "compare",
    "load",
    "run",
    "sweep",
]

Source = Union[str, "os.PathLike[str]", bytes, bytearray]
ParamValue = Union[str, int, float]


class JobRow(TypedDict, total=False):
    """One row of :attr:`Run.jobs`: its columns and their types (``int``
    is ``int64``, but ``job``, the trace's job number, is ``uint64``;
    ``Optional[int]`` the nullable ``Int64``, ``datetime`` a
    ``datetime64`` in the trace's zone, :attr:`Trace.time_zone`; the
    ``*_time`` columns only when the trace's header gives
    ``UnixStartTime``)."""

    job: int
    user: int
    size: int
    submit: int
    start: int
    end: int
    wait: int
    runtime: int
    estimate: int
    prediction: int
    bsd: float
    preempted: int
    backfilled: bool
    blocked: bool
    fair_start: Optional[int]
    reservation: Optional[int]
    submit_time: datetime
    start_time: datetime
    end_time: datetime


class SummaryRow(TypedDict, total=False):
    """One row of :attr:`ExperimentResult.summary` (and of what
    :func:`compare`, without ``value``, and :func:`sweep` return)."""

    run: int
    label: str
    value: Optional[str]
    metric: str
    mean: float
    ci95: float
    repetitions: int
    unit: Optional[str]


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

    A trace never changes, so ``copy.copy`` and ``copy.deepcopy`` give it
    back as it is. It pickles as the bytes it was read from (a file's are
    read at each pickling, never kept) with its name and options, and is read
    again on the other side, which checks that the text is the same
    (its SHA-256): a file changed since it was loaded is refused.
    """

    def __init__(self, core: _core.Trace, source: Source, name: Optional[str], workload: Dict[str, Any]) -> None:
        self._core = core
        self._source = source
        self._request = (name, workload)
        self.identity: Dict[str, Any] = json.loads(core.identity_json())
        self.header: Dict[str, Any] = json.loads(core.header_json())
        self._zone: Optional[_clock.TimeZone] = None

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

    @property
    def time_zone(self) -> Optional[datetime_tzinfo]:
        """The zone of the datetime columns (``Run.jobs``' ``*_time``): the
        header's ``TimeZoneString`` when it is a zone of Python's IANA
        database (``Europe/Stockholm``, with its daylight saving), else
        its ``TimeZone`` as a fixed offset (the dates the page shows), else
        UTC; None when the header gives no ``UnixStartTime``.
        :attr:`time_zone_note` says which."""
        return self._time_zone().zone

    @property
    def time_zone_note(self) -> str:
        """One sentence saying which zone the datetimes are in, and why."""
        return self._time_zone().note

    def _time_zone(self) -> _clock.TimeZone:
        if self._zone is None:
            self._zone = _clock.time_zone(self._core.clock_json())
        return self._zone

    def _workload(self) -> Dict[str, Any]:
        return json.loads(self._core.workload_json())

    def __len__(self) -> int:
        return len(self._core)

    def __repr__(self) -> str:
        return f"<schedlab.Trace {self.name!r}: {len(self)} jobs on {self.procs} processors>"

    def __copy__(self) -> "Trace":
        return self

    def __deepcopy__(self, memo: Dict[int, Any]) -> "Trace":
        return self

    def __reduce__(self) -> Tuple[Any, Tuple[Any, ...]]:
        # A file is read again at each pickling and its bytes are not kept:
        # a trace of a large file would otherwise hold the whole file for
        # as long as it lives after its first pickling (an executor's
        # sweep pickles it once per task, and the pickle copies the bytes
        # anyway, so one more read of a file the system caches costs less
        # than the copy). The other side refuses bytes that changed.
        source = self._source
        data = source if isinstance(source, bytes) else bytes(source) if isinstance(source, bytearray) else Path(source).read_bytes()
        name, workload = self._request
        return (_unpickle_trace, (data, name or self.name, workload, self.sha256))


def _unpickle_trace(data: bytes, name: str, workload: Dict[str, Any], sha256: str) -> Trace:
    trace = _load(data, name, workload)
    if trace.sha256 != sha256:
        raise TraceError(f"{name}: the file changed after it was loaded (sha256 {sha256}, now {trace.sha256})")
    return trace


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
    nodes: Optional[str] = None,
    slurm_conf: Optional[Union[str, "os.PathLike[str]"]] = None,
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

    ``nodes`` (``--nodes``, ``"128x(cpu=64,mem=256G,gpu=4)"``) or
    ``slurm_conf`` (``--slurm-conf``, the path of a slurm.conf whose
    ``NodeName``, ``PartitionName`` and ``GresTypes`` lines are read; one
    :class:`UserWarning` lists the lines not read) read the trace for a
    machine of nodes: each job's request is read from its Slurm ``ReqTRES``
    (docs/semantics.md), runs place jobs on nodes, and :attr:`Run.jobs`
    gains what each job held. Not both.

    A trace the core cannot read raises :class:`TraceError`; an option it
    refuses (a machine description included), :class:`OptionError`; a file
    that cannot be opened, the ``OSError`` of its cause. Ctrl-C stops the
    read.
    """
    where = "load()"
    a = _args
    _args.optional(a.text, where, "name", name)
    if first_jobs is not None and time_range is not None:
        raise ValueError(f"{where}: first_jobs and time_range cannot be used together")
    workload: Dict[str, Any] = {
        "machine_size": a.optional(a.integer, where, "machine_size", machine_size, a.U32),
        "load_factor": a.optional(a.number, where, "load_factor", load_factor),
        "oversize": a.optional(a.text, where, "oversize", oversize),
        "queues": a.optional(a.integers, where, "queues", queues, a.I32),
        "partitions": a.optional(a.integers, where, "partitions", partitions, a.I32),
        "drop_status": a.optional(a.integers, where, "drop_status", drop_status, a.I32),
        "max_bytes": a.optional(a.integer, where, "max_bytes", max_bytes, a.U64),
        "max_jobs": a.optional(a.integer, where, "max_jobs", max_jobs, a.U64),
    }
    if first_jobs is not None:
        workload["window"] = {"first_jobs": a.integer(where, "first_jobs", first_jobs, a.U64)}
    if time_range is not None:
        if not isinstance(time_range, (tuple, list)) or len(time_range) != 2:
            raise a.type_error(where, "time_range", time_range, "a pair (from, to) of seconds")
        low, high = (a.integer(where, f"time_range[{i}]", t, a.I64) for i, t in enumerate(time_range))
        workload["window"] = {"time_range": {"from": low, "to": high}}
    workload["machine"] = _machine(where, nodes, slurm_conf)
    workload = {k: v for k, v in workload.items() if v is not None}
    return _load(source, name, workload)


def _machine(
    where: str, nodes: Optional[str], slurm_conf: Optional[Union[str, "os.PathLike[str]"]]
) -> Optional[Dict[str, Any]]:
    """The machine of nodes of ``load(nodes=…)`` or ``load(slurm_conf=…)``
    as the workload options hold it, read by the core's own readers (the
    command line's ``--nodes`` and ``--slurm-conf``); ``None`` for neither."""
    if nodes is not None and slurm_conf is not None:
        raise ValueError(f"{where}: nodes and slurm_conf cannot be used together")
    if nodes is not None:
        _args.text(where, "nodes", nodes)
        return json.loads(_core.nodes_machine(nodes))
    if slurm_conf is None:
        return None
    if not isinstance(slurm_conf, (str, os.PathLike)):
        raise _args.type_error(where, "slurm_conf", slurm_conf, "the path of a slurm.conf")
    with open(slurm_conf, encoding="utf-8") as f:
        text = f.read()
    machine, notes = _core.slurm_conf_machine(text, f"load(slurm_conf={os.fspath(slurm_conf)!r})")
    for note in notes:
        warnings.warn(note, stacklevel=3)
    return json.loads(machine)


def _load(source: Source, name: Optional[str], workload: Dict[str, Any]) -> Trace:
    if isinstance(source, Trace):
        raise TypeError("load(): this is already a Trace")
    return Trace(_core.open_trace(source, name, json.dumps(workload)), source, name, workload)


# ------------------------------------------------------------------ runs


def _catalogue() -> List[Dict[str, Any]]:
    return json.loads(_core.columns())


_CATALOGUE = _catalogue()
_UNITS = {c["key"]: c["unit"] for c in _CATALOGUE}
# A count is what the catalogue shows as a whole number with no unit (jobs,
# violations, culprits); its value is an int.
_COUNTS = frozenset(c["key"] for c in _CATALOGUE if c["unit"] is None and c["digits"] == 0)


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
    ``run.document["metrics"]``. Counts (the catalogue's whole numbers
    without a unit: ``jobs``, ``backfilled``, ``blocked``, violations …)
    are ints, every other value a float.

    The keys, with their units (from the catalogue):
    """

    def __init__(self, values: Sequence[Tuple[str, Optional[float]]]) -> None:
        self._values: Dict[str, Union[int, float, None]] = {
            k: int(v) if k in _COUNTS and v is not None else v for k, v in values
        }

    def __getitem__(self, key: str) -> Union[int, float, None]:
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

    A run pickles as its trace and its request, and is run again on the
    other side: a run is a pure function of them, so the copy is the same
    run, byte for byte.
    """

    def __init__(self, trace: Trace, core: _core.Run, request: str) -> None:
        self.trace = trace
        self._core = core
        self._request = request
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
        ``reservation`` (seconds, nullable ``Int64``: ``<NA>`` for none);
        on a machine of nodes, what each job held: ``partition`` (a
        categorical of the machine's partition names), ``nodes``, and one
        ``uint64`` column per resource of the machine, named as it is
        (``cpu`` cores, ``mem`` MiB, ``gpu``, …; a job of an exclusive
        partition holds its nodes whole); and, when the trace's header gives
        ``UnixStartTime``, ``submit_time``, ``start_time`` and ``end_time``
        as datetimes in the trace's zone (:attr:`Trace.time_zone`; a warning
        when the header names a zone Python's database does not know).
        Times and counts are ``int64``, ``bsd`` ``float64``."""
        if self._jobs is None:
            zone = self.trace._time_zone()
            _clock.warn_unknown(self.trace.name, zone)
            columns = self._core.jobs_columns()
            names = self._core.partition_names()
            self._jobs = _jobs_frame(columns, self.trace.header.get("unix_start_time"), zone.zone, names)
        return self._jobs

    def jobs_csv(self, path: Optional[Union[str, "os.PathLike[str]"]] = None) -> Optional[str]:
        """The per-job table as CSV text, or written to ``path`` (see
        :meth:`Run.write`)."""
        return self._out("jobs_csv", path)

    def to_batsim_csv(self, path: Optional[Union[str, "os.PathLike[str]"]] = None) -> Optional[str]:
        """The run as Batsim's ``jobs.csv`` (the columns Batsim 5 writes,
        which evalys reads; ``stretch`` is Batsim's unbounded one, beside
        our bounded slowdown ``bsd``), as text or written to ``path``."""
        return self._out("batsim_jobs_csv", path, "to_batsim_csv")

    def schedule_swf(self, path: Optional[Union[str, "os.PathLike[str]"]] = None) -> Optional[str]:
        """The simulated schedule as SWF (field 3 the simulated wait), as text
        or written to ``path``."""
        return self._out("schedule_swf", path)

    def _out(self, what: str, path: Any, call: Optional[str] = None) -> Optional[str]:
        """The text of output ``what``, or None once written to ``path`` by
        the command line's writer (``schedlab-outputs``): all or nothing,
        the file replaced only once the whole text is on disk (its mode
        kept, no temporary file left), and never the trace's own file,
        whatever path names it (a link, ``/proc/self/fd/N``). A refused or
        failed write raises :class:`ExportError` and changes nothing."""
        call = call or what
        if path is None:
            return getattr(self._core, what)()
        if not isinstance(path, (str, os.PathLike)):
            raise _args.type_error(f"{call}()", "path", path, "a path (str or os.PathLike) or None")
        self._core.write(what, os.fspath(path), f"{call}()")
        return None

    def file_name(self, kind: str, ending: str) -> str:
        """The name the page gives this run's file of ``kind``: the trace,
        the policy, the kind, e.g. ``run.file_name("jobs", "csv")`` is
        ``kth-sp2-first3000-easy-jobs.csv``."""
        where = "Run.file_name()"
        kind, ending = _args.text(where, "kind", kind), _args.text(where, "ending", ending)
        return _core.download_name(self.trace.name, self.policy, kind, ending)

    def __repr__(self) -> str:
        return f"<schedlab.Run {self.policy}@{self.predictor} on {self.trace.name!r}: MBS {self.metrics.get('mbs')}>"

    def __reduce__(self) -> Tuple[Any, Tuple[Any, ...]]:
        return (_unpickle_run, (self.trace, self._request))


def _unpickle_run(trace: Trace, request: str) -> Run:
    return Run(trace, _core.run(trace._core, request, None), request)


def _jobs_frame(
    columns: Sequence[Tuple[str, str, bytes, Optional[bytes]]],
    unix_start: Optional[int],
    zone: Optional[datetime_tzinfo],
    categories: Sequence[str] = (),
) -> "Any":
    """The DataFrame of the core's per-job columns (little-endian bytes),
    with the instants as datetimes in ``zone`` when the trace says when its
    second 0 was (``UnixStartTime``); a ``category`` column holds ``uint32``
    codes into ``categories``."""
    import numpy as np
    import pandas as pd

    data: Dict[str, Any] = {}
    for name, kind, raw, mask in columns:
        if kind == "Int64":
            values = np.frombuffer(raw, dtype="<i8")
            data[name] = pd.arrays.IntegerArray(values, np.frombuffer(mask, dtype=np.bool_))
        elif kind == "bool":
            data[name] = np.frombuffer(raw, dtype=np.bool_)
        elif kind == "category":
            codes = np.frombuffer(raw, dtype="<u4").astype(np.int64)
            data[name] = pd.Categorical.from_codes(codes, categories=list(categories))
        else:
            data[name] = np.frombuffer(raw, dtype="<" + kind)
    if unix_start is not None and zone is not None:
        # Instants are added in UTC and then shown in the zone, so that a
        # daylight-saving change between two of them shifts nothing.
        origin = pd.Timestamp(unix_start, unit="s", tz="UTC")
        for name in ("submit", "start", "end"):
            data[f"{name}_time"] = (origin + pd.to_timedelta(data[name], unit="s")).tz_convert(zone)
    return pd.DataFrame(data)


def _metric_settings(
    where: str,
    check: bool,
    bsd_threshold: Optional[int],
    skip_percent: Optional[float],
    short_runtime: Optional[int],
    narrow_size: Optional[int],
) -> Dict[str, Any]:
    a = _args
    given = {
        "bsd_threshold": a.optional(a.integer, where, "bsd_threshold", bsd_threshold, a.I64),
        "skip_percent": a.optional(a.number, where, "skip_percent", skip_percent),
        "short_runtime": a.optional(a.integer, where, "short_runtime", short_runtime, a.I64),
        "narrow_size": a.optional(a.integer, where, "narrow_size", narrow_size, a.U32),
        "check": a.flag(where, "check", check),
    }
    return {k: v for k, v in given.items() if v is not None}


def _check_trace(where: str, trace: Any) -> Trace:
    if not isinstance(trace, Trace):
        raise _args.type_error(where, "trace", trace, "a schedlab.Trace (from schedlab.load)")
    return trace


def _run_specs(where: str, policies: Any, predictor: Optional[str]) -> List[Dict[str, Any]]:
    if isinstance(policies, str) or not isinstance(policies, Sequence) or not policies:
        raise _args.type_error(where, "policies", policies, "a non-empty list of run specs such as ['fcfs', 'easy@last']")
    _args.optional(_args.text, where, "predictor", predictor)
    return [json.loads(_core.run_spec(spec, predictor)) for spec in _args.texts(where, "policies", policies)]


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
    _args.text(where, "policy", policy)
    _args.integer(where, "seed", seed, _args.U64)
    spec = json.loads(_core.run_spec(policy, None))
    if predictor is not None:
        if "predictor" in spec:
            raise ValueError(f"run(): the policy spec {policy!r} names a predictor, and predictor={predictor!r} is given too")
        spec["predictor"] = _args.text(where, "predictor", predictor)
    for key, value in _args.params(where, params).items():
        if key in spec["params"]:
            raise ValueError(f"run(): parameter {key!r} is given both in the policy spec and in params")
        spec["params"][key] = value
    experiment = {
        "runs": [spec],
        "seed": seed,
        "workload": trace._workload(),
        "metrics": _metric_settings(where, check, bsd_threshold, skip_percent, short_runtime, narrow_size),
    }
    request = json.dumps(experiment)
    with progress_observer(progress, len(trace)) as observer:
        core = _core.run(trace._core, request, observer)
    return Run(trace, core, request)


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
    comes from (``None`` otherwise). Both are checked by the core at once:
    a definition that is not a mapping raises ``TypeError``; one the core
    cannot plan, :class:`OptionError`, :class:`PolicyError` or
    :class:`ExperimentError` naming the field; a malformed ``trace``,
    :class:`LinkError`.
    """

    def __init__(self, definition: Mapping[str, Any], trace: Optional[Mapping[str, Any]] = None) -> None:
        where = "Experiment()"
        if not isinstance(definition, Mapping):
            raise _args.type_error(where, "definition", definition, "a mapping (an experiment's JSON form)")
        if trace is not None and not isinstance(trace, Mapping):
            raise _args.type_error(where, "trace", trace, "a mapping (a share link's trace) or None")
        self.definition = dict(definition)
        self.trace = None if trace is None else dict(trace)
        self._points = _core.count_points(_json_text(where, "definition", self.definition))
        if self.trace is not None:
            self.link()

    @classmethod
    def from_link(cls, url: str) -> "Experiment":
        """The experiment of a page's share link (the whole URL or its
        fragment, ``#v2=…`` or the first page's ``#v1=…``), checked by the core."""
        link = json.loads(_core.decode_link(_args.text("Experiment.from_link()", "url", url)))
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

    def __len__(self) -> int:
        """The number of points (runs × sweep values × repetitions)."""
        return self._points

    def run(
        self,
        trace: Union[Trace, Source, None] = None,
        *,
        progress: Progress = None,
        executor: Any = None,
        tasks: Optional[int] = None,
    ) -> ExperimentResult:
        """Runs every point. ``trace`` is a loaded Trace (read with the
        experiment's workload options), a path or bytes (read with them),
        or None for a share link's own trace: a sample the page bundles, or
        the generator's trace (a file or a URL must be given).

        ``executor`` runs the points elsewhere: any
        ``concurrent.futures.Executor`` (a ``ProcessPoolExecutor``, Dask's
        ``client.get_executor()``) or anything with its ``submit(fn,
        *args)`` whose futures have ``result()`` (submitit's executors, on
        a Slurm allocation). The points are split into ``tasks`` shards (by
        default one per point, at most 64), each run as ``schedlab sweep
        --shard I/N`` would and merged as ``schedlab merge`` merges: the
        result is the local run's, byte for byte. The trace travels pickled
        (as its bytes) with each task. Progress cannot be reported then: a
        ``progress`` other than None or False is refused."""
        loaded = self._trace(trace)
        points = json.dumps(self.definition)
        if executor is not None:
            if progress is not None and progress is not False:
                raise ValueError("Experiment.run(): progress cannot be reported from an executor's tasks; pass progress=None")
            return _run_on(executor, loaded, points, _shards("Experiment.run()", tasks, self._points))
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


def _json_text(where: str, name: str, value: Any) -> str:
    try:
        return json.dumps(value)
    except (TypeError, ValueError) as e:
        raise TypeError(f"{where}: {name} holds what JSON cannot: {e}") from None


def _shards(where: str, tasks: Optional[int], points: int) -> int:
    if tasks is None:
        return max(1, min(points, 64))
    count = _args.integer(where, "tasks", tasks, _args.U32)
    if not 1 <= count <= max(points, 1):
        raise ValueError(f"{where}: tasks must be from 1 to the {points} points, not {count}")
    return count


def _run_shard(trace: Trace, definition: str, shard: str) -> str:
    """One task of an experiment run on an executor: its shard's result
    document. Module-level, so that workers find it by name."""
    return _core.run_experiment(trace._core, definition, None, shard).to_json()


def _run_on(executor: Any, trace: Trace, definition: str, count: int) -> "ExperimentResult":
    submit = getattr(executor, "submit", None)
    if not callable(submit):
        raise _args.type_error("Experiment.run()", "executor", executor, "an executor (with submit(fn, *args))")
    futures = [submit(_run_shard, trace, definition, f"{i}/{count}") for i in range(1, count + 1)]
    try:
        texts = [f.result() for f in futures]
    except BaseException:
        for f in futures:
            cancel = getattr(f, "cancel", None)
            if callable(cancel):
                cancel()
        raise
    return ExperimentResult(_core.merge_shards(texts))


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
        "params": _args.params(where, params),
        "repeat": _args.integer(where, "repeat", repeat, _args.U32),
        "seed": _args.integer(where, "seed", seed, _args.U64),
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
    executor: Any = None,
    tasks: Optional[int] = None,
) -> "Any":
    """Runs several policies on one trace, as ``schedlab compare`` (each
    ``repeat`` times, seeds ``seed, seed + 1, …``), and returns the tidy
    DataFrame of :attr:`ExperimentResult.summary` without its ``value``
    column: one row per run and metric, with the mean and the half-width
    of its 95 % interval.

    ``policies`` are run specs ``ID[:KEY=VALUE,...][@PREDICTOR]``
    (``["fcfs", "easy:order=shortest@last", "cbf"]``); ``predictor`` is
    given to every run that names none and reads runtimes; ``params`` to
    every run that takes them. ``executor`` and ``tasks`` run the points
    elsewhere, as :meth:`Experiment.run` does.
    """
    where = "compare()"
    metrics = _metric_settings(where, check, bsd_threshold, skip_percent, short_runtime, narrow_size)
    experiment = _experiment(where, trace, policies, predictor, params, repeat, seed, metrics)
    summary = Experiment(experiment).run(trace, progress=progress, executor=executor, tasks=tasks).summary
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
    executor: Any = None,
    tasks: Optional[int] = None,
) -> "Any":
    """Runs every policy at every value of parameter ``param``, as
    ``schedlab sweep``, and returns the tidy DataFrame of
    :attr:`ExperimentResult.summary`: one row per point (run, value) and
    metric, with the mean and the half-width of its 95 % interval.

    ``values`` is a list (``[0, 20, 40]``) or an inclusive range
    ``"FROM:TO:STEP"``. The sweep applies to every run that takes
    ``param`` (or only to the runs at the indices ``runs``); the others
    run once per repetition, with ``value`` missing. ``executor`` and
    ``tasks`` run the points elsewhere (a process pool, Dask, Slurm through
    submitit), as :meth:`Experiment.run` does, with the same result.
    """
    where = "sweep()"
    _args.text(where, "param", param)
    metrics = _metric_settings(where, check, bsd_threshold, skip_percent, short_runtime, narrow_size)
    experiment = _experiment(where, trace, policies, predictor, params, repeat, seed, metrics)
    if isinstance(values, str):
        definition = json.loads(_core.parse_sweep(f"{param}={values}"))
    elif isinstance(values, Sequence) and values:
        definition = {"param": param, "values": [_args.param_text(where, param, v)[1] for v in values]}
    else:
        raise _args.type_error(where, "values", values, "a non-empty list of values or a range 'FROM:TO:STEP'")
    if runs is not None:
        definition["runs"] = _args.integers(where, "runs", runs, _args.U64)
    experiment["sweep"] = definition
    return Experiment(experiment).run(trace, progress=progress, executor=executor, tasks=tasks).summary
