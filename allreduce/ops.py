"""Reduction ops: the numpy ufunc, the MPI op, and how a sum becomes a mean."""
import numpy as np
from mpi4py import MPI

UFUNCS = {"sum": np.add, "mean": np.add, "max": np.maximum, "min": np.minimum}
MPI_OPS = {"sum": MPI.SUM, "mean": MPI.SUM, "max": MPI.MAX, "min": MPI.MIN}


def check_op(op):
    if op not in UFUNCS:
        raise ValueError(f"Unknown reduction op {op!r}: expected one of {sorted(UFUNCS)}")


def check_dtype(dtype):
    if dtype.kind not in "fiu":
        raise ValueError(f"Cannot allreduce dtype {dtype!r}: only numpy float and integer dtypes are supported "
                         f"(cast bool/complex/object arrays first)")


def work_dtype(dtype):
    """The dtype a reduction runs in: float16 is summed in float32 so partial sums keep their precision."""
    return np.dtype(np.float32) if dtype == np.float16 else dtype


def finish_mean(x, n):
    """Turn a sum of n contributions into their mean, in place.

    Floats divide by n. Integers divide and truncate toward zero (C integer division, as NCCL's ncclAvg does),
    so an int mean is exact when the sum is divisible by n and otherwise loses the fraction.
    """
    if n == 1 or x.size == 0:
        return x
    if x.dtype.kind == "f":
        return np.divide(x, n, out=x)
    if x.dtype.kind == "u":
        return np.floor_divide(x, n, out=x)
    negative = x < 0
    np.abs(x, out=x)
    np.floor_divide(x, n, out=x)
    return np.negative(x, out=x, where=negative)
