"""More of tg.nn: the selu and softsign activations (with gradient ops), swish, crelu and the weighted
sigmoid cross entropy, the last three built from other ops as TF1 builds them."""
import numpy as np

from ..framework.graph_wrappers import name_scope
from .array_ops import concat
from .core_ops import convert_to_tensor
from .cwise_ops import log1p
from .math_ops import abs as abs_, binary_operands, exp, maximum, sign, unary_builder, where, zeros_like
from .nn_ops import relu, sigmoid
from ..framework.registry import apply_op, infer_same, register

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


def swish(features):
    """x * sigmoid(x) (Ramachandran et al. 2017)."""
    with name_scope("swish"):
        x = convert_to_tensor(features)
        return x * sigmoid(x)


def crelu(features, name=None, axis=-1):
    """relu of [x, -x] joined along `axis`: the positive and the negative part, so that dim doubles."""
    with name_scope(name or "CRelu"):
        x = convert_to_tensor(features)
        return relu(concat([x, -x], axis))


def weighted_cross_entropy_with_logits(labels=None, logits=None, pos_weight=None, name=None, targets=None):
    """Sigmoid cross entropy with the positive term scaled by pos_weight:
    (1 - z) * x + (1 + (q - 1) * z) * (log(1 + exp(-|x|)) + max(-x, 0)); `targets` is TF1's older name of labels."""
    if (labels is None) == (targets is None):
        raise ValueError("weighted_cross_entropy_with_logits takes the labels as `labels` or `targets` "
                         "(exactly one of them)")
    if logits is None or pos_weight is None:
        raise ValueError(f"weighted_cross_entropy_with_logits needs logits and pos_weight, got logits={logits!r} "
                         f"pos_weight={pos_weight!r}")
    with name_scope(name or "logistic_loss"):
        x, z = binary_operands("weighted_cross_entropy_with_logits", logits, targets if labels is None else labels)
        if x.ndim is not None and z.ndim is not None and tuple(x.shape) != tuple(z.shape) and \
                None not in tuple(x.shape) + tuple(z.shape):
            raise ValueError(f"logits and labels must have the same shape, got {x.name!r} of shape {x.shape} and "
                             f"{z.name!r} of shape {z.shape}")
        log_weight = 1.0 + (pos_weight - 1.0) * z
        return (1.0 - z) * x + log_weight * (log1p(exp(-abs_(x))) + maximum(-x, 0.0))
