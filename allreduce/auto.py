"""Pick the fastest backend for this layout: NCCL when every rank has its own GPU, else shared memory when
all ranks share one node, else the hierarchical allreduce (shared memory within each node, rings across).

The GPU survey (nccl.survey) is collective, so every rank takes the same decision. When ranks have GPUs but
cannot use NCCL (two ranks share one GPU, or NCCL is missing), rank 0 prints one warning line and a
device="gpu" session reduces its gradients through pinned host memory (allreduce/staged.py).
"""
import sys

from mpi4py import MPI

from . import topology
from .nccl import NO_GPU, problems_text, survey
from .registry import BACKENDS, register


@register("auto")
def auto(comm=None, timeout=None):
    comm = MPI.COMM_WORLD if comm is None else comm
    problems, shared = survey(comm)
    if not problems and not shared:
        return BACKENDS["nccl"](comm=comm, timeout=timeout)
    name = fastest_cpu_backend(comm)
    gpu_problems = {r: p for r, p in problems.items() if not p.startswith(NO_GPU)}
    why = shared or (gpu_problems and problems_text(gpu_problems))
    if why and comm.Get_rank() == 0:
        print(f"ringflow warning: allreduce 'auto' does not use NCCL ({why}): GPU gradients go through pinned "
              f"host memory and {name!r}", file=sys.stderr, flush=True)
    return BACKENDS[name](comm=comm, timeout=timeout)


def fastest_cpu_backend(comm=None):
    """"shm" when all ranks share one node, else "hierarchical" (collective over comm). Across nodes the
    hierarchical allreduce sends 2*S*(k-1)/k bytes per node for k nodes, the flat ring up to 2*S*(N-1)/N, and
    with one rank per node it is the ring in node order. $RINGFLOW_FAKE_NODES (testing) is honoured."""
    comm = MPI.COMM_WORLD if comm is None else comm
    return "shm" if topology.layout(comm).nodes == 1 else "hierarchical"
