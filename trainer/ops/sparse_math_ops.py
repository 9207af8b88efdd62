"""Arithmetic on SparseTensors (tf.sparse): add (sparse + sparse, sparse + dense), the sparse-dense matmul, maximum,
minimum and softmax, each with TF1's gradient for the values where TF has one (sparse_grad.py's rules); the kernels
scatter the values into the dense tensor where that is simplest, as TF's CPU kernels do for these small ops."""
import numpy as np

from ..framework import dtypes
from ..framework.registry import apply_op, host_kernel, register
from ..platform.errors import InvalidArgumentError
from .array_ops import transpose
from .core_ops import convert_to_tensor
from .sparse_ops import as_sparse, check_in_bounds, dense_of, values_at, with_shape
from .sparse_tensor import SparseTensor, is_sparse
from .tensor_util import argument_lookup, constant_value, static_shape


def _index_map(indices):
    return {tuple(row): i for i, row in enumerate(indices.tolist())}


def _sparse_add(a_indices, a_values, a_shape, b_indices, b_values, b_shape, thresh):
    if not np.array_equal(a_shape, b_shape):
        raise InvalidArgumentError(f"SparseAdd: operands do not have the same dense shape: {a_shape.tolist()} and "
                                   f"{b_shape.tolist()}")
    sums = {}
    for indices, values in ((a_indices, a_values), (b_indices, b_values)):
        for row, value in zip(map(tuple, indices.tolist()), values):
            sums[row] = sums.get(row, 0) + value
    keys = sorted(k for k, v in sums.items() if abs(v) >= thresh)
    out_indices = np.array(keys, dtype=np.int64).reshape(-1, len(a_shape))
    return out_indices, np.array([sums[k] for k in keys], dtype=a_values.dtype), a_shape


def _sparse_add_grad(g, a_indices, b_indices, sum_indices):
    at = _index_map(sum_indices)
    pick = [np.array([g[at[row]] if row in at else 0 for row in map(tuple, ix.tolist())], dtype=g.dtype)
            for ix in (a_indices, b_indices)]
    return pick[0], pick[1]


def _sparse_add_grad_rule(op, gi, gv, gs):
    if gv is None:
        return [None] * 7
    a, b = apply_op("SparseAddGrad", [gv, op.inputs[0], op.inputs[3], op.outputs[0]])
    return [None, a, None, None, b, None, None]


register("SparseAdd", kernel=host_kernel(_sparse_add), fresh=True, grad=_sparse_add_grad_rule,
         infer=lambda ai, av, ash, bi, bv, bsh, t: [((None, (static_shape(ai) or (None, None))[1]), dtypes.int64),
                                                  ((None,), av.dtype), (ash.shape, dtypes.int64)])
register("SparseAddGrad", kernel=host_kernel(_sparse_add_grad), fresh=True,
         infer=lambda g, ai, bi, si: [(((static_shape(ai) or (None,))[0],), g.dtype),
                                      (((static_shape(bi) or (None,))[0],), g.dtype)])


def _dense_add(indices, values, shape, b):
    out = np.array(b, copy=True)
    check_in_bounds(indices, np.asarray(b.shape), "SparseTensorDenseAdd")
    np.add.at(out, tuple(indices.T), values)
    return out


register("SparseTensorDenseAdd", kernel=host_kernel(_dense_add), fresh=True,
         infer=lambda i, v, s, b: [(b.shape, b.dtype)],
         grad=lambda op, g: [None, values_at(g, op.inputs[0]), None, g])


def _matmul(indices, values, shape, b, adjoint_a, adjoint_b):
    if len(shape) != 2:
        raise InvalidArgumentError(f"SparseTensorDenseMatMul: the sparse operand must be a matrix, got dense shape "
                                   f"{shape.tolist()}")
    a = dense_of(indices, values, shape, "SparseTensorDenseMatMul")
    a, b = (a.conj().T if adjoint_a else a), (b.conj().T if adjoint_b else b)
    if a.shape[1] != b.shape[0]:
        raise InvalidArgumentError(f"SparseTensorDenseMatMul: cannot multiply A of shape {list(a.shape)} by B of "
                                   f"shape {list(b.shape)} (adjoint_a={adjoint_a}, adjoint_b={adjoint_b})")
    return (a @ b).astype(b.dtype)


