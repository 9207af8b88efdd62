"""Ops that rearrange SparseTensors (tf.sparse): to and from dense, reorder, reshape, transpose, concat, retain and
fill_empty_rows, each with TF1's gradient for its values (sparse_grad.py's rules), and the helpers the other sparse
ops share. The kernels work on the three parts as numpy arrays, on the host."""
import numpy as np

from ..framework import dtypes
from ..platform.errors import InvalidArgumentError
from ..framework.registry import apply_op, host_kernel, register
from .core_ops import convert_to_tensor
from .gather_ops import gather
from .array_ops import cast, reshape, shape as shape_of
from .math_ops import not_equal, where
from .sparse_tensor import SparseTensor, is_sparse
from .tensor_util import argument_lookup, constant_value, static_shape


def check_in_bounds(indices, shape, what):
    bad = np.nonzero(np.any((indices < 0) | (indices >= shape), axis=1))[0] if indices.size else []
    if len(bad):
        i = int(bad[0])
        raise InvalidArgumentError(f"{what}: indices[{i}] = {indices[i].tolist()} is out of bounds of the dense "
                                   f"shape {shape.tolist()}")


def row_major_order(indices, shape):
    """Each entry's row-major position in the dense tensor."""
    return np.ravel_multi_index(tuple(indices.T), tuple(shape)) if indices.size else np.zeros(0, np.int64)


def dense_of(indices, values, shape, what, default=0):
    check_in_bounds(indices, shape, what)
    out = np.full(tuple(shape), default, dtype=values.dtype)
    np.add.at(out, tuple(indices.T), values) if values.dtype != object else out.__setitem__(tuple(indices.T), values)
    return out


def _sparse_to_dense(indices, shape, values, default, validate_indices):
    indices = indices.reshape(-1, 1) if indices.ndim < 2 else indices
    shape = shape.reshape(-1)
    values = np.broadcast_to(values, indices.shape[:1])
    check_in_bounds(indices, shape, "SparseToDense")
    if validate_indices and len(indices) > 1:
        order = row_major_order(indices, shape)
        bad = np.nonzero(np.diff(order) <= 0)[0]
        if len(bad):
            i = int(bad[0]) + 1
            kind = "repeated" if order[i] == order[i - 1] else "out of order"
            raise InvalidArgumentError(f"SparseToDense: indices[{i}] = {indices[i].tolist()} is {kind}: give the "
                                       "indices sorted in row-major order without repeats (tf.sparse.reorder)")
    out = np.full(tuple(shape), default, dtype=values.dtype)
    out[tuple(indices.T)] = values
    return out


def _dense_infer(shape_tensor, dtype):
    known = constant_value(shape_tensor)
    if known is not None:
        return (tuple(int(d) for d in np.ravel(known)), dtype)
    rank = static_shape(shape_tensor)
    return (None if not rank or rank[0] is None else (None,) * rank[0], dtype)


def gather_nd_values(params, indices):
    return params[tuple(np.moveaxis(indices, -1, 0))]


def _default_grad(g, indices):
    return np.asarray(g.sum() - gather_nd_values(g, indices).sum(), dtype=g.dtype)


def _gather_nd_grad(g, indices, params):
    out = np.zeros(params.shape, dtype=g.dtype)
    np.add.at(out, tuple(np.moveaxis(indices, -1, 0)), g)
    return out


register("SparseToDense", kernel=host_kernel(_sparse_to_dense), fresh=True,
         infer=lambda i, s, v, d, validate_indices: [_dense_infer(s, v.dtype)],
         grad=lambda op, g: [None, None, values_at(g, op.inputs[0]),
                             apply_op("SparseDefaultGrad", [g, op.inputs[0]])])
register("SparseDefaultGrad", kernel=host_kernel(_default_grad),
         infer=lambda g, i: [((), g.dtype)], fresh=True)
register("SparseGatherNd", kernel=host_kernel(gather_nd_values), fresh=True,
         infer=lambda g, i: [((static_shape(i) or (None,))[:1], g.dtype)],
         grad=lambda op, gg: [apply_op("SparseScatterNd", [gg, op.inputs[1], op.inputs[0]]), None])
register("SparseScatterNd", kernel=host_kernel(_gather_nd_grad), fresh=True,
         infer=lambda g, i, params: [(params.shape, g.dtype)])


