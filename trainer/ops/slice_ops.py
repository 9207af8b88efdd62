"""Slicing: x[key] (which tg.strided_slice spells out, strided_slice_ops.py) and tg.slice(x, begin, size), with
positions that only the run may know.

A slicing key may hold scalar int Tensors (as an index or as a slice bound, TF1 allows both): they become the
op's extra inputs, and the key keeps a `Fed` mark in their place, filled with their values when the op runs.
Python's slicing rules (negative positions, clamping) apply to those values as to Python ints.
"""
import builtins

import numpy as np

from ..platform.errors import InvalidArgumentError
from ..framework.tensor import Tensor
from .core_ops import convert_to_tensor
from ..framework.registry import apply_op, get_array_module, register
from .tensor_util import constant_value, shape_of, static_shape, static_shape_of


_SLICE = builtins.slice  # this module's tg.slice hides the builtin


class Fed:
    """The place in a slicing key of the op's input number `index`, an int scalar known when the op runs."""

    __slots__ = ("index",)

    def __init__(self, index):
        self.index = index

    def __repr__(self):
        return f"Fed({self.index})"


def split_key(key):
    """(key with Fed marks, the Tensors they stand for): scalar int Tensors become the op's inputs 1, 2, ..."""
    tensors = []

    def mark(k):
        if not isinstance(k, Tensor):
            return k
        if k.dtype.kind not in "iu" or k.ndim not in (None, 0):
            raise TypeError(f"A Tensor indexing a Tensor must be an int scalar, got {k.name!r} of dtype "
                            f"{k.dtype.name} and shape {k.shape}")
        known = constant_value(k)
        if known is not None:
            return int(known)
        tensors.append(k)
        return Fed(len(tensors))

    marked = tuple(_SLICE(mark(k.start), mark(k.stop), mark(k.step)) if isinstance(k, _SLICE) else mark(k) for k in key)
    return marked, tensors


def resolve(key, values):
    """`key` with each Fed mark replaced by the int value of the op's input it names (values[0] is input 1)."""
    def fill(k):
        return int(values[k.index - 1]) if isinstance(k, Fed) else k
    return tuple(_SLICE(fill(k.start), fill(k.stop), fill(k.step)) if isinstance(k, _SLICE) else fill(k) for k in key)


def is_fed(k):
    """Whether a key entry waits for the run: a Fed index, or a slice with a Fed bound."""
    if isinstance(k, _SLICE):
        return any(isinstance(b, Fed) for b in (k.start, k.stop, k.step))
    return isinstance(k, Fed)


def _slice_shape(shape, key):
    """Static shape of x[key] for basic indexing; None dims stay None, as do slices with bounds the run gives."""
    if shape is None:
        return None
    n_real = sum(1 for k in key if k is not None and k is not Ellipsis)
    if Ellipsis in key:
        i = key.index(Ellipsis)
        key = key[:i] + (_SLICE(None),) * (len(shape) - n_real) + key[i + 1:]
    key = key + (_SLICE(None),) * (len(shape) - sum(1 for k in key if k is not None))
    out, dims = [], iter(shape)
    for k in key:
        if k is None:
            out.append(1)
            continue
        d = next(dims)
        if isinstance(k, _SLICE):
            out.append(None if d is None or is_fed(k) else len(builtins.range(*k.indices(d))))
    return tuple(out)


def _strided_slice(x, *fed, key):
    return x[resolve(key, fed)] if fed else x[key]  # a key with no Fed mark is used as it is


# Positions given as Tensors are the op's inputs after x, marked Fed in the key.
register("StridedSlice", _strided_slice, view=True,
         infer=lambda x, *fed, key: [(_slice_shape(static_shape(x), key), x.dtype)],
         grad=lambda op, g: [apply_op("StridedSliceGrad", [g, *op.inputs], key=op.attrs["key"])]
         + [None] * (len(op.inputs) - 1))


def _strided_slice_grad(g, x, *fed, key, sizes=False):
    out = get_array_module(g).zeros(shape_of(x, sizes), dtype=g.dtype)
    out[resolve(key, fed)] = g
    return out


