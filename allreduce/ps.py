"""The parameter-server baseline: reduce everything onto rank 0, which broadcasts the result back."""
from mpi4py import MPI

from .communicator import Communicator
from .ops import MPI_OPS, finish_mean
from .registry import register

SERVER = 0


@register("ps")
class ParameterServerCommunicator(Communicator):
    # Nonblocking, waited for with the deadline, as mpi.py: a rank stalled after the agreement is timed out.
    def allreduce_flat(self, src, dst, op, signature):
        self.agree(signature)
        at_server = self.rank == SERVER
        sendbuf = MPI.IN_PLACE if at_server and src is dst else src
        self.wait([self.comm.Ireduce(sendbuf, dst if at_server else None, op=MPI_OPS[op], root=SERVER)])
        if at_server and op == "mean":
            finish_mean(dst, self.size)
        self.wait([self.comm.Ibcast(dst, root=SERVER)])
