"""Horovod's process basics: init() picks the communicator; rank, size and the node layout come from it.

Nothing here touches MPI before init(): `import trainer.horovod` neither initializes MPI nor communicates.
"""
import os

import allreduce
from . import timeline

# Names a communicator ("ring", "shm", "mpi", ...) instead of the fastest CPU one, as `--allreduce` does for
# `ringflow train`.
ALLREDUCE_VARIABLE = "RINGFLOW_ALLREDUCE"
TIMELINE_VARIABLE = "HOROVOD_TIMELINE"  # Horovod's: a file for the Chrome-trace timeline of the collectives
NOT_INITIALIZED = "Horovod has not been initialized; use hvd.init()."

_state = None  # the _Layout of the running init(), None before init() and after shutdown()


class _Layout:
    def __init__(self, communicator, local_rank, local_size, cross_rank, cross_size):
        self.communicator = communicator
        self.local_rank, self.local_size = local_rank, local_size
        self.cross_rank, self.cross_size = cross_rank, cross_size


def init(comm=None):
    """Start Horovod over MPI.COMM_WORLD, an mpi4py communicator, a list of world ranks, or an
    allreduce.Communicator. Collective over those ranks; a second call does nothing until shutdown().
    With HOROVOD_TIMELINE=FILE set, rank 0 starts writing Horovod's timeline to FILE (timeline.py)."""
    global _state
    if _state is not None:
        return
    if isinstance(comm, allreduce.Communicator):
        communicator = comm
    else:
        mpi_comm = _mpi_comm(comm)
        name = os.environ.get(ALLREDUCE_VARIABLE) or allreduce.auto.fastest_cpu_backend(mpi_comm)
        if name not in allreduce.BACKENDS:
            raise ValueError(f"{ALLREDUCE_VARIABLE}={name!r} names no communicator: known ones are "
                             f"{sorted(allreduce.BACKENDS)} (unset it to pick the fastest CPU one)")
        communicator = allreduce.create_communicator(name, comm=mpi_comm)
    _state = _layout(communicator)
    if os.environ.get(TIMELINE_VARIABLE):
        start_timeline(os.environ[TIMELINE_VARIABLE],
                       mark_cycles=os.environ.get("HOROVOD_TIMELINE_MARK_CYCLES", "0") not in ("", "0"))


def _mpi_comm(comm):
    from mpi4py import MPI
    if comm is None or isinstance(comm, MPI.Comm):
        return MPI.COMM_WORLD if comm is None else comm
    world = MPI.COMM_WORLD
    ranks = [int(r) for r in comm]
    if len(set(ranks)) != len(ranks) or not all(0 <= r < world.Get_size() for r in ranks):
        raise ValueError(f"init(comm=) needs distinct ranks of MPI.COMM_WORLD (size {world.Get_size()}), "
                         f"got {comm!r}")
    if world.Get_rank() not in ranks:
        raise ValueError(f"rank {world.Get_rank()} called hvd.init(comm={comm!r}) but is not in that list: "
                         "only the listed ranks may call it")
    return world.Create_group(world.Get_group().Incl(ranks))


def _layout(communicator):
    """Local = the ranks sharing this node; cross = the ranks with this local rank, one per node (Horovod's)."""
    from mpi4py import MPI
    comm = communicator.comm
    node = comm.Split_type(MPI.COMM_TYPE_SHARED, key=communicator.rank)
    local_rank, local_size = node.Get_rank(), node.Get_size()
    node.Free()
    cross = comm.Split(color=local_rank, key=communicator.rank)
    cross_rank, cross_size = cross.Get_rank(), cross.Get_size()
    cross.Free()
    return _Layout(communicator, local_rank, local_size, cross_rank, cross_size)


def shutdown():
    """Forget the communicator and close the timeline: ops run afterwards raise until init() is called again.
    MPI stays up."""
    global _state
    timeline.stop()
    _state = None


def start_timeline(file_path, mark_cycles=False):
    """Write Horovod's timeline of every collective from now on to `file_path` (rank 0 writes, as in Horovod).
    mark_cycles is accepted: ringflow has no background negotiation cycles to mark."""
    timeline.start(file_path, mark_cycles, rank=rank())


def stop_timeline():
    """Close the timeline file started by start_timeline() or HOROVOD_TIMELINE."""
    timeline.stop()


def is_initialized():
    return _state is not None


def _get():
    if _state is None:
        raise ValueError(NOT_INITIALIZED)
    return _state


def communicator():
    """The allreduce.Communicator every Horovod op runs on (ringflow's addition)."""
    return _get().communicator


def rank():
    """This process's rank among the size() ranks."""
    return _get().communicator.rank


def size():
    """The number of ranks."""
    return _get().communicator.size


def local_rank():
    """This process's rank among the ranks on its node."""
    return _get().local_rank


def local_size():
    """The number of ranks on this node."""
    return _get().local_size


def cross_rank():
    """The index of this node among the nodes (the rank among the ranks with this local_rank())."""
    return _get().cross_rank


def cross_size():
    """The number of nodes (the number of ranks with this local_rank())."""
    return _get().cross_size


def mpi_threads_supported():
    """Whether MPI was initialized with MPI_THREAD_MULTIPLE."""
    _get()
    from mpi4py import MPI
    return MPI.Query_thread() == MPI.THREAD_MULTIPLE


def mpi_enabled():
    """True: every ringflow collective runs over MPI (there is no Gloo controller)."""
    return True


def mpi_built():
    return True


def gloo_enabled():
    return False


def gloo_built():
    return False


def nccl_built():
    """Whether the "nccl" communicator can exist here: CuPy with NCCL is importable."""
    try:
        from cupy.cuda import nccl
    except Exception:  # ImportError, or CuPy failing to load its CUDA libraries
        return False
    return bool(getattr(nccl, "available", True))


def executing_eagerly():
    """False: ringflow runs graphs in sessions (Horovod's tests ask it as hvd._executing_eagerly())."""
    return False
