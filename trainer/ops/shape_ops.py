"""Ops on a tensor's dimensions: squeeze, expand_dims, size and rank, and BroadcastGradientArgs (which axes a
broadcast operand's gradient sums over, as TF's own gradient graphs compute it).

stack/unstack/split (stack_ops.py), tile/pad (pad_ops.py) and fill/range (fill_ops.py) used to live here
and are still importable from here.
"""
import numpy as np

from ..framework import dtypes
from .array_ops import reshape_like
from .core_ops import convert_to_tensor
from ..framework.registry import apply_op, host_kernel, register
from ..platform.errors import InvalidArgumentError
from .tensor_util import argument_lookup, normalize_axis, static_int, static_shape


def _squeeze_infer(x, axis):
    shape = static_shape(x)
    if shape is None:
        return [(None, x.dtype)]
    if axis is None:
        return [(None if None in shape else tuple(d for d in shape if d != 1), x.dtype)]
    for a in axis:
        if shape[a] not in (1, None):
            raise ValueError(f"Can not squeeze dim[{a}] of {x.name!r}: expected a dimension of 1, got {shape[a]}")
    return [(tuple(d for i, d in enumerate(shape) if i not in axis), x.dtype)]


register("Squeeze", lambda x, axis: np.squeeze(x, axis=axis), infer=_squeeze_infer, view=True,
         grad=lambda op, g: [reshape_like(g, op.inputs[0])])


def squeeze(input, axis=None, name=None, squeeze_dims=None):  # noqa: A002 - TF1's name
    """`input` without its size-1 dimensions (only those in `axis` when given)."""
    x = convert_to_tensor(input)
    axis = argument_lookup("axis", axis, "squeeze_dims", squeeze_dims)
    if axis is not None:
        axis = (axis,) if np.ndim(axis) == 0 else tuple(axis)
        axis = tuple(sorted(normalize_axis(int(a), x.ndim, "squeeze") for a in axis))
    return apply_op("Squeeze", [x], name=name or "Squeeze", axis=axis)


def _expand_dims_infer(x, axis):
    shape = static_shape(x)
    return [(None if shape is None else shape[:axis] + (1,) + shape[axis:], x.dtype)]


register("ExpandDims", lambda x, axis: np.expand_dims(x, axis), infer=_expand_dims_infer, view=True,
         grad=lambda op, g: [reshape_like(g, op.inputs[0])])


def expand_dims(input, axis=None, name=None, dim=None):  # noqa: A002 - TF1's name
    """`input` with a new size-1 dimension inserted at `axis` (negative counts from the end, -1 appends)."""
    x = convert_to_tensor(input)
    axis = argument_lookup("axis", axis, "dim", dim)
    if axis is None:
        raise ValueError("expand_dims needs axis= (or TF1's older dim=)")
    axis = static_int(axis, "expand_dims axis")
    if x.ndim is not None:
        if not -x.ndim - 1 <= axis <= x.ndim:
            raise ValueError(f"expand_dims: axis {axis} is out of range [{-x.ndim - 1}, {x.ndim}] for {x.name!r}")
        axis %= x.ndim + 1
    elif axis < 0:
        raise NotImplementedError(f"expand_dims with a negative axis needs {x.name!r} to have a known rank")
    return apply_op("ExpandDims", [x], name=name or "ExpandDims", axis=axis)


# Sizes are host metadata of the input: the session places the result where the other arrays live.
register("Size", kernel=lambda op, session: lambda x, to_device=session.to_device, out_type=op.attrs["out_type"]:
         to_device(np.array(x.size, dtype=out_type)), infer=lambda x, out_type: [((), out_type)], fresh=True)
register("Rank", kernel=lambda op, session: lambda x, to_device=session.to_device: to_device(
         np.array(x.ndim, dtype=np.int32)), infer=lambda x: [((), dtypes.int32)], fresh=True)


def size(input, name=None, out_type=dtypes.int32):  # noqa: A002 - TF1's name
    """The number of elements of `input`, as a scalar (int32 unless out_type says otherwise)."""
    return apply_op("Size", [convert_to_tensor(input)], name=name or "Size", out_type=dtypes.as_dtype(out_type))


def rank(input, name=None):  # noqa: A002 - TF1's name
    """The number of dimensions of `input`, as an int32 scalar."""
    return apply_op("Rank", [convert_to_tensor(input)], name=name or "Rank")


def _broadcast_gradient_args(s0, s1):
    """The axes of the broadcast shape that each operand's gradient sums over (TF's BCast): where the operand's
    dimension (left-padded with 1s) is 1; identical shapes need none."""
    x, y = [int(d) for d in np.ravel(s0)], [int(d) for d in np.ravel(s1)]
    out_dtype = np.result_type(s0)
    if x == y:
        return np.zeros(0, out_dtype), np.zeros(0, out_dtype)
    rank = max(len(x), len(y))
    x, y = [1] * (rank - len(x)) + x, [1] * (rank - len(y)) + y
    r0, r1 = [], []
    for i, (a, b) in enumerate(zip(x, y)):
        if a != b and 1 not in (a, b):
            raise InvalidArgumentError(f"Incompatible shapes: {np.ravel(s0).tolist()} vs. {np.ravel(s1).tolist()}")
        if a == 1:
            r0.append(i)
        if b == 1:
            r1.append(i)
    return np.array(r0, out_dtype), np.array(r1, out_dtype)


register("BroadcastGradientArgs", kernel=host_kernel(_broadcast_gradient_args), fresh=True,
         infer=lambda s0, s1: [((None,), s0.dtype), ((None,), s0.dtype)])


def _shape_n(*xs, out_type=dtypes.int32, **tf_attrs):
    return tuple(np.array(np.shape(x), dtype=np.dtype(out_type)) for x in xs)


def _concat_offset(concat_dim, *shapes, **tf_attrs):
    """Where each of a concatenation's inputs starts in its output (TF's gradient graphs slice by these)."""
    axis, offsets, start = int(concat_dim), [], 0
    for shape in shapes:
        offset = np.zeros(np.shape(shape), dtype=np.result_type(shape))
        offset[axis % len(offset)] = start
        offsets.append(offset)
        start += int(np.ravel(shape)[axis % len(offset)])
    return tuple(offsets)


# Built by the graphs TensorFlow writes (their gradients of concat and of several ops at once), read by import.
register("ShapeN", kernel=host_kernel(_shape_n), fresh=True,
         infer=lambda *xs, out_type=dtypes.int32, **a: [((x.ndim,), out_type) for x in xs])
register("ConcatOffset", kernel=host_kernel(_concat_offset), fresh=True,
         infer=lambda concat_dim, *shapes, **a: [(s.shape, s.dtype) for s in shapes])
