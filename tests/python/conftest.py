"""Fixtures of the Python package's tests (tests/python/test_*.py but
test_evalys.py, which scripts/test-evalys.sh runs in its own environment
without the package; so nothing here imports schedlab at module level)."""

from __future__ import annotations

import subprocess
import sys
import textwrap
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parents[2]
SAMPLE = ROOT / "samples" / "kth-sp2-first3000.swf"


@pytest.fixture(scope="session")
def kth():
    import schedlab

    return schedlab.load(SAMPLE)


def run_script(source: str, timeout: float = 120) -> subprocess.CompletedProcess:
    """Runs a Python script in a fresh interpreter (for what could hang,
    kill or leave a signal pending in the test process)."""
    return subprocess.run(
        [sys.executable, "-c", textwrap.dedent(source)],
        capture_output=True,
        text=True,
        timeout=timeout,
        cwd=ROOT,
    )
