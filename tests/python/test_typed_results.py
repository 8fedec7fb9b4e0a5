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
    datetime.datetime: "datetime64[UTC]",  # in the trace's zone: UTC here, see the tests
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
    # The sample's header gives TimeZone 3600 and no TimeZoneString: the
    # datetimes are at that fixed offset, as the page shows its dates.
    assert str(kth.time_zone) == "UTC+01:00"
    expected = {k: v.replace("UTC", "UTC+01:00") for k, v in declared(schedlab.JobRow).items()}
    assert dtypes(jobs) == expected
    first = jobs.iloc[0]
    assert first["submit_time"] == pd.Timestamp(843480031 + first["submit"], unit="s", tz="UTC")
    assert first["submit_time"].utcoffset() == datetime.timedelta(hours=1)
    assert (jobs["end_time"] - jobs["start_time"]).dt.total_seconds().tolist() == (jobs["end"] - jobs["start"]).tolist()


def swf(header: str) -> bytes:
    """Two jobs around the switch to summer time in Stockholm (1996-03-31,
    01:00 UTC): second 0 is 1996-03-31 00:30 UTC, the second job starts an
    hour later."""
    jobs = "1 0 -1 60 1 -1 -1 1 60 -1 1 1 1 -1 -1 -1 -1 -1\n2 3600 -1 60 1 -1 -1 1 60 -1 1 1 1 -1 -1 -1 -1 -1\n"
    return (f"; MaxProcs: 1\n; UnixStartTime: 828232200\n{header}" + jobs).encode()


def test_an_iana_zone_gives_local_times_with_daylight_saving():
    trace = schedlab.load(swf("; TimeZone: 3600\n; TimeZoneString: Europe/Stockholm\n"))
    assert str(trace.time_zone) == "Europe/Stockholm" and "daylight saving" in trace.time_zone_note
    jobs = schedlab.run(trace, "fcfs", progress=False).jobs
    assert str(jobs["submit_time"].dt.tz) == "Europe/Stockholm"
    # 01:30 CET (UTC+1), then 03:30 CEST (UTC+2): one hour apart.
    assert [t.strftime("%H:%M %Z") for t in jobs["submit_time"]] == ["01:30 CET", "03:30 CEST"]
    assert (jobs["submit_time"][1] - jobs["submit_time"][0]) == pd.Timedelta(hours=1)


def test_an_unknown_zone_name_falls_back_to_the_offset_with_a_warning():
    trace = schedlab.load(swf("; TimeZone: -18000\n; TimeZoneString: Mars/Olympus_Mons\n"))
    assert str(trace.time_zone) == "UTC-05:00"
    assert "Mars/Olympus_Mons" in trace.time_zone_note and "fixed offset" in trace.time_zone_note
    with pytest.warns(UserWarning, match="Mars/Olympus_Mons"):
        jobs = schedlab.run(trace, "fcfs", progress=False).jobs
    assert jobs["submit_time"][0].strftime("%Y-%m-%d %H:%M") == "1996-03-30 19:30"
    # Neither a name nor an offset: UTC, and said so.
    bare = schedlab.load(swf(""))
    assert bare.time_zone == datetime.timezone.utc and "UTC" in bare.time_zone_note
    malformed = schedlab.load(swf("; TimeZoneString: ../../etc/passwd\n"))
    assert malformed.time_zone == datetime.timezone.utc and "passwd" in malformed.time_zone_note


def test_without_a_start_time_there_are_no_datetime_columns():
    trace = schedlab.load(b"1 0 -1 10 1 -1 -1 1 10 -1 1 1 1 -1 -1 -1 -1 -1\n", machine_size=1)
    jobs = schedlab.run(trace, "fcfs", progress=False).jobs
    assert not {"submit_time", "start_time", "end_time"} & set(jobs.columns)
    assert trace.time_zone is None and "UnixStartTime" in trace.time_zone_note
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