def _matmul_infer(indices, values, shape, b, adjoint_a, adjoint_b):
    known, bs = constant_value(shape), static_shape(b) or (None, None)
    rows = None if known is None else int(np.ravel(known)[1 if adjoint_a else 0])
    return [((rows, bs[0] if adjoint_b else bs[1]), b.dtype)]


def _matmul_values_grad(g, indices, b, adjoint_a, adjoint_b):
    rows, cols = (indices[:, 1], indices[:, 0]) if adjoint_a else (indices[:, 0], indices[:, 1])
    b = b.conj().T if adjoint_b else b
    return np.einsum("nk,nk->n", g[rows], b[cols]).astype(g.dtype)


def _matmul_grad(op, g):
    indices, values, shape, b = op.inputs
    adjoint_a, adjoint_b = op.attrs["adjoint_a"], op.attrs["adjoint_b"]
    b_grad = apply_op("SparseTensorDenseMatMul", [indices, values, shape, g], adjoint_a=not adjoint_a,
                      adjoint_b=False)
    if adjoint_b:
        b_grad = transpose(b_grad)
    return [None, apply_op("SparseMatMulValuesGrad", [g, indices, b], adjoint_a=adjoint_a, adjoint_b=adjoint_b),
            None, b_grad]


register("SparseTensorDenseMatMul", kernel=host_kernel(_matmul), fresh=True, infer=_matmul_infer, grad=_matmul_grad)
register("SparseMatMulValuesGrad", kernel=host_kernel(_matmul_values_grad), fresh=True,
         infer=lambda g, i, b, adjoint_a, adjoint_b: [(((static_shape(i) or (None,))[0],), g.dtype)])


def sparse_add(a, b, threshold=None, thresh=None):
    """a + b: a SparseTensor when both are sparse (sums smaller in magnitude than `threshold` dropped), else dense."""
    threshold = argument_lookup("threshold", threshold, "thresh", thresh) or 0
    if not is_sparse(a) and not is_sparse(b):
        raise TypeError("sparse_add needs at least one SparseTensor operand; add two dense tensors with tf.add")
    if not is_sparse(a):
        a, b = b, a
    a = SparseTensor.from_value(a)
    if not is_sparse(b):
        b = convert_to_tensor(b, dtype=a.dtype)
        return apply_op("SparseTensorDenseAdd", [a.indices, a.values, a.dense_shape, b], name="SparseTensorDenseAdd")
    b = SparseTensor.from_value(b)
    if not a.shape.is_compatible_with(b.shape):
        raise ValueError(f"Shapes {a.shape} and {b.shape} are incompatible: sparse_add needs operands of one shape")
    thresh = convert_to_tensor(np.asarray(threshold, dtype=a.dtype.dtype))
    indices, values, shape = apply_op("SparseAdd", [a.indices, a.values, a.dense_shape, b.indices, b.values,
                                                    b.dense_shape, thresh], name="SparseAdd")
    return with_shape(SparseTensor(indices, values, shape), a.shape)


