"""Horovod's collective graph ops: allreduce, allgather and broadcast, with the gradients Horovod registers.

Each op runs one collective of the communicator hvd.init() chose when Session.run reaches it, so every rank
must run the same collective ops in the same order. The session orders independent ops by creation, so the
same program on every rank does; a rank that skips one makes the others raise allreduce.CollectiveTimeout.
"""
import numbers
import time
import warnings

import numpy as np

from ..ops.array_ops import shape
from ..ops.slice_ops import strided_slice
from ..ops.core_ops import convert_to_tensor
from ..ops.math_ops import zeros_like
from ..ops.indexed_slices import IndexedSlices
from ..client.step_stats import report_activities
from ..framework.registry import apply_op, register, to_numpy
from ..parallel import activities
from .basics import communicator, rank, size, local_rank, local_size
from .compression import Compression
from .negotiation import negotiated

# Horovod's ReduceOp values.
Average, Sum, Adasum, Min, Max, Product = 0, 1, 2, 3, 4, 5
_REDUCTIONS = {Average: "mean", Sum: "sum", Min: "min", Max: "max"}  # the communicator's names for them
_NAMES = {Average: "hvd.Average", Sum: "hvd.Sum", Adasum: "hvd.Adasum", Min: "hvd.Min", Max: "hvd.Max",
          Product: "hvd.Product"}


def requested(op, average=None, stacklevel=4):
    """Horovod's reduce op for `op` or the deprecated `average` flag; Average by default. stacklevel: the user's
    call as warnings counts it from here (4: the caller of the caller of reduction)."""
    if op is not None and average is not None:
        raise ValueError(f"allreduce got op={op!r} and average={average!r}: op replaces average, give only op")
    if average is not None:
        warnings.warn("allreduce's `average` is deprecated: use op=hvd.Average or op=hvd.Sum", DeprecationWarning,
                      stacklevel=stacklevel)
        return Average if average else Sum
    return Average if op is None else op


def reduction(op, average=None):
    """The communicator's op for Horovod's `op` (or the deprecated `average` flag); Average by default."""
    op = requested(op, average)
    if op in (Adasum, Product):
        raise NotImplementedError(f"{_NAMES[op]} is not implemented on ringflow's communicators: use hvd.Average, "
                                  "hvd.Sum, hvd.Min or hvd.Max")
    if op not in _REDUCTIONS:
        raise ValueError(f"Unknown reduce op {op!r}: use hvd.Average, hvd.Sum, hvd.Min or hvd.Max")
    return _REDUCTIONS[op]


def check_reducible(tensor, what):
    if np.dtype(tensor.dtype).kind not in "fiu":
        raise TypeError(f"hvd.{what} cannot reduce {tensor.name!r} of dtype {np.dtype(tensor.dtype).name}: only "
                        "float and integer tensors can be reduced (cast it first)")


def check_scaling(tensor, prescale_factor, postscale_factor):
    for name, factor in (("prescale_factor", prescale_factor), ("postscale_factor", postscale_factor)):
        if not isinstance(factor, numbers.Real):
            raise TypeError(f"{name} must be a Python number (an attribute of the op, as in Horovod), got "
                            f"{factor!r} for {tensor.name!r}")


def factors(op, size):
    """(prescale, postscale) as Horovod applies them: its op attrs are TF floats (32 bits), and Average is a sum
    whose postscale is divided by the number of ranks (in float64); returns the communicator's reduction too."""
    pre, post = float(np.float32(op.attrs["prescale"])), float(np.float32(op.attrs["postscale"]))
    if op.attrs["reduce"] == "mean":
        return "sum", pre, post / size
    return op.attrs["reduce"], pre, post


def scaled(array, factor):
    """array * factor as Horovod's ScaleBuffer computes it on the CPU: in float64 (float32 for float16), then back
    to array's dtype, an integer truncated toward zero."""
    if factor == 1:
        return array
    math = np.float32 if array.dtype == np.float16 else np.float64
    return (array.astype(math) * math(factor)).astype(array.dtype)


def label(op):
    """The name op's collective goes by in the communicator's errors: its `what` attribute and the op's name."""
    what = op.attrs.get("what")
    return None if what is None else f"{what} {op.name!r}"


