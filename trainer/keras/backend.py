"""tf.keras.backend (K): Keras' session, learning phase, variables and math, on ringflow's graph.

As Keras 2.2.4-tf in graph mode: one session per graph (the default session when one is entered), whose
uninitialized variables are initialized the first time Keras hands the session out, unless
manual_variable_initialization(True); the learning phase is a boolean placeholder_with_default(False) per graph
that fit feeds True.
"""
import weakref

import numpy as np

from ..client.session import Session
from ..framework import dtypes
from ..framework.graph import get_default_graph, reset_default_graph
from ..framework.graph_wrappers import control_dependencies
from ..framework.stacks import get_default_session
from ..framework.tensor import Tensor
from ..ops import math_ops, nn_ops
from ..ops.activation_ops import softplus as tf_softplus, softsign as tf_softsign
from ..ops.array_ops import argmax as tf_argmax, argmin as tf_argmin, cast as tf_cast, concat
from ..ops.array_ops import one_hot as tf_one_hot, reshape as tf_reshape, shape as tf_shape, transpose as tf_transpose
from ..ops.clip_ops import clip_by_value
from ..ops.control_flow_ops import cond
from ..ops.core_ops import constant as tf_constant, group, identity as tf_identity, placeholder as tf_placeholder
from ..ops.core_ops import placeholder_with_default
from ..ops.cwise_ops import round as tf_round, stop_gradient as tf_stop_gradient
from ..ops.gradients import gradients as tf_gradients
from ..ops.nn_impl import l2_normalize as tf_l2_normalize
from ..ops.pad_ops import tile
from ..ops.reduction_ops import reduce_all, reduce_any, reduce_max, reduce_mean, reduce_min, reduce_prod, reduce_sum
from ..ops.shape_ops import expand_dims as tf_expand_dims, squeeze as tf_squeeze
from ..ops.stack_ops import stack as tf_stack
from ..ops.variables import Variable, assign, assign_add, assign_sub, global_variables, is_variable_initialized
from ..ops.variables import variables_initializer

_CONFIG = {"floatx": "float32", "epsilon": 1e-7, "image_data_format": "channels_last"}
_SESSIONS = weakref.WeakKeyDictionary()  # graph -> the session Keras made for it (Keras' _SESSION, per graph)
_LEARNING_PHASES = weakref.WeakKeyDictionary()  # graph -> its learning-phase placeholder, or a fixed 0/1
_READY = weakref.WeakKeyDictionary()  # session -> the variables already found initialized in it
_MANUAL_INIT = [False]
_UIDS = {}


def floatx():
    """The default float type as a string ('float32')."""
    return _CONFIG["floatx"]


def set_floatx(value):
    """Set the default float type ('float16', 'float32' or 'float64')."""
    if value not in ("float16", "float32", "float64"):
        raise ValueError(f"Unknown floatx type: {value!r}; use 'float16', 'float32' or 'float64'")
    _CONFIG["floatx"] = str(value)


def epsilon():
    """The fuzz factor Keras adds to avoid dividing by zero (1e-7)."""
    return _CONFIG["epsilon"]


def set_epsilon(value):
    """Set the fuzz factor."""
    _CONFIG["epsilon"] = float(value)


def image_data_format():
    """'channels_last' (NHWC), Keras' default."""
    return _CONFIG["image_data_format"]


def set_image_data_format(data_format):
    """Set the image data format; ringflow's convolutions run channels_last only."""
    if data_format not in ("channels_last", "channels_first"):
        raise ValueError(f"Unknown data_format: {data_format!r}; use 'channels_last' or 'channels_first'")
    _CONFIG["image_data_format"] = str(data_format)


def get_uid(prefix=""):
    """1, 2, 3, ... per prefix and graph: Keras' layer-name counter."""
    counts = _UIDS.setdefault(get_default_graph(), {})
    counts[prefix] = counts.get(prefix, 0) + 1
    return counts[prefix]


def reset_uids():
    """Restart the layer-name counters of the default graph."""
    _UIDS.pop(get_default_graph(), None)


