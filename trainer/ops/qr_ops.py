"""tf.qr: the QR decomposition of each matrix in the last two dims (forward only: TF1's gradient of Qr is not
implemented here, so tg.gradients through it raises NotImplementedError naming "Qr")."""
from .core_ops import convert_to_tensor
from ..framework.registry import apply_op, get_array_module, register
from .tensor_util import static_shape


def _qr(x, full_matrices):
    q, r = get_array_module(x).linalg.qr(x, mode="complete" if full_matrices else "reduced")
    return q.astype(x.dtype, copy=False), r.astype(x.dtype, copy=False)


def _qr_infer(x, full_matrices):
    shape = static_shape(x)
    if shape is None:
        return [(None, x.dtype)] * 2
    *batch, m, n = shape
    k = m if full_matrices else None if None in (m, n) else min(m, n)
    return [((*batch, m, k), x.dtype), ((*batch, k, n), x.dtype)]


register("Qr", _qr, infer=_qr_infer, fresh=True)


def qr(input, full_matrices=False, name=None):  # noqa: A002 - TF1's name
    """(q, r) with input = q @ r, q's columns orthonormal and r upper triangular; with full_matrices, q is square."""
    x = convert_to_tensor(input)
    if x.ndim is not None and x.ndim < 2 or x.dtype.kind not in "fc":
        raise ValueError(f"qr needs a floating point tensor of rank >= 2, got {x.name!r} of dtype {x.dtype.name} "
                         f"and shape {x.shape}")
    return apply_op("Qr", [x], name=name or "Qr", full_matrices=bool(full_matrices))
