"""A stalled rank is named every time: the backends built on MPI's own collectives ("mpi", "ps") wait for them
with the deadline (a rank that stops after the agreement used to leave the others in a blocking MPI call for
ever), and the reason reaches the user before MPI_Abort ends the job (the rank waits until mpiexec's proxy has
read its stderr). Real `mpiexec` jobs; times are printed (pytest -s)."""
import os
import signal
import subprocess
import sys
import textwrap
import threading
import time

import pytest

from .mpirun import ROOT, find_mpiexec, mpi_env
from .test_cli_faults import JOB_TIMEOUT_S, SMALL, command, descendant_with_rank, env

STALL_AFTER_AGREEING = """
import os, time
import numpy as np
import allreduce

comm = allreduce.create_communicator(os.environ["TEST_BACKEND"])
if comm.rank == 2:  # agrees on the collective like the others, then stops before moving any data
    agree = comm.agree
    comm.agree = lambda signature: (agree(signature), time.sleep(120))
for step in range(3):
    comm.allreduce(np.ones(4), what=f"step {step}'s allreduce")
"""


@pytest.mark.parametrize("backend", ["mpi", "ps"])
def test_a_rank_stalled_inside_an_mpi_collective_is_timed_out_and_named(tmp_path, backend):
    launcher = find_mpiexec()
    if launcher is None:
        pytest.skip("no mpiexec found: install the 'mpich' extra or a system MPI")
    script = tmp_path / "stall.py"
    script.write_text(textwrap.dedent(STALL_AFTER_AGREEING))
    start = time.monotonic()
    proc = subprocess.run([launcher, "-n", "3", sys.executable, str(script)], capture_output=True, text=True,
                          cwd=ROOT, env=mpi_env(RINGFLOW_TIMEOUT="1", TEST_BACKEND=backend), timeout=JOB_TIMEOUT_S)
    print(f"[{backend}] exit {proc.returncode} after {time.monotonic() - start:.1f} s")
    assert proc.returncode == 1, proc.stdout + proc.stderr
    assert "step 0's allreduce timed out at rank " in proc.stderr and "waiting for rank 2" in proc.stderr, proc.stderr


def test_ringflow_train_names_a_stalled_rank(tmp_path):
    launcher = find_mpiexec()
    if launcher is None or not os.path.isdir("/proc"):
        pytest.skip("needs mpiexec and /proc")
    cmd = [launcher, "-n", "3"] + command() + ["train", *SMALL, "--steps", str(10**9), "--log-every", str(10**9)]
    proc = subprocess.Popen(cmd, stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True, cwd=ROOT,
                            env=dict(env(), RINGFLOW_TIMEOUT="2"))
    victim = None
    try:
        assert proc.stdout.readline().startswith("ringflow: ")  # the headline: the ranks are training
        time.sleep(0.2)
        victim = descendant_with_rank(proc.pid, 2)
        os.kill(victim, signal.SIGSTOP)
        stopped = time.monotonic()
        out, err = proc.communicate(timeout=JOB_TIMEOUT_S)
    finally:
        if proc.poll() is None:
            proc.kill()
        if victim is not None:
            try:
                os.kill(victim, signal.SIGKILL)
            except ProcessLookupError:
                pass
    print(f"[stalled rank] exit {proc.returncode} {time.monotonic() - stopped:.1f} s after SIGSTOP")
    assert proc.returncode == 1, err
    assert "CollectiveTimeout: " in err and "timed out at rank " in err and "waiting for rank 2" in err, err


def test_an_aborting_rank_waits_until_its_output_is_read():
    from allreduce import abort
    read, write = os.pipe()
    try:
        os.write(write, b"ringflow: error on rank 1: the reason\n")
        reader = threading.Timer(0.3, lambda: os.read(read, 4096))
        start = time.monotonic()
        reader.start()
        abort.wait_forwarded(fds=(write,), limit=10)
        waited = time.monotonic() - start
        reader.join()
        assert 0.3 + abort.FORWARD_S <= waited < 5, waited
        os.write(write, b"nobody reads this\n")
        start = time.monotonic()
        abort.wait_forwarded(fds=(write,), limit=0.5)  # a launcher that never reads: the wait is bounded
        assert 0.5 <= time.monotonic() - start < 5
    finally:
        os.close(read)
        os.close(write)
