"""Linear systems and factorizations over the last two dims, batched over the rest: matrix_solve,
matrix_triangular_solve, svd and slogdet as kernels with TF1's gradients, and what TF1 builds from them
(cholesky_solve, matrix_solve_ls, logdet, pinv, matrix_rank, matvec, adjoint, normalize)."""
import numpy as np

from ..framework.registry import host_kernel
from ..framework import dtypes
from ..framework.graph_wrappers import name_scope
from ..framework.registry import apply_op, register
from ..platform.errors import InvalidArgumentError
from .array_ops import cast
from .complex_ops import conj
from .core_ops import convert_to_tensor
from .diag_ops import matrix_diag, matrix_diag_part, matrix_set_diag
from .linalg_ops import eye, matrix_transpose, norm
from .mask_ops import matrix_band_part
from .math_ops import abs as abs_, greater, log, matmul, ones_like, where, zeros_like
from .matrix_ops import cholesky, matrix_inverse
from .reduction_ops import reduce_max, reduce_sum
from .shape_ops import expand_dims, squeeze
from .tensor_util import static_shape

# TF1's _SafeReciprocal: 1/x where x is far from 0, 0 near it (equal singular values have no defined rotation)
SAFE_EPSILON = 1e-20


def _adjoint(x):
    return np.conj(np.swapaxes(x, -1, -2))


def _solve(matrix, rhs, adjoint):
    a = _adjoint(matrix) if adjoint else matrix
    try:
        out = np.linalg.solve(a, rhs)
    except np.linalg.LinAlgError:
        out = None
    if out is None or not np.isfinite(out).all() and np.isfinite(a).all() and np.isfinite(rhs).all():
        raise InvalidArgumentError("Input matrix is not invertible: matrix_solve needs non-singular matrices")
    return out.astype(rhs.dtype, copy=False)


def _triangular_solve(matrix, rhs, lower, adjoint):
    a = np.tril(matrix) if lower else np.triu(matrix)
    a = _adjoint(a) if adjoint else a
    with np.errstate(all="ignore"):
        try:
            out = np.linalg.solve(a, rhs)
        except np.linalg.LinAlgError:  # TF's kernel divides by the zero pivot instead of refusing
            out = np.full(np.broadcast_shapes(a.shape[:-2], rhs.shape[:-2]) + rhs.shape[-2:], np.nan)
    return out.astype(rhs.dtype, copy=False)


def _solve_infer(matrix, rhs, **attrs):
    m, r = static_shape(matrix), static_shape(rhs)
    if m is None or r is None:
        return [(None, rhs.dtype)]
    return [(r, rhs.dtype)]


def _real_only(op):
    if op.inputs[0].dtype.kind == "c":
        raise NotImplementedError(f"The gradient of {op.type} for the complex input {op.inputs[0].name!r} is not "
                                  "implemented; only real matrices are differentiable here")


def _solve_grad(op, g):
    """TF1's: grad_rhs solves the adjoint system with g; grad_matrix = -grad_rhs x^T (or -x grad_rhs^T)."""
    _real_only(op)
    a, x, adjoint = op.inputs[0], op.outputs[0], op.attrs["adjoint"]
    grad_b = matrix_solve(a, g, adjoint=not adjoint)
    grad_a = -matmul(x, grad_b, transpose_b=True) if adjoint else -matmul(grad_b, x, transpose_b=True)
    return [grad_a, grad_b]


def _triangular_solve_grad(op, g):
    _real_only(op)
    a, x = op.inputs[0], op.outputs[0]
    lower, adjoint = op.attrs["lower"], op.attrs["adjoint"]
    grad_b = matrix_triangular_solve(a, g, lower=lower, adjoint=not adjoint)
    grad_a = -matmul(x, grad_b, transpose_b=True) if adjoint else -matmul(grad_b, x, transpose_b=True)
    return [matrix_band_part(grad_a, -1, 0) if lower else matrix_band_part(grad_a, 0, -1), grad_b]


