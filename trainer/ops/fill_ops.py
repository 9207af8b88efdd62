"""Ops that make a tensor from sizes and numbers rather than from another tensor's values: fill, range and
linspace.

Separate from shape_ops.py because their inputs are shapes and bounds; their static shapes are known only
where those are constants.
"""
import builtins
import math

import numpy as np

from ..framework import dtypes
from ..framework.tensor import Tensor
from ..framework.graph_wrappers import name_scope
from .array_ops import cast
from .core_ops import convert_to_tensor
from .cwise_ops import stop_gradient
from .math_ops import maximum
from .reduction_ops import reduce_sum
from ..framework.registry import apply_op, get_array_module, register
from .stack_ops import stack
from .tensor_util import constant_value
from .shape_tensors import known_shape


def _fill_infer(dims, value):
    return [(known_shape(dims), value.dtype)]


def _fill(dims, value):
    """np.full(dims, value); a host value of zero bits (tf.zeros of a shape the run gives: an RNN's zero state,
    every step) is np.zeros, one call against np.full's Python wrapper, empty and copyto: 0.5 us against 1.9."""
    shape = tuple(dims.tolist())
    if type(value) is np.ndarray:
        v = value.item()
        if v == 0 and (type(v) in (int, bool) or type(v) is float and math.copysign(1.0, v) > 0):  # not -0.0
            return np.zeros(shape, dtype=value.dtype)
    return get_array_module(value).full(shape, value, dtype=value.dtype)


register("Fill", _fill, infer=_fill_infer, grad=lambda op, g: [None, reduce_sum(g)], fresh=True)


def fill(dims, value, name=None):
    """A tensor of shape `dims` (a list or an int vector Tensor such as tg.shape(x)) filled with scalar `value`."""
    if isinstance(dims, (list, tuple)) and any(isinstance(d, Tensor) for d in dims):  # TF1 packs [n, 3] into a vector
        kind = next(d.dtype for d in dims if isinstance(d, Tensor))
        dims = stack([convert_to_tensor(d, dtype=kind) for d in dims], name="dims")
    if not isinstance(dims, Tensor):
        dims = convert_to_tensor(dims, dtype=dtypes.int32, name="dims")
    value = convert_to_tensor(value)
    if value.shape not in (None, ()):
        raise ValueError(f"fill needs a scalar value, got shape {value.shape} ({value.name!r})")
    return apply_op("Fill", [dims, value], name=name or "Fill")


_RANGE_ORDER = [dtypes.int32, dtypes.int64, dtypes.float32, dtypes.float64]


def _range(start, limit, delta):
    if delta == 0:
        raise ValueError("range needs delta != 0, got 0")
    # the bounds are scalars: read them as numbers, and build the sequence where the inputs live (CuPy too)
    return get_array_module(start).arange(start.item(), limit.item(), delta.item(), dtype=start.dtype)


def _range_infer(start, limit, delta):
    values = [constant_value(t) for t in (start, limit, delta)]
    if any(v is None for v in values) or values[2] == 0:
        return [((None,), start.dtype)]
    return [((len(np.arange(*values)),), start.dtype)]


register("Range", _range, infer=_range_infer, fresh=True)


def range(start, limit=None, delta=1, dtype=None, name="range"):  # noqa: A001 - TF1's name
    """The numbers start, start + delta, ... below `limit` (range(n) counts 0 .. n-1), as a 1-D tensor."""
    if limit is None:
        start, limit = 0, start
    with name_scope(name or "Range") as scope:
        # TF's graph: numbers become Consts of the dtype asked for ("range/start"), other tensors are cast to it,
        # and the Range node's Tidx is that dtype
        args = [v if isinstance(v, Tensor) else convert_to_tensor(v, dtype=dtype, name=what)
                for v, what in zip((start, limit, delta), ("start", "limit", "delta"))]
        if dtype is None:
            dtype = builtins.max((a.dtype for a in args),
                                 key=lambda d: _RANGE_ORDER.index(d) if d in _RANGE_ORDER else 0)
        dtype = dtypes.as_dtype(dtype)
        args = [a if a.dtype == dtype else cast(a, dtype) for a in args]
        return apply_op("Range", args, name=scope)


def linspace(start, stop, num, name=None):
    """`num` evenly spaced values from start to stop inclusive (start + i * (stop - start) / (num - 1)); num may be
    a scalar Tensor. No gradient flows back, as TF1 declares its LinSpace NotDifferentiable."""
    with name_scope(name or "LinSpace"):
        start = convert_to_tensor(start)
        stop = convert_to_tensor(stop, dtype=None if isinstance(stop, Tensor) else start.dtype)
        if start.dtype.kind != "f":
            raise TypeError(f"linspace needs floating point start and stop, got {start.name!r} of dtype "
                            f"{start.dtype.name}")
        num = convert_to_tensor(num)
        steps = cast(maximum(num - 1, 1), start.dtype)  # num == 1 gives [start]
        return stop_gradient(start + cast(range(num), start.dtype) * ((stop - start) / steps))


lin_space = linspace  # TF1's older name
