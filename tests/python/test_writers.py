"""The writers (jobs_csv, to_batsim_csv, schedule_swf with a path) go
through the command line's writer: all or nothing, and never over the
trace the run was loaded from, by whatever path names it."""

from __future__ import annotations

import os
import stat

import pytest

import schedlab

from conftest import SAMPLE, run_script

WRITERS = ["jobs_csv", "to_batsim_csv", "schedule_swf"]


@pytest.fixture()
def loaded(tmp_path):
    """A run of a copy of the sample, loaded from its path."""
    path = tmp_path / "trace.swf"
    path.write_bytes(SAMPLE.read_bytes())
    return path, schedlab.run(schedlab.load(path), "easy", progress=False)


def leftovers(directory):
    return sorted(p.name for p in directory.iterdir())


@pytest.mark.parametrize("writer", WRITERS)
def test_a_writer_writes_its_text(loaded, tmp_path, writer):
    _, run = loaded
    out = tmp_path / "out"
    assert getattr(run, writer)(out) is None
    assert out.read_text() == getattr(run, writer)()
    assert leftovers(tmp_path) == ["out", "trace.swf"], "no temporary file is left"


@pytest.mark.parametrize("writer", WRITERS)
def test_the_trace_the_run_was_loaded_from_is_refused_by_any_path(loaded, tmp_path, writer):
    path, run = loaded
    before = path.read_bytes()
    link = tmp_path / "link.swf"
    link.symlink_to(path)
    hard = tmp_path / "hard.swf"
    os.link(path, hard)
    with open(path, "rb") as f:
        for target in (path, link, hard, f"/proc/self/fd/{f.fileno()}"):
            if str(target).startswith("/proc") and not os.path.exists(target):
                continue
            with pytest.raises(schedlab.ExportError, match="refusing to overwrite"):
                getattr(run, writer)(target)
    assert path.read_bytes() == before
    assert leftovers(tmp_path) == ["hard.swf", "link.swf", "trace.swf"]


def test_a_directory_is_refused_and_a_file_keeps_its_mode(loaded, tmp_path):
    _, run = loaded
    with pytest.raises(schedlab.ExportError, match="directory"):
        run.jobs_csv(tmp_path)
    kept = tmp_path / "private.csv"
    kept.write_text("old")
    kept.chmod(0o600)
    run.jobs_csv(kept)
    assert stat.S_IMODE(kept.stat().st_mode) == 0o600 and kept.read_text() == run.jobs_csv()


def test_a_path_of_the_wrong_type_is_a_type_error(loaded):
    _, run = loaded
    with pytest.raises(TypeError, match="jobs_csv\\(\\): path must be a path"):
        run.jobs_csv(3)


@pytest.mark.skipif(not hasattr(os, "setrlimit") and not os.path.exists("/proc"), reason="needs RLIMIT_FSIZE")
def test_a_write_that_fails_part_way_leaves_the_old_file_whole(tmp_path):
    # A file size limit makes writes past 10 kB fail, as a full disk would.
    old = tmp_path / "jobs.csv"
    old.write_text("the old table\n")
    done = run_script(
        f"""
        import resource, signal
        import schedlab
        run = schedlab.run(schedlab.load({str(SAMPLE)!r}), "easy", progress=False)
        signal.signal(signal.SIGXFSZ, signal.SIG_IGN)
        resource.setrlimit(resource.RLIMIT_FSIZE, (10_000, 10_000))
        try:
            run.jobs_csv({str(old)!r})
            print("written")
        except schedlab.ExportError as e:
            print("ExportError", e)
        """
    )
    assert done.stdout.startswith("ExportError"), (done.stdout, done.stderr)
    assert old.read_text() == "the old table\n"
    assert leftovers(tmp_path) == ["jobs.csv"], "the partial temporary file is removed"
