"""The launcher's environment, read in one place: each launcher's rank, size, local rank and local size, which
launcher wins when several left variables, values no launcher would set, and the failure handler that used to
see no rank where only PMIx or srun had set one."""
import os
import shutil
import subprocess
import sys

import pytest

from allreduce import launcher

from ..mpirun import ROOT

LAUNCHERS = {  # what each launcher sets in rank 5 of 8, the second of 2 ranks on its node
    "Hydra/MPICH": dict(PMI_RANK="5", PMI_SIZE="8", MPI_LOCALRANKID="1", MPI_LOCALNRANKS="2"),
    "Open MPI": dict(OMPI_COMM_WORLD_RANK="5", OMPI_COMM_WORLD_SIZE="8", OMPI_COMM_WORLD_LOCAL_RANK="1",
                     OMPI_COMM_WORLD_LOCAL_SIZE="2"),
    "MVAPICH": dict(MV2_COMM_WORLD_RANK="5", MV2_COMM_WORLD_SIZE="8", MV2_COMM_WORLD_LOCAL_RANK="1",
                    MV2_COMM_WORLD_LOCAL_SIZE="2"),
    "Slurm srun": dict(SLURM_PROCID="5", SLURM_STEP_NUM_TASKS="8", SLURM_NTASKS="16", SLURM_LOCALID="1",
                       SLURM_STEP_TASKS_PER_NODE="2(x4)", SLURM_NTASKS_PER_NODE="4", SLURM_NODEID="2"),
}


def described(environ):
    return (launcher.rank(environ), launcher.size(environ), launcher.local_rank(environ),
            launcher.local_size(environ))


@pytest.mark.parametrize("name", sorted(LAUNCHERS))
def test_each_launchers_variables(name):
    environ = LAUNCHERS[name]
    assert launcher.launcher(environ).name == name
    assert described(environ) == (5, 8, 1, 2)


def test_pmix_tells_a_rank_and_a_size_only_where_set():
    assert described({"PMIX_RANK": "5"}) == (5, None, None, None)
    assert described({"PMIX_RANK": "5", "PMIX_SIZE": "8"}) == (5, 8, None, None)


def test_alone_no_launcher_says_anything():
    assert launcher.launcher({}) is None and described({}) == (None, None, None, None)
    torchrun = dict(RANK="1", WORLD_SIZE="2", LOCAL_RANK="1", LOCAL_WORLD_SIZE="2")
    assert launcher.launcher(torchrun) is None and described(torchrun) == (None, None, None, None)
    assert launcher.TORCHRUN.value("size", torchrun) == 2 and launcher.TORCHRUN.value("local_size", torchrun) == 2


def test_slurm_without_step_variables_and_a_compressed_list():
    # the allocation's SLURM_NTASKS is no step's size: a lone python in an sbatch script is not rank 0 of 7
    environ = dict(SLURM_PROCID="6", SLURM_NTASKS="7", SLURM_NTASKS_PER_NODE="2(x3),1", SLURM_NODEID="3")
    assert described(environ) == (6, None, None, 1)
    assert launcher.local_size({**environ, "SLURM_NODEID": "1"}) == 2


def test_an_mpi_launcher_inside_a_slurm_allocation_wins():
    # mpirun in an sbatch script: every rank inherits the batch step's SLURM_PROCID=0 and SLURM_NTASKS
    environ = {**LAUNCHERS["Slurm srun"], "SLURM_PROCID": "0", "SLURM_STEP_NUM_TASKS": "1", **LAUNCHERS["Open MPI"]}
    assert launcher.launcher(environ).name == "Open MPI" and described(environ) == (5, 8, 1, 2)
    environ = {**LAUNCHERS["Open MPI"], **LAUNCHERS["Hydra/MPICH"], "PMI_RANK": "3"}
    assert launcher.launcher(environ).name == "Hydra/MPICH" and launcher.rank(environ) == 3


