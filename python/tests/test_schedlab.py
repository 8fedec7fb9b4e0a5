"""Tests of the Python package against hand-computed schedules, the
command line's own output (the same core, the same serialisers) and the
package's invariants.

The command line is found through SCHEDLAB_CLI (scripts/test.sh sets it to
the release build); the tests that compare with it are skipped without it.
"""

from __future__ import annotations

import base64
import gzip
import hashlib
import io
import json
import os
import re
import signal
import subprocess
from pathlib import Path

import pandas as pd
import pytest

import schedlab
from schedlab import _core

ROOT = Path(__file__).resolve().parents[2]
SAMPLE = ROOT / "samples" / "kth-sp2-first3000.swf"
CLI = os.environ.get("SCHEDLAB_CLI")
needs_cli = pytest.mark.skipif(not CLI, reason="SCHEDLAB_CLI (the schedlab binary) is not set")

# Four processors; three jobs (number, submit, runtime, processors,
# requested time), SWF's 18 fields each.
TINY = """; MaxProcs: 4
1 0 -1 100 4 -1 -1 4 100 -1 1 1 1 -1 -1 -1 -1 -1
2 10 -1 50 2 -1 -1 2 60 -1 1 2 2 -1 -1 -1 -1 -1
3 20 -1 10 2 -1 -1 2 10 -1 1 3 3 -1 -1 -1 -1 -1
"""


def cli(*args: str) -> str:
    done = subprocess.run([CLI, *args], check=True, capture_output=True, text=True)
    return done.stdout


def without_elapsed(text: str) -> str:
    """A document's text without its host-measured times (the only field
    that differs between two runs of the same inputs)."""
    return re.sub(r'\n *"elapsed_ms": [0-9.e+-]+,', "", text)


@pytest.fixture(scope="module")
def kth() -> schedlab.Trace:
    return schedlab.load(SAMPLE)


@pytest.fixture(scope="module")
def big() -> schedlab.Trace:
    """A generated trace long enough for several progress reports."""
    return schedlab.load(_core.generate_lublin(procs=128, jobs=40_000, load=0.9, seed=7), name="lublin.swf")


# ---------------------------------------------------------------- loading


def test_a_trace_carries_its_identity_statistics_and_cleaning_report(kth):
    assert len(kth) == 3000
    assert kth.procs == 100
    assert kth.name == "kth-sp2-first3000.swf"
    assert kth.sha256 == hashlib.sha256(SAMPLE.read_bytes()).hexdigest()
    assert kth.identity["jobs"] == 3000
    assert set(kth.cleaning) and all(isinstance(n, int) for n in kth.cleaning.values())
    assert kth.stats["jobs"] == 3000, kth.stats
    assert kth.header["max_procs"] == 100


def test_a_traces_facts_and_cleaning_are_worded_as_in_the_page():
    # Two jobs of 17,640 s submitted three hours apart, after a blank line.
    swf = "; MaxProcs: 4\n\n" + "".join(
        f"{n} {submit} 0 17640 2 -1 -1 2 20000 -1 1 1 1 -1 1 -1 -1 -1\n" for n, submit in [(1, 0), (2, 10800)]
    )
    trace = schedlab.load(swf.encode(), name="dump.swf")
    assert (trace.facts["Span"], trace.facts["Mean runtime"], trace.facts["Jobs"]) == ("3 h", "4 h 54 min", "2")
    assert list(trace.facts)[:3] == ["Trace", "SHA-256", "Jobs"]
    [(key, text, meaning)] = trace.cleaning_lines
    assert text == "skipped: blank lines: 1 line" and key in trace.cleaning and meaning
    assert (_core.count_text(28489), _core.counted(1, "line", "lines"), _core.counted(3000, "job", "jobs")) == (
        "28,489",
        "1 line",
        "3,000 jobs",
    )


def test_a_runs_file_name_is_the_pages(kth):
    run = schedlab.run(kth, "easy", progress=False)
    assert run.file_name("jobs", "csv") == "kth-sp2-first3000-easy-jobs.csv"
    assert run.file_name("batsim jobs", "csv") == "kth-sp2-first3000-easy-batsim-jobs.csv"
    with pytest.raises(TypeError, match="kind must be a str"):
        run.file_name(3, "csv")


