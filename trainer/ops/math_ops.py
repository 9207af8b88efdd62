"""Elementwise and matrix math ops, each registered with its gradient."""
import numpy as np

from ..framework.tensor import Tensor
from ..framework import dtypes
from ..framework.graph_wrappers import name_scope
from .core_ops import convert_to_tensor
from ..framework.registry import apply_op, broadcast_shapes, check_same_dtype, get_array_module, infer_same, register
from .kernels import gemm
from .tensor_util import static_shape


def inplace_binary(ufunc):
    """ufunc(x, y) written into x when the broadcast result has x's shape, else into a new array."""
    def run(x, y):
        # numpy checks the shapes before it writes: asking it costs nothing, comparing them here cost up to 0.5 us
        try:
            return ufunc(x, y, out=x)
        except ValueError:  # the broadcast result is larger than x
            return ufunc(x, y)
    return run


# TF1's OpDef type lists, by numpy kind: the inputs an op takes when it is built (TypeError otherwise, as in TF1).
FLOATS, NUMBERS = "fc", "fciu"
INPUT_KINDS = {
    **dict.fromkeys(["Exp", "Log", "Sqrt", "Rsqrt", "Log1p", "Expm1", "Sin", "Cos", "Tan", "Asin", "Acos", "Atan",
                     "Sinh", "Cosh", "Asinh", "Acosh", "Atanh", "Sigmoid", "Tanh", "Ceil", "Floor", "Rint", "IsFinite",
                     "IsNan", "IsInf", "Softplus", "Softsign", "Elu", "Selu", "LeakyRelu", "Atan2", "Softmax",
                     "LogSoftmax", "L2Loss", "Erf", "Erfc", "Lgamma", "Digamma", "Zeta", "Polygamma", "Xlogy",
                     "Xdivy", "MulNoNan", "Erfinv", "Ndtri", "NextAfter", "Xlog1py"], FLOATS),
    **dict.fromkeys(["RealDiv", "DivNoNan", "TruncateMod", "MatMul", "Cumsum", "Cumprod"], NUMBERS),
    **dict.fromkeys(["Neg", "Square", "Abs", "Sign", "Relu", "Relu6", "Round", "Reciprocal", "Add", "AddV2", "Sub",
                     "Mul", "Div", "FloorDiv", "FloorMod", "Pow", "Maximum", "Minimum", "SquaredDifference", "Less",
                     "LessEqual", "Greater", "GreaterEqual", "Sum", "Mean", "Prod", "Max", "Min"], NUMBERS),
}


def check_input_kind(op_type, x):
    """TF1's construction-time dtype check of `op_type`'s input `x` (INPUT_KINDS)."""
    kinds = INPUT_KINDS.get(op_type)
    if kinds is not None and x.dtype.kind not in kinds:
        allowed = "floating-point" if kinds == FLOATS else "numeric (not bool)"
        raise TypeError(f"{op_type} takes {allowed} inputs, as in TF1; got {x.name!r} of dtype {x.dtype.name}: "
                        "tg.cast it first")


def binary_operands(op_type, x, y):
    """Tensors for a binary op: a Python/numpy operand takes the dtype of the Tensor operand."""
    # The constant goes into the Tensor's graph, which need not be the default one (TF1 does the same).
    if isinstance(x, Tensor) and not isinstance(y, Tensor):
        with x.graph.as_default():
            y = convert_to_tensor(y, dtype=x.dtype)
    elif isinstance(y, Tensor) and not isinstance(x, Tensor):
        with y.graph.as_default():
            x = convert_to_tensor(x, dtype=y.dtype)
    else:
        x, y = convert_to_tensor(x), convert_to_tensor(y)
    check_same_dtype(op_type, [x, y])
    check_input_kind(op_type, x)
    return x, y


