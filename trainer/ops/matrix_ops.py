"""Square-matrix ops over the last two dims, batched over the rest: matrix_inverse and matrix_determinant."""
import string

import numpy as np

from ..platform.errors import InvalidArgumentError
from .core_ops import convert_to_tensor
from .array_ops import shape
from .linalg_ops import einsum, eye
from .math_ops import zeros_like
from .mask_ops import matrix_band_part
from ..framework.registry import apply_op, get_array_module, infer_same, register, to_numpy
from .shape_ops import expand_dims
from .tensor_util import static_shape


def _adjoint(x):
    xp = get_array_module(x)
    return xp.conj(xp.swapaxes(x, -1, -2)) if x.dtype.kind == "c" else xp.swapaxes(x, -1, -2)


def _inverse(x, adjoint):
    xp = get_array_module(x)
    a = _adjoint(x) if adjoint else x
    try:
        out = xp.linalg.inv(a)
    except np.linalg.LinAlgError:
        out = None
    # A zero (or nan) pivot is what TF1 refuses; CuPy does not raise, so a non-finite result counts too.
    if out is None or not bool(xp.isfinite(out).all()):
        singular = np.argwhere(np.ravel(to_numpy(xp.linalg.det(a) == 0) | ~to_numpy(xp.isfinite(a).all((-2, -1)))))
        where = f" (matrix {int(singular[0][0])} of the batch, counted in row-major order)" if x.ndim > 2 and \
            len(singular) else ""
        raise InvalidArgumentError(f"Input is not invertible.{where} matrix_inverse needs non-singular matrices")
    return out


def _letters(rank):
    """Batch subscripts for einsum over a tensor of known `rank` (explicit, so static shapes survive)."""
    return string.ascii_lowercase[:rank - 2]


def _real_only(op):
    if op.inputs[0].dtype.kind == "c":
        raise NotImplementedError(f"The gradient of {op.type} for the complex input {op.inputs[0].name!r} is not "
                                  "implemented; only float16/32/64 matrices are differentiable here")


def _inverse_grad(op, g):
    _real_only(op)
    y = op.outputs[0]
    b = _letters(y.ndim) if y.ndim is not None else "..."
    if op.attrs["adjoint"]:  # y = inv(x^T): dx = -y g^T y
        return [-einsum(f"{b}ij,{b}kj,{b}kl->{b}il", y, g, y)]
    return [-einsum(f"{b}ji,{b}jk,{b}lk->{b}il", y, g, y)]  # y = inv(x): dx = -y^T g y^T


def _det_grad(op, g):
    _real_only(op)
    x, det = op.inputs[0], op.outputs[0]
    scale = expand_dims(expand_dims(g * det, -1), -1)
    return [scale * matrix_inverse(x, adjoint=True)]  # d det / dx = det * inv(x)^T


register("MatrixInverse", _inverse, infer=infer_same, grad=_inverse_grad, fresh=True)
register("MatrixDeterminant", lambda x: get_array_module(x).asarray(get_array_module(x).linalg.det(x)),
         infer=lambda x: [(None if static_shape(x) is None else static_shape(x)[:-2], x.dtype)], grad=_det_grad,
         fresh=True)


def _square(what, x):
    shape = static_shape(x)
    if shape is None:
        return
    if len(shape) < 2:
        raise ValueError(f"{what} needs a tensor of rank >= 2 (matrices in the last two dims), got {x.name!r} "
                         f"of shape {x.shape}")
    if None not in shape[-2:] and shape[-1] != shape[-2]:
        raise ValueError(f"{what} needs square matrices, got {x.name!r} of shape {x.shape}: its last two dims "
                         f"{shape[-2]} and {shape[-1]} differ")
    if x.dtype.kind not in "fc":
        raise TypeError(f"{what} needs a floating or complex tensor, got {x.name!r} of dtype {x.dtype.name}")


def matrix_inverse(input, adjoint=False, name=None):  # noqa: A002 - TF1's name
    """The inverse of each square matrix in the last two dims (of its adjoint when `adjoint`); a singular one
    raises InvalidArgumentError when run, as in TF1."""
    x = convert_to_tensor(input)
    _square("matrix_inverse", x)
    return apply_op("MatrixInverse", [x], name=name or "MatrixInverse", adjoint=bool(adjoint))


def matrix_determinant(input, name=None):  # noqa: A002 - TF1's name
    """The determinant of each square matrix in the last two dims: a tensor of the leading (batch) dims."""
    x = convert_to_tensor(input)
    _square("matrix_determinant", x)
    return apply_op("MatrixDeterminant", [x], name=name or "MatrixDeterminant")


