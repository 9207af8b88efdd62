"""Diagonals as ops with gradients: matrix_diag (batched diagonal matrices), matrix_diag_part, matrix_set_diag and
TF1's tf.diag_part (the diagonal of a rank-2k tensor). Each one's gradient is another of them."""
import numpy as np

from ..framework.registry import host_kernel
from ..framework.registry import apply_op, get_array_module, register
from ..platform.errors import InvalidArgumentError
from .core_ops import convert_to_tensor
from .linalg_ops import tensor_diag
from .math_ops import zeros_like
from .tensor_util import static_shape


def _matrix_diag(d):
    n = d.shape[-1]
    out = get_array_module(d).zeros(d.shape + (n,), dtype=d.dtype)
    out[..., np.arange(n), np.arange(n)] = d
    return out


def _set_diag(x, d):
    n = min(x.shape[-2:])
    if d.shape != x.shape[:-2] + (n,):
        raise InvalidArgumentError(f"matrix_set_diag: diagonal of shape {d.shape} does not fit matrices of shape "
                                   f"{x.shape}: expected {x.shape[:-2] + (n,)}")
    out = x.copy()
    out[..., np.arange(n), np.arange(n)] = d
    return out


def _diag_part(x):
    k = x.ndim // 2
    if x.shape[:k] != x.shape[k:]:
        raise InvalidArgumentError(f"diag_part: the first half of shape {x.shape} must equal the second")
    flat = x.reshape(int(np.prod(x.shape[:k], dtype=np.int64)), -1)
    return np.diagonal(flat).reshape(x.shape[:k]).copy()


def _diag_infer(d):
    s = static_shape(d)
    return [(None if s is None else s + s[-1:], d.dtype)]


def _part_infer(x):
    s = static_shape(x)
    if s is None:
        return [(None, x.dtype)]
    n = None if None in s[-2:] else min(s[-2:])
    return [(s[:-2] + (n if n is not None else (s[-1] if s[-1] == s[-2] else None),), x.dtype)]


register("MatrixDiag", kernel=host_kernel(_matrix_diag), infer=_diag_infer, fresh=True,
         grad=lambda op, g: [matrix_diag_part(g)])
register("MatrixDiagPart", kernel=host_kernel(lambda x: np.diagonal(x, axis1=-2, axis2=-1).copy()), infer=_part_infer,
         fresh=True,
         grad=lambda op, g: [matrix_set_diag(zeros_like(op.inputs[0]), g)])
register("MatrixSetDiag", kernel=host_kernel(_set_diag), infer=lambda x, d: [(x.shape, x.dtype)], fresh=True,
         grad=lambda op, g: [matrix_set_diag(g, zeros_like(op.inputs[1])), matrix_diag_part(g)])
register("DiagPart", kernel=host_kernel(_diag_part), fresh=True, grad=lambda op, g: [tensor_diag(g)],
         infer=lambda x: [(None if x.ndim is None else static_shape(x)[:x.ndim // 2], x.dtype)])


def _at_least(x, rank, what):
    x = convert_to_tensor(x)
    if x.ndim is not None and x.ndim < rank:
        raise ValueError(f"{what} needs a tensor of rank >= {rank}, got {x.name!r} of shape {x.shape}")
    return x


def matrix_diag(diagonal, name="diag"):
    """Batched diagonal matrices: shape diagonal.shape + [n], `diagonal` on each matrix's main diagonal."""
    return apply_op("MatrixDiag", [_at_least(diagonal, 1, "matrix_diag")], name=name or "MatrixDiag")


def matrix_diag_part(input, name="diag_part"):  # noqa: A002 - TF1's name
    """The main diagonal of each matrix in the last two dims (min(rows, columns) long)."""
    return apply_op("MatrixDiagPart", [_at_least(input, 2, "matrix_diag_part")], name=name or "MatrixDiagPart")


def matrix_set_diag(input, diagonal, name="set_diag"):  # noqa: A002 - TF1's name
    """A copy of the matrices `input` with their main diagonal replaced by `diagonal`."""
    x = _at_least(input, 2, "matrix_set_diag")
    d = convert_to_tensor(diagonal, dtype=x.dtype)
    s, t = static_shape(x), static_shape(d)
    if s is not None and t is not None and len(t) != len(s) - 1:
        raise ValueError(f"matrix_set_diag: diagonal {d.name!r} of shape {d.shape} needs rank {len(s) - 1} to fit "
                         f"{x.name!r} of shape {x.shape}")
    return apply_op("MatrixSetDiag", [x, d], name=name or "MatrixSetDiag")


def tensor_diag_part(input, name=None):  # noqa: A002 - TF1's name
    """TF1's tf.diag_part: out[i...] = input[i..., i...] for a tensor of rank 2k whose two halves of dims agree."""
    x = convert_to_tensor(input)
    s = static_shape(x)
    if s is not None and (len(s) % 2 or len(s) == 0):
        raise ValueError(f"diag_part needs a tensor of even, non-zero rank, got {x.name!r} of shape {x.shape}")
    if s is not None and any(a is not None and b is not None and a != b for a, b in zip(s[:len(s) // 2],
                                                                                     s[len(s) // 2:])):
        raise ValueError(f"diag_part: the first half of {x.name!r}'s shape {x.shape} must equal the second")
    return apply_op("DiagPart", [x], name=name or "DiagPart")
