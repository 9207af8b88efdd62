"""The LU factorization with partial pivoting (tf.linalg.lu, as LAPACK's getrf and Eigen's PartialPivLU: the
largest |pivot| of each column, the first on ties) and what TF builds on it from the graph's own ops: lu_solve,
lu_matrix_inverse and lu_reconstruct. TF gives Lu no gradient; the three builders are differentiable."""
import numpy as np

from ..framework import dtypes
from ..framework.graph_wrappers import name_scope
from ..framework.registry import apply_op, host_kernel, register
from .core_ops import convert_to_tensor
from .diag_ops import matrix_set_diag
from .array_ops import one_hot
from .linalg_ops import eye
from .mask_ops import matrix_band_part
from .math_ops import matmul, ones_like
from .solve_ops import matrix_triangular_solve
from .sort_ops import argsort
from .tensor_util import static_shape


def _lu_one(a):
    lu, n = a.copy(), a.shape[0]
    perm = np.arange(n)
    for k in range(n):
        pivot = k + int(np.argmax(np.abs(lu[k:, k])))
        if pivot != k:
            lu[[k, pivot]], perm[[k, pivot]] = lu[[pivot, k]], perm[[pivot, k]]
        if lu[k, k] != 0:
            lu[k + 1:, k] /= lu[k, k]
            lu[k + 1:, k + 1:] -= np.outer(lu[k + 1:, k], lu[k, k + 1:])
    return lu, perm


def _lu(x, output_idx_type):
    flat = x.reshape((-1,) + x.shape[-2:])
    found = [_lu_one(m) for m in flat]
    lu = np.stack([f[0] for f in found]) if found else flat.copy()
    perm = np.stack([f[1] for f in found]) if found else np.zeros(flat.shape[:-1], np.int64)
    return lu.reshape(x.shape), perm.astype(output_idx_type).reshape(x.shape[:-1])


def _lu_infer(x, output_idx_type):
    shape = static_shape(x)
    return [(shape, x.dtype), (None if shape is None else shape[:-1], dtypes.as_dtype(output_idx_type))]


register("Lu", kernel=host_kernel(_lu), infer=_lu_infer, fresh=True)


def _square(what, x):
    x = convert_to_tensor(x)
    shape = static_shape(x)
    if shape is not None and (len(shape) < 2 or None not in shape[-2:] and shape[-1] != shape[-2]):
        raise ValueError(f"{what} needs square matrices in the last two dims, got {x.name!r} of shape {x.shape}")
    if x.dtype.kind not in "fc":
        raise TypeError(f"{what} needs floating-point or complex matrices, got {x.name!r} of dtype {x.dtype.name}")
    return x


def lu(input, output_idx_type=dtypes.int32, name=None):  # noqa: A002 - TF's name
    """(lower_upper, p): L (unit diagonal, below) and U (on and above) in one matrix, with input[..., p, :] = L @ U."""
    output_idx_type = dtypes.as_dtype(output_idx_type)
    if output_idx_type not in (dtypes.int32, dtypes.int64):
        raise TypeError(f"lu's output_idx_type is int32 or int64, got {output_idx_type.name}")
    return apply_op("Lu", [_square("lu", input)], name=name or "Lu", output_idx_type=output_idx_type)


def _unit_lower(lower_upper):
    return matrix_set_diag(matrix_band_part(lower_upper, -1, 0), ones_like(lower_upper[..., 0]))


def _rows(x, perm):
    """x's rows (axis -2) picked by perm, matrix by matrix: a product with perm's one-hot rows, exact, batched by
    broadcasting and differentiable in x."""
    n = (static_shape(perm) or (None,))[-1]
    if n is None:
        raise ValueError(f"the LU functions need the permutation's length known, got {perm.name!r} of shape "
                         f"{perm.shape}")
    return matmul(one_hot(perm, n, dtype=x.dtype), x)


def lu_solve(lower_upper, perm, rhs, validate_args=False, name=None):
    """X with matrix @ X = rhs, from lu(matrix)'s factors."""
    with name_scope(name or "lu_solve"):
        lower_upper = _square("lu_solve", lower_upper)
        perm = convert_to_tensor(perm, dtype=None)
        rhs = convert_to_tensor(rhs, dtype=lower_upper.dtype)
        rhs_shape, lu_shape = static_shape(rhs), static_shape(lower_upper)
        if rhs_shape is not None and len(rhs_shape) < 2:
            raise ValueError("Input `rhs` must have at least 2 dimensions.")
        if rhs_shape is not None and lu_shape is not None and None not in (lu_shape[-1], rhs_shape[-2]) \
                and lu_shape[-1] != rhs_shape[-2]:
            raise ValueError("`lower_upper.shape[-1]` must equal `rhs.shape[-1]`.")
        permuted = _rows(rhs, perm)
        return matrix_triangular_solve(lower_upper, matrix_triangular_solve(_unit_lower(lower_upper), permuted),
                                       lower=False)


def lu_matrix_inverse(lower_upper, perm, validate_args=False, name=None):
    """The inverse of the matrix lu() factored."""
    with name_scope(name or "lu_matrix_inverse"):
        lower_upper = _square("lu_matrix_inverse", lower_upper)
        shape = static_shape(lower_upper)
        if shape is None or None in shape:
            raise ValueError(f"lu_matrix_inverse needs a known shape, got {lower_upper.name!r} of shape "
                             f"{lower_upper.shape}")
        identity = eye(shape[-1], batch_shape=list(shape[:-2]), dtype=lower_upper.dtype)
        return lu_solve(lower_upper, perm, identity)


def lu_reconstruct(lower_upper, perm, validate_args=False, name=None):
    """The matrix lu() factored: L @ U with its rows put back in their places."""
    with name_scope(name or "lu_reconstruct"):
        lower_upper = _square("lu_reconstruct", lower_upper)
        perm = convert_to_tensor(perm)
        x = matmul(_unit_lower(lower_upper), matrix_band_part(lower_upper, 0, -1))
        return _rows(x, argsort(perm, axis=-1))  # the inverse permutation of each row
