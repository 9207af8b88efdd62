"""Keras' math on tensors: reductions, elementwise functions, activations, cross-entropies, shape changes."""
import numpy as np

from ...ops import math_ops, nn_ops
from ...ops.activation_ops import softplus as tf_softplus, softsign as tf_softsign
from ...ops.array_ops import argmax as tf_argmax, argmin as tf_argmin, cast as tf_cast, concat
from ...ops.array_ops import one_hot as tf_one_hot, reshape as tf_reshape, transpose as tf_transpose
from ...ops.clip_ops import clip_by_value
from ...ops.core_ops import identity as tf_identity
from ...ops.cwise_ops import round as tf_round, stop_gradient as tf_stop_gradient
from ...ops.gradients import gradients as tf_gradients
from ...ops.nn_impl import l2_normalize as tf_l2_normalize
from ...ops.pad_ops import tile
from ...ops.reduction_ops import reduce_all, reduce_any, reduce_max, reduce_mean, reduce_min, reduce_prod, reduce_sum
from ...ops.shape_ops import expand_dims as tf_expand_dims, squeeze as tf_squeeze
from ...ops.stack_ops import stack as tf_stack
from .config import epsilon
from .variables import int_shape, ndim


def _axis(axis):
    return list(axis) if isinstance(axis, tuple) else axis


def dot(x, y):
    """Matrix product; for rank > 2, contracts x's last axis with y's second to last (as Keras)."""
    if ndim(x) is not None and ndim(x) > 2 or ndim(y) is not None and ndim(y) > 2:
        xs, ys = int_shape(x), int_shape(y)
        y_perm = list(range(len(ys)))
        y_perm = [y_perm[-2]] + y_perm[:-2] + y_perm[-1:]
        yt = tf_reshape(tf_transpose(y, y_perm), (ys[-2], -1))
        out = math_ops.matmul(tf_reshape(x, (-1, xs[-1])), yt)
        tail = ys[:-2] + ys[-1:]
        return tf_reshape(out, tuple(-1 if d is None else d for d in xs[:-1]) + tail)
    return math_ops.matmul(x, y)


def batch_dot(x, y, axes=None):
    """Batchwise dot of two rank-2 or rank-3 tensors along `axes` (Keras' default: last of x, last of y for
    rank 2, else last of x and second to last of y)."""
    if axes is None:
        axes = (ndim(x) - 1, ndim(y) - 1 if ndim(y) == 2 else ndim(y) - 2)
    if isinstance(axes, int):
        axes = (axes, axes)
    if ndim(x) == 2 and ndim(y) == 2:
        return reduce_sum(x * y, axis=axes[0], keepdims=True) if axes[0] == axes[1] else \
            reduce_sum(x * tf_transpose(y), axis=axes[0], keepdims=True)
    return math_ops.matmul(x, y, transpose_a=axes[0] != ndim(x) - 1, transpose_b=axes[1] != ndim(y) - 2)


def transpose(x):
    return tf_transpose(x)


def sum(x, axis=None, keepdims=False):  # noqa: A001
    return reduce_sum(x, axis=_axis(axis), keepdims=keepdims)


def prod(x, axis=None, keepdims=False):
    return reduce_prod(x, axis=_axis(axis), keepdims=keepdims)


def mean(x, axis=None, keepdims=False):
    return reduce_mean(x, axis=_axis(axis), keepdims=keepdims)


def max(x, axis=None, keepdims=False):  # noqa: A001
    return reduce_max(x, axis=_axis(axis), keepdims=keepdims)


def min(x, axis=None, keepdims=False):  # noqa: A001
    return reduce_min(x, axis=_axis(axis), keepdims=keepdims)


def any(x, axis=None, keepdims=False):  # noqa: A001
    return reduce_any(tf_cast(x, "bool"), axis=_axis(axis), keepdims=keepdims)


def all(x, axis=None, keepdims=False):  # noqa: A001
    return reduce_all(tf_cast(x, "bool"), axis=_axis(axis), keepdims=keepdims)


def var(x, axis=None, keepdims=False):
    m = reduce_mean(x, axis=_axis(axis), keepdims=True)
    return reduce_mean(math_ops.square(x - m), axis=_axis(axis), keepdims=keepdims)


def std(x, axis=None, keepdims=False):
    return math_ops.sqrt(var(x, axis=axis, keepdims=keepdims))


