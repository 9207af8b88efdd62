"""Runs the multi-rank suite in tests/mpi under mpiexec for several world sizes, with a timeout."""
import os
import subprocess
import sys

import pytest

from .mpirun import ROOT, find_mpiexec, mpi_env

MPI_TESTS = ROOT / "tests" / "mpi"
TIMEOUT_S = int(os.environ.get("RINGFLOW_TEST_MPI_TIMEOUT", "600"))


@pytest.mark.parametrize("nranks", [1, 2, 3, 4])
def test_mpi_suite(nranks):
    mpiexec = find_mpiexec()
    if mpiexec is None:
        pytest.skip("no mpiexec found: install the 'mpich' extra or a system MPI")
    files = sorted(str(p) for p in MPI_TESTS.glob("test_*.py"))
    if not files:
        pytest.skip("no multi-rank tests yet")
    env = mpi_env()
    cmd = [mpiexec, "-n", str(nranks), sys.executable, "-m", "mpi4py", "-m", "pytest",
           *files, "-x", "-q", "-p", "no:cacheprovider", "-o", "addopts="]
    try:
        proc = subprocess.run(cmd, cwd=ROOT, env=env, capture_output=True, text=True, timeout=TIMEOUT_S)
    except subprocess.TimeoutExpired as exc:
        out = (exc.stdout or b"").decode() if isinstance(exc.stdout, bytes) else (exc.stdout or "")
        pytest.fail(f"mpiexec -n {nranks} timed out after {TIMEOUT_S}s (a collective hung)\n{out[-6000:]}")
    assert proc.returncode == 0, (
        f"mpiexec -n {nranks} failed with exit code {proc.returncode}\n"
        f"{proc.stdout[-8000:]}\n{proc.stderr[-4000:]}")