def test_bytes_and_compressed_bytes_read_as_the_file(kth):
    plain = schedlab.load(SAMPLE.read_bytes(), name=kth.name)
    packed = schedlab.load(gzip.compress(SAMPLE.read_bytes()), name=kth.name)
    assert plain.identity == kth.identity
    assert packed.identity == kth.identity
    assert schedlab.load(bytearray(SAMPLE.read_bytes())).name == "trace.swf"


def test_workload_options_reach_the_reader():
    first = schedlab.load(SAMPLE, first_jobs=100, machine_size=128)
    assert (len(first), first.procs) == (100, 128)
    assert first.options["window"] == {"first_jobs": 100}


def test_bad_input_is_named():
    with pytest.raises(FileNotFoundError, match="no-such-trace.swf"):
        schedlab.load("/no/such/dir/no-such-trace.swf")
    with pytest.raises(schedlab.SchedlabError, match="line 2"):
        schedlab.load(b"; MaxProcs: 4\n1 0 -1 x 4\n")
    with pytest.raises(schedlab.SchedlabError, match="oversize"):
        schedlab.load(SAMPLE, oversize="squash")
    with pytest.raises(TypeError, match="load\\(\\): the trace must be a path .* not int"):
        schedlab.load(42)
    with pytest.raises(ValueError, match="first_jobs and time_range"):
        schedlab.load(SAMPLE, first_jobs=10, time_range=(0, 10))


# ------------------------------------------------------------------- runs


def test_a_hand_computed_schedule():
    tiny = schedlab.load(TINY.encode(), name="tiny.swf")
    run = schedlab.run(tiny, "fcfs")
    jobs = run.jobs
    # Job 1 holds the whole machine until 100; jobs 2 and 3 (2 processors
    # each) then start together.
    assert jobs["job"].tolist() == [1, 2, 3]
    assert jobs["start"].tolist() == [0, 100, 100]
    assert jobs["end"].tolist() == [100, 150, 110]
    assert jobs["wait"].tolist() == [0, 90, 80]
    # Bounded slowdowns with τ = 10 s: 1, (90 + 50) / 50, (80 + 10) / 10.
    assert jobs["bsd"].tolist() == [1.0, 2.8, 9.0]
    assert run.metrics["mbs"] == pytest.approx((1.0 + 2.8 + 9.0) / 3)
    assert run.metrics["mean_wait"] == pytest.approx(170 / 3)
    assert run.metrics["max_wait"] == 90
    assert run.metrics["makespan"] == 150
    assert run.metrics.unit("mean_wait") == "s"
    assert run.policy == "fcfs" and run.seed == 0


def test_the_job_table_has_the_csv_columns_and_types(kth):
    run = schedlab.run(kth, "easy", progress=False)
    jobs = run.jobs
    header = run.jobs_csv().splitlines()[0].split(",")
    # The CSV's columns, then the instants as datetimes (the sample's header
    # gives UnixStartTime).
    assert list(jobs.columns) == header + ["submit_time", "start_time", "end_time"]
    assert len(jobs) == 3000
    assert str(jobs["fair_start"].dtype) == "Int64" and str(jobs["backfilled"].dtype) == "bool"
    # Rust prints each float in its shortest form that reads back exactly
    # (with Python's float; older pandas parsers may miss the last digit).
    from_csv = pd.read_csv(io.StringIO(run.jobs_csv()), dtype={"bsd": str})
    from_csv["bsd"] = from_csv["bsd"].map(float)
    for name in header:
        if name in ("backfilled", "blocked"):
            assert (jobs[name].astype(int) == from_csv[name]).all(), name
        elif name in ("fair_start", "reservation"):
            assert jobs[name].isna().tolist() == from_csv[name].isna().tolist(), name
            assert (jobs[name].dropna().astype("int64").to_numpy() == from_csv[name].dropna().astype("int64").to_numpy()).all()
        else:
            assert (jobs[name].to_numpy() == from_csv[name].to_numpy()).all(), name
    # Invariants of any schedule.
    assert (jobs["start"] >= jobs["submit"]).all()
    assert (jobs["end"] - jobs["start"] == jobs["runtime"]).all()
    assert int(jobs["backfilled"].sum()) == run.metrics["backfilled"]


