"""Collectives between MPI ranks: `create_communicator(name)` with name in "ring", "mpi", "ps", "shm",
"hierarchical", "nccl", "auto". Imports only numpy and mpi4py (CuPy lazily, when "nccl" or "auto" asks for it).

Once a communicator of more than one rank exists, a rank's uncaught exception aborts the whole MPI job
(abort.py; RINGFLOW_ABORT_ON_ERROR=0 turns that off), so no rank is left waiting in a collective."""
from .errors import CollectiveTimeout, RankExited
from .communicator import Communicator
from .registry import BACKENDS, create_communicator, register
from . import ring, mpi, ps, shm, hierarchical, nccl, auto  # noqa: F401  (each registers its backend)
from .fusion import FusedAllreduce

__all__ = ["BACKENDS", "CollectiveTimeout", "Communicator", "FusedAllreduce", "RankExited", "create_communicator",
           "register"]
