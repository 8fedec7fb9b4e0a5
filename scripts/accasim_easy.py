#!/usr/bin/env python3
"""Run the peer simulator AccaSim (PyPI `accasim`, 1.1.3) with its EASY
backfilling scheduler on a Parallel Workloads Archive SWF trace, for the
benchmark command's speed comparison (SPEC section 10).

Usage:
    python3 scripts/accasim_easy.py TRACE.swf[.gz] --procs N [--max-jobs K] [--json]

Install AccaSim first with scripts/install-accasim.sh.

Prints exactly one JSON line on stdout:
    {"simulator": "accasim", "version": ..., "trace": ..., "procs": N,
     "jobs": <jobs AccaSim simulated to completion>,
     "seconds": <wall time of Simulator.start_simulation() only>,
     "peak_rss_mb": ..., "mean_wait": ..., "mean_bsd": ..., "ok": true, ...}
or, on any failure, {"ok": false, "error": "..."} and a non-zero exit code.

--json is the quiet mode for scripts: AccaSim's own log is suppressed (only
its errors reach stderr). Without it, AccaSim logs at INFO level on stderr.
The JSON line is printed in both modes.

What the script prepares, in a temporary directory that is deleted at exit
(AccaSim's output files are written there too):

* The trace, decompressed (gzip is detected by magic bytes) and cleaned with
  Schedlab's ingestion rules (SPEC section 1), so both simulators see the same
  jobs: runtime < 0 or size <= 0 dropped; size > N dropped; estimate <= 0 ->
  runtime; runtime > estimate -> estimate (Schedlab kills a job at its
  estimate, AccaSim never kills, so the cap is applied here); estimate >= 1;
  sorted by (submit, job number). --max-jobs K keeps the first K *cleaned*
  jobs. Every field is rewritten as an integer (AccaSim's SWF regex only
  accepts a fraction in field 6 and silently skips any other non-integer
  line), requested memory (field 10) is set to 1 because AccaSim's EASY
  divides by each requested resource, and submit times are shifted up if the
  first one is below 2 (a guard: AccaSim's event manager tests
  `if not current_time` and resets its clock when the clock is 0; waits are
  unaffected). The counts in "cleaning" are over the whole trace, before
  --max-jobs.
* A system config with ONE node of N cores (and N units of memory). AccaSim's
  default SWF tweaker turns a request for P processors into P one-core
  "node requests" and its allocators may map several of them to the same
  node (SchedulerBase.ALLOW_MAPPING_SAME_NODE), so with a single N-core node
  any P free cores serve any job: processors are interchangeable, as in
  Schedlab. N one-core nodes give the same schedule (checked on KTH, see
  --layout) but make every allocation and reservation walk N node entries,
  which would slow AccaSim down for reasons that have nothing to do with its
  design, so the one-node layout is the default.

"seconds" is the wall time of Simulator.start_simulation(): reading the
prepared workload, simulating, and AccaSim flushing its dispatching plan (its
default output; it writes through forked helper processes). Preparation,
imports and the metrics below are excluded. "peak_rss_mb" is this process's
ru_maxrss: interpreter + AccaSim + simulation (the preparation runs in a
forked child and is not counted; AccaSim's writer children are not counted).

Mean wait and mean bounded slowdown (10 s threshold:
max(1, (wait + run) / max(run, 10))) are computed from AccaSim's own
dispatching-plan output; the job count is cross-checked against AccaSim's
internal list of waits (its statistics only give the unbounded slowdown).
"""

import argparse
import collections
import collections.abc
import contextlib
import gzip
import json
import os
import resource
import shutil
import sys
import tempfile
import time
import traceback


def _apply_shims():
    """AccaSim 1.1.3 does `from collections import Mapping` (removed in Python
    3.10). Alias every ABC collections used to export to collections.abc."""
    for name in collections.abc.__all__:
        if not hasattr(collections, name):
            setattr(collections, name, getattr(collections.abc, name))


class PrepError(Exception):
    pass


def _open_text(path):
    with open(path, "rb") as f:
        magic = f.read(2)
    if magic == b"\x1f\x8b":
        return gzip.open(path, "rt", encoding="utf-8", errors="strict")
    return open(path, "rt", encoding="utf-8", errors="strict")


def _header_procs(value):
    digits = ""
    for ch in value.strip():
        if ch.isdigit():
            digits += ch
        else:
            break
    return int(digits) if digits else None