def argmax(x, axis=-1):
    return tf_argmax(x, axis)


def argmin(x, axis=-1):
    return tf_argmin(x, axis)


def square(x):
    return math_ops.square(x)


def abs(x):  # noqa: A001
    return math_ops.abs(x)


def sqrt(x):
    """sqrt(max(x, 0)), as Keras clips first."""
    return math_ops.sqrt(clip_by_value(x, 0.0, np.inf))


def exp(x):
    return math_ops.exp(x)


def log(x):
    return math_ops.log(x)


def pow(x, a):  # noqa: A001
    return math_ops.pow(x, a)


def sign(x):
    return math_ops.sign(x)


def round(x):  # noqa: A001
    return tf_round(x)


def clip(x, min_value, max_value):
    """x clipped to [min_value, max_value] (max_value < min_value is taken as min_value)."""
    if max_value is not None and min_value is not None and max_value < min_value:
        max_value = min_value
    return clip_by_value(x, -np.inf if min_value is None else min_value, np.inf if max_value is None else max_value)


def equal(x, y):
    return math_ops.equal(x, y)


def not_equal(x, y):
    return math_ops.not_equal(x, y)


def greater(x, y):
    return math_ops.greater(x, y)


def greater_equal(x, y):
    return math_ops.greater_equal(x, y)


def less(x, y):
    return math_ops.less(x, y)


def less_equal(x, y):
    return math_ops.less_equal(x, y)


def maximum(x, y):
    return math_ops.maximum(x, y)


def minimum(x, y):
    return math_ops.minimum(x, y)


def cast(x, dtype):  # noqa: F811 - Keras' name
    return tf_cast(x, dtype)


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


def categorical_crossentropy(target, output, from_logits=False, axis=-1):
    """Cross-entropy of one-hot `target` and probabilities `output` (renormalized and clipped, as Keras)."""
    if from_logits:
        return nn_ops.softmax_cross_entropy_with_logits_v2(labels=target, logits=output, axis=axis)
    output = output / reduce_sum(output, axis=axis, keepdims=True)
    output = clip_by_value(output, epsilon(), 1.0 - epsilon())
    return -reduce_sum(target * math_ops.log(output), axis=axis)


def sparse_categorical_crossentropy(target, output, from_logits=False, axis=-1):
    """Cross-entropy of integer `target` and probabilities `output` (taken back to logits by log, as Keras)."""
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
    """Elementwise binary cross-entropy; probabilities are clipped and taken back to logits, as Keras."""
    if not from_logits:
        output = clip_by_value(output, epsilon(), 1.0 - epsilon())
        output = math_ops.log(output / (1.0 - output))
    return nn_ops.sigmoid_cross_entropy_with_logits(labels=target, logits=output)


def l2_normalize(x, axis=None):
    return tf_l2_normalize(x, axis=axis)


def concatenate(tensors, axis=-1):
    if axis < 0:
        axis = axis % ndim(tensors[0]) if ndim(tensors[0]) else 0
    return concat(list(tensors), axis)


def reshape(x, shape):  # noqa: A002
    return tf_reshape(x, shape)


def permute_dimensions(x, pattern):
    return tf_transpose(x, list(pattern))


def expand_dims(x, axis=-1):
    return tf_expand_dims(x, axis)


def squeeze(x, axis):
    return tf_squeeze(x, [axis])


def stack(x, axis=0):
    return tf_stack(list(x), axis=axis)


def flatten(x):
    return tf_reshape(x, (-1,))


def batch_flatten(x):
    """(batch, everything else)."""
    dims = int_shape(x)[1:]
    return tf_reshape(x, (-1, int(np.prod(dims))))


def repeat(x, n):
    """(batch, dim) -> (batch, n, dim)."""
    return tile(tf_expand_dims(x, 1), [1, n, 1])


def one_hot(indices, num_classes):
    return tf_one_hot(indices, num_classes)


def zeros_like(x, dtype=None, name=None):  # noqa: A002
    return math_ops.zeros_like(x, dtype=dtype, name=name)


def ones_like(x, dtype=None, name=None):  # noqa: A002
    return math_ops.ones_like(x, dtype=dtype, name=name)


def gradients(loss, variables):
    return tf_gradients(loss, variables)


def stop_gradient(variables):
    return tf_stop_gradient(variables)


def identity(x, name=None):
    return tf_identity(x, name=name)