def unbroadcast(grad, like):
    """`grad` summed over the axes that broadcasting added to, or stretched in, `like`'s shape."""
    shape = static_shape(grad)
    if shape is not None and shape == static_shape(like) and None not in shape:
        return grad
    return apply_op("SumToShape", [grad, like], name="SumToShape")


def unbroadcast_negated(grad, like):
    """-unbroadcast(grad, like), negated after the sum where `like` was broadcast: a batch-sized Neg saved (a
    mean's gradient in a batch norm), and the same values, since rounding is symmetric under negation."""
    reduced = unbroadcast(grad, like)
    return apply_op("Neg", [reduced], name="Neg")


def _sum_to_shape(grad, like):
    shape = like.shape
    if grad.shape == shape:
        return grad
    lead = grad.ndim - len(shape)
    axes = tuple(range(lead)) + tuple(i + lead for i, d in enumerate(shape) if d == 1 and grad.shape[i + lead] != 1)
    return grad.sum(axis=axes, keepdims=True).reshape(shape) if axes else grad.reshape(shape)


def _sum_to_shape_into(out, grad, like):
    if grad.shape == out.shape:
        out[...] = grad
        return out
    lead = grad.ndim - out.ndim
    axes = tuple(range(lead)) + tuple(i + lead for i, d in enumerate(out.shape) if d == 1 and grad.shape[i + lead] != 1)
    grad.sum(axis=axes, out=out.reshape([d for i, d in enumerate(grad.shape) if i not in axes]))
    return out


register("SumToShape", _sum_to_shape, infer=lambda g, like: [(like.shape, g.dtype)], view=True,
         grad=lambda op, gg: [apply_op("BroadcastLike", [gg, op.inputs[0]]), None], into=_sum_to_shape_into)
register("BroadcastLike", lambda g, like: np.broadcast_to(g, like.shape), view=True,
         infer=lambda g, like: [(like.shape, g.dtype)],
         grad=lambda op, gg: [unbroadcast(gg, op.inputs[0]), None])


def binary_builder(op_type, public_name, doc, default_name=None):
    """The public function `public_name` building a two-input op of `op_type` (op named like its type)."""
    def build(x, y, name=None):
        x, y = binary_operands(op_type, x, y)
        return apply_op(op_type, [x, y], name=name or default_name or op_type)
    build.__name__ = build.__qualname__ = public_name
    build.__doc__ = doc
    return build


def _pow_grad(op, g):
    x, y = op.inputs
    log_x = where(greater(x, 0.0), log(where(greater(x, 0.0), x, ones_like(x))), zeros_like(x))
    return [unbroadcast(g * y * pow(x, y - 1.0), x), unbroadcast(g * op.outputs[0] * log_x, y)]


def _select_grad(pick_x):
    def grad(op, g):
        x, y = op.inputs
        mask = pick_x(x, y)
        zeros = zeros_like(g)
        return [unbroadcast(where(mask, g, zeros), x), unbroadcast(where(mask, zeros, g), y)]
    return grad


def conj_if_complex(t):
    """t's complex conjugate (complex_ops registers Conj), t itself when real: TF1's products conjugate the other
    factor in their gradients."""
    return apply_op("Conj", [t]) if t.dtype.kind == "c" else t


_BINARY = {  # type: (forward, gradient)
    "Add": (np.add, lambda op, g: [unbroadcast(g, op.inputs[0]), unbroadcast(g, op.inputs[1])]),
    "Sub": (np.subtract, lambda op, g: [unbroadcast(g, op.inputs[0]), unbroadcast_negated(g, op.inputs[1])]),
    "Mul": (np.multiply, lambda op, g: [unbroadcast(g * conj_if_complex(op.inputs[1]), op.inputs[0]),
                                        unbroadcast(g * conj_if_complex(op.inputs[0]), op.inputs[1])]),
    "RealDiv": (np.true_divide, lambda op, g: [unbroadcast(g / op.inputs[1], op.inputs[0]),
                                               unbroadcast(-g * op.outputs[0] / op.inputs[1], op.inputs[1])]),
    "Pow": (np.power, _pow_grad),
    "Maximum": (np.maximum, _select_grad(lambda x, y: greater_equal(x, y))),
    "Minimum": (np.minimum, _select_grad(lambda x, y: less_equal(x, y))),
}
_INPLACE = {"Add": np.add, "Sub": np.subtract, "Mul": np.multiply, "RealDiv": np.true_divide}
for _type, (_forward, _grad) in _BINARY.items():
    register(_type, _forward, grad=_grad, fresh=True,
             inplace=inplace_binary(_INPLACE[_type]) if _type in _INPLACE else None)

