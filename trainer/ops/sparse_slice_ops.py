"""SparseTensors cut, widened and made (tf.sparse): slice (with TF's gradient for the values), split, expand_dims,
to_indicator, reset_shape and eye, on the host like the other sparse ops."""
import numpy as np

from ..framework import dtypes
from ..framework.registry import apply_op, host_kernel, register
from ..platform.errors import InvalidArgumentError
from .core_ops import convert_to_tensor
from .sparse_ops import as_sparse, with_shape
from .sparse_tensor import SparseTensor
from .tensor_util import argument_lookup, constant_value, static_shape


def _slice(indices, values, shape, start, size):
    end = np.minimum(start + size, shape)
    keep = np.all((indices >= start) & (indices < end), axis=1) if indices.size else np.zeros(0, bool)
    return (indices[keep] - start).astype(np.int64), values[keep], np.maximum(end - start, 0).astype(np.int64)


def _slice_grad(g, indices, start, size, shape):
    end = np.minimum(start + size, shape)
    keep = np.all((indices >= start) & (indices < end), axis=1) if indices.size else np.zeros(0, bool)
    out = np.zeros(len(indices), dtype=g.dtype)
    out[keep] = g
    return out


def _slice_grad_rule(op, gi, gv, gs):
    if gv is None:
        return [None] * 5
    indices, _, shape, start, size = op.inputs
    return [None, apply_op("SparseSliceGrad", [gv, indices, start, size, shape]), None, None, None]


register("SparseSlice", kernel=host_kernel(_slice), fresh=True, grad=_slice_grad_rule,
         infer=lambda i, v, s, start, size: [((None, (static_shape(i) or (None, None))[1]), dtypes.int64),
                                            ((None,), v.dtype), (s.shape, dtypes.int64)])
register("SparseSliceGrad", kernel=host_kernel(_slice_grad), fresh=True,
         infer=lambda g, i, start, size, s: [((static_shape(i) or (None,))[:1], g.dtype)])


def sparse_slice(sp_input, start, size, name=None):
    """The entries of a SparseTensor inside the box [start, start + size) (clipped to its shape), moved to 0."""
    sp = as_sparse(sp_input, "sparse_slice")
    start, size = convert_to_tensor(start, dtype=dtypes.int64), convert_to_tensor(size, dtype=dtypes.int64)
    indices, values, shape = apply_op("SparseSlice", [sp.indices, sp.values, sp.dense_shape, start, size],
                                      name=name or "SparseSlice")
    return SparseTensor(indices, values, shape)