def _svd(x, compute_uv, full_matrices):
    real = x.real.dtype if x.dtype.kind == "c" else x.dtype
    if not compute_uv:
        s = np.linalg.svd(x, compute_uv=False)
        return s.astype(real), np.zeros((0,), x.dtype), np.zeros((0,), x.dtype)
    u, s, vh = np.linalg.svd(x, full_matrices=full_matrices)
    return s.astype(real), u.astype(x.dtype), _adjoint(vh).astype(x.dtype)


def _svd_infer(x, compute_uv, full_matrices):
    real = dtypes.as_dtype(np.dtype(x.dtype).type(0).real.dtype)
    s = static_shape(x)
    if s is None:
        return [(None, real), (None, x.dtype), (None, x.dtype)]
    *batch, m, n = s
    k = None if m is None or n is None else min(m, n)
    if not compute_uv:
        return [((*batch, k), real), ((0,), x.dtype), ((0,), x.dtype)]
    cols_u, cols_v = (m, n) if full_matrices else (k, k)
    return [((*batch, k), real), ((*batch, m, cols_u), x.dtype), ((*batch, n, cols_v), x.dtype)]


def _safe_reciprocal(x):
    return x / (x * x + SAFE_EPSILON)


def _svd_grad(op, grad_s, grad_u, grad_v):
    """TF1's _SvdGrad for real matrices (see Townsend, "Differentiating the Singular Value Decomposition")."""
    _real_only(op)
    a = op.inputs[0]
    s_known = static_shape(a)
    grad_s = zeros_like(op.outputs[0]) if grad_s is None else grad_s
    if not op.attrs["compute_uv"]:
        _, u, v = svd(a, full_matrices=False, compute_uv=True)
        return [matmul(u, matmul(matrix_diag(grad_s), v, transpose_b=True))]
    if s_known is None or None in s_known[-2:]:
        raise NotImplementedError("SVD gradient has not been implemented for input with unknown inner matrix "
                                  f"shape: {a.name!r} has shape {a.shape}")
    m, n = s_known[-2:]
    s, u, v = op.outputs
    grad_u = zeros_like(u) if grad_u is None else grad_u
    grad_v = zeros_like(v) if grad_v is None else grad_v
    use_adjoint = m > n
    if use_adjoint:
        m, n, u, v, grad_u, grad_v = n, m, v, u, grad_v, grad_u
    if op.attrs["full_matrices"] and abs(m - n) > 1:
        raise NotImplementedError("svd gradient is not implemented for abs(m - n) > 1 when full_matrices is True")
    s_mat = matrix_diag(s)
    s_2 = s * s
    f = matrix_set_diag(_safe_reciprocal(expand_dims(s_2, -2) - expand_dims(s_2, -1)), zeros_like(s))
    v1, grad_v1 = v[..., :, :m], grad_v[..., :, :m]
    f_u = f * matmul(u, grad_u, transpose_a=True)
    f_v = f * matmul(v1, grad_v1, transpose_a=True)
    middle = (matrix_diag(grad_s) + matmul(f_u + matrix_transpose(f_u), s_mat)
              + matmul(s_mat, f_v + matrix_transpose(f_v)))
    grad_a = matmul(u, matmul(middle, v1, transpose_b=True))
    if m != n:
        gv1t = matrix_transpose(grad_v1)
        rest = gv1t - matmul(matmul(gv1t, v1), v1, transpose_b=True)
        if op.attrs["full_matrices"]:
            v2, grad_v2 = v[..., :, m:n], grad_v[..., :, m:n]
            rest = rest - matmul(matmul(v1, grad_v2, transpose_a=True), v2, transpose_b=True)
        grad_a = grad_a + matmul(matmul(u, matrix_diag(_safe_reciprocal(s))), rest)
    return [matrix_transpose(grad_a) if use_adjoint else grad_a]


def _slogdet(x):
    sign, logdet = np.linalg.slogdet(x)
    real = x.real.dtype if x.dtype.kind == "c" else x.dtype
    return np.asarray(sign, x.dtype), np.asarray(logdet, real)


