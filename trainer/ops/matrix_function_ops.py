"""Functions of a matrix, batched over the leading dims: the principal square root (tf.linalg.sqrtm) with TF's
gradient, the solution of a Sylvester equation, and the principal logarithm of complex matrices (tf.linalg.logm,
which TF defines for complex dtypes only and does not differentiate). Both go through the eigendecomposition
A = V diag(w) V^-1, which holds for the diagonalizable matrices these are asked of."""
import numpy as np

from ..framework.registry import apply_op, host_kernel, register
from ..platform.errors import InvalidArgumentError
from .core_ops import convert_to_tensor
from .tensor_util import static_shape


def _eig_function(x, fn, what):
    out = np.empty(x.shape, np.result_type(x.dtype, np.complex64))
    for index in np.ndindex(x.shape[:-2]):
        a = x[index]
        if not np.isfinite(a).all():
            raise InvalidArgumentError(f"{what}: the matrix holds non-finite values")
        w, v = np.linalg.eig(a.astype(np.complex128))
        out[index] = (v * fn(w)) @ np.linalg.inv(v) if a.size else a
    return out


def _sqrtm(x):
    out = _eig_function(x, np.sqrt, "sqrtm")
    return (out.real if x.dtype.kind == "f" else out).astype(x.dtype)


def _sqrtm_grad(s, g):
    """X with s^H X + X s^H = g for each matrix: the adjoint of d(sqrtm) (from s s = a: ds s + s ds = da)."""
    out = np.empty(g.shape, g.dtype)
    for index in np.ndindex(g.shape[:-2]):
        t = np.conj(s[index]).T
        n = t.shape[0]
        eye = np.eye(n, dtype=t.dtype)
        # row-major vec: vec(t X) = (t ⊗ I) vec X and vec(X t) = (I ⊗ tᵀ) vec X
        system = np.kron(t, eye) + np.kron(eye, t.T)
        out[index] = np.linalg.solve(system, g[index].reshape(-1)).reshape(n, n) if n else g[index]
    return out


def _square_infer(x, *rest):
    return [(x.shape, x.dtype)]


register("MatrixSquareRoot", kernel=host_kernel(_sqrtm), infer=_square_infer, fresh=True,
         grad=lambda op, g: [apply_op("MatrixSquareRootGrad", [op.outputs[0], g], name="MatrixSquareRootGrad")])
register("MatrixSquareRootGrad", kernel=host_kernel(_sqrtm_grad), infer=lambda s, g: [(g.shape, g.dtype)],
         fresh=True)
register("MatrixLogarithm", kernel=host_kernel(lambda x: _eig_function(x, np.log, "logm").astype(x.dtype)),
         infer=_square_infer, fresh=True)


def _square(what, x, kinds):
    x = convert_to_tensor(x)
    shape = static_shape(x)
    if shape is not None and (len(shape) < 2 or None not in shape[-2:] and shape[-1] != shape[-2]):
        raise ValueError(f"{what} needs square matrices in the last two dims, got {x.name!r} of shape {x.shape}")
    if x.dtype.kind not in kinds:
        raise TypeError(f"{what} does not take {x.dtype.name} ({x.name!r}): it takes "
                        f"{'complex64 or complex128' if kinds == 'c' else 'float or complex'} matrices")
    return x


def sqrtm(input, name=None):  # noqa: A002 - TF's name
    """The principal square root of each matrix: sqrtm(a) @ sqrtm(a) == a."""
    return apply_op("MatrixSquareRoot", [_square("sqrtm", input, "fc")], name=name or "MatrixSquareRoot")


def logm(input, name=None):  # noqa: A002 - TF's name
    """The principal logarithm of each complex matrix: expm(logm(a)) == a."""
    return apply_op("MatrixLogarithm", [_square("logm", input, "c")], name=name or "MatrixLogarithm")
