"""A rank waiting in a collective for a late rank does not burn its core: real 2-rank `mpiexec` jobs in which rank 1
sleeps STALL_S before joining an allreduce that rank 0 is already waiting in, and rank 0 reports the CPU time it
used meanwhile. Both ranks bound to one core make the node crowded (more ranks than cores), where a waiting rank
must nap at once; with a core each it may yield for waiting.YIELD_S (0.2 s) first, unless other programs keep
every core busy."""
import json
import os
import resource
import subprocess
import sys
import textwrap
import time

import pytest

from allreduce import waiting
from ..mpirun import ROOT, find_mpiexec, mpi_env

STALL_S = 2.0
JOB_TIMEOUT_S = 60
LATE_JOIN = """
import json, os, time
import numpy as np
if os.environ["TEST_CORES"] == "one core for both":
    os.sched_setaffinity(0, {min(os.sched_getaffinity(0))})
import allreduce

comm = allreduce.create_communicator(os.environ["TEST_BACKEND"])
x = np.full(int(os.environ["TEST_COUNT"]), comm.rank + 1.0)
comm.allreduce(x)  # connections and buffers are set up before the measured wait
if comm.rank == 1:
    time.sleep(float(os.environ["TEST_STALL_S"]))
wall, cpu = time.monotonic(), time.process_time()
out = comm.allreduce(x, what="the late allreduce")
wall, cpu = time.monotonic() - wall, time.process_time() - cpu
assert (out == 3.0).all()
if comm.rank == 0:
    print(json.dumps({"wall": wall, "cpu": cpu, "crowded": bool(comm.oversubscribed)}))
"""


def late_join(tmp_path, backend, cores, count=4):
    launcher = find_mpiexec()
    if launcher is None:
        pytest.skip("no mpiexec found: install the 'mpich' extra or a system MPI")
    script = tmp_path / "late_join.py"
    script.write_text(textwrap.dedent(LATE_JOIN))
    env = mpi_env(TEST_BACKEND=backend, TEST_CORES=cores, TEST_COUNT=str(count), TEST_STALL_S=str(STALL_S))
    proc = subprocess.run([launcher, "-n", "2", sys.executable, str(script)], capture_output=True, text=True,
                          cwd=ROOT, env=env, timeout=JOB_TIMEOUT_S)
    assert proc.returncode == 0, proc.stdout + proc.stderr
    report = json.loads(proc.stdout.strip().splitlines()[-1])
    print(f"[{backend}, {cores}] rank 0 waited {report['wall']:.2f} s using {report['cpu']:.3f} s of CPU")
    assert report["wall"] > 0.9 * STALL_S, report  # it really waited for the late rank
    return report


# 1 MiB takes the ring's data path, not only recursive doubling
@pytest.mark.parametrize("backend, count", [("ring", 4), ("ring", 2**17), ("mpi", 4), ("shm", 4)])
def test_a_crowded_rank_naps_while_it_waits(tmp_path, backend, count):
    # a 2 s wait naps ~500 times (0.02-0.03 s of CPU here); yielding for 0.2 s first, as before, cost 0.1-0.14 s
    report = late_join(tmp_path, backend, "one core for both", count)
    assert report["crowded"], report
    assert report["cpu"] < 0.035 * report["wall"], report


def test_a_rank_with_a_core_of_its_own_yields_only_briefly(tmp_path):
    if len(os.sched_getaffinity(0)) < 2:
        pytest.skip("needs 2 cores, so that 2 ranks are not crowded")
    report = late_join(tmp_path, "ring", "a core each")
    assert not report["crowded"], report
    assert report["cpu"] < 0.25 * report["wall"], report


@pytest.mark.skipif(not hasattr(resource, "RUSAGE_THREAD") or not os.path.exists("/proc/loadavg"),
                    reason="counts a thread's context switches and reads the runnable count as Linux does")
def test_a_wait_naps_at_once_while_other_programs_fill_every_core():
    # A yielding thread stays runnable: it is only ever switched out involuntarily. A napping one sleeps, which the
    # kernel counts as a voluntary switch (measured: ~170 in 0.15 s napping, 0 yielding).
    burners = [subprocess.Popen([sys.executable, "-c", "while True: pass"]) for _ in range(os.cpu_count() or 1)]
    try:
        time.sleep(2 * waiting.BUSY_CHECK_S)
        assert waiting.machine_busy()
        end = time.monotonic() + 0.15
        before = resource.getrusage(resource.RUSAGE_THREAD).ru_nvcsw
        assert waiting.patiently(lambda: time.monotonic() > end, 0, 10, crowded=False)
        slept = resource.getrusage(resource.RUSAGE_THREAD).ru_nvcsw - before
    finally:
        for burner in burners:
            burner.kill()
            burner.wait()
    assert slept >= 10, f"the wait slept {slept} times: it yielded instead of napping"
