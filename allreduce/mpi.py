"""MPI_Allreduce itself: the reference every other backend is tested and timed against."""
from mpi4py import MPI

from .communicator import Communicator
from .ops import MPI_OPS, finish_mean
from .registry import register


@register("mpi")
class MPICommunicator(Communicator):
    # Blocking MPI_Allreduce, so the library runs its own best algorithm; the agreement that precedes it
    # already enforces the timeout on every rank arriving.
    def allreduce_flat(self, src, dst, op, signature):
        self.agree(signature)
        self.comm.Allreduce(MPI.IN_PLACE if src is dst else src, dst, op=MPI_OPS[op])
        if op == "mean":
            finish_mean(dst, self.size)
