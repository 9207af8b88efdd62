"""Functions of shapes: shape_n, ensure_shape (a run-time check that also sharpens the static shape), and the
broadcast of two shapes, static (TensorShapes) or dynamic (shape tensors); and repeat, accumulate_n and
parallel_stack, which TF1 builds from such shapes."""
import numpy as np

from ..framework.registry import host_kernel
from ..framework import dtypes
from ..framework.graph_wrappers import name_scope
from ..framework.registry import apply_op, broadcast_shapes, register
from ..framework.tensor_shape import TensorShape
from ..platform.errors import InvalidArgumentError
from .array_ops import shape as shape_of
from .core_ops import convert_to_tensor
from .math_ops import add_n
from .stack_ops import stack
from .tensor_util import constant_value, static_shape


def _ensure_shape(x, shape):
    if len(shape) != x.ndim or any(d is not None and d != e for d, e in zip(shape, x.shape)):
        raise InvalidArgumentError(f"Shape of tensor {list(x.shape)} is not compatible with expected shape "
                                   f"{[-1 if d is None else d for d in shape]}.")
    return x


def _broadcast_args(s0, s1):
    a, b = [int(d) for d in s0], [int(d) for d in s1]
    try:
        return np.array(np.broadcast_shapes(tuple(a), tuple(b)), dtype=s0.dtype)
    except ValueError:
        raise InvalidArgumentError(f"Incompatible shapes: {a} vs. {b}") from None


def _repeat(x, repeats, axis):
    return np.repeat(x, repeats, axis=axis)


def _repeat_grad(g, x, repeats, axis):
    """Each input slice's gradient: the sum of the gradient over its copies."""
    counts = np.broadcast_to(repeats, (x.shape[axis],)) if np.ndim(repeats) == 0 else repeats
    starts = np.concatenate([[0], np.cumsum(counts)[:-1]]).astype(np.int64)
    if g.shape[axis] == 0:
        return np.zeros(x.shape, g.dtype)
    summed = np.add.reduceat(g, np.minimum(starts, g.shape[axis] - 1), axis=axis)
    empty = (np.asarray(counts) == 0).reshape([-1 if i == axis else 1 for i in range(g.ndim)])
    return np.where(empty, 0, summed).astype(g.dtype)


def _repeat_infer(x, repeats, axis):
    s, counts = static_shape(x), constant_value(repeats)
    if s is None:
        return [(None, x.dtype)]
    size = None
    # TF1's static size: a scalar count always, a vector of counts only along the last axis
    if counts is not None and s[axis] is not None and (np.ndim(counts) == 0 or axis == len(s) - 1):
        size = int(np.sum(np.broadcast_to(counts, (s[axis],))))
    return [(s[:axis] + (size,) + s[axis + 1:], x.dtype)]


def _broadcast_args_infer(a, b):
    known = [constant_value(t) for t in (a, b)]
    if all(k is not None for k in known):
        return [((max(np.size(known[0]), np.size(known[1])),), a.dtype)]
    lengths = [static_shape(t) for t in (a, b)]
    if None in lengths or None in (lengths[0][0], lengths[1][0]):
        return [((None,), a.dtype)]
    return [((max(lengths[0][0], lengths[1][0]),), a.dtype)]


register("EnsureShape", kernel=host_kernel(_ensure_shape),
         infer=lambda x, shape: [(TensorShape(x.shape).merge_with(shape), x.dtype)],
         grad=lambda op, g: [g])
register("BroadcastArgs", kernel=host_kernel(_broadcast_args), infer=_broadcast_args_infer, fresh=True)
register("Repeat", kernel=host_kernel(_repeat), infer=_repeat_infer, fresh=True,
         grad=lambda op, g: [apply_op("RepeatGrad", [g, op.inputs[0], op.inputs[1]], **op.attrs), None])
register("RepeatGrad", kernel=host_kernel(_repeat_grad), infer=lambda g, x, r, axis: [(x.shape, g.dtype)], fresh=True)


def shape_n(input, out_type=dtypes.int32, name=None):  # noqa: A002 - TF1's name
    """The run-time shape of each tensor in `input`."""
    with name_scope(name or "ShapeN"):
        return [shape_of(convert_to_tensor(t)) for t in input]


def ensure_shape(x, shape, name=None):
    """x, with its static shape merged with `shape` (None for any size); InvalidArgumentError when run if the
    actual shape does not match, ValueError now if the static one cannot."""
    x = convert_to_tensor(x)
    shape = TensorShape(shape)
    if not TensorShape(x.shape).is_compatible_with(shape):
        raise ValueError(f"Shape of tensor {x.name!r} {x.shape} is not compatible with expected shape {shape}")
    return apply_op("EnsureShape", [x], name=name or "EnsureShape", shape=shape)


def broadcast_static_shape(shape_x, shape_y):
    """The TensorShape two static shapes broadcast to; ValueError when they cannot."""
    x, y = TensorShape(shape_x), TensorShape(shape_y)
    try:
        return TensorShape(broadcast_shapes(x, y))
    except ValueError:
        raise ValueError(f"Incompatible shapes for broadcasting: {x} and {y}") from None


def broadcast_dynamic_shape(shape_x, shape_y):
    """The shape (an int vector) that tensors of shapes shape_x and shape_y broadcast to, computed when run."""
    x = convert_to_tensor(shape_x)
    return apply_op("BroadcastArgs", [x, convert_to_tensor(shape_y, dtype=x.dtype)], name="BroadcastArgs")


def repeat(input, repeats, axis=None, name=None):  # noqa: A002 - TF1's name
    """Each element (or slice along `axis`) repeated `repeats` times (a scalar, or one count per slice); with
    axis None the input is flattened first."""
    with name_scope(name or "Repeat"):
        x = convert_to_tensor(input)
        repeats = convert_to_tensor(repeats, dtype=dtypes.int32)
        if axis is None:
            x, axis = apply_op("Reshape", [x], shape=(-1,)), 0
        if x.ndim is None:
            raise NotImplementedError(f"repeat needs {x.name!r}'s rank known while building")
        axis = int(axis) % max(x.ndim, 1)
        return apply_op("Repeat", [x, repeats], axis=axis)


def accumulate_n(inputs, shape=None, tensor_dtype=None, name=None):
    """The sum of a list of tensors of one shape and dtype (add_n under TF1's other name)."""
    inputs = [convert_to_tensor(t) for t in inputs]
    if not inputs:
        raise ValueError("accumulate_n needs a non-empty list of tensors")
    if tensor_dtype is not None and any(t.dtype != dtypes.as_dtype(tensor_dtype) for t in inputs):
        raise TypeError(f"accumulate_n: every input must have dtype {dtypes.as_dtype(tensor_dtype).name}")
    if len({t.dtype for t in inputs}) > 1 or not all(t.shape.is_compatible_with(inputs[0].shape) for t in inputs):
        raise ValueError("accumulate_n: inputs must be a list of at least one Tensor with the same dtype and shape, "
                         f"got {[(t.name, t.dtype.name, tuple(t.shape)) for t in inputs]}")
    return add_n(inputs, name=name or "accumulate_n")


def parallel_stack(values, name="parallel_stack"):
    """stack along a new first axis, for inputs of fully known shape (TF1's form without the copies' ordering)."""
    values = [convert_to_tensor(v) for v in values]
    for v in values:
        if v.ndim is None or None in static_shape(v):
            raise ValueError(f"parallel_stack needs fully defined shapes, got {v.name!r} of shape {v.shape}")
    return stack(values, name=name)
