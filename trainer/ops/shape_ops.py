"""Ops that rearrange values: squeeze, expand_dims, stack/unstack, split, tile, pad, and fill/range/size/rank."""
import builtins

import numpy as np

from .. import dtypes
from ..graph import Tensor
from .array_ops import concat, reshape_like
from .core_ops import convert_to_tensor
from .math_ops import zeros_like
from .reduction_ops import reduce_sum
from .registry import apply_op, get_array_module, register
from .tensor_util import argument_lookup, constant_value, static_shape


def _static_ints(value, what):
    """A list of ints known while building (Python values or a constant Tensor), else a clear error."""
    known = constant_value(value)
    if known is None:
        raise NotImplementedError(f"{what} {value.name!r} is computed while the graph runs; "
                                  "give it as Python ints (or a constant)")
    return [int(v) for v in np.ravel(known)]


def _norm_axis(axis, rank, what):
    if rank is None:
        return axis
    if not -rank <= axis < rank:
        raise ValueError(f"{what}: axis {axis} is out of range for a tensor of rank {rank}")
    return axis % rank


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
        axis = tuple(sorted(_norm_axis(int(a), x.ndim, "squeeze") for a in axis))
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
    axis = int(constant_value(axis))
    if x.ndim is not None:
        if not -x.ndim - 1 <= axis <= x.ndim:
            raise ValueError(f"expand_dims: axis {axis} is out of range [{-x.ndim - 1}, {x.ndim}] for {x.name!r}")
        axis %= x.ndim + 1
    elif axis < 0:
        raise NotImplementedError(f"expand_dims with a negative axis needs {x.name!r} to have a known rank")
    return apply_op("ExpandDims", [x], name=name or "ExpandDims", axis=axis)


def _merge_shapes(values, what):
    shapes = [static_shape(v) for v in values if v.ndim is not None]
    if not shapes:
        return None
    if len({len(s) for s in shapes}) > 1:
        raise ValueError(f"{what} needs tensors of one shape, got {[v.shape for v in values]}")
    merged = []
    for dims in zip(*shapes):
        known = {d for d in dims if d is not None}
        if len(known) > 1:
            raise ValueError(f"{what} needs tensors of one shape, got {[v.shape for v in values]}")
        merged.append(known.pop() if known else None)
    return tuple(merged)


def _pack_infer(*values, axis):
    shape = _merge_shapes(values, "stack")
    return [(None if shape is None else shape[:axis] + (len(values),) + shape[axis:], values[0].dtype)]


def _fill_missing(grads, outputs):
    return [zeros_like(t) if g is None else g for g, t in zip(grads, outputs)]


register("Pack", lambda *values, axis: np.stack(values, axis=axis), infer=_pack_infer,
         grad=lambda op, g: unstack(g, num=len(op.inputs), axis=op.attrs["axis"]), fresh=True)


def stack(values, axis=0, name="stack"):
    """Join same-shaped tensors along a new axis."""
    values = [convert_to_tensor(v) for v in values]
    if not values:
        raise ValueError("stack needs at least one tensor")
    rank = values[0].ndim
    axis = int(axis)
    if rank is not None:
        if not -rank - 1 <= axis <= rank:
            raise ValueError(f"stack: axis {axis} is out of range [{-rank - 1}, {rank}] for tensors of rank {rank}")
        axis %= rank + 1
    return apply_op("Pack", values, name=name, axis=axis)


def _unpack_infer(x, num, axis):
    shape = static_shape(x)
    return [(None if shape is None else shape[:axis] + shape[axis + 1:], x.dtype)] * num


register("Unpack", lambda x, num, axis: tuple(np.moveaxis(x, axis, 0)), infer=_unpack_infer, view=True,
         grad=lambda op, *g: [stack(_fill_missing(g, op.outputs), axis=op.attrs["axis"])])


def unstack(value, num=None, axis=0, name="unstack"):
    """The list of slices of `value` along `axis` (its size must be known, or given as num)."""
    x = convert_to_tensor(value)
    axis = _norm_axis(int(axis), x.ndim, "unstack")
    if axis < 0:
        raise NotImplementedError(f"unstack with a negative axis needs {x.name!r} to have a known rank")
    if num is None:
        num = None if x.ndim is None else static_shape(x)[axis]
        if num is None:
            raise ValueError(f"Cannot infer num from shape {x.shape} of {x.name!r}: pass num=")
    out = apply_op("Unpack", [x], name=name, num=int(num), axis=axis)
    return [out] if isinstance(out, Tensor) else list(out)


