"""Parameter-server clusters as MPMD MPI jobs: the seed notebook's ps/worker/worker2 programs
(tests/ps_programs), synchronous PS against one process, and the launch errors."""
import os
import re
import signal
import subprocess
import sys
import time

import numpy as np
import pytest

from tests.mpirun import ROOT, find_mpiexec, mpi_env

PROGRAMS = ROOT / "tests" / "ps_programs"
pytestmark = pytest.mark.skipif(find_mpiexec() is None, reason="needs mpiexec")


def mpmd_command(programs, via_mpi4py=True):
    """One MPMD mpiexec command line, each entry a program's argv, one rank each; `python -m mpi4py` aborts
    the job if a rank fails (without it, tg.train.Server's own hooks must)."""
    command = [find_mpiexec()]
    for i, argv in enumerate(programs):
        python = [sys.executable, "-m", "mpi4py"] if via_mpi4py else [sys.executable]
        command += ([":"] if i else []) + ["-n", "1", *python, *map(str, argv)]
    return command


def mpmd(programs, cwd, timeout=180, via_mpi4py=True):
    """Run the job; each rank's stdout is block-buffered (no PYTHONUNBUFFERED, which CI sets), so it reaches
    mpiexec in one piece at exit: unbuffered, `print(a, b, c)` is several writes, and another rank's line
    can land in the middle of the line a test parses."""
    env = mpi_env()
    env.pop("PYTHONUNBUFFERED", None)
    return subprocess.run(mpmd_command(programs, via_mpi4py), cwd=cwd, env=env, capture_output=True,
                          text=True, timeout=timeout)


def seed_programs(*args):
    return [[PROGRAMS / name, *args] for name in ("ps.py", "worker.py", "worker2.py")]


def seed_job(steps, cwd, *args):
    return mpmd(seed_programs(steps, *args), cwd)


def finals(out):
    """{worker task: (W, b, step)} from the seed programs' last line."""
    return {int(t): (float(w), float(b), int(s))
            for t, w, b, s in re.findall(r"final worker (\d) W= (\S+) b= (\S+) step= (\d+)", out)}


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


def latest_step(logdir):
    """The global step of logdir's latest checkpoint, -1 if none (yet, or its state file is being written)."""
    import trainer as tg
    try:
        path = tg.train.latest_checkpoint(str(logdir))
    except Exception:  # noqa: BLE001 - a state file caught half-written: look again
        return -1
    return int(path.rsplit("-", 1)[1]) if path else -1


def test_a_killed_job_restarts_from_the_chief_s_last_periodic_checkpoint(tmp_path):
    import trainer as tg
    logdir = tmp_path / "log" / "super"
    job = subprocess.Popen(mpmd_command(seed_programs(10 ** 6, 1)), cwd=tmp_path, env=mpi_env(),
                           stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL, start_new_session=True)
    try:  # the timer saves at once (step 0), then every second: wait for one taken while training
        deadline = time.monotonic() + 120
        while latest_step(logdir) < 100:
            assert job.poll() is None, "the job ended before it was killed"
            assert time.monotonic() < deadline, "no checkpoint past step 100 within 120 s"
            time.sleep(0.05)
    finally:
        os.killpg(job.pid, signal.SIGKILL)  # mpiexec and every rank: nothing gets to save or say goodbye
        job.wait()
    reader = tg.train.load_checkpoint(str(logdir))
    saved = int(reader.get_tensor("global_step"))
    weight, bias = float(reader.get_tensor("weight")[0]), float(reader.get_tensor("bias")[0])
    assert saved >= latest_step(logdir) >= 100  # the file is named by a read of the step just before the save

    resumed = seed_job(saved, tmp_path)  # no step left to train: the job shows what it restored
    assert resumed.returncode == 0, resumed.stdout + resumed.stderr
    assert finals(resumed.stdout) == {0: (weight, bias, saved), 1: (weight, bias, saved)}, resumed.stdout

    finished = seed_job(saved + 400, tmp_path)
    assert finished.returncode == 0, finished.stdout + finished.stderr
    assert min(int(s) for s in re.findall(r"start step (\d+)", finished.stdout)) >= saved, finished.stdout
    for w, b, step in finals(finished.stdout).values():
        assert abs(w - 2) < 0.2 and abs(b) < 0.2 and step >= saved + 400, finished.stdout


