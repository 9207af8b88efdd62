"""Keras' neural-network functions: activations, cross-entropies, bias, convolution, pooling and dropout."""
import numpy as np

from ...ops import math_ops, nn_ops
from ...ops.activation_ops import softplus as tf_softplus, softsign as tf_softsign
from ...ops.array_ops import cast as tf_cast, reshape as tf_reshape
from ...ops.clip_ops import clip_by_value
from ...ops.conv1d_ops import conv1d as tf_conv1d
from ...ops.conv_ops import avg_pool, conv2d as tf_conv2d, max_pool
from ...ops.dropout_ops import dropout as tf_dropout
from ...ops.batch_norm_ops import batch_normalization as tf_batch_normalization, fused_batch_norm
from ...ops.nn_impl import l2_normalize as tf_l2_normalize, moments
from ...ops.reduction_ops import reduce_sum
from .config import epsilon
from .variables import int_shape


def relu(x, alpha=0.0, max_value=None, threshold=0.0):
    """max(x, 0) with Keras' leaky slope `alpha`, cap `max_value` and `threshold`."""
    if alpha == 0 and max_value is None and threshold == 0:
        return nn_ops.relu(x)
    negative = nn_ops.relu(-x + threshold) if alpha != 0 else None
    x = nn_ops.relu(x - threshold) + threshold * tf_cast(math_ops.greater(x, threshold), x.dtype) \
        if threshold != 0 else nn_ops.relu(x)
    if max_value is not None:
        x = clip_by_value(x, 0.0, max_value)
    if negative is not None:
        x = x - alpha * negative
    return x


def elu(x, alpha=1.0):
    """x for x > 0, alpha * (exp(x) - 1) otherwise."""
    return math_ops.where(math_ops.greater(x, 0.0), x, alpha * (math_ops.exp(x) - 1.0))


def sigmoid(x):
    return nn_ops.sigmoid(x)


def hard_sigmoid(x):
    """clip(0.2 * x + 0.5, 0, 1)."""
    return clip_by_value(0.2 * x + 0.5, 0.0, 1.0)


def tanh(x):
    return nn_ops.tanh(x)


def softmax(x, axis=-1):
    return nn_ops.softmax(x, axis=axis)


def softplus(x):
    return tf_softplus(x)


def softsign(x):
    return tf_softsign(x)


def activation_logits(output, op_type):
    """The logits an `op_type` op ("Softmax", "Sigmoid") made `output` from, else None: TF 1.15's Keras takes the
    cross-entropy from them, so a saturated softmax or sigmoid still has a gradient (b/117284466)."""
    op = getattr(output, "op", None)
    return op.inputs[0] if op is not None and op.type == op_type else None


def softmax_logits(output):
    """The logits a Softmax op made `output` from, else None."""
    return activation_logits(output, "Softmax")


def categorical_crossentropy(target, output, from_logits=False, axis=-1):
    """Cross-entropy of one-hot `target` and probabilities `output` (renormalized and clipped, as Keras); of the
    logits when `output` is a Softmax op's."""
    if not from_logits and softmax_logits(output) is not None:
        output, from_logits = softmax_logits(output), True
    if from_logits:
        return nn_ops.softmax_cross_entropy_with_logits_v2(labels=target, logits=output, axis=axis)
    output = output / reduce_sum(output, axis=axis, keepdims=True)
    output = clip_by_value(output, epsilon(), 1.0 - epsilon())
    return -reduce_sum(target * math_ops.log(output), axis=axis)


def sparse_categorical_crossentropy(target, output, from_logits=False, axis=-1):
    """Cross-entropy of integer `target` and probabilities `output` (taken back to logits by log, as Keras; a
    Softmax op's logits themselves)."""
    if not from_logits and softmax_logits(output) is not None:
        output, from_logits = softmax_logits(output), True
    if not from_logits:
        output = math_ops.log(clip_by_value(output, epsilon(), 1.0 - epsilon()))
    labels = tf_cast(tf_reshape(target, (-1,)), "int64")
    logits = tf_reshape(output, (-1, int_shape(output)[-1]))
    loss = nn_ops.sparse_softmax_cross_entropy_with_logits(labels=labels, logits=logits)
    out_shape = int_shape(output)
    if len(out_shape) > 2:
        return tf_reshape(loss, tuple(-1 if d is None else d for d in out_shape[:-1]))
    return loss