def traced(operation, op, collective, array):
    """collective(array) (on the host), reported to the session's activity channel as `operation` by op's name; ranks
    that disagree on it raise FailedPreconditionError (negotiation.py)."""
    start = time.perf_counter()
    out = negotiated(operation.lower(), op, collective, array)
    span = (activities.backend_activity(communicator(), operation), start, time.perf_counter())
    report_activities(operation, [op.name], [span], dtype=array.dtype.name, shape=tuple(array.shape))
    return out


# -- allreduce ------------------------------------------------------------------------------------
def _allreduce_kernel(op, session):
    reduce, pre, post = factors(op, size())
    what = label(op)

    def run(x):
        out = traced("ALLREDUCE", op, lambda a: communicator().allreduce(a, op=reduce, what=what),
                     scaled(to_numpy(x), pre))
        return session.to_device(scaled(out, post))
    return run


def _allreduce_grad(op, grad):
    # The total loss is the sum of every rank's loss, so the gradient is reduced the same way as the value.
    if op.attrs["reduce"] not in ("mean", "sum"):
        raise NotImplementedError(f"No gradient for the {op.attrs['reduce']} allreduce {op.name!r}: only "
                                  "hvd.Average and hvd.Sum allreduces are differentiable")
    return [apply_op("HorovodAllreduce", [grad], **op.attrs)]


register("HorovodAllreduce", kernel=_allreduce_kernel, infer=lambda x, **attrs: [(x.shape, x.dtype)],
         grad=_allreduce_grad)


def allreduce_op(tensor, reduce, prescale_factor=1.0, postscale_factor=1.0, name=None, what=None):
    """The HorovodAllreduce op of `tensor` with the communicator's op name `reduce` ("mean", "sum", ...)."""
    check_reducible(tensor, "allreduce")
    check_scaling(tensor, prescale_factor, postscale_factor)
    labelled = {} if what is None else {"what": what}  # unlabelled: the communicator says "an allreduce"
    return apply_op("HorovodAllreduce", [tensor], name=name or "HorovodAllreduce", reduce=reduce,
                    prescale=float(prescale_factor), postscale=float(postscale_factor), **labelled)


def allreduce(tensor, average=None, device_dense="", device_sparse="", compression=Compression.none, op=None,
              prescale_factor=1.0, postscale_factor=1.0, name=None):
    """The reduction of `tensor` over all ranks (op: hvd.Average by default), on every rank.

    prescale_factor multiplies each rank's tensor before, postscale_factor the result after the reduction.
    device_dense and device_sparse are accepted and ignored: the op runs where the session runs.
    An IndexedSlices is not reduced but gathered, as Horovod does (see sparse_allreduce).
    """
    if isinstance(tensor, IndexedSlices):
        return sparse_allreduce(tensor, requested(op, average, stacklevel=3), name)
    reduce = reduction(op, average)
    tensor = convert_to_tensor(tensor)
    compressed, ctx = compression.compress(tensor)
    return compression.decompress(allreduce_op(compressed, reduce, prescale_factor, postscale_factor, name), ctx)


# -- allgather ------------------------------------------------------------------------------------
def rows_unknown(x):
    """x's static shape with the first dimension unknown (None when even the rank is)."""
    return None if x.ndim is None else (None,) + tuple(x.shape)[1:]


def _allgather_infer(x):
    if x.ndim == 0:
        raise ValueError(f"hvd.allgather needs a tensor with a first dimension, got the scalar {x.name!r}: "
                         "reshape it to [1]")
    return [(rows_unknown(x), x.dtype)]


def _allgather_grad(op, grad):
    # Every rank's loss may use every row: sum the gradients over ranks, keep the rows this rank gave.
    summed = allreduce_op(grad, "sum")
    rows = allgather(strided_slice(shape(op.inputs[0]), slice(0, 1)))
    return [apply_op("HorovodOwnRows", [summed, rows])]


register("HorovodAllgather", kernel=lambda op, session: lambda x: session.to_device(traced(
    "ALLGATHER", op, communicator().allgatherv, to_numpy(x))), infer=_allgather_infer, grad=_allgather_grad)


