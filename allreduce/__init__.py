"""Collectives between MPI ranks: `create_communicator(name)` with name in "ring", "mpi", "ps", "shm", "nccl",
"auto". Imports only numpy and mpi4py (CuPy lazily, when "nccl" or "auto" asks for it)."""
from .errors import CollectiveTimeout
from .communicator import Communicator
from .registry import BACKENDS, create_communicator, register
from . import ring, mpi, ps, shm, nccl, auto  # noqa: F401  (each registers its backend)
from .fusion import FusedAllreduce

__all__ = ["BACKENDS", "CollectiveTimeout", "Communicator", "FusedAllreduce", "create_communicator", "register"]
