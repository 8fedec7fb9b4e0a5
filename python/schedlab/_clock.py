"""The time zone of a trace's datetime columns, from what the core reads of
its header (``UnixStartTime``, the ``TimeZone`` offset in seconds and the
``TimeZoneString`` name; schedlab-workload's ``TraceClock``).

A site's own zone by its IANA name is what a reader of the log expects
(the Parallel Workloads Archive gives ``Europe/Stockholm``, ``US/Pacific``
…), with its daylight saving, which Python's time-zone database knows and
the core does not carry. Without a name that database knows, the dates are
the core's: at the header's fixed ``TimeZone`` offset, as the page and the
command line show them, or in UTC without one. The note says which, and a
name that could not be used is warned about rather than dropped silently.
"""

from __future__ import annotations

import datetime
import json
import warnings
from typing import Any, Dict, NamedTuple, Optional

try:
    import zoneinfo
except ImportError:  # Python 3.8 has no zoneinfo; the package needs 3.9, but stay importable.
    zoneinfo = None  # type: ignore[assignment]


class TimeZone(NamedTuple):
    """The zone of the datetime columns (None: the trace gives no
    ``UnixStartTime``, so there are none), one sentence saying which and
    why, and the header's zone name if Python's database does not know it."""

    zone: Optional[datetime.tzinfo]
    note: str
    unknown_name: Optional[str]


def time_zone(clock_json: str) -> TimeZone:
    """The zone of a trace whose clock (the core's ``TraceClock``) is
    ``clock_json``."""
    clock: Dict[str, Any] = json.loads(clock_json)
    name, offset = clock.get("zone"), clock.get("offset")
    if clock.get("unix_start") is None:
        return TimeZone(None, "The header gives no UnixStartTime: there are no datetime columns.", None)
    known = _named(name)
    if known is not None:
        return TimeZone(known, f"Datetimes are in {name}, the header's TimeZoneString, with its daylight saving.", None)
    unknown = f"; its TimeZoneString {name!r} is not in this Python's time-zone database" if name else ""
    if offset is not None:
        fixed = datetime.timezone(datetime.timedelta(seconds=offset))
        note = f"Datetimes are at {fixed}, the header's TimeZone (a fixed offset, as the page shows them){unknown}."
        return TimeZone(fixed, note, name or None)
    return TimeZone(datetime.timezone.utc, f"Datetimes are in UTC: the header gives no TimeZone{unknown}.", name or None)


def _named(name: Optional[str]) -> Optional[datetime.tzinfo]:
    """The IANA zone of that name, if Python's database has it."""
    if not name or zoneinfo is None:
        return None
    try:
        return zoneinfo.ZoneInfo(name)
    except (KeyError, ValueError, OSError, UnicodeError):
        # KeyError is ZoneInfoNotFoundError; ValueError a malformed key
        # (an absolute path, "..").
        return None


def warn_unknown(trace_name: str, zone: TimeZone) -> None:
    """Warns that the header's zone name was not used, and what was."""
    if zone.unknown_name is not None:
        warnings.warn(f"{trace_name}: {zone.note}", stacklevel=3)
