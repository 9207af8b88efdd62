"""Shapes and sizes given as Tensors, TF1's way.

A shape argument may be Python ints, a TensorShape, an int vector Tensor (tg.shape(x)), or a list mixing ints
and scalar Tensors ([tg.shape(x)[0], 10], packed by convert_to_tensor). What is known of it while building is
its static shape, as TF1's shape inference reads it (tensor_util.constant_value_as_shape): tg.shape(x) gives
x's static shape, tg.shape(x)[0] gives x's first static dimension, and a constant gives its values.
"""
import numpy as np

from ..framework import dtypes
from ..framework.tensor import Tensor
from ..framework.tensor_shape import TensorShape
from .core_ops import convert_to_tensor
from .tensor_util import constant_value, holds_tensor, static_shape


def known_shape(shape):
    """The static dims of a shape argument: a tuple of ints and None (unknown), or None for an unknown rank."""
    if isinstance(shape, (int, np.integer)):  # TF1 takes tg.zeros(3) as tg.zeros([3])
        return (int(shape),)
    if not isinstance(shape, Tensor):
        shape = convert_to_tensor(shape, dtype=dtypes.int32) if holds_tensor(shape) else shape
    if not isinstance(shape, Tensor):
        return tuple(TensorShape(shape).as_list())
    known = constant_value(shape)
    if known is not None:
        return tuple(None if d < 0 else int(d) for d in np.ravel(known))
    op = shape.op
    if op.type == "Shape":
        return static_shape(op.inputs[0])
    if op.type == "Pack" and shape.ndim == 1:
        return tuple(known_dim(t) for t in op.inputs)
    if op.type == "ConcatV2":
        parts = [known_shape(t) for t in op.inputs]
        return None if any(p is None for p in parts) else sum(parts, ())
    if op.type == "StridedSlice" and op.inputs[0].op.type == "Shape":
        dims = static_shape(op.inputs[0].op.inputs[0])
        key = op.attrs["key"]
        if dims is not None and len(key) == 1 and isinstance(key[0], slice):
            return dims[key[0]]
    if op.type in ("Identity", "Cast"):
        return known_shape(op.inputs[0])
    n = (static_shape(shape) or (None,))[0] if shape.ndim == 1 else None
    return None if n is None else (None,) * n


def known_dim(t):
    """The value of a scalar size while building (an int), or None when only the run knows it."""
    known = constant_value(t)
    if known is not None:
        return None if int(known) < 0 else int(known)
    op = t.op
    if op.type == "StridedSlice" and op.inputs[0].op.type == "Shape":
        dims = static_shape(op.inputs[0].op.inputs[0])
        key = op.attrs["key"]
        if dims is not None and len(key) == 1 and isinstance(key[0], (int, np.integer)):
            return dims[key[0]]
    if op.type in ("Identity", "Cast"):
        return known_dim(op.inputs[0])
    return None


def shape_argument(shape, what):
    """(static dims, Tensor or None): a shape argument as the static dims it is known to have and, when the run
    must still compute it, the int vector Tensor that holds it."""
    static = known_shape(shape)
    if static is not None and None not in static:
        if any(d < 0 for d in static):
            raise ValueError(f"{what}: a shape has no negative dimensions, got {list(static)!r}")
        return static, None
    tensor = shape if isinstance(shape, Tensor) else convert_to_tensor(shape, dtype=dtypes.int32)
    if tensor.dtype.kind not in "iu" or tensor.ndim not in (None, 1):
        raise ValueError(f"{what}: a shape Tensor is a vector of ints, got {tensor.name!r} of dtype "
                         f"{tensor.dtype.name} and shape {tensor.shape}")
    return static, tensor
