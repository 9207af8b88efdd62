"""Reductions of SparseTensors (tf.sparse): reduce_sum (with TF's gradient for the values), reduce_max and the
_sparse forms that return the reduced positions present, and the segment reductions (rows gathered by indices, then
summed by segment), on the host like the other sparse ops."""
import numpy as np

from ..framework import dtypes
from ..framework.graph_wrappers import control_dependencies
from ..framework.registry import apply_op, host_kernel, register
from .array_ops import cast, concat, reshape, shape as shape_of
from .check_ops import Assert
from .core_ops import convert_to_tensor
from .gather_ops import gather
from .math_ops import greater_equal, maximum, ones_like, sqrt
from .reduction_ops import reduce_all
from .segment_ops import segment_sum, unsorted_segment_sum
from .sparse_ops import as_sparse, dense_of, gather_nd_values
from .sparse_tensor import SparseTensor
from .tensor_util import argument_lookup, constant_value, static_shape


def _reduced(shape, axes, keep_dims):
    axes = sorted({int(a) % len(shape) for a in np.ravel(axes)}) if axes is not None else list(range(len(shape)))
    return [1 if d in axes else s for d, s in enumerate(shape)] if keep_dims else [
        s for d, s in enumerate(shape) if d not in axes], axes


def _reduce_sum(indices, values, shape, axes, keep_dims):
    dense = dense_of(indices, values, shape, "SparseReduceSum")
    out, axes = _reduced(shape.tolist(), axes, keep_dims)
    return dense.sum(axis=tuple(axes)).reshape(out).astype(values.dtype)


def _reduce_sum_infer(indices, values, shape, axes, keep_dims):
    known, ax = constant_value(shape), constant_value(axes)
    if known is None or ax is None:
        return [(None, values.dtype)]
    return [(tuple(_reduced(list(np.ravel(known)), ax, keep_dims)[0]), values.dtype)]


def _reduce_sum_grad(g, indices, shape, axes):
    kept, _ = _reduced(shape.tolist(), axes, True)
    return gather_nd_values(g.reshape(kept), np.minimum(indices, np.array(kept) - 1))


register("SparseReduceSum", kernel=host_kernel(_reduce_sum), fresh=True, infer=_reduce_sum_infer,
         grad=lambda op, g: [None, apply_op("SparseReduceSumGrad", [g, *op.inputs[:1], *op.inputs[2:]]), None, None])
register("SparseReduceSumGrad", kernel=host_kernel(_reduce_sum_grad), fresh=True,
         infer=lambda g, i, s, a: [(((static_shape(i) or (None,))[0],), g.dtype)])


def sparse_reduce_sum(sp_input, axis=None, keepdims=None, reduction_axes=None, keep_dims=None):
    """The sum of a SparseTensor's entries over `axis` (all by default), as a dense tensor."""
    sp = as_sparse(sp_input, "sparse_reduce_sum")
    axis = argument_lookup("axis", axis, "reduction_axes", reduction_axes)
    keepdims = bool(argument_lookup("keepdims", keepdims, "keep_dims", keep_dims))
    if axis is None:
        rank = sp.shape.ndims
        if rank is None:
            raise ValueError("sparse_reduce_sum over every axis needs a SparseTensor of known rank; give axis")
        axis = list(range(rank))
    return apply_op("SparseReduceSum", [sp.indices, sp.values, sp.dense_shape,
                                        convert_to_tensor(axis, dtype=dtypes.int32)],
                    name="SparseReduceSum", keep_dims=keepdims)


def _segment_parts(data, indices, segment_ids, what):
    data, indices = convert_to_tensor(data), convert_to_tensor(indices)
    ids = convert_to_tensor(segment_ids)
    for part, t in (("indices", indices), ("segment_ids", ids)):
        if t.dtype not in (dtypes.int32, dtypes.int64):
            raise TypeError(f"{what}: {part} must be int32 or int64, got {t.name!r} of dtype {t.dtype.name}")
    return gather(data, indices), ids


def sparse_segment_sum(data, indices, segment_ids, name=None, num_segments=None):
    """The rows data[indices] summed by segment_ids (sorted ids; any order with num_segments)."""
    rows, ids = _segment_parts(data, indices, segment_ids, "sparse_segment_sum")
    if num_segments is None:
        return segment_sum(rows, ids)
    with control_dependencies([_sorted_check(ids)]):  # TF's kernel wants sorted ids with num_segments too
        return unsorted_segment_sum(rows, ids, num_segments)


def _sorted_check(ids):
    ordered = reduce_all(greater_equal(ids[1:], ids[:-1]))
    return Assert(ordered, ["segment ids are not increasing: sort them (tf.sparse.segment_* adds them up in order)",
                            ids])


def _segment_counts(rows, ids, num_segments):
    ones = cast(ones_like(ids), rows.dtype)
    if num_segments is None:
        return segment_sum(ones, ids)
    with control_dependencies([_sorted_check(ids)]):
        return unsorted_segment_sum(ones, ids, num_segments)


