"""How tests launch MPI jobs: which mpiexec, and the environment that lets any MPI run them here."""
import os
import shutil
import sys
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent


def find_mpiexec():
    """$RINGFLOW_MPIEXEC, else mpiexec next to this interpreter (the venv's mpich wheel), else PATH's."""
    if os.environ.get("RINGFLOW_MPIEXEC"):
        return os.environ["RINGFLOW_MPIEXEC"]
    beside = Path(sys.executable).parent / "mpiexec"
    return str(beside) if beside.exists() else shutil.which("mpiexec")


def mpi_env(**extra):
    """One BLAS thread per rank; Open MPI allowed to oversubscribe (CI has 2 cores) and to run as root."""
    env = dict(os.environ, OMP_NUM_THREADS="1", OPENBLAS_NUM_THREADS="1", PYTHONPATH=str(ROOT),
               OMPI_MCA_rmaps_base_oversubscribe="1", PRTE_MCA_rmaps_default_mapping_policy=":oversubscribe")
    if hasattr(os, "geteuid") and os.geteuid() == 0:
        env.update(OMPI_ALLOW_RUN_AS_ROOT="1", OMPI_ALLOW_RUN_AS_ROOT_CONFIRM="1")
    env.update(extra)
    return env
