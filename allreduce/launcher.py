"""Who this process is in its job, as the launcher that started it says: rank, size, local rank, local size.

Every launcher tells each process its place through the environment, each with its own names. This is the one
place that reads them, before MPI starts (and without starting it): the CLI and the failure handlers name the
rank, the BLAS thread split needs the local size before numpy loads, the GPU choice needs the local rank, and
rank_start.py (`python -I`, standard library only) reports the rank. So it imports nothing but os.

The launchers, in order of precedence (the first whose rank is set started this process; `mpirun` inside a Slurm
allocation leaves the allocation's SLURM_PROCID in every rank, so Slurm comes after the MPI launchers):
    Hydra/MPICH   PMI_RANK, PMI_SIZE, MPI_LOCALRANKID, MPI_LOCALNRANKS
    Open MPI      OMPI_COMM_WORLD_RANK, _SIZE, _LOCAL_RANK, _LOCAL_SIZE
    PMIx          PMIX_RANK, PMIX_SIZE (where set)
    MVAPICH       MV2_COMM_WORLD_RANK, _SIZE, _LOCAL_RANK, _LOCAL_SIZE
    Slurm srun    SLURM_PROCID, SLURM_STEP_NUM_TASKS (never the allocation's SLURM_NTASKS: a lone `python` in an
                  sbatch script has SLURM_PROCID=0 and SLURM_NTASKS=N, and is one process, not rank 0 of N), SLURM_LOCALID,
                  SLURM_STEP_TASKS_PER_NODE or SLURM_NTASKS_PER_NODE ("2(x3),1": this node's entry, by SLURM_NODEID)
A launcher that does not tell a number (PMIx's local size) leaves it to another that agrees on the rank (srun
--mpi=pmix sets SLURM_* too). torchrun (RANK, WORLD_SIZE, LOCAL_RANK, LOCAL_WORLD_SIZE) is described by TORCHRUN
but is not among them: its processes are not MPI ranks (torchrun.py refuses to train in them).

A value that is not a whole number (or a rank not below the size) raises ValueError naming the variable.
"""
import os


class Launcher:
    """One launcher's variable names: rank, size, local rank, local size (a tuple: the first set is read)."""

    def __init__(self, name, rank, size, local_rank, local_size):
        self.name, self.rank_name = name, rank
        self.names = {"rank": (rank,), "size": size, "local_rank": local_rank, "local_size": local_size}

    def started(self, environ):
        """Whether this launcher set this process's rank."""
        return bool(environ.get(self.rank_name, "").strip())

    def value(self, what, environ):
        """The number this launcher set for `what` ("rank", "size", "local_rank", "local_size"), None if unset."""
        for name in self.names[what]:
            text = environ.get(name, "").strip()
            if text:
                return _number(name, text, environ)
        return None

    def __repr__(self):
        return f"<Launcher {self.name}>"


LAUNCHERS = (
    Launcher("Hydra/MPICH", "PMI_RANK", ("PMI_SIZE",), ("MPI_LOCALRANKID",), ("MPI_LOCALNRANKS",)),
    Launcher("Open MPI", "OMPI_COMM_WORLD_RANK", ("OMPI_COMM_WORLD_SIZE",), ("OMPI_COMM_WORLD_LOCAL_RANK",),
             ("OMPI_COMM_WORLD_LOCAL_SIZE",)),
    Launcher("PMIx", "PMIX_RANK", ("PMIX_SIZE",), (), ()),
    Launcher("MVAPICH", "MV2_COMM_WORLD_RANK", ("MV2_COMM_WORLD_SIZE",), ("MV2_COMM_WORLD_LOCAL_RANK",),
             ("MV2_COMM_WORLD_LOCAL_SIZE",)),
    Launcher("Slurm srun", "SLURM_PROCID", ("SLURM_STEP_NUM_TASKS",), ("SLURM_LOCALID",),
             ("SLURM_STEP_TASKS_PER_NODE", "SLURM_NTASKS_PER_NODE")),
)
TORCHRUN = Launcher("torchrun", "RANK", ("WORLD_SIZE",), ("LOCAL_RANK",), ("LOCAL_WORLD_SIZE",))
# every variable read here (torchrun's apart), so that a test or a wrapper can clear them all
VARIABLES = tuple(sorted({name for launcher in LAUNCHERS for names in launcher.names.values() for name in names}
                         | {"SLURM_NODEID"}))
_PER_NODE = {"SLURM_STEP_TASKS_PER_NODE", "SLURM_NTASKS_PER_NODE"}


def launcher(environ=os.environ):
    """The Launcher that started this process (LAUNCHERS' first whose rank is set), None when run alone."""
    return next((known for known in LAUNCHERS if known.started(environ)), None)


def rank(environ=os.environ):
    """This process's rank in its job, None when no launcher set one (run alone: rank 0 of 1)."""
    return _read("rank", environ)


def size(environ=os.environ):
    """How many ranks the job has, None when no launcher says (run alone, or PMIx without PMIX_SIZE)."""
    return _read("size", environ)


def local_rank(environ=os.environ):
    """This rank's index among the ranks on its node, None when the launcher does not say."""
    return _read("local_rank", environ)


def local_size(environ=os.environ):
    """How many ranks of the job run on this node, None when the launcher does not say."""
    return _read("local_size", environ)


def _read(what, environ):
    first = launcher(environ)
    if first is None:
        return None
    mine = first.value("rank", environ)
    value = None
    for known in (first,) + LAUNCHERS:
        if known is first or (known.started(environ) and known.value("rank", environ) == mine):
            value = known.value(what, environ)
            if value is not None:
                break
    if what == "size" and value is not None and mine >= value:
        raise ValueError(f"{first.rank_name}={mine} is not below the job's size {value}: the launcher's variables "
                         f"disagree; unset the stale ones, or launch with mpiexec, mpirun or srun")
    return value


def _number(name, text, environ):
    if name in _PER_NODE:  # Slurm's compressed list: "2(x3),1" is 2, 2, 2 and 1 tasks on nodes 0, 1, 2, 3
        counts = []
        for part in text.split(","):
            count, _, repeat = part.partition("(x")
            if not count.strip().isdigit() or (repeat and not repeat.rstrip(")").isdigit()):
                raise _bad(name, text, "a task count per node, such as '2(x3),1'")
            counts += [int(count)] * (int(repeat.rstrip(")")) if repeat else 1)
        node = environ.get("SLURM_NODEID", "").strip() or "0"
        if not node.isdigit():
            raise _bad("SLURM_NODEID", node, "a whole number >= 0")
        return counts[min(int(node), len(counts) - 1)]
    if not text.isdigit():
        raise _bad(name, text, "a whole number >= 0")
    return int(text)


def _bad(name, text, want):
    return ValueError(f"{name}={text!r} is not {want}, as a launcher sets it: unset it, or launch with mpiexec, "
                      f"mpirun or srun, which set it for every rank")
