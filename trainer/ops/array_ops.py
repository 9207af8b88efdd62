"""Array ops: reshape, transpose, concat, cast, one_hot, argmax, slicing and shape helpers."""
import numpy as np

from .. import dtypes
from ..graph import Tensor
from .core_ops import convert_to_tensor
from .math_ops import mark_fresh
from .registry import apply_op, register


def _reshape_infer(x, shape):
    if -1 in shape and x.shape is not None and None not in x.shape:
        known = int(np.prod([d for d in shape if d != -1]))
        shape = tuple(int(np.prod(x.shape)) // max(known, 1) if d == -1 else d for d in shape)
    return [(tuple(None if d == -1 else d for d in shape), x.dtype)]


register("Reshape", np.reshape, infer=_reshape_infer, view=True,
         grad=lambda op, g: [reshape_like(g, op.inputs[0])])
register("ReshapeLike", lambda x, like: np.reshape(x, like.shape), view=True,
         infer=lambda x, like: [(like.shape, x.dtype)],
         grad=lambda op, g: [reshape_like(g, op.inputs[0]), None])


def reshape(tensor, shape, name=None):
    """The same values in a new shape; one dim may be -1 (inferred)."""
    shape = tuple(-1 if d is None else int(d) for d in shape)
    if shape.count(-1) > 1:
        raise ValueError(f"reshape takes at most one -1 (inferred) dimension, got shape {shape}")
    return apply_op("Reshape", [convert_to_tensor(tensor)], name=name or "Reshape", shape=shape)


def reshape_like(x, like):
    """x reshaped to `like`'s run-time shape."""
    return apply_op("ReshapeLike", [x, like], name="Reshape")


def _transpose_infer(x, axes):
    return [(None if x.shape is None else tuple(x.shape[a] for a in axes), x.dtype)]


register("Transpose", np.transpose, infer=_transpose_infer, view=True,
         grad=lambda op, g: [transpose(g, tuple(np.argsort(op.attrs["axes"])))])


def transpose(a, perm=None, name=None):
    """Permute the dimensions of `a` (reverse them when perm is None)."""
    a = convert_to_tensor(a)
    if perm is None:
        if a.ndim is None:
            raise ValueError(f"transpose of {a.name!r} needs perm=: its rank is unknown")
        perm = tuple(reversed(range(a.ndim)))
    return apply_op("Transpose", [a], name=name or "transpose", axes=tuple(int(p) for p in perm))


def _concat_infer(*values, axis):
    if any(v.shape is None for v in values):
        return [(None, values[0].dtype)]
    shape = list(values[0].shape)
    sizes = [v.shape[axis] for v in values]
    shape[axis] = None if None in sizes else sum(sizes)
    return [(tuple(shape), values[0].dtype)]


def _concat_slice(g, *values, axis, index):
    start = sum(v.shape[axis] for v in values[:index])
    key = (slice(None),) * (axis % g.ndim) + (slice(start, start + values[index].shape[axis]),)
    return g[key]


register("ConcatV2", lambda *values, axis: np.concatenate(values, axis=axis), infer=_concat_infer,
         grad=lambda op, g: [apply_op("ConcatSlice", [g, *op.inputs], axis=op.attrs["axis"], index=i)
                             for i in range(len(op.inputs))])
register("ConcatSlice", _concat_slice, view=True,
         infer=lambda g, *values, axis, index: [(values[index].shape, g.dtype)])


def concat(values, axis, name=None):
    """Join tensors along an existing axis."""
    values = [convert_to_tensor(v) for v in values]
    rank = values[0].ndim
    axis = int(axis) % rank if rank is not None else int(axis)
    return apply_op("ConcatV2", values, name=name or "concat", axis=axis)


def _cast_grad(op, g):
    x = op.inputs[0]
    if x.dtype.kind == "f" and op.outputs[0].dtype.kind == "f":
        return [cast(g, x.dtype)]
    return [None]


register("Cast", lambda x, dtype: x.astype(dtype, copy=False), view=True,
         infer=lambda x, dtype: [(x.shape, dtype)], grad=_cast_grad)


def cast(x, dtype, name=None):
    """x converted to `dtype`."""
    x, dtype = convert_to_tensor(x), dtypes.as_dtype(dtype)
    if x.dtype == dtype:
        return x
    return apply_op("Cast", [x], name=name or "Cast", dtype=dtype)


def _one_hot(indices, depth, on_value, off_value, dtype):
    hot = np.expand_dims(indices, -1) == np.arange(depth)
    return np.where(hot, on_value, off_value).astype(dtype)


register("OneHot", _one_hot,
         infer=lambda i, depth, on_value, off_value, dtype: [((*(i.shape or ()), depth) if i.shape is not None
                                                               else None, dtype)])


def one_hot(indices, depth, on_value=1.0, off_value=0.0, dtype=dtypes.float32, name=None):
    """Rows of a `depth`-wide identity picked by integer `indices` (out-of-range indices give all off_value)."""
    return apply_op("OneHot", [convert_to_tensor(indices)], name=name or "one_hot", depth=int(depth),
                    on_value=on_value, off_value=off_value, dtype=dtypes.as_dtype(dtype))


def _argmax_infer(x, axis):
    shape = None if x.shape is None else tuple(d for i, d in enumerate(x.shape) if i != axis % len(x.shape))
    return [(shape, dtypes.int64)]


register("ArgMax", lambda x, axis: np.argmax(x, axis=axis).astype(np.int64, copy=False), infer=_argmax_infer)


def argmax(input, axis=None, name=None):  # noqa: A002 - TF1's name
    """Index of the largest value along `axis` (int64)."""
    return apply_op("ArgMax", [convert_to_tensor(input)], name=name or "ArgMax", axis=0 if axis is None else int(axis))


register("Shape", lambda x: np.array(x.shape, dtype=np.int32),
         infer=lambda x: [((None if x.shape is None else len(x.shape),), dtypes.int32)])


def shape(input, name=None):  # noqa: A002 - TF1's name
    """The run-time shape of a tensor, as an int32 vector."""
    return apply_op("Shape", [convert_to_tensor(input)], name=name or "Shape")


def _slice_shape(shape, key):
    """Static shape of x[key] for basic indexing; None dims stay None."""
    if shape is None:
        return None
    n_real = sum(1 for k in key if k is not None and k is not Ellipsis)
    if Ellipsis in key:
        i = key.index(Ellipsis)
        key = key[:i] + (slice(None),) * (len(shape) - n_real) + key[i + 1:]
    key = key + (slice(None),) * (len(shape) - sum(1 for k in key if k is not None))
    out, dims = [], iter(shape)
    for k in key:
        if k is None:
            out.append(1)
            continue
        d = next(dims)
        if isinstance(k, slice):
            out.append(None if d is None else len(range(*k.indices(d))))
    return tuple(out)


register("StridedSlice", lambda x, key: x[key], view=True,
         infer=lambda x, key: [(_slice_shape(x.shape, key), x.dtype)],
         grad=lambda op, g: [apply_op("StridedSliceGrad", [g, op.inputs[0]], key=op.attrs["key"])])


def _strided_slice_grad(g, x, key):
    out = np.zeros(x.shape, dtype=g.dtype)
    out[key] = g
    return out


register("StridedSliceGrad", _strided_slice_grad, infer=lambda g, x, key: [(x.shape, g.dtype)],
         grad=lambda op, gg: [apply_op("StridedSlice", [gg], key=op.attrs["key"]), None])


def strided_slice(x, key, name=None):
    """x[key] for basic indexing: ints, slices, Ellipsis and None (new axis)."""
    key = key if isinstance(key, tuple) else (key,)
    for k in key:
        if isinstance(k, Tensor) or not (k is None or k is Ellipsis or isinstance(k, (slice, int, np.integer))):
            raise TypeError(f"Only ints, slices, ... and None can index a Tensor, got {k!r}")
    key = tuple(int(k) if isinstance(k, np.integer) else k for k in key)
    return apply_op("StridedSlice", [convert_to_tensor(x)], name=name or "strided_slice", key=key)



register("Zeros", lambda shape, dtype: np.zeros(shape, dtype=dtype), infer=lambda shape, dtype: [(shape, dtype)])
register("Ones", lambda shape, dtype: np.ones(shape, dtype=dtype), infer=lambda shape, dtype: [(shape, dtype)])


def _filled(op_type, shape, dtype, name):
    from ..graph import get_default_graph
    shape, dtype = tuple(int(d) for d in shape), dtypes.as_dtype(dtype)
    op = get_default_graph().create_op(op_type, [], [(shape, dtype)], name=name, attrs={"shape": shape, "dtype": dtype})
    return op.outputs[0]


def zeros(shape, dtype=dtypes.float32, name=None):
    """Zeros of a static `shape`, made when the op runs (no constant is stored in the graph)."""
    return _filled("Zeros", shape, dtype, name or "zeros")


def ones(shape, dtype=dtypes.float32, name=None):
    """Ones of a static `shape`, made when the op runs."""
    return _filled("Ones", shape, dtype, name or "ones")


mark_fresh("OneHot", "ConcatV2", "StridedSliceGrad", "Zeros", "Ones", "ArgMax", "Shape")
