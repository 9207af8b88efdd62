"""Tridiagonal matrices held as their three diagonals ("compact": [..., 3, M], superdiagonal first, its last
entry and the subdiagonal's first unused): tridiagonal_matmul from the graph's ops, tridiagonal_solve as a kernel
with TF's gradient (a solve with the transposed matrix, then the three diagonals of -grad_rhs @ x^T), and
eigh_tridiagonal from the dense matrix's eigendecomposition."""
import numpy as np

from ..framework.graph_wrappers import name_scope
from ..framework.registry import apply_op, host_kernel, register
from ..platform.errors import InvalidArgumentError
from .array_ops import cast, concat
from .complex_ops import conj
from .core_ops import convert_to_tensor
from .diag_ops import matrix_diag, matrix_diag_part
from .linalg_ops import matrix_transpose
from .math_ops import zeros_like
from .matrix_ops import self_adjoint_eig, self_adjoint_eigvals
from .pad_ops import pad
from .reduction_ops import reduce_sum
from .segment_ops import boolean_mask
from .shape_ops import expand_dims, squeeze
from .stack_ops import stack
from .tensor_util import static_shape


def _shift_up(x, axis):
    """x moved one step toward index 0 along `axis` (a negative axis), 0 coming in at the end."""
    head = [slice(None)] * (-axis - 1)
    rest = x[(Ellipsis, slice(1, None), *head)]
    return concat([rest, zeros_like(x[(Ellipsis, slice(0, 1), *head)])], axis)


def _shift_down(x, axis):
    head = [slice(None)] * (-axis - 1)
    rest = x[(Ellipsis, slice(None, -1), *head)]
    return concat([zeros_like(x[(Ellipsis, slice(0, 1), *head)]), rest], axis)


def _diagonals(diagonals, diagonals_format, what, pad_sequence=True):
    """(superdiag, maindiag, subdiag), each [..., M]; a sequence's off-diagonals of length M - 1 are padded when
    pad_sequence (tridiagonal_solve's rule; tridiagonal_matmul takes only full ones)."""
    if diagonals_format == "compact":
        d = convert_to_tensor(diagonals)
        if d.ndim is not None and d.ndim < 2:
            raise ValueError(f"Expected diagonals to have rank at least 2, got {d.ndim}")
        if (static_shape(d) or (None, None))[-2] not in (None, 3):
            raise ValueError(f"Expected 3 diagonals got {d.shape[-2]}")
        return d[..., 0, :], d[..., 1, :], d[..., 2, :]
    if diagonals_format == "sequence":
        if not isinstance(diagonals, (tuple, list)) or len(diagonals) != 3:
            raise ValueError("Expected diagonals to be a sequence of length 3.")
        sup, main, sub = (convert_to_tensor(t) for t in diagonals)
        m = (static_shape(main) or (None,))[-1]
        lengths = [(static_shape(t) or (None,))[-1] for t in (sup, sub)]
        if not pad_sequence and m is not None and any(n not in (None, m) for n in lengths):
            raise ValueError(f"{what}: the three diagonals must have the same length, got {lengths[0]}, {m} and "
                             f"{lengths[1]}")
        if m is not None and (static_shape(sup) or (None,))[-1] == m - 1:
            sup = concat([sup, zeros_like(sup[..., :1])], -1)
        if m is not None and (static_shape(sub) or (None,))[-1] == m - 1:
            sub = concat([zeros_like(sub[..., :1]), sub], -1)
        return sup, main, sub
    if diagonals_format == "matrix":
        d = convert_to_tensor(diagonals)
        shape = static_shape(d)
        if shape is not None and None not in shape[-2:] and shape[-1] != shape[-2]:
            raise ValueError(f"Expected last two dimensions of diagonals to be same, got {shape[-1]} and "
                             f"{shape[-2]}")
        sup = matrix_diag_part(d[..., :-1, 1:])
        sub = matrix_diag_part(d[..., 1:, :-1])
        return (concat([sup, zeros_like(sup[..., :1])], -1), matrix_diag_part(d),
                concat([zeros_like(sub[..., :1]), sub], -1))
    raise ValueError(f"Unrecognized diagonals_format: {diagonals_format}")


def tridiagonal_matmul(diagonals, rhs, diagonals_format="compact", name=None):
    """The tridiagonal matrix times rhs ([..., M, N])."""
    with name_scope(name or "TridiagonalMatMul"):
        sup, main, sub = _diagonals(diagonals, diagonals_format, "tridiagonal_matmul", pad_sequence=False)
        rhs = convert_to_tensor(rhs, dtype=main.dtype)
        sup, main, sub = (expand_dims(t, -1) for t in (sup, main, sub))
        return main * rhs + sup * _shift_up(rhs, -2) + sub * _shift_down(rhs, -2)


def _dense(diagonals):
    sup, main, sub = diagonals[..., 0, :], diagonals[..., 1, :], diagonals[..., 2, :]
    m = main.shape[-1]
    a = np.zeros(main.shape + (m,), main.dtype)
    i = np.arange(m)
    a[..., i, i] = main
    a[..., i[:-1], i[1:]] = sup[..., :-1]
    a[..., i[1:], i[:-1]] = sub[..., 1:]
    return a