def values_at(dense, indices):
    """The entries of the dense `dense` at a sparse tensor's indices (TF's gather_nd in sparse_grad.py)."""
    return apply_op("SparseGatherNd", [dense, indices])


def _reorder(indices, values, shape):
    perm = np.argsort(row_major_order(indices, shape), kind="stable")
    return indices[perm], values[perm]


def _reorder_grad(g, indices, shape):
    out = np.empty_like(g)
    out[np.argsort(row_major_order(indices, shape), kind="stable")] = g
    return out


register("SparseReorder", kernel=host_kernel(_reorder), fresh=True,
         infer=lambda i, v, s: [(i.shape, i.dtype), (v.shape, v.dtype)],
         grad=lambda op, gi, gv: [None, None if gv is None else apply_op(
             "SparseReorderGrad", [gv, op.inputs[0], op.inputs[2]]), None])
register("SparseReorderGrad", kernel=host_kernel(_reorder_grad), fresh=True,
         infer=lambda g, i, s: [(g.shape, g.dtype)])


def _reshape(indices, shape, new_shape):
    new_shape = new_shape.astype(np.int64).copy()
    size = int(np.prod(shape))
    unknown = np.nonzero(new_shape == -1)[0]
    if len(unknown) > 1:
        raise InvalidArgumentError(f"SparseReshape: at most one dimension may be -1, got {new_shape.tolist()}")
    if len(unknown):
        rest = int(np.prod(new_shape[new_shape != -1]))
        if rest == 0 or size % rest:
            raise InvalidArgumentError(f"SparseReshape: cannot infer the -1 of {new_shape.tolist()} for a tensor "
                                       f"of {size} entries (shape {shape.tolist()})")
        new_shape[unknown[0]] = size // rest
    if int(np.prod(new_shape)) != size:
        raise InvalidArgumentError(f"SparseReshape: a tensor of shape {shape.tolist()} ({size} entries) cannot "
                                   f"take the shape {new_shape.tolist()}")
    flat = row_major_order(indices, shape)
    out = np.stack(np.unravel_index(flat, tuple(new_shape)), axis=1) if flat.size else np.zeros(
        (0, len(new_shape)), np.int64)
    return out.astype(np.int64), new_shape


def _reshape_infer(indices, shape, new_shape):
    known = constant_value(new_shape)
    rank = (static_shape(new_shape) or (None,))[0] if known is None else len(np.ravel(known))
    return [(((static_shape(indices) or (None,))[0], rank), dtypes.int64), ((rank,), dtypes.int64)]


register("SparseReshape", kernel=host_kernel(_reshape), fresh=True, infer=_reshape_infer)


def _concat(*parts, axis, n):
    indices, values, shapes = parts[:n], parts[n:2 * n], parts[2 * n:]
    rank = len(shapes[0])
    for shape in shapes[1:]:
        if len(shape) != rank or any(a != b for d, (a, b) in enumerate(zip(shape, shapes[0])) if d != axis):
            raise InvalidArgumentError(f"SparseConcat: input shapes {[s.tolist() for s in shapes]} must match "
                                       f"in every dimension but the concat dimension {axis}")
    offsets = np.cumsum([0] + [int(s[axis]) for s in shapes[:-1]])
    moved = [ix + np.eye(rank, dtype=np.int64)[axis] * off for ix, off in zip(indices, offsets)]
    out_shape = shapes[0].copy()
    out_shape[axis] = sum(int(s[axis]) for s in shapes)
    out_indices = np.concatenate(moved).reshape(-1, rank)
    out_values = np.concatenate(values)
    perm = np.argsort(row_major_order(out_indices, out_shape), kind="stable")
    return out_indices[perm], out_values[perm], out_shape


def _concat_infer(*parts, axis, n):
    rank = (static_shape(parts[0]) or (None, None))[1]
    counts = [(static_shape(v) or (None,))[0] for v in parts[n:2 * n]]
    total = None if None in counts else sum(counts)
    return [((total, rank), dtypes.int64), ((total,), parts[n].dtype), ((rank,), dtypes.int64)]


register("SparseConcat", kernel=host_kernel(_concat), fresh=True, infer=_concat_infer)


