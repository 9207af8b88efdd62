"""Neural-network ops: activations, softmax, dropout, bias_add and the (numerically stable) losses."""
import numpy as np

from ..random_seed import get_seed
from .array_ops import strided_slice
from .core_ops import convert_to_tensor
from .math_ops import binary_operands, exp, inplace_binary, mark_fresh, set_inplace, unary_builder
from .reduction_ops import reduce_sum
from .registry import apply_op, infer_same, register


def _relu_grad(g, y):
    return np.multiply(g, y > 0)


def _sigmoid(x):
    return np.exp(-np.logaddexp(0, -x)).astype(x.dtype, copy=False)


_ACTIVATIONS = {  # type: (forward, gradient op type, gradient forward on (g, y))
    "Relu": (lambda x: np.maximum(x, 0), "ReluGrad", _relu_grad),
    "Sigmoid": (_sigmoid, "SigmoidGrad", lambda g, y: g * (y * (1 - y))),
    "Tanh": (np.tanh, "TanhGrad", lambda g, y: g * (1 - y * y)),
}
for _type, (_forward, _grad_type, _grad_forward) in _ACTIVATIONS.items():
    register(_type, _forward, infer=infer_same,
             grad=lambda op, g, t=_grad_type: [apply_op(t, [g, op.outputs[0]], name=t)])
    register(_grad_type, _grad_forward, infer=infer_same,
             grad=lambda op, gg, t=_type: _activation_grad_grad(t, op, gg))


def _activation_grad_grad(op_type, op, gg):
    g, y = op.inputs
    if op_type == "Relu":
        return [apply_op("ReluGrad", [gg, y]), None]
    if op_type == "Sigmoid":
        return [apply_op("SigmoidGrad", [gg, y]), gg * g * (1.0 - 2.0 * y)]
    return [apply_op("TanhGrad", [gg, y]), gg * g * (-2.0 * y)]


relu = unary_builder("Relu", "max(x, 0) elementwise.")
sigmoid = unary_builder("Sigmoid", "1 / (1 + exp(-x)) elementwise, stable for large |x|.")
tanh = unary_builder("Tanh", "Hyperbolic tangent elementwise.")


def _softmax(x):
    e = np.exp(x - x.max(axis=-1, keepdims=True))
    e /= e.sum(axis=-1, keepdims=True)
    return e


def _log_softmax(x):
    shifted = x - x.max(axis=-1, keepdims=True)
    shifted -= np.log(np.exp(shifted).sum(axis=-1, keepdims=True))
    return shifted


def _softmax_grad(op, g):
    y = op.outputs[0]
    return [(g - reduce_sum(g * y, axis=-1, keepdims=True)) * y]


def _log_softmax_grad(op, g):
    return [g - exp(op.outputs[0]) * reduce_sum(g, axis=-1, keepdims=True)]


register("Softmax", _softmax, infer=infer_same, grad=_softmax_grad)
register("LogSoftmax", _log_softmax, infer=infer_same, grad=_log_softmax_grad)
softmax = unary_builder("Softmax", "exp(x) / sum(exp(x)) over the last axis, shifted by the max for stability.")
log_softmax = unary_builder("LogSoftmax", "x - log(sum(exp(x))) over the last axis, stable for large logits.")


def _xent_forward(logits, labels):
    shifted = logits - logits.max(axis=-1, keepdims=True)
    cross = (labels * shifted).sum(axis=-1)
    np.exp(shifted, out=shifted)
    total = shifted.sum(axis=-1, keepdims=True)
    loss = np.log(total[..., 0]) * labels.sum(axis=-1) - cross
    shifted /= total
    shifted -= labels
    return loss, shifted


def _xent_grad(op, g, _):
    logits, labels = op.inputs
    g = strided_slice(g, (Ellipsis, None))
    return [op.outputs[1] * g, g * -log_softmax(logits)]


def _xent_infer(logits, labels):
    return [(None if logits.shape is None else logits.shape[:-1], logits.dtype), (logits.shape, logits.dtype)]


register("SoftmaxCrossEntropyWithLogits", _xent_forward, infer=_xent_infer, grad=_xent_grad)


def softmax_cross_entropy_with_logits(labels=None, logits=None, name=None):
    """-sum(labels * log_softmax(logits)) over the last axis; its logits gradient is softmax - labels, fused."""
    logits, labels = binary_operands("SoftmaxCrossEntropyWithLogits", logits, labels)
    return apply_op("SoftmaxCrossEntropyWithLogits", [logits, labels], name=name or "softmax_cross_entropy")[0]


def _sparse_xent_forward(logits, labels):
    shifted = logits - logits.max(axis=-1, keepdims=True)
    flat, labels = shifted.reshape(-1, shifted.shape[-1]), labels.reshape(-1)
    rows = np.arange(len(labels))
    picked = flat[rows, labels]
    np.exp(shifted, out=shifted)
    total = shifted.sum(axis=-1, keepdims=True)
    loss = np.log(total[..., 0]) - picked.reshape(total.shape[:-1])
    shifted /= total
    flat[rows, labels] -= 1
    return loss, shifted


