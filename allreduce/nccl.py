"""NCCL through CuPy, one GPU per rank: the unique id travels over MPI, the data never leaves the GPUs.

CuPy is imported lazily (here, not at package import). Before any NCCL call every rank surveys itself --
CuPy importable, NCCL really present (`nccl.available`: the cupy-cuda12x wheel imports without it), a visible
GPU, its PCI bus id -- and the ranks compare answers, so a rank that cannot take part makes every rank raise
the same RuntimeError instead of leaving the others waiting in NCCL's init.

The fused gradient buckets (allocate_device_buckets) are device arrays reduced in place: one allreduce per
bucket, grouped (ncclGroupStart/End) into one launch, on a communication stream that waits for the compute
stream through an event and is waited for the same way -- no host synchronization inside a step.
"""
import numpy as np
from mpi4py import MPI

from . import devices
from .communicator import Communicator
from .ops import check_dtype, check_op
from .registry import register

# numpy dtype char -> NCCL datatype constant name in cupy.cuda.nccl; float16 is summed in float32 (as elsewhere)
NCCL_TYPES = {"b": "NCCL_INT8", "B": "NCCL_UINT8", "i": "NCCL_INT32", "I": "NCCL_UINT32", "l": "NCCL_INT64",
              "q": "NCCL_INT64", "L": "NCCL_UINT64", "Q": "NCCL_UINT64", "f": "NCCL_FLOAT32", "d": "NCCL_FLOAT64"}
# buckets are reduced where they live: float16 gradients in float16, as Horovod and DDP do
BUCKET_TYPES = dict(NCCL_TYPES, e="NCCL_FLOAT16")
NCCL_OPS = {"sum": "NCCL_SUM", "mean": "NCCL_SUM", "max": "NCCL_MAX", "min": "NCCL_MIN"}
# problems that only say "this rank has no GPU stack": `auto` falls back to the CPU without a warning then
NO_GPU = ("CuPy is not importable", "no usable CUDA device")


def _local_survey(node_rank):
    """(problem or None, bus id or None) for this rank. Never raises: every rank must reach the exchange."""
    try:
        import cupy
    except ImportError as exc:
        return f"{NO_GPU[0]} ({exc}); install the 'gpu' extra (see README: GPUs)", None
    try:
        index = devices.use_gpu(node_rank)
        bus = devices.bus_id(index)
    except Exception as exc:  # CUDA driver missing or broken, nothing visible
        return f"{NO_GPU[1]} ({exc})", None
    try:
        from cupy.cuda import nccl
    except ImportError as exc:
        return f"CuPy's NCCL module is not importable ({exc}); install the 'gpu' extra", bus
    if not getattr(nccl, "available", True):
        return (f"this CuPy ({cupy.__version__}) was built without NCCL (cupy.cuda.nccl.available is False); "
                f"install the 'gpu-cuda12' or 'gpu-cuda13' extra, which adds the NCCL wheel"), bus
    return None, bus


def survey(comm):
    """Collective over comm: ({rank: why it cannot use NCCL}, text naming ranks that share a GPU, or None)."""
    node = comm.Split_type(MPI.COMM_TYPE_SHARED, key=comm.Get_rank())
    problem, bus = _local_survey(node.Get_rank())
    node_ranks = node.allgather(comm.Get_rank())
    shared = devices.sharing(node.allgather(bus))
    node.Free()
    problems = {r: p for r, p in enumerate(comm.allgather(problem)) if p}
    mine = "; ".join(f"ranks {[node_ranks[i] for i in ranks]} share the GPU at PCI bus {b} on {MPI.Get_processor_name()}"
                     for b, ranks in shared)
    texts = [t for t in dict.fromkeys(comm.allgather(mine)) if t]
    return problems, ("; ".join(texts) or None)


def problems_text(problems):
    return "; ".join(f"rank {r}: {p}" for r, p in sorted(problems.items()))