def _solve(diagonals, rhs, partial_pivoting, perturb_singular):
    if perturb_singular:
        raise InvalidArgumentError("tridiagonal_solve with perturb_singular=True is not supported by ringflow: "
                                   "solve a regularized system instead")
    a = _dense(diagonals)
    with np.errstate(all="ignore"):
        try:
            out = np.linalg.solve(a, rhs) if rhs.size else np.zeros(rhs.shape, rhs.dtype)
        except np.linalg.LinAlgError:
            out = None
    if out is None or not np.isfinite(out).all() and np.isfinite(a).all() and np.isfinite(rhs).all():
        raise InvalidArgumentError("The matrix is not invertible: tridiagonal_solve needs a non-singular matrix")
    return out.astype(rhs.dtype, copy=False)


def _transposed(diagonals):
    """The compact diagonals of the transposed matrix."""
    sup, main, sub = diagonals[..., 0, :], diagonals[..., 1, :], diagonals[..., 2, :]
    return stack([_shift_up(sub, -1), main, _shift_down(sup, -1)], axis=-2)


def _three_diagonals_of_outer(x, y):
    """The compact diagonals of x @ y^T (x, y of shape [..., M, K])."""
    main = reduce_sum(x * y, axis=-1)
    sup = reduce_sum(x * _shift_up(y, -2), axis=-1)
    sub = reduce_sum(x * _shift_down(y, -2), axis=-1)
    return stack([sup, main, sub], axis=-2)


def _solve_grad(op, g):
    grad_rhs = apply_op("TridiagonalSolve", [_transposed(op.inputs[0]), g], name="TridiagonalSolve",
                        **op.attrs)
    return [-_three_diagonals_of_outer(grad_rhs, op.outputs[0]), grad_rhs]


register("TridiagonalSolve", kernel=host_kernel(_solve), infer=lambda d, rhs, **attrs: [(rhs.shape, rhs.dtype)],
         grad=_solve_grad, fresh=True)


def tridiagonal_solve(diagonals, rhs, diagonals_format="compact", transpose_rhs=False, conjugate_rhs=False,
                      name=None, partial_pivoting=True, perturb_singular=False):
    """x with A @ x = rhs for the tridiagonal A; rhs [..., M, K] (or [..., M], one right-hand side)."""
    if perturb_singular and not partial_pivoting:
        raise ValueError("partial_pivoting must be True if perturb_singular is.")
    sup, main, sub = _diagonals(diagonals, diagonals_format, "tridiagonal_solve")
    d = stack([sup, main, sub], axis=-2) if diagonals_format != "compact" else convert_to_tensor(diagonals)
    rhs = convert_to_tensor(rhs, dtype=d.dtype)
    d_rank, rhs_rank = d.ndim, rhs.ndim
    if d_rank is not None and rhs_rank is not None and rhs_rank not in (d_rank, d_rank - 1):
        raise ValueError(f"Expected the rank of rhs to be {d_rank - 1} or {d_rank}, got {rhs_rank}")
    vector = d_rank is not None and rhs_rank == d_rank - 1
    if vector:
        rhs = expand_dims(conj(rhs) if conjugate_rhs else rhs, -1)
    elif transpose_rhs:
        rhs = matrix_transpose(conj(rhs) if conjugate_rhs else rhs)
    elif conjugate_rhs:
        rhs = conj(rhs)
    m, rows = (static_shape(d) or (None,))[-1], (static_shape(rhs) or (None, None))[-2]
    if None not in (m, rows) and m != rows:
        raise ValueError(f"Expected number of left-hand sided and right-hand sides to be equal, got {m} and "
                         f"{rows}")
    x = apply_op("TridiagonalSolve", [d, rhs], name=name or "TridiagonalSolve",
                 partial_pivoting=bool(partial_pivoting), perturb_singular=bool(perturb_singular))
    return squeeze(x, -1) if vector else x


def eigh_tridiagonal(alpha, beta, eigvals_only=True, select="a", select_range=None, tol=None, name=None):
    """The eigenvalues (ascending; with eigvals_only=False, and the eigenvectors) of the Hermitian tridiagonal
    matrix of diagonal alpha and off-diagonal beta; select 'i' keeps indices select_range[0]..[1], 'v' the values
    in (select_range[0], select_range[1]]."""
    with name_scope(name or "eigh_tridiagonal"):
        alpha = convert_to_tensor(alpha)
        beta = convert_to_tensor(beta)
        if alpha.dtype.kind == "c":
            raise ValueError("alpha must be real, the diagonal of a Hermitian matrix")
        n, k = (static_shape(alpha) or (None,))[-1], (static_shape(beta) or (None,))[-1]
        if alpha.ndim != 1 or beta.ndim != 1:
            raise ValueError(f"eigh_tridiagonal takes vectors alpha and beta, got shapes {alpha.shape} and "
                             f"{beta.shape}")
        if None not in (n, k) and k != n - 1:
            raise ValueError(f"beta must have one element fewer than alpha, got {k} and {n}")
        if select not in ("a", "i", "v"):
            raise ValueError(f"select must be 'a', 'i' or 'v', got {select!r}")
        off = pad(matrix_diag(beta), [[0, 1], [1, 0]])
        dense = matrix_diag(cast(alpha, beta.dtype)) + off + matrix_transpose(conj(off))
        if eigvals_only:
            values, vectors = self_adjoint_eigvals(dense), None
        else:
            values, vectors = self_adjoint_eig(dense)
        if select == "i":
            lo, hi = int(select_range[0]), int(select_range[1])
            values = values[lo:hi + 1]
            vectors = None if vectors is None else vectors[:, lo:hi + 1]
        elif select == "v":
            keep = (values > select_range[0]) & (values <= select_range[1])
            values = boolean_mask(values, keep)
            vectors = None if vectors is None else boolean_mask(vectors, keep, axis=1)
        return values if eigvals_only else (values, vectors)