def _split_infer(x, sizes, axis):
    shape = static_shape(x)
    if shape is None:
        return [(None, x.dtype)] * len(sizes)
    return [(shape[:axis] + (None if s == -1 else s,) + shape[axis + 1:], x.dtype) for s in sizes]


def _split(x, sizes, axis):
    if -1 in sizes:
        sizes = [x.shape[axis] - (builtins.sum(sizes) + 1) if s == -1 else s for s in sizes]
    if builtins.sum(sizes) != x.shape[axis]:
        raise ValueError(f"split sizes {list(sizes)} do not add up to the dimension {x.shape[axis]} being split")
    return tuple(get_array_module(x).split(x, np.cumsum(sizes)[:-1].tolist(), axis=axis))


for _type in ("Split", "SplitV"):
    register(_type, _split, infer=_split_infer, view=True,
             grad=lambda op, *g: [concat(_fill_missing(g, op.outputs), axis=op.attrs["axis"])])


def split(value, num_or_size_splits, axis=0, num=None, name="split"):
    """Split `value` along `axis` into num_or_size_splits equal parts, or into parts of the listed sizes
    (one size may be -1: the rest)."""
    x = convert_to_tensor(value)
    axis = _norm_axis(int(constant_value(axis)), x.ndim, "split")
    dim = None if x.ndim is None else static_shape(x)[axis]
    if np.ndim(constant_value(num_or_size_splits)) == 0:
        parts = int(constant_value(num_or_size_splits))
        if dim is None:
            raise NotImplementedError(f"split into {parts} parts needs dimension {axis} of {x.name!r} to be known")
        if parts <= 0 or dim % parts:
            raise ValueError(f"Dimension size must be evenly divisible by {parts} but is {dim}: cannot split "
                             f"{x.name!r} (shape {x.shape}) along axis {axis}")
        op_type, sizes = "Split", [dim // parts] * parts
    else:
        op_type, sizes = "SplitV", _static_ints(num_or_size_splits, "split sizes")
        if sizes.count(-1) > 1 or (dim is not None and -1 not in sizes and builtins.sum(sizes) != dim):
            raise ValueError(f"split sizes {sizes} must add up to dimension {axis} of {x.name!r} ({dim}), "
                             "with at most one -1")
        if dim is not None and -1 in sizes:
            sizes[sizes.index(-1)] = dim - (builtins.sum(sizes) + 1)
    out = apply_op(op_type, [x], name=name, sizes=tuple(sizes), axis=axis)
    return [out] if isinstance(out, Tensor) else list(out)


def _tile_grad(g, x, multiples):
    interleaved = [d for m, s in zip(multiples, x.shape) for d in (m, s)]
    return np.reshape(g, interleaved).sum(axis=tuple(builtins.range(0, len(interleaved), 2)))


register("Tile", lambda x, multiples: np.tile(x, multiples),
         infer=lambda x, multiples: [(None if x.ndim is None else tuple(
             None if d is None else d * m for d, m in zip(static_shape(x), multiples)), x.dtype)],
         grad=lambda op, g: [apply_op("TileGrad", [g, op.inputs[0]], multiples=op.attrs["multiples"])], fresh=True)
register("TileGrad", _tile_grad, infer=lambda g, x, multiples: [(x.shape, g.dtype)],
         grad=lambda op, gg: [tile(gg, op.attrs["multiples"]), None], fresh=True)


def tile(input, multiples, name=None):  # noqa: A002 - TF1's name
    """`input` repeated multiples[i] times along each dimension i."""
    x = convert_to_tensor(input)
    multiples = tuple(_static_ints(multiples, "tile multiples"))
    if x.ndim is not None and len(multiples) != x.ndim:
        raise ValueError(f"tile needs one multiple per dimension of {x.name!r} (rank {x.ndim}), got {multiples}")
    return apply_op("Tile", [x], name=name or "Tile", multiples=multiples)


_PAD_TYPES = {"CONSTANT": "PadV2", "REFLECT": "MirrorPad", "SYMMETRIC": "MirrorPad"}


def _pad(x, paddings, mode, constant_values):
    xp = get_array_module(x)
    if mode == "CONSTANT":
        return xp.pad(x, paddings, constant_values=constant_values[()])
    return xp.pad(x, paddings, mode=mode.lower())


def _pad_grad(g, x, paddings, mode, constant_values):
    if mode == "CONSTANT":
        return g[tuple(slice(before, before + d) for (before, _), d in zip(paddings, x.shape))]
    # A mirrored element receives the gradient of every padded position that copies it.
    xp = get_array_module(g)
    source = xp.pad(xp.arange(x.size).reshape(x.shape), paddings, mode=mode.lower())
    return xp.bincount(source.ravel(), weights=g.ravel(), minlength=x.size).reshape(x.shape).astype(g.dtype)


def _pad_infer(x, paddings, mode, constant_values):
    if x.ndim is None:
        return [(None, x.dtype)]
    return [(tuple(None if d is None else d + a + b for d, (a, b) in zip(static_shape(x), paddings)), x.dtype)]


for _type in ("Pad", "PadV2", "MirrorPad"):
    register(_type, _pad, infer=_pad_infer, grad=lambda op, g: [apply_op("PadGrad", [g, op.inputs[0]], **op.attrs)],
             fresh=True)
register("PadGrad", _pad_grad, infer=lambda g, x, **attrs: [(x.shape, g.dtype)], view=True,  # CONSTANT: a slice
         grad=lambda op, gg: [apply_op(_PAD_TYPES[op.attrs["mode"]], [gg], **op.attrs), None])


def pad(tensor, paddings, mode="CONSTANT", name=None, constant_values=0):  # noqa: A002 - TF1's name
    """`tensor` padded by paddings[i] = [before, after] along dimension i: with constant_values (CONSTANT), or
    mirrored without (REFLECT) or with (SYMMETRIC) the edge element."""
    x = convert_to_tensor(tensor)
    mode = str(mode).upper()
    if mode not in _PAD_TYPES:
        raise ValueError(f"pad mode must be one of {sorted(_PAD_TYPES)} (any case), got {mode!r}")
    flat = _static_ints(paddings, "pad paddings")
    if len(flat) % 2 or (x.ndim is not None and len(flat) != 2 * x.ndim):
        raise ValueError(f"pad needs paddings of shape [rank, 2] ([{x.ndim}, 2] for {x.name!r}), got {paddings!r}")
    pairs = tuple((flat[i], flat[i + 1]) for i in builtins.range(0, len(flat), 2))
    limit = 0 if mode == "REFLECT" else 1  # REFLECT leaves out the edge element, SYMMETRIC repeats it
    for d, (a, b) in zip(static_shape(x) or (), pairs):
        if min(a, b) < 0 or (mode != "CONSTANT" and d is not None and max(a, b) > d - 1 + limit):
            raise ValueError(f"pad: paddings {pairs} are invalid for {x.name!r} of shape {x.shape} in mode {mode}")
    op_type = "Pad" if mode == "CONSTANT" and constant_values == 0 else _PAD_TYPES[mode]
    value = np.asarray(constant_values, dtype=x.dtype)
    return apply_op(op_type, [x], name=name or "Pad", paddings=pairs, mode=mode, constant_values=value)


def _fill_infer(dims, value):
    known = constant_value(dims)
    if known is not None:
        return [(tuple(int(d) for d in known), value.dtype)]
    n = (static_shape(dims) or [None])[0]
    return [(None if n is None else (None,) * n, value.dtype)]


register("Fill", lambda dims, value: get_array_module(value).full(tuple(int(d) for d in dims), value, dtype=value.dtype),
         infer=_fill_infer, grad=lambda op, g: [None, reduce_sum(g)], fresh=True)


def fill(dims, value, name=None):
    """A tensor of shape `dims` (a list or an int vector Tensor such as tg.shape(x)) filled with scalar `value`."""
    if not isinstance(dims, Tensor):
        dims = convert_to_tensor(np.asarray(dims, dtype=np.int32).reshape(-1), name="dims")
    value = convert_to_tensor(value)
    if value.shape not in (None, ()):
        raise ValueError(f"fill needs a scalar value, got shape {value.shape} ({value.name!r})")
    return apply_op("Fill", [dims, value], name=name or "Fill")


_RANGE_ORDER = [dtypes.int32, dtypes.int64, dtypes.float32, dtypes.float64]


def _range(start, limit, delta):
    if delta == 0:
        raise ValueError("range needs delta != 0, got 0")
    return np.arange(start, limit, delta, dtype=start.dtype)


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
    args = [convert_to_tensor(v) for v in (start, limit, delta)]
    if dtype is None:
        dtype = builtins.max((a.dtype for a in args), key=lambda d: _RANGE_ORDER.index(d) if d in _RANGE_ORDER else 0)
    dtype = dtypes.as_dtype(dtype)
    args = [a if a.dtype == dtype else apply_op("Cast", [a], dtype=dtype) for a in args]
    return apply_op("Range", args, name=name)


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

