"""Typed results: counts are ints, the per-job table's columns have the
dtypes its typed row (schedlab.JobRow) declares, instants are datetimes
when the trace says when it started, and the tidy summary's columns have
the types schedlab.SummaryRow declares."""

from __future__ import annotations

import datetime
import re
import typing

import pandas as pd
import pytest

import schedlab

# The dtype each declared Python type is in the DataFrame.
DTYPES = {
    int: "int64",
    float: "float64",
    bool: "bool",
    str: "object",
    typing.Optional[int]: "Int64",
    typing.Optional[float]: "float64",
    typing.Optional[str]: "object",
    datetime.datetime: "datetime64[UTC]",
}


def declared(row: type) -> dict:
    types = {k: DTYPES[v] for k, v in typing.get_type_hints(row).items()}
    if "job" in types:
        # Job numbers are the core's unsigned 64-bit ints (JobRow says so).
        types["job"] = "uint64"
    return types


def dtypes(frame: pd.DataFrame) -> dict:
    """Each column's dtype, with pandas' versions told apart no more: text
    is "object" (pandas 3 says "str") and datetimes have no resolution."""
    names = {k: str(v) for k, v in frame.dtypes.items()}
    return {k: "object" if v == "str" else re.sub(r"datetime64\[\w+, ", "datetime64[", v) for k, v in names.items()}


def test_counts_are_ints_and_the_rest_floats(kth):
    metrics = schedlab.run(kth, "easy", progress=False).metrics
    assert type(metrics["jobs"]) is int and metrics["jobs"] == 3000
    assert type(metrics["backfilled"]) is int and type(metrics["blocked"]) is int
    assert type(metrics["mbs"]) is float and type(metrics["max_wait"]) is float


def test_the_per_job_table_has_its_declared_types_and_datetimes(kth):
    jobs = schedlab.run(kth, "easy", progress=False).jobs
    assert kth.header["unix_start_time"] == 843480031
    assert dtypes(jobs) == declared(schedlab.JobRow)
    first = jobs.iloc[0]
    assert first["submit_time"] == pd.Timestamp(843480031 + first["submit"], unit="s", tz="UTC")
    assert (jobs["end_time"] - jobs["start_time"]).dt.total_seconds().tolist() == (jobs["end"] - jobs["start"]).tolist()


def test_without_a_start_time_there_are_no_datetime_columns():
    trace = schedlab.load(b"1 0 -1 10 1 -1 -1 1 10 -1 1 1 1 -1 -1 -1 -1 -1\n", machine_size=1)
    jobs = schedlab.run(trace, "fcfs", progress=False).jobs
    assert not {"submit_time", "start_time", "end_time"} & set(jobs.columns)
    assert {k: v for k, v in declared(schedlab.JobRow).items() if not k.endswith("_time")} == dtypes(jobs)


@pytest.mark.parametrize("sweep", [False, True])
def test_the_summary_has_its_declared_types(kth, sweep):
    if sweep:
        frame = schedlab.sweep(kth, ["easy@virtual"], "error", [0, 20], repeat=2, progress=False)
    else:
        frame = schedlab.compare(kth, ["fcfs", "easy"], progress=False)
    want = declared(schedlab.SummaryRow)
    if not sweep:
        del want["value"]
    assert dtypes(frame) == want