def _per_row(counts, rows):
    return reshape(counts, concat([shape_of(counts), ones_like(shape_of(rows))[1:]], 0))


def sparse_segment_mean(data, indices, segment_ids, name=None, num_segments=None):
    """The rows data[indices] averaged by segment_ids (a segment with no rows gives zeros)."""
    rows, ids = _segment_parts(data, indices, segment_ids, "sparse_segment_mean")
    total = sparse_segment_sum(data, indices, segment_ids, num_segments=num_segments)
    counts = _segment_counts(rows, ids, num_segments)
    return total / _per_row(maximum(counts, ones_like(counts)), rows)


def sparse_segment_sqrt_n(data, indices, segment_ids, name=None, num_segments=None):
    """The rows data[indices] summed by segment_ids and divided by the square root of each segment's count."""
    rows, ids = _segment_parts(data, indices, segment_ids, "sparse_segment_sqrt_n")
    total = sparse_segment_sum(data, indices, segment_ids, num_segments=num_segments)
    counts = _segment_counts(rows, ids, num_segments)
    return total / _per_row(sqrt(maximum(counts, ones_like(counts))), rows)


def _groups(indices, shape, axes, keep_dims):
    """Each entry's index in the reduced output, and the output's shape."""
    out, axes = _reduced(shape.tolist(), axes, keep_dims)
    kept = [d for d in range(len(shape)) if d not in axes]
    where_to = indices.copy()
    where_to[:, axes] = 0
    return (where_to if keep_dims else where_to[:, kept]), out


def _reduce_present(indices, values, shape, axes, keep_dims, largest, sparse_output):
    groups, out_shape = _groups(indices, shape, axes, keep_dims)
    keys = [tuple(g) for g in groups.tolist()]
    found = {}
    for key, value in zip(keys, values.tolist()):
        found[key] = value if key not in found else (max if largest else lambda a, b: a + b)(found[key], value)
    if sparse_output:
        ordered = sorted(found)
        return (np.array(ordered, np.int64).reshape(-1, len(out_shape)), np.array([found[k] for k in ordered],
                                                                                  dtype=values.dtype),
                np.array(out_shape, np.int64))
    out = np.zeros(out_shape, values.dtype)  # a group without entries is 0, as in TF
    for key, value in found.items():
        out[key] = value
    return out


def _present_infer(indices, values, shape, axes, keep_dims, largest, sparse_output):
    if sparse_output:  # TF leaves even the ranks unknown
        return [(None, dtypes.int64), (None, values.dtype), (None, dtypes.int64)]
    return _reduce_sum_infer(indices, values, shape, axes, keep_dims)


register("SparseReducePresent", kernel=host_kernel(_reduce_present), fresh=True, infer=_present_infer)


def _reduce_present_op(sp_input, axis, keepdims, reduction_axes, keep_dims, largest, sparse_output, what):
    sp = as_sparse(sp_input, what)
    axis = argument_lookup("axis", axis, "reduction_axes", reduction_axes)
    keepdims = bool(argument_lookup("keepdims", keepdims, "keep_dims", keep_dims))
    if axis is None:
        if sp.shape.ndims is None:
            raise ValueError(f"{what} over every axis needs a SparseTensor of known rank; give axis")
        axis = list(range(sp.shape.ndims))
    op_type = ("SparseReduceMax" if largest else "SparseReduceSum") + ("Sparse" if sparse_output else "")
    out = apply_op("SparseReducePresent", [sp.indices, sp.values, sp.dense_shape,
                                           convert_to_tensor(axis, dtype=dtypes.int32)],
                   name=op_type, keep_dims=keepdims, largest=largest, sparse_output=sparse_output)
    return SparseTensor(*out) if sparse_output else out


def sparse_reduce_max(sp_input, axis=None, keepdims=None, reduction_axes=None, keep_dims=None):
    """The largest of a SparseTensor's entries over `axis` (missing entries take no part; 0 where none is)."""
    return _reduce_present_op(sp_input, axis, keepdims, reduction_axes, keep_dims, True, False, "sparse_reduce_max")


def sparse_reduce_max_sparse(sp_input, axis=None, keepdims=None, reduction_axes=None, keep_dims=None):
    """sparse_reduce_max as a SparseTensor of the reduced positions that had entries."""
    return _reduce_present_op(sp_input, axis, keepdims, reduction_axes, keep_dims, True, True,
                              "sparse_reduce_max_sparse")


def sparse_reduce_sum_sparse(sp_input, axis=None, keepdims=None, reduction_axes=None, keep_dims=None):
    """sparse_reduce_sum as a SparseTensor of the reduced positions that had entries."""
    return _reduce_present_op(sp_input, axis, keepdims, reduction_axes, keep_dims, False, True,
                              "sparse_reduce_sum_sparse")
