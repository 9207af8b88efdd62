"""Splitting a tensor by partition index and putting the pieces back: dynamic_partition and dynamic_stitch, each
the other's gradient (TF1 differentiates them the same way)."""
import numpy as np

from ..framework.registry import host_kernel
from ..framework import dtypes
from ..framework.registry import apply_op, register
from ..platform.errors import InvalidArgumentError
from .core_ops import convert_to_tensor
from .fill_ops import range as range_
from .array_ops import reshape, shape
from .gather_ops import gather
from .tensor_util import constant_value, static_shape


def _partition(data, partitions, num_partitions):
    if partitions.size and (partitions.min() < 0 or partitions.max() >= num_partitions):
        bad = partitions[(partitions < 0) | (partitions >= num_partitions)].flat[0]
        raise InvalidArgumentError(f"dynamic_partition: partitions[...] = {int(bad)} is not in [0, "
                                   f"{num_partitions})")
    if data.shape[:partitions.ndim] != partitions.shape:
        raise InvalidArgumentError(f"dynamic_partition: data of shape {data.shape} does not start with the "
                                   f"partitions' shape {partitions.shape}")
    flat = data.reshape((-1,) + data.shape[partitions.ndim:])
    keys = partitions.reshape(-1)
    return tuple(flat[keys == i] for i in range(num_partitions))


def _partition_infer(data, partitions, num_partitions):
    d, p = static_shape(data), static_shape(partitions)
    tail = None if d is None or p is None else d[len(p):]
    return [(None if tail is None else (None, *tail), data.dtype)] * num_partitions


def _partition_grad(op, *grads):
    """The gradient goes back where each row came from: dynamic_stitch of the grads at the rows' flat positions."""
    data, partitions = op.inputs
    positions = reshape(range_(apply_op("Size", [partitions], out_type=dtypes.int32)), shape(partitions))
    pieces = dynamic_partition(positions, partitions, len(op.outputs))
    grads = [apply_op("ZerosLike", [o]) if g is None else g for g, o in zip(grads, op.outputs)]
    stitched = dynamic_stitch(pieces, grads)
    return [reshape(stitched, shape(data)), None]


def _stitch(*arrays, count):
    indices, data = arrays[:count], arrays[count:]
    size = max((int(i.max()) + 1 for i in indices if i.size), default=0)
    tail = data[0].shape[indices[0].ndim:]
    out = np.zeros((size,) + tail, dtype=data[0].dtype)
    for i, d in zip(indices, data):  # later pieces win where indices repeat, as TF's kernel merges in order
        if d.shape[:i.ndim] != i.shape:
            raise InvalidArgumentError(f"dynamic_stitch: data of shape {d.shape} does not start with its indices' "
                                       f"shape {i.shape}")
        out[i.reshape(-1)] = d.reshape((-1,) + tail)
    return out


def _stitch_infer(*tensors, count):
    i, d = static_shape(tensors[0]), static_shape(tensors[count])
    known = [constant_value(t) for t in tensors[:count]]
    size = None
    if all(k is not None for k in known):  # TF folds constant indices into the static size
        size = max((int(np.max(k)) + 1 for k in known if np.size(k)), default=0)
    return [(None if i is None or d is None else (size, *d[len(i):]), tensors[count].dtype)]


def _stitch_grad(op, g):
    count = op.attrs["count"]
    return [None] * count + [gather(g, index) for index in op.inputs[:count]]


register("DynamicPartition", kernel=host_kernel(_partition), infer=_partition_infer, grad=_partition_grad, fresh=True)
register("DynamicStitch", kernel=host_kernel(_stitch), infer=_stitch_infer, grad=_stitch_grad, fresh=True)


def dynamic_partition(data, partitions, num_partitions, name=None):
    """[data's rows whose partition is i, for i < num_partitions]: the int32 `partitions` name each row's piece."""
    data, partitions = convert_to_tensor(data), convert_to_tensor(partitions)
    if partitions.dtype != dtypes.int32:
        raise TypeError(f"dynamic_partition needs int32 partitions, got {partitions.name!r} of dtype "
                        f"{partitions.dtype.name}")
    if int(num_partitions) < 1:
        raise ValueError(f"dynamic_partition: num_partitions must be at least 1, got {num_partitions!r}")
    out = apply_op("DynamicPartition", [data, partitions], name=name or "DynamicPartition",
                   num_partitions=int(num_partitions))
    return list(out) if isinstance(out, (list, tuple)) else [out]


def dynamic_stitch(indices, data, name=None):
    """One tensor with merged[indices[m][i...]] = data[m][i...]: pieces put back in place (later ones win)."""
    indices = [convert_to_tensor(i) for i in indices]
    data = [convert_to_tensor(d) for d in data]
    if len(indices) != len(data) or not indices:
        raise ValueError(f"dynamic_stitch needs as many data as indices tensors (at least one), got {len(indices)} "
                         f"and {len(data)}")
    for i in indices:
        if i.dtype != dtypes.int32:
            raise TypeError(f"dynamic_stitch needs int32 indices, got {i.name!r} of dtype {i.dtype.name}")
    data = [convert_to_tensor(d, dtype=data[0].dtype) for d in data]
    return apply_op("DynamicStitch", indices + data, name=name or "DynamicStitch", count=len(indices))