def test_metrics_cover_the_catalogue_with_units_in_the_docstring(kth):
    run = schedlab.run(kth, "easy", progress=False)
    catalogue = schedlab.columns()
    always = ["mbs", "mwbs", "mean_wait", "utilization", "max_wait", "backfilled", "blocked", "fairness.delayed"]
    assert all(key in run.metrics for key in always)
    assert set(run.metrics) <= set(catalogue["key"])
    for c in json.loads(_core.columns()):
        assert f"``{c['key']}`` ({c['unit'] or 'no unit'})" in schedlab.Metrics.__doc__
    table = run.metrics.table()
    assert table.loc[table["key"] == "mean_wait", "unit"].item() == "s"
    # The documented strict-fairness figure on the sample (as in the
    # binding's own tests): EASY delays 55 blocked jobs.
    assert run.metrics["fairness.delayed"] == 55


def test_the_same_run_gives_the_same_bytes(kth):
    a = schedlab.run(kth, "easy", predictor="virtual", params={"error": 30}, seed=5, progress=False)
    b = schedlab.run(kth, "easy", predictor="virtual", params={"error": 30}, seed=5, progress=False)
    assert a.to_json() == b.to_json()
    assert a.jobs.equals(b.jobs)
    c = schedlab.run(kth, "easy", predictor="virtual", params={"error": 30}, seed=6, progress=False)
    assert c.to_json() != a.to_json(), "another seed draws other predictions"


@needs_cli
def test_a_run_gives_the_command_lines_bytes(kth, tmp_path):
    run = schedlab.run(kth, "easy:order=shortest", predictor="last", seed=3, progress=False)
    csv = tmp_path / "jobs.csv"
    swf = tmp_path / "schedule.swf"
    batsim = tmp_path / "batsim.csv"
    text = cli(
        "run", str(SAMPLE), "--policy", "easy", "--param", "order=shortest", "--predictor", "last", "--seed", "3",
        "--json", "--quiet", "--jobs-csv", str(csv), "--swf-out", str(swf), "--batsim-jobs", str(batsim),
    )
    assert run.to_json() == without_elapsed(text)
    assert run.jobs_csv() == csv.read_text()
    assert run.schedule_swf() == swf.read_text()
    assert run.to_batsim_csv() == batsim.read_text()
    run.to_batsim_csv(tmp_path / "again.csv")
    assert (tmp_path / "again.csv").read_text() == batsim.read_text()


def test_core_errors_and_bad_arguments_are_named(kth):
    with pytest.raises(schedlab.SchedlabError, match="unknown policy `nope`"):
        schedlab.run(kth, "nope")
    with pytest.raises(schedlab.SchedlabError, match="order"):
        schedlab.run(kth, "easy", params={"order": "sideways"})
    with pytest.raises(TypeError, match="run\\(\\): seed must be an int, not str"):
        schedlab.run(kth, "easy", seed="1")
    with pytest.raises(TypeError, match="params\\['order'\\] must be a str, int or float"):
        schedlab.run(kth, "easy", params={"order": True})
    with pytest.raises(TypeError, match="run\\(\\): trace must be a schedlab.Trace"):
        schedlab.run(str(SAMPLE), "easy")
    with pytest.raises(ValueError, match="given both"):
        schedlab.run(kth, "easy:order=shortest", params={"order": "priority"})


# --------------------------------------------------------- cancel, progress


def test_an_exception_in_the_progress_callback_cancels_the_run(big):
    calls = []

    def stop(point, points, step, steps, label, completed, jobs):
        calls.append((point, points, step, steps, label, completed, jobs))
        raise RuntimeError("enough")

    with pytest.raises(RuntimeError, match="enough"):
        schedlab.run(big, "easy", progress=stop)
    assert len(calls) == 1, "the run stopped at its first report"
    point, points, step, steps, label, completed, jobs = calls[0]
    assert (point, points, step, steps, label, jobs) == (0, 1, 1, 1, "run", 40_000)
    assert 0 < completed < jobs


