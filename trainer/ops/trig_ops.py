"""Inverse and hyperbolic trigonometry (asin, acos, atan, atan2, sinh, cosh, asinh, acosh, atanh) and rint, with
TF1's gradients."""
import numpy as np

from .math_ops import binary_operands, sqrt, unary_builder, unbroadcast
from ..framework.registry import apply_op, infer_same, register

_UNARY = {  # type: (forward, gradient); gradients read the op's input x or output y
    "Asin": (np.arcsin, lambda op, g: [g / sqrt(1.0 - op.inputs[0] * op.inputs[0])]),
    "Acos": (np.arccos, lambda op, g: [-g / sqrt(1.0 - op.inputs[0] * op.inputs[0])]),
    "Atan": (np.arctan, lambda op, g: [g / (1.0 + op.inputs[0] * op.inputs[0])]),
    "Sinh": (np.sinh, lambda op, g: [g * cosh(op.inputs[0])]),
    "Cosh": (np.cosh, lambda op, g: [g * sinh(op.inputs[0])]),
    "Asinh": (np.arcsinh, lambda op, g: [g / cosh(op.outputs[0])]),
    "Acosh": (np.arccosh, lambda op, g: [g / sinh(op.outputs[0])]),
    "Atanh": (np.arctanh, lambda op, g: [g / (1.0 - op.inputs[0] * op.inputs[0])]),
    "Rint": (np.rint, lambda op, g: [None]),  # halves to even, as TF1's rint
}
for _type, (_forward, _grad) in _UNARY.items():
    register(_type, _forward, infer=infer_same, grad=_grad, fresh=True)


def _atan2_grad(op, g):
    y, x = op.inputs
    scale = g / (x * x + y * y)
    return [unbroadcast(scale * x, y), unbroadcast(-scale * y, x)]


register("Atan2", np.arctan2, grad=_atan2_grad, fresh=True)

asin = unary_builder("Asin", "arcsin(x) elementwise.")
acos = unary_builder("Acos", "arccos(x) elementwise.")
atan = unary_builder("Atan", "arctan(x) elementwise.")
sinh = unary_builder("Sinh", "Hyperbolic sine elementwise.")
cosh = unary_builder("Cosh", "Hyperbolic cosine elementwise.")
asinh = unary_builder("Asinh", "Inverse hyperbolic sine elementwise.")
acosh = unary_builder("Acosh", "Inverse hyperbolic cosine elementwise.")
atanh = unary_builder("Atanh", "Inverse hyperbolic tangent elementwise.")
rint = unary_builder("Rint", "x rounded to the nearest integer, halves to even (no gradient).")


def atan2(y, x, name=None):
    """The angle of the point (x, y): arctan(y / x) in the right quadrant (TF1's order: y first)."""
    y, x = binary_operands("Atan2", y, x)
    return apply_op("Atan2", [y, x], name=name or "Atan2")