register("StridedSliceGrad", _strided_slice_grad,
         infer=lambda g, x, *fed, key, sizes=False: [(static_shape_of(x, sizes), g.dtype)],
         grad=lambda op, gg: [apply_op("StridedSlice", [gg, *op.inputs[2:]], key=op.attrs["key"]), None]
         + [None] * (len(op.inputs) - 2), fresh=True)


def strided_slice(x, key, name=None):
    """x[key] for basic indexing: ints, slices, Ellipsis and None (new axis); an int or a slice bound may be a
    scalar int Tensor. A list key is read as a tuple (TF1's _slice_helper: x[[0, i]] is x[0, i])."""
    key = tuple(key) if isinstance(key, (tuple, list)) else (key,)
    for k in key:
        bounds = (k.start, k.stop, k.step) if isinstance(k, _SLICE) else (k,)
        if not all(b is None or b is Ellipsis or isinstance(b, (Tensor, int, np.integer)) for b in bounds):
            raise TypeError(f"Only ints, slices, ... and None can index a Tensor (ints may be scalar int Tensors), "
                            f"got {k!r}")
    key, fed = split_key(tuple(int(k) if isinstance(k, np.integer) else k for k in key))
    return apply_op("StridedSlice", [convert_to_tensor(x), *fed], name=name or "strided_slice", key=key)


def _entries(t, n):
    known = constant_value(t)
    if known is not None:
        return [int(v) for v in np.ravel(known)]
    if t.op.type == "Pack":
        return [None if constant_value(i) is None else int(constant_value(i)) for i in t.op.inputs]
    return [None] * n


def _slice_infer(x, begin, size):
    shape = static_shape(x)
    if shape is None:
        return [(None, x.dtype)]
    out = []
    for d, b, s in zip(shape, _entries(begin, len(shape)), _entries(size, len(shape))):
        out.append(s if s is not None and s >= 0 else None if None in (d, b, s) else d - b)
    return [(tuple(out), x.dtype)]


def _slice_key(x, begin, size):
    begin, size = [int(b) for b in begin.tolist()], [int(s) for s in size.tolist()]
    for d, b, s in zip(x.shape, begin, size):
        if not (0 <= b <= d and (s == -1 or 0 <= s <= d - b)):
            raise InvalidArgumentError(f"slice: begin {begin} and size {size} do not fit in shape {x.shape}: "
                                       "each begin must be in [0, dim] and begin + size at most dim (size -1: "
                                       "to the end)")
    return tuple(_SLICE(b, d if s == -1 else b + s) for d, b, s in zip(x.shape, begin, size))


def _slice_grad(g, x, begin, size):
    out = get_array_module(g).zeros(x.shape, dtype=g.dtype)
    out[_slice_key(x, begin, size)] = g
    return out


register("Slice", lambda x, begin, size: x[_slice_key(x, begin, size)], infer=_slice_infer, view=True,
         grad=lambda op, g: [apply_op("SliceGrad", [g, *op.inputs]), None, None])
register("SliceGrad", _slice_grad, infer=lambda g, x, begin, size: [(x.shape, g.dtype)], fresh=True,
         grad=lambda op, gg: [apply_op("Slice", [gg, *op.inputs[2:]]), None, None, None])


def slice(input_, begin, size, name=None):  # noqa: A001 - TF1's name
    """The block of `input_` starting at `begin` with `size` elements along each dimension (size -1: to the
    end); begin and size may be Tensors or lists holding some."""
    x = convert_to_tensor(input_)
    begin, size = convert_to_tensor(begin), convert_to_tensor(size)
    for what, t in (("begin", begin), ("size", size)):
        if t.dtype.kind not in "iu" or t.ndim not in (None, 1) or (x.ndim is not None and t.shape[0] not in
                                                                     (None, x.ndim)):
            raise ValueError(f"slice: {what} must be an int vector with one entry per dimension of {x.name!r} "
                             f"(rank {x.ndim}), got {t.name!r} of dtype {t.dtype.name} and shape {t.shape}")
    return apply_op("Slice", [x, begin, size], name=name or "Slice")
