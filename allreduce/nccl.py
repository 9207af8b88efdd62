"""NCCL through CuPy, one GPU per rank: the unique id travels over MPI, the data never leaves the GPUs.

CuPy is imported lazily (here, not at package import), and a rank without CuPy or without its own GPU makes
every rank raise the same RuntimeError (decided together, so nobody hangs in NCCL's init).
"""
import numpy as np
from mpi4py import MPI

from .communicator import Communicator
from .ops import check_dtype, check_op
from .registry import register

# numpy dtype char -> NCCL datatype constant name in cupy.cuda.nccl; float16 is summed in float32 (as elsewhere)
NCCL_TYPES = {"b": "NCCL_INT8", "B": "NCCL_UINT8", "i": "NCCL_INT32", "I": "NCCL_UINT32", "l": "NCCL_INT64",
              "q": "NCCL_INT64", "L": "NCCL_UINT64", "Q": "NCCL_UINT64", "f": "NCCL_FLOAT32", "d": "NCCL_FLOAT64"}
NCCL_OPS = {"sum": "NCCL_SUM", "mean": "NCCL_SUM", "max": "NCCL_MAX", "min": "NCCL_MIN"}


def gpu_problem(comm):
    """Why this rank cannot drive its own GPU through CuPy's NCCL (None when it can). Collective over comm."""
    node = comm.Split_type(MPI.COMM_TYPE_SHARED)  # before anything that can fail, so every rank calls it
    local = node.Get_size()
    node.Free()
    try:
        import cupy
        from cupy.cuda import nccl  # noqa: F401
    except ImportError as exc:
        return f"CuPy with NCCL is not importable ({exc}); install the 'gpu' extra (cupy-cuda12x)"
    try:
        ndev = cupy.cuda.runtime.getDeviceCount()
    except Exception as exc:  # CUDA driver missing or broken
        return f"no usable CUDA device ({exc})"
    if local > ndev:
        return f"{local} ranks share this node's {ndev} GPU(s); NCCL needs one GPU per rank"
    return None


@register("nccl")
class NCCLCommunicator(Communicator):
    def __init__(self, comm=None, timeout=None):
        super().__init__(comm, timeout)
        problems = self.comm.allgather(gpu_problem(self.comm))
        bad = [(r, p) for r, p in enumerate(problems) if p]
        if bad:
            raise RuntimeError("'nccl' cannot run here: " + "; ".join(f"rank {r}: {p}" for r, p in bad))
        import cupy
        from cupy.cuda import nccl
        self.cupy, self.lib = cupy, nccl
        node = self.comm.Split_type(MPI.COMM_TYPE_SHARED)
        self.device = cupy.cuda.Device(node.Get_rank())
        node.Free()
        self.device.use()
        uid = self.comm.bcast(nccl.get_unique_id() if self.rank == 0 else None, root=0)
        self.nccl = nccl.NcclCommunicator(self.size, uid, self.rank)

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
        self._agree(self._begin("allreduce", what, x.shape, x.dtype, op))
        work = x.astype(cp.float32) if x.dtype == cp.float16 else cp.ascontiguousarray(x)
        res = cp.empty_like(work)
        if work.dtype.char not in NCCL_TYPES:
            raise ValueError(f"NCCL cannot reduce dtype {x.dtype!r} at rank {self.rank}; use int32/int64 or a float")
        stream = cp.cuda.get_current_stream()
        self.nccl.allReduce(work.data.ptr, res.data.ptr, work.size, getattr(self.lib, NCCL_TYPES[work.dtype.char]),
                            getattr(self.lib, NCCL_OPS[op]), stream.ptr)
        if op == "mean":
            res = res / self.size if res.dtype.kind == "f" else _trunc_div(cp, res, self.size)
        out[...] = res
        stream.synchronize()
        return out

    def broadcast(self, x, root=0, what=None):
        if not isinstance(x, self.cupy.ndarray):
            return super().broadcast(x, root, what=what)
        self._check_root(root)
        self._agree(self._begin("broadcast", what, x.shape, x.dtype))
        result = self.cupy.ascontiguousarray(x).copy()
        stream = self.cupy.cuda.get_current_stream()
        self.nccl.bcast(result.data.ptr, result.nbytes, self.lib.NCCL_UINT8, root, stream.ptr)
        stream.synchronize()
        return result

    def allgather(self, x, what=None):
        if not isinstance(x, self.cupy.ndarray):
            return super().allgather(x, what=what)
        self._agree(self._begin("allgather", what, x.shape, x.dtype))
        x = self.cupy.ascontiguousarray(x)
        result = self.cupy.empty((self.size,) + x.shape, x.dtype)
        stream = self.cupy.cuda.get_current_stream()
        self.nccl.allGather(x.data.ptr, result.data.ptr, x.nbytes, self.lib.NCCL_UINT8, stream.ptr)
        stream.synchronize()
        return result


def _trunc_div(cp, x, n):
    """Integer mean, truncating toward zero like ops.finish_mean."""
    return (cp.sign(x) * (cp.abs(x) // n)).astype(x.dtype)