def prepare_trace(src, out_path, procs, max_jobs):
    """Read, clean and rewrite the trace as a plain 18-integer-field SWF.

    Returns (procs, report dict)."""
    jobs = []
    report = collections.Counter()
    header = {}
    with _open_text(src) as f:
        for lineno, line in enumerate(f, 1):
            s = line.strip()
            if not s:
                continue
            if s.startswith(";"):
                body = s[1:].strip()
                if ":" in body:
                    k, v = body.split(":", 1)
                    header.setdefault(k.strip(), v.strip())
                continue
            parts = s.split()
            if len(parts) < 18:
                report["bad_lines"] += 1
                continue
            try:
                vals = [float(x) for x in parts[:18]]
            except ValueError:
                report["bad_lines"] += 1
                continue
            jobs.append([int(round(v)) for v in vals])

    if procs is None:
        for key in ("MaxProcs", "MaxNodes"):
            if key in header and _header_procs(header[key]):
                procs = _header_procs(header[key])
                break
        if procs is None:
            raise PrepError("no --procs given and no MaxProcs/MaxNodes header")
    if procs <= 0:
        raise PrepError("--procs must be positive")

    report["input_jobs"] = len(jobs)
    cleaned = []
    for j in jobs:
        # fields (0-based): 0 id, 1 submit, 2 wait, 3 run, 4 alloc, 5 avgcpu,
        # 6 usedmem, 7 reqprocs, 8 reqtime, 9 reqmem, 10 status, 11 user,
        # 12 group, 13 exe, 14 queue, 15 partition, 16 preceding, 17 think
        size = j[7] if j[7] > 0 else j[4]
        run = j[3]
        if run < 0 or size <= 0:
            report["dropped_unknown_runtime_or_size"] += 1
            continue
        if size > procs:
            report["dropped_size_above_machine"] += 1
            continue
        est = j[8]
        if est <= 0:
            est = run
            report["no_estimate"] += 1
        if run > est:
            run = est
            report["runtime_capped_at_estimate"] += 1
        if est < 1:
            est = 1
        j[3], j[4], j[7], j[8] = run, size, size, est
        j[6] = 1   # used memory
        j[9] = 1   # requested memory: AccaSim's EASY divides by it
        cleaned.append(j)

    order_before = [(j[1], j[0]) for j in cleaned]
    cleaned.sort(key=lambda j: (j[1], j[0]))
    if order_before != [(j[1], j[0]) for j in cleaned]:
        report["resorted"] = 1
    if max_jobs is not None:
        if max_jobs <= 0:
            raise PrepError("--max-jobs must be positive")
        cleaned = cleaned[:max_jobs]
    if not cleaned:
        raise PrepError("no valid job in the trace for {} processors (cleaning: {})"
                        .format(procs, json.dumps(dict(report), sort_keys=True)))

    ids = [j[0] for j in cleaned]
    if len(set(ids)) != len(ids):
        # AccaSim keys its job table by job number.
        report["renumbered"] = 1
        for i, j in enumerate(cleaned, 1):
            j[0] = i

    offset = max(0, 2 - cleaned[0][1])
    with open(out_path, "w") as out:
        out.write("; MaxProcs: {}\n".format(procs))
        for j in cleaned:
            j[1] += offset
            out.write(" ".join(str(v) for v in j) + "\n")
    report["jobs_after_cleaning"] = len(cleaned)
    report["submit_offset"] = offset
    return procs, dict(report)


def write_system_config(path, procs, layout):
    if layout == "one-node":
        config = {"groups": {"g0": {"core": procs, "mem": procs}},
                  "resources": {"g0": 1}}
    else:  # "core-nodes": N single-core nodes
        config = {"groups": {"g0": {"core": 1, "mem": 1}},
                  "resources": {"g0": procs}}
    with open(path, "w") as f:
        json.dump(config, f)


# AccaSim's dispatching-plan output, reformatted as plain integers.
SCHEDULE_OUTPUT = {
    "format": "{job_id};{queue_time};{start_time};{end_time};{total_nodes};{expected_duration}",
    "attributes": {
        "job_id": ("id", "str"),
        "queue_time": ("queued_time", "int"),
        "start_time": ("start_time", "int"),
        "end_time": ("end_time", "int"),
        "total_nodes": ("requested_nodes", "int"),
        "expected_duration": ("expected_duration", "int"),
    },
}


def prepare_in_child(args, workload, report_path):
    """Run prepare_trace in a forked child so that the memory it needs for the
    whole trace does not count in this process's peak RSS (the simulator's)."""
    pid = os.fork()
    if pid == 0:
        code = 0
        try:
            procs, report = prepare_trace(args.trace, workload, args.procs, args.max_jobs)
            res = {"procs": procs, "report": report}
        except BaseException as e:
            res = {"error": str(e) if isinstance(e, PrepError)
                   else "{}: {}".format(type(e).__name__, e)}
            code = 1
        try:
            with open(report_path, "w") as f:
                json.dump(res, f)
        finally:
            os._exit(code)
    _, status = os.waitpid(pid, 0)
    try:
        with open(report_path) as f:
            res = json.load(f)
    except (OSError, ValueError):
        raise PrepError("trace preparation died (wait status {})".format(status))
    if "error" in res:
        raise PrepError(res["error"])
    return res["procs"], res["report"]


