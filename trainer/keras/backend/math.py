"""Keras' math on tensors: products, reductions, elementwise functions, comparisons, shape changes."""
import numpy as np

from ...ops import math_ops
from ...ops.array_ops import argmax as tf_argmax, argmin as tf_argmin, cast as tf_cast, concat
from ...ops.array_ops import one_hot as tf_one_hot, reshape as tf_reshape, shape as tf_shape, transpose as tf_transpose
from ...ops.clip_ops import clip_by_value
from ...ops.core_ops import identity as tf_identity
from ...ops.cwise_ops import round as tf_round, stop_gradient as tf_stop_gradient
from ...ops.gradients import gradients as tf_gradients
from ...ops.control_flow_ops import cond
from ...ops.cwise_ops import cos as tf_cos, sin as tf_sin
from ...ops.fill_ops import range as tf_range
from ...ops.gather_ops import gather as tf_gather, in_top_k as tf_in_top_k
from ...ops.pad_ops import tile as tf_tile
from ...ops.reverse_ops import reverse as tf_reverse
from ...ops.scan_ops import cumprod as tf_cumprod, cumsum as tf_cumsum
from ...ops.reduction_ops import reduce_all, reduce_any, reduce_max, reduce_mean, reduce_min, reduce_prod, reduce_sum
from ...ops.shape_ops import expand_dims as tf_expand_dims, squeeze as tf_squeeze
from ...ops.stack_ops import stack as tf_stack
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


def cast(x, dtype):  # noqa: A002 - Keras' argument name
    return tf_cast(x, dtype)


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
    return tf_tile(tf_expand_dims(x, 1), [1, n, 1])


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


def tile(x, n):
    """x repeated n[i] times along axis i."""
    return tf_tile(x, [n] if isinstance(n, int) else list(n))


def gather(reference, indices):
    """Rows of `reference` at `indices`."""
    return tf_gather(reference, indices)


def switch(condition, then_expression, else_expression):
    """then_expression where a scalar `condition` holds, else else_expression (tensors or callables)."""
    then_fn = then_expression if callable(then_expression) else (lambda: then_expression)
    else_fn = else_expression if callable(else_expression) else (lambda: else_expression)
    return cond(tf_cast(condition, "bool"), then_fn, else_fn)


def arange(start, stop=None, step=1, dtype="int32"):
    """start, start + step, ... below stop (0 .. start - 1 when stop is None)."""
    if stop is None:
        start, stop = 0, start
    return tf_cast(tf_range(start, stop, step), dtype)


def cumsum(x, axis=0):
    return tf_cumsum(x, axis=axis)


def cumprod(x, axis=0):
    return tf_cumprod(x, axis=axis)


def cos(x):
    return tf_cos(x)


def sin(x):
    return tf_sin(x)


def reverse(x, axes):
    """x reversed along `axes` (an int or a list)."""
    return tf_reverse(x, [axes] if isinstance(axes, int) else list(axes))


def repeat_elements(x, rep, axis):
    """Each entry repeated `rep` times along `axis`, as np.repeat."""
    rank = ndim(x)
    axis = axis % rank
    tiled = tf_tile(tf_expand_dims(x, axis + 1), [1] * (axis + 1) + [rep] + [1] * (rank - axis - 1))
    dims = list(int_shape(x))
    unknown = None in dims
    if unknown:
        dynamic = tf_shape(x)
        dims = [dynamic[i] if d is None else d for i, d in enumerate(dims)]
    dims[axis] = dims[axis] * rep
    return tf_reshape(tiled, tf_stack(dims) if unknown else dims)


def in_top_k(predictions, targets, k):
    """Whether each target is among its row's k largest predictions."""
    return tf_in_top_k(predictions, targets, k)