def test_ctrl_c_cancels_the_run(big):
    reports = []

    def interrupt(*report):
        reports.append(report)
        if len(reports) == 1:
            signal.raise_signal(signal.SIGINT)

    with pytest.raises(KeyboardInterrupt):
        schedlab.run(big, "easy", progress=interrupt)
    assert reports[-1][5] < len(big), "cancelled before the last job completed"


def test_progress_reports_count_the_phases_and_points(big):
    reports = []
    schedlab.compare(big, ["fcfs", "slack"], progress=lambda *r: reports.append(r))
    assert {r[:2] for r in reports} >= {(0, 2), (1, 2)}
    # Slack takes its defaults from a CBF calibration run first.
    assert {(r[2], r[3]) for r in reports if r[0] == 1} == {(1, 2), (2, 2)}


# ------------------------------------------------------------- experiments


def test_compare_is_tidy_with_intervals(kth):
    frame = schedlab.compare(kth, ["fcfs", "easy@virtual"], params={"error": 50}, repeat=2, seed=4, progress=False)
    assert list(frame.columns) == ["run", "label", "metric", "mean", "ci95", "repetitions", "unit"]
    assert frame["label"].unique().tolist() == ["fcfs", "easy@virtual"]
    mbs = frame[frame["metric"] == "mbs"].set_index("label")
    # The mean of two repetitions is the mean of the two runs with seeds 4 and 5.
    runs = [schedlab.run(kth, "easy", "virtual", {"error": 50}, seed=s, progress=False) for s in (4, 5)]
    assert mbs.loc["easy@virtual", "mean"] == pytest.approx((runs[0].metrics["mbs"] + runs[1].metrics["mbs"]) / 2)
    assert mbs.loc["easy@virtual", "ci95"] > 0
    # FCFS draws nothing from the seed: it runs once, so it has no interval.
    assert pd.isna(mbs.loc["fcfs", "ci95"])
    reps = frame.groupby("label")["repetitions"].unique().map(list).to_dict()
    assert reps == {"easy@virtual": [2], "fcfs": [1]}
    assert frame.loc[frame["metric"] == "mean_wait", "unit"].unique().tolist() == ["s"]
    single = schedlab.compare(kth, ["fcfs"], progress=False)
    assert single["ci95"].isna().all(), "one repetition has no interval"


def test_sweep_has_one_row_per_point_and_metric(kth):
    frame = schedlab.sweep(kth, ["easy@virtual", "fcfs"], "error", [0, 40], progress=False)
    mbs = frame[frame["metric"] == "mbs"]
    assert mbs["label"].tolist() == ["easy@virtual", "easy@virtual", "fcfs"]
    assert mbs["value"].iloc[:2].tolist() == ["0", "40"]
    assert mbs["value"].isna().tolist() == [False, False, True], "the sweep does not apply to fcfs"
    exact = schedlab.run(kth, "easy", "virtual", {"error": 0}, progress=False)
    assert mbs["mean"].iloc[0] == exact.metrics["mbs"]
    ranged = schedlab.sweep(kth, ["easy@virtual"], "error", "0:40:20", progress=False)
    assert ranged["value"].unique().tolist() == ["0", "20", "40"]
    with pytest.raises(schedlab.SchedlabError, match="sweep"):
        schedlab.sweep(kth, ["easy@virtual"], "error", "5:1:1", progress=False)


def link_to(experiment: dict, trace: dict) -> str:
    text = json.dumps({"trace": trace, "experiment": experiment})
    return "https://example.org/schedlab/#v2=" + base64.urlsafe_b64encode(text.encode()).decode().rstrip("=")