def manual_variable_initialization(value):
    """True: get_session() leaves variables alone (the caller initializes them)."""
    _MANUAL_INIT[0] = bool(value)


def get_session():
    """The session Keras runs in: the default session if one is entered, else one per graph; variables it has
    not seen initialized get initialized now (unless manual_variable_initialization(True))."""
    session = get_default_session()
    if session is None:
        graph = get_default_graph()
        session = _SESSIONS.get(graph)
        if session is None:
            session = _SESSIONS[graph] = Session(graph=graph)
    if not _MANUAL_INIT[0]:
        _initialize_variables(session)
    return session


def _initialize_variables(session):
    ready = _READY.setdefault(session, set())
    candidates = [v for v in global_variables() if v not in ready]
    if not candidates:
        return
    flags = session.run([is_variable_initialized(v) for v in candidates])
    missing = [v for v, ok in zip(candidates, flags) if not ok]
    if missing:
        session.run(variables_initializer(missing))
    ready.update(candidates)


def set_session(session):
    """Make `session` the one Keras uses for its graph."""
    _SESSIONS[session.graph] = session


def clear_session():
    """Forget Keras' session and counters and start a new default graph (as Keras does)."""
    graph = get_default_graph()
    session = _SESSIONS.pop(graph, None)
    if session is not None:
        session.close()
    _LEARNING_PHASES.pop(graph, None)
    _UIDS.pop(graph, None)
    reset_default_graph()


def learning_phase():
    """The graph's learning phase: a bool tensor, False unless fed True (fit does), or the value set."""
    graph = get_default_graph()
    if graph not in _LEARNING_PHASES:
        with graph.name_scope(""):
            _LEARNING_PHASES[graph] = placeholder_with_default(False, shape=(), name="keras_learning_phase")
    return _LEARNING_PHASES[graph]


def set_learning_phase(value):
    """Fix the learning phase to 0 (test) or 1 (train) for the layers built from now on."""
    if value not in (0, 1):
        raise ValueError(f"Expected learning phase to be 0 or 1, got {value!r}")
    _LEARNING_PHASES[get_default_graph()] = value


def in_train_phase(x, alt, training=None):
    """`x` in the training phase, `alt` otherwise (callables or tensors)."""
    training = learning_phase() if training is None else training
    if training is True or training == 1 and not isinstance(training, Tensor):
        return x() if callable(x) else x
    if training is False or training == 0 and not isinstance(training, Tensor):
        return alt() if callable(alt) else alt
    return cond(tf_cast(training, "bool"), x if callable(x) else lambda: x, alt if callable(alt) else lambda: alt)


def in_test_phase(x, alt, training=None):
    """`x` in the test phase, `alt` in training."""
    return in_train_phase(alt, x, training=training)


# --- variables and placeholders -----------------------------------------------------------------------------
def variable(value, dtype=None, name=None, constraint=None):
    """A variable holding `value` (initialized when get_session() next hands out the session)."""
    value = np.asarray(value, dtype=dtype or floatx())
    v = Variable(value, dtype=value.dtype, name=name, constraint=constraint)
    return v


def constant(value, dtype=None, shape=None, name=None):
    """A constant tensor (floatx by default)."""
    return tf_constant(value, dtype=dtype or floatx(), shape=shape, name=name or "Const")


def placeholder(shape=None, ndim=None, dtype=None, sparse=False, name=None):
    """A placeholder of `shape` (or `ndim` unknown dims)."""
    if sparse:
        raise ValueError("sparse placeholders are not available in ringflow; feed dense arrays")
    if shape is None and ndim:
        shape = (None,) * ndim
    return tf_placeholder(dtype or floatx(), shape=shape, name=name)


def is_placeholder(x):
    """Whether `x` is a placeholder tensor."""
    return isinstance(x, Tensor) and x.op.type == "Placeholder"


def is_tensor(x):
    return isinstance(x, Tensor)


def is_keras_tensor(x):
    """Whether `x` came out of a Keras layer (an Input or a layer call)."""
    return isinstance(x, Tensor) and hasattr(x, "_keras_history")