def _cholesky(x):
    xp = get_array_module(x)
    try:
        out = xp.linalg.cholesky(x)
    except np.linalg.LinAlgError:
        out = None
    if out is None or not bool(xp.isfinite(out).all()):  # CuPy gives nan where numpy raises
        raise InvalidArgumentError("Cholesky decomposition was not successful. The input might not be valid: "
                                   "cholesky needs symmetric positive definite matrices")
    return out


def _cholesky_grad(op, g):
    # TF1's CholeskyGrad (Murray 2016): sym(L^-T Phi(L^T g) L^-1), Phi = the lower triangle with its diagonal halved
    _real_only(op)
    low = op.outputs[0]
    b = _letters(low.ndim) if low.ndim is not None else "..."
    middle = einsum(f"{b}ji,{b}jk->{b}ik", low, g)
    middle = matrix_band_part(middle, -1, 0) - 0.5 * matrix_band_part(middle, 0, 0)
    inv = matrix_inverse(low)
    grad = einsum(f"{b}ji,{b}jk,{b}kl->{b}il", inv, middle, inv)
    return [0.5 * (grad + einsum(f"{b}ij->{b}ji", grad))]


register("Cholesky", _cholesky, infer=infer_same, grad=_cholesky_grad, fresh=True)


def cholesky(input, name=None):  # noqa: A002 - TF1's name
    """The lower-triangular Cholesky factor L (L L^T = input) of each symmetric positive definite matrix in the
    last two dims; only the lower triangle of the input is read, as in TF1."""
    x = convert_to_tensor(input)
    _square("cholesky", x)
    return apply_op("Cholesky", [x], name=name or "Cholesky")


def _eigh(x, compute_v):
    e, v = get_array_module(x).linalg.eigh(x)  # reads the lower triangle, as TF1's kernel
    return e.astype(x.dtype, copy=False), (v if compute_v else v[..., :0, :0]).astype(x.dtype, copy=False)


def _eigh_infer(x, compute_v):
    shape_ = static_shape(x)
    if shape_ is None:
        return [(None, x.dtype)] * 2
    return [(shape_[:-1], x.dtype), (shape_ if compute_v else (*shape_[:-2], 0, 0), x.dtype)]


def _eigh_grad(op, ge, gv):
    # TF1's SelfAdjointEigV2 gradient: V (diag(ge) + F * V^T gv) V^T with F_ij = 1 / (e_j - e_i) off the diagonal,
    # then folded onto the lower triangle that the forward op reads
    _real_only(op)
    e, v = op.outputs
    if not op.attrs["compute_v"]:  # eigenvalues only: TF1 computes the eigenvectors again for the gradient
        v = apply_op("SelfAdjointEigV2", [op.inputs[0]], compute_v=True)[1]
    b = _letters(v.ndim) if v.ndim is not None else "..."
    identity = eye(shape(e)[-1], dtype=e.dtype)
    middle = (zeros_like(e) if ge is None else ge)[..., None] * identity
    if gv is not None and op.attrs["compute_v"]:
        gap = e[..., None, :] - e[..., :, None]
        f = gap / (gap * gap + 1e-20) * (1 - identity)  # TF1's _SafeReciprocal, zero on the diagonal
        middle = middle + f * einsum(f"{b}ji,{b}jk->{b}ik", v, gv)
    grad = einsum(f"{b}ij,{b}jk,{b}lk->{b}il", v, middle, v)
    grad = matrix_band_part(grad + einsum(f"{b}ij->{b}ji", grad), -1, 0)
    return [grad - 0.5 * matrix_band_part(grad, 0, 0)]


register("SelfAdjointEigV2", _eigh, infer=_eigh_infer, grad=_eigh_grad, fresh=True)


def self_adjoint_eig(tensor, name=None):
    """(e, v): the eigenvalues (ascending) and eigenvectors (columns) of each self-adjoint matrix in the last two
    dims; only the lower triangle is read, as in TF1."""
    x = convert_to_tensor(tensor)
    _square("self_adjoint_eig", x)
    return apply_op("SelfAdjointEigV2", [x], name=name or "SelfAdjointEigV2", compute_v=True)


def self_adjoint_eigvals(tensor, name=None):
    """The eigenvalues (ascending) of each self-adjoint matrix in the last two dims."""
    x = convert_to_tensor(tensor)
    _square("self_adjoint_eigvals", x)
    return apply_op("SelfAdjointEigV2", [x], name=name or "SelfAdjointEigV2", compute_v=False)[0]