def test_async_sgd_on_two_workers_converges_to_the_least_squares_optimum(tmp_path):
    steps, out = 300, tmp_path / "final.npz"
    roles = [("ps", 0), ("worker", 0), ("worker", 1)]
    job = mpmd([[PROGRAMS / "async_linear.py", r, t, steps, out] for r, t in roles], tmp_path)
    assert job.returncode == 0, job.stdout + job.stderr
    got = np.load(out)
    rng = np.random.default_rng(1)  # the programs' data, and its optimum in closed form
    x = rng.uniform(-1, 1, (64, 3))
    y = x @ np.array([[1.5], [-2.0], [0.5]]) + 0.1 + 0.05 * rng.standard_normal((64, 1))
    design = np.hstack([x, np.ones((64, 1))])
    best = np.linalg.lstsq(design, y, rcond=None)[0]
    optimum = np.mean((y - design @ best) ** 2)
    assert int(got["step"]) >= steps
    assert float(got["first"]) > 1.0 > optimum  # starts far from it
    assert float(got["last"]) - optimum < 1e-3, (float(got["last"]), optimum)
    np.testing.assert_allclose(np.vstack([got["W"], got["b"][:, None]]), best, atol=0.05)


def test_a_failing_worker_ends_the_whole_job(tmp_path):
    roles = [("ps", 0), ("ps", 1), ("worker", 0), ("worker", 1)]
    programs = [[PROGRAMS / "sync_linear.py", r, t, 10 ** 6, tmp_path / "final.npz", 3] for r, t in roles]
    start = time.monotonic()
    job = mpmd(programs, tmp_path, timeout=60, via_mpi4py=False)  # without the abort the chief waits forever
    assert job.returncode != 0
    assert "ringflow: error on rank 3: RuntimeError: worker 1 fails on purpose at step 3" in job.stderr, job.stderr
    assert time.monotonic() - start < 30  # a few seconds, on a loaded machine


def one_process_momentum(steps):
    """The oracle: Momentum(0.1, 0.9) on the global batch of 8, in numpy, float64, with the rates TF1 steps a
    float64 variable by: the Python floats' nearest float32 values."""
    lr, mu = float(np.float32(0.1)), float(np.float32(0.9))
    rng = np.random.default_rng(0)
    x = rng.uniform(-1, 1, (steps, 8, 3))
    y = x @ np.array([[1.5], [-2.0], [0.5]]) + 0.1
    w, b = np.full((3, 1), 0.3), np.zeros(1)
    acc_w, acc_b = np.zeros_like(w), np.zeros_like(b)
    for s in range(steps):
        r = y[s] - (x[s] @ w + b)
        acc_w = mu * acc_w - 2 * x[s].T @ r / r.size
        acc_b = mu * acc_b - 2 * r.sum(axis=0) / r.size
        w, b = w - lr * acc_w, b - lr * acc_b
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


def test_a_worker_ending_while_its_daemon_thread_reads_does_not_hang_the_ps(tmp_path):
    roles = [("ps", 0), ("worker", 0), ("worker", 1)]
    job = mpmd([[PROGRAMS / "daemon_at_exit.py", r, t] for r, t in roles], tmp_path, timeout=60)
    assert job.returncode == 0, job.stdout + job.stderr  # stuck, a rank's faulthandler ends the job at 20 s
    assert sorted(re.findall(r"finished worker (\d)", job.stdout)) == ["0", "1"], job.stdout


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