@needs_cli
def test_a_share_link_gives_the_command_lines_json():
    args = ["--policy", "fcfs", "--policy", "easy@virtual", "--sweep", "error=0,25", "--repeat", "2", "--seed", "9"]
    text = cli("sweep", str(SAMPLE), *args, "--json", "--quiet")
    experiment = json.loads(text)["experiment"]
    link = link_to(experiment, {"kind": "sample", "id": "kth-sp2-first3000"})
    e = schedlab.Experiment.from_link(link)
    assert e.trace == {"kind": "sample", "id": "kth-sp2-first3000"}
    result = e.run(progress=False)
    assert result.to_json() == without_elapsed(text)
    # A link made by the package opens to the same experiment.
    assert schedlab.Experiment.from_link("#" + e.link()).definition == e.definition


def test_a_link_to_a_file_needs_that_file(kth):
    experiment = {"runs": [{"policy": "fcfs"}]}
    e = schedlab.Experiment.from_link(link_to(experiment, {"kind": "file", "name": "x.swf", "sha256": "0" * 64}))
    with pytest.raises(schedlab.SchedlabError, match="x.swf"):
        e.run()
    with pytest.raises(schedlab.SchedlabError, match="sha256"):
        e.run(SAMPLE)
    good = link_to(experiment, {"kind": "file", "name": "kth.swf", "sha256": kth.sha256})
    assert schedlab.Experiment.from_link(good).run(SAMPLE, progress=False).document["summary"][0]["label"] == "fcfs"
    with pytest.raises(schedlab.SchedlabError, match="not a Schedlab experiment"):
        schedlab.Experiment.from_link("https://example.org/#v9=abc")


def test_a_link_to_a_generated_trace_names_it_as_the_page_does():
    # The page names it `lublin99-p{procs}-n{jobs}-l{load}-s{seed}.swf`,
    # whole loads without a decimal point, through the same core function.
    experiment = {"runs": [{"policy": "fcfs"}]}
    for load, written in [(0.5, "0.5"), (1, "1"), (1.0, "1")]:
        trace = {"kind": "generated", "procs": 64, "jobs": 50, "load": load, "seed": 3}
        result = schedlab.Experiment.from_link(link_to(experiment, trace)).run(progress=False)
        assert result.document["trace"]["name"] == f"lublin99-p64-n50-l{written}-s3.swf"


def test_an_experiment_refuses_a_trace_read_otherwise(kth):
    e = schedlab.Experiment({"runs": [{"policy": "fcfs"}], "workload": {"machine_size": 64}})
    with pytest.raises(schedlab.SchedlabError, match="workload options"):
        e.run(kth)
    assert e.run(SAMPLE, progress=False).document["trace"]["procs"] == 64


# ------------------------------------------------------------------ stubs


def test_the_native_modules_stub_names_everything_it_exports():
    stub = (Path(schedlab.__file__).parent / "_core.pyi").read_text()
    for name in dir(_core):
        if not name.startswith("_"):
            assert re.search(rf"^(def|class) {name}\b|^{name}:", stub, re.M), name
    assert (Path(schedlab.__file__).parent / "py.typed").exists()


# ------------------------------------------------------------ other formats


def test_a_sacct_dump_and_a_batsim_workload_load_like_their_swf():
    fixtures = ROOT / "tests" / "fixtures"
    dump = schedlab.load(fixtures / "slurm" / "sacct-rules.txt", machine_size=16)
    swf = schedlab.load(fixtures / "slurm" / "sacct-rules.swf", machine_size=16)
    assert schedlab.run(dump, "easy").jobs_csv() == schedlab.run(swf, "easy").jobs_csv()
    source = schedlab.run(schedlab.load(fixtures / "batsim" / "source.swf"), "cbf")
    for name in ("workload-v4.json", "workload-v5.json"):
        workload = schedlab.load(fixtures / "batsim" / name)
        assert schedlab.run(workload, "cbf").to_batsim_csv() == source.to_batsim_csv(), name


def test_a_tqdm_bar_leaves_the_result_unchanged(big, capsys):
    pytest.importorskip("tqdm")
    shown = schedlab.run(big, "easy", progress=True)
    assert "run" in capsys.readouterr().err, "the bar names the phase"
    assert shown.to_json() == schedlab.run(big, "easy", progress=False).to_json()
