"""Order-based ops: unique (first-occurrence order), sort and argsort along an axis, with sort's gradient."""
import collections

import numpy as np

from ..framework import dtypes
from ..platform.errors import InvalidArgumentError
from .core_ops import convert_to_tensor
from ..framework.registry import apply_op, get_array_module, register
from ..framework.registry import host_kernel
from .tensor_util import constant_value, normalize_axis, static_shape


def _unique(x, out_idx):
    if x.ndim != 1:
        raise InvalidArgumentError(f"unique expects a 1-D vector, got shape {tuple(x.shape)}")
    xp = get_array_module(x)
    values, first, inverse = xp.unique(x, return_index=True, return_inverse=True)
    order = xp.argsort(first)  # sorted uniques -> first-occurrence order, as TF1 lists them
    rank = xp.empty_like(order)
    rank[order] = xp.arange(len(order), dtype=order.dtype)
    return values[order], rank[inverse.reshape(-1)].astype(out_idx)


register("Unique", _unique, infer=lambda x, out_idx: [((None,), x.dtype), (static_shape(x), out_idx)], fresh=True)


# TF1's generated op wrapper returns its outputs as this namedtuple (sess.run keeps it, and its repr shows it)
Unique = collections.namedtuple("Unique", ["y", "idx"])
UniqueWithCounts = collections.namedtuple("UniqueWithCounts", ["y", "idx", "count"])


def unique(x, out_idx=dtypes.int32, name=None):
    """Unique(y, idx): the distinct values of 1-D `x` in the order they first occur, and each x's position in y."""
    x = convert_to_tensor(x)
    if x.ndim not in (None, 1):
        raise ValueError(f"unique needs a 1-D tensor, got {x.name!r} of shape {x.shape}; flatten it first "
                         "(tg.reshape(x, [-1]))")
    out_idx = dtypes.as_dtype(out_idx)
    if out_idx not in (dtypes.int32, dtypes.int64):
        raise TypeError(f"unique: out_idx must be int32 or int64, got {out_idx.name}")
    return Unique(*apply_op("Unique", [x], name=name or "Unique", out_idx=out_idx))


def _argsort(x, axis, descending):
    xp = get_array_module(x)
    if not descending:
        return xp.argsort(x, axis=axis, kind="stable").astype(dtypes.int32)
    # A stable descending order that keeps equal values in their original order (TF1's top_k does):
    # sort the reversed array ascending, then reverse the result and map positions back.
    flipped = xp.argsort(xp.flip(x, axis), axis=axis, kind="stable")
    return (x.shape[axis] - 1 - xp.flip(flipped, axis)).astype(dtypes.int32)


def _inverse_take(g, indices, axis):
    xp = get_array_module(g)
    return xp.take_along_axis(g, xp.argsort(indices, axis=axis), axis=axis)


register("Argsort", _argsort, infer=lambda x, **a: [(static_shape(x), dtypes.int32)], fresh=True)
# x's entries picked by a permutation of each line along `axis`, and its adjoint, the inverse permutation.
register("TakeAlongAxis", lambda x, indices, axis: get_array_module(x).take_along_axis(x, indices, axis=axis),
         infer=lambda x, i, axis: [(static_shape(x), x.dtype)], fresh=True,
         grad=lambda op, g: [apply_op("InverseTakeAlongAxis", [g, op.inputs[1]], **op.attrs), None])
register("InverseTakeAlongAxis", _inverse_take, infer=lambda g, i, axis: [(static_shape(g), g.dtype)], fresh=True,
         grad=lambda op, gg: [apply_op("TakeAlongAxis", [gg, op.inputs[1]], **op.attrs), None])

_DIRECTIONS = {"ASCENDING": False, "DESCENDING": True}


def _order(what, values, axis, direction):
    x = convert_to_tensor(values)
    if direction not in _DIRECTIONS:
        raise ValueError(f"{what}: direction must be 'ASCENDING' or 'DESCENDING', got {direction!r}")
    known = constant_value(axis)
    if known is None or known.ndim != 0:
        raise ValueError(f"{what}: axis must be a constant scalar, got {axis!r}")
    if x.ndim is None:
        raise NotImplementedError(f"{what} needs {x.name!r} to have a known rank")
    if x.ndim == 0:
        raise ValueError(f"{what} needs a tensor of rank >= 1, got the scalar {x.name!r}")
    return x, normalize_axis(int(known), x.ndim, what), _DIRECTIONS[direction]


def argsort(values, axis=-1, direction="ASCENDING", stable=False, name=None):
    """int32 indices that sort `values` along `axis`; equal values keep their order (stable=False is too)."""
    x, axis, descending = _order("argsort", values, axis, direction)
    return apply_op("Argsort", [x], name=name or "argsort", axis=axis, descending=descending)


def sort(values, axis=-1, direction="ASCENDING", name=None):
    """`values` sorted along `axis` (ASCENDING or DESCENDING); the gradient goes back to where each came from."""
    x, axis, descending = _order("sort", values, axis, direction)
    indices = apply_op("Argsort", [x], name=f"{name or 'sort'}_indices", axis=axis, descending=descending)
    return apply_op("TakeAlongAxis", [x, indices], name=name or "sort", axis=axis)


def _unique_with_counts(x, out_idx):
    values, idx = _unique(x, out_idx)
    return values, idx, np.bincount(idx, minlength=len(values)).astype(out_idx)


register("UniqueWithCounts", kernel=host_kernel(_unique_with_counts), fresh=True,
         infer=lambda x, out_idx: [((None,), x.dtype), (static_shape(x), out_idx), ((None,), out_idx)])


def unique_with_counts(x, out_idx=dtypes.int32, name=None):
    """UniqueWithCounts(y, idx, count): unique's values and positions, and how often each value occurs in x."""
    x = convert_to_tensor(x)
    if x.ndim not in (None, 1):
        raise ValueError(f"unique_with_counts needs a 1-D tensor, got {x.name!r} of shape {x.shape}")
    out_idx = dtypes.as_dtype(out_idx)
    if out_idx not in (dtypes.int32, dtypes.int64):
        raise TypeError(f"unique_with_counts: out_idx must be int32 or int64, got {out_idx.name}")
    return UniqueWithCounts(*apply_op("UniqueWithCounts", [x], name=name or "UniqueWithCounts", out_idx=out_idx))