@register("nccl")
class NCCLCommunicator(Communicator):
    reduces_on_device = True  # allocate_device_buckets: the fused buckets are CuPy arrays reduced in place

    def __init__(self, comm=None, timeout=None):
        super().__init__(comm, timeout)
        problems, shared = survey(self.comm)
        if problems:
            raise RuntimeError(f"'nccl' cannot run here: {problems_text(problems)}")
        if shared:
            raise RuntimeError(f"'nccl' cannot run here: {shared}, and NCCL needs one GPU per rank. Use "
                               f"allreduce 'auto' (it reduces through pinned host memory then), or one rank per GPU")
        import cupy
        from cupy.cuda import nccl
        self.cupy, self.lib = cupy, nccl
        self.device = cupy.cuda.Device()  # survey made this rank's GPU current (devices.use_gpu)
        uid, error = None, None
        if self.rank == 0:
            try:
                uid = nccl.get_unique_id()
            except Exception as exc:
                error = f"rank 0 could not get an NCCL unique id: {exc}"
        uid, error = self.comm.bcast((uid, error), root=0)
        if error:
            raise RuntimeError(f"'nccl' cannot run here: {error}")
        self.nccl = nccl.NcclCommunicator(self.size, uid, self.rank)
        self.stream = cupy.cuda.Stream(non_blocking=True)  # the communication stream of the buckets

    def nccl_op(self, op):
        """(NCCL op constant, whether a division is still due): ncclAvg where this NCCL has it (2.10+)."""
        if op == "mean" and hasattr(self.lib, "NCCL_AVG"):
            return self.lib.NCCL_AVG, False
        return getattr(self.lib, NCCL_OPS[op]), op == "mean"

    def allreduce(self, x, op="sum", out=None, what=None):
        """Like Communicator.allreduce, for CuPy arrays (numpy arrays are staged through the GPU)."""
        cp = self.cupy
        if not isinstance(x, cp.ndarray):
            result = self.allreduce(cp.asarray(x), op, what=what)
            out = np.empty(result.shape, result.dtype) if out is None else out
            out[...] = result.get()
            return out
        check_op(op)
        check_dtype(np.dtype(x.dtype))
        if out is None:
            out = cp.empty(x.shape, x.dtype)
        elif out.shape != x.shape or out.dtype != x.dtype:
            raise ValueError(f"out must match x's shape {x.shape!r} and dtype {x.dtype!r} at rank {self.rank}")
        self.agree(self.begin("allreduce", what, x.shape, x.dtype, op))
        in_place = out is x and x.flags.c_contiguous and x.dtype != cp.float16
        work = x if in_place else (x.astype(cp.float32) if x.dtype == cp.float16 else cp.ascontiguousarray(x))
        res = work if in_place else cp.empty_like(work)
        if work.dtype.char not in NCCL_TYPES:
            raise ValueError(f"NCCL cannot reduce dtype {x.dtype!r} at rank {self.rank}; use int32/int64 or a float")
        nccl_op, divide = self.nccl_op(op)
        stream = cp.cuda.get_current_stream()  # the caller's stream: ordered with its kernels, no host sync
        self.nccl.allReduce(work.data.ptr, res.data.ptr, work.size, getattr(self.lib, NCCL_TYPES[work.dtype.char]),
                            nccl_op, stream.ptr)
        if divide:
            res = res / self.size if res.dtype.kind == "f" else _trunc_div(cp, res, self.size)
        if res is not out:
            out[...] = res
        return out

    def allocate_device_buckets(self, counts_dtypes, what="the gradient buckets' layout"):
        """Zeroed device arrays, one per (count, dtype), reduced in place by NCCL (a collective: every rank
        passes the same list, checked here once rather than on every step)."""
        for count, dtype in counts_dtypes:
            if np.dtype(dtype).char not in BUCKET_TYPES:
                raise ValueError(f"NCCL cannot reduce dtype {np.dtype(dtype).name!r} at rank {self.rank}")
        layout = tuple((int(c), np.dtype(d).str) for c, d in counts_dtypes)
        self.agree(self.begin("bucket allocation", what, (len(layout), sum(c for c, _ in layout)), op=repr(layout)))
        return DeviceBuckets(self, counts_dtypes)

    def broadcast(self, x, root=0, what=None):
        if not isinstance(x, self.cupy.ndarray):
            return super().broadcast(x, root, what=what)
        self.check_root(root)
        self.agree(self.begin("broadcast", what, x.shape, x.dtype, int(root)))
        result = self.cupy.ascontiguousarray(x).copy()
        stream = self.cupy.cuda.get_current_stream()
        self.nccl.bcast(result.data.ptr, result.nbytes, self.lib.NCCL_UINT8, root, stream.ptr)
        return result

    def allgather(self, x, what=None):
        if not isinstance(x, self.cupy.ndarray):
            return super().allgather(x, what=what)
        self.agree(self.begin("allgather", what, x.shape, x.dtype))
        x = self.cupy.ascontiguousarray(x)
        result = self.cupy.empty((self.size,) + x.shape, x.dtype)
        stream = self.cupy.cuda.get_current_stream()
        self.nccl.allGather(x.data.ptr, result.data.ptr, x.nbytes, self.lib.NCCL_UINT8, stream.ptr)
        return result


class DeviceBuckets:
    """Device buckets, each reduced in place by one NCCL call; the calls of a step are one NCCL group."""

    def __init__(self, communicator, counts_dtypes):
        cp = communicator.cupy
        self.communicator, self.cupy = communicator, cp
        self.arrays = [cp.zeros(int(count), dtype) for count, dtype in counts_dtypes]
        self.types = [getattr(communicator.lib, BUCKET_TYPES[np.dtype(d).char]) for _, d in counts_dtypes]

    def allreduce(self, op, what=None):
        c, cp, lib = self.communicator, self.cupy, self.communicator.lib
        compute, comm_stream = cp.cuda.get_current_stream(), c.stream
        comm_stream.wait_event(compute.record())  # the gradients are written before NCCL reads them
        nccl_op, divide = c.nccl_op(op)
        lib.groupStart()
        try:
            for a, nccl_type in zip(self.arrays, self.types):
                c.nccl.allReduce(a.data.ptr, a.data.ptr, a.size, nccl_type, nccl_op, comm_stream.ptr)
        finally:
            lib.groupEnd()
        if divide:
            with comm_stream:
                for a in self.arrays:
                    a[...] = a / c.size if a.dtype.kind == "f" else _trunc_div(cp, a, c.size)
        compute.wait_event(comm_stream.record())  # apply ops read the buckets only after the reduction

    def close(self):
        """Device memory is freed with the arrays: nothing is shared to release."""


def _trunc_div(cp, x, n):
    """Integer mean, truncating toward zero like ops.finish_mean."""
    return (cp.sign(x) * (cp.abs(x) // n)).astype(x.dtype)
