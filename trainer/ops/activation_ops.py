"""More activations, TF1's: relu6, elu, softplus and leaky_relu, each with its gradient op."""
import numpy as np

from .core_ops import convert_to_tensor
from .math_ops import unary_builder, where, zeros_like
from .registry import apply_op, infer_same, register


def _sigmoid(x):
    return np.exp(-np.logaddexp(0, -x)).astype(x.dtype, copy=False)


register("Relu6", lambda x: np.clip(x, 0, 6), infer=infer_same,
         grad=lambda op, g: [apply_op("Relu6Grad", [g, op.inputs[0]], name="Relu6Grad")], fresh=True)
register("Relu6Grad", lambda g, x: g * ((x > 0) & (x < 6)), infer=infer_same,
         grad=lambda op, gg: [apply_op("Relu6Grad", [gg, op.inputs[1]]), None], fresh=True)

register("Elu", lambda x: np.where(x > 0, x, np.expm1(np.minimum(x, 0))), infer=infer_same,
         grad=lambda op, g: [apply_op("EluGrad", [g, op.outputs[0]], name="EluGrad")], fresh=True)
register("EluGrad", lambda g, y: np.where(y > 0, g, g * (y + 1)), infer=infer_same,
         grad=lambda op, gg: [apply_op("EluGrad", [gg, op.inputs[1]]),
                              where(op.inputs[1] > 0.0, zeros_like(gg), gg * op.inputs[0])], fresh=True)

register("Softplus", lambda x: np.logaddexp(0, x).astype(x.dtype, copy=False), infer=infer_same,
         grad=lambda op, g: [apply_op("SoftplusGrad", [g, op.inputs[0]], name="SoftplusGrad")], fresh=True)
register("SoftplusGrad", lambda g, x: g * _sigmoid(x), infer=infer_same,
         grad=lambda op, gg: [apply_op("SoftplusGrad", [gg, op.inputs[1]]), _softplus_grad_x(op, gg)], fresh=True)


def _softplus_grad_x(op, gg):
    g, x = op.inputs
    s = apply_op("Sigmoid", [x])
    return gg * g * s * (1.0 - s)


register("LeakyRelu", lambda x, alpha: np.where(x > 0, x, x * x.dtype.type(alpha)), infer=infer_same,
         grad=lambda op, g: [apply_op("LeakyReluGrad", [g, op.inputs[0]], name="LeakyReluGrad", **op.attrs)], fresh=True)
register("LeakyReluGrad", lambda g, x, alpha: np.where(x > 0, g, g * g.dtype.type(alpha)), infer=infer_same,
         grad=lambda op, gg: [apply_op("LeakyReluGrad", [gg, op.inputs[1]], **op.attrs), None], fresh=True)

relu6 = unary_builder("Relu6", "min(max(x, 0), 6) elementwise.")
elu = unary_builder("Elu", "x where x > 0, exp(x) - 1 elsewhere.")
softplus = unary_builder("Softplus", "log(1 + exp(x)) elementwise, stable for large |x|.")


def log_sigmoid(x, name=None):
    """log(sigmoid(x)) = -softplus(-x), stable for large |x|."""
    x = convert_to_tensor(x)
    return apply_op("Neg", [softplus(-x)], name=name or "LogSigmoid")


def leaky_relu(features, alpha=0.2, name=None):
    """x where x > 0, alpha * x elsewhere."""
    return apply_op("LeakyRelu", [convert_to_tensor(features)], name=name or "LeakyRelu", alpha=float(alpha))