def _split(indices, values, shape, axis, num_split):
    size = int(shape[axis])
    sizes = [size // num_split + (1 if i < size % num_split else 0) for i in range(num_split)]
    pieces = []
    for offset, piece in zip(np.cumsum([0] + sizes[:-1]), sizes):
        start = np.zeros(len(shape), np.int64)
        start[axis] = offset
        span = shape.astype(np.int64).copy()
        span[axis] = piece
        pieces.append(_slice(indices, values, shape, start, span))
    return tuple(part[k] for k in range(3) for part in pieces)


def _split_infer(indices, values, shape, axis, num_split):
    rank = (static_shape(indices) or (None, None))[1]
    return ([((None, rank), dtypes.int64)] * num_split + [((None,), values.dtype)] * num_split
            + [(shape.shape, dtypes.int64)] * num_split)


register("SparseSplit", kernel=host_kernel(_split), fresh=True, infer=_split_infer)


def sparse_split(keyword_required=None, sp_input=None, num_split=None, axis=None, name=None, split_dim=None):
    """`num_split` SparseTensors along `axis`; when its size does not divide, the first pieces are one larger."""
    if keyword_required is not None:
        raise ValueError("sparse_split takes keyword arguments only: sp_input=, num_split=, axis=")
    axis = argument_lookup("axis", axis, "split_dim", split_dim)
    if sp_input is None or num_split is None or axis is None:
        raise ValueError("sparse_split needs sp_input, num_split and axis")
    sp = as_sparse(sp_input, "sparse_split")
    rank = sp.shape.ndims
    axis = int(axis) % rank if rank else int(axis)
    parts = apply_op("SparseSplit", [sp.indices, sp.values, sp.dense_shape], name=name or "SparseSplit",
                     axis=axis, num_split=int(num_split))
    parts = list(parts) if isinstance(parts, (list, tuple)) else [parts]
    n = int(num_split)
    return [SparseTensor(parts[i], parts[n + i], parts[2 * n + i]) for i in range(n)]


def _expand_dims(indices, values, shape, axis):
    return (np.insert(indices, axis, 0, axis=1).astype(np.int64), values,
            np.insert(shape, axis, 1).astype(np.int64))


register("SparseExpandDims", kernel=host_kernel(_expand_dims), fresh=True,
         infer=lambda i, v, s, axis: [((None if i.ndim != 2 else i.shape.as_list()[0],
                                        None if s.ndim != 1 or s.shape.as_list()[0] is None
                                        else s.shape.as_list()[0] + 1), dtypes.int64), (v.shape, v.dtype),
                                      ((None if s.ndim != 1 or s.shape.as_list()[0] is None
                                        else s.shape.as_list()[0] + 1,), dtypes.int64)])


def sparse_expand_dims(sp_input, axis=None, name=None):
    """The SparseTensor with a dimension of size 1 inserted at `axis` (-1: last)."""
    sp = as_sparse(sp_input, "sparse.expand_dims")
    rank = sp.shape.ndims
    if rank is None:
        raise ValueError("sparse.expand_dims needs a SparseTensor of known rank")
    axis = -1 if axis is None else int(axis)
    if not -rank - 1 <= axis <= rank:
        raise ValueError(f"sparse.expand_dims: axis {axis} is out of range for a tensor of rank {rank}")
    axis = axis % (rank + 1)
    indices, values, shape = apply_op("SparseExpandDims", [sp.indices, sp.values, sp.dense_shape],
                                      name=name or "ExpandDims", axis=axis)
    dims = sp.shape.as_list()
    return with_shape(SparseTensor(indices, values, shape), dims[:axis] + [1] + dims[axis:])


def _to_indicator(indices, values, shape, vocab_size):
    out = np.zeros(tuple(shape[:-1]) + (vocab_size,), bool)
    if values.size and (values.min() < 0 or values.max() >= vocab_size):
        raise InvalidArgumentError(f"sparse_to_indicator: value {int(values.max())} is not in [0, {vocab_size}): "
                                   "every id must be below vocab_size")
    out[tuple(indices[:, :-1].T) + (values,)] = True
    return out


register("SparseToIndicator", kernel=host_kernel(_to_indicator), fresh=True,
         infer=lambda i, v, s, vocab_size: [(None, dtypes.bool)])


def sparse_to_indicator(sp_input, vocab_size, name=None):
    """A dense bool tensor [..., vocab_size]: True at each row's ids (the SparseTensor's int values)."""
    sp = as_sparse(sp_input, "sparse_to_indicator")
    if sp.dtype not in (dtypes.int32, dtypes.int64):
        raise TypeError(f"sparse_to_indicator takes int32 or int64 ids, got {sp.dtype.name}")
    out = apply_op("SparseToIndicator", [sp.indices, sp.values, sp.dense_shape], name=name or "SparseToIndicator",
                   vocab_size=int(vocab_size))
    if sp.shape.ndims is not None:
        out.set_shape(sp.shape.as_list()[:-1] + [int(vocab_size)])
    return out


def _reset_shape(indices, shape, *new_shape):
    if not new_shape:
        return (indices.max(axis=0) + 1 if len(indices) else np.zeros(len(shape))).astype(np.int64)
    new = new_shape[0].astype(np.int64)
    if len(new) != len(shape) or np.any(new < shape):
        raise InvalidArgumentError(f"new_shape {new.tolist()} must have the rank of the SparseTensor's shape "
                                   f"{shape.tolist()} and be at least as large in every dimension")
    return new


register("SparseResetShape", kernel=host_kernel(_reset_shape), fresh=True,
         infer=lambda i, s, *new: [(s.shape, dtypes.int64)])


def sparse_reset_shape(sp_input, new_shape=None):
    """The SparseTensor with the dense shape `new_shape` (no smaller than its own), or by default the smallest that
    holds its entries."""
    sp = as_sparse(sp_input, "sparse_reset_shape")
    new = [] if new_shape is None else [convert_to_tensor(new_shape, dtype=dtypes.int64)]
    if new and new[0].ndim == 1 and sp.shape.ndims is not None and new[0].shape.as_list()[0] not in (
            None, sp.shape.ndims):
        raise ValueError(f"sparse_reset_shape: new_shape of rank {new[0].shape.as_list()[0]} for a SparseTensor of "
                         f"rank {sp.shape.ndims}")
    known, now = (None, None) if not new else (constant_value(new[0]), constant_value(sp.dense_shape))
    if known is not None and now is not None and len(known) == len(now) and np.any(known < now):
        raise ValueError(f"Requested new_shape should have dimension sizes >= sp_input.shape.  Found new_shape "
                         f"({known}), sp_input.shape ({now}).")
    shape = apply_op("SparseResetShape", [sp.indices, sp.dense_shape] + new, name="SparseResetShape")
    return SparseTensor(sp.indices, sp.values, shape)


def _eye(rows, columns, dtype):
    n = int(min(rows, columns))
    return (np.stack([np.arange(n), np.arange(n)], axis=1).astype(np.int64), np.ones(n, dtype.dtype),
            np.array([rows, columns], np.int64))


def _eye_infer(rows, columns, dtype):
    known = [constant_value(rows), constant_value(columns)]
    n = None if any(k is None for k in known) else int(min(np.ravel(k)[0] for k in known))
    return [((n, 2), dtypes.int64), ((n,), dtype), ((2,), dtypes.int64)]


register("SparseEye", kernel=host_kernel(_eye), fresh=True, infer=_eye_infer)


def sparse_eye(num_rows, num_columns=None, dtype=dtypes.float32, name=None):
    """The identity matrix [num_rows, num_columns] as a SparseTensor of ones on the diagonal."""
    rows = convert_to_tensor(num_rows, dtype=dtypes.int64)
    columns = rows if num_columns is None else convert_to_tensor(num_columns, dtype=dtypes.int64)
    indices, values, shape = apply_op("SparseEye", [rows, columns], name=name or "eye",
                                      dtype=dtypes.as_dtype(dtype))
    return SparseTensor(indices, values, shape)