def _slogdet_grad(op, g_sign, g_log):
    """d log|det x| / dx = inv(x)^T; the sign has no gradient."""
    _real_only(op)
    g_log = zeros_like(op.outputs[1]) if g_log is None else g_log
    return [expand_dims(expand_dims(g_log, -1), -1) * matrix_inverse(op.inputs[0], adjoint=True)]


def _batch_infer(x):
    s = static_shape(x)
    real = dtypes.as_dtype(np.dtype(x.dtype).type(0).real.dtype)
    return [(None if s is None else s[:-2], x.dtype), (None if s is None else s[:-2], real)]


register("MatrixSolve", kernel=host_kernel(_solve), infer=_solve_infer, grad=_solve_grad, fresh=True)
register("MatrixTriangularSolve", kernel=host_kernel(_triangular_solve), infer=_solve_infer,
         grad=_triangular_solve_grad,
         fresh=True)
register("Svd", kernel=host_kernel(_svd), infer=_svd_infer, grad=_svd_grad, fresh=True)
register("LogMatrixDeterminant", kernel=host_kernel(_slogdet), infer=_batch_infer, grad=_slogdet_grad, fresh=True)


def _matrices(what, *tensors):
    found = []
    for t in tensors:
        t = convert_to_tensor(t, dtype=found[0].dtype if found else None)
        if t.ndim is not None and t.ndim < 2:
            raise ValueError(f"{what} needs tensors of rank >= 2 (matrices in the last two dims), got {t.name!r} of "
                             f"shape {t.shape}")
        if t.dtype.kind not in "fc":
            raise TypeError(f"{what} needs floating-point or complex matrices, got {t.name!r} of dtype "
                            f"{t.dtype.name}")
        found.append(t)
    return found


def _check_system(what, matrix, rhs):
    a, b = static_shape(matrix), static_shape(rhs)
    if a is None:
        return
    if None not in a[-2:] and a[-1] != a[-2]:
        raise ValueError(f"{what} needs square matrices, got {matrix.name!r} of shape {matrix.shape}")
    if b is not None and a[-2] is not None and b[-2] is not None and a[-2] != b[-2]:
        raise ValueError(f"{what}: {matrix.name!r} of shape {matrix.shape} and right-hand side {rhs.name!r} of "
                         f"shape {rhs.shape} disagree on the number of rows")


def matrix_solve(matrix, rhs, adjoint=False, name=None):
    """x with matrix @ x = rhs (adjoint(matrix) @ x = rhs when `adjoint`), for each matrix of the batch."""
    matrix, rhs = _matrices("matrix_solve", matrix, rhs)
    _check_system("matrix_solve", matrix, rhs)
    return apply_op("MatrixSolve", [matrix, rhs], name=name or "MatrixSolve", adjoint=bool(adjoint))


def matrix_triangular_solve(matrix, rhs, lower=True, adjoint=False, name=None):
    """x with tril(matrix) @ x = rhs (triu when not `lower`; the adjoint system when `adjoint`)."""
    matrix, rhs = _matrices("matrix_triangular_solve", matrix, rhs)
    _check_system("matrix_triangular_solve", matrix, rhs)
    return apply_op("MatrixTriangularSolve", [matrix, rhs], name=name or "MatrixTriangularSolve",
                    lower=bool(lower), adjoint=bool(adjoint))


def cholesky_solve(chol, rhs, name=None):
    """x with (chol @ chol^T) @ x = rhs, from the lower Cholesky factor `chol` (tg.cholesky's output)."""
    with name_scope(name or "cholesky_solve"):
        y = matrix_triangular_solve(chol, rhs, lower=True, adjoint=False)
        return matrix_triangular_solve(chol, y, lower=True, adjoint=True)


def svd(tensor, full_matrices=False, compute_uv=True, name=None):
    """(s, u, v) with tensor = u @ diag(s) @ v^H, singular values descending; only s when not `compute_uv`."""
    (x,) = _matrices("svd", tensor)
    s, u, v = apply_op("Svd", [x], name=name or "Svd", compute_uv=bool(compute_uv),
                       full_matrices=bool(full_matrices))
    return (s, u, v) if compute_uv else s


