"""Progress of long calls: a tqdm bar when tqdm is installed, or the
caller's own callback.

The core reports progress every 16,384 events of a run (and checks for
Ctrl-C at the same moments). ``progress`` takes:

- ``None`` (the default): a tqdm bar if tqdm is installed, nothing otherwise;
- ``False``: nothing;
- ``True``: a tqdm bar (an error if tqdm is missing);
- a callable ``f(point, points, step, steps, label, completed, jobs)``:
  called at each report with the point of the experiment being run (0 for
  a single run) and how many there are, the phase (``step`` of ``steps``,
  a CBF reference run first for some policies; ``label`` says which), and
  the jobs completed out of ``jobs``. An exception it raises cancels the
  run and propagates.
"""

from __future__ import annotations

import contextlib
from typing import Callable, Iterator, Optional, Union

Callback = Callable[[int, int, int, int, str, int, int], object]
Progress = Union[None, bool, Callback]


@contextlib.contextmanager
def progress_observer(progress: Progress, jobs: int) -> Iterator[Optional[Callback]]:
    """The callback to hand the core for ``progress``, closed afterwards."""
    if progress is False:
        yield None
        return
    if callable(progress) and not isinstance(progress, bool):
        yield progress
        return
    if progress is not None and progress is not True:
        raise TypeError(f"progress must be None, a bool or a callable, not {type(progress).__name__}")
    try:
        from tqdm.auto import tqdm
    except ImportError:
        if progress is True:
            raise ImportError("progress=True needs tqdm: pip install tqdm") from None
        yield None
        return
    bar = None

    def update(point: int, points: int, step: int, steps: int, label: str, completed: int, total: int) -> None:
        nonlocal bar
        if bar is None:
            bar = tqdm(total=points * total, unit="job", leave=False)
        bar.set_description(f"{point + 1}/{points} {label}" if points > 1 else label, refresh=False)
        bar.n = point * total + completed
        bar.refresh()

    try:
        yield update
    finally:
        if bar is not None:
            bar.close()
