"""Prints the Python package's overhead figures (BENCHMARKS.md, "Python"):

- schedlab.run from Python against the command line on the same trace
  and policy: the run alone (Python's wall time of run() against the
  command line's elapsed_ms, which times the same run, check and metrics)
  and load + run (against the command line's whole process);
- building run.jobs (the per-job DataFrame) for the first 200,000 jobs.

Usage: python scripts/bench-python.py TRACE SCHEDLAB_CLI [POLICY] [REPEAT]
with the package installed in that Python (scripts/test-python.sh builds
one venv under target/). Best of REPEAT (default 5) of each figure.
"""

import json
import subprocess
import sys
import time

import schedlab


def best(repeat, f):
    times = []
    for _ in range(repeat):
        start = time.perf_counter()
        f()
        times.append(time.perf_counter() - start)
    return min(times)


def main():
    trace_path, cli = sys.argv[1], sys.argv[2]
    policy = sys.argv[3] if len(sys.argv) > 3 else "easy"
    repeat = int(sys.argv[4]) if len(sys.argv) > 4 else 5

    trace = schedlab.load(trace_path)
    print(f"trace {trace.name}: {len(trace)} jobs on {trace.procs} processors; policy {policy}; best of {repeat}")

    py_run = best(repeat, lambda: schedlab.run(trace, policy, progress=False))
    py_whole = best(repeat, lambda: schedlab.run(schedlab.load(trace_path), policy, progress=False))
    cli_runs, cli_wholes = [], []
    for _ in range(repeat):
        start = time.perf_counter()
        out = subprocess.run([cli, "run", trace_path, "--policy", policy, "--json", "--quiet"],
                             check=True, capture_output=True, text=True).stdout
        cli_wholes.append(time.perf_counter() - start)
        cli_runs.append(json.loads(out)["elapsed_ms"] / 1000)
    cli_run, cli_whole = min(cli_runs), min(cli_wholes)
    print(f"run alone:  python {py_run:.3f} s, command line {cli_run:.3f} s (elapsed_ms): {py_run / cli_run:.2f}x")
    print(f"load + run: python {py_whole:.3f} s, command line {cli_whole:.3f} s (process): {py_whole / cli_whole:.2f}x")

    first = schedlab.load(trace_path, first_jobs=200_000)
    run = schedlab.run(first, policy, progress=False)
    columns = schedlab._jobs_frame
    frame_time = best(repeat, lambda: columns(run._core.jobs_columns()))
    print(f"run.jobs for {len(first)} jobs: {frame_time:.3f} s ({len(run.jobs.columns)} columns)")


if __name__ == "__main__":
    main()
