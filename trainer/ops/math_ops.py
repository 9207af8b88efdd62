"""Elementwise and matrix math ops."""
import numpy as np

from ..graph import Tensor
from .core_ops import convert_to_tensor
from .registry import apply_op, check_same_dtype, register


def binary_operands(op_type, x, y):
    """Tensors for a binary op: a Python/numpy operand takes the dtype of the Tensor operand."""
    if isinstance(x, Tensor) and not isinstance(y, Tensor):
        y = convert_to_tensor(y, dtype=x.dtype)
    elif isinstance(y, Tensor) and not isinstance(x, Tensor):
        x = convert_to_tensor(x, dtype=y.dtype)
    else:
        x, y = convert_to_tensor(x), convert_to_tensor(y)
    check_same_dtype(op_type, [x, y])
    return x, y


def _binary(op_type, default_name):
    def build(x, y, name=None):
        x, y = binary_operands(op_type, x, y)
        return apply_op(op_type, [x, y], name=name or default_name)
    return build


register("Add", np.add)
register("Sub", np.subtract)
register("Mul", np.multiply)
register("RealDiv", np.true_divide)

add = _binary("Add", "Add")
subtract = _binary("Sub", "Sub")
multiply = _binary("Mul", "Mul")
divide = _binary("RealDiv", "truediv")


def _matmul_infer(a, b, transpose_a=False, transpose_b=False):
    check_same_dtype("MatMul", [a, b])
    if a.shape is None or b.shape is None:
        return [(None, a.dtype)]
    if len(a.shape) != 2 or len(b.shape) != 2:
        raise ValueError(f"matmul needs 2-D operands, got shapes {a.shape} ({a.name!r}) and {b.shape} ({b.name!r})")
    m, k = a.shape[::-1] if transpose_a else a.shape
    k2, n = b.shape[::-1] if transpose_b else b.shape
    if k is not None and k2 is not None and k != k2:
        raise ValueError(f"Dimensions must be equal, but are {k} and {k2} for 'MatMul' with input shapes "
                         f"{a.shape} and {b.shape}")
    return [((m, n), a.dtype)]


def _matmul_forward(a, b, transpose_a=False, transpose_b=False):
    return np.matmul(a.T if transpose_a else a, b.T if transpose_b else b)


register("MatMul", _matmul_forward, infer=_matmul_infer)


def matmul(a, b, transpose_a=False, transpose_b=False, name=None):
    """Matrix product of 2-D tensors, optionally transposing either operand."""
    a, b = binary_operands("MatMul", a, b)
    return apply_op("MatMul", [a, b], name=name or "MatMul", transpose_a=transpose_a, transpose_b=transpose_b)