add = binary_builder("Add", "add", "x + y elementwise, with numpy broadcasting.")
subtract = binary_builder("Sub", "subtract", "x - y elementwise, with numpy broadcasting.")
multiply = binary_builder("Mul", "multiply", "x * y elementwise, with numpy broadcasting.")


def divide(x, y, name=None):
    """x / y elementwise in floating point, with numpy broadcasting; integers are cast first as TF1's truediv
    does (int8/int16/uint8/uint16 to float32, wider ones to float64)."""
    x, y = binary_operands("RealDiv", x, y)
    if x.dtype.kind in "iu":
        target = np.float32 if x.dtype.itemsize <= 2 else np.float64
        with name_scope(name, "truediv", [x, y]) as scope:  # TF1's names: truediv/Cast, truediv/Cast_1, truediv
            x, y = apply_op("Cast", [x], dtype=target), apply_op("Cast", [y], dtype=target)
            return apply_op("RealDiv", [x, y], name=scope)
    return apply_op("RealDiv", [x, y], name=name or "truediv")


pow = binary_builder("Pow", "pow", "x ** y elementwise, with numpy broadcasting.")  # noqa: A001 - TF1's name
maximum = binary_builder("Maximum", "maximum", "The larger of x and y elementwise (ties send the gradient to x).")
minimum = binary_builder("Minimum", "minimum", "The smaller of x and y elementwise (ties send the gradient to x).")

_COMPARE = {"Greater": np.greater, "GreaterEqual": np.greater_equal, "Less": np.less,
            "LessEqual": np.less_equal, "Equal": np.equal, "NotEqual": np.not_equal}
for _type, _forward in _COMPARE.items():
    register(_type, _forward, infer=lambda x, y: [(_broadcast(x, y), np.dtype(bool))], fresh=True)


def _broadcast(*tensors):
    return broadcast_shapes(*[t.shape for t in tensors])


greater = binary_builder("Greater", "greater", "x > y elementwise (bool).")
greater_equal = binary_builder("GreaterEqual", "greater_equal", "x >= y elementwise (bool).")
less = binary_builder("Less", "less", "x < y elementwise (bool).")
less_equal = binary_builder("LessEqual", "less_equal", "x <= y elementwise (bool).")
equal = binary_builder("Equal", "equal", "x == y elementwise (bool).")
not_equal = binary_builder("NotEqual", "not_equal", "x != y elementwise (bool).")

_UNARY = {  # type: (forward, gradient); gradients read the op's input x or output y
    "Neg": (np.negative, lambda op, g: [-g]),
    "Exp": (np.exp, lambda op, g: [g * op.outputs[0]]),
    "Log": (np.log, lambda op, g: [g / op.inputs[0]]),
    "Sqrt": (np.sqrt, lambda op, g: [g / (op.outputs[0] * 2.0)]),
    "Square": (np.square, lambda op, g: [g * (op.inputs[0] * 2.0)]),
    "Abs": (np.abs, lambda op, g: [g * sign(op.inputs[0])]),
    "Sign": (np.sign, lambda op, g: [None]),
}
for _type, (_forward, _grad) in _UNARY.items():
    register(_type, _forward, infer=infer_same, grad=_grad, fresh=True,
             inplace=(lambda x: np.negative(x, out=x)) if _type == "Neg" else None)


