"""A process that torchrun started is not an MPI rank.

torchrun starts WORLD_SIZE processes and tells each its RANK, WORLD_SIZE and LOCAL_RANK, but no MPI launcher
started them: each one's MPI_Init makes a world of one, and the job would train WORLD_SIZE separate models
without a word. So a communicator (and with it tg.DistributedOptimizer and hvd.init()) refuses to start when
torchrun's WORLD_SIZE is more than 1 and MPI's world has another size, and `ringflow train` says so before MPI
starts, from the launchers' variables (launcher.py). Read from the environment only; nothing here starts MPI.
"""
import os

from . import launcher

TORCHRUN_VARIABLES = ("RANK", "WORLD_SIZE", "LOCAL_RANK")  # torchrun sets all three (LOCAL_WORLD_SIZE too)


def torchrun_world_size(environ=os.environ):
    """torchrun's WORLD_SIZE when this process has all of torchrun's variables, else None."""
    if not all(environ.get(name, "").isdigit() for name in TORCHRUN_VARIABLES):
        return None
    return int(environ["WORLD_SIZE"])


def launched_size(environ=os.environ):
    """The world size an MPI launcher (or srun) set, None when there is none, 0 when it is known only to MPI."""
    if launcher.launcher(environ) is None:
        return None
    size = launcher.size(environ)
    return 0 if size is None else size


def problem(mpi_size=None, environ=os.environ):
    """Why this process must not train as an MPI rank (None: it may). `mpi_size` is MPI_COMM_WORLD's size once
    MPI has started; before, the launchers' variables say what they can."""
    world = torchrun_world_size(environ)
    if world is None or world < 2:
        return None
    seen = launched_size(environ) if mpi_size is None else mpi_size
    if seen == 0 or seen == world:
        return None
    started = "no MPI launcher started it" if seen is None else f"its MPI job has {seen} rank(s)"
    return (f"this process was started by torchrun (WORLD_SIZE={world}, RANK={environ['RANK']}) but {started}: "
            f"ringflow's ranks are MPI ranks, and torchrun's processes would each train alone. Launch with "
            f"`ringflow run -np {world} ...` or `mpiexec -n {world} ...` instead of torchrun")


def check(mpi_size):
    """Raise RuntimeError when torchrun, not an MPI launcher, started this process (see problem())."""
    why = problem(mpi_size)
    if why:
        raise RuntimeError(why)