def _own_rows(x, rows):
    start = int(np.sum(rows[:rank()]))
    return x[start:start + int(rows[rank()])]


register("HorovodOwnRows", _own_rows, view=True, infer=lambda x, rows: [(rows_unknown(x), x.dtype)])


def allgather(tensor, name=None):
    """Every rank's `tensor` concatenated along axis 0 in rank order; first dimensions may differ."""
    return apply_op("HorovodAllgather", [convert_to_tensor(tensor)], name=name or "HorovodAllgather")


def sparse_allreduce(slices, op, name=None):
    """Horovod's allreduce of the IndexedSlices `slices` for its reduce op `op`: every rank's values and indices
    allgathered, so the rows are every rank's in rank order, repeated indices kept (they add up when the slices
    are made dense, which is the sum); the values divided by size() for hvd.Average. dense_shape is this rank's.
    Horovod ignores the scale factors and the compression here, and gathers for Min, Max and Product too; it
    refuses only Adasum."""
    if op == Adasum:
        raise NotImplementedError(f"hvd.Adasum cannot reduce the IndexedSlices {slices.name!r}: Horovod's Adasum "
                                  "does not support sparse tensors; make it dense first (tf.convert_to_tensor, or "
                                  "sparse_as_dense=True in DistributedOptimizer)")
    if op not in _NAMES:
        raise ValueError(f"Unknown reduce op {op!r}: use hvd.Average, hvd.Sum, hvd.Min or hvd.Max")
    values = allgather(slices.values, name=name and f"{name}_values")
    indices = allgather(slices.indices, name=name and f"{name}_indices")
    if op == Average:
        values = values / convert_to_tensor(np.asarray(size(), np.dtype(values.dtype)))
    return IndexedSlices(values, indices, slices.dense_shape)


# -- broadcast ------------------------------------------------------------------------------------
def _broadcast_grad(op, grad):
    # Only root's value reached every rank: root collects the sum of the gradients, the others get zeros.
    summed = allreduce_op(grad, "sum")
    return [summed if rank() == op.attrs["root_rank"] else zeros_like(summed)]


def _broadcast_kernel(op, session):
    def run(x):
        x = to_numpy(x)
        # reshaped: the communicator returns 0-d arrays as shape (1,)
        out = traced("BROADCAST", op, lambda a: communicator().broadcast(a, op.attrs["root_rank"]), x)
        return session.to_device(out.reshape(x.shape))
    return run


register("HorovodBroadcast", kernel=_broadcast_kernel, infer=lambda x, root_rank: [(x.shape, x.dtype)],
         grad=_broadcast_grad)


def broadcast(tensor, root_rank, name=None):
    """root_rank's `tensor` on every rank (it must have the same shape and dtype on every rank)."""
    if not isinstance(root_rank, (int, np.integer)) or isinstance(root_rank, bool):
        raise TypeError(f"root_rank must be an int, got {root_rank!r}")
    return apply_op("HorovodBroadcast", [convert_to_tensor(tensor)], name=name or "HorovodBroadcast",
                    root_rank=int(root_rank))


# -- the layout as tensors -------------------------------------------------------------------------
_QUERIES = {"HorovodSize": size, "HorovodRank": rank, "HorovodLocalSize": local_size,
            "HorovodLocalRank": local_rank}
for _type, _query in _QUERIES.items():
    register(_type, kernel=lambda op, session, query=_query: lambda: np.int32(query()),
             infer=lambda: [((), np.dtype(np.int32))])


def size_op(name=None):
    """An int32 scalar Tensor: hvd.size() when the session runs it."""
    return apply_op("HorovodSize", [], name=name or "HorovodSize")


def rank_op(name=None):
    """An int32 scalar Tensor: hvd.rank() when the session runs it."""
    return apply_op("HorovodRank", [], name=name or "HorovodRank")


def local_size_op(name=None):
    """An int32 scalar Tensor: hvd.local_size() when the session runs it."""
    return apply_op("HorovodLocalSize", [], name=name or "HorovodLocalSize")


def local_rank_op(name=None):
    """An int32 scalar Tensor: hvd.local_rank() when the session runs it."""
    return apply_op("HorovodLocalRank", [], name=name or "HorovodLocalRank")
