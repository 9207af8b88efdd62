"""TF1's other divisions: tf.div (Python 2's /), realdiv, truncatediv and truncatemod (C's / and %, toward zero),
floor_div, div_no_nan (0 where the divisor is 0) and scalar_mul."""
import numpy as np

from ..framework.graph_wrappers import name_scope
from .core_ops import convert_to_tensor
from .cwise_ops import floordiv, integer_checked
from .math_ops import binary_builder, binary_operands, divide, ones_like, unbroadcast
from ..framework.registry import apply_op, get_array_module, register


def _truncate_div(x, y):
    xp = get_array_module(x)
    if x.dtype.kind == "f":
        return xp.trunc(x / y)
    return (x - xp.fmod(x, y)) // y  # exact: x - fmod(x, y) is a multiple of y


# TF1 registers no gradient for either (integer division; fmod's is not defined for floats there either).
register("TruncateDiv", integer_checked(_truncate_div), fresh=True)
register("TruncateMod", integer_checked(lambda x, y: get_array_module(x).fmod(x, y)), fresh=True)
truncatemod = binary_builder("TruncateMod", "truncatemod", "x % y with the sign of x (C's fmod), elementwise.")
floor_div = binary_builder("FloorDiv", "floor_div", "floor(x / y) elementwise (TF1's older name of floordiv).")


def truncatediv(x, y, name=None):
    """x / y rounded toward zero (C's integer division; floats are divided, then truncated, as in TF1)."""
    x, y = binary_operands("TruncateDiv", x, y)
    if x.dtype.kind not in "iuf":
        raise TypeError(f"truncatediv divides numbers; got {x.name!r} of dtype {x.dtype.name}: tg.cast it first")
    return apply_op("TruncateDiv", [x, y], name=name or "TruncateDiv")


def div(x, y, name=None):
    """TF1's tf.div, Python 2's `/`: floor division for integers, true division for floats."""
    x, y = binary_operands("Div", x, y)
    if x.dtype.kind in "iu":
        return floordiv(x, y, name=name or "div")
    return divide(x, y, name=name or "div")


def realdiv(x, y, name=None):
    """x / y for floating point x and y (TF1's RealDiv)."""
    x, y = binary_operands("RealDiv", x, y)
    if x.dtype.kind not in "fc":
        raise TypeError(f"realdiv divides floats; got {x.name!r} of dtype {x.dtype.name}: use tg.truediv, which "
                        "casts integers first, or tg.floordiv")
    return apply_op("RealDiv", [x, y], name=name or "RealDiv")


def _div_no_nan(x, y):
    xp = get_array_module(x)
    zero = y == 0
    quotient = xp.true_divide(x, xp.where(zero, xp.ones((), y.dtype), y))
    return xp.where(zero, xp.zeros((), quotient.dtype), quotient)


def _div_no_nan_grad(op, g):
    x, y = op.inputs
    return [unbroadcast(div_no_nan(g, y), x), unbroadcast(g * div_no_nan(div_no_nan(-x, y), y), y)]


register("DivNoNan", _div_no_nan, grad=_div_no_nan_grad, fresh=True)


def div_no_nan(x, y, name=None):
    """x / y, and 0 where y is 0 (with gradients 0 there too, as TF1's DivNoNan)."""
    x, y = binary_operands("DivNoNan", x, y)
    if x.dtype.kind in "iu":  # TF divides integers in floating point, as truediv does
        target = np.float32 if x.dtype.itemsize <= 2 else np.float64
        x, y = apply_op("Cast", [x], dtype=target), apply_op("Cast", [y], dtype=target)
    return apply_op("DivNoNan", [x, y], name=name or "div_no_nan")


def scalar_mul(scalar, x, name=None):
    """scalar * x, for a 0-d `scalar`."""
    x = convert_to_tensor(x)
    scalar = convert_to_tensor(scalar, dtype=x.dtype)
    if scalar.ndim != 0:
        raise ValueError(f"scalar_mul needs a scalar, got {scalar.name!r} of shape {scalar.shape}")
    with name_scope(name or "scalar_mul"):
        return scalar * x


def reciprocal_no_nan(x, name=None):
    """1 / x, and 0 where x is 0."""
    x = convert_to_tensor(x)
    if x.dtype.kind not in "fc":
        raise TypeError(f"reciprocal_no_nan takes floating-point or complex inputs, got {x.name!r} of dtype "
                        f"{x.dtype.name}: tg.cast it first")
    with name_scope(name or "reciprocal_no_nan"):
        return div_no_nan(ones_like(x), x)