def slogdet(input, name=None):  # noqa: A002 - TF1's name
    """(sign, log |det|) of each square matrix, finite where the determinant under- or overflows."""
    (x,) = _matrices("slogdet", input)
    _check_system("slogdet", x, x)
    return apply_op("LogMatrixDeterminant", [x], name=name or "LogMatrixDeterminant")


def logdet(matrix, name=None):
    """log det of each Hermitian positive definite matrix: twice the log of its Cholesky diagonal's sum."""
    with name_scope(name or "logdet"):
        chol = cholesky(matrix)
        return 2.0 * reduce_sum(log(abs_(matrix_diag_part(chol))), axis=[-1])


def matvec(a, b, transpose_a=False, adjoint_a=False, a_is_sparse=False, b_is_sparse=False, name=None):
    """a @ b for matrices a and vectors b (batched): the matrix product with b as a column, squeezed back."""
    with name_scope(name or "MatVec"):
        a, b = convert_to_tensor(a), convert_to_tensor(b)
        if adjoint_a:
            a = adjoint(a)
        return squeeze(matmul(a, expand_dims(b, -1), transpose_a=transpose_a), -1)


def adjoint(matrix, name=None):
    """The conjugate transpose of each matrix in the last two dims."""
    with name_scope(name or "adjoint"):
        return conj(matrix_transpose(matrix))


def matrix_solve_ls(matrix, rhs, l2_regularizer=0.0, fast=True, name=None):
    """The least-squares solution of matrix @ x = rhs (minimum norm when underdetermined), by the regularized
    normal equations and their Cholesky factor, as TF1's fast path."""
    if not fast:
        raise NotImplementedError("matrix_solve_ls(fast=False) (the complete orthogonal decomposition) is not "
                                  "available in ringflow; use fast=True, the normal equations")
    with name_scope(name or "matrix_solve_ls"):
        a, b = _matrices("matrix_solve_ls", matrix, rhs)
        m, n = (static_shape(a) or (None, None))[-2:]
        if m is None or n is None:
            raise NotImplementedError(f"matrix_solve_ls needs {a.name!r}'s matrix dims known while building, got "
                                      f"{a.shape}")
        reg = convert_to_tensor(l2_regularizer, dtype=a.dtype)
        if m >= n:
            gram = matmul(a, a, transpose_a=True) + reg * eye(n, dtype=a.dtype)
            return cholesky_solve(cholesky(gram), matmul(a, b, transpose_a=True))
        gram = matmul(a, a, transpose_b=True) + reg * eye(m, dtype=a.dtype)
        return matmul(a, cholesky_solve(cholesky(gram), b), transpose_a=True)


def lstsq(matrix, rhs, l2_regularizer=0.0, fast=True, name=None):
    """tf.linalg.lstsq: matrix_solve_ls under its tf.linalg name."""
    return matrix_solve_ls(matrix, rhs, l2_regularizer=l2_regularizer, fast=fast, name=name)


def _default_tolerance(s, a):
    m, n = (static_shape(a) or (None, None))[-2:]
    if m is None or n is None:
        raise NotImplementedError(f"the default tolerance needs {a.name!r}'s matrix dims known, got {a.shape}")
    eps = np.finfo(np.dtype(s.dtype)).eps
    return reduce_max(s, axis=-1, keepdims=True) * (max(m, n) * eps)


def pinv(a, rcond=None, validate_args=False, name=None):
    """The Moore-Penrose pseudo-inverse of each matrix: its SVD with singular values at or below
    rcond * max(s) (default 10 * max(m, n) * eps, as TF) treated as 0."""
    with name_scope(name or "pinv"):
        (a,) = _matrices("pinv", a)
        s, u, v = svd(a, full_matrices=False, compute_uv=True)
        m, n = (static_shape(a) or (None, None))[-2:]
        if rcond is None:
            if m is None or n is None:
                raise NotImplementedError(f"pinv needs rcond or {a.name!r}'s matrix dims known, got {a.shape}")
            rcond = 10.0 * max(m, n) * np.finfo(np.dtype(s.dtype)).eps
        cutoff = convert_to_tensor(rcond, dtype=s.dtype) * reduce_max(s, axis=-1, keepdims=True)
        keep = greater(s, cutoff)
        inverse = where(keep, 1.0 / where(keep, s, ones_like(s)), zeros_like(s))
        return matmul(v * expand_dims(inverse, -2), u, transpose_b=True)


