"""Small inputs that stand for huge work, refused from Python before the
work is done: a gzip of 44 million Batsim jobs under ``max_jobs=10``
(it killed the interpreter past any ``try``, on a 5.9 GB allocation), and
a 9 KB share link planning 10^10 simulations (``Experiment.from_link(u)
.run()`` never ended). The readers and the plan are the core's, so the
refusals are the command line's (crates/schedlab-cli/tests/cli/bombs.rs)."""

from __future__ import annotations

import base64
import gzip
import json

import pytest

from conftest import run_script


def batsim_bomb(path) -> None:
    """44,000,001 jobs, 2.2 GB of JSON, in 7 MB of concatenated gzip members
    (one per 10,000 jobs, compressed once)."""
    block = gzip.compress(b'{"id": 1, "subtime": 0, "res": 1, "profile": "p"},\n' * 10_000)
    with open(path, "wb") as f:
        f.write(gzip.compress(b'{"nb_res": 4, "jobs": [\n'))
        for _ in range(4_400):
            f.write(block)
        tail = b'{"id": 0, "subtime": 0, "res": 1, "profile": "p"}\n], "profiles": {"p": {"type": "delay", "delay": 1}}}\n'
        f.write(gzip.compress(tail))


def test_a_batsim_bomb_is_a_limit_error_in_bounded_memory(tmp_path):
    bomb = tmp_path / "bomb.json.gz"
    batsim_bomb(bomb)
    # A fresh interpreter, so that its peak resident memory is this load's
    # (after the imports) and a crash would not take the test process.
    result = run_script(
        f"""
        import resource, schedlab
        before = resource.getrusage(resource.RUSAGE_SELF).ru_maxrss
        try:
            schedlab.load({str(bomb)!r}, max_jobs=10)
        except schedlab.LimitError as e:
            print(e)
        after = resource.getrusage(resource.RUSAGE_SELF).ru_maxrss
        print("grown-kib", after - before)
        """
    )
    assert result.returncode == 0, result.stderr
    lines = result.stdout.splitlines()
    assert "more than 10 jobs, the job limit (refused at line 12)" in lines[0], result.stdout
    grown = int(lines[1].split()[1])
    assert grown < 50 * 1000 * 1000 // 1024, f"the refusal took {grown} KiB more"


def test_a_link_that_plans_ten_billion_runs_is_refused_naming_the_product():
    import schedlab

    runs = [{"policy": "easy", "predictor": "virtual"}] * 100
    sweep = {"param": "error", "values": {"from": 0, "to": 99.99, "step": 0.01}}
    text = json.dumps({"experiment": {"runs": runs, "repeat": 10_000, "sweep": sweep}})
    link = "#v2=" + base64.urlsafe_b64encode(text.encode()).decode().rstrip("=")
    assert len(link) < 10_000
    with pytest.raises(schedlab.SchedlabError) as caught:
        schedlab.Experiment.from_link(link)
    message = str(caught.value)
    assert "plans 10000000000 simulations (100 runs × up to 10000 sweep values × up to 10000 repetitions)" in message
