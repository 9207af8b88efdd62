"""MPI_Allreduce itself: the reference every other backend is tested and timed against."""
from mpi4py import MPI

from .communicator import Communicator
from .ops import MPI_OPS, finish_mean
from .registry import register


@register("mpi")
class MPICommunicator(Communicator):
    # The library runs its own best algorithm. Nonblocking, waited for with the deadline: a rank that stalls
    # after the agreement (a SIGSTOP, a swapped-out node) would otherwise leave the others in a blocking
    # MPI_Allreduce for ever; this way they time out and name it.
    def allreduce_flat(self, src, dst, op, signature):
        self.agree(signature)
        self.wait([self.comm.Iallreduce(MPI.IN_PLACE if src is dst else src, dst, op=MPI_OPS[op])])
        if op == "mean":
            finish_mean(dst, self.size)
