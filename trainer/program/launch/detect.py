"""Which launcher starts the ranks: srun inside a Slurm allocation, else the launcher of the MPI family that
mpi4py was built against (asked in a subprocess, which loads the MPI library without initializing it), found
beside this Python (the mpich wheel's mpiexec) or on PATH, and checked to belong to that family: an Open MPI
mpirun starting MPICH programs (or the reverse) would give N ranks that each think they are alone.
"""
import os
import shutil
import subprocess
import sys

QUERY = "from mpi4py import rc; rc.initialize = False; from mpi4py import MPI; print(MPI.Get_library_version())"
# substrings of MPI_Get_library_version / `LAUNCHER --version`, first match wins
LIBRARIES = (("Open MPI", "openmpi"), ("MPICH", "hydra"), ("Intel(R) MPI", "hydra"), ("MVAPICH", "hydra"))
LAUNCHER_VERSIONS = (("HYDRA", "hydra"), ("Open MPI", "openmpi"), ("OpenRTE", "openmpi"), ("PRRTE", "openmpi"),
                     ("slurm", "slurm"))
EXECUTABLES = {"hydra": ("mpiexec", "mpiexec.hydra"), "openmpi": ("mpirun", "mpiexec"), "slurm": ("srun",)}
NAMES = {"hydra": "MPICH's Hydra", "openmpi": "Open MPI's", "slurm": "Slurm's"}
LIBRARY_NAMES = {"hydra": "an MPICH-family MPI (MPICH, Intel MPI, MVAPICH)", "openmpi": "Open MPI"}
QUERY_TIMEOUT_S = 60  # loading an MPI library takes well under a second; a cluster's shared file system may not


class LaunchEnvironmentError(RuntimeError):
    """This machine cannot launch the job as asked (no launcher, the wrong MPI's launcher): exit code 2."""


def classify(text, table):
    return next((family for key, family in table if key.lower() in text.lower()), None)


def mpi_library(python=sys.executable):
    """MPI_Get_library_version() of the MPI mpi4py loads, or "" when it cannot be asked."""
    try:
        proc = subprocess.run([python, "-c", QUERY], capture_output=True, text=True, timeout=QUERY_TIMEOUT_S)
    except (OSError, subprocess.TimeoutExpired):
        return ""
    return proc.stdout.strip() if proc.returncode == 0 else ""


def find_executable(family, environ):
    """The launcher program of `family`: $RINGFLOW_MPIEXEC (not for srun), beside this Python, else on PATH."""
    if family != "slurm" and environ.get("RINGFLOW_MPIEXEC"):
        return environ["RINGFLOW_MPIEXEC"]
    names = EXECUTABLES[family]
    beside = [os.path.join(os.path.dirname(sys.executable), name) for name in names] if family != "slurm" else []
    for path in beside + [shutil.which(name, path=environ.get("PATH")) for name in names]:
        if path and os.access(path, os.X_OK):
            return path
    raise LaunchEnvironmentError(f"no {' or '.join(EXECUTABLES[family])} found beside {sys.executable!r} or on "
                                 f"PATH: install {NAMES[family]} launcher, or set RINGFLOW_MPIEXEC")


def launcher_version(executable):
    try:
        proc = subprocess.run([executable, "--version"], capture_output=True, text=True, timeout=QUERY_TIMEOUT_S,
                              stdin=subprocess.DEVNULL)
    except (OSError, subprocess.TimeoutExpired):
        return ""
    return proc.stdout + proc.stderr


def choose(requested, environ):
    """(family, executable, library family or None) for `--launcher requested`."""
    library = classify(mpi_library(), LIBRARIES)
    if requested == "auto":
        slurm = environ.get("SLURM_JOB_ID") and shutil.which("srun", path=environ.get("PATH"))
        family = "slurm" if slurm else library
        if family is None:
            family = classify(launcher_version(find_executable("hydra", environ)), LAUNCHER_VERSIONS)
        if family is None:
            raise LaunchEnvironmentError("cannot tell which MPI mpi4py uses (MPI_Get_library_version gave nothing "
                                         "known): choose with --launcher hydra|openmpi|slurm")
    else:
        family = requested
    executable = find_executable(family, environ)
    if family != "slurm":
        actual = classify(launcher_version(executable), LAUNCHER_VERSIONS)
        wanted = library if requested == "auto" else family
        if actual and wanted and actual != wanted:
            raise LaunchEnvironmentError(
                f"{executable!r} is {NAMES[actual]} launcher but mpi4py uses {LIBRARY_NAMES[wanted]}: its ranks "
                f"would each start alone. Put {NAMES[wanted]} launcher first on PATH or name it in RINGFLOW_MPIEXEC")
    return family, executable, library


def srun_mpi_type(library, executable, environ):
    """srun's --mpi plugin for this MPI: pmix for Open MPI, pmi2 for the MPICH family, among those srun has;
    None when SLURM_MPI_TYPE chooses (srun reads it) or srun cannot say."""
    if environ.get("SLURM_MPI_TYPE"):
        return None
    try:
        proc = subprocess.run([executable, "--mpi=list"], capture_output=True, text=True, timeout=QUERY_TIMEOUT_S,
                              stdin=subprocess.DEVNULL)
    except (OSError, subprocess.TimeoutExpired):
        return None
    words = set((proc.stdout + proc.stderr).replace(":", " ").replace(",", " ").split())
    preferred = ("pmix", "pmi2") if library == "openmpi" else ("pmi2", "pmix")
    return next((t for t in preferred if t in words), None)
