"""tf.matmul of operands of rank > 2: TF1's BatchMatMulV2, matrices multiplied over broadcast leading dimensions.

math_ops.matmul builds this op type by its registered name when either operand is known to have more than two
dimensions, so the 2-D MatMul stays the one training steps run.
"""
import numpy as np

from ..framework.registry import apply_op, broadcast_shapes, get_array_module, register
from .math_ops import unbroadcast
from .tensor_util import static_shape


def _swap(x):
    return get_array_module(x).swapaxes(x, -1, -2)


def _batch_matmul(a, b, adj_x=False, adj_y=False):
    return get_array_module(a).matmul(_swap(a) if adj_x else a, _swap(b) if adj_y else b)


def _infer(a, b, adj_x=False, adj_y=False):
    sa, sb = static_shape(a), static_shape(b)
    if sa is None or sb is None:
        return [(None, a.dtype)]
    if len(sa) < 2 or len(sb) < 2:
        raise ValueError(f"matmul needs operands of rank >= 2, got shapes {a.shape} ({a.name!r}) and {b.shape} "
                         f"({b.name!r})")
    (m, k), (k2, n) = sa[-2:][::-1] if adj_x else sa[-2:], sb[-2:][::-1] if adj_y else sb[-2:]
    if k is not None and k2 is not None and k != k2:
        raise ValueError(f"Dimensions must be equal, but are {k} and {k2} for 'BatchMatMulV2' with input shapes "
                         f"{a.shape} and {b.shape}")
    return [(broadcast_shapes(sa[:-2], sb[:-2]) + (m, n), a.dtype)]


def batch_matmul(a, b, adj_x=False, adj_y=False, name=None):
    return apply_op("BatchMatMulV2", [a, b], name=name or "MatMul", adj_x=bool(adj_x), adj_y=bool(adj_y))


def _grad(op, g):
    """TF1's rule: the 2-D products' gradients over the batch, summed back over the dims broadcasting added."""
    a, b = op.inputs
    adj_x, adj_y = op.attrs["adj_x"], op.attrs["adj_y"]
    if not adj_x:
        ga = batch_matmul(g, b, adj_y=not adj_y)
    else:
        ga = batch_matmul(b, g, adj_x=adj_y, adj_y=True)
    if not adj_y:
        gb = batch_matmul(a, g, adj_x=not adj_x)
    else:
        gb = batch_matmul(g, a, adj_x=True, adj_y=adj_x)
    return [unbroadcast(ga, a), unbroadcast(gb, b)]


register("BatchMatMulV2", _batch_matmul, infer=_infer, grad=_grad, fresh=True)
