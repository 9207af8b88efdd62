"""Horovod's grouped_allreduce, reducescatter and alltoall as graph ops, with their gradients.

Like mpi_ops, each op runs one collective of hvd.init()'s communicator when Session.run reaches it, so every
rank must run them in the same order. Each is labelled with its op's name ("hvd.alltoall 'HorovodAlltoall_1'"),
so a rank in another collective, or a timeout, names it. reducescatter and alltoall are the communicator's
reduce_scatter (MPI_Reduce_scatter) and alltoallv (MPI_Alltoallv) on host arrays.

process_set accepts only None (every rank): ringflow has no process sets; hvd.init(comm=[ranks]) runs the
whole Horovod API on a subset of the ranks instead. device_dense and ignore_name_scope are accepted and ignored.
"""
import numpy as np

from ..ops.core_ops import convert_to_tensor
from ..ops.indexed_slices import IndexedSlices
from ..framework.registry import apply_op, register
from ..framework.tensor import Tensor
from .basics import communicator, size
from .compression import Compression
from .negotiation import negotiated
from .mpi_ops import (Average, allgather, allreduce_op, check_reducible, check_scaling, factors, label, reduction,
                      requested, rows_unknown, scaled, sparse_allreduce)


def _check_process_set(process_set, what):
    if process_set is not None:
        raise NotImplementedError(f"hvd.{what}(process_set={process_set!r}): ringflow has no process sets; pass "
                                  "process_set=None, or run Horovod on a subset with hvd.init(comm=[ranks])")


def _check_rows(x, what):
    if x.ndim == 0:
        raise ValueError(f"hvd.{what} needs a tensor with a first dimension, got the scalar {x.name!r}: reshape "
                         "it to [1]")


# -- grouped_allreduce ----------------------------------------------------------------------------
def grouped_allreduce(tensors, average=None, device_dense="", device_sparse="", compression=Compression.none,
                      op=None, prescale_factor=1.0, postscale_factor=1.0, process_set=None,
                      ignore_name_scope=False, name=None):
    """hvd.allreduce of each tensor (op: hvd.Average by default), returned as a list in the same order.

    One allreduce op per tensor, each with allreduce's gradient; Horovod fuses the group into one message,
    ringflow runs the reductions one after another (DistributedOptimizer fuses gradients into buckets). An
    IndexedSlices is gathered as hvd.allreduce gathers one.
    """
    _check_process_set(process_set, "grouped_allreduce")
    op = requested(op, average, stacklevel=3)
    results = []
    for i, tensor in enumerate(tensors):
        if isinstance(tensor, IndexedSlices):
            results.append(sparse_allreduce(tensor, op, name and f"{name}_{i}"))
            continue
        compressed, ctx = compression.compress(convert_to_tensor(tensor))
        reduced = allreduce_op(compressed, reduction(op), prescale_factor, postscale_factor,
                               name=name and f"{name}_{i}", what="hvd.grouped_allreduce")
        results.append(compression.decompress(reduced, ctx))
    return results


# -- reducescatter --------------------------------------------------------------------------------
def _reducescatter_kernel(op, session):
    reduce, pre, post = factors(op, size())
    what = label(op)

    def run(x):
        out = negotiated("reducescatter", op, communicator().reduce_scatter,
                         scaled(np.asarray(session.to_host(x)), pre), reduce, what)
        return session.to_device(scaled(out, post))
    return run


def _reducescatter_grad(op, grad):
    # Each rank's rows are its slice of the reduction, so every rank's input reaches every rank's loss: the
    # gradient is all ranks' slices of the gradient back in order (allgather), times d(result)/d(input).
    reduce = op.attrs["reduce"]
    if reduce not in ("mean", "sum"):
        raise NotImplementedError(f"No gradient for the {reduce} reducescatter {op.name!r}: only hvd.Average "
                                  "and hvd.Sum reducescatters are differentiable")
    factor = op.attrs["prescale"] * op.attrs["postscale"] / (size() if reduce == "mean" else 1)
    gathered = allgather(grad)
    if factor == 1:
        return [gathered]
    return [gathered * convert_to_tensor(np.asarray(factor, dtype=np.dtype(grad.dtype)))]


def _reducescatter_infer(x, **attrs):
    _check_rows(x, "reducescatter")
    return [(rows_unknown(x), x.dtype)]


register("HorovodReducescatter", kernel=_reducescatter_kernel, infer=_reducescatter_infer,
         grad=_reducescatter_grad)