def matrix_rank(a, tol=None, validate_args=False, name=None):
    """The number of singular values above `tol` (default max(s) * max(m, n) * eps), as int32."""
    with name_scope(name or "matrix_rank"):
        (a,) = _matrices("matrix_rank", a)
        s = svd(a, compute_uv=False)
        cutoff = _default_tolerance(s, a) if tol is None else convert_to_tensor(tol, dtype=s.dtype)
        return reduce_sum(cast(greater(s, cutoff), dtypes.int32), axis=-1)


def normalize(tensor, ord="euclidean", axis=None, name=None):  # noqa: A002 - TF1's names
    """(tensor / norm, norm): the tensor scaled to unit norm over `axis`, and that norm (keepdims)."""
    with name_scope(name or "normalize"):
        x = convert_to_tensor(tensor)
        n = norm(x, ord=ord, axis=axis, keepdims=True)
        return x / n, n


# Higham's scaling and squaring with the [13/13] Pade approximant ("The scaling and squaring method for the matrix
# exponential revisited", 2005): its coefficients, and the 1-norm up to which no squaring is needed.
PADE13 = [64764752532480000., 32382376266240000., 7771770303897600., 1187353796428800., 129060195264000.,
          10559470521600., 670442572800., 33522128640., 1323241920., 40840800., 960960., 16380., 182., 1.]
THETA13 = 5.371920351148152


def _expm_one(a):
    norm = np.abs(a).sum(axis=0).max() if a.size else 0.0
    squarings = max(0, int(np.ceil(np.log2(norm / THETA13)))) if norm > THETA13 else 0
    a = a / (2.0 ** squarings)
    eye_ = np.eye(a.shape[0], dtype=a.dtype)
    a2 = a @ a
    a4 = a2 @ a2
    a6 = a4 @ a2
    b = PADE13
    u = a @ (a6 @ (b[13] * a6 + b[11] * a4 + b[9] * a2) + b[7] * a6 + b[5] * a4 + b[3] * a2 + b[1] * eye_)
    v = a6 @ (b[12] * a6 + b[10] * a4 + b[8] * a2) + b[6] * a6 + b[4] * a4 + b[2] * a2 + b[0] * eye_
    result = np.linalg.solve(v - u, v + u)
    for _ in range(squarings):
        result = result @ result
    return result


def _expm(x):
    flat = x.reshape((-1,) + x.shape[-2:]).astype(np.complex128 if x.dtype.kind == "c" else np.float64)
    return np.array([_expm_one(m) for m in flat]).reshape(x.shape).astype(x.dtype)


def _expm_grad_kernel(g, x):
    """The adjoint of expm's derivative at x applied to g: the top-right block of expm([[x^H, g], [0, x^H]])."""
    n = x.shape[-1]
    xh = np.conj(np.swapaxes(x, -1, -2))
    block = np.zeros(x.shape[:-2] + (2 * n, 2 * n), dtype=np.result_type(x.dtype, g.dtype))
    block[..., :n, :n], block[..., n:, n:], block[..., :n, n:] = xh, xh, g
    return _expm(block)[..., :n, n:].astype(x.dtype)


register("MatrixExponential", kernel=host_kernel(_expm), infer=lambda x: [(x.shape, x.dtype)], fresh=True,
         grad=lambda op, g: [apply_op("MatrixExponentialGrad", [g, op.inputs[0]])])
register("MatrixExponentialGrad", kernel=host_kernel(_expm_grad_kernel), infer=lambda g, x: [(x.shape, x.dtype)],
         fresh=True)


def expm(input, name=None):  # noqa: A002 - TF1's name
    """The matrix exponential of each square matrix (scaling and squaring with a Pade approximant)."""
    (x,) = _matrices("expm", input)
    _check_system("expm", x, x)
    return apply_op("MatrixExponential", [x], name=name or "matrix_exponential")