def sparse_tensor_dense_matmul(sp_a, b, adjoint_a=False, adjoint_b=False, name=None):
    """The matrix product of a sparse matrix and a dense one (either adjoint first)."""
    sp = as_sparse(sp_a, "sparse_tensor_dense_matmul")
    b = convert_to_tensor(b)
    if b.dtype != sp.dtype:
        raise TypeError(f"sparse_tensor_dense_matmul: the SparseTensor holds {sp.dtype.name} and b {b.name!r} is "
                        f"{b.dtype.name}; cast one of them")
    a_shape = None if sp.shape.ndims is None else tuple(sp.shape.as_list())
    b_shape = static_shape(b)
    if a_shape is not None and b_shape is not None and len(a_shape) == len(b_shape) == 2:
        inner, other = a_shape[0 if adjoint_a else 1], b_shape[1 if adjoint_b else 0]
        if None not in (inner, other) and inner != other:
            raise ValueError(f"Dimensions must be equal, but are {inner} and {other} for sparse_tensor_dense_matmul "
                             f"of A {list(a_shape)} (adjoint_a={adjoint_a}) and B {list(b_shape)} "
                             f"(adjoint_b={adjoint_b})")
    return apply_op("SparseTensorDenseMatMul", [sp.indices, sp.values, sp.dense_shape, b],
                    name=name or "SparseTensorDenseMatMul", adjoint_a=bool(adjoint_a), adjoint_b=bool(adjoint_b))


def _extremum(a_indices, a_values, a_shape, b_indices, b_values, b_shape, largest):
    if not np.array_equal(a_shape, b_shape):
        raise InvalidArgumentError(f"Operands do not have the same ranks or shapes: {a_shape.tolist()} and "
                                   f"{b_shape.tolist()}")
    a, b = _index_map(a_indices), _index_map(b_indices)
    keys = sorted(set(a) | set(b))
    pick = np.maximum if largest else np.minimum
    zero = np.zeros((), a_values.dtype)
    values = [pick(a_values[a[k]] if k in a else zero, b_values[b[k]] if k in b else zero) for k in keys]
    return (np.array(keys, np.int64).reshape(-1, len(a_shape)), np.array(values, dtype=a_values.dtype))


def _extremum_infer(ai, av, ash, bi, bv, bsh, largest):
    return [((None, None), dtypes.int64), ((None,), av.dtype)]  # TF leaves the rank unknown too


register("SparseSparseExtremum", kernel=host_kernel(_extremum), fresh=True, infer=_extremum_infer)


def _sparse_extremum(sp_a, sp_b, largest, name):
    a, b = as_sparse(sp_a, name), as_sparse(sp_b, name)
    if a.dtype != b.dtype:
        raise TypeError(f"{name}: the operands hold {a.dtype.name} and {b.dtype.name}; cast one of them")
    if not a.shape.is_compatible_with(b.shape):
        raise ValueError(f"Shapes {a.shape} and {b.shape} are incompatible: {name} needs operands of one shape")
    op_type = "SparseSparseMaximum" if largest else "SparseSparseMinimum"
    indices, values = apply_op("SparseSparseExtremum", [a.indices, a.values, a.dense_shape, b.indices, b.values,
                                                        b.dense_shape], name=op_type, largest=largest)
    return with_shape(SparseTensor(indices, values, a.dense_shape), a.shape)


def sparse_maximum(sp_a, sp_b, name=None):
    """The elementwise maximum of two SparseTensors of one shape (a missing entry counts as 0)."""
    return _sparse_extremum(sp_a, sp_b, True, "sparse_maximum")


def sparse_minimum(sp_a, sp_b, name=None):
    """The elementwise minimum of two SparseTensors of one shape (a missing entry counts as 0)."""
    return _sparse_extremum(sp_a, sp_b, False, "sparse_minimum")


def _rows_of(indices):
    """Each entry's row: the position of its index less the last dimension among the distinct ones."""
    return np.unique(indices[:, :-1], axis=0, return_inverse=True)[1].reshape(-1) if len(indices) else \
        np.zeros(0, np.int64)


def _softmax(indices, values, shape):
    if len(shape) < 2:
        raise InvalidArgumentError(f"Input should have rank >= 2, but received shape: {shape.tolist()}")
    rows = _rows_of(indices)
    top = np.full(rows.max() + 1 if rows.size else 0, -np.inf, values.dtype)
    np.maximum.at(top, rows, values)
    e = np.exp(values - top[rows])
    total = np.zeros_like(top)
    np.add.at(total, rows, e)
    return (e / total[rows]).astype(values.dtype)


