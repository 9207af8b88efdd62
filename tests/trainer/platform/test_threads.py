"""BLAS threads are split between the ranks a launcher puts on one node."""
import os
import subprocess
import sys

import pytest

import trainer.platform.threads as threads

from ...mpirun import ROOT

THREAD_VARIABLES = ("OMP_NUM_THREADS", "OPENBLAS_NUM_THREADS", "MKL_NUM_THREADS")


def clear(monkeypatch):
    for name in THREAD_VARIABLES:
        monkeypatch.delenv(name, raising=False)


def test_ranks_sharing_a_node_split_its_cores(monkeypatch):
    clear(monkeypatch)
    monkeypatch.setattr(threads.os, "sched_getaffinity", lambda pid: set(range(16)))
    assert threads.limit_blas_threads(4) == 4
    assert threads.os.environ["OPENBLAS_NUM_THREADS"] == "4" and threads.os.environ["OMP_NUM_THREADS"] == "4"


def test_cores_come_from_the_affinity_not_the_machine(monkeypatch):
    """A cpuset of 4 cores on a 64-core machine, 2 ranks: 2 threads each, not 32."""
    clear(monkeypatch)
    monkeypatch.setattr(threads.os, "cpu_count", lambda: 64)
    monkeypatch.setattr(threads.os, "sched_getaffinity", lambda pid: {8, 9, 10, 11})
    assert threads.limit_blas_threads(2) == 2


def test_more_ranks_than_cores_get_one_thread(monkeypatch):
    clear(monkeypatch)
    monkeypatch.setattr(threads.os, "sched_getaffinity", lambda pid: {0, 1})
    assert threads.limit_blas_threads(3) == 1


def test_user_choice_and_single_rank_are_left_alone(monkeypatch):
    clear(monkeypatch)
    monkeypatch.setenv("OMP_NUM_THREADS", "7")
    assert threads.limit_blas_threads(2) is None
    assert threads.os.environ["OMP_NUM_THREADS"] == "7"
    clear(monkeypatch)
    assert threads.limit_blas_threads(1) is None and threads.limit_blas_threads(None) is None
    assert "OPENBLAS_NUM_THREADS" not in threads.os.environ


@pytest.mark.parametrize("launcher", [{"MPI_LOCALNRANKS": "2"}, {"OMPI_COMM_WORLD_RANK": "1",
                                      "OMPI_COMM_WORLD_LOCAL_SIZE": "2"}, {"SLURM_PROCID": "5",
                                      "SLURM_NTASKS": "8", "SLURM_STEP_TASKS_PER_NODE": "2(x4)"}])
def test_import_trainer_reads_the_local_size_from_the_launcher(launcher):
    env = {k: v for k, v in os.environ.items() if k not in THREAD_VARIABLES and not k.startswith(
        ("PMI", "MPI_", "OMPI_", "MV2_", "SLURM_"))}
    env.update(launcher, PYTHONPATH=str(ROOT))
    if "MPI_LOCALNRANKS" in launcher:
        env["PMI_RANK"], env["PMI_SIZE"] = "0", "2"
    cores = len(os.sched_getaffinity(0))
    out = subprocess.run([sys.executable, "-c", "import os, trainer; print(os.environ['OMP_NUM_THREADS'])"],
                         env=env, capture_output=True, text=True, timeout=120, cwd=ROOT)
    assert out.returncode == 0 and out.stdout.split() == [str(max(1, cores // 2))], out.stderr
