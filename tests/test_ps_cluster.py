"""Parameter-server clusters as MPMD MPI jobs: the seed notebook's ps/worker/worker2 programs
(tests/ps_programs), synchronous PS against one process, and the launch errors."""
import re
import subprocess
import sys

import numpy as np
import pytest

from tests.mpirun import ROOT, find_mpiexec, mpi_env

PROGRAMS = ROOT / "tests" / "ps_programs"
pytestmark = pytest.mark.skipif(find_mpiexec() is None, reason="needs mpiexec")


def mpmd(programs, cwd, timeout=180):
    """Run one MPMD job, each entry a program's argv; `python -m mpi4py` aborts the job if a rank fails."""
    command = [find_mpiexec()]
    for i, argv in enumerate(programs):
        command += ([":"] if i else []) + ["-n", "1", sys.executable, "-m", "mpi4py", *map(str, argv)]
    return subprocess.run(command, cwd=cwd, env=mpi_env(), capture_output=True, text=True, timeout=timeout)


def seed_job(steps, cwd):
    return mpmd([[PROGRAMS / "ps.py", steps], [PROGRAMS / "worker.py", steps], [PROGRAMS / "worker2.py", steps]],
                cwd)


def test_seed_programs_train_to_w2_b0_and_restart_resumes_from_the_checkpoint(tmp_path):
    first = seed_job(300, tmp_path)
    assert first.returncode == 0, first.stdout + first.stderr
    finals = re.findall(r"final worker (\d) W= (\S+) b= (\S+) step= (\d+)", first.stdout)
    assert sorted(f[0] for f in finals) == ["0", "1"], first.stdout
    saved = int(re.search(r"sv\.cpk-(\d+)", (tmp_path / "log/super/checkpoint").read_text()).group(1))
    assert saved >= 300
    second = seed_job(800, tmp_path)
    assert second.returncode == 0, second.stdout + second.stderr
    starts = [int(s) for s in re.findall(r"start step (\d+)", second.stdout)]
    assert min(starts) >= saved, second.stdout  # the chief restored the ps variables, step included
    for _, w, b, step in re.findall(r"final worker (\d) W= (\S+) b= (\S+) step= (\d+)", second.stdout):
        assert abs(float(w) - 2) < 0.2 and abs(float(b)) < 0.2 and int(step) >= 800, second.stdout


def one_process_momentum(steps):
    """The oracle: Momentum(0.1, 0.9) on the global batch of 8, in numpy, float64."""
    rng = np.random.default_rng(0)
    x = rng.uniform(-1, 1, (steps, 8, 3))
    y = x @ np.array([[1.5], [-2.0], [0.5]]) + 0.1
    w, b = np.full((3, 1), 0.3), np.zeros(1)
    acc_w, acc_b = np.zeros_like(w), np.zeros_like(b)
    for s in range(steps):
        r = y[s] - (x[s] @ w + b)
        acc_w = 0.9 * acc_w - 2 * x[s].T @ r / r.size
        acc_b = 0.9 * acc_b - 2 * r.sum(axis=0) / r.size
        w, b = w - 0.1 * acc_w, b - 0.1 * acc_b
    return w, b


def test_sync_replicas_on_two_ps_equals_one_process_on_the_global_batch(tmp_path):
    steps, out = 6, tmp_path / "final.npz"
    roles = [("ps", 0), ("ps", 1), ("worker", 0), ("worker", 1)]
    job = mpmd([[PROGRAMS / "sync_linear.py", r, t, steps, out] for r, t in roles], tmp_path)
    assert job.returncode == 0, job.stdout + job.stderr
    got = np.load(out)
    w, b = one_process_momentum(steps)
    assert int(got["step"]) == steps
    np.testing.assert_allclose(got["W"], w, rtol=0, atol=1e-9)
    np.testing.assert_allclose(got["b"], b, rtol=0, atol=1e-9)


def test_missing_ps_is_named(tmp_path):
    job = mpmd([[PROGRAMS / "worker.py"], [PROGRAMS / "worker2.py"]], tmp_path, timeout=60)
    assert job.returncode != 0
    assert "No process runs 'ps' task 0 of the ClusterSpec" in job.stderr


def test_doubled_task_index_is_named(tmp_path):
    job = mpmd([[PROGRAMS / "ps.py"], [PROGRAMS / "worker.py"], [PROGRAMS / "worker.py"]], tmp_path, timeout=60)
    assert job.returncode != 0
    assert "Task 0 of job 'worker' is started by more than one process (MPI ranks [1, 2])" in job.stderr


def test_a_lone_start_says_how_to_launch(tmp_path):
    job = subprocess.run([sys.executable, str(PROGRAMS / "worker.py")], cwd=tmp_path, env=mpi_env(),
                         capture_output=True, text=True, timeout=60)
    assert job.returncode != 0
    assert "started alone" in job.stderr and "mpiexec -n 1 python ps.py : -n 1 python worker.py" in job.stderr
