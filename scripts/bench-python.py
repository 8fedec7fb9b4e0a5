"""Prints the Python package's overhead figures (BENCHMARKS.md, "Python"):

- schedlab.run from Python against the command line on the same trace
  and policy: the run alone (Python's wall time of run() against the
  command line's elapsed_ms, which times the same run, check and metrics)
  and load + run (against the command line's whole process);
- building run.jobs (the per-job DataFrame) for the first 200,000 jobs;
- the Gymnasium environment (when gymnasium is installed): steps per
  second with a window of 128 and an agent that always picks row 0 (so
  the figure is the environment's own cost), the part of a step spent in
  the native call, and resident memory per environment holding a reset
  episode.

Usage: python scripts/bench-python.py TRACE SCHEDLAB_CLI [POLICY] [REPEAT]
with the package installed in that Python (scripts/test-python.sh builds
one venv under target/). Best of REPEAT (default 5) of each figure.
"""

import json
import subprocess
import sys
import time

import schedlab


def best(repeat, f, clock=time.perf_counter):
    times = []
    for _ in range(repeat):
        start = clock()
        f()
        times.append(clock() - start)
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
    frame_time = best(repeat, lambda: columns(run._core.jobs_columns(), first.header.get("unix_start_time")))
    print(f"run.jobs for {len(first)} jobs: {frame_time:.3f} s ({len(run.jobs.columns)} columns)")

    try:
        from schedlab.gym import SchedulingEnv
    except ImportError:
        print("gymnasium is not installed: no environment figures")
        return
    env = SchedulingEnv(trace, window=128, episode_jobs=len(trace))
    env.reset(seed=0)
    steps, start, cpu = 0, time.perf_counter(), time.process_time()
    while time.perf_counter() - start < 10:
        for _ in range(1000):
            _, _, terminated, _, _ = env.step(0)
            steps += 1
            if terminated:
                env.reset()
    elapsed, cpu = time.perf_counter() - start, time.process_time() - cpu
    # On a shared machine the wall clock also counts the time the process
    # waited for a core; the processor time is what one core spent on it.
    print(f"environment: {steps / elapsed:,.0f} steps/s, {steps / cpu:,.0f} per second of processor time "
          f"(window 128, EASY backfilling, {steps} steps in {elapsed:.1f} s, {cpu:.1f} s of processor time)")
    engine_step = best(repeat, lambda: engine_steps(trace, 100_000), clock=time.process_time) / 100_000
    print(f"  processor time of a step: {cpu / steps * 1e6:.2f} us, of which the native call (Episode.step: "
          f"the decision, the run to the next one, the observation written) {engine_step * 1e6:.2f} us "
          f"and the rest env.step's Python (the checks, the observation's and the mask's copies, the info dict)")
    # In a process of its own: this one's allocator holds the memory the
    # runs above freed, which the environments would reuse unseen.
    subprocess.run([sys.executable, __file__, "--environment-memory", trace_path], check=True)


def environment_memory(trace_path):
    """Prints the resident memory per environment holding a reset episode,
    in a fresh process, after one environment has warmed up the imports."""
    from schedlab.gym import SchedulingEnv

    trace = schedlab.load(trace_path)
    SchedulingEnv(trace, window=128, episode_jobs=256).reset(seed=0)
    before = rss()
    envs = [SchedulingEnv(trace, window=128, episode_jobs=256) for _ in range(100)]
    for i, e in enumerate(envs):
        e.reset(seed=i)
    print(f"environment memory: {(rss() - before) / len(envs) / 1024:,.0f} KiB each (100 reset environments, "
          f"256-job episodes, a fresh process)")


def engine_steps(trace, steps):
    """Answers `steps` decisions with row 0 through the native episode alone,
    as env.step does but without its Python around the call."""
    from schedlab import _core

    episode = _core.Episode(trace._core, 0, len(trace), 128, "easy", "pick", "mbs", bytearray(128 * _core.FEATURES * 4))
    for _ in range(steps):
        if episode.step(0)[0] is None:
            raise RuntimeError(f"the trace has fewer than {steps} decisions")


def rss():
    """Resident memory of this process, bytes (Linux)."""
    with open("/proc/self/statm") as f:
        return int(f.read().split()[1]) * 4096


if __name__ == "__main__":
    if sys.argv[1:2] == ["--environment-memory"]:
        environment_memory(sys.argv[2])
    else:
        main()