def test_a_launcher_that_agrees_on_the_rank_fills_in_what_another_leaves_out():
    # srun --mpi=pmix sets PMIX_RANK beside SLURM_*: the size and local numbers come from Slurm's
    environ = {"PMIX_RANK": "5", **LAUNCHERS["Slurm srun"]}
    assert launcher.launcher(environ).name == "PMIx" and described(environ) == (5, 8, 1, 2)
    assert described({"PMIX_RANK": "4", **LAUNCHERS["Slurm srun"]}) == (4, None, None, None)  # not the same rank


@pytest.mark.parametrize("environ, culprit", [
    ({"PMI_RANK": "one", "PMI_SIZE": "2"}, "PMI_RANK='one' is not a whole number >= 0"),
    ({"PMI_RANK": "-1", "PMI_SIZE": "2"}, "PMI_RANK='-1' is not a whole number >= 0"),
    ({"OMPI_COMM_WORLD_RANK": "0", "OMPI_COMM_WORLD_SIZE": "2.5"}, "OMPI_COMM_WORLD_SIZE='2.5' is not a whole"),
    ({"SLURM_PROCID": "0", "SLURM_NTASKS_PER_NODE": "2(x)"}, "SLURM_NTASKS_PER_NODE='2(x)' is not a task count"),
    ({"PMI_RANK": "2", "PMI_SIZE": "2"}, "PMI_RANK=2 is not below the job's size 2"),
])
def test_a_value_no_launcher_sets_is_refused_naming_the_variable(environ, culprit):
    what = "local_size" if "PER_NODE" in culprit else "size"
    with pytest.raises(ValueError, match="unset it|unset the stale ones") as info:
        launcher.rank(environ)
        getattr(launcher, what)(environ)
    assert str(info.value).startswith(culprit), info.value


def test_only_os_is_imported():
    code = "import sys; import allreduce.launcher; print(sorted(m for m in sys.modules if m.startswith(" \
           "('numpy', 'mpi4py', 'allreduce'))))"
    out = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, env=dict(
        os.environ, PYTHONPATH=str(ROOT)), timeout=60)
    assert out.stdout.split("\n")[0] == "['allreduce', 'allreduce.launcher']", out.stderr


def test_rank_start_reads_it_when_installed_and_isolated(tmp_path):
    # `python -I` as `ringflow run` starts it: no PYTHONPATH, no current directory; the packages side by side as
    # in site-packages (or an editable checkout)
    for part in ("allreduce/__init__.py", "allreduce/launcher.py", "trainer/program/launch/rank_start.py"):
        (tmp_path / part).parent.mkdir(parents=True, exist_ok=True)
        shutil.copy(ROOT / part, tmp_path / part)
    env = {k: v for k, v in os.environ.items() if k not in launcher.VARIABLES and k != "PYTHONPATH"}
    out = subprocess.run([sys.executable, "-I", str(tmp_path / "trainer/program/launch/rank_start.py"), "true"],
                         env=dict(env, SLURM_PROCID="3", SLURM_NTASKS="4"), capture_output=True, text=True,
                         timeout=60, cwd="/")
    assert out.returncode == 0 and out.stderr.startswith("@ringflow-rank 3 "), out.stderr


FAILING = "import trainer\nraise ValueError('bad batch 7')\n"


@pytest.mark.parametrize("only", [dict(PMIX_RANK="1"), dict(SLURM_PROCID="1", SLURM_STEP_NUM_TASKS="2")])
def test_the_failure_handler_names_the_rank_that_only_pmix_or_srun_set(tmp_path, only):
    env = {k: v for k, v in os.environ.items() if k not in launcher.VARIABLES}
    env.update(only, PYTHONPATH=str(ROOT), RINGFLOW_TIMEOUT="5", OMP_NUM_THREADS="1", OPENBLAS_NUM_THREADS="1")
    out = subprocess.run([sys.executable, "-c", FAILING], env=env, capture_output=True, text=True, timeout=120,
                         cwd=tmp_path)
    # alone, the failing rank's MPI world is itself (MPICH refuses to start as a PMIx client: also an end)
    assert out.returncode != 0 and "Traceback" not in out.stderr, out.stderr
    assert out.stderr.startswith("ringflow: error on rank 1: ValueError: bad batch 7\n"), out.stderr