def run(args, workdir):
    workload = os.path.join(workdir, "workload.swf")
    sysconf = os.path.join(workdir, "system.json")
    results = os.path.join(workdir, "results")
    procs, report = prepare_in_child(args, workload, os.path.join(workdir, "prep.json"))
    write_system_config(sysconf, procs, args.layout)

    _apply_shims()
    try:
        from importlib.metadata import version as _pkg_version
        acc_version = _pkg_version("accasim")
        from accasim.base.simulator_class import Simulator
        from accasim.base.scheduler_class import EASYBackfilling
        from accasim.base.allocator_class import FirstFit
    except Exception as e:  # not installed, or a shim is missing
        raise PrepError("cannot import accasim ({}: {}); run scripts/install-accasim.sh"
                        .format(type(e).__name__, e))

    rss_before = resource.getrusage(resource.RUSAGE_SELF).ru_maxrss / 1024.0
    with contextlib.redirect_stdout(sys.stderr):  # AccaSim print()s; keep stdout JSON-only
        dispatcher = EASYBackfilling(FirstFit())
        sim = Simulator(workload, sysconf, dispatcher,
                        RESULTS_FOLDER_PATH=results,
                        scheduling_output=True, statistics_output=False,
                        pprint_output=False, benchmark_output=False,
                        show_statistics=not args.json,
                        LOG_LEVEL="ERROR" if args.json else "INFO",
                        SCHEDULE_OUTPUT=SCHEDULE_OUTPUT)
        t0 = time.perf_counter()
        sim.start_simulation()
        seconds = time.perf_counter() - t0
    peak_rss = resource.getrusage(resource.RUSAGE_SELF).ru_maxrss / 1024.0

    sched = os.path.join(results, "sched-workload.swf")
    waits, bsds = [], []
    if os.path.exists(sched):
        with open(sched) as f:
            for line in f:
                line = line.strip()
                if not line:
                    continue
                _id, q, st, en, _n, _est = line.split(";")
                q, st, en = int(q), int(st), int(en)
                w, r = st - q, en - st
                waits.append(w)
                bsds.append(max(1.0, (w + r) / max(r, 10)))
    acc_waits = list(sim.mapper.wtimes)
    if len(waits) != len(acc_waits):
        raise PrepError("AccaSim's dispatching plan has {} jobs but it completed {}"
                        .format(len(waits), len(acc_waits)))
    if not waits:
        raise PrepError("AccaSim completed no job")
    if sim.loaded_jobs != report["jobs_after_cleaning"]:
        raise PrepError("AccaSim loaded {} of {} jobs".format(
            sim.loaded_jobs, report["jobs_after_cleaning"]))

    return {
        "simulator": "accasim",
        "version": acc_version,
        "scheduler": dispatcher.get_id(),
        "trace": os.path.basename(args.trace),
        "procs": procs,
        "layout": args.layout,
        "max_jobs": args.max_jobs,
        "jobs": len(waits),
        "loaded": sim.loaded_jobs,
        "rejected": sim.rejected_jobs,
        "seconds": round(seconds, 3),
        "jobs_per_second": round(len(waits) / seconds, 1) if seconds > 0 else None,
        "peak_rss_mb": round(peak_rss, 1),
        "rss_before_sim_mb": round(rss_before, 1),
        "mean_wait": round(sum(waits) / len(waits), 3),
        "mean_bsd": round(sum(bsds) / len(bsds), 4),
        "cleaning": report,
        "ok": True,
    }


def main():
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    ap.add_argument("trace", help="SWF trace, plain or gzip-compressed")
    ap.add_argument("--procs", type=int, default=None,
                    help="machine size (default: MaxProcs, else MaxNodes header)")
    ap.add_argument("--max-jobs", type=int, default=None,
                    help="simulate only the first K jobs after cleaning")
    ap.add_argument("--json", action="store_true",
                    help="quiet: only the JSON line (AccaSim's log suppressed)")
    ap.add_argument("--layout", choices=["one-node", "core-nodes"], default="one-node",
                    help="system config: one N-core node (default) or N one-core nodes")
    ap.add_argument("--keep-temp", action="store_true", help=argparse.SUPPRESS)
    args = ap.parse_args()

    workdir = tempfile.mkdtemp(prefix="accasim-easy-")
    code = 0
    try:
        out = run(args, workdir)
    except BaseException as e:  # includes SystemExit from AccaSim's exit()
        if isinstance(e, KeyboardInterrupt):
            msg = "interrupted"
        elif isinstance(e, PrepError):
            msg = str(e)
        else:
            msg = "{}: {}".format(type(e).__name__, e) if str(e) else type(e).__name__
            if not args.json:
                traceback.print_exc()
        out = {"ok": False, "error": msg}
        code = 1
    finally:
        if args.keep_temp:
            print("kept " + workdir, file=sys.stderr)
        else:
            shutil.rmtree(workdir, ignore_errors=True)
    sys.stdout.write(json.dumps(out) + "\n")
    sys.stdout.flush()
    sys.stderr.flush()
    return code


if __name__ == "__main__":
    # os._exit: a writer thread AccaSim left behind after a failure must not
    # keep the process alive once the result line is out.
    os._exit(main())