def unary_builder(op_type, doc, public_name=None):
    """The public function `public_name` (default: the op type in lower case) building a one-input op."""
    def build(x, name=None):
        x = convert_to_tensor(x)
        check_input_kind(op_type, x)
        return apply_op(op_type, [x], name=name or op_type)
    build.__name__ = build.__qualname__ = public_name or op_type.lower()
    build.__doc__ = doc
    return build


negative = unary_builder("Neg", "-x elementwise.", "negative")
exp = unary_builder("Exp", "e ** x elementwise.")
log = unary_builder("Log", "Natural logarithm elementwise.")
sqrt = unary_builder("Sqrt", "Square root elementwise.")
square = unary_builder("Square", "x * x elementwise.")
abs = unary_builder("Abs", "|x| elementwise.")  # noqa: A001 - TF1's name
sign = unary_builder("Sign", "-1, 0 or 1 by the sign of x, elementwise.")


def _matmul_infer(a, b, transpose_a=False, transpose_b=False):
    check_same_dtype("MatMul", [a, b])
    sa, sb = static_shape(a), static_shape(b)
    if sa is None or sb is None:
        return [(None, a.dtype)]
    if len(sa) != 2 or len(sb) != 2:
        raise ValueError(f"matmul needs 2-D operands, got shapes {a.shape} ({a.name!r}) and {b.shape} ({b.name!r})")
    m, k = sa[::-1] if transpose_a else sa
    k2, n = sb[::-1] if transpose_b else sb
    if k is not None and k2 is not None and k != k2:
        raise ValueError(f"Dimensions must be equal, but are {k} and {k2} for 'MatMul' with input shapes "
                         f"{a.shape} and {b.shape}")
    return [((m, n), a.dtype)]


def _matmul_kernel(op, session):
    # BLAS takes transposed operands as flags: a.T is a free view, never a copy.
    ta, tb, dot = op.attrs["transpose_a"], op.attrs["transpose_b"], np.dot
    if ta and tb:
        return lambda a, b: dot(a.T, b.T)
    if ta:
        return lambda a, b: dot(a.T, b)
    if tb:  # a dense layer's input gradient, g @ W^T: faster turned around on some BLAS kernels
        return gemm.dot_nt_for(static_shape(op.inputs[1]))
    return dot


def _matmul_grad(op, g):
    a, b = (conj_if_complex(t) for t in op.inputs)
    ta, tb = op.attrs["transpose_a"], op.attrs["transpose_b"]
    if not ta and not tb:
        return [matmul(g, b, transpose_b=True), matmul(a, g, transpose_a=True)]
    if not ta:
        return [matmul(g, b), matmul(g, a, transpose_a=True)]
    if not tb:
        return [matmul(b, g, transpose_b=True), matmul(a, g)]
    return [matmul(b, g, transpose_a=True, transpose_b=True), matmul(g, a, transpose_a=True, transpose_b=True)]


def _matmul_into(out, a, b, transpose_a=False, transpose_b=False):
    return np.matmul(a.T if transpose_a else a, b.T if transpose_b else b, out=out)


register("MatMul", kernel=_matmul_kernel, infer=_matmul_infer, grad=_matmul_grad, fresh=True, into=_matmul_into)


def matmul(a, b, transpose_a=False, transpose_b=False, name=None):
    """Matrix product, optionally transposing either operand; operands of known rank > 2 are batches of matrices
    (TF1's BatchMatMulV2, batch dims broadcast)."""
    a, b = binary_operands("MatMul", a, b)
    if (a.ndim or 2) > 2 or (b.ndim or 2) > 2:  # batch_matmul_ops.py registers it; unknown ranks stay 2-D
        return apply_op("BatchMatMulV2", [a, b], name=name or "MatMul", adj_x=bool(transpose_a),
                        adj_y=bool(transpose_b))
    return apply_op("MatMul", [a, b], name=name or "MatMul", transpose_a=transpose_a, transpose_b=transpose_b)