def _softmax_grad(g, y, indices):
    rows = _rows_of(indices)
    dot = np.zeros(rows.max() + 1 if rows.size else 0, g.dtype)
    np.add.at(dot, rows, g * y)
    return ((g - dot[rows]) * y).astype(g.dtype)


register("SparseSoftmax", kernel=host_kernel(_softmax), fresh=True, infer=lambda i, v, s: [(v.shape, v.dtype)],
         grad=lambda op, g: [None, apply_op("SparseSoftmaxGrad", [g, op.outputs[0], op.inputs[0]]), None])
register("SparseSoftmaxGrad", kernel=host_kernel(_softmax_grad), fresh=True,
         infer=lambda g, y, i: [(g.shape, g.dtype)])


def sparse_softmax(sp_input, name=None):
    """The softmax over the entries each row (all but the last index) holds; missing entries take no part."""
    sp = as_sparse(sp_input, "sparse_softmax")
    if sp.dtype.kind != "f":
        raise TypeError(f"sparse_softmax takes floating values, got {sp.dtype.name}")
    values = apply_op("SparseSoftmax", [sp.indices, sp.values, sp.dense_shape], name=name or "SparseSoftmax")
    return with_shape(SparseTensor(sp.indices, values, sp.dense_shape), sp.shape)


def _sequences(indices, values):
    rows = {}
    for index, value in sorted(zip(map(tuple, indices.tolist()), values.tolist())):
        rows.setdefault(index[:-1], []).append(value)
    return rows


def _levenshtein(a, b):
    previous = list(range(len(b) + 1))
    for i, x in enumerate(a, 1):
        current = [i]
        for j, y in enumerate(b, 1):
            current.append(min(previous[j] + 1, current[j - 1] + 1, previous[j - 1] + (x != y)))
        previous = current
    return previous[-1]


def _edit_distance(h_indices, h_values, h_shape, t_indices, t_values, t_shape, normalize):
    if len(h_shape) != len(t_shape):
        raise InvalidArgumentError(f"hypothesis and truth must have the same rank, got {len(h_shape)} and "
                                   f"{len(t_shape)}")
    out_shape = np.maximum(h_shape, t_shape)[:-1]
    hyp, truth = _sequences(h_indices, h_values), _sequences(t_indices, t_values)
    out = np.zeros(tuple(out_shape), np.float32)
    with np.errstate(divide="ignore", invalid="ignore"):  # an empty truth gives inf (or nan), as in TF
        for index in set(hyp) | set(truth):
            a, b = hyp.get(index, []), truth.get(index, [])
            distance = np.float32(_levenshtein(a, b))
            out[index] = distance / np.float32(len(b)) if normalize else distance
    return out


register("EditDistance", kernel=host_kernel(_edit_distance), fresh=True,
         infer=lambda hi, hv, hs, ti, tv, ts, normalize: [(None, dtypes.float32)])


def edit_distance(hypothesis, truth, normalize=True, name="edit_distance"):
    """The Levenshtein distance between each pair of sequences (the last dimension of two SparseTensors), divided by
    the truth's length when `normalize`; a dense float32 tensor of the batch dimensions."""
    if not is_sparse(hypothesis) or not is_sparse(truth):
        raise TypeError("edit_distance takes two SparseTensors: hypothesis and truth (tf.sparse.from_dense makes one)")
    h, t = SparseTensor.from_value(hypothesis), SparseTensor.from_value(truth)
    if h.dtype != t.dtype:
        raise TypeError(f"edit_distance: hypothesis holds {h.dtype.name} and truth {t.dtype.name}")
    out = apply_op("EditDistance", [h.indices, h.values, h.dense_shape, t.indices, t.values, t.dense_shape],
                   name=name or "edit_distance", normalize=bool(normalize))
    if h.shape.ndims is not None and t.shape.ndims == h.shape.ndims:
        out.set_shape([None if a is None or b is None else max(a, b) for a, b in zip(h.shape.as_list()[:-1],
                                                                                   t.shape.as_list()[:-1])])
    return out
