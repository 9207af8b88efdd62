"""Pick the fastest backend for this layout: NCCL when every rank has its own GPU, else shared memory when
all ranks share one node, else the ring."""
from mpi4py import MPI

from .nccl import gpu_problem
from .registry import BACKENDS, register


@register("auto")
def auto(comm=None, timeout=None):
    comm = MPI.COMM_WORLD if comm is None else comm
    if comm.allreduce(gpu_problem(comm) is None, op=MPI.LAND):
        return BACKENDS["nccl"](comm=comm, timeout=timeout)
    return BACKENDS[fastest_cpu_backend(comm)](comm=comm, timeout=timeout)


def fastest_cpu_backend(comm=None):
    """"shm" when all ranks share one node, else "ring" (collective over comm)."""
    comm = MPI.COMM_WORLD if comm is None else comm
    node = comm.Split_type(MPI.COMM_TYPE_SHARED)
    one_node = comm.allreduce(node.Get_size() == comm.Get_size(), op=MPI.LAND)
    node.Free()
    return "shm" if one_node else "ring"