def _add_n(*xs):
    xp = get_array_module(xs[0])
    out = xp.asarray(xp.add(xs[0], xs[1]))  # 0-d inputs give a numpy scalar, which out= cannot write into
    for x in xs[2:]:
        np.add(out, x, out=out)
    return out


register("AddN", lambda *xs: xs[0] if len(xs) == 1 else _add_n(*xs), infer=infer_same, view=True,
         grad=lambda op, g: [g] * len(op.inputs))


def add_n(inputs, name=None):
    """The elementwise sum of a list of tensors of one shape and dtype."""
    inputs = [convert_to_tensor(x) for x in inputs]
    check_same_dtype("AddN", inputs)
    return apply_op("AddN", inputs, name=name or "AddN")


def where(condition, x=None, y=None, name=None):
    """Elements of x where `condition` is true, else of y (numpy broadcasting); with neither x nor y, the
    coordinates of the true elements of `condition`, one int64 row each (TF1)."""
    if x is None and y is None:
        return apply_op("Where", [convert_to_tensor(condition)], name=name or "Where")
    if x is None or y is None:
        raise ValueError("where takes both x and y, or neither (then it returns the coordinates of true elements)")
    x, y = binary_operands("Select", x, y)
    return apply_op("Select", [convert_to_tensor(condition), x, y], name=name or "Select")


# The run decides how many rows: the number of true elements.
register("Where", lambda c: get_array_module(c).argwhere(c).astype(np.int64),
         infer=lambda c: [((None, c.ndim), dtypes.int64)], fresh=True)


def _select_grad_rule(op, g):
    c, x, y = op.inputs
    zeros = zeros_like(g)
    return [None, unbroadcast(where(c, g, zeros), x), unbroadcast(where(c, zeros, g), y)]


def _select_infer(c, x, y):
    """TF1's where: the shape of x and y (a condition of unknown rank, e.g. a bool placeholder, cannot widen it)."""
    return [(_broadcast(x, y) if c.ndim is None else _broadcast(c, x, y), x.dtype)]


register("Select", np.where, infer=_select_infer,
         grad=_select_grad_rule, fresh=True)

register("ZerosLike", np.zeros_like, infer=infer_same, grad=lambda op, g: [None], fresh=True)
register("OnesLike", np.ones_like, infer=infer_same, grad=lambda op, g: [None], fresh=True)


def zeros_like(x, dtype=None, name=None, optimize=True):
    """Zeros of x's shape, in x's dtype or `dtype`."""
    return _like("ZerosLike", x, dtype, name or "zeros_like")


def ones_like(x, dtype=None, name=None, optimize=True):
    """Ones of x's shape, in x's dtype or `dtype`."""
    return _like("OnesLike", x, dtype, name or "ones_like")


def _like(op_type, x, dtype, name):
    x = convert_to_tensor(x)
    if dtype is not None and dtypes.as_dtype(dtype) != x.dtype:
        x = apply_op("Cast", [x], dtype=dtypes.as_dtype(dtype))
    return apply_op(op_type, [x], name=name)


def sparse_matmul(a, b, transpose_a=False, transpose_b=False, a_is_sparse=False, b_is_sparse=False, name=None):
    """TF1's SparseMatMul: the float32 product of two matrices; a_is_sparse and b_is_sparse are hints for TF's
    kernel (the product is the same)."""
    a, b = convert_to_tensor(a, name="a"), convert_to_tensor(b, name="b")
    for x in (a, b):
        if x.dtype != dtypes.float32:
            raise TypeError(f"sparse_matmul multiplies float32 matrices, got {x.name!r} of dtype {x.dtype.name}")
        if x.ndim not in (None, 2):
            raise ValueError(f"sparse_matmul multiplies matrices, got {x.name!r} of shape {x.shape}")
    return matmul(a, b, transpose_a=transpose_a, transpose_b=transpose_b, name=name or "SparseMatMul")
