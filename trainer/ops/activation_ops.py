"""TF1's activations beyond relu/sigmoid/tanh (nn_ops.py): relu6, elu, softplus, leaky_relu, selu and softsign,
each with its gradient op."""
import numpy as np

from .core_ops import convert_to_tensor
from .math_ops import abs as abs_, check_input_kind, sign, unary_builder, where, zeros_like
from ..framework.registry import apply_op, infer_same, register


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
    """x where x > 0, alpha * x elsewhere (integer features are cast to float32 first, as in TF1)."""
    features = convert_to_tensor(features)
    if features.dtype.kind in "iu":
        features = apply_op("Cast", [features], dtype=np.float32)
    check_input_kind("LeakyRelu", features)
    # TF1's LeakyRelu keeps alpha in a float attribute, 32 bits wide even for float64 features
    return apply_op("LeakyRelu", [features], name=name or "LeakyRelu", alpha=float(np.float32(alpha)))


# SELU's constants (Klambauer et al. 2017), the values TF1 uses.
SELU_SCALE = 1.0507009873554804934193349852946
SELU_ALPHA = 1.6732632423543772848170429916717


def _selu(x):
    return (SELU_SCALE * np.where(x > 0, x, SELU_ALPHA * np.expm1(np.minimum(x, 0)))).astype(x.dtype, copy=False)


def _selu_grad(g, y):
    return np.where(y > 0, g * SELU_SCALE, g * (y + SELU_SCALE * SELU_ALPHA)).astype(g.dtype, copy=False)


register("Selu", _selu, infer=infer_same, fresh=True,
         grad=lambda op, g: [apply_op("SeluGrad", [g, op.outputs[0]], name="SeluGrad")])
register("SeluGrad", _selu_grad, infer=infer_same, fresh=True,
         grad=lambda op, gg: [apply_op("SeluGrad", [gg, op.inputs[1]]),
                              where(op.inputs[1] > 0.0, zeros_like(gg), gg * op.inputs[0])])


def _softsign_grad_x(op, gg):
    g, x = op.inputs
    d = 1.0 + abs_(x)
    return gg * g * -2.0 * sign(x) / (d * d * d)


register("Softsign", lambda x: x / (1 + np.abs(x)), infer=infer_same, fresh=True,
         grad=lambda op, g: [apply_op("SoftsignGrad", [g, op.inputs[0]], name="SoftsignGrad")])
register("SoftsignGrad", lambda g, x: g / np.square(1 + np.abs(x)), infer=infer_same, fresh=True,
         grad=lambda op, gg: [apply_op("SoftsignGrad", [gg, op.inputs[1]]), _softsign_grad_x(op, gg)])

selu = unary_builder("Selu", "scale * x where x > 0, scale * alpha * (exp(x) - 1) elsewhere (self-normalizing).")
softsign = unary_builder("Softsign", "x / (1 + |x|) elementwise.")