register("SparseSoftmaxCrossEntropyWithLogits", _sparse_xent_forward, infer=_xent_infer,
         grad=lambda op, g, _: [op.outputs[1] * strided_slice(g, (Ellipsis, None)), None])


def sparse_softmax_cross_entropy_with_logits(labels=None, logits=None, name=None):
    """Softmax cross-entropy with integer class `labels` (one per row of `logits`)."""
    logits, labels = convert_to_tensor(logits), convert_to_tensor(labels)
    if labels.dtype.kind not in "iu":
        raise TypeError(f"sparse_softmax_cross_entropy_with_logits needs integer labels, got {labels.dtype.name}")
    return apply_op("SparseSoftmaxCrossEntropyWithLogits", [logits, labels],
                    name=name or "sparse_softmax_cross_entropy")[0]


def _sigmoid_xent(x, z):
    return np.maximum(x, 0) - x * z + np.log1p(np.exp(-np.abs(x)))


register("SigmoidCrossEntropyWithLogits", _sigmoid_xent,
         grad=lambda op, g: [g * (sigmoid(op.inputs[0]) - op.inputs[1]), g * -op.inputs[0]])


def sigmoid_cross_entropy_with_logits(labels=None, logits=None, name=None):
    """max(x, 0) - x * z + log(1 + exp(-|x|)) elementwise: stable for large |logits|."""
    logits, labels = binary_operands("SigmoidCrossEntropyWithLogits", logits, labels)
    return apply_op("SigmoidCrossEntropyWithLogits", [logits, labels], name=name or "logistic_loss")


register("L2Loss", lambda x: np.asarray(np.vdot(x, x) / 2, dtype=x.dtype),
         infer=lambda x: [((), x.dtype)], grad=lambda op, g: [op.inputs[0] * g])


def l2_loss(t, name=None):
    """sum(t ** 2) / 2."""
    return apply_op("L2Loss", [convert_to_tensor(t)], name=name or "L2Loss")


def _bias_add_grad(g):
    return g.sum(axis=tuple(range(g.ndim - 1))) if g.ndim > 2 else np.add.reduce(g, axis=0)


register("BiasAdd", np.add, infer=lambda x, b: [(x.shape, x.dtype)],
         grad=lambda op, g: [g, apply_op("BiasAddGrad", [g], name="BiasAddGrad")])
register("BiasAddGrad", _bias_add_grad,
         infer=lambda g: [(None if g.shape is None else g.shape[-1:], g.dtype)],
         grad=lambda op, gg: [apply_op("BroadcastLike", [gg, op.inputs[0]])]).into = \
    lambda out, g: np.add.reduce(g, axis=tuple(range(g.ndim - 1)), out=out)


def bias_add(value, bias, name=None):
    """value + bias, with the 1-D bias added along the last axis."""
    value, bias = binary_operands("BiasAdd", value, bias)
    if bias.ndim != 1:
        raise ValueError(f"bias_add needs a 1-D bias, got shape {bias.shape} ({bias.name!r})")
    return apply_op("BiasAdd", [value, bias], name=name or "BiasAdd")


def _dropout_kernel(op, session):
    rng, rate = session.rng(op), op.attrs["rate"]
    scale = 1.0 / (1.0 - rate)

    def dropout(x):
        mask = (rng.random(x.shape, dtype=np.float64) >= rate).astype(x.dtype)
        mask *= scale
        return x * mask, mask
    return dropout


register("Dropout", kernel=_dropout_kernel, infer=lambda x, **a: [(x.shape, x.dtype)] * 2,
         grad=lambda op, g, _: [g * op.outputs[1]])


def dropout(x, rate, seed=None, training=True, name=None):
    """Zero each element with probability `rate`, scale the rest by 1 / (1 - rate); identity unless training."""
    x = convert_to_tensor(x)
    rate = float(rate)
    if not 0.0 <= rate < 1.0:
        raise ValueError(f"dropout rate must be in [0, 1), got {rate!r}")
    if not training or rate == 0.0:
        return x
    seed1, seed2 = get_seed(seed)
    return apply_op("Dropout", [x], name=name or "dropout", rate=rate, seed=seed1, seed2=seed2)[0]



mark_fresh("Relu", "ReluGrad", "Sigmoid", "SigmoidGrad", "Tanh", "TanhGrad", "Softmax", "LogSoftmax",
           "SoftmaxCrossEntropyWithLogits", "SparseSoftmaxCrossEntropyWithLogits", "SigmoidCrossEntropyWithLogits",
           "L2Loss", "BiasAdd", "BiasAddGrad", "Dropout")
set_inplace("Relu", lambda x: np.maximum(x, 0, out=x))
set_inplace("ReluGrad", lambda g, y: np.multiply(g, y > 0, out=g))
set_inplace("BiasAdd", inplace_binary(np.add))
