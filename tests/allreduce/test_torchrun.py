"""A process that torchrun started (RANK, WORLD_SIZE, LOCAL_RANK set, no MPI launcher) stops with one line saying
to use `ringflow run -np N` or mpiexec instead of training alone: `ringflow train` before MPI starts, a
communicator (tg.DistributedOptimizer, hvd.init()) when it is created. Launchers that agree with torchrun's
variables, and processes torchrun did not start, go on."""
import importlib.util
import os
import shutil
import subprocess
import sys

import pytest

from allreduce import launcher, torchrun

from ..mpirun import ROOT, find_mpiexec, mpi_env

TORCHRUN = dict(RANK="1", WORLD_SIZE="4", LOCAL_RANK="1")
WORDS = "this process was started by torchrun (WORLD_SIZE=4, RANK=1) but "
ADVICE = "Launch with `ringflow run -np 4 ...` or `mpiexec -n 4 ...` instead of torchrun"


@pytest.mark.parametrize("environ, mpi_size, refused", [
    (TORCHRUN, None, "no MPI launcher started it"),
    (TORCHRUN, 1, "its MPI job has 1 rank(s)"),
    ({**TORCHRUN, "PMI_RANK": "1", "PMI_SIZE": "2"}, None, "its MPI job has 2 rank(s)"),
    ({**TORCHRUN, "SLURM_PROCID": "0", "SLURM_STEP_NUM_TASKS": "2"}, None,
     "its MPI job has 2 rank(s)"),  # srun torchrun, 2 nodes
    ({**TORCHRUN, "OMPI_COMM_WORLD_RANK": "1", "OMPI_COMM_WORLD_SIZE": "4"}, None, None),  # mpirun set both: they agree
    ({**TORCHRUN, "PMIX_RANK": "1"}, None, None),  # PMIx tells no size: decided when MPI starts
    (TORCHRUN, 4, None),
    ({**TORCHRUN, "WORLD_SIZE": "1", "RANK": "0"}, 1, None),
    ({"WORLD_SIZE": "4"}, 1, None),  # not torchrun: it sets all three
    ({}, 1, None),
])
def test_who_is_refused(environ, mpi_size, refused):
    why = torchrun.problem(mpi_size, environ)
    if refused is None:
        assert why is None
    else:
        assert why.startswith(WORDS + refused) and why.endswith(ADVICE), why


def clean_env(**extra):
    env = mpi_env(**extra)
    for name in launcher.VARIABLES:
        env.pop(name, None)
    return env


def test_ringflow_train_stops_before_mpi_starts():
    proc = subprocess.run([sys.executable, "-m", "trainer", "train", "--model", "mlp", "--dataset",
                           "synthetic-classes", "--steps", "1"], cwd=ROOT, env=clean_env(**TORCHRUN),
                          capture_output=True, text=True, timeout=120)
    assert proc.returncode == 2 and proc.stderr == f"ringflow: error: {WORDS}no MPI launcher started it: " \
        f"ringflow's ranks are MPI ranks, and torchrun's processes would each train alone. {ADVICE}\n", proc.stderr


LIBRARY = """
import trainer as tg
tg.DistributedOptimizer(tg.train.GradientDescentOptimizer(0.1))
print("trained alone")
"""


def test_a_library_program_stops_when_its_communicator_is_made():
    proc = subprocess.run([sys.executable, "-c", LIBRARY], cwd=ROOT, env=clean_env(**TORCHRUN),
                          capture_output=True, text=True, timeout=120)
    assert proc.returncode == 1 and "trained alone" not in proc.stdout
    assert f"RuntimeError: {WORDS}its MPI job has 1 rank(s)" in proc.stderr, proc.stderr


def test_an_mpi_job_that_agrees_goes_on():
    mpiexec = find_mpiexec()
    if mpiexec is None:
        pytest.skip("no mpiexec")
    proc = subprocess.run([mpiexec, "-n", "2", "-genv", "WORLD_SIZE", "2", "-genv", "RANK", "0", "-genv",
                           "LOCAL_RANK", "0", sys.executable, "-c", LIBRARY], cwd=ROOT, env=clean_env(),
                          capture_output=True, text=True, timeout=120)
    assert proc.returncode == 0 and proc.stdout.count("trained alone") == 2, proc.stdout + proc.stderr


@pytest.mark.skipif(importlib.util.find_spec("torch") is None or shutil.which("torchrun", path=os.path.dirname(
    sys.executable)) is None, reason="torchrun (torch) is not installed")
def test_real_torchrun():
    torchrun_exe = os.path.join(os.path.dirname(sys.executable), "torchrun")
    proc = subprocess.run([torchrun_exe, "--nproc-per-node", "2", "-m", "trainer", "train", "--model", "mlp",
                           "--dataset", "synthetic-classes", "--steps", "1"], cwd=ROOT, env=clean_env(),
                          capture_output=True, text=True, timeout=300)
    assert proc.returncode != 0
    # torchrun stops the other process once one has failed: it may not get to say so
    assert any(f"ringflow: error: this process was started by torchrun (WORLD_SIZE=2, RANK={rank}) but no MPI "
               "launcher started it" in proc.stderr for rank in (0, 1)), proc.stderr