def int_shape(x):
    """The static shape as a tuple of ints and None."""
    shape = x.shape if isinstance(x, Tensor) else np.shape(x)
    if getattr(shape, "ndims", 0) is None:
        return None
    return tuple(getattr(d, "value", d) for d in shape)


def ndim(x):
    shape = int_shape(x)
    return None if shape is None else len(shape)


def dtype(x):
    """The dtype's name ('float32')."""
    return dtypes.as_dtype(x.dtype).name


def shape(x):
    """The dynamic shape as a tensor."""
    return tf_shape(x)


def eval(x):  # noqa: A001 - Keras' name
    """The value of `x` as numpy, run in Keras' session."""
    return get_session().run(x)


def get_value(x):
    """A variable's (or tensor's) value as numpy."""
    return get_session().run(x)


def batch_get_value(xs):
    """The values of several variables in one run."""
    return get_session().run(list(xs)) if xs else []


def set_value(x, value):
    """Assign a numpy value to a variable."""
    batch_set_value([(x, value)])


def batch_set_value(tuples):
    """Assign several (variable, value) pairs in one run."""
    if tuples:
        session = get_session()  # initializes first, so no later initialization undoes the assignment
        for v, value in tuples:
            v.load(np.asarray(value, dtype=v.dtype), session=session)


def zeros(shape, dtype=None, name=None):  # noqa: A002
    return variable(np.zeros(shape), dtype, name)


def ones(shape, dtype=None, name=None):  # noqa: A002
    return variable(np.ones(shape), dtype, name)


def count_params(x):
    return int(np.prod(int_shape(x)))


def update(x, new_x):
    return assign(x, new_x)


def update_add(x, increment):
    return assign_add(x, increment)


def moving_average_update(x, value, momentum):
    """x = x * momentum + value * (1 - momentum), as an op."""
    return assign_sub(x, (x - value) * (1 - momentum))


# --- math ---------------------------------------------------------------------------------------------------
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


def random_uniform_variable(shape, low, high, dtype=None, name=None, seed=None):
    rng = np.random.RandomState(seed)
    return variable(rng.uniform(low, high, size=shape), dtype, name)


def random_normal_variable(shape, mean, scale, dtype=None, name=None, seed=None):
    rng = np.random.RandomState(seed)
    return variable(rng.normal(mean, scale, size=shape), dtype, name)


class Function:
    """K.function's callable: feeds `inputs` with the given arrays, runs `updates` with `outputs`."""

    def __init__(self, inputs, outputs, updates=None, name=None, **session_kwargs):
        self.inputs, self.outputs = list(inputs), list(outputs)
        self.name = name
        with control_dependencies(self.outputs):
            updates = [u if not isinstance(u, tuple) else update(*u) for u in (updates or [])]
            self.updates_op = group(*updates) if updates else None
        self.feed_dict = dict(session_kwargs.pop("feed_dict", None) or {})
        self.fetches = list(session_kwargs.pop("fetches", None) or [])
        if session_kwargs:
            raise ValueError(f"Invalid argument(s) {sorted(session_kwargs)} passed to K.function; it takes "
                             "inputs, outputs, updates, name, feed_dict and fetches")

    def __call__(self, inputs):
        if len(inputs) != len(self.inputs):
            raise ValueError(f"K.function {self.name or ''} takes {len(self.inputs)} inputs, got {len(inputs)}")
        feed = dict(self.feed_dict)
        for tensor, value in zip(self.inputs, inputs):
            if isinstance(value, Tensor):
                raise ValueError(f"K.function feeds numpy arrays, got the tensor {value.name!r} for "
                                 f"{tensor.name!r}")
            if value is not None:
                feed[tensor] = value
        fetches = self.outputs + ([self.updates_op] if self.updates_op is not None else []) + self.fetches
        values = get_session().run(fetches, feed_dict=feed)
        return values[:len(self.outputs)]


def function(inputs, outputs, updates=None, **kwargs):
    """A callable that runs `outputs` (and `updates`) in Keras' session for a list of input arrays."""
    return Function(inputs, outputs, updates=updates, **kwargs)


def stop_gradient(variables):
    return tf_stop_gradient(variables)


def identity(x, name=None):
    return tf_identity(x, name=name)