def binary_crossentropy(target, output, from_logits=False):
    """Elementwise binary cross-entropy: of the logits when `output` is a Sigmoid op's, else of the probabilities
    clipped to [epsilon, 1 - epsilon], -(t log(p + eps) + (1 - t) log(1 - p + eps)), as TF 1.15's Keras computes."""
    if not from_logits:
        logits = activation_logits(output, "Sigmoid")
        if logits is None:
            output = clip_by_value(output, epsilon(), 1.0 - epsilon())
            return -(target * math_ops.log(output + epsilon()) + (1 - target) * math_ops.log(1 - output + epsilon()))
        output = logits
    return nn_ops.sigmoid_cross_entropy_with_logits(labels=target, logits=output)


def l2_normalize(x, axis=None):
    return tf_l2_normalize(x, axis=axis)


def bias_add(x, bias, data_format=None):
    """x + bias along the channels (the last axis)."""
    return nn_ops.bias_add(x, bias)


def conv1d(x, kernel, strides=1, padding="valid", data_format=None, dilation_rate=1):
    """1-D convolution of (batch, steps, channels) with a (width, in, out) kernel."""
    return tf_conv1d(x, kernel, stride=strides, padding=padding.upper(), data_format="NWC",
                     dilations=dilation_rate)


def conv2d(x, kernel, strides=(1, 1), padding="valid", data_format=None, dilation_rate=(1, 1)):
    """2-D convolution of NHWC `x` with an HWIO kernel."""
    return tf_conv2d(x, kernel, strides=(1,) + tuple(strides) + (1,), padding=padding.upper(),
                     dilations=(1,) + tuple(dilation_rate) + (1,))


def pool2d(x, pool_size, strides=(1, 1), padding="valid", data_format=None, pool_mode="max"):
    """Max or average pooling of NHWC `x`."""
    if pool_mode not in ("max", "avg"):
        raise ValueError(f"Invalid pool_mode: {pool_mode!r}; use 'max' or 'avg'")
    pool = max_pool if pool_mode == "max" else avg_pool
    return pool(x, (1,) + tuple(pool_size) + (1,), (1,) + tuple(strides) + (1,), padding.upper())


def _broadcastable(param, x, axis):
    """A 1-D parameter along `axis` of x reshaped to broadcast against it."""
    if param is None or len(int_shape(param)) != 1 or axis in (-1, len(int_shape(x)) - 1):
        return param
    shape = [1] * len(int_shape(x))
    shape[axis] = -1
    return tf_reshape(param, shape)


def batch_normalization(x, mean, var, beta, gamma, axis=-1, epsilon=1e-3):
    """(x - mean) / sqrt(var + epsilon) * gamma + beta, the statistics along `axis`."""
    mean, var, beta, gamma = (_broadcastable(p, x, axis) for p in (mean, var, beta, gamma))
    return tf_batch_normalization(x, mean, var, beta, gamma, epsilon)


def normalize_batch_in_training(x, gamma, beta, reduction_axes, epsilon=1e-3):
    """(x normalized by its batch statistics over reduction_axes, the mean, the variance). 4-D inputs reduced
    over all but the last axis go through TF's fused batch norm, whose variance is unbiased, as Keras does on CPUs
    (channels-first ones take the plain path there)."""
    rank, axes = len(int_shape(x)), sorted(a % len(int_shape(x)) for a in reduction_axes)
    kept = [a for a in range(rank) if a not in axes]
    if rank == 4 and axes == [0, 1, 2]:
        ones = np.ones(int_shape(x)[3], np.dtype(x.dtype))
        return fused_batch_norm(x, ones if gamma is None else gamma, 0 * ones if beta is None else beta,
                                epsilon=epsilon)
    mean, var = moments(x, axes, keepdims=False)
    axis = kept[0] if len(kept) == 1 else -1
    return batch_normalization(x, mean, var, beta, gamma, axis=axis, epsilon=epsilon), mean, var


def dropout(x, level, noise_shape=None, seed=None):
    """x with a `level` fraction zeroed and the rest scaled by 1 / (1 - level)."""
    return tf_dropout(x, rate=level, noise_shape=noise_shape, seed=seed)