def reducescatter(tensor, device_dense="", compression=Compression.none, op=Average, name=None, process_set=None,
                  ignore_name_scope=False, prescale_factor=1.0, postscale_factor=1.0):
    """The reduction of `tensor` over all ranks (op: hvd.Average by default), of which each rank keeps its rows.

    `tensor` must have the same shape on every rank. Of its N rows (dimension 0), every rank keeps N // size()
    and the first N % size() ranks one more, in rank order, as Horovod splits them. The gradient is the
    allgather of the ranks' gradient slices, divided by size() for hvd.Average: the exact gradient of the sum
    of the ranks' losses, as for allgather here. (Horovod's own is size() times that: it multiplies by size()
    for hvd.Sum and leaves hvd.Average unscaled.)
    """
    _check_process_set(process_set, "reducescatter")
    reduce = reduction(op)
    tensor = convert_to_tensor(tensor)
    compressed, ctx = compression.compress(tensor)
    check_reducible(compressed, "reducescatter")
    check_scaling(compressed, prescale_factor, postscale_factor)
    out = apply_op("HorovodReducescatter", [compressed], name=name or "HorovodReducescatter", reduce=reduce,
                   prescale=float(prescale_factor), postscale=float(postscale_factor), what="hvd.reducescatter")
    return compression.decompress(out, ctx)


# -- alltoall -------------------------------------------------------------------------------------
def _alltoall_kernel(op, session):
    what, to_host, to_device = label(op), session.to_host, session.to_device

    def run(x, splits=None):
        rows, received = negotiated("alltoall", op, communicator().alltoallv, np.asarray(to_host(x)),
                                    None if splits is None else np.asarray(to_host(splits)), what)
        return to_device(rows), to_device(received.astype(np.int32))
    return run


def _alltoall_infer(x, splits=None, **attrs):
    _check_rows(x, "alltoall")
    if splits is not None and (np.dtype(splits.dtype).kind not in "iu" or splits.ndim not in (1, None)):
        raise TypeError(f"hvd.alltoall needs splits as a 1-D integer tensor (one entry per rank), got "
                        f"{splits.name!r} of dtype {np.dtype(splits.dtype).name} and shape {splits.shape}")
    return [(rows_unknown(x), x.dtype), ((None,), np.dtype(np.int32))]


def _alltoall_grad(op, grad, _):
    # The rows this rank received go back where they came from: the same exchange with the received counts.
    back, _ = apply_op("HorovodAlltoall", [grad, op.outputs[1]], name=f"{op.name}_grad", what="hvd.alltoall")
    return [back] + [None] * (len(op.inputs) - 1)


register("HorovodAlltoall", kernel=_alltoall_kernel, infer=_alltoall_infer, grad=_alltoall_grad)


class AlltoallRows(Tensor):
    """The rows hvd.alltoall(tensor, splits) received. It is the rows tensor, as Horovod before 0.22 returns, and
    it unpacks as (rows, received_splits), as Horovod 0.22 and later return: the tests and programs of both
    generations run. A graph tensor with an unknown first dimension cannot be iterated otherwise, so the
    unpacking means nothing else."""

    def __iter__(self):
        return iter((self, self.op.outputs[1]))


def alltoall(tensor, splits=None, name=None, ignore_name_scope=False, process_set=None):
    """Send splits[q] consecutive rows (dimension 0) of `tensor` to rank q; the rows received, in rank order.

    splits: one non-negative integer per rank summing to the rows of `tensor` (a list or a 1-D integer tensor;
    it may differ between ranks, as may the number of rows). Without splits, every rank gets an equal share,
    and the rows must divide evenly. With splits the result unpacks as (rows, received_splits), as Horovod
    0.22 and later return, received_splits an int32 tensor counting the rows from each rank, and is itself the
    rows tensor, as Horovod before 0.22 returns (an AlltoallRows); without splits, the rows alone. Bad splits
    raise ValueError on every rank, naming the ranks that gave them. The gradient is the reverse alltoall, which
    sends each rank its rows' gradients back.
    """
    _check_process_set(process_set, "alltoall")
    inputs = [convert_to_tensor(tensor)]
    if splits is not None:
        inputs.append(convert_to_tensor(splits))
    rows, received = apply_op("HorovodAlltoall", inputs, name=name or "HorovodAlltoall", what="hvd.alltoall")
    if splits is not None:
        rows.__class__ = AlltoallRows  # the op's own output object, so the graph and feeds know it as before
    return rows