def _fill_empty_rows(indices, values, shape, default):
    rows = int(shape[0]) if len(shape) else 0
    have = np.zeros(rows, bool)
    have[indices[:, 0]] = True
    empty = np.nonzero(~have)[0]
    fill = np.zeros((len(empty), len(shape)), np.int64)
    fill[:, 0] = empty
    all_indices = np.concatenate([indices, fill]).astype(np.int64)
    all_values = np.concatenate([values, np.full(len(empty), default, dtype=values.dtype)])
    perm = np.argsort(row_major_order(all_indices, shape), kind="stable")
    reverse = np.empty(len(values), np.int64)
    reverse[perm[perm < len(values)]] = np.nonzero(perm < len(values))[0]
    return all_indices[perm], all_values[perm], ~have, reverse


def _fill_empty_rows_grad(g, reverse):
    mask = np.ones(len(g), bool)
    mask[reverse] = False
    return g[reverse], np.asarray(g[mask].sum(), dtype=g.dtype)


def _fill_empty_rows_grad_rule(op, gi, gv, ge, gr):
    if gv is None:
        return [None] * 4
    values, default = apply_op("SparseFillEmptyRowsGrad", [gv, op.outputs[3]])
    return [None, values, None, default]


register("SparseFillEmptyRows", kernel=host_kernel(_fill_empty_rows), fresh=True, grad=_fill_empty_rows_grad_rule,
         infer=lambda i, v, s, d: [((None, (static_shape(i) or (None, None))[1]), dtypes.int64),
                                   ((None,), v.dtype), ((_dim0(s),), dtypes.bool),
                                   ((static_shape(i) or (None,))[:1], dtypes.int64)])


def _dim0(dense_shape):
    known = constant_value(dense_shape)
    return None if known is None or not np.size(known) else int(np.ravel(known)[0])
register("SparseFillEmptyRowsGrad", kernel=host_kernel(_fill_empty_rows_grad), fresh=True,
         infer=lambda g, r: [(static_shape(r), g.dtype), ((), g.dtype)])


def as_sparse(sp_input, what):
    if not is_sparse(sp_input):
        raise TypeError(f"{what} takes a SparseTensor, got {type(sp_input).__name__} {sp_input!r}; make one with "
                        "tf.SparseTensor(indices, values, dense_shape) or tf.sparse.from_dense")
    return SparseTensor.from_value(sp_input)


def sparse_to_dense(sparse_indices, output_shape, sparse_values, default_value=0, validate_indices=True, name=None):
    """A dense tensor of `output_shape` holding `sparse_values` at `sparse_indices` and `default_value` elsewhere."""
    values = convert_to_tensor(sparse_values)
    indices = convert_to_tensor(sparse_indices)
    return apply_op("SparseToDense", [indices, convert_to_tensor(output_shape, dtype=indices.dtype), values,
                                      convert_to_tensor(default_value, dtype=values.dtype)],
                    name=name or "SparseToDense", validate_indices=bool(validate_indices))


def sparse_tensor_to_dense(sp_input, default_value=None, validate_indices=True, name=None):
    """The dense tensor a SparseTensor stands for (`default_value`, 0 or b"", where it has no entry)."""
    sp = as_sparse(sp_input, "sparse_tensor_to_dense")
    if default_value is None:
        default_value = b"" if sp.dtype == dtypes.string else 0
    return sparse_to_dense(sp.indices, sp.dense_shape, sp.values, default_value, validate_indices,
                           name=name or "SparseToDense")


def from_dense(tensor, name=None):
    """The SparseTensor of a dense tensor's non-zero entries, in row-major order."""
    x = convert_to_tensor(tensor)
    zero = convert_to_tensor(b"" if x.dtype == dtypes.string else np.zeros((), x.dtype.dtype), dtype=x.dtype)
    indices = where(not_equal(x, zero))
    return SparseTensor(indices, apply_op("SparseGatherNd", [x, indices]), cast(shape_of(x), dtypes.int64))


def sparse_reorder(sp_input, name=None):
    """The same SparseTensor with its entries in row-major order (what to_dense's validation asks for)."""
    sp = as_sparse(sp_input, "sparse_reorder")
    indices, values = apply_op("SparseReorder", [sp.indices, sp.values, sp.dense_shape], name=name or "SparseReorder")
    return with_shape(SparseTensor(indices, values, sp.dense_shape), sp.shape)


def with_shape(sp, shape):
    sp.set_shape(shape)
    return sp


