"""Batsim's jobs.csv as `schedlab run --batsim-jobs` writes it, read by
evalys (installed from PyPI), the analysis library of Batsim's users.

evalys must read the file unchanged and find, job by job, the waiting and
turnaround times of our own per-job table, and the utilisation of our result
document. Run by scripts/test-evalys.sh, which builds the binary and names
it in SCHEDLAB_BIN.
"""

import json
import math
import os
import subprocess
from pathlib import Path

import pandas as pd
import pytest
from evalys.jobset import JobSet

ROOT = Path(__file__).resolve().parents[2]
SAMPLE = ROOT / "samples" / "kth-sp2-first3000.swf"
SHARED = "KTH-SP2-1996-2.1-cln.swf.gz"


def traces():
    """The bundled sample, and a whole shared trace when SCHEDLAB_TRACES holds it."""
    found = [pytest.param(SAMPLE, id="sample")]
    shared = Path(os.environ.get("SCHEDLAB_TRACES", "/nonexistent")) / SHARED
    if shared.exists():
        found.append(pytest.param(shared, id=SHARED))
    return found


def schedlab_run(trace, policy, tmp_path):
    """Runs `policy` on `trace`; returns (Batsim CSV path, our per-job table, our document)."""
    batsim, ours = tmp_path / "jobs.csv", tmp_path / "ours.csv"
    binary = os.environ.get("SCHEDLAB_BIN", str(ROOT / "target" / "release" / "schedlab"))
    out = subprocess.run(
        [binary, "run", str(trace), "--policy", policy, "--json", "--batsim-jobs", str(batsim), "--jobs-csv", str(ours)],
        check=True,
        capture_output=True,
        text=True,
    )
    return batsim, pd.read_csv(ours), json.loads(out.stdout)


@pytest.mark.parametrize("policy", ["easy", "cbf"])
@pytest.mark.parametrize("trace", traces())
def test_evalys_reads_our_jobs_csv(trace, policy, tmp_path):
    batsim, ours, doc = schedlab_run(trace, policy, tmp_path)
    js = JobSet.from_csv(str(batsim))
    df = js.df
    assert len(df) == len(ours) == doc["metrics"]["jobs"]
    assert list(df["jobID"]) == [str(j) for j in ours["job"]]
    assert list(df["submission_time"]) == list(ours["submit"].astype(float))
    assert list(df["waiting_time"]) == list(ours["wait"].astype(float))
    assert list(df["turnaround_time"]) == list((ours["end"] - ours["submit"]).astype(float))
    assert list(df["proc_alloc"]) == list(ours["size"]), "each interval set holds the job's processors"
    # Utilisation: evalys integrates its own load curve (processors in use
    # over time, from the interval sets); ours divides the work by the
    # machine's capacity from the first submission to the last end.
    assert js.MaxProcs == doc["trace"]["procs"], "every processor appears in some allocation"
    span = df["finish_time"].max() - df["submission_time"].min()
    evalys_utilisation = js.utilisation["area"].sum() / (js.MaxProcs * span)
    assert math.isclose(evalys_utilisation, doc["metrics"]["utilization"], rel_tol=1e-12)
