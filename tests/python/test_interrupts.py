"""Ctrl-C and threads: a read stops at Ctrl-C within a mebibyte and raises
KeyboardInterrupt, even when the read fails; an environment stepped from
two threads at once never deadlocks (no lock is held while the GIL is
released). Each case runs in its own interpreter, since a failure here
hangs or leaves a signal pending."""

from __future__ import annotations

import os

import pytest

from conftest import run_script

pytestmark = pytest.mark.skipif(not hasattr(os, "mkfifo"), reason="needs FIFOs and signals")

READ_FROM_A_FIFO = """
import os, signal, sys, tempfile, threading
import schedlab

fifo = os.path.join(tempfile.mkdtemp(), "trace.swf")
os.mkfifo(fifo)
LINE = {line!r}
written = []

def writer():
    with open(fifo, "wb") as f:
        try:
            f.write(LINE * 1000)
            f.flush()
            os.kill(os.getpid(), signal.SIGINT)
            after = 0
            # Up to 64 MiB more; a reader that honours Ctrl-C closes the
            # FIFO long before.
            while after < 64 << 20:
                f.write(LINE * 10000)
                after += len(LINE) * 10000
            written.append(after)
        except BrokenPipeError:
            written.append(after)

thread = threading.Thread(target=writer)
thread.start()
try:
    schedlab.load(fifo)
    outcome = "loaded"
except KeyboardInterrupt:
    outcome = "KeyboardInterrupt"
except schedlab.SchedlabError as e:
    outcome = "SchedlabError: " + str(e)[:80]
thread.join()
print(outcome, written[0])
"""


def read(line: bytes):
    done = run_script(READ_FROM_A_FIFO.format(line=line), timeout=120)
    assert done.returncode == 0, done.stderr
    outcome, after = done.stdout.split()[-2:]
    return outcome, int(after)


def test_ctrl_c_stops_a_read_within_a_mebibyte():
    outcome, after = read(b"1 0 -1 10 1 -1 -1 1 10 -1 1 1 1 -1 -1 -1 -1 -1\n")
    assert outcome == "KeyboardInterrupt"
    assert after < 4 << 20, f"{after} bytes were read after Ctrl-C"


def test_ctrl_c_during_a_read_that_fails_raises_keyboard_interrupt():
    outcome, after = read(b"not a trace line\n")
    assert outcome == "KeyboardInterrupt"
    assert after < 4 << 20, f"{after} bytes were read after Ctrl-C"


def test_stepping_an_environment_from_two_threads_never_deadlocks():
    done = run_script(
        """
        import sys, threading
        import schedlab
        from schedlab.gym import SchedulingEnv

        sys.setswitchinterval(1e-6)
        trace = schedlab.load("samples/kth-sp2-first3000.swf")
        env = SchedulingEnv(trace, window=8, episode_jobs=len(trace))
        env.reset(seed=0)
        steps = 0
        while not env.step(0)[2]:
            steps += 1
        for attempt in range(20):
            env.reset(seed=0)
            for _ in range(steps):
                env.step(0)
            # The next step is the last: it checks the run and computes its
            # metrics with the GIL released, while the other thread steps.
            stop = threading.Event()
            def other():
                while not stop.is_set():
                    try:
                        env.step(0)
                    except (RuntimeError, schedlab.SchedlabError):
                        pass
            thread = threading.Thread(target=other)
            thread.start()
            try:
                env.step(0)
            except (RuntimeError, schedlab.SchedlabError):
                pass
            stop.set()
            thread.join()
        print("done")
        """,
        timeout=300,
    )
    assert done.stdout.strip() == "done", done.stderr