def sparse_reshape(sp_input, shape, name=None):
    """The SparseTensor reshaped to `shape` (one -1 is inferred), its entries keeping their row-major positions."""
    sp = as_sparse(sp_input, "sparse_reshape")
    known, new = constant_value(sp.dense_shape), constant_value(shape)
    if known is not None and new is not None and -1 not in np.ravel(new) and np.prod(known) != np.prod(new):
        raise ValueError(f"Cannot reshape a tensor with {int(np.prod(known))} elements to shape "
                         f"{np.ravel(new).tolist()} ({int(np.prod(new))} elements)")
    indices, dense_shape = apply_op("SparseReshape", [sp.indices, sp.dense_shape,
                                                      convert_to_tensor(shape, dtype=dtypes.int64)],
                                    name=name or "SparseReshape")
    out = SparseTensor(indices, sp.values, dense_shape)
    if known is not None and new is not None:
        new = np.ravel(new).astype(np.int64)
        if -1 in new:
            new[new == -1] = np.prod(known) // max(1, np.prod(new[new != -1]))
        out = with_shape(out, new.tolist())
    return out


def sparse_concat(axis, sp_inputs, name=None, expand_nonconcat_dim=False, concat_dim=None,
                  expand_nonconcat_dims=None):
    """The SparseTensors joined along `axis` (their other dims must match), entries in row-major order."""
    axis = argument_lookup("axis", axis, "concat_dim", concat_dim)
    if expand_nonconcat_dim or expand_nonconcat_dims:
        raise NotImplementedError("sparse_concat's expand_nonconcat_dim is not available in ringflow: give inputs "
                                  "whose other dimensions match (tf.sparse.reset_shape is not available either)")
    inputs = [as_sparse(sp, "sparse_concat") for sp in sp_inputs]
    rank = inputs[0].shape.ndims
    axis = int(axis) % rank if rank else int(axis)
    parts = [sp.indices for sp in inputs] + [sp.values for sp in inputs] + [sp.dense_shape for sp in inputs]
    indices, values, shape = apply_op("SparseConcat", parts, name=name or "SparseConcat", axis=axis, n=len(inputs))
    out = SparseTensor(indices, values, shape)
    shapes = [sp.shape for sp in inputs]
    if rank is not None and all(s.ndims is not None for s in shapes):
        dims = [None if any(s[d] is None for s in shapes) else sum(s[d] for s in shapes) if d == axis
                else shapes[0][d] for d in range(rank)]
        out = with_shape(out, dims)
    return out


def sparse_retain(sp_input, to_retain):
    """The entries of a SparseTensor where the bool vector `to_retain` is true; the dense shape stays."""
    sp = as_sparse(sp_input, "sparse_retain")
    keep = convert_to_tensor(to_retain)
    if keep.ndim is not None and keep.ndim != 1:
        raise ValueError(f"sparse_retain: to_retain must be a vector, got shape {keep.shape}")
    rows = reshape(where(keep), [-1])
    return with_shape(SparseTensor(gather(sp.indices, rows), gather(sp.values, rows),
                                    apply_op("Identity", [sp.dense_shape])), sp.shape)


def sparse_fill_empty_rows(sp_input, default_value, name=None):
    """(the SparseTensor with an entry of `default_value` at column 0 of each empty row, which rows were empty)."""
    sp = as_sparse(sp_input, "sparse_fill_empty_rows")
    indices, values, empty, _ = apply_op("SparseFillEmptyRows", [sp.indices, sp.values, sp.dense_shape,
                                                                 convert_to_tensor(default_value, dtype=sp.dtype)],
                                         name=name or "SparseFillEmptyRows")
    return with_shape(SparseTensor(indices, values, sp.dense_shape), sp.shape), empty


def sparse_transpose(sp_input, perm=None, name=None):
    """The SparseTensor with its dimensions permuted (reversed by default), entries in row-major order."""
    sp = as_sparse(sp_input, "sparse_transpose")
    rank = sp.shape.ndims
    if perm is None:
        if rank is None:
            raise ValueError("sparse_transpose without perm needs a SparseTensor of known rank")
        perm = list(range(rank))[::-1]
    perm = [int(p) for p in np.ravel(constant_value(perm))]
    indices = gather(sp.indices, perm, axis=1)
    shape = gather(sp.dense_shape, perm)
    out = sparse_reorder(SparseTensor(indices, sp.values, shape), name=name)
    return out if rank is None else with_shape(out, [sp.shape[p] for p in perm])


