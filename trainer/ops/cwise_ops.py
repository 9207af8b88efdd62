"""Elementwise math TF1 has beyond arithmetic (the "cwise" ops): trigonometry, rounding, floor division and modulo,
logical ops and stop_gradient, as TF1 names them."""
import numpy as np

from ..framework import dtypes
from .core_ops import convert_to_tensor
from .math_ops import binary_builder, binary_operands, divide, unary_builder, unbroadcast, unbroadcast_negated
from ..framework.registry import apply_op, broadcast_shapes, infer_same, register
from ..platform.errors import InvalidArgumentError

_UNARY = {  # type: (forward, gradient); gradients read the op's input x or output y
    "Sin": (np.sin, lambda op, g: [g * cos(op.inputs[0])]),
    "Cos": (np.cos, lambda op, g: [-g * sin(op.inputs[0])]),
    "Tan": (np.tan, lambda op, g: [g * (1.0 + square_like(op.outputs[0]))]),
    "Log1p": (np.log1p, lambda op, g: [g / (1.0 + op.inputs[0])]),
    "Expm1": (np.expm1, lambda op, g: [g * (op.outputs[0] + 1.0)]),
    "Reciprocal": (np.reciprocal, lambda op, g: [-g * square_like(op.outputs[0])]),
    "Rsqrt": (lambda x: np.reciprocal(np.sqrt(x)), lambda op, g: [g * op.outputs[0] ** 3.0 * -0.5]),
    "Floor": (np.floor, lambda op, g: [None]),
    "Ceil": (np.ceil, lambda op, g: [None]),
    "Round": (np.round, lambda op, g: [None]),  # half to even, as TF1's round
    "StopGradient": (lambda x: x, lambda op, g: [None]),
}
for _type, (_forward, _grad) in _UNARY.items():
    register(_type, _forward, infer=infer_same, grad=_grad, view=_type == "StopGradient",
             fresh=_type != "StopGradient")


def square_like(y):
    return y * y


sin = unary_builder("Sin", "Sine elementwise.")
cos = unary_builder("Cos", "Cosine elementwise.")
tan = unary_builder("Tan", "Tangent elementwise.")
log1p = unary_builder("Log1p", "log(1 + x) elementwise, accurate for small x.")
expm1 = unary_builder("Expm1", "exp(x) - 1 elementwise, accurate for small x.")
reciprocal = unary_builder("Reciprocal", "1 / x elementwise.")
rsqrt = unary_builder("Rsqrt", "1 / sqrt(x) elementwise.")
floor = unary_builder("Floor", "The largest integer not above x, elementwise (no gradient).")
ceil = unary_builder("Ceil", "The smallest integer not below x, elementwise (no gradient).")
round = unary_builder("Round", "x rounded to the nearest integer, halves to even (no gradient).")  # noqa: A001
stop_gradient = unary_builder("StopGradient", "x as is, but tg.gradients treats it as a constant.", "stop_gradient")

_PREDICATES = {"IsFinite": np.isfinite, "IsNan": np.isnan, "IsInf": np.isinf, "LogicalNot": np.logical_not}
for _type, _forward in _PREDICATES.items():
    register(_type, _forward, infer=lambda x: [(x.shape, dtypes.bool)], fresh=True)
is_finite = unary_builder("IsFinite", "True where x is neither inf nor nan.", "is_finite")
is_nan = unary_builder("IsNan", "True where x is nan.", "is_nan")
is_inf = unary_builder("IsInf", "True where x is +inf or -inf.", "is_inf")


def _floor_mod_grad(op, g):
    x, y = op.inputs
    return [unbroadcast(g, x), unbroadcast(-g * floordiv(x, y), y)]


def _squared_difference_grad(op, g):
    x, y = op.inputs
    d = g * (x - y) * 2.0
    return [unbroadcast(d, x), unbroadcast_negated(d, y)]


def integer_checked(divide):
    """`divide` raising TF1's InvalidArgumentError for an integer divisor of 0 (numpy warns and returns 0)."""
    def run(x, y):
        if y.dtype.kind in "iu" and not y.all():
            raise InvalidArgumentError("Integer division by zero")
        return divide(x, y)
    return run


register("FloorMod", integer_checked(np.mod), grad=_floor_mod_grad, fresh=True)
register("FloorDiv", integer_checked(np.floor_divide), grad=lambda op, g: [None, None], fresh=True)
register("SquaredDifference", lambda x, y: np.square(np.subtract(x, y)), grad=_squared_difference_grad, fresh=True)
floormod = binary_builder("FloorMod", "floormod", "x mod y with the sign of y (Python's %), elementwise.")
mod = binary_builder("FloorMod", "mod", "x mod y with the sign of y (Python's %), elementwise.")
floordiv = binary_builder("FloorDiv", "floordiv", "floor(x / y) elementwise (Python's //; no gradient).",
                          default_name="floordiv")
squared_difference = binary_builder("SquaredDifference", "squared_difference", "(x - y) ** 2 elementwise.")

for _type, _forward in {"LogicalAnd": np.logical_and, "LogicalOr": np.logical_or}.items():
    register(_type, _forward, infer=lambda x, y: [(broadcast_shapes(x.shape, y.shape), dtypes.bool)],
             fresh=True)


def _logical(op_type, public_name, doc):
    def build(x, y, name=None):
        x, y = binary_operands(op_type, x, y)
        for t in (x, y):
            if t.dtype != dtypes.bool:
                raise TypeError(f"{public_name} needs bool inputs, got {t.name!r} of dtype {t.dtype.name}; "
                                "compare first (tg.greater, ...) or tg.cast to tg.bool")
        return apply_op(op_type, [x, y], name=name or op_type)
    build.__name__ = build.__qualname__ = public_name
    build.__doc__ = doc
    return build


logical_and = _logical("LogicalAnd", "logical_and", "x AND y elementwise (bool).")
logical_or = _logical("LogicalOr", "logical_or", "x OR y elementwise (bool).")


def logical_not(x, name=None):
    """NOT x elementwise (bool)."""
    x = convert_to_tensor(x)
    if x.dtype != dtypes.bool:
        raise TypeError(f"logical_not needs a bool input, got {x.name!r} of dtype {x.dtype.name}")
    return apply_op("LogicalNot", [x], name=name or "LogicalNot")


def logical_xor(x, y, name="LogicalXor"):
    """x XOR y elementwise (bool), built as TF1 does: (x OR y) AND NOT (x AND y)."""
    return logical_and(logical_or(x, y), logical_not(logical_and(x, y)), name=name)


def truediv(x, y, name=None):
    """x / y in floating point: TF1 casts int8/int16/uint8/uint16 to float32 and wider integers to float64."""
    return divide(x, y, name=name)

