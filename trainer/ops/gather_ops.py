"""Picking by index: gather (with its scatter-add gradient), top_k and in_top_k."""
import collections

import numpy as np

from ..framework import dtypes
from .core_ops import convert_to_tensor
from ..framework.registry import apply_op, get_array_module, register, to_numpy
from .tensor_util import constant_value, static_int, static_shape


def _check_indices(indices, size, op_name):
    if indices.size and (indices.min() < 0 or indices.max() >= size):
        bad = indices[(indices < 0) | (indices >= size)].flat[0]
        raise ValueError(f"{op_name}: index {bad} is not in [0, {size}): the indices must address existing rows")


def _gather(params, indices, axis):
    if get_array_module(params) is np and get_array_module(indices) is not np:
        indices = to_numpy(indices)  # host-only params (strings: file names, labels) take indices from any device
    _check_indices(indices, params.shape[axis], "gather")
    return np.take(params, indices, axis=axis)


def _gather_grad_forward(g, indices, params, axis):
    xp = get_array_module(g)
    out = xp.zeros(params.shape, dtype=g.dtype)
    xp.add.at(xp.moveaxis(out, axis, 0), indices, xp.moveaxis(g, tuple(range(axis, axis + indices.ndim)),
                                                              tuple(range(indices.ndim))))
    return out


def _gather_infer(params, indices, axis):
    p, i = static_shape(params), static_shape(indices)
    if p is None or i is None:
        return [(None, params.dtype)]
    return [(p[:axis] + i + p[axis + 1:], params.dtype)]


register("GatherV2", _gather, infer=_gather_infer,
         grad=lambda op, g: [apply_op("GatherGrad", [g, op.inputs[1], op.inputs[0]], **op.attrs), None], fresh=True)
register("GatherGrad", _gather_grad_forward, infer=lambda g, i, params, axis: [(static_shape(params), g.dtype)],
         grad=lambda op, gg: [gather(gg, op.inputs[1], axis=op.attrs["axis"]), None, None], fresh=True)


def gather(params, indices, validate_indices=None, name=None, axis=0, batch_dims=0):
    """Slices of `params` along `axis` at integer `indices` (out-of-range indices raise when run).
    The gradient scatter-adds into a dense tensor of params' shape (TF1 returns IndexedSlices)."""
    params, indices = convert_to_tensor(params), convert_to_tensor(indices)
    if indices.dtype.kind not in "iu":
        raise TypeError(f"gather needs integer indices, got {indices.name!r} of dtype {indices.dtype.name}")
    if batch_dims:
        raise NotImplementedError(f"gather with batch_dims={batch_dims!r} is not supported; only batch_dims=0")
    axis = static_int(axis, "gather axis")
    if params.ndim is not None:
        if not -params.ndim <= axis < params.ndim:
            raise ValueError(f"gather: axis {axis} is out of range for {params.name!r} of rank {params.ndim}")
        axis %= params.ndim
    elif axis < 0:
        raise NotImplementedError(f"gather with a negative axis needs {params.name!r} to have a known rank")
    return apply_op("GatherV2", [params, indices], name=name or "GatherV2", axis=axis)


def _top_k(x, k, sorted):
    if k > x.shape[-1]:
        raise ValueError(f"top_k: input must have at least k={k} columns, got shape {x.shape}")
    # A stable sort of -x: among equal values the lower index comes first, as in TF1.
    order = np.argsort(-x, axis=-1, kind="stable")[..., :k]
    return np.take_along_axis(x, order, axis=-1), order.astype(np.int32)


def _top_k_infer(x, k, sorted):
    shape = static_shape(x)
    out = None if shape is None else shape[:-1] + (k,)
    return [(out, x.dtype), (out, dtypes.int32)]


def _top_k_grad_forward(g, indices, x):
    xp = get_array_module(g)
    out = xp.zeros(x.shape, dtype=g.dtype)
    xp.put_along_axis(out, indices.astype(np.intp), g, axis=-1)
    return out


register("TopKV2", _top_k, infer=_top_k_infer,
         grad=lambda op, g, _: [apply_op("TopKGrad", [g, op.outputs[1], op.inputs[0]])], fresh=True)
register("TopKGrad", _top_k_grad_forward, infer=lambda g, i, x: [(static_shape(x), g.dtype)], fresh=True)


# TF1's generated op wrapper returns its outputs as this namedtuple (sess.run keeps it, and its repr shows it)
TopKV2 = collections.namedtuple("TopKV2", ["values", "indices"])


def top_k(input, k=1, sorted=True, name=None):  # noqa: A002 - TF1's names
    """TopKV2(values, indices): the k largest entries along the last axis, largest first, and their int32 indices."""
    x = convert_to_tensor(input)
    k = constant_value(k)
    if k is None:
        raise NotImplementedError("top_k needs k known while building (a Python int or a constant)")
    k = int(k)
    if k < 0:
        raise ValueError(f"top_k needs k >= 0, got {k}")
    return TopKV2(*apply_op("TopKV2", [x], name=name or "TopKV2", k=k, sorted=bool(sorted)))


def _in_top_k(predictions, targets, k):
    xp = get_array_module(predictions)
    rows = xp.arange(len(targets))
    valid = (targets >= 0) & (targets < predictions.shape[1])
    target_values = predictions[rows, xp.where(valid, targets, 0)]
    # Ties at the boundary count as in the top k (TF1): only strictly larger values push a target out.
    larger = (predictions > target_values[:, None]).sum(axis=1)
    return valid & np.isfinite(target_values) & (larger < k)


register("InTopKV2", _in_top_k,
         infer=lambda p, t, k: [((static_shape(p) or (None,))[:1], dtypes.bool)], fresh=True)


def in_top_k(predictions, targets, k, name=None):
    """For each row, whether predictions[row, targets[row]] is among the row's k largest values (ties count)."""
    predictions, targets = convert_to_tensor(predictions), convert_to_tensor(targets)
    if predictions.ndim not in (None, 2) or targets.ndim not in (None, 1):
        raise ValueError(f"in_top_k needs 2-D predictions and 1-D targets, got shapes {predictions.shape} and "
                         f"{targets.shape}")
    if targets.dtype.kind not in "iu":
        raise TypeError(f"in_top_k needs integer targets, got {targets.name!r} of dtype {targets.dtype.name}")
    k = convert_to_tensor(k, dtype=targets.dtype)
    return apply_op("InTopKV2", [predictions, targets, k], name=name or "in_top_k")

